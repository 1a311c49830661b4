//! The fast fill of Nim-like and Wythoff-like moves (every lower cell of a row, column or
//! diagonal): one bitset of seen values per line, with a pointer below which a line is full, so
//! a cell costs a few word operations instead of a scan of its options.

use super::storage::{Cells, Plane, extra_values};
use crate::solver::control::{Control, SolveError};

/// Bitsets of the values seen on a family of lines (all columns, or all diagonals), stored in
/// blocks of [`BLOCK`] words: block `k` of every line is contiguous. The cells of one row visit
/// consecutive lines at nearly the same word, so they walk memory in order, and a mex scan
/// past a few words stays inside one cache line.
#[derive(Debug, Clone)]
pub(super) struct Lines {
    pub(super) count: usize,
    /// Words per line (a multiple of `BLOCK`).
    pub(super) words: usize,
    pub(super) bits: Vec<u64>,
    /// Every value below `lo[line]` is on the line.
    pub(super) lo: Vec<u32>,
}

/// Words per block (one 64-byte cache line).
pub(super) const BLOCK: usize = 8;

impl Lines {
    pub(super) fn new(count: usize, words: usize) -> Self {
        let words = words.next_multiple_of(BLOCK);
        Self {
            count,
            words,
            bits: vec![0; count * words],
            lo: vec![0; count],
        }
    }

    /// Bytes of `count` lines of `words` words.
    pub(super) fn bytes(count: usize, words: usize) -> u64 {
        (count * (words.next_multiple_of(BLOCK) * 8 + 4)) as u64
    }

    /// A copy with room for `count` lines of `words` words (at least the current ones).
    pub(super) fn grown(&self, count: usize, words: usize) -> Lines {
        let mut out = Lines::new(count.max(self.count), words.max(self.words));
        for line in 0..self.count {
            for w in 0..self.words {
                let i = out.slot(line, w);
                out.bits[i] = self.bits[self.slot(line, w)];
            }
            out.lo[line] = self.lo[line];
        }
        out
    }

    #[inline]
    pub(super) fn slot(&self, line: usize, w: usize) -> usize {
        (w / BLOCK) * self.count * BLOCK + line * BLOCK + w % BLOCK
    }

    /// The `BLOCK` words of block `k` of a line.
    #[inline]
    pub(super) fn block(&self, line: usize, k: usize) -> &[u64; BLOCK] {
        let i = self.slot(line, k * BLOCK);
        #[expect(clippy::expect_used, reason = "a slice of BLOCK words always converts")]
        self.bits[i..i + BLOCK].try_into().expect("a block is BLOCK words")
    }

    #[inline]
    pub(super) fn has(&self, line: usize, v: u32) -> bool {
        let w = (v / 64) as usize;
        w < self.words && self.bits[self.slot(line, w)] & (1 << (v % 64)) != 0
    }

    #[inline]
    pub(super) fn insert(&mut self, line: usize, v: u32) {
        let i = self.slot(line, (v / 64) as usize);
        self.bits[i] |= 1 << (v % 64);
        self.raise_lo(line);
    }

    #[inline]
    pub(super) fn raise_lo(&mut self, line: usize) {
        let mut lo = self.lo[line];
        while self.has(line, lo) {
            lo += 1;
        }
        self.lo[line] = lo;
    }

    /// Adds every value of the single line `other` to `line`.
    pub(super) fn merge_line(&mut self, line: usize, other: &Lines) {
        for w in 0..self.words.min(other.words) {
            let i = self.slot(line, w);
            self.bits[i] |= other.bits[other.slot(0, w)];
        }
        self.raise_lo(line);
    }

    pub(super) fn clear(&mut self) {
        self.bits.iter_mut().for_each(|w| *w = 0);
        self.lo.iter_mut().for_each(|l| *l = 0);
    }
}

/// The least value ≥ `start` on none of the given lines, scanning a block (a cache line of
/// each) at a time.
#[inline]
pub(super) fn first_free(
    start: u32,
    row: &Lines,
    r: usize,
    cols: &Lines,
    c: usize,
    diag: Option<(&Lines, usize)>,
) -> u32 {
    let mut w = (start / 64) as usize;
    let mut mask = !0u64 << (start % 64);
    loop {
        let (block, first) = (w / BLOCK, w % BLOCK);
        let rb = row.block(r, block);
        let cb = cols.block(c, block);
        let db = diag.map_or(&[0u64; BLOCK], |(l, d)| l.block(d, block));
        for i in first..BLOCK {
            let free = !(rb[i] | cb[i] | db[i]) & mask;
            if free != 0 {
                return ((block * BLOCK + i) * 64) as u32 + free.trailing_zeros();
            }
            mask = !0;
        }
        w = (block + 1) * BLOCK;
    }
}

/// What a lines fill carries from one row to the next: the values seen on every column and
/// diagonal so far, and the row being filled.
#[derive(Debug, Clone)]
pub(super) struct LineSets {
    pub(super) diag: bool,
    pub(super) cols: Lines,
    pub(super) diags: Lines,
    pub(super) row: Lines,
}

impl LineSets {
    pub(super) fn new(diag: bool, cols: usize, diags: usize, words: usize) -> Self {
        Self {
            diag,
            cols: Lines::new(cols, words),
            diags: Lines::new(if diag { diags } else { 0 }, words),
            row: Lines::new(1, words),
        }
    }

    pub(super) fn bytes(diag: bool, cols: usize, diags: usize, words: usize) -> u64 {
        Lines::bytes(cols + 1, words) + if diag { Lines::bytes(diags, words) } else { 0 }
    }

    /// Room for `lines` columns and diagonals of `words` words, keeping what was seen.
    pub(super) fn grown(&self, lines: usize, words: usize) -> Self {
        Self {
            diag: self.diag,
            cols: self.cols.grown(lines, words),
            diags: if self.diag {
                self.diags.grown(lines, words)
            } else {
                Lines::new(0, words)
            },
            row: Lines::new(1, words.max(self.row.words)),
        }
    }
}

/// Fills row `a` of a Nim-like (row and column) or Wythoff-like (also the diagonal) plane from
/// the bitsets of the rows below, and adds the row to them.
///
/// In a symmetric plane the cell (a, b), b ≤ a, sees row a left of it, column b above it (its
/// part above the diagonal mirrored from row b) and its diagonal; after each row the row's
/// values are merged into column a, which is what the mirror image of that row contributes.
pub(super) fn lines_row(plane: &mut Plane, a: usize, sets: &mut LineSets, terminal: u32, extras: &[&Plane]) {
    let LineSets { diag, cols, diags, row } = sets;
    let (diag, symmetric) = (*diag, plane.symmetric);
    let mut ext = [0u32; 8];
    row.clear();
    for b in plane.cells_of_row(a) {
        let Some(n_ext) = extra_values(extras, a, b, &mut ext) else {
            continue;
        };
        let d = if symmetric { a - b } else { b + plane.rows - a };
        let mut start = row.lo[0].max(cols.lo[b]);
        if diag {
            start = start.max(diags.lo[d]);
        }
        let v = if a == 0 && b == 0 && n_ext == 0 {
            terminal
        } else {
            loop {
                let found = first_free(start, row, 0, cols, b, if diag { Some((diags, d)) } else { None });
                if ext[..n_ext].contains(&found) {
                    start = found + 1;
                } else {
                    break found;
                }
            }
        };
        let i = plane.index(a, b);
        plane.cells.set(i, v);
        row.insert(0, v);
        if !(symmetric && b == a) {
            cols.insert(b, v);
        }
        if diag {
            diags.insert(d, v);
        }
    }
    if symmetric {
        cols.merge_line(a, row);
    }
}

/// Nim-like and Wythoff-like moves on a plane that is not symmetric (a thin strip).
pub(super) fn fill_lines(
    shape: Plane,
    diag: bool,
    terminal: u32,
    extras: &[&Plane],
    control: &Control,
) -> Result<Plane, SolveError> {
    let (r, c) = (shape.rows, shape.cols);
    // A cell has at most a + b (+ min(a, b)) options, plus the pushes.
    let bound = (r + c + if diag { r.min(c) } else { 0 } + extras.len() + 2) as u64;
    let words = (bound as usize).div_ceil(64);
    let len = Plane::len(r, c, shape.symmetric);
    let bytes = len as u64 * Cells::bytes_per_cell(bound) + LineSets::bytes(diag, c, r + c, words);
    control.reserve(format!("a {r}×{c} map"), bytes)?;
    let mut plane = Plane {
        cells: Cells::new(len, bound),
        ..shape
    };
    let mut sets = LineSets::new(diag, c, r + c, words);
    for a in 0..r {
        control.check()?;
        lines_row(&mut plane, a, &mut sets, terminal, extras);
        control.add_done(plane.cells_of_row(a).len() as u64);
    }
    Ok(plane)
}
