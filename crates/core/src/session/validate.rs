//! Checking a session before anything uses it: every field within what the window and the
//! figures can show ([`super::limits`]), the board and the saved game included. The texts were
//! parsed already, on the way in ([`super::file`]).

use super::limits::{
    MAX_COORD, MAX_EXPANDED, MAX_SEQUENCE_LEN, MAX_SHORT_TEXT, MAX_SHOWN, MAX_TREE_DEPTH, PATH_SEPARATOR,
};
use super::{Invalid, Session};
use crate::camera::{MAX_CELLS_PER_POINT, MIN_CELLS_PER_POINT};
use crate::figure::{MAX_MODULUS, MAX_SIDE, MIN_WIDTH};
use crate::game::Ruleset;
use crate::game::cram_setup::{CramDocument, CramModel, SetupError};
use crate::game::quote::quoted;
use crate::raster::ColorMode;

impl Session {
    /// The first field that cannot be shown, and why; checked on loading (and on restoring the
    /// window's last state) so a bad file changes nothing and nothing downstream meets a value
    /// it cannot handle. Everything the window writes passes.
    pub fn validate(&self) -> Result<(), Invalid> {
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
        self.validate_inspector(&self.ruleset)?;
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
            // the inspector's own check, so a file that loads keeps its game
            game.check(ruleset)
                .map_err(|e| Invalid::new(&["inspector", "play"], format!("play: {e}")))?;
        }
        Ok(())
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
