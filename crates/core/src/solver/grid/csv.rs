//! The CSV text of a grid, the format of `nimscope grid`: the command line and the window's
//! CSV export both write it here. One line per row a, in increasing order, holding G(a, b) for
//! the columns b left to right, comma-separated, an empty field where the cell is not a
//! position; no header, so the file is the table of values alone.

use std::io::Write;
use std::ops::Range;

use super::{Grid, grid};
use crate::game::{Layout, Ruleset};
use crate::solver::{Control, SolveError};

/// The CSV text of `rows × cols` of `ruleset` laid out by `layout`, computed by [`grid`]: what
/// the window's CSV export writes when the map holds none of the cells (or they lie where the
/// map's fill from the origin reaches the far corner anyway).
pub fn grid_csv(
    ruleset: &Ruleset,
    layout: &Layout,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<Vec<u8>, SolveError> {
    let g = grid(ruleset, layout, rows, cols, control)?;
    let mut out = Vec::new();
    g.write_csv(&mut out)
        .map_err(|e| SolveError::Unsupported(format!("could not write the CSV: {e}")))?;
    Ok(out)
}

impl Grid {
    /// Writes the grid as CSV, straight from its cells, a buffer at a time (16.7 M values
    /// print in a fraction of the time they take to compute).
    pub fn write_csv(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.infinite.is_some() {
            return self.write_loopy(out, false);
        }
        self.write_mapped(out, |v| v)
    }

    /// Writes the grid's outcomes as CSV: 0 for a P-position (value 0), 1 for an N-position
    /// (and `D` for a draw, in a game that loops).
    pub fn write_outcome_csv(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.infinite.is_some() {
            return self.write_loopy(out, true);
        }
        self.write_mapped(out, |v| u64::from(v != 0))
    }

    /// The CSV of a game that loops: each value as Smith's theory writes it, `∞(A)` quoted
    /// (its set holds commas), or with `outcome` 0, 1 or `D`.
    fn write_loopy(&self, out: &mut dyn Write, outcome: bool) -> std::io::Result<()> {
        let mut line = String::new();
        for a in self.rows.clone() {
            line.clear();
            for (i, b) in self.cols.clone().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                match self.gamma(a, b) {
                    None => {}
                    Some(g) if outcome => line.push_str(match g.outcome() {
                        crate::game::Outcome::P => "0",
                        crate::game::Outcome::N => "1",
                        crate::game::Outcome::D => "D",
                    }),
                    Some(crate::game::Gamma::Finite(v)) => line.push_str(&v.to_string()),
                    Some(g) => {
                        let text = g.to_string();
                        if text.contains(',') {
                            line.push_str(&format!("\"{text}\""));
                        } else {
                            line.push_str(&text);
                        }
                    }
                }
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    fn write_mapped(&self, out: &mut dyn Write, map: impl Fn(u64) -> u64 + Sync) -> std::io::Result<()> {
        let g = self;
        // Rows are formatted BLOCK at a time, column by column across the block: a symmetric map
        // keeps only its triangle, so G(a, b) for b > a sits in row b, and reading row by row would
        // jump through memory at every cell; across a block the reads stay within a few cache
        // lines. Blocks are formatted on every core, a batch at a time, and written in order.
        use rayon::prelude::*;
        const BLOCK: u64 = 64;
        const BATCH: u64 = 16 * BLOCK;
        let digits = Digits::new();
        let cols = (g.cols.end - g.cols.start) as usize;
        let format_block = |a0: u64| -> Vec<u8> {
            let a1 = (a0 + BLOCK).min(g.rows.end);
            let mut lines: Vec<Line> = (a0..a1).map(|_| Line::new(cols)).collect();
            for b in g.cols.clone() {
                for (line, a) in lines.iter_mut().zip(a0..a1) {
                    match g.get_wide(a, b) {
                        Some(v) => digits.push(line, map(v)),
                        None => line.push_comma(),
                    }
                }
            }
            let mut text = Vec::with_capacity(lines.iter().map(|l| l.len + 1).sum());
            for line in &mut lines {
                line.finish(cols);
                text.extend_from_slice(line.text());
            }
            text
        };
        let mut start = g.rows.start;
        while start < g.rows.end {
            let end = (start + BATCH).min(g.rows.end);
            let blocks: Vec<Vec<u8>> = (start..end)
                .step_by(BLOCK as usize)
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(format_block)
                .collect();
            for text in &blocks {
                out.write_all(text)?;
            }
            start = end;
        }
        Ok(())
    }
}

/// One CSV line being written: every value is followed by a comma, the last one replaced by the
/// line's end.
pub(crate) struct Line {
    bytes: Vec<u8>,
    len: usize,
}

impl Line {
    pub(crate) fn new(cols: usize) -> Self {
        // at most 5 digits and a comma a value from the table, and 8 bytes of room for its copy
        Self {
            bytes: vec![0; cols * 6 + 9],
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push_comma(&mut self) {
        self.bytes[self.len] = b',';
        self.len += 1;
    }

    pub(crate) fn finish(&mut self, cols: usize) {
        if cols == 0 {
            self.bytes[0] = b'\n';
            self.len = 1;
        } else {
            self.bytes[self.len - 1] = b'\n';
        }
    }

    pub(crate) fn text(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Decimal text of values followed by a comma, from a table for the values below 2^16 (a map's
/// values are small: one eight-byte copy beats formatting them, 16.7 M times).
pub(crate) struct Digits {
    /// `table[v]`: the text of `v` and a comma, padded to 8 bytes; its length in `lens[v]`.
    table: Vec<[u8; 8]>,
    lens: Vec<u8>,
}

impl Digits {
    pub(crate) fn new() -> Self {
        let mut b = itoa::Buffer::new();
        let (mut table, mut lens) = (Vec::with_capacity(1 << 16), Vec::with_capacity(1 << 16));
        for v in 0..1u32 << 16 {
            let s = b.format(v).as_bytes();
            let mut t = [0u8; 8];
            t[..s.len()].copy_from_slice(s);
            t[s.len()] = b',';
            table.push(t);
            lens.push(s.len() as u8 + 1);
        }
        Self { table, lens }
    }

    #[inline]
    pub(crate) fn push(&self, line: &mut Line, v: u64) {
        match self.table.get(v as usize) {
            Some(t) => {
                line.bytes[line.len..line.len + 8].copy_from_slice(t);
                line.len += self.lens[v as usize] as usize;
            }
            None => {
                // values past 2^16: formatted, the line grown to fit
                let mut b = itoa::Buffer::new();
                let s = b.format(v).as_bytes();
                // the line was sized for 6 bytes a value: add what this one takes
                line.bytes.resize(line.bytes.len() + s.len() + 1, 0);
                line.bytes[line.len..line.len + s.len()].copy_from_slice(s);
                line.len += s.len();
                line.push_comma();
            }
        }
    }
}
