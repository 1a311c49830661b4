//! A symmetric map grown row by row: a map that grows (the window's tiles, farther and farther)
//! costs only its new rows.

use super::direct::on_threads;
use super::enumerated::{DivisorTable, Scratch, enumerated_row};
use super::has_fast_fill;
use super::lines::{LineSets, Lines, lines_row};
use super::storage::{Cells, Plane};
use super::tiled::{TILE, lines_band};
use super::wavefront::{chunk_end, lines_wavefront};
use crate::game::rules::euclid::EuclidVariant;
use crate::game::rules::heaps;
use crate::game::{Ruleset, Shape};
use crate::solver::control::{Control, SolveError};

/// How a [`Growing`] plane fills a row.
#[derive(Debug, Clone)]
pub(super) enum GrowFill {
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
    pub(super) plane: Plane,
    pub(super) fill: GrowFill,
    pub(super) terminal: u32,
    pub(super) extras: Vec<Growing>,
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

    /// The values of row `a` over `cols` below the diagonal (`cols.end ≤ a + 1`), both below
    /// [`Growing::rows`], appended to `out` (`u64::MAX`: not a position).
    pub(crate) fn row_wide_into(&self, a: u64, cols: std::ops::Range<u64>, out: &mut Vec<u64>) {
        self.plane
            .row_wide_into(a as usize, cols.start as usize..cols.end as usize, out);
    }

    /// Memory held by the rows finished so far (a worker lane accounts it against the budget).
    pub fn held_bytes(&self) -> u64 {
        self.bytes(self.plane.rows)
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

    /// Memory the first `rows` rows will take (to refuse a growth over the budget before it
    /// starts, when it will be made in steps).
    pub fn bytes_for(&self, rows: u64) -> u64 {
        self.bytes(usize::try_from(rows).unwrap_or(usize::MAX))
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
        if let GrowFill::Lines(sets) = &mut self.fill {
            let plane = &mut self.plane;
            return on_threads(control, || {
                if rayon::current_num_threads() > 1 {
                    // the tiles of an anti-diagonal at once, a chunk of blocks of rows at a
                    // time (see `wavefront`)
                    let mut a0 = plane.rows;
                    while a0 < n {
                        control.check()?;
                        let a1 = chunk_end(a0, n);
                        lines_wavefront(plane, a0..a1, sets, terminal, &extras);
                        plane.rows = a1;
                        plane.cols = a1;
                        control.add_done(square_cells(a0..a1));
                        a0 = a1;
                    }
                    return Ok(());
                }
                // one core: a band of TILE rows at a time, tile by tile (see `tiled`)
                let mut band = Lines::new(TILE, sets.cols.words);
                let mut a0 = plane.rows;
                while a0 < n {
                    control.check()?;
                    let a1 = (a0 + TILE).min(n);
                    lines_band(plane, a0..a1, sets, &mut band, terminal, &extras);
                    plane.rows = a1;
                    plane.cols = a1;
                    control.add_done(square_cells(a0..a1));
                    a0 = a1;
                }
                Ok(())
            });
        }
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
            control.add_done(square_cells(a..a + 1));
        }
        Ok(())
    }
}

/// The cells of the square that rows `rows` of the triangle finish: the progress of a map is
/// counted in the square's cells (its total is rows × columns), the mirrored half included,
/// so a finished map shows 100 %, not 50 %.
fn square_cells(rows: std::ops::Range<usize>) -> u64 {
    let (a0, a1) = (rows.start as u64, rows.end as u64);
    a1 * a1 - a0 * a0
}
