//! Maps from option lists: a typed two-heap rule's options listed cell by cell by the compiled
//! rule, as for Euclid, while every option comes earlier in the fill's order (row by row) and
//! lies in the plane. A rule that breaks that order (it may add tokens, or loop) is handed
//! back to the search, which handles any finite game and reports a cycle. [`from_options`]
//! fills a map from any Rust closure the same way (the benchmark's hand-written rules).

use super::enumerated::fill_enumerated;
use super::storage::{Cells, Grid, Plane, Values};
use crate::game::rules::typed::TypedRule;
use crate::game::rules::typed::run::MAX_OPTIONS;
use crate::solver::control::{Control, SolveError};

/// Fills `shape` with the values of `rule` (and one more option per push plane in `extras`);
/// `None` when some option is not earlier in the fill.
pub(super) fn fill_typed(
    rule: &TypedRule,
    shape: Plane,
    terminal: u32,
    extras: &[&Plane],
    control: &Control,
) -> Result<Option<Plane>, SolveError> {
    // the cells of the far quarter, each at least the rule's cost at the least of them
    let (r, c) = (shape.rows as u64, shape.cols as u64);
    let far = [
        (i128::from(r / 2), i128::from(r.saturating_sub(1))),
        (i128::from(c / 2), i128::from(c.saturating_sub(1))),
    ];
    let count = u128::from(r - r / 2) * u128::from(c - c / 2);
    crate::solver::cost::admit_typed_fill(rule, &far, count, &|| {
        format!("a {r}×{c} map of {}", rule.short_text(60))
    })?;
    fill_ordered(shape, terminal, extras, control, |a, b, out| {
        if !rule.in_domain(&[a, b]) {
            return Ok(false);
        }
        rule.options(&[a, b], &mut |_: usize, o: &[u64]| out.push((o[0], o[1])))?;
        Ok(true)
    })
}

/// The enumerated fill of `shape` while `options` (which appends the options of (a, b) and
/// says whether it is a position) gives only options earlier row by row: `None` at the first
/// that is not, the first error of `options` as it is.
fn fill_ordered(
    shape: Plane,
    terminal: u32,
    extras: &[&Plane],
    control: &Control,
    mut options: impl FnMut(u64, u64, &mut Vec<(u64, u64)>) -> Result<bool, SolveError>,
) -> Result<Option<Plane>, SolveError> {
    let cols = shape.cols as u64;
    let mut failure: Option<SolveError> = None;
    let mut ordered = true;
    let plane = fill_enumerated(shape, MAX_OPTIONS, terminal, extras, control, |a, b, out| {
        if failure.is_some() || !ordered {
            return false;
        }
        let start = out.len();
        match options(a, b, out) {
            Err(e) => {
                failure = Some(e);
                false
            }
            Ok(false) => false,
            Ok(true) => {
                ordered = earlier(&out[start..], a, b, cols);
                ordered
            }
        }
    })?;
    match failure {
        Some(e) => Err(e),
        None => Ok(ordered.then_some(plane)),
    }
}

/// Whether every option comes before (a, b) row by row and lies in a plane of `cols` columns.
#[inline]
fn earlier(options: &[(u64, u64)], a: u64, b: u64, cols: u64) -> bool {
    options.iter().all(|&(x, y)| (x < a || x == a && y < b) && y < cols)
}

/// The Grundy map of `[0, rows) × [0, cols)` of a two-heap game given by `options`, which
/// appends the options of (a, b) and returns whether (a, b) is a position. Every option must
/// come earlier row by row; `None` if one does not.
pub fn from_options(
    rows: u64,
    cols: u64,
    control: &Control,
    mut options: impl FnMut(u64, u64, &mut Vec<(u64, u64)>) -> bool,
) -> Result<Option<Grid>, SolveError> {
    let (r, c) = (usize::try_from(rows), usize::try_from(cols));
    let (Ok(r), Ok(c)) = (r, c) else {
        return Err(SolveError::Unsupported(format!("a {rows}×{cols} map is too large")));
    };
    let empty = Plane {
        rows: r,
        cols: c,
        symmetric: false,
        cells: Cells::Wide(Vec::new()),
    };
    let plane = fill_ordered(empty, 0, &[], control, |a, b, out| Ok(options(a, b, out)))?;
    Ok(plane.map(|plane| Grid {
        rows: 0..rows,
        cols: 0..cols,
        values: Values::Plane(plane),
        infinite: None,
    }))
}
