//! Maps computed cell by cell from a closed form, anywhere in the `u64 × u64` plane: a
//! rectangle at (10¹², 10¹²) costs its own cells, not a fill from the origin.
//!
//! [`CellForm`] is the per-cell formula of the two-heap rulesets whose every value the theory
//! gives (Nim, the Euclid family, Common Divisor Nim), written without allocation so a cell
//! costs a few divisions; `fill_direct` evaluates a rectangle row by row on every core.
//! Each formula is the one of [`crate::solver::closed_form`] (tested there against the search);
//! the tests here compare the cells with the searched fill near the origin and, far away, with
//! the mex of each cell's options computed by the same formula (the value is the mex of the
//! options' values: a wrong formula breaks that equation somewhere).

use std::ops::Range;

use rayon::prelude::*;

use super::storage::{Direct, DirectCells};
use crate::game::rules::euclid::EuclidVariant;
use crate::game::{Layout, Ruleset};
use crate::solver::control::{Control, SolveError};

/// Coordinates of a direct map stay below this, so every value (at most the larger heap, or
/// Nim's xor of two heaps) stays below the markers of `DirectCells`.
pub const DIRECT_LIMIT: u64 = 1 << 62;

/// The closed form of every cell of a plain two-heap map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellForm {
    /// Bouton: a ⊕ b.
    Nim,
    /// Seed 000 Theorems 1 and 2 (Euclid, Grossman, euclid0, M-Euclid).
    Euclid(EuclidVariant),
    /// Common Divisor Nim on two heaps: 2-adic valuations (seed 001 Thm 1.3).
    Cdn,
    /// Wythoff's outcomes, not its values: 0 at the P-positions, the pairs (⌊nφ⌋, ⌊nφ²⌋) and
    /// their mirror images (seed 003 Prop 3.1.3, ⌊nφ⌋ in integers), 1 elsewhere. Only for a
    /// map that shows outcomes ([`CellForm::outcome_of`]).
    WythoffOutcome,
}

impl CellForm {
    /// The form of `ruleset`'s map under `layout`, if every cell has one: the leaf rulesets
    /// under normal play on two heaps (compounds and misère play are filled).
    pub fn of(ruleset: &Ruleset, layout: &Layout) -> Option<CellForm> {
        if *layout != Layout::Plain {
            return None;
        }
        match ruleset {
            Ruleset::Nim => Some(CellForm::Nim),
            Ruleset::Euclid(v) => Some(CellForm::Euclid(*v)),
            Ruleset::Cdn => Some(CellForm::Cdn),
            _ => None,
        }
    }

    /// The form of the outcomes of `ruleset`'s map under `layout`, if every cell has one: the
    /// value's form (its zeros are the P-positions) or, for Wythoff, its P-positions' own.
    pub fn outcome_of(ruleset: &Ruleset, layout: &Layout) -> Option<CellForm> {
        match (ruleset, layout) {
            (Ruleset::Wythoff, Layout::Plain) => Some(CellForm::WythoffOutcome),
            _ => CellForm::of(ruleset, layout),
        }
    }

    /// Whether a cell's number is only its outcome (0: P, 1: N), not its value.
    pub fn outcome_only(self) -> bool {
        self == CellForm::WythoffOutcome
    }

    /// The value at (a, b), `None` where (a, b) is not a position (for an outcome form, 0 at a
    /// P-position and 1 at an N-position).
    #[inline]
    pub fn value(self, a: u64, b: u64) -> Option<u64> {
        match self {
            CellForm::WythoffOutcome => Some(u64::from(!crate::game::theory::is_wythoff_p(a, b))),
            CellForm::Nim => Some(a ^ b),
            CellForm::Cdn => Some(cdn2(a, b)),
            CellForm::Euclid(v) => v.is_position(a, b).then(|| euclid(v, a.min(b), a.max(b))),
        }
    }

    /// The largest value in `[0, n) × [0, n)` can be, at most (to choose 4 or 8 bytes a cell).
    pub fn bound(self, n: u64) -> u64 {
        match self {
            CellForm::Nim => n.checked_next_power_of_two().unwrap_or(u64::MAX),
            CellForm::Euclid(_) => n.saturating_add(1),
            CellForm::Cdn => 65,
            CellForm::WythoffOutcome => 1,
        }
    }
}

/// The start of the continued fraction of hi/lo as seed 000's theorems read it.
struct CfHead {
    /// a0 = ⌊hi/lo⌋.
    first: u64,
    /// m: how many terms from a0 on equal a0.
    run: u32,
    /// The term after the run (a_m), if there is one, and whether it is the last (m = n).
    next: Option<(u64, bool)>,
}

/// Walks the Euclidean algorithm on (lo, hi), lo ≥ 1, only until the run of a0 ends.
#[inline]
fn cf_head(lo: u64, hi: u64) -> CfHead {
    let (first, r) = (hi / lo, hi % lo);
    let (mut num, mut den) = (lo, r);
    let mut run = 1;
    while den != 0 {
        let (q, r) = (num / den, num % den);
        num = den;
        den = r;
        if q != first {
            return CfHead {
                first,
                run,
                next: Some((q, den == 0)),
            };
        }
        run += 1;
    }
    CfHead { first, run, next: None }
}

impl CfHead {
    /// 𝓘: the largest i with a0 = … = a_{i−1} ≤ a_i.
    fn index_i(&self) -> u32 {
        match self.next {
            Some((q, _)) if q > self.first => self.run,
            _ => self.run - 1,
        }
    }

    /// 𝓙 = min(𝓘, n − 1) (b not a multiple of a, so n ≥ 1).
    fn index_j(&self) -> u32 {
        match self.next {
            // n = m: the term after the run is the last one
            Some((q, true)) if q > self.first => self.run - 1,
            Some((q, false)) if q > self.first => self.run,
            Some(_) => self.run - 1,
            // every term equal: n = m − 1
            None => self.run.saturating_sub(2),
        }
    }
}

/// The Euclid family at (lo, hi), lo ≤ hi, a position of the variant (the cases of
/// [`crate::solver::closed_form`], each a theorem of seed 000 or a terminal position).
#[inline]
fn euclid(v: EuclidVariant, lo: u64, hi: u64) -> u64 {
    match v {
        EuclidVariant::ColeDavie => {
            if lo == 0 {
                return 0;
            }
            let cf = cf_head(lo, hi);
            cf.first - u64::from(cf.index_i() % 2)
        }
        EuclidVariant::Grossman | EuclidVariant::Zero => {
            if lo == 0 {
                // euclid0's (0, i) moves to (0, 0) only
                return u64::from(hi > 0);
            }
            if lo == hi {
                return 0;
            }
            let cf = cf_head(lo, hi);
            let ge = cf.first - u64::from(cf.index_i() % 2);
            if cf.next.is_none() {
                // every term equal: G_G = G_E − (−1)^𝓘
                if cf.index_i().is_multiple_of(2) {
                    ge.saturating_sub(1)
                } else {
                    ge + 1
                }
            } else {
                ge
            }
        }
        EuclidVariant::Multiple => {
            if lo == 0 || hi.is_multiple_of(lo) {
                return 0;
            }
            let cf = cf_head(lo, hi);
            cf.first - u64::from(cf.index_j() % 2)
        }
    }
}

/// Common Divisor Nim on (a, b): with m the least 2-adic valuation of the nonzero heaps, m + 1
/// if one heap has it, 0 if both do (or no heap is left).
#[inline]
fn cdn2(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, 0) => 0,
        (0, x) | (x, 0) => u64::from(x.trailing_zeros()) + 1,
        (a, b) if a.trailing_zeros() == b.trailing_zeros() => 0,
        (a, b) => u64::from(a.trailing_zeros().min(b.trailing_zeros())) + 1,
    }
}

/// Bytes a direct map of `cells` cells takes with values up to `bound`.
pub fn direct_bytes(cells: u64, bound: u64) -> u64 {
    cells.saturating_mul(DirectCells::bytes_per_cell(bound))
}

/// Every cell of `rows × cols` by `form`, rows on every core (the control's thread count, if
/// given), within the memory budget.
pub(crate) fn fill_direct(
    form: CellForm,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<Direct, SolveError> {
    if rows.end > DIRECT_LIMIT || cols.end > DIRECT_LIMIT {
        return Err(SolveError::Unsupported(format!(
            "a map computed from its closed form reaches heaps below 2^62, not {}",
            rows.end.max(cols.end) - 1
        )));
    }
    let (r, c) = (rows.end - rows.start, cols.end - cols.start);
    let cells = r.saturating_mul(c);
    let bound = form.bound(rows.end.max(cols.end));
    control.reserve(format!("a {r}×{c} region"), direct_bytes(cells, bound))?;
    let (r, c) = (
        usize::try_from(r).map_err(|_| too_many(r, c))?,
        usize::try_from(c).map_err(|_| too_many(r, c))?,
    );
    control.set_total(cells);
    let mut out = DirectCells::new(r * c, bound);
    on_threads(control, || match &mut out {
        DirectCells::Narrow(v) => fill_rows(v, form, rows.start, &cols, control, DirectCells::narrow),
        DirectCells::Wide(v) => fill_rows(v, form, rows.start, &cols, control, DirectCells::wide),
    })?;
    Ok(Direct { cells: out, cols: c })
}

fn too_many(r: u64, c: u64) -> SolveError {
    SolveError::Unsupported(format!("a {r}×{c} region has more cells than this machine can address"))
}

/// Fills the rows of `values` (the cells of `cols` each, the first being row `a0`) in parallel.
fn fill_rows<T: Send + Copy>(
    values: &mut [T],
    form: CellForm,
    a0: u64,
    cols: &Range<u64>,
    control: &Control,
    conv: fn(Option<u64>) -> T,
) -> Result<(), SolveError> {
    let c = (cols.end - cols.start) as usize;
    if c == 0 {
        return Ok(());
    }
    values.par_chunks_mut(c).enumerate().try_for_each(|(i, row)| {
        control.check()?;
        let a = a0 + i as u64;
        for (v, b) in row.iter_mut().zip(cols.clone()) {
            *v = conv(form.value(a, b));
        }
        control.add_done(c as u64);
        Ok(())
    })
}

/// Runs `f` on the control's number of threads (a pool of its own), or on the global pool.
pub(crate) fn on_threads<R: Send>(control: &Control, f: impl FnOnce() -> R + Send) -> R {
    if let Some(n) = control.threads()
        && let Ok(pool) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("nimscope-map-{i}"))
            .build()
    {
        return pool.install(f);
    }
    f()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::game::theory as th;
    use crate::solver::closed_form::{Known, closed_form};

    const FORMS: [(&str, CellForm); 6] = [
        ("nim", CellForm::Nim),
        ("euclid", CellForm::Euclid(EuclidVariant::ColeDavie)),
        ("grossman", CellForm::Euclid(EuclidVariant::Grossman)),
        ("euclid0", CellForm::Euclid(EuclidVariant::Zero)),
        ("m-euclid", CellForm::Euclid(EuclidVariant::Multiple)),
        ("cdn", CellForm::Cdn),
    ];

    /// The same cells as the fill from the origin (option lists and line bitsets, no formula).
    #[test]
    fn cells_match_the_searched_fill_near_the_origin() {
        let c = Control::new();
        for (name, form) in FORMS {
            let r: Ruleset = name.parse().unwrap();
            assert_eq!(CellForm::of(&r, &Layout::Plain), Some(form));
            let filled = super::super::filled(&r, &Layout::Plain, 0..150, 0..130, &c).unwrap();
            let direct = fill_direct(form, 0..150, 0..130, &c).unwrap();
            for a in 0..150 {
                for b in 0..130 {
                    assert_eq!(
                        direct.get(a as usize, b as usize).map(|v| v as u32),
                        filled.get(a, b),
                        "{name} at ({a},{b})"
                    );
                }
            }
        }
    }

    /// A small deterministic generator (xorshift) for far-away cells.
    fn far_cells(seed: u64, around: u64, spread: u64, n: usize) -> Vec<(u64, u64)> {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..n)
            .map(|_| (around + next() % spread, around + next() % spread))
            .collect()
    }

    /// Far from the origin: each value is the mex of its options' values (every option of a
    /// Euclid position far away is few moves, so this is checked exactly), the P-positions of
    /// Cole–Davie's Euclid are those with b/a < φ (seed 002, an independent theorem), and the
    /// cells agree with the reference implementation of the theorems in `game::theory`.
    #[test]
    fn far_cells_are_the_mex_of_their_options() {
        let around = 1_000_000_000_000u64;
        for (name, form) in FORMS {
            let r: Ruleset = name.parse().unwrap();
            let mut cells = far_cells(0x9e37_79b9_7f4a_7c15, around, 1 << 20, 300);
            // cells along rays of slope near φ, where the continued fractions are long runs of 1
            cells.extend((0..50).map(|k| th::wythoff_pair(around + k)));
            cells.extend((1..40).map(|k| (around, around * (k % 4 + 1) + k)));
            let mut checked = 0;
            for (a, b) in cells {
                let p = Position::Heaps(vec![a, b]);
                let v = form.value(a, b).unwrap();
                // Nim's cells far away have 10¹² options: only those with few are enumerated
                let few = match crate::game::rules::paging::option_count(&r, &p) {
                    Some(n) => n < 5000,
                    // the Euclid family moves to about hi/lo positions, CDN to the divisors
                    None => form != CellForm::Nim,
                };
                checked += u32::from(few);
                let mut opts = Vec::new();
                if few {
                    r.options(&p, &mut opts);
                }
                if few {
                    let seen: std::collections::HashSet<u64> = opts
                        .iter()
                        .map(|o| match o {
                            Position::Heaps(h) => form.value(h[0], h[1]).unwrap(),
                            _ => unreachable!(),
                        })
                        .collect();
                    let mex = (0..).find(|x| !seen.contains(x)).unwrap();
                    assert_eq!(v, mex, "{name} at ({a},{b}): not the mex of its options");
                }
                assert_eq!(
                    closed_form(&r, &p).map(|c| c.known),
                    Some(Known::Value(v)),
                    "{name} at ({a},{b})"
                );
                if name == "euclid" && a != b {
                    let p = th::cmp_ratio_with_phi(a.min(b), a.max(b)) == std::cmp::Ordering::Less;
                    assert_eq!(v == 0, p, "euclid at ({a},{b}): P iff b/a < φ");
                }
            }
            assert!(
                form == CellForm::Nim || checked > 300,
                "{name}: {checked} cells checked"
            );
        }
    }

    #[test]
    fn a_rectangle_at_ten_to_the_twelve_is_its_own_cells() {
        let c = Control::with_budget(1 << 20);
        let rows = 1_000_000_000_000..1_000_000_000_004;
        let cols = 1_618_033_988_740..1_618_033_988_750;
        let d = fill_direct(
            CellForm::Euclid(EuclidVariant::ColeDavie),
            rows.clone(),
            cols.clone(),
            &c,
        )
        .unwrap();
        for (i, a) in rows.enumerate() {
            for (j, b) in cols.clone().enumerate() {
                assert_eq!(d.get(i, j), Some(th::euclid_grundy(a, b)));
            }
        }
        // Nim's values there need 8 bytes
        let n = fill_direct(CellForm::Nim, 1 << 40..(1 << 40) + 2, 3..5, &c).unwrap();
        assert_eq!(n.get(1, 1), Some(((1u64 << 40) + 1) ^ 4));
        assert!(fill_direct(CellForm::Nim, 0..1 << 63, 0..1, &c).is_err());
    }

    /// Wythoff's outcome map near the origin: 0 exactly where the filled map's value is 0.
    #[test]
    fn wythoff_outcomes_match_the_fill_near_the_origin() {
        let c = Control::new();
        let r = Ruleset::Wythoff;
        assert_eq!(CellForm::of(&r, &Layout::Plain), None);
        assert_eq!(CellForm::outcome_of(&r, &Layout::Plain), Some(CellForm::WythoffOutcome));
        let filled = super::super::filled(&r, &Layout::Plain, 0..300, 0..280, &c).unwrap();
        let outcomes = super::super::outcomes(&r, &Layout::Plain, 0..300, 0..280, &c).unwrap();
        assert!(outcomes.is_direct());
        for a in 0..300 {
            for b in 0..280 {
                let g = filled.get(a, b).unwrap();
                assert_eq!(outcomes.get(a, b), Some(u32::from(g != 0)), "({a},{b})");
            }
        }
    }

    /// Whether (a, b) is a P-position of Wythoff by the defining inequality of ⌊nφ⌋, in i128
    /// (no square root): with lo ≤ hi and n = hi − lo, lo = ⌊nφ⌋ iff lo < nφ < lo + 1, i.e.
    /// lo² − lo·n − n² < 0 < (lo + 1)² − (lo + 1)·n − n².
    fn p_by_inequality(a: u64, b: u64) -> bool {
        let (lo, hi) = (i128::from(a.min(b)), i128::from(a.max(b)));
        let n = hi - lo;
        let f = |m: i128| m * m - m * n - n * n;
        f(lo) < 0 && f(lo + 1) > 0
    }

    /// Far from the origin (10¹² and 10¹⁸), the outcome map around Wythoff pairs: each P-cell
    /// passes the inequality test of ⌊nφ⌋, no P-position is a move from another in the
    /// rectangle (row, column, diagonal), and every N-cell has a move to a P-position (its
    /// row's, its column's or its diagonal's pair), each checked by the inequality.
    #[test]
    fn wythoff_outcomes_far_away_keep_the_p_position_property() {
        let c = Control::with_budget(1 << 24);
        let form = CellForm::WythoffOutcome;
        // the heap x's partner in its pair: x = a_k with k near x/φ = ⌊xφ⌋ − x, or x = b_k
        // with k near x/φ² = x − x/φ; exactly one of the two (the Beatty sequences ⌊nφ⌋ and
        // ⌊nφ²⌋ split the positive integers)
        let partner = |x: u64| {
            let k = th::floor_phi_times(x) - x;
            let hits: Vec<u64> = (k.saturating_sub(2)..k + 2)
                .chain((x - k).saturating_sub(2)..x - k + 2)
                .map(th::wythoff_pair)
                .filter_map(|(p, q)| if p == x { Some(q) } else { (q == x).then_some(p) })
                .collect();
            assert_eq!(hits.len(), 1, "{x} is in one Beatty sequence: {hits:?}");
            Some(hits[0])
        };
        for n in [618_033_988_749u64, 600_000_000_000_000_000, 1_700_000_000_000_000_000] {
            let (an, bn) = th::wythoff_pair(n);
            let (rows, cols) = (an - 40..an + 40, bn - 60..bn + 60);
            let d = fill_direct(form, rows.clone(), cols.clone(), &c).unwrap();
            let at = |a: u64, b: u64| d.get((a - rows.start) as usize, (b - cols.start) as usize);
            assert_eq!(at(an, bn), Some(0), "the pair of {n}");
            let mut ps = Vec::new();
            for a in rows.clone() {
                for b in cols.clone() {
                    let p = at(a, b) == Some(0);
                    assert_eq!(p, p_by_inequality(a, b), "({a},{b})");
                    if p {
                        ps.push((a, b));
                    } else {
                        // the P-positions a move away: the pair of a (in its row), of b (in its
                        // column), and the pair of difference |a − b| (on its diagonal)
                        let (pa, _) = th::wythoff_pair(a.abs_diff(b));
                        let moves = [
                            partner(a).filter(|&q| q < b).map(|q| (a, q)),
                            partner(b).filter(|&q| q < a).map(|q| (q, b)),
                            (pa < a.min(b)).then(|| (a - (a.min(b) - pa), b - (a.min(b) - pa))),
                        ];
                        assert!(
                            moves.iter().flatten().any(|&(x, y)| p_by_inequality(x, y)),
                            "({a},{b}) is N but moves to no P-position"
                        );
                    }
                }
            }
            assert!(ps.len() >= 10, "{} P-positions near the pair of {n}", ps.len());
            for (i, &(a, b)) in ps.iter().enumerate() {
                for &(x, y) in &ps[i + 1..] {
                    let diagonal = a.abs_diff(x) == b.abs_diff(y) && (a < x) == (b < y);
                    assert!(
                        a != x && b != y && !diagonal,
                        "({a},{b}) and ({x},{y}) are a move apart"
                    );
                }
            }
        }
    }
}
