//! The fills that are neither line bitsets nor option lists: Fibonacci Nim over (n, q), sums
//! of two one-heap rulesets from their sequences, and one memoised search per cell (slices,
//! misère sums).

use super::storage::{Cells, Plane, extra_values};
use crate::game::rules::fibonacci;
use crate::game::{Cell, Layout, MexSet, Ruleset};
use crate::solver::control::{Control, SolveError};
use crate::solver::search::Search;
use crate::solver::sequence;

/// Fibonacci Nim over (n, q), `c ≥ r`: the options of (n, q + 1) are those of (n, q) and one
/// more, so a row is one growing mex set.
pub(super) fn fill_fibonacci(
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
                // 1 ≤ q ≤ n: taking q is a move, the last one listed
                if let Some(&(m, q2)) = opts.last() {
                    seen.insert(cells.get(m as usize * c + q2 as usize));
                }
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

/// `sum(R1,R2)` of two one-heap rulesets under normal play, given by its components:
/// G(a, b) = G1(a) ⊕ G2(b). (A misère sum is not a nim-sum; it is searched per cell.)
pub(super) fn fill_sum(a: &Ruleset, b: &Ruleset, r: usize, c: usize, control: &Control) -> Result<Plane, SolveError> {
    let s1 = sequence::sequence(a, r as u64, control)?;
    let s2 = sequence::sequence(b, c as u64, control)?;
    if s1.infinite.is_some() || s2.infinite.is_some() {
        // a component loops: the sum's values are Smith's, not nim-sums
        return Err(SolveError::Loops(format!("{a} or {b} loops")));
    }
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
pub(super) fn fill_by_search(
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
            let p = layout.position(ruleset, Cell::new(a as u64, b as u64));
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
