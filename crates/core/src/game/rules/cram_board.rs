//! Boards for Cram and Push Cram: any shape of empty and blocked cells inside a grid of at most
//! 128 cells, stored as one `u128` bitboard so the solvers can work on it with word operations.
//!
//! Cell `(r, c)` is bit `r * cols + c` (row-major, stride `cols`). The text form is rows of `.`
//! (empty) and `#` (blocked) separated by `/` or newlines, e.g. `..../.##./....`; `3x7` is the
//! empty rectangle of 3 rows and 7 columns.

use crate::game::quote::quoted;
use std::fmt;
use std::str::FromStr;

/// Largest number of cells (rows × columns) of a board: one bit per cell in a `u128`.
pub const MAX_CELLS: usize = 128;

/// Why a board text or a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The text has no cells.
    #[error("empty board: give rows of '.' (empty) and '#' (blocked) separated by '/', or a size like 3x7")]
    Empty,
    /// A character other than `.` and `#` (row and column count from 1).
    #[error("row {row}, column {col}: unexpected {} (use '.' for empty, '#' for blocked)", quoted(&.ch.to_string()))]
    BadChar {
        /// Row, counted from 1.
        row: usize,
        /// Column, counted from 1.
        col: usize,
        /// The character found.
        ch: char,
    },
    /// Row `row` (from 1) has `len` cells where the first row has `first`.
    #[error("row {row} has {len} cells but row 1 has {first}")]
    Ragged {
        /// The row, counted from 1.
        row: usize,
        /// Its number of cells.
        len: usize,
        /// The first row's number of cells.
        first: usize,
    },
    /// More than [`MAX_CELLS`] cells.
    #[error("board of {rows}×{cols} = {cells} cells is over the limit of 128 cells")]
    TooLarge {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
        /// Number of cells, `rows × cols`.
        cells: usize,
    },
    /// A `ROWSxCOLS` size that is not two positive numbers (the text given).
    #[error("bad board size {}: expected ROWSxCOLS with at least one row and one column, e.g. 3x7", quoted(.0))]
    BadSize(String),
    /// The domino does not cover two empty cells of the board.
    #[error("domino at row {row}, column {col} ({orientation}) does not cover two empty cells of the board")]
    IllegalMove {
        /// Row of the domino's top-left cell, from 0.
        row: usize,
        /// Column of the domino's top-left cell, from 0.
        col: usize,
        /// Direction of the domino.
        orientation: Orientation,
    },
}

/// Direction of a domino.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Orientation {
    /// Covers `(row, col)` and `(row, col + 1)`.
    Horizontal,
    /// Covers `(row, col)` and `(row + 1, col)`.
    Vertical,
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Orientation::Horizontal => "horizontal",
            Orientation::Vertical => "vertical",
        })
    }
}

/// A 1×2 domino: covers `(row, col)` and its right (horizontal) or lower (vertical) neighbour.
/// Rows and columns count from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Domino {
    /// Row of the top-left cell, from 0.
    pub row: usize,
    /// Column of the top-left cell, from 0.
    pub col: usize,
    /// Whether the domino extends right or down.
    pub orientation: Orientation,
}

impl fmt::Display for Domino {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // saturating: a domino read from a file may sit at the last usize
        let (r2, c2) = match self.orientation {
            Orientation::Horizontal => (self.row, self.col.saturating_add(1)),
            Orientation::Vertical => (self.row.saturating_add(1), self.col),
        };
        write!(f, "({},{})-({},{})", self.row, self.col, r2, c2)
    }
}

/// A board: a `rows × cols` grid (at most 128 cells) whose cells are empty or blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Board {
    rows: usize,
    cols: usize,
    /// Bit `r * cols + c` is set when cell `(r, c)` is empty.
    empty: u128,
}

/// Mask of the low `n` bits (`n <= 128`).
#[inline]
pub(crate) fn low_bits(n: usize) -> u128 {
    if n >= 128 { u128::MAX } else { (1u128 << n) - 1 }
}

/// Mask of the cells of a `rows × cols` grid (stride `cols`) that are not in the last column,
/// i.e. the cells a horizontal domino may start on.
pub(crate) fn not_last_col(rows: usize, cols: usize) -> u128 {
    // (rows - 1) * cols < 128, so every shift below is in range.
    let row = low_bits(cols) >> 1; // columns 0..cols-2
    let mut mask = 0u128;
    for r in 0..rows {
        mask |= row << (r * cols);
    }
    mask & low_bits(rows * cols)
}

impl Board {
    /// The empty `rows × cols` rectangle.
    pub fn rectangle(rows: usize, cols: usize) -> Result<Board, BoardError> {
        Board::from_mask(rows, cols, u128::MAX)
    }

    /// A board from its bitboard of empty cells (bit `r * cols + c`); bits outside the grid are
    /// ignored.
    pub fn from_mask(rows: usize, cols: usize, empty: u128) -> Result<Board, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::BadSize(format!("{rows}x{cols}")));
        }
        check_size(rows, cols)?;
        Ok(Board {
            rows,
            cols,
            empty: empty & low_bits(rows * cols),
        })
    }

    /// Number of rows (at least 1).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns (at least 1).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Bitboard of the empty cells: bit `r * cols + c`.
    pub fn empty_mask(&self) -> u128 {
        self.empty
    }

    /// Number of empty cells.
    pub fn empty_count(&self) -> usize {
        self.empty.count_ones() as usize
    }

    /// Whether `(r, c)` is an empty cell of the grid (`false` outside the grid).
    pub fn is_empty(&self, r: usize, c: usize) -> bool {
        r < self.rows && c < self.cols && self.empty >> (r * self.cols + c) & 1 == 1
    }

    /// The two cells of `d` as a bitboard, or `None` if `d` sticks out of the grid.
    fn domino_mask(&self, d: Domino) -> Option<u128> {
        let (r2, c2) = match d.orientation {
            Orientation::Horizontal => (d.row, d.col.checked_add(1)?),
            Orientation::Vertical => (d.row.checked_add(1)?, d.col),
        };
        if r2 >= self.rows || c2 >= self.cols {
            return None;
        }
        Some(1u128 << (d.row * self.cols + d.col) | 1u128 << (r2 * self.cols + c2))
    }

    /// The board after placing `d` (its two cells become blocked).
    pub fn place(&self, d: Domino) -> Result<Board, BoardError> {
        match self.domino_mask(d) {
            Some(m) if self.empty & m == m => Ok(Board {
                empty: self.empty & !m,
                ..*self
            }),
            _ => Err(BoardError::IllegalMove {
                row: d.row,
                col: d.col,
                orientation: d.orientation,
            }),
        }
    }

    /// Bitboard of the cells where a horizontal domino may start.
    pub(crate) fn horizontal_starts(&self) -> u128 {
        self.empty & (self.empty >> 1) & not_last_col(self.rows, self.cols)
    }

    /// Bitboard of the cells where a vertical domino may start.
    pub(crate) fn vertical_starts(&self) -> u128 {
        self.empty & self.empty.checked_shr(self.cols as u32).unwrap_or(0)
    }

    fn dominoes(&self, starts: u128, orientation: Orientation) -> Vec<Domino> {
        let mut out = Vec::with_capacity(starts.count_ones() as usize);
        let mut s = starts;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            out.push(Domino {
                row: i / self.cols,
                col: i % self.cols,
                orientation,
            });
        }
        out
    }

    /// Legal horizontal dominoes in row-major order of their top-left cell.
    pub fn horizontal_moves(&self) -> Vec<Domino> {
        self.dominoes(self.horizontal_starts(), Orientation::Horizontal)
    }

    /// Legal vertical dominoes in row-major order of their top-left cell.
    pub fn vertical_moves(&self) -> Vec<Domino> {
        self.dominoes(self.vertical_starts(), Orientation::Vertical)
    }

    /// All legal dominoes, sorted by `(row, col, orientation)` with horizontal before vertical.
    pub fn legal_moves(&self) -> Vec<Domino> {
        let mut out = self.horizontal_moves();
        out.extend(self.vertical_moves());
        out.sort();
        out
    }
}

fn check_size(rows: usize, cols: usize) -> Result<(), BoardError> {
    match rows.checked_mul(cols) {
        Some(cells) if cells <= MAX_CELLS => Ok(()),
        cells => Err(BoardError::TooLarge {
            rows,
            cols,
            cells: cells.unwrap_or(usize::MAX),
        }),
    }
}

/// Parses `ROWSxCOLS` (or `ROWSXCOLS`); `None` when the text is not of that shape at all.
fn parse_size(text: &str) -> Option<Result<Board, BoardError>> {
    let (a, b) = text.split_once(['x', 'X'])?;
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(a.trim()) || !all_digits(b.trim()) {
        return None;
    }
    let bad = || BoardError::BadSize(text.to_string());
    let (Ok(rows), Ok(cols)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) else {
        return Some(Err(bad()));
    };
    if rows == 0 || cols == 0 {
        return Some(Err(bad()));
    }
    Some(Board::rectangle(rows, cols))
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(BoardError::Empty);
        }
        if let Some(result) = parse_size(text) {
            return result;
        }
        let lines: Vec<&str> = text.split(['/', '\n']).map(str::trim).collect();
        let first = lines[0].chars().count();
        let mut empty = 0u128;
        let mut index = 0usize;
        for (r, line) in lines.iter().enumerate() {
            let len = line.chars().count();
            if len != first {
                return Err(BoardError::Ragged { row: r + 1, len, first });
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' => {
                        if index < MAX_CELLS {
                            empty |= 1u128 << index;
                        }
                    }
                    '#' => {}
                    _ => {
                        return Err(BoardError::BadChar {
                            row: r + 1,
                            col: c + 1,
                            ch,
                        });
                    }
                }
                index += 1;
            }
        }
        if first == 0 {
            return Err(BoardError::Empty);
        }
        check_size(lines.len(), first)?;
        Ok(Board {
            rows: lines.len(),
            cols: first,
            empty,
        })
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..self.cols {
                f.write_str(if self.is_empty(r, c) { "." } else { "#" })?;
            }
        }
        Ok(())
    }
}

impl TryFrom<String> for Board {
    type Error = BoardError;
    fn try_from(s: String) -> Result<Board, BoardError> {
        s.parse()
    }
}

impl From<Board> for String {
    fn from(b: Board) -> String {
        b.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display() {
        let b: Board = "..../.##./....".parse().unwrap();
        assert_eq!((b.rows(), b.cols()), (3, 4));
        assert!(!b.is_empty(1, 1) && b.is_empty(1, 0));
        assert_eq!(b.to_string(), "..../.##./....");
        let b2: Board = "....\n.##.\r\n....\n".parse().unwrap();
        assert_eq!(b, b2);
        let r: Board = "3x7".parse().unwrap();
        assert_eq!(r, "3X7".parse().unwrap());
        assert_eq!(r.to_string(), ["......."; 3].join("/"));
        assert_eq!(r.empty_count(), 21);
    }

    #[test]
    fn parse_errors() {
        let e = "..../..x./....".parse::<Board>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "row 2, column 3: unexpected 'x' (use '.' for empty, '#' for blocked)"
        );
        let e = "..../..../..../.....".parse::<Board>().unwrap_err();
        assert_eq!(e.to_string(), "row 4 has 5 cells but row 1 has 4");
        assert_eq!("".parse::<Board>().unwrap_err(), BoardError::Empty);
        assert_eq!("  \n".parse::<Board>().unwrap_err(), BoardError::Empty);
        let e = "12x12".parse::<Board>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "board of 12×12 = 144 cells is over the limit of 128 cells"
        );
        let long = vec!["."; 129].concat();
        assert!(matches!(
            long.parse::<Board>(),
            Err(BoardError::TooLarge { cells: 129, .. })
        ));
        assert!(matches!("0x5".parse::<Board>(), Err(BoardError::BadSize(_))));
        assert!(matches!(
            "99999999999999999999999x2".parse::<Board>(),
            Err(BoardError::BadSize(_))
        ));
        assert!("1x128".parse::<Board>().is_ok());
        assert!("128x1".parse::<Board>().is_ok());
    }

    #[test]
    fn moves_and_place() {
        let b: Board = "../.#".parse().unwrap();
        let moves = b.legal_moves();
        assert_eq!(
            moves,
            vec![
                Domino {
                    row: 0,
                    col: 0,
                    orientation: Orientation::Horizontal
                },
                Domino {
                    row: 0,
                    col: 0,
                    orientation: Orientation::Vertical
                },
            ]
        );
        let after = b.place(moves[0]).unwrap();
        assert_eq!(after.to_string(), "##/.#");
        assert!(after.legal_moves().is_empty());
        let bad = Domino {
            row: 0,
            col: 1,
            orientation: Orientation::Vertical,
        };
        assert!(b.place(bad).is_err());
        let out = Domino {
            row: 5,
            col: usize::MAX,
            orientation: Orientation::Horizontal,
        };
        assert!(b.place(out).is_err());
        // Horizontal dominoes never wrap from one row to the next.
        let b: Board = "2x3".parse().unwrap();
        assert_eq!(b.horizontal_moves().len(), 4);
        assert_eq!(b.vertical_moves().len(), 3);
        let wide: Board = "1x128".parse().unwrap();
        assert_eq!(wide.horizontal_moves().len(), 127);
    }

    #[test]
    fn serde_uses_text() {
        // serde's derive is exercised through the String conversions it relies on.
        let b: Board = String::from("#./..").try_into().unwrap();
        assert_eq!(String::from(b), "#./..");
    }
}
