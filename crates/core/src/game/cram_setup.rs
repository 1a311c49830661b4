//! The Cram board editor's model, free of the GUI toolkit: a [`Setup`] is whatever the user drew (a grid of
//! up to 16 × 16 cells, blocked cells, placed dominoes, whether the Push Cram button was
//! pushed); [`Setup::to_board`] turns it into a solver [`Board`] or returns every reason it
//! cannot (STYLE habit 8). [`CramModel`] adds undo and redo as stacks of setups, and
//! [`CramDocument`] is the form saved in session files.

use crate::game::rules::cram_board::{Board, BoardError, Domino, MAX_CELLS, Orientation};

/// Largest number of rows or columns the editor offers (the solver takes at most 128 cells,
/// so larger drawings are kept but not solved).
pub const MAX_SIDE: usize = 16;

/// Most edits kept for undo.
const UNDO_LIMIT: usize = 500;

pub use super::cram_game::CramGame;

/// What the user drew: it may be anything, including boards the solver cannot take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    rows: usize,
    cols: usize,
    /// Row-major, `rows * cols` entries.
    blocked: Vec<bool>,
    /// In the order they were placed.
    dominoes: Vec<Domino>,
    /// Push Cram: the button has been pushed (horizontal dominoes from now on).
    pub pushed: bool,
}

impl Default for Setup {
    fn default() -> Self {
        Setup::empty(3, 4)
    }
}

/// Why a setup is not a position the solver takes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The drawing has more than [`MAX_CELLS`] cells.
    #[error("the board has {cells} cells ({rows}×{cols}); the solver takes at most 128: make it smaller")]
    TooLarge {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
        /// Number of cells, `rows × cols`.
        cells: usize,
    },
    /// The domino has a cell outside the board.
    #[error("domino {0} sticks out of the board")]
    DominoOutside(Domino),
    /// The domino covers a blocked cell.
    #[error("domino {0} covers a blocked cell")]
    DominoOnBlocked(Domino),
    /// Two placed dominoes share a cell.
    #[error("dominoes {0} and {1} overlap")]
    Overlap(Domino, Domino),
}

/// Why an edit was refused (the setup is unchanged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The cell (row, column), counted from 0, is outside the board.
    #[error("cell ({0},{1}) is not on the board")]
    OffBoard(usize, usize),
    /// The domino would cover a blocked or occupied cell, or leave the board.
    #[error("domino {0} needs two empty cells of the board")]
    NotEmpty(Domino),
    /// The requested size (rows, columns) is outside 1..=[`MAX_SIDE`].
    #[error("board size {0}×{1}: rows and columns go from 1 to 16")]
    BadSize(usize, usize),
    /// The board text could not be read.
    #[error("{0}")]
    Text(#[from] BoardError),
    /// The board text is valid but larger (rows, columns) than the editor's [`MAX_SIDE`] × [`MAX_SIDE`].
    #[error("board of {0}×{1}: the editor takes 1 to 16 rows and columns")]
    TextTooLarge(usize, usize),
}

/// The two cells of a domino, or `None` if the second one overflows.
pub fn domino_cells(d: Domino) -> Option<[(usize, usize); 2]> {
    let second = match d.orientation {
        Orientation::Horizontal => (d.row, d.col.checked_add(1)?),
        Orientation::Vertical => (d.row.checked_add(1)?, d.col),
    };
    Some([(d.row, d.col), second])
}

/// The domino covering two adjacent cells (in either order), if they are adjacent.
pub fn domino_between(a: (usize, usize), b: (usize, usize)) -> Option<Domino> {
    let (first, second) = if a <= b { (a, b) } else { (b, a) };
    let orientation = if first.0 == second.0 && first.1 + 1 == second.1 {
        Orientation::Horizontal
    } else if first.1 == second.1 && first.0 + 1 == second.0 {
        Orientation::Vertical
    } else {
        return None;
    };
    Some(Domino {
        row: first.0,
        col: first.1,
        orientation,
    })
}

impl Setup {
    /// `rows × cols` empty cells (sizes clamped to 1..=16).
    pub fn empty(rows: usize, cols: usize) -> Setup {
        let (rows, cols) = (rows.clamp(1, MAX_SIDE), cols.clamp(1, MAX_SIDE));
        Setup {
            rows,
            cols,
            blocked: vec![false; rows * cols],
            dominoes: Vec::new(),
            pushed: false,
        }
    }

    /// Number of rows, 1..=[`MAX_SIDE`].
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns, 1..=[`MAX_SIDE`].
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The placed dominoes, in the order they were placed.
    pub fn dominoes(&self) -> &[Domino] {
        &self.dominoes
    }

    /// Whether cell `(r, c)` is blocked (`false` off the board).
    pub fn is_blocked(&self, r: usize, c: usize) -> bool {
        r < self.rows && c < self.cols && self.blocked[r * self.cols + c]
    }

    /// The placed domino covering `(r, c)`, if any.
    pub fn domino_at(&self, r: usize, c: usize) -> Option<Domino> {
        self.dominoes
            .iter()
            .copied()
            .find(|&d| domino_cells(d).is_some_and(|cells| cells.contains(&(r, c))))
    }

    /// Whether `(r, c)` is on the board, not blocked and not covered.
    pub fn is_free(&self, r: usize, c: usize) -> bool {
        r < self.rows && c < self.cols && !self.is_blocked(r, c) && self.domino_at(r, c).is_none()
    }

    /// Blocks a free cell or unblocks a blocked one; a covered cell is left alone.
    pub fn toggle_cell(&mut self, r: usize, c: usize) -> Result<(), EditError> {
        if r >= self.rows || c >= self.cols {
            return Err(EditError::OffBoard(r, c));
        }
        if self.domino_at(r, c).is_some() {
            return Ok(()); // clicking a domino removes it: the caller handles that
        }
        let i = r * self.cols + c;
        self.blocked[i] = !self.blocked[i];
        Ok(())
    }

    /// Places `d` on two free cells.
    pub fn place(&mut self, d: Domino) -> Result<(), EditError> {
        match domino_cells(d) {
            Some(cells) if cells.iter().all(|&(r, c)| self.is_free(r, c)) => {
                self.dominoes.push(d);
                Ok(())
            }
            _ => Err(EditError::NotEmpty(d)),
        }
    }

    /// Removes the domino covering `(r, c)`; `false` when there is none.
    pub fn remove_at(&mut self, r: usize, c: usize) -> bool {
        match self.domino_at(r, c) {
            Some(d) => {
                self.dominoes.retain(|&x| x != d);
                true
            }
            None => false,
        }
    }

    /// Changes the size, keeping the cells and dominoes that still fit.
    pub fn resize(&mut self, rows: usize, cols: usize) -> Result<(), EditError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(EditError::BadSize(rows, cols));
        }
        let mut blocked = vec![false; rows * cols];
        for r in 0..rows.min(self.rows) {
            for c in 0..cols.min(self.cols) {
                blocked[r * cols + c] = self.blocked[r * self.cols + c];
            }
        }
        self.dominoes
            .retain(|&d| domino_cells(d).is_some_and(|cells| cells.iter().all(|&(r, c)| r < rows && c < cols)));
        self.rows = rows;
        self.cols = cols;
        self.blocked = blocked;
        Ok(())
    }

    /// Every cell empty, no domino, the button not pushed; the size stays.
    pub fn clear(&mut self) {
        *self = Setup::empty(self.rows, self.cols);
    }

    /// The solver's board (blocked cells and dominoes both block), or every reason there is
    /// none.
    pub fn to_board(&self) -> Result<Board, Vec<SetupError>> {
        let mut errors = Vec::new();
        let cells = self.rows * self.cols;
        if cells > MAX_CELLS {
            errors.push(SetupError::TooLarge {
                rows: self.rows,
                cols: self.cols,
                cells,
            });
        }
        let mut covered: Vec<Option<Domino>> = vec![None; cells];
        for &d in &self.dominoes {
            let Some(pair) = domino_cells(d).filter(|p| p.iter().all(|&(r, c)| r < self.rows && c < self.cols)) else {
                errors.push(SetupError::DominoOutside(d));
                continue;
            };
            if pair.iter().any(|&(r, c)| self.blocked[r * self.cols + c]) {
                errors.push(SetupError::DominoOnBlocked(d));
            }
            for (r, c) in pair {
                let slot = &mut covered[r * self.cols + c];
                match slot {
                    Some(other) => {
                        let e = SetupError::Overlap(*other, d);
                        if !errors.contains(&e) {
                            errors.push(e);
                        }
                    }
                    None => *slot = Some(d),
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut empty = 0u128;
        for (i, (&blocked, cover)) in self.blocked.iter().zip(&covered).enumerate() {
            if !blocked && cover.is_none() {
                empty |= 1u128 << i;
            }
        }
        Board::from_mask(self.rows, self.cols, empty).map_err(|e| {
            vec![SetupError::TooLarge {
                rows: self.rows,
                cols: self.cols,
                cells: match e {
                    BoardError::TooLarge { cells, .. } => cells,
                    _ => cells,
                },
            }]
        })
    }

    /// The cells as text: rows of `.` (empty) and `#` (blocked) joined by `/`; dominoes are
    /// not included (see [`Setup::position_text`]).
    pub fn cells_text(&self) -> String {
        let mut s = String::with_capacity(self.rows * (self.cols + 1));
        for r in 0..self.rows {
            if r > 0 {
                s.push('/');
            }
            for c in 0..self.cols {
                s.push(if self.is_blocked(r, c) { '#' } else { '.' });
            }
        }
        s
    }

    /// The position as the command line takes it: dominoes drawn as blocked cells.
    pub fn position_text(&self) -> String {
        let mut s = String::with_capacity(self.rows * (self.cols + 1));
        for r in 0..self.rows {
            if r > 0 {
                s.push('/');
            }
            for c in 0..self.cols {
                s.push(if self.is_free(r, c) { '.' } else { '#' });
            }
        }
        s
    }

    /// Parses the board text form (`..../.##./....` or a size such as `3x7`), up to 16 × 16;
    /// errors name the row and column. The result has no dominoes.
    pub fn parse(text: &str) -> Result<Setup, EditError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(BoardError::Empty.into());
        }
        if let Some((a, b)) = text.split_once(['x', 'X'])
            && !a.trim().is_empty()
            && a.trim().bytes().all(|b| b.is_ascii_digit())
            && b.trim().bytes().all(|b| b.is_ascii_digit())
        {
            let bad = || EditError::Text(BoardError::BadSize(text.to_string()));
            let rows: usize = a.trim().parse().map_err(|_| bad())?;
            let cols: usize = b.trim().parse().map_err(|_| bad())?;
            if rows == 0 || cols == 0 {
                return Err(bad());
            }
            if rows > MAX_SIDE || cols > MAX_SIDE {
                return Err(EditError::TextTooLarge(rows, cols));
            }
            return Ok(Setup::empty(rows, cols));
        }
        let lines: Vec<&str> = text.split(['/', '\n']).map(str::trim).collect();
        let first = lines[0].chars().count();
        let mut blocked = Vec::new();
        for (r, line) in lines.iter().enumerate() {
            let len = line.chars().count();
            if len != first {
                return Err(BoardError::Ragged { row: r + 1, len, first }.into());
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' => blocked.push(false),
                    '#' => blocked.push(true),
                    _ => {
                        return Err(BoardError::BadChar {
                            row: r + 1,
                            col: c + 1,
                            ch,
                        }
                        .into());
                    }
                }
            }
        }
        if first == 0 {
            return Err(BoardError::Empty.into());
        }
        if lines.len() > MAX_SIDE || first > MAX_SIDE {
            return Err(EditError::TextTooLarge(lines.len(), first));
        }
        Ok(Setup {
            rows: lines.len(),
            cols: first,
            blocked,
            dominoes: Vec::new(),
            pushed: false,
        })
    }
}

/// The editor's saved form (session files): the cells as text, the dominoes, the rules and
/// the phase. Every field has a default, so older or hand-written files load.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct CramDocument {
    /// Rows of `.` (empty) and `#` (blocked) joined by `/`.
    pub board: String,
    /// The placed dominoes, in the order they were placed.
    pub dominoes: Vec<Domino>,
    /// Cram or Push Cram.
    pub rules: CramGame,
    /// Push Cram: the button has been pushed.
    pub pushed: bool,
}

impl Default for CramDocument {
    fn default() -> Self {
        CramModel::default().document()
    }
}

/// What undo and redo restore: the setup and the rules (switching between Cram and Push
/// Cram is a step of the history like any edit).
type Snapshot = (Setup, CramGame);

/// The editor's state: the setup, the rules, and the undo and redo stacks.
#[derive(Debug, Clone, Default)]
pub struct CramModel {
    setup: Setup,
    rules: CramGame,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
}

impl CramModel {
    /// The current drawing.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The rules currently played: Cram or Push Cram.
    pub fn rules(&self) -> CramGame {
        self.rules
    }

    /// Plays by other rules (undoable). Returns whether they changed.
    pub fn set_rules(&mut self, rules: CramGame) -> bool {
        if rules == self.rules {
            return false;
        }
        self.remember((self.setup.clone(), self.rules));
        self.rules = rules;
        true
    }

    /// Pushes the state before a change onto the undo stack; the change forgets the redo stack.
    fn remember(&mut self, before: Snapshot) {
        self.undo.push(before);
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Makes a snapshot current and returns the one it replaces.
    fn restore(&mut self, (setup, rules): Snapshot) -> Snapshot {
        (
            std::mem::replace(&mut self.setup, setup),
            std::mem::replace(&mut self.rules, rules),
        )
    }

    /// Applies `edit` to a copy of the setup; a changed setup becomes current and can be
    /// undone. On error nothing changes. Returns whether the setup changed.
    pub fn edit(&mut self, edit: impl FnOnce(&mut Setup) -> Result<(), EditError>) -> Result<bool, EditError> {
        let mut next = self.setup.clone();
        edit(&mut next)?;
        if next == self.setup {
            return Ok(false);
        }
        let before = (std::mem::replace(&mut self.setup, next), self.rules);
        self.remember(before);
        Ok(true)
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an undone edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Restores the state before the last edit (setup and rules). Returns `false` when there was nothing to undo.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(prev) => {
                let now = self.restore(prev);
                self.redo.push(now);
                true
            }
            None => false,
        }
    }

    /// Re-applies the last undone edit. Returns `false` when there was nothing to redo.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(next) => {
                let now = self.restore(next);
                self.undo.push(now);
                true
            }
            None => false,
        }
    }

    /// Replaces the setup with a pasted board text (undoable); bad text changes nothing.
    pub fn paste(&mut self, text: &str) -> Result<(), EditError> {
        let new = Setup::parse(text)?;
        self.edit(|s| {
            *s = new;
            Ok(())
        })
        .map(|_| ())
    }

    /// The form saved in sessions.
    pub fn document(&self) -> CramDocument {
        CramDocument {
            board: self.setup.cells_text(),
            dominoes: self.setup.dominoes.clone(),
            rules: self.rules,
            pushed: self.setup.pushed,
        }
    }

    /// A model holding a saved document (no undo history). The board text must parse; the
    /// dominoes are kept as saved, even if they do not fit (the editor then says why).
    pub fn from_document(doc: &CramDocument) -> Result<CramModel, EditError> {
        let mut setup = Setup::parse(&doc.board)?;
        setup.dominoes = doc.dominoes.clone();
        setup.pushed = doc.pushed;
        Ok(CramModel {
            setup,
            rules: doc.rules,
            undo: Vec::new(),
            redo: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests;
