//! Grundy values of every position of a rectangle: two-heap rulesets (and their push and
//! misère compounds), Fibonacci Nim over (n, q), sums of two one-heap rulesets, and 2-D
//! slices of rulesets on three or more heaps.
//!
//! A rectangle `[A,B) × [C,D)` is solved by filling `[0,B) × [0,D)` row by row, since every
//! option lowers the heaps. Fast paths share one fill loop:
//! - Nim-like and Wythoff-like moves (every lower cell of a row, column or diagonal) keep one
//!   bitset of seen values per line, with a pointer below which a line is full, so a cell
//!   costs a few word operations instead of a scan of its options;
//! - other rulesets enumerate their options (Euclid's multiples, Common Divisor Nim's divisors);
//! - a push compound `push(R1,R2)` fills `R2` (and any nested push successor) first and adds
//!   that plane's value at the same cell as one more option (pushing the button).
//!
//! Values are stored in 2 bytes per cell whenever the largest possible value fits.

use std::ops::Range;

use super::control::{Control, SolveError};
use super::search::Search;
use super::sequence;
use crate::game::rules::euclid::EuclidVariant;
use crate::game::rules::{fibonacci, heaps};
use crate::game::{MexSet, Position, Ruleset, Shape};

/// Marks a cell that is not a position of the ruleset.
pub(crate) const NONE: u32 = u32::MAX;

/// Values of a whole `rows × cols` rectangle anchored at (0, 0), row-major.
#[derive(Debug, Clone)]
pub(crate) enum Cells {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Cells {
    pub(crate) fn new(len: usize, bound: u64) -> Self {
        if bound < u16::MAX as u64 {
            Cells::Narrow(vec![u16::MAX; len])
        } else {
            Cells::Wide(vec![NONE; len])
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Cells::Narrow(v) => {
                let x = v[i];
                if x == u16::MAX { NONE } else { x as u32 }
            }
            Cells::Wide(v) => v[i],
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize, x: u32) {
        match self {
            Cells::Narrow(v) => v[i] = if x == NONE { u16::MAX } else { x as u16 },
            Cells::Wide(v) => v[i] = x,
        }
    }

    pub(crate) fn bytes_per_cell(bound: u64) -> u64 {
        if bound < u16::MAX as u64 { 2 } else { 4 }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Cells::Narrow(v) => v.len(),
            Cells::Wide(v) => v.len(),
        }
    }

    /// Makes room for `len` cells (new ones not computed), in 4 bytes a cell if `bound` needs it.
    fn resize(&mut self, len: usize, bound: u64) {
        if let Cells::Narrow(v) = self
            && Cells::bytes_per_cell(bound) == 4
        {
            *self = Cells::Wide(v.iter().map(|&x| if x == u16::MAX { NONE } else { x as u32 }).collect());
        }
        match self {
            Cells::Narrow(v) => v.resize(len, u16::MAX),
            Cells::Wide(v) => v.resize(len, NONE),
        }
    }
}

/// A filled rectangle `[0,rows) × [0,cols)`. A symmetric ruleset (G(a,b) = G(b,a): every
/// two-heap ruleset of the catalog) on a square keeps only the triangle `b ≤ a`, row by row,
/// which halves both the work and the memory.
#[derive(Debug, Clone)]
struct Plane {
    rows: usize,
    cols: usize,
    symmetric: bool,
    cells: Cells,
}

impl Plane {
    /// Cells needed to store a `rows × cols` plane.
    fn len(rows: usize, cols: usize, symmetric: bool) -> usize {
        if symmetric { rows * (rows + 1) / 2 } else { rows * cols }
    }

    #[inline]
    fn index(&self, a: usize, b: usize) -> usize {
        if self.symmetric {
            let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
            hi * (hi + 1) / 2 + lo
        } else {
            a * self.cols + b
        }
    }

    #[inline]
    fn at(&self, a: usize, b: usize) -> u32 {
        self.cells.get(self.index(a, b))
    }

    /// The cells to fill, in an order where every option of a cell comes first: row by row,
    /// and in a symmetric plane only up to the diagonal.
    fn cells_of_row(&self, a: usize) -> Range<usize> {
        if self.symmetric { 0..a + 1 } else { 0..self.cols }
    }
}

/// The square a symmetric ruleset fills for a `r × c` request, if that is cheaper than the
/// rectangle (a long thin strip is not worth squaring).
fn symmetric_square(ruleset: &Ruleset, r: usize, c: usize) -> Option<usize> {
    let symmetric = matches!(ruleset.shape(), Shape::TwoHeaps | Shape::AnyHeaps);
    let n = r.max(c);
    (symmetric && n * (n + 1) / 2 <= r * c).then_some(n)
}

/// The Grundy values of a rectangle of positions, as asked for.
#[derive(Debug, Clone)]
pub struct Grid {
    pub rows: Range<u64>,
    pub cols: Range<u64>,
    plane: Plane,
}

impl Grid {
    /// The value at (row a, column b), `None` where the cell is not a position.
    #[inline]
    pub fn get(&self, a: u64, b: u64) -> Option<u32> {
        if !self.rows.contains(&a) || !self.cols.contains(&b) {
            return None;
        }
        let v = self.plane.at(a as usize, b as usize);
        (v != NONE).then_some(v)
    }

    /// The largest value in the grid (0 if none), for scaling colour maps.
    pub fn max_value(&self) -> u32 {
        self.rows_iter()
            .flat_map(|(_, r)| r.into_iter().flatten())
            .max()
            .unwrap_or(0)
    }

    /// Rows of values, `None` for cells that are not positions.
    pub fn rows_iter(&self) -> impl Iterator<Item = (u64, Vec<Option<u32>>)> + '_ {
        self.rows
            .clone()
            .map(move |a| (a, self.cols.clone().map(|b| self.get(a, b)).collect()))
    }
}

/// Which cells of a rectangle to solve, and how a cell maps to a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// Cell (a, b) is the position with heaps (a, b), or Fibonacci Nim's (n, q) = (a, b), or
    /// the sum position `a+b` of a sum of two one-heap rulesets.
    Plain,
    /// A slice of a ruleset on more heaps: `None` entries are filled with (a, b) in order,
    /// e.g. `[Some(1), None, None]` is Zeruclid (1, a, b).
    Slice(Vec<Option<u64>>),
}

impl Layout {
    /// Parses `1,_,_` (exactly two `_`).
    pub fn parse_slice(text: &str) -> Result<Self, String> {
        let mut out = Vec::new();
        for part in text.split(',') {
            let t = part.trim();
            if t == "_" {
                out.push(None);
            } else {
                out.push(Some(
                    crate::game::position::parse_number(t).map_err(|e| format!("slice: {e}"))?,
                ));
            }
        }
        if out.iter().filter(|x| x.is_none()).count() != 2 {
            return Err(format!(
                "a slice has exactly two '_' (the row and column heaps), not '{text}'"
            ));
        }
        Ok(Layout::Slice(out))
    }

    /// The position at cell (a, b) under this layout.
    pub fn position(&self, ruleset: &Ruleset, a: u64, b: u64) -> Position {
        match self {
            Layout::Plain => match ruleset.shape() {
                Shape::Fibonacci => Position::Fib { n: a, q: b },
                Shape::Sum => Position::Sum(Box::new(Position::Heaps(vec![a])), Box::new(Position::Heaps(vec![b]))),
                _ => Position::Heaps(vec![a, b]),
            },
            Layout::Slice(t) => {
                let mut free = [a, b].into_iter();
                Position::Heaps(
                    t.iter()
                        .map(|x| x.unwrap_or_else(|| free.next().unwrap_or(0)))
                        .collect(),
                )
            }
        }
    }
}

/// Solves every cell of `rows × cols` of `ruleset` laid out by `layout`.
pub fn grid(
    ruleset: &Ruleset,
    layout: &Layout,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<Grid, SolveError> {
    let (r, c) = (rows.end, cols.end);
    let cells = r.checked_mul(c).ok_or_else(|| too_big(r, c, control))?;
    if r > u32::MAX as u64 || c > u32::MAX as u64 {
        return Err(too_big(r, c, control));
    }
    control.reserve(format!("a {r}×{c} region of {ruleset}"), cells.saturating_mul(2))?;
    control.set_total(cells);
    let plane = match layout {
        Layout::Slice(_) => fill_by_search(ruleset, layout, r as usize, c as usize, control)?,
        Layout::Plain => fill_plane(ruleset, r as usize, c as usize, control)?,
    };
    Ok(Grid { rows, cols, plane })
}

fn too_big(r: u64, c: u64, control: &Control) -> SolveError {
    SolveError::OverBudget {
        what: format!("a {r}×{c} region"),
        needed: u64::MAX,
        budget: control.memory_budget(),
    }
}

/// Whether `ruleset` has a fast 2-D fill (rather than a search per cell).
pub fn has_fast_fill(ruleset: &Ruleset) -> bool {
    // a map takes at most 8 nested pushes (and the recursion below would visit a deeply nested
    // compound's successors exponentially often)
    if ruleset.push_successors().len() > 8 {
        return false;
    }
    match ruleset.shape() {
        Shape::Sum => !ruleset.has_misere(),
        Shape::Fibonacci => ruleset.push_successors().iter().all(has_fast_fill),
        Shape::TwoHeaps | Shape::AnyHeaps => {
            let plain = |r: &Ruleset| {
                matches!(
                    r.base().0,
                    Ruleset::Nim | Ruleset::Wythoff | Ruleset::Euclid(_) | Ruleset::Zeruclid | Ruleset::Cdn
                )
            };
            plain(ruleset) && ruleset.push_successors().iter().all(has_fast_fill)
        }
        _ => false,
    }
}

/// Fills `[0,r) × [0,c)` of a plain layout.
fn fill_plane(ruleset: &Ruleset, r: usize, c: usize, control: &Control) -> Result<Plane, SolveError> {
    if ruleset.shape() == Shape::Sum {
        return fill_sum(ruleset, r, c, control);
    }
    if !has_fast_fill(ruleset) {
        return match ruleset.shape() {
            Shape::TwoHeaps | Shape::AnyHeaps => fill_by_search(ruleset, &Layout::Plain, r, c, control),
            _ => Err(SolveError::Unsupported(format!(
                "{ruleset} is not played on two heaps; use seq for one heap or --slice for more"
            ))),
        };
    }
    let (base, misere) = ruleset.base();
    if matches!(base, Ruleset::FibonacciNim) && c < r {
        // Columns q ≥ n repeat (n, n): fill the square, then keep the columns asked for.
        return fill_plane(ruleset, r, r, control).map(|p| crop(&p, c));
    }
    if let Some(n) = symmetric_square(ruleset, r, c) {
        if ruleset.push_successors().len() > 8 {
            return Err(SolveError::Unsupported(
                "push compounds nest at most 8 deep on a map".into(),
            ));
        }
        if let Some(mut g) = Growing::new(ruleset) {
            g.grow_to(n as u64, control)?;
            return Ok(g.plane);
        }
    }
    let extras = ruleset
        .push_successors()
        .iter()
        .map(|s| fill_plane(s, r, c, control))
        .collect::<Result<Vec<_>, _>>()?;
    if extras.len() > 8 {
        return Err(SolveError::Unsupported(
            "push compounds nest at most 8 deep on a map".into(),
        ));
    }
    let extras: Vec<&Plane> = extras.iter().collect();
    let extras = &extras[..];
    let terminal = if misere { 1 } else { 0 };
    let empty = Plane {
        rows: r,
        cols: c,
        symmetric: false,
        cells: Cells::Wide(Vec::new()),
    };
    match base {
        Ruleset::Nim => fill_lines(empty, false, terminal, extras, control),
        Ruleset::Wythoff => fill_lines(empty, true, terminal, extras, control),
        Ruleset::FibonacciNim => fill_fibonacci(r, c, terminal, extras, control),
        Ruleset::Euclid(v) => {
            let v = *v;
            fill_enumerated(empty, (r + c) as u64, terminal, extras, control, |a, b, out| {
                if v.is_position(a, b) {
                    v.options(a, b, out);
                    true
                } else {
                    false
                }
            })
        }
        Ruleset::Zeruclid => fill_enumerated(empty, 2 * (r + c) as u64, terminal, extras, control, |a, b, out| {
            heaps::zeruclid2_options(a, b, out);
            true
        }),
        Ruleset::Cdn => {
            let table = DivisorTable::new(r.max(c) as u64);
            fill_enumerated(
                empty,
                2 * table.max_count as u64 + 2,
                terminal,
                extras,
                control,
                |a, b, out| {
                    let g = heaps::gcd(a, b);
                    if g > 0 {
                        heaps::cdn2_options(a, b, table.of(g), out);
                    }
                    true
                },
            )
        }
        other => Err(SolveError::Unsupported(format!("no 2-D fill for {other}"))),
    }
}

/// The values of the extra options (push successors) at one cell, or `None` if the cell is not
/// a position of one of them.
#[inline]
fn extra_values(extras: &[&Plane], a: usize, b: usize, out: &mut [u32; 8]) -> Option<usize> {
    for (i, p) in extras.iter().enumerate() {
        let v = p.at(a, b);
        if v == NONE {
            return None;
        }
        out[i] = v;
    }
    Some(extras.len())
}

/// Bitsets of the values seen on a family of lines (all columns, or all diagonals), stored in
/// blocks of [`BLOCK`] words: block `k` of every line is contiguous. The cells of one row visit
/// consecutive lines at nearly the same word, so they walk memory in order, and a mex scan
/// past a few words stays inside one cache line.
#[derive(Debug, Clone)]
struct Lines {
    count: usize,
    /// Words per line (a multiple of `BLOCK`).
    words: usize,
    bits: Vec<u64>,
    /// Every value below `lo[line]` is on the line.
    lo: Vec<u32>,
}

/// Words per block (one 64-byte cache line).
const BLOCK: usize = 8;

impl Lines {
    fn new(count: usize, words: usize) -> Self {
        let words = words.next_multiple_of(BLOCK);
        Self {
            count,
            words,
            bits: vec![0; count * words],
            lo: vec![0; count],
        }
    }

    /// Bytes of `count` lines of `words` words.
    fn bytes(count: usize, words: usize) -> u64 {
        (count * (words.next_multiple_of(BLOCK) * 8 + 4)) as u64
    }

    /// A copy with room for `count` lines of `words` words (at least the current ones).
    fn grown(&self, count: usize, words: usize) -> Lines {
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
    fn slot(&self, line: usize, w: usize) -> usize {
        (w / BLOCK) * self.count * BLOCK + line * BLOCK + w % BLOCK
    }

    /// The `BLOCK` words of block `k` of a line.
    #[inline]
    fn block(&self, line: usize, k: usize) -> &[u64; BLOCK] {
        let i = self.slot(line, k * BLOCK);
        self.bits[i..i + BLOCK].try_into().expect("a block is BLOCK words")
    }

    #[inline]
    fn has(&self, line: usize, v: u32) -> bool {
        let w = (v / 64) as usize;
        w < self.words && self.bits[self.slot(line, w)] & (1 << (v % 64)) != 0
    }

    #[inline]
    fn insert(&mut self, line: usize, v: u32) {
        let i = self.slot(line, (v / 64) as usize);
        self.bits[i] |= 1 << (v % 64);
        self.raise_lo(line);
    }

    #[inline]
    fn raise_lo(&mut self, line: usize) {
        let mut lo = self.lo[line];
        while self.has(line, lo) {
            lo += 1;
        }
        self.lo[line] = lo;
    }

    /// Adds every value of the single line `other` to `line`.
    fn merge_line(&mut self, line: usize, other: &Lines) {
        for w in 0..self.words.min(other.words) {
            let i = self.slot(line, w);
            self.bits[i] |= other.bits[other.slot(0, w)];
        }
        self.raise_lo(line);
    }

    fn clear(&mut self) {
        self.bits.iter_mut().for_each(|w| *w = 0);
        self.lo.iter_mut().for_each(|l| *l = 0);
    }
}

/// The least value ≥ `start` on none of the given lines, scanning a block (a cache line of
/// each) at a time.
#[inline]
fn first_free(start: u32, row: &Lines, r: usize, cols: &Lines, c: usize, diag: Option<(&Lines, usize)>) -> u32 {
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
struct LineSets {
    diag: bool,
    cols: Lines,
    diags: Lines,
    row: Lines,
}

impl LineSets {
    fn new(diag: bool, cols: usize, diags: usize, words: usize) -> Self {
        Self {
            diag,
            cols: Lines::new(cols, words),
            diags: Lines::new(if diag { diags } else { 0 }, words),
            row: Lines::new(1, words),
        }
    }

    fn bytes(diag: bool, cols: usize, diags: usize, words: usize) -> u64 {
        Lines::bytes(cols + 1, words) + if diag { Lines::bytes(diags, words) } else { 0 }
    }

    /// Room for `lines` columns and diagonals of `words` words, keeping what was seen.
    fn grown(&self, lines: usize, words: usize) -> Self {
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
fn lines_row(plane: &mut Plane, a: usize, sets: &mut LineSets, terminal: u32, extras: &[&Plane]) {
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
fn fill_lines(
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

/// Scratch space of an enumerated fill.
#[derive(Default)]
struct Scratch {
    opts: Vec<(u64, u64)>,
    seen: MexSet,
}

/// Fills row `a` of a plane whose options are listed cell by cell. `options` returns false for
/// a cell that is not a position.
fn enumerated_row(
    plane: &mut Plane,
    a: usize,
    terminal: u32,
    extras: &[&Plane],
    scratch: &mut Scratch,
    options: &mut impl FnMut(u64, u64, &mut Vec<(u64, u64)>) -> bool,
) {
    let mut ext = [0u32; 8];
    let Scratch { opts, seen } = scratch;
    for b in plane.cells_of_row(a) {
        let Some(n_ext) = extra_values(extras, a, b, &mut ext) else {
            continue;
        };
        opts.clear();
        if !options(a as u64, b as u64, opts) {
            continue;
        }
        let v = if opts.is_empty() && n_ext == 0 {
            terminal
        } else {
            seen.clear();
            for &(x, y) in opts.iter() {
                seen.insert(plane.at(x as usize, y as usize));
            }
            for &e in &ext[..n_ext] {
                seen.insert(e);
            }
            seen.mex()
        };
        let i = plane.index(a, b);
        plane.cells.set(i, v);
    }
}

/// Rulesets whose options are listed cell by cell, on a plane that is not symmetric.
/// `shape` is the plane to fill (its cells are allocated here); `max_options` bounds the
/// number of options of a cell.
fn fill_enumerated(
    shape: Plane,
    max_options: u64,
    terminal: u32,
    extras: &[&Plane],
    control: &Control,
    mut options: impl FnMut(u64, u64, &mut Vec<(u64, u64)>) -> bool,
) -> Result<Plane, SolveError> {
    let (r, c) = (shape.rows, shape.cols);
    let bound = max_options + extras.len() as u64 + 2;
    let len = Plane::len(r, c, shape.symmetric);
    control.reserve(format!("a {r}×{c} map"), len as u64 * Cells::bytes_per_cell(bound))?;
    let mut plane = Plane {
        cells: Cells::new(len, bound),
        ..shape
    };
    let mut scratch = Scratch::default();
    for a in 0..r {
        control.check()?;
        enumerated_row(&mut plane, a, terminal, extras, &mut scratch, &mut options);
        control.add_done(plane.cells_of_row(a).len() as u64);
    }
    Ok(plane)
}

/// How a [`Growing`] plane fills a row.
#[derive(Debug, Clone)]
enum GrowFill {
    Lines(LineSets),
    Euclid(EuclidVariant),
    Zeruclid,
    Cdn(DivisorTable),
}

/// The triangle b ≤ a of a symmetric two-heap ruleset with a fast fill (and its push
/// successors), grown row by row: [`Growing::grow_to`] continues from the rows already filled,
/// since a row's options lie in the rows below it, so a map that grows costs only its new rows.
/// Rows are finished one at a time and `rows` counts only finished ones, so a cancelled growth
/// leaves the plane consistent and the next growth goes on from there.
#[derive(Debug, Clone)]
pub struct Growing {
    /// Symmetric; `rows` = `cols` = the finished rows.
    plane: Plane,
    fill: GrowFill,
    terminal: u32,
    extras: Vec<Growing>,
}

impl Growing {
    /// A growing plane of `ruleset`, if it is symmetric with a fast fill (every two-heap
    /// ruleset of the catalog and their push and misère compounds).
    pub fn new(ruleset: &Ruleset) -> Option<Self> {
        if !matches!(ruleset.shape(), Shape::TwoHeaps | Shape::AnyHeaps) || !has_fast_fill(ruleset) {
            return None;
        }
        let (base, misere) = ruleset.base();
        let fill = match base {
            Ruleset::Nim => GrowFill::Lines(LineSets::new(false, 0, 0, 0)),
            Ruleset::Wythoff => GrowFill::Lines(LineSets::new(true, 0, 0, 0)),
            Ruleset::Euclid(v) => GrowFill::Euclid(*v),
            Ruleset::Zeruclid => GrowFill::Zeruclid,
            Ruleset::Cdn => GrowFill::Cdn(DivisorTable::new(0)),
            _ => return None,
        };
        let extras = ruleset
            .push_successors()
            .iter()
            .map(Growing::new)
            .collect::<Option<Vec<_>>>()?;
        (extras.len() <= 8).then_some(Self {
            plane: Plane {
                rows: 0,
                cols: 0,
                symmetric: true,
                cells: Cells::new(0, 0),
            },
            fill,
            terminal: u32::from(misere),
            extras,
        })
    }

    /// The rows (and columns) finished so far.
    pub fn rows(&self) -> u64 {
        self.plane.rows as u64
    }

    /// The value at (a, b) (`NONE`: not a position); both must be below [`Growing::rows`].
    pub(crate) fn raw(&self, a: u64, b: u64) -> u32 {
        self.plane.at(a as usize, b as usize)
    }

    /// A bound on the values of the first `n` rows.
    fn bound(&self, n: usize) -> u64 {
        let e = self.extras.len() as u64 + 2;
        let n = n as u64;
        e + match &self.fill {
            GrowFill::Lines(s) => n * if s.diag { 3 } else { 2 },
            GrowFill::Euclid(_) => 2 * n,
            GrowFill::Zeruclid => 4 * n,
            GrowFill::Cdn(_) => 2 * DivisorTable::max_count_upto(n) as u64 + 2,
        }
    }

    /// Memory of the first `n` rows, push successors included.
    fn bytes(&self, n: usize) -> u64 {
        let bound = self.bound(n);
        let cells = Plane::len(n, n, true) as u64 * Cells::bytes_per_cell(bound);
        let fill = match &self.fill {
            GrowFill::Lines(s) => LineSets::bytes(s.diag, n, n, (bound as usize).div_ceil(64)),
            GrowFill::Cdn(_) => DivisorTable::bytes(n as u64),
            _ => 0,
        };
        cells + fill + self.extras.iter().map(|e| e.bytes(n)).sum::<u64>()
    }

    /// Fills the rows up to `rows` (a no-op if they are finished), within the memory budget.
    pub fn grow_to(&mut self, rows: u64, control: &Control) -> Result<(), SolveError> {
        let n = usize::try_from(rows).unwrap_or(usize::MAX);
        if n <= self.plane.rows {
            return Ok(());
        }
        control.reserve(format!("the map up to row {rows}"), self.bytes(n))?;
        for e in &mut self.extras {
            e.grow_to(rows, control)?;
        }
        let bound = self.bound(n);
        self.plane.cells.resize(Plane::len(n, n, true), bound);
        // Grow the line bitsets by at least a quarter, so growing a few rows at a time copies
        // them only a logarithmic number of times.
        match &mut self.fill {
            GrowFill::Lines(sets) if sets.cols.count < n || sets.cols.words * 64 < bound as usize => {
                let lines = n.max(sets.cols.count + sets.cols.count / 4);
                let words = (self.bound(lines) as usize).div_ceil(64);
                if let GrowFill::Lines(sets) = &mut self.fill {
                    *sets = sets.grown(lines, words);
                }
            }
            GrowFill::Cdn(table) if (table.start.len() as u64) < rows + 2 => *table = DivisorTable::new(rows),
            _ => {}
        }
        let extras: Vec<&Plane> = self.extras.iter().map(|e| &e.plane).collect();
        let mut scratch = Scratch::default();
        let terminal = self.terminal;
        for a in self.plane.rows..n {
            control.check()?;
            let plane = &mut self.plane;
            match &mut self.fill {
                GrowFill::Lines(sets) => lines_row(plane, a, sets, terminal, &extras),
                GrowFill::Euclid(v) => {
                    let v = *v;
                    enumerated_row(plane, a, terminal, &extras, &mut scratch, &mut |a, b, out| {
                        if v.is_position(a, b) {
                            v.options(a, b, out);
                            true
                        } else {
                            false
                        }
                    })
                }
                GrowFill::Zeruclid => enumerated_row(plane, a, terminal, &extras, &mut scratch, &mut |a, b, out| {
                    heaps::zeruclid2_options(a, b, out);
                    true
                }),
                GrowFill::Cdn(table) => enumerated_row(plane, a, terminal, &extras, &mut scratch, &mut |a, b, out| {
                    let g = heaps::gcd(a, b);
                    if g > 0 {
                        heaps::cdn2_options(a, b, table.of(g), out);
                    }
                    true
                }),
            }
            plane.rows = a + 1;
            plane.cols = a + 1;
            control.add_done(a as u64 + 1);
        }
        Ok(())
    }
}

/// The first `c` columns of a plane.
fn crop(p: &Plane, c: usize) -> Plane {
    let mut cells = Cells::new(
        p.rows * c,
        if matches!(p.cells, Cells::Narrow(_)) {
            0
        } else {
            u32::MAX as u64
        },
    );
    for a in 0..p.rows {
        for b in 0..c {
            cells.set(a * c + b, p.at(a, b));
        }
    }
    Plane {
        rows: p.rows,
        cols: c,
        symmetric: false,
        cells,
    }
}

/// Fibonacci Nim over (n, q), `c ≥ r`: the options of (n, q + 1) are those of (n, q) and one
/// more, so a row is one growing mex set.
fn fill_fibonacci(
    r: usize,
    c: usize,
    terminal: u32,
    extras: &[&Plane],
    control: &Control,
) -> Result<Plane, SolveError> {
    let bound = r as u64 + extras.len() as u64 + 2;
    control.reserve(
        format!("a {r}×{c} Fibonacci Nim map"),
        (r * c) as u64 * Cells::bytes_per_cell(bound),
    )?;
    let mut cells = Cells::new(r * c, bound);
    let mut seen = MexSet::new();
    let mut ext = [0u32; 8];
    let mut opts = Vec::new();
    for n in 0..r {
        control.check()?;
        seen.clear();
        for q in 0..c {
            let n_ext = extra_values(extras, n, q, &mut ext).unwrap_or(0);
            if q >= 1 && q <= n {
                opts.clear();
                fibonacci::options(n as u64, q as u64, &mut opts);
                let &(m, q2) = opts.last().expect("q ≥ 1 and n ≥ q give a move");
                seen.insert(cells.get(m as usize * c + q2 as usize));
            }
            let v = if q.min(n) == 0 && n_ext == 0 {
                terminal
            } else if n_ext == 0 {
                seen.mex()
            } else {
                let mut s = seen.clone();
                ext[..n_ext].iter().for_each(|&e| s.insert(e));
                s.mex()
            };
            cells.set(n * c + q, v);
        }
        control.add_done(c as u64);
    }
    Ok(Plane {
        rows: r,
        cols: c,
        symmetric: false,
        cells,
    })
}

/// `sum(R1,R2)` of two one-heap rulesets: G(a, b) = G1(a) ⊕ G2(b).
fn fill_sum(ruleset: &Ruleset, r: usize, c: usize, control: &Control) -> Result<Plane, SolveError> {
    let Ruleset::Sum(a, b) = ruleset else {
        unreachable!("fill_sum takes sums")
    };
    if ruleset.has_misere() {
        return fill_by_search(ruleset, &Layout::Plain, r, c, control);
    }
    let s1 = sequence::sequence(a, r as u64, control)?;
    let s2 = sequence::sequence(b, c as u64, control)?;
    let bound = s1.values.iter().chain(&s2.values).flatten().max().copied().unwrap_or(0) as u64 * 2 + 2;
    let mut cells = Cells::new(r * c, bound);
    for (i, x) in s1.values.iter().enumerate() {
        for (j, y) in s2.values.iter().enumerate() {
            if let (Some(x), Some(y)) = (x, y) {
                cells.set(i * c + j, x ^ y);
            }
        }
    }
    Ok(Plane {
        rows: r,
        cols: c,
        symmetric: false,
        cells,
    })
}

/// Any layout, one memoised search per cell (slices of three-heap games, misère sums).
fn fill_by_search(
    ruleset: &Ruleset,
    layout: &Layout,
    r: usize,
    c: usize,
    control: &Control,
) -> Result<Plane, SolveError> {
    let mut search = Search::new(ruleset.clone());
    let mut cells = Cells::new(r * c, u32::MAX as u64);
    for a in 0..r {
        for b in 0..c {
            let p = layout.position(ruleset, a as u64, b as u64);
            if ruleset.check_position(&p).is_ok() {
                cells.set(a * c + b, search.value(&p, control)?);
            }
        }
        control.add_done(c as u64);
    }
    Ok(Plane {
        rows: r,
        cols: c,
        symmetric: false,
        cells,
    })
}

/// Divisors of every n ≤ max, stored flat (for Common Divisor Nim's gcds).
#[derive(Debug, Clone)]
struct DivisorTable {
    start: Vec<u32>,
    flat: Vec<u64>,
    max_count: usize,
}

impl DivisorTable {
    fn new(max: u64) -> Self {
        let n = max as usize + 1;
        let mut count = vec![0u32; n + 1];
        for d in 1..n {
            for m in (d..n).step_by(d) {
                count[m] += 1;
            }
        }
        let mut start = vec![0u32; n + 1];
        for i in 1..=n {
            start[i] = start[i - 1] + count[i - 1];
        }
        let mut flat = vec![0u64; start[n] as usize];
        let mut fill = start.clone();
        for d in 1..n {
            for m in (d..n).step_by(d) {
                flat[fill[m] as usize] = d as u64;
                fill[m] += 1;
            }
        }
        let max_count = count.iter().copied().max().unwrap_or(0) as usize;
        Self { start, flat, max_count }
    }

    /// A bound on the number of divisors of any n ≤ max (d(n) ≤ 2√n).
    fn max_count_upto(max: u64) -> usize {
        2 * (max as f64).sqrt().ceil() as usize + 2
    }

    /// Memory of the table up to `max` (about max · ln max divisors).
    fn bytes(max: u64) -> u64 {
        let n = max as f64 + 2.0;
        (n * (n.ln() + 1.0) * 8.0 + n * 4.0) as u64
    }

    fn of(&self, g: u64) -> &[u64] {
        &self.flat[self.start[g as usize] as usize..self.start[g as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fast fill against the plain search, cell by cell.
    #[test]
    fn fast_fills_match_plain_search() {
        let c = Control::new();
        for rules in [
            "nim",
            "wythoff",
            "euclid",
            "grossman",
            "euclid0",
            "m-euclid",
            "zeruclid",
            "cdn",
            "misere(nim)",
            "misere(wythoff)",
            "misere(euclid)",
            "push(nim,euclid0)",
            "push(euclid0,nim)",
            "push(wythoff,nim)",
            "push(nim,wythoff)",
            "push(nim,zeruclid)",
            "push(push(nim,wythoff),euclid)",
            "push(nim,push(wythoff,cdn))",
            "misere(push(nim,euclid0))",
            "push(grossman,m-euclid)",
            "fibonacci-nim",
            "misere(fibonacci-nim)",
            "push(fibonacci-nim,fibonacci-nim)",
            "sum(sub(1,2),tag(3))",
            "sum(octal(0.07),divisor)",
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let g = grid(&r, &Layout::Plain, 0..23, 0..19, &c).unwrap();
            let mut search = Search::plain(r.clone());
            for a in 0..23 {
                for b in 0..19 {
                    let p = Layout::Plain.position(&r, a, b);
                    let expect = r.check_position(&p).ok().map(|_| search.value(&p, &c).unwrap());
                    assert_eq!(g.get(a, b), expect, "{rules} at {p}");
                }
            }
        }
    }

    #[test]
    fn cropped_regions_and_slices() {
        let c = Control::new();
        let r: Ruleset = "wythoff".parse().unwrap();
        let g = grid(&r, &Layout::Plain, 3..5, 10..12, &c).unwrap();
        assert_eq!(g.rows_iter().count(), 2);
        assert_eq!(g.get(0, 0), None);
        // a thin strip is filled as a rectangle, not squared
        for rules in ["wythoff", "push(nim,euclid0)", "cdn"] {
            let r: Ruleset = rules.parse().unwrap();
            let strip = grid(&r, &Layout::Plain, 0..3, 0..80, &c).unwrap();
            let square = grid(&r, &Layout::Plain, 0..80, 0..80, &c).unwrap();
            for b in 0..80 {
                assert_eq!(strip.get(2, b), square.get(2, b), "{rules} (2,{b})");
                assert_eq!(square.get(b, 2), square.get(2, b), "{rules} symmetric at {b}");
            }
        }
        let z: Ruleset = "zeruclid".parse().unwrap();
        let slice = Layout::parse_slice("1,_,_").unwrap();
        let g = grid(&z, &slice, 0..8, 0..8, &c).unwrap();
        let mut s = Search::plain(z.clone());
        assert_eq!(g.get(3, 5), Some(s.value(&Position::heaps(&[1, 3, 5]), &c).unwrap()));
        assert!(Layout::parse_slice("1,_").is_err());
    }

    #[test]
    fn cancel_from_another_thread_stops_a_long_fill() {
        let r: Ruleset = "wythoff".parse().unwrap();
        let c = Control::new();
        let job = {
            let c = c.clone();
            std::thread::spawn(move || grid(&r, &Layout::Plain, 0..12_000, 0..12_000, &c).map(|_| ()))
        };
        while c.progress().0 == 0 {
            std::thread::yield_now();
        }
        c.cancel();
        assert_eq!(job.join().unwrap(), Err(SolveError::Cancelled));
    }

    #[test]
    fn budget_and_cancel() {
        let r: Ruleset = "wythoff".parse().unwrap();
        let small = Control::with_budget(1 << 20);
        assert!(matches!(
            grid(&r, &Layout::Plain, 0..4096, 0..4096, &small),
            Err(SolveError::OverBudget { .. })
        ));
        let c = Control::new();
        c.cancel();
        assert_eq!(
            grid(&r, &Layout::Plain, 0..64, 0..64, &c).unwrap_err(),
            SolveError::Cancelled
        );
    }
}
