//! The fast fill of Nim-like and Wythoff-like moves (every lower cell of a row, column or
//! diagonal): one bitset of seen values per line, with a pointer below which a line is full, so
//! a cell costs a few word operations instead of a scan of its options.

use super::storage::{Cells, Plane, extra_values};
use crate::solver::control::{Control, SolveError};

/// Bitsets of the values seen on a family of lines (all columns, or all diagonals), each line's
/// words contiguous and scanned a block of [`BLOCK`] words (a cache line) at a time: a mex scan
/// walks one line forwards, which the prefetcher follows, and a tile of the map
/// ([`super::tiled`]) reads a few hundred bytes of each of its lines, kept in the cache while
/// the tile's rows use them.
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
        line * self.words + w
    }

    /// The words of one line.
    #[inline]
    pub(super) fn line(&self, line: usize) -> &[u64] {
        &self.bits[line * self.words..(line + 1) * self.words]
    }

    #[inline]
    pub(super) fn insert(&mut self, line: usize, v: u32) {
        let words = self.words;
        insert_value(&mut self.bits[line * words..(line + 1) * words], &mut self.lo[line], v);
    }

    /// Moves `lo[line]` past the values on the line, a word at a time.
    #[inline]
    pub(super) fn raise_lo(&mut self, line: usize) {
        let words = self.words;
        raise_lo(&self.bits[line * words..(line + 1) * words], &mut self.lo[line]);
    }

    /// Adds every value of the single line `other` to `line`.
    pub(super) fn merge_line(&mut self, line: usize, other: &Lines) {
        self.merge_from(line, other, 0);
    }

    /// Adds every value of line `from` of `other` to `line`.
    pub(super) fn merge_from(&mut self, line: usize, other: &Lines, from: usize) {
        for w in 0..self.words.min(other.words) {
            let i = self.slot(line, w);
            self.bits[i] |= other.bits[other.slot(from, w)];
        }
        self.raise_lo(line);
    }

    pub(super) fn clear(&mut self) {
        self.bits.iter_mut().for_each(|w| *w = 0);
        self.lo.iter_mut().for_each(|l| *l = 0);
    }
}

/// Adds `v` to the line `words` whose mex is `lo`.
#[inline]
pub(super) fn insert_value(words: &mut [u64], lo: &mut u32, v: u32) {
    words[(v / 64) as usize] |= 1 << (v % 64);
    if v == *lo {
        raise_lo(words, lo);
    }
}

/// Moves `lo` past the values on the line `words`, a word at a time.
#[inline]
pub(super) fn raise_lo(words: &[u64], lo: &mut u32) {
    let l = *lo as usize;
    let (w, bit) = (l / 64, l % 64);
    let mut out = if w < words.len() { words.len() * 64 } else { l };
    if let Some(&first) = words.get(w) {
        // the bits below lo count as seen
        let x = first | ((1u64 << bit) - 1);
        if x != !0 {
            out = w * 64 + (!x).trailing_zeros() as usize;
        } else if let Some(k) = words[w + 1..].iter().position(|&x| x != !0) {
            let k = w + 1 + k;
            out = k * 64 + (!words[k]).trailing_zeros() as usize;
        }
    }
    *lo = out as u32;
}

/// The least value ≥ `start` on none of the given lines, scanning a block (a cache line of
/// each) at a time: a block where every value is on some line (most of them: a scan walks
/// about n/5 values) is passed over by one AND of its eight ORed words, which the compiler
/// turns into vector operations, before any word is looked at alone. The three lines are
/// walked as slices side by side, so no word is bounds-checked on its own.
#[inline]
pub(super) fn first_free(
    start: u32,
    row: &Lines,
    r: usize,
    cols: &Lines,
    c: usize,
    diag: Option<(&Lines, usize)>,
) -> u32 {
    let rl = row.line(r);
    let cl = cols.line(c);
    // without a diagonal, the column twice (ORing a line with itself changes nothing)
    let dl = diag.map_or(cl, |(l, d)| l.line(d));
    first_free_in(start, rl, cl, dl)
}

/// [`first_free`] on three lines given as their words.
#[inline]
pub(super) fn first_free_in(start: u32, rl: &[u64], cl: &[u64], dl: &[u64]) -> u32 {
    let words = rl.len().min(cl.len()).min(dl.len());
    let w = (start / 64) as usize;
    if w >= words {
        return start;
    }
    // the rest of the start's block, word by word
    let block_end = (w / BLOCK + 1) * BLOCK;
    let mut mask = !0u64 << (start % 64);
    for i in w..block_end.min(words) {
        let free = !(rl[i] | cl[i] | dl[i]) & mask;
        if free != 0 {
            return (i * 64) as u32 + free.trailing_zeros();
        }
        mask = !0;
    }
    // the blocks after it, from their own start (not skipped one by one)
    let from = block_end.min(words);
    let blocks = rl[from..words]
        .chunks_exact(BLOCK)
        .zip(cl[from..words].chunks_exact(BLOCK))
        .zip(dl[from..words].chunks_exact(BLOCK))
        .enumerate()
        .map(|(k, b)| (from / BLOCK + k, b));
    for (k, ((rb, cb), db)) in blocks {
        let mut seen = [0u64; BLOCK];
        for i in 0..BLOCK {
            seen[i] = rb[i] | cb[i] | db[i];
        }
        if seen.iter().fold(!0u64, |acc, &x| acc & x) != !0 {
            for (i, &x) in seen.iter().enumerate() {
                if x != !0 {
                    return ((k * BLOCK + i) * 64) as u32 + (!x).trailing_zeros();
                }
            }
        }
    }
    (words * 64) as u32
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
        control.add_done(plane.progress_of_row(a));
    }
    Ok(plane)
}

/// The plain `n × n` square of `r`, row by row with no symmetry used, its push successors
/// filled the same way: the reference the tiled and anti-diagonal fills are compared with.
#[cfg(test)]
pub(super) fn row_by_row_square(r: &crate::game::Ruleset, n: usize, c: &Control) -> Plane {
    let extras: Vec<Plane> = r.push_successors().iter().map(|s| row_by_row_square(s, n, c)).collect();
    let extras: Vec<&Plane> = extras.iter().collect();
    let (base, misere) = r.base();
    let shape = Plane {
        rows: n,
        cols: n,
        symmetric: false,
        cells: Cells::Wide(Vec::new()),
    };
    fill_lines(
        shape,
        matches!(base, crate::game::Ruleset::Wythoff),
        u32::from(misere),
        &extras,
        c,
    )
    .expect("a square within the test's budget")
}
