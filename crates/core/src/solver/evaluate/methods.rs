//! Answers by the methods beside the search: the misère quotient of an octal game, and the
//! sequence of a one-heap ruleset.

use super::{
    Answer, Evaluator, FIRST_SEARCH_BYTES, GRUNDY_SEARCH_BYTES, PERIOD_SEARCH_WORK, QUOTIENT_BYTES, QUOTIENT_HEAPS,
    SEQUENCE_LEN, ValueMethod,
};
use crate::game::{Position, Ruleset};
use crate::solver::control::{Control, SolveError};
use crate::solver::misere_quotient::{self, Quotient};
use crate::solver::search::{self, Search};
use crate::solver::sequence::{self, Computed};

impl Evaluator {
    /// A collection of two or more heaps of a misère octal game too large for a small search
    /// (which would give the misère Grundy value too), by its misère quotient for heaps up to
    /// the largest (computed once and kept; the quotient of a larger bound answers every
    /// smaller one): the outcome, the misère Grundy value unknown. `None` when the quotient is not the way (another ruleset, a heap past
    /// [`QUOTIENT_HEAPS`], a quotient past its limits: the search then tries).
    pub(super) fn by_quotient(
        &mut self,
        ruleset: &Ruleset,
        p: &Position,
        control: &Control,
    ) -> Result<Option<Answer>, SolveError> {
        let (Ruleset::Misere(inner), Position::Heaps(h)) = (ruleset, p) else {
            return Ok(None);
        };
        let Ruleset::Octal(code) = &**inner else {
            return Ok(None);
        };
        let Some(&largest) = h.iter().max() else {
            return Ok(None);
        };
        if h.len() < 2 || largest > u64::from(QUOTIENT_HEAPS) {
            return Ok(None);
        }
        // a small search gives the misère Grundy value as well: the quotient is for the rest
        if search::memory_bound(ruleset, p).is_some_and(|m| m <= u128::from(GRUNDY_SEARCH_BYTES)) {
            return Ok(None);
        }
        let largest = largest as u16;
        let known = self.quotients.get(code).map_or(0, Quotient::heaps);
        if known < largest {
            if self
                .quotients_past_reach
                .get(code)
                .is_some_and(|&bound| largest >= bound)
            {
                return Ok(None);
            }
            // a search within a small bound is tried first: where it fits it is quicker
            // than growing the quotient (0.07's to heap 33 takes seconds, and fails at 34),
            // and it gives the misère Grundy value as well; past the bound it stops early,
            // its memo kept
            let small = control.with_budget_at_most(FIRST_SEARCH_BYTES);
            self.touch(ruleset);
            let search = self
                .searches
                .entry(ruleset.clone())
                .or_insert_with(|| Search::new(ruleset.clone()));
            match search.value(p, &small) {
                Ok(v) => return Ok(Some(Answer::searched(v))),
                Err(SolveError::OverBudget { .. }) => {}
                Err(e) => return Err(e),
            }
            // a quotient past reach gives way to the search soon
            let limited = control.apart().with_budget_at_most(QUOTIENT_BYTES);
            // grown as far as it goes: the heaps below where it stopped answer from it, and the
            // heap it stopped at is past reach for any bound from there on; the job's progress
            // says which heap it has done (where no other part of the job names its own)
            let bound = largest.max(known);
            let (q, stopped) = if control.stage().is_empty() {
                misere_quotient::compute_as_far_as_named(code, bound, &limited, control)?
            } else {
                misere_quotient::compute_as_far_as(code, bound, &limited)?
            };
            if stopped.is_some() {
                let failed = q.heaps() + 1;
                let bound = self.quotients_past_reach.entry(code.clone()).or_insert(failed);
                *bound = (*bound).min(failed);
            }
            if q.heaps() > known {
                self.quotients.insert(code.clone(), q);
            }
        }
        let Some(q) = self.quotients.get(code) else {
            return Ok(None);
        };
        let Some(outcome) = q.outcome(h) else {
            return Ok(None);
        };
        let by = format!(
            "the misère quotient of octal({code}) for heaps up to {} ({} elements)",
            q.heaps(),
            q.size()
        );
        Ok(Some(Answer {
            grundy: None,
            infinite: None,
            outcome,
            method: ValueMethod::MisereQuotient,
            by,
        }))
    }

    /// One heap of a one-heap ruleset, read off its sequence: computed up to the heap (or to
    /// [`SEQUENCE_LEN`] for larger heaps, whose value a certified period then gives).
    pub(super) fn by_sequence(&mut self, ruleset: &Ruleset, n: u64, control: &Control) -> Result<Answer, SolveError> {
        self.touch(ruleset);
        let known = |c: &Computed| c.knows(n);
        if !self.sequences.get(ruleset).is_some_and(known) {
            // the longer sequence replaces the cached one
            self.sequences.remove(ruleset);
            // the prefix tried for a period: 2^20 values, fewer under a small budget
            let first = SEQUENCE_LEN.min(control.memory_budget() / 64).max(1024);
            let len = n.saturating_add(1).min(first);
            self.make_room(len.saturating_mul(12), control);
            // the fallback, without a period: every value up to the heap itself
            let needed = n.saturating_add(1).saturating_mul(12);
            // when that cannot be held, the period is the only way and its search is bounded
            // by work, so a code with none in reach is refused in a moment
            let allowance = (needed > control.memory_budget()).then_some(PERIOD_SEARCH_WORK);
            if allowance.is_some() && matches!(ruleset.base().0, Ruleset::Typed(_)) {
                // a typed rule (one that equals no built-in ruleset) has no certificate of a
                // period: nothing could stand for the values up to the heap
                return Err(SolveError::OverBudget {
                    what: format!(
                        "the value of heap {n} in {}: the values up to the heap (a typed rule's values have no certified period to stand for them)",
                        ruleset.short_text(60)
                    ),
                    needed,
                    budget: control.memory_budget(),
                });
            }
            let computed = match allowance {
                Some(_) if !ruleset.has_misere() => sequence::compute_within(ruleset, len, allowance, control),
                // a misère octal heap past a small search: its outcome by the misère quotient
                _ => sequence::compute_with_quotient(ruleset, len, control),
            };
            // a search refused is said for the heap asked, with why the quotient did not answer
            let mut c = computed.map_err(|e| {
                let for_heap = || crate::solver::cost::admit_sequence(ruleset, len, Some(n), control).err();
                match e {
                    SolveError::Cancelled => e,
                    SolveError::PastQuotient {
                        search,
                        reach,
                        quotient,
                    } => SolveError::PastQuotient {
                        search: for_heap().map_or(search, Box::new),
                        reach,
                        quotient,
                    },
                    e => for_heap().unwrap_or(e),
                }
            })?;
            if !c.knows(n) {
                let stopped = if (c.computed_len() as u64) < len {
                    format!(" (the search for a period stops after {PERIOD_SEARCH_WORK} steps)")
                } else {
                    String::new()
                };
                control.reserve(
                    format!(
                        "the value of heap {n} in {ruleset}: no period is certified in its first {} values{stopped}, and the values up to the heap",
                        c.computed_len()
                    ),
                    needed,
                )?;
                drop(c);
                self.make_room(needed, control);
                c = sequence::compute(ruleset, n.saturating_add(1), control)?;
            }
            self.sequences.insert(ruleset.clone(), c);
        }
        let c = &self.sequences[ruleset];
        if let (Some(outcome), Some(part)) = (c.outcome_only(n), &c.outcomes_only) {
            return Ok(Answer {
                grundy: None,
                infinite: None,
                outcome,
                method: ValueMethod::MisereQuotient,
                by: part.by.clone(),
            });
        }
        let v = c
            .get(n)
            .ok_or_else(|| SolveError::Unsupported(format!("{n} is not a position of {ruleset}")))?;
        if c.infinite.is_some()
            && let Some(g) = c.gamma(n)
        {
            let by = format!("the sequence G(0..{}) ({})", c.computed_len(), c.method.as_str());
            return Ok(Answer::of_gamma(g, ValueMethod::Loopy, by));
        }
        let computed = (n as usize) < c.computed_len();
        Ok(match (computed, c.periodicity) {
            (false, Some(per)) => Answer::value(
                v.into(),
                ValueMethod::ClosedForm,
                format!(
                    "the certified period {} (pre-period {}) of {ruleset}",
                    per.period, per.preperiod
                ),
            ),
            _ => Answer::value(
                v.into(),
                ValueMethod::Search,
                format!("the sequence G(0..{}) ({})", c.computed_len(), c.method.as_str()),
            ),
        })
    }
}
