//! What a job must need, known from the size of its input before it runs: the one estimate the
//! evaluator (for the command line and the window alike) and the sequences consult before a
//! search starts, so a job that cannot fit its memory budget is refused in milliseconds with
//! what was asked, what it needs and what to change, instead of after minutes of work.
//!
//! The estimates are lower bounds, never guesses: a refusal is certain, not likely.
//! - Nim and Wythoff (and their misère and push compounds) move from a position to every
//!   position with smaller heaps, so a memoised search from heaps `h` meets all `∏(hᵢ + 1)` of
//!   them.
//! - A misère or push compound of a take-and-break game that splits heaps (an octal code, a
//!   code with a digit before the point such as Grundy's game, or a typed one-heap rule that
//!   is one) is searched collection by collection (a collection is not a nim-sum of its heaps
//!   there): `collections.rs` counts the collections a construction surely reaches (the lower
//!   bound, which refuses) and those no potential of the moves rules out (the upper bound,
//!   said beside it, so a refusal says how far above the budget the search would go).
//!
//! Other rulesets get no bound here (their searches are bounded as they grow).

use super::control::{Control, SolveError, human_bytes};
use super::search::{GENERAL_BUCKET_BYTES, PACKED_BUCKET_BYTES, position_bytes, table_buckets};
use crate::game::quote::quoted;
use crate::game::rules::typed::TypedRule;
use crate::game::rules::typed::estimate::Interval;
use crate::game::{Position, Ruleset};

mod collections;
pub use collections::Met;
use collections::{MAX_TOKENS, at_most_from, met_from, met_from_heap, most_heaps, splitting_code};

/// The splitting take-and-break code whose collections a search of `ruleset` meets as
/// positions of their own: an octal game, or a typed one-heap rule that is a take-and-break
/// code under misère play or a push (under normal play its heaps are valued apart).
fn searched_code(ruleset: &Ruleset) -> Option<crate::game::rules::one_heap::OctalCode> {
    let (base, misere) = ruleset.base();
    let own = matches!(base, Ruleset::Octal(_)) || misere || ruleset.push_count() > 0;
    own.then(|| splitting_code(ruleset)).flatten()
}

/// The collections a search of a heap of `n` tokens of `ruleset`'s splitting take-and-break
/// game must meet at least (`collections.rs`); `None` for other rulesets.
pub fn octal_collections_met(ruleset: &Ruleset, n: u64) -> Option<Met> {
    searched_code(ruleset).map(|code| met_from_heap(&code, n))
}

/// Memory of one memoised position besides its heaps' 8 bytes each: the position, the key and
/// the table's own overhead, exactly as the search counts them (no more: with a lower bound of
/// the positions close to their count, a larger figure here would refuse searches that fit).
fn entry_bytes() -> u64 {
    position_bytes(&Position::Heaps(Vec::new())) + super::search::BYTES_PER_ENTRY
}

/// Whether every position with smaller heaps is an option of an option of … a position of
/// `ruleset` (the moves lower any one heap to any smaller size).
fn reaches_every_lower_position(ruleset: &Ruleset) -> bool {
    matches!(ruleset.base().0, Ruleset::Nim | Ruleset::Wythoff)
}

/// For a typed rule that can lower heaps by one everywhere below `h` ([`TypedRule::unit_steps`]):
/// the positions a search from `h` meets at least, every combination of those heaps below.
///
/// [`TypedRule::unit_steps`]: crate::game::rules::typed::TypedRule::unit_steps
fn typed_positions_met(ruleset: &Ruleset, h: &[u64]) -> Option<Met> {
    let Ruleset::Typed(rule) = ruleset else { return None };
    // one heap of a one-heap rule: a collection's heaps are searched apart
    let heaps: &[u64] = if rule.arity() == 1 { &h[..h.len().min(1)] } else { h };
    if rule.arity() == 1 && h.len() != 1 {
        return None;
    }
    let steps = rule.unit_steps(heaps);
    let positions = heaps.iter().zip(&steps).fold(
        1u128,
        |acc, (&x, &s)| if s { acc.saturating_mul(u128::from(x) + 1) } else { acc },
    );
    (positions > 1).then_some(Met {
        positions,
        heaps: positions.saturating_mul(heaps.len() as u128),
    })
}

/// The positions a memoised search from `p` must meet at least, when known.
pub fn search_positions_met(ruleset: &Ruleset, p: &Position) -> Option<Met> {
    let Position::Heaps(h) = p else { return None };
    if let Some(met) = typed_positions_met(ruleset, h) {
        return Some(met);
    }
    if reaches_every_lower_position(ruleset) {
        let positions = h.iter().fold(1u128, |acc, &x| acc.saturating_mul(u128::from(x) + 1));
        return Some(Met {
            positions,
            heaps: positions.saturating_mul(h.len() as u128),
        });
    }
    searched_code(ruleset).map(|code| met_from(&code, h))
}

/// What the progress line says of a search from `p` whose collections are bounded, and the
/// upper bound as its total (the share shown is of the most it can meet, so the time left is
/// never said too short): `None` for other searches.
pub fn search_stage(ruleset: &Ruleset, p: &Position) -> Option<(String, u64)> {
    let Position::Heaps(h) = p else { return None };
    let code = searched_code(ruleset)?;
    let high = at_most_from(&code, h)?;
    let low = met_from(&code, h);
    let stage = format!(
        "the search of {} ({} to {} collections)",
        quoted(&p.to_string()),
        count_text(low.positions),
        count_text(high.positions)
    );
    Some((stage, u64::try_from(high.positions).unwrap_or(u64::MAX)))
}

/// How a search's memo keeps the positions a search from `p` meets (`search/memo.rs`): packed
/// (2 bytes a heap, a 13-byte bucket) where they are collections of heaps below 2^16 and no
/// push or typed rule can lead elsewhere, else in the general map (8 bytes a heap and
/// [`entry_bytes`]).
fn memo_packs(ruleset: &Ruleset, p: &Position) -> bool {
    matches!(p, Position::Heaps(h) if h.iter().all(|&x| x <= u64::from(u16::MAX)))
        && ruleset.push_count() == 0
        && !ruleset.has_typed()
}

/// The memory a search meeting `met` counts at least: every position, or the moment its
/// memo's table last grows on the way there (the entries held then, and the new table beside
/// them), if more. The heaps of the entries held then count where `bounds` says how many
/// positions the search meets at most and how many heaps a position has at most: all the
/// heaps of `met` but those of the positions not yet held, each of the most heaps. `packed`:
/// the memo packs them ([`memo_packs`]), its table's buckets counted as allocated.
fn bytes_of(met: Met, bounds: Option<(u128, u128)>, packed: bool) -> u128 {
    let (each, heap_bytes, bucket) = if packed {
        (0, 2, PACKED_BUCKET_BYTES)
    } else {
        (entry_bytes(), 8, GENERAL_BUCKET_BYTES)
    };
    let mut all = met
        .positions
        .saturating_mul(u128::from(each))
        .saturating_add(met.heaps.saturating_mul(heap_bytes));
    if packed {
        all = all.saturating_add(table_buckets(met.positions).saturating_mul(u128::from(bucket)));
    }
    let Some((held, table)) = super::search::memo_last_growth(met.positions, bucket) else {
        return all;
    };
    let heaps_held = bounds.map_or(0, |(most_positions, most_heaps)| {
        met.heaps
            .saturating_sub(most_positions.saturating_sub(held).saturating_mul(most_heaps))
    });
    // the entries held then: the general map's by their average, the packed table's old
    // half as allocated (its entries are in its buckets)
    let entries = if packed {
        table / 2
    } else {
        held.saturating_mul(u128::from(each))
    };
    let growth = entries
        .saturating_add(table)
        .saturating_add(heaps_held.saturating_mul(heap_bytes));
    all.max(growth)
}

/// [`bytes_of`]'s bounds for a search from `p`: the most positions it meets and the most heaps
/// of one, where known.
fn search_bounds(ruleset: &Ruleset, p: &Position) -> Option<(u128, u128)> {
    let Position::Heaps(h) = p else { return None };
    let code = searched_code(ruleset)?;
    Some((at_most_from(&code, h)?.positions, most_heaps(&code, h)?))
}

fn shown(bytes: u128) -> String {
    if bytes > u128::from(u64::MAX / 2) {
        "more memory than a computer has".to_string()
    } else {
        format!("at least {}", human_bytes(bytes as u64))
    }
}

/// `L` positions, or `L to U` where the upper bound is known.
fn count_range(low: Met, high: Option<Met>) -> String {
    match high {
        Some(h) if h.positions > low.positions => {
            format!("{} to {}", count_text(low.positions), count_text(h.positions))
        }
        _ => count_text(low.positions),
    }
}

/// The collections a search from `p` can meet at most (`collections.rs`), where `ruleset` is
/// searched by collections of a splitting take-and-break game.
fn collections_at_most(ruleset: &Ruleset, p: &Position) -> Option<Met> {
    let Position::Heaps(h) = p else { return None };
    at_most_from(&searched_code(ruleset)?, h)
}

fn count_text(n: u128) -> String {
    if n >= u128::MAX / 2 {
        "more than 10^38".to_string()
    } else {
        n.to_string()
    }
}

/// Refuses, before it starts, a search from `p` that must outgrow the budget, or (a typed
/// rule) run more loop steps than a job may.
pub fn admit_search(ruleset: &Ruleset, p: &Position, control: &Control) -> Result<(), SolveError> {
    admit_typed_search_steps(ruleset, p)?;
    let Some(met) = search_positions_met(ruleset, p) else {
        return Ok(());
    };
    let needed = bytes_of(met, search_bounds(ruleset, p), memo_packs(ruleset, p));
    let budget = control.memory_budget();
    if needed <= u128::from(budget) {
        return Ok(());
    }
    let why = if reaches_every_lower_position(ruleset) {
        "every position with smaller heaps"
    } else if matches!(ruleset, Ruleset::Typed(_)) {
        "every position below (the rule lowers a heap by one at each of them)"
    } else {
        "the collections of heaps its moves reach"
    };
    let hint = match largest_heap_that_fits(ruleset, budget) {
        Some(k) if !reaches_every_lower_position(ruleset) && octal_collections_met(ruleset, 0).is_some() => {
            // the bound is of one heap alone: said so where the position has several
            match p {
                Position::Heaps(h) if h.iter().filter(|&&x| x > 0).count() > 1 => {
                    format!("one heap up to {k} alone fits it")
                }
                _ => format!("heaps up to {k} fit it"),
            }
        }
        _ => "ask a smaller position".to_string(),
    };
    Err(SolveError::Unsupported(format!(
        "the value of {} in {ruleset}: a search over {why} meets {} positions, {}, over the memory budget of {}; {hint}, or raise the budget",
        quoted(&p.to_string()),
        count_range(met, collections_at_most(ruleset, p)),
        shown(needed),
        human_bytes(budget)
    )))
}

/// Refuses, before it starts, a sequence G(0..n) whose heaps are searched one collection at a
/// time (misère and push compounds of splitting octal games) and must outgrow the budget; `n`
/// is what was asked for (`heap`: a single heap's value was asked, not the sequence).
pub fn admit_sequence(ruleset: &Ruleset, n: u64, heap: Option<u64>, control: &Control) -> Result<(), SolveError> {
    let (_, misere) = ruleset.base();
    if !(misere || ruleset.push_count() > 0) || n == 0 {
        return Ok(());
    }
    let Some(met) = octal_collections_met(ruleset, n - 1) else {
        return Ok(());
    };
    let one = Position::Heaps(vec![n - 1]);
    let needed = bytes_of(met, search_bounds(ruleset, &one), memo_packs(ruleset, &one));
    let budget = control.memory_budget();
    if needed <= u128::from(budget) {
        return Ok(());
    }
    let asked = match heap {
        Some(h) => format!("the value of heap {h} in {ruleset}"),
        None => format!("the values of {ruleset} up to heap {}", n - 1),
    };
    let fits = largest_heap_that_fits(ruleset, budget).map_or(String::new(), |k| format!("heaps up to {k} fit it; "));
    Err(SolveError::Unsupported(format!(
        "{asked}: a search over the collections of heaps the moves reach (under misère play or a push a collection is not the nim-sum of its heaps) meets {} of them, {}, over the memory budget of {}; {fits}ask less, or raise the budget",
        count_range(met, collections_at_most(ruleset, &Position::Heaps(vec![n - 1]))),
        shown(needed),
        human_bytes(budget)
    )))
}

/// Refuses, before it starts, a fill of a typed rule whose loop steps must pass
/// [`MAX_TOTAL_STEPS`]: `far` is the box of its farthest positions (each heap an interval),
/// `count` how many positions that box holds, each costing at least the estimate's lower
/// bound (every value of a range is a step).
///
/// [`MAX_TOTAL_STEPS`]: crate::game::rules::typed::MAX_TOTAL_STEPS
pub fn admit_typed_fill(
    rule: &TypedRule,
    far: &[Interval],
    count: u128,
    what: &dyn Fn() -> String,
) -> Result<(), SolveError> {
    use crate::game::rules::typed::run::{MAX_TOTAL_STEPS, big_number};
    let each = rule.estimate(far).steps.lower;
    let total = each.saturating_mul(count);
    if total <= MAX_TOTAL_STEPS {
        return Ok(());
    }
    Err(SolveError::Unsupported(format!(
        "{} would run at least {} loop steps of the rule ({} at each of {} positions alone), more than the {} a job may take (minutes of work); ask for less, or narrow the rule's ranges",
        what(),
        big_number(total),
        big_number(each),
        big_number(count),
        big_number(MAX_TOTAL_STEPS)
    )))
}

/// Refuses a search of a typed rule on several heaps whose loop steps must pass the cap of a
/// job: the search meets every position below `p` in the heaps the rule lowers by one
/// everywhere ([`TypedRule::unit_steps`]), so at least the far half of each of those heaps
/// (the others as in `p`), each position at the estimate's lower bound. (A one-heap rule's
/// heap is valued by its sequence, refused by the same cap.)
///
/// [`TypedRule::unit_steps`]: crate::game::rules::typed::TypedRule::unit_steps
fn admit_typed_search_steps(ruleset: &Ruleset, p: &Position) -> Result<(), SolveError> {
    let (Ruleset::Typed(rule), Position::Heaps(h)) = (ruleset, p) else {
        return Ok(());
    };
    if rule.arity() == 1 || h.len() != rule.arity() {
        return Ok(());
    }
    let steps = rule.unit_steps(h);
    if !steps.contains(&true) {
        return Ok(());
    }
    let mut count = 1u128;
    let far: Vec<Interval> = h
        .iter()
        .zip(&steps)
        .map(|(&x, &lowered)| {
            let x = i128::from(x);
            if lowered {
                count = count.saturating_mul((x / 2 + 1) as u128);
                (x - x / 2, x)
            } else {
                (x, x)
            }
        })
        .collect();
    admit_typed_fill(rule, &far, count, &|| {
        format!(
            "the value of {} in {} (a search over every position below it)",
            quoted(&p.to_string()),
            rule.short_text(60)
        )
    })
}

/// The largest heap whose search fits `budget`, by the same bound (to say what to ask instead).
pub fn largest_heap_that_fits(ruleset: &Ruleset, budget: u64) -> Option<u64> {
    let fits = |n: u64| {
        let one = Position::Heaps(vec![n]);
        let (bounds, packed) = (search_bounds(ruleset, &one), memo_packs(ruleset, &one));
        octal_collections_met(ruleset, n).is_some_and(|m| bytes_of(m, bounds, packed) <= u128::from(budget))
    };
    (0..MAX_TOKENS as u64).take_while(|&n| fits(n)).last()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_search_that_must_run_too_many_steps_is_refused() {
        // 10^8 steps at every position, and a search from (a, 3) meets every (x, 3), x < a
        let r: Ruleset = "rule((a, b) -> (a - 1, b) if a >= 1; (0, b) for k in 0..100000000 if k * k == 2)"
            .parse()
            .unwrap();
        let at = |a: u64| admit_search(&r, &Position::Heaps(vec![a, 3]), &Control::new());
        let err = at(1_000_000).unwrap_err().to_string();
        assert!(
            err.contains("would run at least") && err.contains("'1000000,3'"),
            "{err}"
        );
        // 51 positions of the far half at 10^8 steps each: within the cap, so it runs
        assert_eq!(at(100), Ok(()));
        // a rule that lowers no heap by one everywhere says nothing of the positions below
        let r: Ruleset = "rule((a, b) -> (a - 2, b) if a >= 2; (0, b) for k in 0..100000000 if k * k == 2)"
            .parse()
            .unwrap();
        assert_eq!(
            admit_search(&r, &Position::Heaps(vec![1_000_000, 3]), &Control::new()),
            Ok(())
        );
    }

    #[test]
    fn two_large_heaps_past_the_default_budget_are_refused_before_the_search() {
        // issue 42's middle zone: the collections two heaps reach, counted by dealing their
        // parts (`collections/packing.rs`) or splitting them (`collections/splits.rs`), are
        // past 4 GiB for 0.6 at 47,47 (at least 116,819,584 collections, 4.6 GiB) and Grundy's
        // game at 46,46 (68,120,414: more heaps each); the memo packs collections of small
        // heaps (`search/memo.rs`), so 0.6 at 40,40 (20,092,892, 887 MiB) is admitted now, up
        // to 46,46 (91,470,920, 3.9 GiB)
        let default = Control::new();
        for (code, h) in [("0.6", [47u64, 47]), ("4u.0", [46, 46]), ("0.6", [60, 60])] {
            let r: Ruleset = format!("misere(octal({code}))").parse().unwrap();
            let e = admit_search(&r, &Position::Heaps(h.to_vec()), &default)
                .unwrap_err()
                .to_string();
            assert!(e.contains("over the memory budget of 4.0 GiB"), "{e}");
        }
        for (code, h) in [("0.6", [46u64, 46]), ("4u.0", [45, 45])] {
            let r: Ruleset = format!("misere(octal({code}))").parse().unwrap();
            assert_eq!(
                admit_search(&r, &Position::Heaps(h.to_vec()), &default),
                Ok(()),
                "{code} {h:?}"
            );
        }
        // 33,33 answers in about 130 MB: admitted, and its progress line says its bounds (the
        // lower one is the search's own count: every collection whose parts split in two)
        let r: Ruleset = "misere(octal(0.6))".parse().unwrap();
        let p = Position::Heaps(vec![33, 33]);
        assert_eq!(admit_search(&r, &p, &default), Ok(()));
        let (stage, total) = search_stage(&r, &p).unwrap();
        assert_eq!(stage, "the search of '33,33' (2988317 to 3033772 collections)");
        assert_eq!(total, 3_033_772);
        assert_eq!(search_stage(&"misere(nim)".parse().unwrap(), &p), None);
    }

    #[test]
    fn refusals_name_the_question_and_what_fits() {
        let small = Control::with_budget(16 << 20);
        let w: Ruleset = "misere(wythoff)".parse().unwrap();
        let e = admit_search(&w, &Position::Heaps(vec![5000, 7000]), &small)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("'5000,7000'") && e.contains("35012001 positions") && e.contains("16.0 MiB"),
            "{e}"
        );
        assert!(admit_search(&w, &Position::Heaps(vec![50, 70]), &small).is_ok());
        let o: Ruleset = "misere(octal(0.6))".parse().unwrap();
        let e = admit_sequence(&o, 100, None, &Control::new()).unwrap_err().to_string();
        assert!(e.contains("up to heap 99") && e.contains("heaps up to"), "{e}");
        assert!(admit_sequence(&o, 40, None, &Control::new()).is_ok());
        let o: Ruleset = "misere(octal(0.07))".parse().unwrap();
        let e = admit_sequence(&o, 1 << 20, Some(1_000_000_000_000_000_000), &Control::new()).unwrap_err();
        assert!(e.to_string().contains("heap 1000000000000000000"), "{e}");
    }
}
