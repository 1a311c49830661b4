//! The one-heap sequence of a misère octal game that splits heaps, past a small search: the
//! misère Grundy values of the heaps whose search is small (the same bound under which `value`
//! searches a collection rather than asks the quotient), and for the heaps after them the
//! outcome alone, read off the misère quotient for heaps up to the last. Where the quotient is
//! past reach (its limits or the budget), the heaps are searched as before.

use super::{Computed, Sequence, Sink, compute, compute_streaming};
use crate::game::rules::one_heap::OctalCode;
use crate::game::{Outcome, Ruleset};
use crate::solver::budget;
use crate::solver::control::{Control, SolveError};
use crate::solver::cost;
use crate::solver::misere_quotient;

/// Heaps whose outcome alone is known, by the misère quotient: every heap from `from` to the
/// end of the sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomesOnly {
    /// The first heap known by its outcome alone.
    pub from: u64,
    /// The outcome of heap `from + i`.
    pub outcomes: Vec<Outcome>,
    /// The quotient that gave them, in words.
    pub by: String,
}

impl OutcomesOnly {
    /// The outcome of heap `n`, if this part holds it.
    pub fn get(&self, n: u64) -> Option<Outcome> {
        let i = usize::try_from(n.checked_sub(self.from)?).ok()?;
        self.outcomes.get(i).copied()
    }
}

/// The octal code of a splitting octal game under misère play (no push).
fn misere_splitting_octal(ruleset: &Ruleset) -> Option<&OctalCode> {
    match ruleset.base() {
        (Ruleset::Octal(code), true) if code.splits() && ruleset.push_count() == 0 => Some(code),
        _ => None,
    }
}

/// G(0..n), or for a misère octal game that splits heaps, G of the heaps whose search fits
/// [`budget::MISERE_GRUNDY_SEARCH`] and the outcome alone of the heaps after them up to n − 1,
/// by the misère quotient for heaps up to n − 1 (where that quotient is past reach, every heap
/// is searched, as [`compute`] does).
pub fn compute_with_quotient(ruleset: &Ruleset, n: u64, control: &Control) -> Result<Computed, SolveError> {
    if let Some(builtin) = crate::solver::equivalent::computed(ruleset) {
        return split_at_search(&builtin, n, budget::MISERE_GRUNDY_SEARCH, control)
            .map_err(|e| e.computed_as(&builtin));
    }
    split_at_search(ruleset, n, budget::MISERE_GRUNDY_SEARCH, control)
}

/// [`compute_with_quotient`], giving the values to `sink` as they are found where they are
/// found one by one (every ruleset but the misère octal games the quotient answers).
pub fn stream_with_quotient(
    ruleset: &Ruleset,
    n: u64,
    control: &Control,
    sink: Option<Sink<'_>>,
) -> Result<Computed, SolveError> {
    match misere_splitting_octal(ruleset) {
        Some(_) => compute_with_quotient(ruleset, n, control),
        None => compute_streaming(ruleset, n, None, control, sink),
    }
}

/// [`compute_with_quotient`] with the heaps whose search fits `search_bytes` searched.
fn split_at_search(ruleset: &Ruleset, n: u64, search_bytes: u64, control: &Control) -> Result<Computed, SolveError> {
    let Some(code) = misere_splitting_octal(ruleset) else {
        return compute(ruleset, n, control);
    };
    // the heaps searched for their misère Grundy values fit the job's budget too (a budget
    // below `search_bytes` searched the same heaps and refused them, though the quotient
    // answers them)
    let small = search_bytes.min(control.memory_budget());
    let searched = cost::largest_heap_that_fits(ruleset, small).map_or(0, |h| h + 1);
    let last = n.saturating_sub(1);
    let Some(bound) = u16::try_from(last)
        .ok()
        .filter(|&b| n > searched && b <= misere_quotient::MAX_HEAPS)
    else {
        return compute(ruleset, n, control);
    };
    // the quotient's heaps are not the sequence's units: its progress is its own, and the job
    // names the part it is in (its own counters say nothing meanwhile: not "0 %, 0 heaps/s")
    let limited = control.apart().with_budget_at_most(budget::MISERE_QUOTIENT);
    // a larger quotient kept from before answers these heaps as well
    let grown =
        misere_quotient::compute_as_far_as_named(code, bound, &limited, control).and_then(
            |(q, stopped)| match stopped {
                Some(e) if q.heaps() < bound => Err(e),
                _ => Ok(q),
            },
        );
    let q = match grown {
        Ok(q) => q,
        Err(SolveError::Cancelled) => return Err(SolveError::Cancelled),
        // past the quotient's reach: every heap searched, or refused saying both
        Err(past) => {
            return compute(ruleset, n, control).map_err(|e| match e {
                SolveError::Cancelled => e,
                e => SolveError::PastQuotient {
                    search: Box::new(e),
                    reach: u64::from(bound),
                    quotient: Box::new(past),
                },
            });
        }
    };
    // the bound that chose them is a lower one: where their search outgrows the budget as it
    // runs, fewer heaps are searched and the quotient gives the others' outcomes
    let mut searched = searched;
    let mut c = loop {
        match compute(ruleset, searched, control) {
            Err(SolveError::OverBudget { .. }) if searched > 0 => searched /= 2,
            c => break c?,
        }
    };
    let outcomes = (searched..n).map(|h| q.outcome(&[h])).collect::<Option<Vec<_>>>();
    let outcomes =
        outcomes.ok_or_else(|| SolveError::Unsupported("internal: a heap past the misère quotient's bound".into()))?;
    c.n = n;
    c.outcomes_only = Some(OutcomesOnly {
        from: searched,
        outcomes,
        by: format!(
            "the misère quotient of octal({code}) for heaps up to {} ({} elements)",
            q.heaps(),
            q.size()
        ),
    });
    Ok(c)
}

/// [`compute_with_quotient`] as the window holds it.
pub fn sequence_with_quotient(ruleset: &Ruleset, n: u64, control: &Control) -> Result<Sequence, SolveError> {
    control.reserve(format!("{n} values of {ruleset}"), n.saturating_mul(8))?;
    let computed = compute_with_quotient(ruleset, n, control)?;
    let mut sequence = computed.to_sequence();
    // the evidence `seq --certificate` writes for the same values
    sequence.certificate = computed.certificate(ruleset);
    Ok(sequence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use crate::solver::search::Search;

    /// The small search of the tests: 16 KiB (heaps up to 17 of 0.77, 23 of 0.07 and 28 of
    /// 0.137 fit it).
    const SMALL: u64 = 16 << 10;

    /// Every heap of the sequence of `rules` to `n` (heaps searched within [`SMALL`]) against
    /// the plain misère search: the values where they are given, the outcomes where only they
    /// are; returns how many heaps the quotient gave.
    fn agrees_with_the_search(rules: &str, n: u64, search_bytes: u64) -> usize {
        agrees_within(rules, n, search_bytes, &Control::new())
    }

    /// [`agrees_with_the_search`] for a job under `control`'s budget.
    fn agrees_within(rules: &str, n: u64, search_bytes: u64, control: &Control) -> usize {
        let r: Ruleset = rules.parse().unwrap();
        let c = split_at_search(&r, n, search_bytes, control).unwrap();
        let s = c.to_sequence();
        let mut search = Search::plain(r.clone());
        let mut by_quotient = 0;
        for h in 0..n {
            let g = search.value(&Position::Heaps(vec![h]), &Control::new()).unwrap();
            match c.get(h) {
                Some(v) => assert_eq!(v, g, "{rules}: heap {h}"),
                None => {
                    assert_eq!(c.outcome_only(h), Some(Outcome::of(g)), "{rules}: heap {h}");
                    assert_eq!(s.values[h as usize], None);
                    by_quotient += 1;
                }
            }
            assert_eq!(
                s.outcome(h),
                Some(Outcome::of(g)),
                "{rules}: heap {h} in the window's sequence"
            );
        }
        by_quotient
    }

    #[test]
    fn heaps_past_the_small_search_are_the_searched_outcomes() {
        for (rules, n, bytes) in [
            ("misere(octal(0.77))", 31, SMALL),
            ("misere(octal(0.07))", 31, SMALL),
            ("misere(octal(0.137))", 31, SMALL),
            ("misere(octal(0.6))", 17, SMALL / 16),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let searched = cost::largest_heap_that_fits(&r, bytes).unwrap() + 1;
            assert!(
                searched < n,
                "{rules}: some heaps by the quotient ({searched} searched)"
            );
            assert_eq!(
                agrees_with_the_search(rules, n, bytes),
                (n - searched) as usize,
                "{rules}"
            );
        }
    }

    /// A job whose budget is below the small search's bound (`value 'misere(octal(0.f))' 1000
    /// --memory-budget 16M` was refused though the quotient answers it): fewer heaps searched,
    /// the others' outcomes by the quotient, all as the plain search gives them.
    #[test]
    fn a_budget_below_the_small_search_searches_fewer_heaps() {
        for (rules, n, budget) in [
            ("misere(octal(0.f))", 44, 2 << 20),
            ("misere(octal(0.77))", 31, 48 << 10),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let within = cost::largest_heap_that_fits(&r, budget).map_or(0, |h| h + 1);
            assert!(within < n, "{rules}");
            // the quotient grown beforehand (its growth lists options past the tight budget,
            // 1 MiB at least), as another job or the cache would have it: the tight job reads it
            let Ruleset::Misere(inner) = &r else {
                unreachable!("a misère ruleset")
            };
            let Ruleset::Octal(code) = &**inner else {
                unreachable!("an octal game")
            };
            crate::solver::misere_quotient::compute(code, (n - 1) as u16, &Control::new()).unwrap();
            // at most those heaps searched: the rest answered by the quotient
            let tight = Control::with_budget(budget);
            assert!(
                agrees_within(rules, n, 16 << 20, &tight) >= (n - within) as usize,
                "{rules}"
            );
        }
    }

    #[test]
    fn past_the_quotient_every_heap_is_searched() {
        // 0.6's quotient stops at heap 16: heap 17 is searched, and so are all before it
        let r: Ruleset = "misere(octal(0.6))".parse().unwrap();
        let c = split_at_search(&r, 19, SMALL, &Control::new()).unwrap();
        assert!(c.outcomes_only.is_none());
        assert_eq!(
            c.to_sequence().values,
            compute(&r, 19, &Control::new()).unwrap().to_sequence().values
        );
    }

    #[test]
    fn other_rulesets_and_short_sequences_are_computed_as_before() {
        for r in ["octal(0.07)", "misere(sub(1,2))", "misere(nim)", "misere(octal(0.07))"] {
            let r: Ruleset = r.parse().unwrap();
            let a = compute_with_quotient(&r, 30, &Control::new()).unwrap();
            assert!(a.outcomes_only.is_none(), "{r}");
            assert_eq!(
                a.to_sequence().values,
                compute(&r, 30, &Control::new()).unwrap().to_sequence().values
            );
        }
    }
}
