//! The fill of rulesets whose options are listed cell by cell (Euclid's multiples, Zeruclid,
//! Common Divisor Nim's divisors, from a table of the divisors of every n).

use super::storage::{Cells, Plane, extra_values};
use crate::game::MexSet;
use crate::solver::control::{Control, SolveError};

/// Scratch space of an enumerated fill.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) opts: Vec<(u64, u64)>,
    pub(super) seen: MexSet,
}

/// Fills row `a` of a plane whose options are listed cell by cell. `options` returns false for
/// a cell that is not a position.
pub(super) fn enumerated_row(
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
pub(super) fn fill_enumerated(
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
        control.add_done(plane.progress_of_row(a));
    }
    Ok(plane)
}

/// Divisors of every n ≤ max, stored flat (for Common Divisor Nim's gcds).
#[derive(Debug, Clone)]
pub(super) struct DivisorTable {
    pub(super) start: Vec<u32>,
    pub(super) flat: Vec<u64>,
    pub(super) max_count: usize,
}

impl DivisorTable {
    pub(super) fn new(max: u64) -> Self {
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
    pub(super) fn max_count_upto(max: u64) -> usize {
        2 * (max as f64).sqrt().ceil() as usize + 2
    }

    /// Memory of the table up to `max` (about max · ln max divisors).
    pub(super) fn bytes(max: u64) -> u64 {
        let n = max as f64 + 2.0;
        (n * (n.ln() + 1.0) * 8.0 + n * 4.0) as u64
    }

    pub(super) fn of(&self, g: u64) -> &[u64] {
        &self.flat[self.start[g as usize] as usize..self.start[g as usize + 1] as usize]
    }
}
