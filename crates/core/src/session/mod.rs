//! Saved explorations: what the user is looking at (ruleset, slice, view, colours, overlays,
//! the selected position and move tree, the Cram board, notes) as a versioned RON document.
//! Saving is atomic; loading parses the file's texts (the ruleset, the slice, the compared
//! ruleset) once, into the typed fields of [`Session`] ([`file`] holds the file's own form), and
//! checks every field before anything uses it, naming the file, line and column of any error,
//! so a bad file is refused whole and never half-applied. The
//! window's own state between runs ([`WindowState`]) is checked the same way, and a damaged one
//! is set aside under another name, never lost. No GUI toolkit here: the window and `nimscope
//! export` read the same files.

mod file;
mod locate;
mod validate;
mod window_state;

pub use locate::locate;
pub use window_state::{RECENT_LEN, SavedRule, WindowPrefs, WindowState, state_dir};

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;

pub use crate::game::CentralTab;

use file::SessionFile;

use crate::camera::Camera;
use crate::figure::{FigureSpec, FigureStyle, Subject};
use crate::game::Ruleset;
use crate::game::cram_setup::CramDocument;
use crate::game::prediction::Prediction;
use crate::game::quote::{escape, one_line};
use crate::game::{Layout, Presentation};
use crate::raster::{ColorMode, CompareWith, Overlays};
use crate::solver::play::{GameRecord, Opponent};

/// The format this build writes; files with a larger number come from a newer nimscope.
pub const FORMAT_VERSION: u32 = 1;

/// Bounds a session's fields keep beyond what their types allow: what the window and the
/// figures can show. A file outside them is refused on loading, before anything uses it.
pub mod limits {
    /// Rows and columns of a figure's region, and the view's centre, lie below 2^53: the
    /// window works in f64 cell coordinates, exact up to there.
    pub const MAX_COORD: u64 = 1 << 53;
    /// Heaps a sequence figure shows at most (a figure is at most 16384 rows of cells).
    pub const MAX_SEQUENCE_LEN: u64 = 1 << 20;
    /// Children a node of the move tree shows at most (a page is added per click).
    pub const MAX_SHOWN: usize = 1 << 24;
    /// Open nodes of the move tree, and the depth of one (the tree is drawn recursively).
    pub const MAX_EXPANDED: usize = 100_000;
    /// Deepest node of the move tree the window opens (see [`MAX_EXPANDED`]).
    pub const MAX_TREE_DEPTH: usize = 256;
    /// Options the window generates to check a saved game's moves: one rule for sessions
    /// and the inspector ([`crate::solver::play::GameRecord::check`]).
    pub use crate::solver::play::{MAX_GAME_WORK, MAX_STEP_OPTIONS};
    /// Bytes of a session file (and of the window's state): far more than the largest session
    /// the window writes (its longest fields are bounded above), far less than a file that
    /// is not a session at all.
    pub const MAX_FILE_BYTES: u64 = 64 << 20;
    /// Characters of the figure's title and of the inspector's position field.
    pub const MAX_SHORT_TEXT: usize = 10_000;
    /// How the move tree joins the positions of a node's path (the window's separator).
    pub const PATH_SEPARATOR: &str = " > ";
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

/// What the difference colour mode compares the map with, as a session keeps it: a ruleset, a
/// theorem's prediction, both (the theorem is compared with; the ruleset stays for when the
/// user goes back to it) or nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Comparison {
    /// The compared ruleset (`compare:` in the file, empty for none).
    pub ruleset: Option<Ruleset>,
    /// A theorem's prediction, compared with instead of the ruleset (`compare_theorem:`).
    pub theorem: Option<Prediction>,
}

impl Comparison {
    /// What the map is compared with: the theorem when one is chosen, else the ruleset.
    pub fn with(&self) -> CompareWith {
        match (self.theorem, &self.ruleset) {
            (Some(p), _) => CompareWith::Theorem(p),
            (None, Some(r)) => CompareWith::Ruleset(r.clone()),
            (None, None) => CompareWith::Nothing,
        }
    }
}

/// One saved exploration, its texts parsed: what the window shows and `nimscope export` draws.
/// Its file form is [`Session::to_ron`] and [`Session::from_ron`].
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// The file format's version; [`FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The ruleset (`ruleset:` in the file, the expression as the command line takes it).
    pub ruleset: Ruleset,
    /// How the map lays out positions: plain, or the slice of the fixed heaps (`slice:` in the
    /// file, such as `1,_,_`; empty for the plain map).
    pub layout: Layout,
    /// Which tab of the window's centre is shown: the value map or the Cram board editor.
    pub tab: CentralTab,
    /// Where the map looks (`view:` in the file).
    pub view: Camera,
    /// The cells a figure of this session shows: rows `a`, columns `b`.
    pub rows: Range<u64>,
    /// The columns `b` a figure shows (see `rows`).
    pub cols: Range<u64>,
    /// Heaps shown for one-heap rulesets: G(0..sequence_len).
    pub sequence_len: u64,
    /// How values are coloured.
    pub color: ColorMode,
    /// The overlays drawn over the map.
    pub overlays: Overlays,
    /// What the difference colour mode compares with.
    pub compare: Comparison,
    /// The inspector's state: the position in focus and the game being played.
    pub inspector: InspectorDocument,
    /// The Cram board editor's board.
    pub board: Option<CramDocument>,
    /// How a figure of this session looks.
    pub figure: FigureStyle,
    /// Free text: what the user noticed.
    pub notes: String,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            format_version: FORMAT_VERSION,
            ruleset: Ruleset::Wythoff,
            layout: Layout::Plain,
            tab: CentralTab::ValueMap,
            view: Camera::default(),
            rows: 0..64,
            cols: 0..64,
            sequence_len: 600,
            color: ColorMode::Outcome,
            overlays: Overlays::default(),
            compare: Comparison::default(),
            inspector: InspectorDocument::default(),
            board: None,
            figure: FigureStyle::default(),
            notes: String::new(),
        }
    }
}

/// Why a session file could not be read or written. Every message is one line: the path and
/// the message are escaped and shortened ([`crate::game::quote`]) when the error is made.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SessionError {
    /// Reading or writing the file failed.
    #[error("{path}: {message}")]
    Io {
        /// The file, escaped and shortened.
        path: String,
        /// The failure.
        message: String,
    },
    /// The file is not RON of a session (bad syntax, or a field of the wrong type).
    #[error("{path}, line {line}, column {column}: {message}")]
    Syntax {
        /// The file, escaped and shortened.
        path: String,
        /// Line of the error, from 1.
        line: usize,
        /// Column of the error, from 1.
        column: usize,
        /// What the parser found wrong.
        message: String,
    },
    /// The file's format version is newer than this build reads.
    #[error("{}: written by a newer nimscope (format {found}; this one reads up to {FORMAT_VERSION})", place(.path, *.at))]
    Newer {
        /// The file, escaped and shortened.
        path: String,
        /// Line and column of `format_version`.
        at: Option<(usize, usize)>,
        /// The format version the file says it has.
        found: u32,
    },
    /// A field holds a value nimscope cannot show.
    #[error("{}: {message}", place(.path, *.at))]
    Invalid {
        /// The file, escaped and shortened.
        path: String,
        /// Line and column of the field, when the file writes it.
        at: Option<(usize, usize)>,
        /// What is wrong with the field's value.
        message: String,
    },
}

/// `path, line L, column C`, or `path` alone.
fn place(path: &str, at: Option<(usize, usize)>) -> String {
    match at {
        Some((line, column)) => format!("{path}, line {line}, column {column}"),
        None => path.to_string(),
    }
}

/// A field that does not validate: where it is (its path of keys, as [`locate`] takes it) and
/// what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The field's path of keys, outermost first (e.g. `["figure", "width"]`).
    pub field: Vec<&'static str>,
    /// What is wrong with its value.
    pub message: String,
}

impl Invalid {
    fn new(field: &[&'static str], message: impl AsRef<str>) -> Self {
        Self {
            field: field.to_vec(),
            message: one_line(message.as_ref()),
        }
    }
}

/// Just the version, read first so a newer file is reported as such, not as a syntax error.
#[derive(serde::Deserialize)]
#[serde(rename = "Session")]
struct VersionProbe {
    #[serde(default)]
    format_version: u32,
}

impl Session {
    /// Parses and checks a session from RON text; `path` names the source in error messages.
    pub fn from_ron(text: &str, path: &str) -> Result<Session, SessionError> {
        let path = escape(path);
        let syntax = |e: ron::error::SpannedError| SessionError::Syntax {
            path: path.clone(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: one_line(&e.code.to_string()),
        };
        if let Ok(probe) = ron::from_str::<VersionProbe>(text)
            && probe.format_version > FORMAT_VERSION
        {
            return Err(SessionError::Newer {
                path,
                at: locate(text, &["format_version"]),
                found: probe.format_version,
            });
        }
        let file: SessionFile = ron::from_str(text).map_err(syntax)?;
        file.into_session().map_err(|e| SessionError::Invalid {
            at: locate(text, &e.field),
            path,
            message: e.message,
        })
    }

    /// The session as RON text (fields in declaration order: the same session, the same bytes).
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().struct_names(true);
        // Serialising plain data to a String cannot fail.
        ron::ser::to_string_pretty(&SessionFile::from(self), config).unwrap_or_default() + "\n"
    }

    /// Reads and checks a session file.
    pub fn load(path: &Path) -> Result<Session, SessionError> {
        let shown = path.display().to_string();
        let io = |e: std::io::Error| SessionError::Io {
            path: escape(&shown),
            message: one_line(&e.to_string()),
        };
        // a FIFO, /dev/zero or a huge file is refused before it is read
        let bytes = crate::files::read_bounded(path, limits::MAX_FILE_BYTES, "a session").map_err(io)?;
        let text = String::from_utf8(bytes).map_err(|_| {
            io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "it is not UTF-8 text",
            ))
        })?;
        Session::from_ron(&text, &shown)
    }

    /// Writes the session atomically (a temporary file, then a rename).
    pub fn save(&self, path: &Path) -> Result<(), SessionError> {
        crate::files::write_atomic(path, self.to_ron().as_bytes()).map_err(|e| SessionError::Io {
            path: escape(&path.display().to_string()),
            message: one_line(&e.to_string()),
        })
    }

    /// How the session is shown: the one decision of the window and its figure
    /// ([`Presentation::shown`]).
    pub fn presentation(&self) -> Presentation {
        Presentation::shown(&self.ruleset, &self.layout, self.tab)
    }

    /// The figure this session exports, which is what the window shows
    /// ([`Session::presentation`]): the board, the sequence of a one-heap ruleset or the map of
    /// `rows × cols`; no figure when the window shows none either.
    pub fn figure_spec(&self, style: FigureStyle, scale: Option<f64>) -> Result<FigureSpec, String> {
        let presentation = self.presentation();
        let subject = match presentation {
            Presentation::Board => Subject::Board(self.board.clone().unwrap_or_default()),
            Presentation::Sequence => Subject::Sequence { n: self.sequence_len },
            Presentation::NeedsSlice | Presentation::PositionsOnly(_) => {
                return Err(format!(
                    "no figure: {}",
                    presentation.why_no_map(&self.ruleset).unwrap_or_default()
                ));
            }
            Presentation::Map(layout) => Subject::Map {
                layout,
                rows: self.rows.clone(),
                cols: self.cols.clone(),
                compare: self.compare.with(),
                overlays: self.overlays,
            },
        };
        Ok(FigureSpec {
            ruleset: self.ruleset.clone(),
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

#[cfg(test)]
mod tests;
