//! Saved explorations: what the user is looking at (ruleset, slice, view, colours, overlays,
//! the selected position and move tree, the Cram board, notes) as a versioned RON document.
//! Saving is atomic; loading names the file and line of any error and never half-applies a file.
//! No GUI toolkit here: the window and `nimscope export` read the same files.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::camera::Camera;
use crate::figure::{FigureSpec, FigureStyle, Subject};
use crate::game::Ruleset;
use crate::game::cram_setup::CramDocument;
use crate::game::prediction::Prediction;
use crate::game::{Layout, Presentation};
use crate::raster::{ColorMode, CompareWith, Overlays};
use crate::solver::play::{GameRecord, Opponent};

/// The format this build writes; files with a larger number come from a newer nimscope.
pub const FORMAT_VERSION: u32 = 1;

/// What the central area shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Tab {
    #[default]
    ValueMap,
    CramBoard,
}

/// The inspector's document: the selected position, the open nodes of the move tree and the
/// game being played (the window's inspector holds one).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct InspectorDocument {
    /// The selected position in the ruleset's text form (`3,5`, `20:5`, `pushed(2,4)`, ...).
    pub selected: Option<String>,
    /// The text of the position field.
    pub typed: String,
    /// Expanded nodes of the move tree: the path of position texts from the root, joined by
    /// `" > "`.
    pub expanded: BTreeSet<String>,
    /// How many children a node shows, for nodes showing more than a page.
    pub shown: BTreeMap<String, usize>,
    /// The game being played (play mode), if any.
    pub play: Option<GameRecord>,
    /// The opponent chosen for the next game.
    pub opponent: Opponent,
}

/// One saved exploration.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename = "Session")]
pub struct Session {
    pub format_version: u32,
    /// The ruleset expression, as the command line takes it.
    pub ruleset: String,
    /// Fixed heaps of a slice such as `1,_,_`; empty for the plain map.
    pub slice: String,
    pub tab: Tab,
    pub view: Camera,
    /// The cells a figure of this session shows: rows `a`, columns `b`.
    pub rows: Range<u64>,
    pub cols: Range<u64>,
    /// Heaps shown for one-heap rulesets: G(0..sequence_len).
    pub sequence_len: u64,
    pub color: ColorMode,
    pub overlays: Overlays,
    /// Ruleset compared with in the difference colour mode (empty: none).
    pub compare: String,
    /// A theorem's prediction compared with instead of a ruleset.
    pub compare_theorem: Option<Prediction>,
    pub inspector: InspectorDocument,
    /// The Cram board editor's board.
    pub board: Option<CramDocument>,
    pub figure: FigureStyle,
    /// Free text: what the user noticed.
    pub notes: String,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            format_version: FORMAT_VERSION,
            ruleset: "wythoff".into(),
            slice: String::new(),
            tab: Tab::ValueMap,
            view: Camera::default(),
            rows: 0..64,
            cols: 0..64,
            sequence_len: 600,
            color: ColorMode::Outcome,
            overlays: Overlays::default(),
            compare: String::new(),
            compare_theorem: None,
            inspector: InspectorDocument::default(),
            board: None,
            figure: FigureStyle::default(),
            notes: String::new(),
        }
    }
}

/// Why a session file could not be read or written.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SessionError {
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}, line {line}, column {column}: {message}")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: written by a newer nimscope (format {found}; this one reads up to {FORMAT_VERSION})")]
    Newer { path: String, found: u32 },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

/// Just the version, read first so a newer file is reported as such, not as a syntax error.
#[derive(serde::Deserialize)]
#[serde(rename = "Session")]
struct VersionProbe {
    #[serde(default)]
    format_version: u32,
}

impl Session {
    /// Parses a session from RON text; `path` names the source in error messages.
    pub fn from_ron(text: &str, path: &str) -> Result<Session, SessionError> {
        let syntax = |e: ron::error::SpannedError| SessionError::Syntax {
            path: path.to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        };
        if let Ok(probe) = ron::from_str::<VersionProbe>(text)
            && probe.format_version > FORMAT_VERSION
        {
            return Err(SessionError::Newer {
                path: path.to_string(),
                found: probe.format_version,
            });
        }
        let session: Session = ron::from_str(text).map_err(syntax)?;
        session.validate().map_err(|message| SessionError::Invalid {
            path: path.to_string(),
            message,
        })?;
        Ok(session)
    }

    /// The session as RON text (fields in declaration order: the same session, the same bytes).
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().struct_names(true);
        // Serialising plain data to a String cannot fail.
        ron::ser::to_string_pretty(self, config).unwrap_or_default() + "\n"
    }

    /// Reads and checks a session file.
    pub fn load(path: &Path) -> Result<Session, SessionError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| SessionError::Io {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        Session::from_ron(&text, &shown)
    }

    /// Writes the session atomically (a temporary file, then a rename).
    pub fn save(&self, path: &Path) -> Result<(), SessionError> {
        crate::figure::png_out::write_atomic(path, self.to_ron().as_bytes()).map_err(|e| SessionError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Every reason the session cannot be shown, joined; checked on load so a bad file changes
    /// nothing in the window.
    fn validate(&self) -> Result<(), String> {
        let ruleset: Ruleset = self
            .ruleset
            .parse()
            .map_err(|e| format!("ruleset '{}': {e}", self.ruleset))?;
        if !self.slice.trim().is_empty() {
            Layout::parse_slice(&self.slice)?;
        }
        if !self.compare.trim().is_empty() {
            self.compare
                .parse::<Ruleset>()
                .map_err(|e| format!("compare '{}': {e}", self.compare))?;
        }
        if let Some(p) = &self.inspector.selected {
            ruleset
                .parse_position(p)
                .map_err(|e| format!("selected position '{p}': {e}"))?;
        }
        if let Some(board) = &self.board {
            crate::game::cram_setup::CramModel::from_document(board).map_err(|e| format!("board: {e}"))?;
        }
        if !self.view.is_valid() {
            return Err("view: the centre and zoom must be finite and the zoom above 0".into());
        }
        Ok(())
    }

    /// The slice layout (plain when the slice is empty).
    pub fn layout(&self) -> Result<Layout, String> {
        Layout::from_slice_text(&self.slice)
    }

    /// The figure this session exports, which is what the window shows: the board on the Cram
    /// board tab (and for Cram rulesets), else what [`Presentation::of`] says: the sequence of a
    /// one-heap ruleset or the map of `rows × cols`.
    pub fn figure_spec(&self, style: FigureStyle, scale: Option<f64>) -> Result<FigureSpec, String> {
        let ruleset: Ruleset = self
            .ruleset
            .parse()
            .map_err(|e| format!("ruleset '{}': {e}", self.ruleset))?;
        let layout = self.layout()?;
        let presentation = Presentation::of(&ruleset, &layout);
        let subject = match presentation {
            _ if self.tab == Tab::CramBoard => Subject::Board(self.board.clone().unwrap_or_default()),
            Presentation::Board => Subject::Board(self.board.clone().unwrap_or_default()),
            Presentation::Sequence => Subject::Sequence { n: self.sequence_len },
            Presentation::NeedsSlice | Presentation::PositionsOnly(_) => {
                return Err(format!(
                    "no figure: {}",
                    presentation.why_no_map(&ruleset).unwrap_or_default()
                ));
            }
            Presentation::Map(layout) => Subject::Map {
                layout,
                rows: self.rows.clone(),
                cols: self.cols.clone(),
                compare: CompareWith::from_parts(self.compare_theorem, &self.compare)?,
                overlays: self.overlays,
            },
        };
        Ok(FigureSpec {
            ruleset,
            subject,
            color: self.color,
            style,
            scale,
        })
    }

    /// A short name for the window title: the file name without its extension.
    pub fn display_name(path: Option<&Path>) -> String {
        path.and_then(|p| p.file_stem())
            .map_or_else(|| "untitled".into(), |s| s.to_string_lossy().into_owned())
    }
}

/// Where the window keeps its own state between runs (the last session and the recent files):
/// `$XDG_STATE_HOME/nimscope`, else `~/.local/state/nimscope`.
pub fn state_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("state")))?;
    Some(base.join("nimscope"))
}

/// The window's state between runs: the last session (restored on start) and recent files.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default, rename = "WindowState")]
pub struct WindowState {
    pub last: Option<Session>,
    /// The file the last session came from or was saved to.
    pub last_path: Option<PathBuf>,
    /// Most recent first.
    pub recent: Vec<PathBuf>,
}

/// How many recent files the File menu lists.
pub const RECENT_LEN: usize = 8;

impl WindowState {
    /// Reads `dir/window.ron`; a missing or unreadable file gives the default (these are
    /// preferences: losing them must never stop the window from opening).
    pub fn load(dir: &Path) -> WindowState {
        std::fs::read_to_string(dir.join("window.ron"))
            .ok()
            .and_then(|t| ron::from_str(&t).ok())
            .unwrap_or_default()
    }

    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::new()).map_err(std::io::Error::other)?;
        crate::figure::png_out::write_atomic(&dir.join("window.ron"), text.as_bytes())
    }

    /// Puts `path` first in the recent list.
    pub fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT_LEN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nimscope-session-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn round_trip_through_a_file() {
        let dir = temp_dir("rt");
        let mut s = Session {
            ruleset: "push(nim,euclid0)".into(),
            notes: "Table 1 of seed 003\nsecond line".into(),
            compare: "wythoff".into(),
            color: ColorMode::Difference,
            ..Session::default()
        };
        s.inspector.selected = Some("2,4".into());
        s.inspector.expanded.insert("2,4".into());
        s.board = Some(CramDocument::default());
        let path = dir.join("a.ron");
        s.save(&path).unwrap();
        assert_eq!(Session::load(&path).unwrap(), s);
        // the same session gives the same bytes
        assert_eq!(std::fs::read_to_string(&path).unwrap(), s.to_ron());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let text = "Session(\n    ruleset: \"nim\",\n    notes: 5,\n)";
        match Session::from_ron(text, "x.ron") {
            Err(SessionError::Syntax { path, line, .. }) => assert_eq!((path.as_str(), line), ("x.ron", 3)),
            other => panic!("{other:?}"),
        }
        let newer = "Session(format_version: 99, ruleset: \"nim\", some_future_field: 3)";
        assert_eq!(
            Session::from_ron(newer, "n.ron"),
            Err(SessionError::Newer {
                path: "n.ron".into(),
                found: 99
            })
        );
        let bad = "Session(ruleset: \"push(nim\")";
        assert!(matches!(
            Session::from_ron(bad, "b.ron"),
            Err(SessionError::Invalid { .. })
        ));
        let bad_pos = "Session(ruleset: \"wythoff\", inspector: (selected: Some(\"1,2,3\")))";
        let e = Session::from_ron(bad_pos, "p.ron").unwrap_err().to_string();
        assert!(e.starts_with("p.ron: selected position '1,2,3'"), "{e}");
        let missing = Session::load(Path::new("/nonexistent/s.ron")).unwrap_err().to_string();
        assert!(missing.starts_with("/nonexistent/s.ron: "), "{missing}");
    }

    #[test]
    fn fields_left_out_take_their_defaults() {
        let s = Session::from_ron("(ruleset: \"euclid\")", "x").unwrap();
        assert_eq!(s.ruleset, "euclid");
        assert_eq!(s.figure, FigureStyle::default());
        assert_eq!(s.format_version, FORMAT_VERSION);
    }

    #[test]
    fn recent_files_are_most_recent_first_without_repeats() {
        let dir = temp_dir("recent");
        let mut w = WindowState::default();
        for name in ["a", "b", "a", "c"] {
            w.remember(Path::new(name));
        }
        assert_eq!(w.recent, [Path::new("c"), Path::new("a"), Path::new("b")]);
        w.save(&dir).unwrap();
        assert_eq!(WindowState::load(&dir), w);
        std::fs::write(dir.join("window.ron"), "garbage(").unwrap();
        assert_eq!(WindowState::load(&dir), WindowState::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
