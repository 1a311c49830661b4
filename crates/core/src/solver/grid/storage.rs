//! Where a fill keeps its values: [`Cells`] (2 or 4 bytes a cell), a [`Plane`] of rows (the
//! triangle b ≤ a for symmetric rulesets) and the [`Grid`] of a rectangle handed to callers.

use std::ops::Range;
use std::sync::Arc;

use crate::game::Gamma;
use crate::game::loopy::InfiniteSets;

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

    /// Makes room for `len` cells (new ones not computed), in 4 bytes a cell if `bound` needs it.
    pub(super) fn resize(&mut self, len: usize, bound: u64) {
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
pub(super) struct Plane {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) symmetric: bool,
    pub(super) cells: Cells,
}

impl Plane {
    /// Cells needed to store a `rows × cols` plane.
    pub(super) fn len(rows: usize, cols: usize, symmetric: bool) -> usize {
        if symmetric { rows * (rows + 1) / 2 } else { rows * cols }
    }

    #[inline]
    pub(super) fn index(&self, a: usize, b: usize) -> usize {
        if self.symmetric {
            let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
            hi * (hi + 1) / 2 + lo
        } else {
            a * self.cols + b
        }
    }

    /// The values of row `a` over `cols` (all below the diagonal in a symmetric plane:
    /// `cols.end ≤ a + 1`), as exact values (`u64::MAX`: not a position), appended to `out`:
    /// one contiguous slice of the storage.
    pub(super) fn row_wide_into(&self, a: usize, cols: Range<usize>, out: &mut Vec<u64>) {
        debug_assert!(!self.symmetric || cols.end <= a + 1);
        let start = self.index(a, cols.start);
        let range = start..start + cols.len();
        match &self.cells {
            Cells::Narrow(v) => out.extend(
                v[range]
                    .iter()
                    .map(|&x| if x == u16::MAX { u64::MAX } else { u64::from(x) }),
            ),
            Cells::Wide(v) => out.extend(
                v[range]
                    .iter()
                    .map(|&x| if x == NONE { u64::MAX } else { u64::from(x) }),
            ),
        }
    }

    #[inline]
    pub(super) fn at(&self, a: usize, b: usize) -> u32 {
        self.cells.get(self.index(a, b))
    }

    /// The cells to fill, in an order where every option of a cell comes first: row by row,
    /// and in a symmetric plane only up to the diagonal.
    pub(super) fn cells_of_row(&self, a: usize) -> Range<usize> {
        if self.symmetric { 0..a + 1 } else { 0..self.cols }
    }

    /// The cells of the region a finished row `a` accounts for, the progress's unit (its total
    /// is rows × columns): a symmetric plane's row also gives its mirrored column, so the rows
    /// of the triangle add up to the whole square (100 %, not 50 %).
    pub(super) fn progress_of_row(&self, a: usize) -> u64 {
        if self.symmetric {
            2 * a as u64 + 1
        } else {
            self.cols as u64
        }
    }
}

/// The values of the extra options (push successors) at one cell, or `None` if the cell is not
/// a position of one of them.
#[inline]
pub(super) fn extra_values(extras: &[&Plane], a: usize, b: usize, out: &mut [u32; 8]) -> Option<usize> {
    for (i, p) in extras.iter().enumerate() {
        let v = p.at(a, b);
        if v == NONE {
            return None;
        }
        out[i] = v;
    }
    Some(extras.len())
}

/// The first `c` columns of a plane.
pub(super) fn crop(p: &Plane, c: usize) -> Plane {
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

/// Values of a rectangle computed cell by cell ([`super::direct`]), row-major over the grid's
/// own rows and columns (not from the origin), in 4 bytes a cell when the values allow, else 8.
#[derive(Debug, Clone)]
pub(crate) enum DirectCells {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl DirectCells {
    pub(super) fn new(len: usize, bound: u64) -> Self {
        if bound < u64::from(NONE) {
            DirectCells::Narrow(vec![NONE; len])
        } else {
            DirectCells::Wide(vec![u64::MAX; len])
        }
    }

    pub(super) fn bytes_per_cell(bound: u64) -> u64 {
        if bound < u64::from(NONE) { 4 } else { 8 }
    }

    pub(super) fn narrow(v: Option<u64>) -> u32 {
        v.map_or(NONE, |v| v as u32)
    }

    pub(super) fn wide(v: Option<u64>) -> u64 {
        v.unwrap_or(u64::MAX)
    }

    fn len(&self) -> usize {
        match self {
            DirectCells::Narrow(v) => v.len(),
            DirectCells::Wide(v) => v.len(),
        }
    }
}

/// A rectangle of [`DirectCells`], `cols` cells a row.
#[derive(Debug, Clone)]
pub(crate) struct Direct {
    pub(super) cells: DirectCells,
    pub(super) cols: usize,
}

impl Direct {
    /// The value at row `i`, column `j` of the rectangle (from its corner).
    #[inline]
    pub(crate) fn get(&self, i: usize, j: usize) -> Option<u64> {
        let k = i * self.cols + j;
        match &self.cells {
            DirectCells::Narrow(v) => Some(v[k]).filter(|&x| x != NONE).map(u64::from),
            DirectCells::Wide(v) => Some(v[k]).filter(|&x| x != u64::MAX),
        }
    }
}

/// Where a grid's values are: a plane filled from the origin, or the rectangle alone.
#[derive(Debug, Clone)]
pub(super) enum Values {
    Plane(Plane),
    Direct(Direct),
}

/// The largest value a grid hands out as a `u32` ([`Grid::get`]); larger values (far from the
/// origin, from a closed form) are given as this, and exactly by [`Grid::get_wide`].
pub const SATURATED: u32 = u32::MAX - 2;

/// The Grundy values of a rectangle of positions, as asked for.
#[derive(Debug, Clone)]
pub struct Grid {
    /// The rows `a` held (half-open).
    pub rows: Range<u64>,
    /// The columns `b` held (half-open).
    pub cols: Range<u64>,
    pub(super) values: Values,
    /// For a game that loops: the sets of its infinite values, which its cells hold as codes
    /// ([`crate::game::loopy::cells`]).
    pub(super) infinite: Option<Arc<InfiniteSets>>,
}

impl Grid {
    /// The value at (row a, column b) as Smith's theory writes it (a Grundy value, or `∞(A)`
    /// in a game that loops); `None` where the cell is not a position.
    pub fn gamma(&self, a: u64, b: u64) -> Option<Gamma> {
        let v = self.get_wide(a, b)?;
        Some(match &self.infinite {
            Some(t) if v < u64::from(u32::MAX) => t.value(v as u32),
            _ => Gamma::Finite(v),
        })
    }

    /// The sets of the infinite values of a game that loops (whose cells hold codes).
    pub fn infinite_sets(&self) -> Option<&InfiniteSets> {
        self.infinite.as_deref()
    }

    /// The value at (row a, column b), `None` where the cell is not a position; values past
    /// [`SATURATED`] are given as it (see [`Grid::get_wide`]).
    #[inline]
    pub fn get(&self, a: u64, b: u64) -> Option<u32> {
        if !self.rows.contains(&a) || !self.cols.contains(&b) {
            return None;
        }
        match &self.values {
            Values::Plane(p) => {
                let v = p.at(a as usize, b as usize);
                (v != NONE).then_some(v)
            }
            Values::Direct(d) => d
                .get((a - self.rows.start) as usize, (b - self.cols.start) as usize)
                .map(|v| v.min(u64::from(SATURATED)) as u32),
        }
    }

    /// The exact value at (row a, column b), `None` where the cell is not a position.
    #[inline]
    pub fn get_wide(&self, a: u64, b: u64) -> Option<u64> {
        match &self.values {
            Values::Direct(d) if self.rows.contains(&a) && self.cols.contains(&b) => {
                d.get((a - self.rows.start) as usize, (b - self.cols.start) as usize)
            }
            _ => self.get(a, b).map(u64::from),
        }
    }

    /// Whether the values were computed cell by cell from a closed form (not filled).
    pub fn is_direct(&self) -> bool {
        matches!(self.values, Values::Direct(_))
    }

    /// Memory held by the values (a cache keeping the grid accounts it against the budget).
    pub fn bytes(&self) -> u64 {
        match &self.values {
            Values::Plane(p) => match &p.cells {
                Cells::Narrow(v) => 2 * v.len() as u64,
                Cells::Wide(v) => 4 * v.len() as u64,
            },
            Values::Direct(d) => match &d.cells {
                DirectCells::Narrow(_) => 4 * d.cells.len() as u64,
                DirectCells::Wide(_) => 8 * d.cells.len() as u64,
            },
        }
    }

    /// The largest finite value in the grid (0 if none), for scaling colour maps.
    pub fn max_value(&self) -> u32 {
        self.rows_iter()
            .flat_map(|(_, r)| r.into_iter().flatten())
            .filter(|&v| self.infinite.is_none() || !crate::game::loopy::cells::is_infinite(v))
            .max()
            .unwrap_or(0)
    }

    /// Rows of values, `None` for cells that are not positions.
    pub fn rows_iter(&self) -> impl Iterator<Item = (u64, Vec<Option<u32>>)> + '_ {
        self.rows
            .clone()
            .map(move |a| (a, self.cols.clone().map(|b| self.get(a, b)).collect()))
    }

    /// Rows of exact values, `None` for cells that are not positions.
    pub fn wide_rows(&self) -> impl Iterator<Item = (u64, Vec<Option<u64>>)> + '_ {
        self.rows
            .clone()
            .map(move |a| (a, self.cols.clone().map(|b| self.get_wide(a, b)).collect()))
    }
}
