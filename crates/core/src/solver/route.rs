//! Which exact method answers one position fastest, by a cost model: the work each method
//! would do, counted in options looked at, and the memory it needs against the budget.
//!
//! - a **closed form** costs a few divisions (one unit);
//! - a **filled map** of a two-heap position (a, b) costs its cells, each a few word operations
//!   for the line bitsets (Nim-like and Wythoff-like moves) or its options for the rulesets
//!   that enumerate them (about log n moves for the Euclid family, the divisors for Common
//!   Divisor Nim), times the planes of its push compounds; a symmetric ruleset fills the
//!   triangle below the larger heap when that is smaller than the rectangle;
//! - a **sequence** of one heap costs its values up to the heap (a certified period answers
//!   beyond it);
//! - the memoised **search** costs every position it may meet times their options (the
//!   bound of [`super::search::positions_bound`], a product of heaps): far more than a map
//!   for the same cell, since the map's lines share what a search recomputes per option.
//!
//! [`plan`] picks the cheapest route that fits the budget; the [`super::evaluate::Evaluator`]
//! follows it. The test below walks the catalog over positions of growing size and checks the
//! route chosen never costs more than the map wherever a map fits.

use crate::game::{Position, Ruleset, Shape};
use crate::solver::closed_form::{Known, closed_form};
use crate::solver::grid::{self, Growing};
use crate::solver::search;

/// A method for one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// A formula (or a nim-sum of formulas).
    ClosedForm,
    /// A map of the rectangle below a two-heap cell, filled from the origin.
    Map,
    /// The sequence of a one-heap ruleset up to the heap.
    Sequence,
    /// The memoised search over the positions below.
    Search,
    /// Only the outcome, by a theorem: nothing exact fits the budget.
    Outcome,
}

/// The map a two-heap cell (a, b) would be answered from: its extent, cost and memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapPlan {
    /// Rows of the map, `a` in `0..rows` (`a + 1` for the cell asked about).
    pub rows: u64,
    /// Columns of the map, `b` in `0..cols` (`b + 1` for the cell asked about).
    pub cols: u64,
    /// Option looks, as the module's header counts them.
    pub work: u128,
    /// Bytes the map would take (a saturated `u64::MAX` when past counting).
    pub bytes: u64,
}

/// The cell of a map holding `p`, if `ruleset` has a fast 2-D fill.
pub fn map_cell(ruleset: &Ruleset, p: &Position) -> Option<(u64, u64)> {
    if !grid::has_fast_fill(ruleset) {
        return None;
    }
    match (ruleset.shape(), p) {
        (Shape::TwoHeaps | Shape::AnyHeaps, Position::Heaps(h)) if h.len() == 2 => Some((h[0], h[1])),
        (Shape::Fibonacci, Position::Fib { n, q }) => Some((*n, (*q).min(*n))),
        _ => None,
    }
}

/// Option looks per cell of a map of `ruleset` `n` cells across.
fn work_per_cell(ruleset: &Ruleset, n: u64) -> u128 {
    let log = u128::from(64 - n.max(1).leading_zeros());
    let own = match ruleset.base().0 {
        // a cell of the line fill costs a few word operations, and its mex scan grows with
        // the lines' words
        Ruleset::Nim | Ruleset::Wythoff => 4 + u128::from(n / 4096),
        // the Euclid family's options: about log n multiples; Zeruclid's twice that; divisors
        Ruleset::Euclid(_) | Ruleset::Cdn => 2 + log,
        Ruleset::Zeruclid => 2 + 2 * log,
        // Fibonacci Nim's cells look at up to q options, through a running minimum
        Ruleset::FibonacciNim => 4 + log,
        _ => 8 + log,
    };
    let planes = ruleset.push_successors().len() as u128 + 1;
    own * planes
}

/// The map that answers `p` (a two-heap cell, or Fibonacci Nim's (n, q)), if `ruleset` has a
/// fast fill: the rectangle below it, or for a symmetric ruleset the triangle below the
/// larger heap when that is smaller.
pub fn map_plan(ruleset: &Ruleset, p: &Position) -> Option<MapPlan> {
    let (a, b) = map_cell(ruleset, p)?;
    let (rows, cols) = (a.checked_add(1)?, b.checked_add(1)?);
    let rect = u128::from(rows) * u128::from(cols);
    let n = rows.max(cols);
    let tri = u128::from(n) * (u128::from(n) + 1) / 2;
    let growing = Growing::new(ruleset).filter(|_| tri <= rect);
    let (cells, bytes) = match &growing {
        // past 2^28 rows a triangle is exabytes: not worth counting exactly (nor overflowing)
        Some(_) if n > 1 << 28 => (tri, u64::MAX),
        Some(g) => (tri, g.bytes_for(n)),
        // four bytes a cell at most, for each plane of a push compound
        None => (
            rect,
            u64::try_from(rect.saturating_mul(4 * (ruleset.push_successors().len() as u128 + 1))).unwrap_or(u64::MAX),
        ),
    };
    Some(MapPlan {
        rows,
        cols,
        work: cells.saturating_mul(work_per_cell(ruleset, n)),
        bytes,
    })
}

/// Option looks of the memoised search from `p`: the positions it may meet times the options
/// of the largest (`None`: no bound).
pub fn search_work(ruleset: &Ruleset, p: &Position) -> Option<u128> {
    let positions = search::positions_bound(ruleset, p)?;
    let options = match p {
        Position::Heaps(h) => h.iter().fold(0u128, |s, &x| s.saturating_add(u128::from(x))) + 1,
        Position::Fib { n, .. } => u128::from(*n) + 1,
        _ => 16,
    };
    Some(positions.saturating_mul(options))
}

/// The cost of `route` for `p` (`None`: the route does not apply).
pub fn cost(route: Route, ruleset: &Ruleset, p: &Position) -> Option<u128> {
    match route {
        Route::ClosedForm => closed_form(ruleset, p)
            .filter(|c| matches!(c.known, Known::Value(_)))
            .map(|_| 1),
        Route::Outcome => closed_form(ruleset, p).map(|_| 1),
        Route::Map => map_plan(ruleset, p).map(|m| m.work),
        Route::Sequence => match p {
            Position::Heaps(h) if h.len() == 1 && crate::game::has_sequence(ruleset) => {
                // a certified period is found within the first 2^20 values at most
                Some(u128::from(h[0].min(1 << 20)) * 64)
            }
            _ => None,
        },
        Route::Search => search_work(ruleset, p).or(Some(u128::MAX)),
    }
}

/// The cheapest exact route for a leaf position `p` of `ruleset` within `budget` bytes, once
/// the compounds (pushes, sums, heap collections) and Cram boards are taken apart: a closed
/// form, else the cheaper of a map that fits and the search (a sequence for one heap), else
/// the outcome's theorem when the search cannot fit either.
pub fn plan(ruleset: &Ruleset, p: &Position, budget: u64) -> Route {
    if cost(Route::ClosedForm, ruleset, p).is_some() {
        return Route::ClosedForm;
    }
    if cost(Route::Sequence, ruleset, p).is_some() && ruleset.shape() != Shape::Fibonacci {
        return Route::Sequence;
    }
    let search_fits = search::memory_bound(ruleset, p).is_none_or(|m| m <= u128::from(budget));
    let search = cost(Route::Search, ruleset, p).filter(|_| search_fits);
    let map = map_plan(ruleset, p).filter(|m| m.bytes <= budget).map(|m| m.work);
    match (map, search) {
        (Some(m), Some(s)) if s < m => Route::Search,
        (Some(_), _) => Route::Map,
        (None, Some(_)) => Route::Search,
        (None, None) if cost(Route::Outcome, ruleset, p).is_some() => Route::Outcome,
        (None, None) => Route::Search,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::control::Control;
    use crate::solver::evaluate::Evaluator;
    use crate::solver::search::Search;

    /// Rulesets of every family of the catalog (with compounds): the family table's examples.
    fn catalog() -> impl Iterator<Item = &'static str> {
        crate::game::families::examples().map(|e| e.ruleset)
    }

    /// A position of `ruleset` about `n` tokens large on each heap.
    fn position(ruleset: &Ruleset, n: u64) -> Option<Position> {
        let text = match ruleset.shape() {
            Shape::OneHeap => format!("{n}"),
            Shape::TwoHeaps | Shape::AnyHeaps => format!("{n},{}", n + n / 8 + 1),
            Shape::ThreeHeaps => format!("{},{n},{}", n / 2 + 1, n + 3),
            Shape::Fibonacci => format!("{n}:{}", n / 2 + 1),
            Shape::Sum => format!("{n}+{n},{}", n + 1),
            Shape::Board => return None,
        };
        ruleset.parse_position(&text).ok()
    }

    /// Across the catalog and positions from 1 to 10⁹ tokens, the route chosen never costs
    /// more than the map wherever a map fits the budget, and a map that fits is never
    /// passed over for the search or the outcome alone.
    #[test]
    fn the_route_chosen_never_costs_more_than_a_map_that_fits() {
        let budget = crate::solver::budget::DEFAULT;
        for rules in catalog() {
            let r: Ruleset = rules.parse().unwrap();
            for n in [1u64, 7, 60, 500, 3000, 8000, 20_000, 100_000, 1_000_000, 1_000_000_000] {
                let Some(p) = position(&r, n) else { continue };
                let route = plan(&r, &p, budget);
                let Some(map) = map_plan(&r, &p).filter(|m| m.bytes <= budget) else {
                    continue;
                };
                let chosen = cost(route, &r, &p).unwrap();
                assert!(
                    chosen <= map.work,
                    "{rules} at {p}: {route:?} costs {chosen}, the map {}",
                    map.work
                );
                assert_ne!(route, Route::Outcome, "{rules} at {p}: the map gives the value");
            }
        }
        // the cell: Wythoff (8000, 9000) from its 9001² triangle, exactly
        let w: Ruleset = "wythoff".parse().unwrap();
        let p = Position::Heaps(vec![8000, 9000]);
        assert_eq!(plan(&w, &p, budget), Route::Map);
        let m = map_plan(&w, &p).unwrap();
        assert!(m.bytes < 200 << 20, "{m:?}");
        // beyond the budget: the outcome alone
        assert_eq!(
            plan(&w, &Position::Heaps(vec![1 << 40, 3 << 40]), budget),
            Route::Outcome
        );
    }

    /// On small positions of every ruleset the evaluator's route gives the plain search's
    /// value.
    #[test]
    fn every_route_gives_the_searched_value() {
        let c = Control::new();
        let mut e = Evaluator::new();
        for rules in catalog() {
            let r: Ruleset = rules.parse().unwrap();
            let mut plain = Search::plain(r.clone());
            for n in [1u64, 5, 17, 40] {
                let Some(p) = position(&r, n) else { continue };
                let want = plain.value(&p, &c).unwrap();
                assert_eq!(e.value(&r, &p, &c).unwrap(), want, "{rules} at {p}");
            }
        }
    }
}
