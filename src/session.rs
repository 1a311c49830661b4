//! Saved explorations: what the user is looking at (ruleset, slice, view, colours, overlays,
//! the selected position and move tree, the Cram board, notes) as a versioned RON document.
//! Saving is atomic; loading checks every field before anything uses it and names the file,
//! line and column of any error, so a bad file is refused whole and never half-applied. The
//! window's own state between runs ([`WindowState`]) is checked the same way, and a damaged one
//! is set aside under another name, never lost. No GUI toolkit here: the window and `nimscope
//! export` read the same files.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::camera::{Camera, MAX_CELLS_PER_POINT, MIN_CELLS_PER_POINT};
use crate::figure::{FigureSpec, FigureStyle, MAX_MODULUS, MAX_SIDE, MIN_WIDTH, Subject};
use crate::game::Ruleset;
use crate::game::cram_setup::{CramDocument, CramModel, SetupError};
use crate::game::prediction::Prediction;
use crate::game::quote::{escape, one_line, quoted};
use crate::game::{Layout, Presentation};
use crate::raster::{ColorMode, CompareWith, Overlays};
use crate::solver::play::{GameRecord, Opponent};
use crate::solver::report::{ENUMERATE_LIMIT, option_bound};

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
    pub const MAX_TREE_DEPTH: usize = 256;
    /// Options the window generates to check a saved game's moves, over all its moves.
    pub const MAX_GAME_WORK: u64 = 1 << 24;
    /// Bytes of a session file (and of the window's state): far more than the largest session
    /// the window writes (its longest fields are bounded above), far less than a file that
    /// is not a session at all.
    pub const MAX_FILE_BYTES: u64 = 64 << 20;
    /// Characters of the figure's title and of the inspector's position field.
    pub const MAX_SHORT_TEXT: usize = 10_000;
    /// How the move tree joins the positions of a node's path (the window's separator).
    pub const PATH_SEPARATOR: &str = " > ";
}

/// What the central area shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum CentralTab {
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
    pub tab: CentralTab,
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
            tab: CentralTab::ValueMap,
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

/// Why a session file could not be read or written. Every message is one line: the path and
/// the message are escaped and shortened ([`crate::game::quote`]) when the error is made.
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
    #[error("{}: written by a newer nimscope (format {found}; this one reads up to {FORMAT_VERSION})", place(.path, *.at))]
    Newer {
        path: String,
        /// Line and column of `format_version`.
        at: Option<(usize, usize)>,
        found: u32,
    },
    /// A field holds a value nimscope cannot show.
    #[error("{}: {message}", place(.path, *.at))]
    Invalid {
        path: String,
        /// Line and column of the field, when the file writes it.
        at: Option<(usize, usize)>,
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
    pub field: Vec<&'static str>,
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
        let session: Session = ron::from_str(text).map_err(syntax)?;
        session.validate().map_err(|e| SessionError::Invalid {
            at: locate(text, &e.field),
            path,
            message: e.message,
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

    /// The first field that cannot be shown, and why; checked on loading (and on restoring the
    /// window's last state) so a bad file changes nothing and nothing downstream meets a value
    /// it cannot handle. Everything the window writes passes.
    pub fn validate(&self) -> Result<(), Invalid> {
        use limits::*;
        if self.format_version > FORMAT_VERSION {
            return Err(Invalid::new(
                &["format_version"],
                format!(
                    "written by a newer nimscope (format {}; this one reads up to {FORMAT_VERSION})",
                    self.format_version
                ),
            ));
        }
        let ruleset: Ruleset = self
            .ruleset
            .parse()
            .map_err(|e| Invalid::new(&["ruleset"], format!("ruleset {}: {e}", quoted(&self.ruleset))))?;
        if !self.slice.trim().is_empty() {
            Layout::parse_slice(&self.slice)
                .map_err(|e| Invalid::new(&["slice"], format!("slice {}: {e}", quoted(&self.slice))))?;
        }
        let v = &self.view;
        let centre_ok = |x: f64| x.is_finite() && x.abs() <= MAX_COORD as f64;
        if !(centre_ok(v.center_a)
            && centre_ok(v.center_b)
            && (MIN_CELLS_PER_POINT..=MAX_CELLS_PER_POINT).contains(&v.cells_per_point))
        {
            return Err(Invalid::new(
                &["view"],
                format!(
                    // `{:?}`: the shortest form, 1e300 rather than its 301 digits
                    "view (center_a: {:?}, center_b: {:?}, cells_per_point: {:?}): the centre must be finite and within ±2^53, the zoom from 1/600 to {MAX_CELLS_PER_POINT} cells a point",
                    v.center_a, v.center_b, v.cells_per_point
                ),
            ));
        }
        for (name, range) in [("rows", &self.rows), ("cols", &self.cols)] {
            if range.start >= range.end || range.end > MAX_COORD {
                return Err(Invalid::new(
                    &[name],
                    format!(
                        "{name} {}..{}: a figure's region needs start < end ≤ 2^53",
                        range.start, range.end
                    ),
                ));
            }
        }
        if !(1..=MAX_SEQUENCE_LEN).contains(&self.sequence_len) {
            return Err(Invalid::new(
                &["sequence_len"],
                format!(
                    "sequence_len {}: a sequence figure shows 1 to {MAX_SEQUENCE_LEN} heaps",
                    self.sequence_len
                ),
            ));
        }
        if let ColorMode::Modulo(k) = self.color
            && !(2..=MAX_MODULUS).contains(&k)
        {
            return Err(Invalid::new(
                &["color"],
                format!("color Modulo({k}): the modulus goes from 2 to {MAX_MODULUS}"),
            ));
        }
        if !self.compare.trim().is_empty() {
            self.compare
                .parse::<Ruleset>()
                .map_err(|e| Invalid::new(&["compare"], format!("compare {}: {e}", quoted(&self.compare))))?;
        }
        self.validate_inspector(&ruleset)?;
        if let Some(board) = &self.board {
            validate_board(board)?;
        }
        let f = &self.figure;
        if !(MIN_WIDTH..=MAX_SIDE).contains(&f.width) {
            return Err(Invalid::new(
                &["figure", "width"],
                format!(
                    "figure width {}: a figure is {MIN_WIDTH} to {MAX_SIDE} pixels wide",
                    f.width
                ),
            ));
        }
        if f.title.chars().count() > MAX_SHORT_TEXT {
            return Err(Invalid::new(
                &["figure", "title"],
                format!("figure title {}: at most {MAX_SHORT_TEXT} characters", quoted(&f.title)),
            ));
        }
        Ok(())
    }

    /// The inspector's fields: a position of the ruleset, a move tree the window can draw, a
    /// saved game whose moves it can check (whether they are moves is the window's to say: it
    /// drops a game that is not one, naming the step).
    fn validate_inspector(&self, ruleset: &Ruleset) -> Result<(), Invalid> {
        use limits::*;
        let doc = &self.inspector;
        if let Some(p) = &doc.selected {
            ruleset.parse_position(p).map_err(|e| {
                Invalid::new(
                    &["inspector", "selected"],
                    format!("selected position {}: {e}", quoted(p)),
                )
            })?;
        }
        if doc.typed.chars().count() > MAX_SHORT_TEXT {
            return Err(Invalid::new(
                &["inspector", "typed"],
                format!("typed position: more than {MAX_SHORT_TEXT} characters"),
            ));
        }
        if doc.expanded.len() > MAX_EXPANDED {
            return Err(Invalid::new(
                &["inspector", "expanded"],
                format!(
                    "expanded: {} open nodes; the move tree keeps at most {MAX_EXPANDED}",
                    doc.expanded.len()
                ),
            ));
        }
        if let Some(deep) = doc
            .expanded
            .iter()
            .find(|path| path.matches(PATH_SEPARATOR).count() >= MAX_TREE_DEPTH)
        {
            return Err(Invalid::new(
                &["inspector", "expanded"],
                format!("expanded node {}: deeper than {MAX_TREE_DEPTH} moves", quoted(deep)),
            ));
        }
        if let Some((node, n)) = doc.shown.iter().find(|(_, n)| **n > MAX_SHOWN) {
            return Err(Invalid::new(
                &["inspector", "shown"],
                format!("shown: node {} shows {n} children; at most {MAX_SHOWN}", quoted(node)),
            ));
        }
        if let Some(game) = &doc.play {
            let mut work = 0u64;
            for (i, from) in game
                .positions
                .iter()
                .enumerate()
                .take(game.positions.len().saturating_sub(1))
            {
                if ruleset.check_position(from).is_err() {
                    continue; // not a position: the window drops the game and says why
                }
                let bound = option_bound(ruleset, from);
                work = work.saturating_add(bound);
                if bound > ENUMERATE_LIMIT || work > MAX_GAME_WORK {
                    return Err(Invalid::new(
                        &["inspector", "play"],
                        format!(
                            "play: move {} from {} has too many options to check (the game's moves may need at most {MAX_GAME_WORK} options generated)",
                            i + 1,
                            quoted(&from.to_string())
                        ),
                    ));
                }
            }
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
            _ if self.tab == CentralTab::CramBoard => Subject::Board(self.board.clone().unwrap_or_default()),
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

/// A board the editor can hold: its text parses (at most 16×16 cells) and every domino lies on
/// two empty cells of it, apart from the others. A board larger than the solver takes is kept
/// (the editor says so).
fn validate_board(board: &CramDocument) -> Result<(), Invalid> {
    let model = CramModel::from_document(board)
        .map_err(|e| Invalid::new(&["board", "board"], format!("board {}: {e}", quoted(&board.board))))?;
    let setup = model.setup();
    // Checked here first: a domino far off the board has no cells to name.
    if let Some(d) = board
        .dominoes
        .iter()
        .find(|d| d.row >= setup.rows() || d.col >= setup.cols())
    {
        return Err(Invalid::new(
            &["board", "dominoes"],
            format!(
                "board: the domino at row {}, column {} is off the {}×{} board",
                d.row,
                d.col,
                setup.rows(),
                setup.cols()
            ),
        ));
    }
    let errors: Vec<SetupError> = match setup.to_board() {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .into_iter()
            .filter(|e| !matches!(e, SetupError::TooLarge { .. }))
            .collect(),
    };
    match errors.as_slice() {
        [] => Ok(()),
        [first, rest @ ..] => {
            let more = match rest.len() {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            Err(Invalid::new(&["board", "dominoes"], format!("board: {first}{more}")))
        }
    }
}

/// Where the field `path` is written in RON `text`, as a line and column from 1: `["inspector",
/// "shown"]` is the key `shown:` inside the value of `inspector:` (the keys of the values
/// between, such as `Some(…)`, do not count). `None` when the text leaves the field out. Strings,
/// characters and comments are skipped, so a key written inside the notes is not taken for one.
pub fn locate(text: &str, path: &[&str]) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    // the key whose value each open bracket starts (None for a bracket inside a value)
    let mut open: Vec<Option<&str>> = Vec::new();
    let mut pending: Option<&str> = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => i = skip_string(b, i),
            b'\'' => i = skip_char(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => i = skip_line(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block(b, i),
            b'(' | b'[' | b'{' => {
                open.push(pending.take());
                i += 1;
            }
            b')' | b']' | b'}' => {
                open.pop();
                pending = None;
                i += 1;
            }
            b',' => {
                pending = None;
                i += 1;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) => i = skip_raw_string(b, i),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &text[start..i];
                let next = skip_space(b, i);
                if b.get(next) == Some(&b':') && b.get(next + 1) != Some(&b':') {
                    let keys: Vec<&str> = open.iter().flatten().copied().collect();
                    if keys.len() + 1 == path.len() && keys[..] == path[..keys.len()] && word == path[keys.len()] {
                        return Some(line_and_column(text, start));
                    }
                    pending = Some(word);
                }
            }
            c if c.is_ascii_digit() => {
                // a number, exponent letters and all (`1e300`)
                while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'.' | b'_')) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    None
}

fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// The index after the string starting at `i`.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The index after the raw string `r"…"` or `r#"…"#` starting at `i` (or after `r` if it is
/// not one).
fn skip_raw_string(b: &[u8], i: usize) -> usize {
    let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
    let quote = i + 1 + hashes;
    if b.get(quote) != Some(&b'"') {
        return i + 1;
    }
    let mut j = quote + 1;
    while j < b.len() {
        if b[j] == b'"' && b[j + 1..].iter().take(hashes).filter(|&&c| c == b'#').count() == hashes {
            return j + 1 + hashes;
        }
        j += 1;
    }
    b.len()
}

/// The index after the character literal starting at `i` (`'a'`, `'\n'`, `'\''`).
fn skip_char(b: &[u8], i: usize) -> usize {
    let from = if b.get(i + 1) == Some(&b'\\') { i + 3 } else { i + 2 };
    b.get(from..)
        .and_then(|rest| rest.iter().position(|&c| c == b'\''))
        .map_or(b.len(), |k| from + k + 1)
}

fn skip_line(b: &[u8], i: usize) -> usize {
    b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| i + k + 1)
}

/// The index after the block comment starting at `i` (RON's nest).
fn skip_block(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if b[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// The index of the first byte from `i` that is neither white space nor in a comment.
fn skip_space(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_whitespace() => i += 1,
            Some(b'/') if b.get(i + 1) == Some(&b'/') => i = skip_line(b, i),
            Some(b'/') if b.get(i + 1) == Some(&b'*') => i = skip_block(b, i),
            _ => return i,
        }
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
    /// The user's own typed rules, kept by the rule editor between runs.
    pub my_rules: Vec<SavedRule>,
    /// How the window looks (UI scale, theme, side panels).
    pub prefs: WindowPrefs,
}

/// How the window looks, kept between runs: preferences, not part of any session.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct WindowPrefs {
    /// The UI scale (Ctrl+plus, Ctrl+minus, Ctrl+0), separate from the map's zoom.
    pub ui_scale: f32,
    /// The light theme (slides, projectors) instead of the dark one.
    pub light_theme: bool,
    pub show_rulesets: bool,
    pub show_inspector: bool,
}

impl Default for WindowPrefs {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            light_theme: false,
            show_rulesets: true,
            show_inspector: true,
        }
    }
}

/// A typed rule the user kept, under a name of their choice.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SavedRule {
    pub name: String,
    /// The rule as typed (it may hold comments and line breaks).
    pub text: String,
}

/// How many recent files the File menu lists.
pub const RECENT_LEN: usize = 8;

impl WindowState {
    /// Reads `dir/window.ron` (see [`WindowState::restore`]), without the message.
    pub fn load(dir: &Path) -> WindowState {
        Self::restore(dir).0
    }

    /// Reads `dir/window.ron` and checks its last session. A missing file gives the default. A
    /// damaged one (unreadable, not a state, or a last session that does not validate) must
    /// never stop the window from opening, nor be overwritten by the next autosave: it is set
    /// aside ([`WindowState::set_aside`]) and the window starts afresh, keeping the recent files
    /// when they could be read; the message says what happened, for the window to show.
    pub fn restore(dir: &Path) -> (WindowState, Option<String>) {
        let path = dir.join("window.ron");
        let why = match crate::files::read_bounded(&path, limits::MAX_FILE_BYTES, "the window's state") {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (WindowState::default(), None),
            Err(e) => e.to_string(),
            Ok(bytes) => match String::from_utf8(bytes) {
                Err(_) => "it is not UTF-8 text".to_string(),
                Ok(text) => match ron::from_str::<WindowState>(&text) {
                    Err(e) => format!("line {}, column {}: {}", e.span.start.line, e.span.start.col, e.code),
                    Ok(state) => match state.last.as_ref().map(Session::validate) {
                        None | Some(Ok(())) => return (state, None),
                        Some(Err(bad)) => {
                            let mut field = vec!["last"];
                            field.extend(&bad.field);
                            let at =
                                locate(&text, &field).map_or(String::new(), |(l, c)| format!("line {l}, column {c}: "));
                            let message = format!("{at}{}", bad.message);
                            let kept = WindowState {
                                recent: state.recent,
                                ..WindowState::default()
                            };
                            return (kept, Some(Self::set_aside_saying(dir, &message)));
                        }
                    },
                },
            },
        };
        (WindowState::default(), Some(Self::set_aside_saying(dir, &why)))
    }

    /// Sets `dir/window.ron` aside and says so, with `why`.
    fn set_aside_saying(dir: &Path, why: &str) -> String {
        let shown = escape(&dir.join("window.ron").display().to_string());
        one_line(&match Self::set_aside(dir) {
            Ok(kept) => format!(
                "the last state in {shown} could not be restored ({why}); it is kept as {} and the window starts afresh",
                escape(&kept.display().to_string())
            ),
            Err(e) => format!(
                "the last state in {shown} could not be restored ({why}) nor set aside ({e}); the window starts afresh"
            ),
        })
    }

    /// Renames `dir/window.ron` to `window.ron.damaged-N`, the first N not in use (never
    /// replacing an earlier one), and returns the new path: the user's last state is kept for
    /// them to look at, where the autosave cannot overwrite it.
    pub fn set_aside(dir: &Path) -> std::io::Result<PathBuf> {
        let from = dir.join("window.ron");
        for n in 1..10_000 {
            let to = dir.join(format!("window.ron.damaged-{n}"));
            if std::fs::symlink_metadata(&to).is_err() {
                std::fs::rename(&from, &to)?;
                return Ok(to);
            }
        }
        Err(std::io::Error::other("every name window.ron.damaged-N is taken"))
    }

    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::new()).map_err(std::io::Error::other)?;
        crate::files::write_atomic(&dir.join("window.ron"), text.as_bytes())
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
                at: Some((1, 9)),
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
        assert!(
            e.starts_with("p.ron, line 1, column 41: selected position '1,2,3'"),
            "{e}"
        );
        let missing = Session::load(Path::new("/nonexistent/s.ron")).unwrap_err().to_string();
        assert!(missing.starts_with("/nonexistent/s.ron: "), "{missing}");
    }

    #[test]
    fn fields_are_located_by_their_path_of_keys() {
        let text = r##"// ruleset: "in a comment"
Session(
    notes: "ruleset: not a key, \" nor this: ",
    inspector: (selected: Some("3,5"), shown: {"3": 4}),
    view: MapView(center_a: 1e3, center_b: 2.0, cells_per_point: 0.1),
    board: Some((board: "../..", dominoes: [(row: 0, col: 0, orientation: Vertical)])),
    figure: /* width: */ (title: r#"width: "#, width: 300),
    ruleset: "nim",
)"##;
        assert_eq!(locate(text, &["ruleset"]), Some((8, 5)));
        assert_eq!(locate(text, &["notes"]), Some((3, 5)));
        assert_eq!(locate(text, &["inspector", "shown"]), Some((4, 40)));
        assert_eq!(locate(text, &["view"]), Some((5, 5)));
        assert_eq!(locate(text, &["board", "dominoes"]), Some((6, 34)));
        assert_eq!(locate(text, &["figure", "width"]), Some((7, 48)));
        assert_eq!(locate(text, &["shown"]), None, "only at its own depth");
        assert_eq!(locate(text, &["slice"]), None);
    }

    #[test]
    fn the_window_state_keeps_the_recent_files_of_a_bad_last_session() {
        let dir = temp_dir("bad-last");
        std::fs::write(
            dir.join("window.ron"),
            "WindowState(\n  last: Some(Session(color: Modulo(0))),\n  recent: [\"a.ron\"],\n)",
        )
        .unwrap();
        let (state, message) = WindowState::restore(&dir);
        assert_eq!(state.recent, [Path::new("a.ron")]);
        assert_eq!(state.last, None);
        let message = message.unwrap();
        assert!(message.contains("line 2, column 22: color Modulo(0)"), "{message}");
        assert!(message.contains("window.ron.damaged-1"), "{message}");
        assert!(dir.join("window.ron.damaged-1").exists());
        // a missing file is a first start, not damage
        assert_eq!(WindowState::restore(&dir), (WindowState::default(), None));
        std::fs::remove_dir_all(&dir).unwrap();
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
