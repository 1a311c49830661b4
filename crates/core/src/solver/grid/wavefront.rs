//! The tiled line-bitset fill of a symmetric plane ([`super::tiled`]) on every core, in the
//! anti-diagonal (wavefront) order of its tiles: one Wythoff fill keeps both cores busy.
//!
//! The triangle b ≤ a is cut into tiles of [`TILE`] × [`TILE`] cells aligned on the origin;
//! tile (I, J) holds rows `[I·TILE, (I+1)·TILE)` and columns `[J·TILE, (J+1)·TILE)`, J ≤ I.
//! A cell's options lie in its row to the left, its column above and its diagonal up-left, so
//! tile (I, J) needs only tiles (I', J') with I' ≤ I and J' ≤ J, and the mirror image of the
//! rows of block J (the column's part above the diagonal), finished with tile (J, J): all of
//! them before it in both directions. So a tile runs as soon as the tile left of it and the
//! tile below it are done (each finished tile hands on the ones it was the last to wait
//! for, as rayon tasks): the tiles of one anti-diagonal I + J = w, and more generally any two
//! tiles neither of which is below-left of the other, run at once. Such tiles share nothing
//! they write:
//! - row a's line is column a's line: the mirror of row a is column a, and nothing is added to
//!   column a before row a is finished (its cells below the diagonal come in later rows), so
//!   a tile writes the lines of its rows (block I) and of its columns (block J), two blocks of
//!   [`TILE`] lines that the other tile does not hold (I₁ < I₂ and J₁ > J₂; an I equal to the
//!   other's J would put one of the two above the diagonal);
//! - diagonal d = a − b lies in blocks I − J − 1 and I − J, and I − J differs by at least two;
//! - the cells of block I's rows are one contiguous run of the triangle's row-major storage.
//!
//! Each block is behind a lock its tile holds while it runs, never waited on. Every cell sees
//! exactly the values it sees in the sequential tile order, so the values are the same bit for
//! bit (tested against the row-by-row fill and the sequential tiles). Rows are filled a chunk
//! of [`CHUNK_BLOCKS`] blocks at a time, cancellation checked between chunks, so a cancelled
//! growth stops with whole rows finished.

use std::ops::Range;

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::lines::{LineSets, first_free_in, insert_value};
use super::storage::{Cells, NONE, Plane, extra_values};
use super::tiled::TILE;

/// Blocks of rows filled between two cancellation checks: enough tiles on each anti-diagonal
/// to keep two cores even, few enough to stop within a fraction of a second at n = 20000.
pub(super) const CHUNK_BLOCKS: usize = 8;

/// The end of the chunk of rows that starts at `a0`, for a fill up to `n`: whole blocks after
/// the (possibly partial) block of `a0`.
pub(super) fn chunk_end(a0: usize, n: usize) -> usize {
    ((a0 / TILE + CHUNK_BLOCKS) * TILE).min(n)
}

/// A cell's value as stored.
trait Slot: Copy + Send {
    fn of(v: u32) -> Self;
}

impl Slot for u16 {
    #[inline]
    fn of(v: u32) -> Self {
        if v == NONE { u16::MAX } else { v as u16 }
    }
}

impl Slot for u32 {
    #[inline]
    fn of(v: u32) -> Self {
        v
    }
}

/// A block of [`TILE`] consecutive lines (from line `first`), lent to one tile.
struct Block<'a> {
    first: usize,
    words: usize,
    bits: &'a mut [u64],
    lo: &'a mut [u32],
}

impl Block<'_> {
    #[inline]
    fn line(&self, l: usize) -> &[u64] {
        let k = l - self.first;
        &self.bits[k * self.words..(k + 1) * self.words]
    }

    #[inline]
    fn lo(&self, l: usize) -> u32 {
        self.lo[l - self.first]
    }

    #[inline]
    fn insert(&mut self, l: usize, v: u32) {
        let k = l - self.first;
        insert_value(&mut self.bits[k * self.words..(k + 1) * self.words], &mut self.lo[k], v);
    }
}

/// What one tile (I, J) may write: its rows' cells and lines, its columns' lines (`None` on
/// the diagonal, where they are the rows' own block) and the two blocks of its diagonals.
struct TileJob<'a, C> {
    i: usize,
    j: usize,
    /// The cells of the rows of block I being filled, from triangle index `base`.
    cells: &'a mut [C],
    base: usize,
    rows: Block<'a>,
    cols: Option<Block<'a>>,
    /// Diagonal blocks I − J − 1 and I − J (either may be absent: before the first, past the
    /// last, or no diagonal moves at all).
    diags: [Option<Block<'a>>; 2],
}

/// The blocks of [`TILE`] lines of one family (columns or diagonals), each behind a lock that
/// a tile takes for as long as it runs. No two tiles that may run at once want one block (see
/// the module's comment), so a lock is never waited on; it is there so the borrow checker can
/// see that no line is written from two threads.
struct Blocks<'a> {
    words: usize,
    blocks: Vec<Mutex<(&'a mut [u64], &'a mut [u32])>>,
}

impl<'a> Blocks<'a> {
    fn new(bits: &'a mut [u64], lo: &'a mut [u32], words: usize) -> Self {
        let blocks = if words == 0 {
            Vec::new()
        } else {
            bits.chunks_mut(TILE * words)
                .zip(lo.chunks_mut(TILE))
                .map(Mutex::new)
                .collect()
        };
        Self { words, blocks }
    }

    fn lock(&self, block: usize) -> Option<MutexGuard<'_, (&'a mut [u64], &'a mut [u32])>> {
        self.blocks
            .get(block)
            .map(|m| m.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// A locked block as a [`Block`].
fn block<'g>(
    guard: &'g mut Option<MutexGuard<'_, (&mut [u64], &mut [u32])>>,
    index: usize,
    words: usize,
) -> Option<Block<'g>> {
    let (bits, lo) = &mut **guard.as_mut()?;
    Some(Block {
        first: index * TILE,
        words,
        bits,
        lo,
    })
}

#[inline]
fn tri(a: usize) -> usize {
    a * (a + 1) / 2
}

/// Fills rows `rows` (cells b ≤ a) of a symmetric plane of Nim-like or Wythoff-like moves,
/// the rows before them finished, each tile as soon as the tiles below and left of it are
/// done, on the current rayon pool. The plane's cells and the line sets must have room for
/// `rows.end` rows.
pub(super) fn lines_wavefront(
    plane: &mut Plane,
    rows: Range<usize>,
    sets: &mut LineSets,
    terminal: u32,
    extras: &[&Plane],
) {
    match &mut plane.cells {
        Cells::Narrow(v) => wavefront(v, rows, sets, terminal, extras),
        Cells::Wide(v) => wavefront(v, rows, sets, terminal, extras),
    }
}

/// What the tiles of one chunk share.
struct Chunk<'a, C> {
    a0: usize,
    a1: usize,
    /// Blocks of rows filled: `first..=last`.
    first: usize,
    last: usize,
    diag: bool,
    terminal: u32,
    extras: &'a [&'a Plane],
    /// The cells of each block of rows filled.
    cells: Vec<Mutex<&'a mut [C]>>,
    cols: Blocks<'a>,
    diags: Blocks<'a>,
    /// For each tile, the tiles it still waits for (the one left of it and the one below).
    waiting: Vec<AtomicU8>,
}

impl<C: Slot> Chunk<'_, C> {
    /// The rows filled in block `i` (the first block may start inside it).
    fn band(&self, i: usize) -> Range<usize> {
        (i * TILE).max(self.a0)..((i + 1) * TILE).min(self.a1)
    }

    /// The index of tile (i, j), j ≤ i, in `waiting`.
    fn slot(&self, i: usize, j: usize) -> usize {
        (i - self.first) * (self.last + 1) + j
    }

    /// Runs tile (i, j), then every tile it was the last to wait for.
    fn run<'s>(&'s self, scope: &rayon::Scope<'s>, i: usize, j: usize) {
        self.fill(i, j);
        // the tile above it, then the one to its right (taken first by this thread, which
        // has the row's lines in its cache; another thread takes the other)
        for (ni, nj) in [(i + 1, j), (i, j + 1)] {
            if ni <= self.last && nj <= ni && self.waiting[self.slot(ni, nj)].fetch_sub(1, Ordering::AcqRel) == 1 {
                scope.spawn(move |scope| self.run(scope, ni, nj));
            }
        }
    }

    /// Fills tile (i, j), holding its blocks.
    fn fill(&self, i: usize, j: usize) {
        let d = i - j;
        // locks taken in one order everywhere: cells, columns by block, diagonals by block
        let mut cells = self.cells[i - self.first]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut low = self.cols.lock(j);
        let mut high = if i == j { None } else { self.cols.lock(i) };
        let (mut d0, mut d1) = if self.diag {
            (d.checked_sub(1).and_then(|k| self.diags.lock(k)), self.diags.lock(d))
        } else {
            (None, None)
        };
        let words = self.cols.words;
        let (rows, cols) = match block(&mut high, i, words) {
            Some(rows) => (rows, block(&mut low, j, words)),
            None => (lent(block(&mut low, j, words)), None),
        };
        let job = TileJob {
            i,
            j,
            cells: &mut cells,
            base: tri(self.band(i).start),
            rows,
            cols,
            diags: [
                d.checked_sub(1).and_then(|k| block(&mut d0, k, self.diags.words)),
                block(&mut d1, d, self.diags.words),
            ],
        };
        fill_tile(job, self.band(i), self.terminal, self.extras);
    }
}

fn wavefront<C: Slot>(cells: &mut [C], rows: Range<usize>, sets: &mut LineSets, terminal: u32, extras: &[&Plane]) {
    let (a0, a1) = (rows.start, rows.end);
    if a0 >= a1 {
        return;
    }
    let (first, last) = (a0 / TILE, (a1 - 1) / TILE);
    let diag = sets.diag;
    let LineSets { cols, diags, .. } = sets;
    let mut bands = Vec::with_capacity(last + 1 - first);
    let mut rest = &mut cells[tri(a0)..tri(a1)];
    for i in first..=last {
        let r = (i * TILE).max(a0)..((i + 1) * TILE).min(a1);
        let (head, tail) = rest.split_at_mut(tri(r.end) - tri(r.start));
        bands.push(Mutex::new(head));
        rest = tail;
    }
    // each tile waits for the one left of it and the one below it, where they are filled here
    let waiting = (first..=last)
        .flat_map(|i| (0..=last).map(move |j| u8::from(j > 0) + u8::from(i > first && j < i)))
        .map(AtomicU8::new)
        .collect();
    let chunk = Chunk {
        a0,
        a1,
        first,
        last,
        diag,
        terminal,
        extras,
        cells: bands,
        cols: Blocks::new(&mut cols.bits, &mut cols.lo, cols.words),
        diags: Blocks::new(&mut diags.bits, &mut diags.lo, diags.words),
        waiting,
    };
    let chunk = &chunk;
    rayon::scope(|scope| chunk.run(scope, first, 0));
}

/// A block a tile needs: it is there, since the line sets have room for every row filled.
#[expect(clippy::expect_used, reason = "the line sets have room for every row filled")]
fn lent<T>(block: Option<T>) -> T {
    block.expect("the line sets have room for every row filled")
}

/// Fills the cells of `rows` in one tile, row by row, as the sequential tiles do.
fn fill_tile<C: Slot>(mut job: TileJob<'_, C>, rows: Range<usize>, terminal: u32, extras: &[&Plane]) {
    let (b0, b1) = (job.j * TILE, (job.j + 1) * TILE);
    let mut ext = [0u32; 8];
    for a in rows {
        for b in b0..b1.min(a + 1) {
            let Some(n_ext) = extra_values(extras, a, b, &mut ext) else {
                continue;
            };
            let d = a - b;
            let col = job.cols.as_ref().unwrap_or(&job.rows);
            let (rl, cl) = (job.rows.line(a), col.line(b));
            let mut start = job.rows.lo(a).max(col.lo(b));
            // diagonal d is in block I − J − 1 or I − J: slot 0 or 1
            let slot = (d / TILE + 1).saturating_sub(job.i - job.j).min(1);
            let mut dl = cl;
            if let Some(dblock) = &job.diags[slot] {
                start = start.max(dblock.lo(d));
                dl = dblock.line(d);
            }
            let v = if a == 0 && b == 0 && n_ext == 0 {
                terminal
            } else {
                loop {
                    let found = first_free_in(start, rl, cl, dl);
                    if ext[..n_ext].contains(&found) {
                        start = found + 1;
                    } else {
                        break found;
                    }
                }
            };
            job.cells[tri(a) + b - job.base] = C::of(v);
            job.rows.insert(a, v);
            if b != a {
                match &mut job.cols {
                    Some(c) => c.insert(b, v),
                    None => job.rows.insert(b, v),
                }
            }
            if let Some(dblock) = &mut job.diags[slot] {
                dblock.insert(d, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lines::row_by_row_square as square;
    use super::super::{Growing, has_fast_fill};
    use crate::game::Ruleset;
    use crate::solver::control::Control;

    /// The anti-diagonal fill on two threads, grown in steps that start inside a tile and
    /// in chunks of several blocks, gives bit for bit the values of the sequential tiles (one
    /// thread) and of the row-by-row square, at sizes that are and are not multiples of a tile.
    #[test]
    fn anti_diagonals_give_the_sequential_values() {
        let two = Control::new().with_threads(2);
        let one = Control::new().with_threads(1);
        for rules in [
            "wythoff",
            "nim",
            "misere(wythoff)",
            "push(wythoff,nim)",
            "push(nim,wythoff)",
        ] {
            let r: Ruleset = rules.parse().unwrap();
            assert!(has_fast_fill(&r));
            for (n, steps) in [
                (1usize, &[1usize][..]),
                (64, &[64]),
                (65, &[1, 65]),
                (130, &[63, 130]),
                (700, &[700]),
                (1000, &[5, 64, 100, 129, 600, 999, 1000]),
            ] {
                let mut par = Growing::new(&r).unwrap();
                let mut seq = Growing::new(&r).unwrap();
                for &s in steps {
                    par.grow_to(s as u64, &two).unwrap();
                    seq.grow_to(s as u64, &one).unwrap();
                }
                assert_eq!(par.rows(), n as u64);
                let plain = (n <= 300).then(|| square(&r, n, &one));
                for a in 0..n {
                    for b in 0..=a {
                        let v = par.raw(a as u64, b as u64);
                        assert_eq!(v, seq.raw(a as u64, b as u64), "{rules} n = {n} at ({a},{b})");
                        if let Some(p) = &plain {
                            assert_eq!(v, p.at(a, b), "{rules} n = {n} at ({a},{b})");
                            assert_eq!(v, p.at(b, a), "{rules} n = {n} at ({b},{a})");
                        }
                    }
                }
            }
        }
    }

    /// A growth on two threads goes on from one on a single thread and the other way round:
    /// both leave the same line sets behind.
    #[test]
    fn one_and_two_threads_take_turns() {
        let r: Ruleset = "wythoff".parse().unwrap();
        let mut mixed = Growing::new(&r).unwrap();
        let mut seq = Growing::new(&r).unwrap();
        for (k, s) in [70u64, 200, 333, 600, 777].into_iter().enumerate() {
            let c = Control::new().with_threads(1 + k % 2);
            mixed.grow_to(s, &c).unwrap();
        }
        seq.grow_to(777, &Control::new().with_threads(1)).unwrap();
        for a in 0..777 {
            for b in 0..=a {
                assert_eq!(mixed.raw(a, b), seq.raw(a, b), "({a},{b})");
            }
        }
    }
}
