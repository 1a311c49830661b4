//! Maps of games that loop: the region's cells explored together (every position they reach)
//! and labelled by Smith's theory ([`crate::solver::loopy`]); a sum of two one-heap rules is
//! valued from the components' sequences by Smith's rules. The cells hold finite values as
//! they are and infinite ones as codes into the grid's table of sets.

use std::ops::Range;
use std::sync::Arc;

use super::storage::{Direct, DirectCells, Grid, NONE, Values};
use crate::game::loopy::{Gamma, InfiniteSets};
use crate::game::{Cell, Layout, Ruleset};
use crate::solver::control::{Control, SolveError};
use crate::solver::{loopy, sequence};

/// The values of the region `rows × cols` of a game that loops.
pub(super) fn loopy_grid(
    ruleset: &Ruleset,
    layout: &Layout,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<Grid, SolveError> {
    let (h, w) = (rows.end - rows.start, cols.end - cols.start);
    let len = usize::try_from(h.saturating_mul(w)).unwrap_or(usize::MAX);
    control.reserve(format!("a {h}×{w} region of {ruleset}"), (len as u64).saturating_mul(4))?;
    let cell_positions = || {
        rows.clone()
            .flat_map(|a| cols.clone().map(move |b| Cell::new(a, b)))
            .map(|c| layout.position(ruleset, c))
    };
    let values: Vec<Option<Gamma>> = match (ruleset, layout) {
        (Ruleset::Sum(x, y), Layout::Plain) => {
            let sx = sequence::compute(x, rows.end, control)?;
            let sy = sequence::compute(y, cols.end, control)?;
            rows.clone()
                .flat_map(|a| cols.clone().map(move |b| (a, b)))
                .map(|(a, b)| Some(sx.gamma(a)?.sum(&sy.gamma(b)?)))
                .collect()
        }
        _ => {
            let starts: Vec<_> = cell_positions().filter(|p| ruleset.check_position(p).is_ok()).collect();
            let solved = loopy::solve(ruleset, starts, control)?;
            cell_positions().map(|p| solved.get(&p)).collect()
        }
    };
    let mut table = InfiniteSets::default();
    let mut cells = vec![NONE; len];
    for (cell, g) in cells.iter_mut().zip(&values) {
        if let Some(g) = g {
            *cell = table.code(g).ok_or_else(|| {
                SolveError::Unsupported(format!("{ruleset} has more distinct infinite values than a map holds"))
            })?;
        }
    }
    Ok(Grid {
        rows,
        cols,
        values: Values::Direct(Direct {
            cells: DirectCells::Narrow(cells),
            cols: w as usize,
        }),
        infinite: Some(Arc::new(table)),
    })
}
