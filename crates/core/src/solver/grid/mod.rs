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
//!
//! Files: `storage` (cells, planes, the grid handed out), `csv` (its text, as `grid` prints it), `dense` (its cells as one vector, for arrays), `lines` (line bitsets),
//! `tiled` (their fill a tile at a time), `wavefront` (the tiles of an anti-diagonal at once, on every core), [`direct`] (closed-form maps anywhere),
//! `enumerated` (option lists, divisor tables), `growing` (the growing triangle), `fills`
//! (Fibonacci Nim, sums, search per cell).

mod csv;
pub(crate) use csv::{Digits, Line};
mod dense;
pub mod direct;
mod enumerated;
mod fills;
mod growing;
mod lines;
mod loopy;
mod storage;
mod tiled;
mod typed;
mod wavefront;
mod zeruclid;
pub use typed::from_options;

use std::ops::Range;

pub use csv::grid_csv;
pub use direct::CellForm;
use enumerated::{DivisorTable, fill_enumerated};
use fills::{fill_by_search, fill_fibonacci, fill_sum};
pub use growing::Growing;
use lines::fill_lines;
pub(crate) use storage::{Cells, NONE};
pub use storage::{Grid, SATURATED};
use storage::{Plane, Values, crop};

use super::control::{Control, SolveError};
use crate::game::rules::heaps;
use crate::game::{Layout, Presentation, Ruleset, Shape};

/// The square a symmetric ruleset fills for a `r × c` request, if that is cheaper than the
/// rectangle (a long thin strip is not worth squaring).
fn symmetric_square(ruleset: &Ruleset, r: usize, c: usize) -> Option<usize> {
    let symmetric = matches!(ruleset.shape(), Shape::TwoHeaps | Shape::AnyHeaps);
    let n = r.max(c);
    (symmetric && n * (n + 1) / 2 <= r * c).then_some(n)
}

/// Solves every cell of `rows × cols` of `ruleset` laid out by `layout`: cell by cell from the
/// closed form where every cell has one ([`CellForm`]: any rectangle below 2^62, on every
/// core), else by a fill from the origin ([`filled`]).
pub fn grid(
    ruleset: &Ruleset,
    layout: &Layout,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<Grid, SolveError> {
    if let Some(builtin) = crate::solver::equivalent::computed(ruleset) {
        return grid(&builtin, layout, rows, cols, control).map_err(|e| e.computed_as(&builtin));
    }
    if let Some(form) = CellForm::of(ruleset, layout) {
        let d = direct::fill_direct(form, rows.clone(), cols.clone(), control)?;
        return Ok(Grid {
            rows,
            cols,
            values: Values::Direct(d),
            infinite: None,
        });
    }
    filled(ruleset, layout, rows, cols, control)
}

/// The outcomes of every cell of `rows × cols`: a grid whose number is 0 exactly at the
/// P-positions. Where every cell has a closed form of its outcome ([`CellForm::outcome_of`]:
/// the value's, or Wythoff's P-positions) it is computed cell by cell anywhere in the plane,
/// and Wythoff's N-positions are 1; otherwise the grid holds the values, as [`grid`] gives them.
pub fn outcomes(
    ruleset: &Ruleset,
    layout: &Layout,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<Grid, SolveError> {
    if let Some(builtin) = crate::solver::equivalent::computed(ruleset) {
        return outcomes(&builtin, layout, rows, cols, control).map_err(|e| e.computed_as(&builtin));
    }
    match CellForm::outcome_of(ruleset, layout) {
        Some(form) if form.outcome_only() => {
            let d = direct::fill_direct(form, rows.clone(), cols.clone(), control)?;
            Ok(Grid {
                rows,
                cols,
                values: Values::Direct(d),
                infinite: None,
            })
        }
        _ => grid(ruleset, layout, rows, cols, control),
    }
}

/// Solves every cell of `rows × cols` by filling `[0, rows.end) × [0, cols.end)` from the
/// origin, never by a closed form: what `check` compares the theorems with.
pub fn filled(
    ruleset: &Ruleset,
    layout: &Layout,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<Grid, SolveError> {
    if let Some(builtin) = crate::solver::equivalent::computed(ruleset) {
        return filled(&builtin, layout, rows, cols, control).map_err(|e| e.computed_as(&builtin));
    }
    if let Some(why) = Presentation::of(ruleset, layout).why_no_map(ruleset) {
        return Err(SolveError::Unsupported(why));
    }
    let (r, c) = (rows.end, cols.end);
    let cells = r.checked_mul(c).ok_or_else(|| too_big(r, c, control))?;
    if r > u32::MAX as u64 || c > u32::MAX as u64 {
        return Err(too_big(r, c, control));
    }
    control.reserve(format!("a {r}×{c} region of {ruleset}"), cells.saturating_mul(2))?;
    control.set_total(cells);
    let plane = control.rules_within(|| match layout {
        Layout::Slice(_) => fill_by_search(ruleset, layout, r as usize, c as usize, control),
        Layout::Plain => fill_plane(ruleset, r as usize, c as usize, control),
    });
    let plane = match plane {
        // a typed rule whose moves loop: its region valued by Smith's theory
        Err(SolveError::Loops(_)) if ruleset.has_typed() => {
            return control.rules_within(|| loopy::loopy_grid(ruleset, layout, rows, cols, control));
        }
        p => p?,
    };
    Ok(Grid {
        rows,
        cols,
        values: Values::Plane(plane),
        infinite: None,
    })
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
    if ruleset.push_count() > 8 {
        return false;
    }
    match ruleset.shape() {
        Shape::Sum => matches!(ruleset, Ruleset::Sum(..)) && !ruleset.has_misere(),
        Shape::Fibonacci => ruleset.push_successors().iter().all(has_fast_fill),
        Shape::TwoHeaps | Shape::AnyHeaps => {
            let plain = |r: &Ruleset| {
                matches!(
                    r.base().0,
                    Ruleset::Nim | Ruleset::Wythoff | Ruleset::Euclid(_) | Ruleset::Zeruclid | Ruleset::Cdn
                ) || matches!(r.base().0, Ruleset::Typed(t) if t.arity() == 2)
            };
            plain(ruleset) && ruleset.push_successors().iter().all(has_fast_fill)
        }
        _ => false,
    }
}

/// Fills `[0,r) × [0,c)` of a plain layout.
fn fill_plane(ruleset: &Ruleset, r: usize, c: usize, control: &Control) -> Result<Plane, SolveError> {
    // A sum under normal play is filled from its components' sequences; a misère one
    // (`misere(sum(…))`, shaped as a sum too) is not a nim-sum and is searched below.
    if let Ruleset::Sum(a, b) = ruleset
        && !ruleset.has_misere()
    {
        return fill_sum(a, b, r, c, control);
    }
    if !has_fast_fill(ruleset) {
        return match ruleset.shape() {
            Shape::TwoHeaps | Shape::AnyHeaps | Shape::Sum => fill_by_search(ruleset, &Layout::Plain, r, c, control),
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
        Ruleset::Zeruclid if extras.is_empty() => zeruclid::fill_zeruclid(r, c, terminal, control),
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
        Ruleset::Typed(rule) => match typed::fill_typed(rule, empty, terminal, extras, control)? {
            Some(plane) => Ok(plane),
            // an option later in the fill's order: the search decides, and finds any cycle
            None => fill_by_search(ruleset, &Layout::Plain, r, c, control),
        },
        other => Err(SolveError::Unsupported(format!("no 2-D fill for {other}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::solver::search::Search;

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
            // a misère sum is shaped as a sum but is no nim-sum (it once reached an
            // `unreachable!`)
            "misere(sum(nim,nim))",
            "misere(sum(sub(1,2),tag(3)))",
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let g = grid(&r, &Layout::Plain, 0..23, 0..19, &c).unwrap();
            let f = filled(&r, &Layout::Plain, 0..23, 0..19, &c).unwrap();
            let mut search = Search::plain(r.clone());
            for a in 0..23 {
                for b in 0..19 {
                    let p = Layout::Plain.position(&r, crate::game::Cell::new(a, b));
                    let expect = r.check_position(&p).ok().map(|_| search.value(&p, &c).unwrap());
                    assert_eq!(g.get(a, b), expect, "{rules} at {p}");
                    assert_eq!(f.get(a, b), expect, "{rules} at {p}, filled");
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
            std::thread::Builder::new()
                .name("long-fill".into())
                .spawn(move || grid(&r, &Layout::Plain, 0..12_000, 0..12_000, &c).map(|_| ()))
                .unwrap()
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

    /// Each theorem's predicted P-positions (the difference mode's comparisons) against the map.
    #[test]
    fn each_prediction_matches_its_ruleset() {
        use crate::game::prediction::Prediction;
        for p in Prediction::ALL {
            let r = p.ruleset().parse().unwrap();
            let g = grid(&r, &Layout::Plain, 0..60, 0..60, &Control::new()).unwrap();
            for a in 0..60 {
                for b in 0..60 {
                    if let Some(pred) = p.is_p(a, b) {
                        assert_eq!(pred, g.get(a, b) == Some(0), "{} at ({a},{b})", p.label());
                    }
                }
            }
        }
    }
}
