//! Values G(0..N) of one-heap rulesets, with the period and pre-period detected and certified.
//!
//! Certificates:
//! - a ruleset whose value at n depends only on the previous `M` values (subtraction games,
//!   octal games that never split, and push compounds of them whose pushes lead to certified
//!   periodic sequences) is periodic from `n0` with period `p` once `G(i + p) = G(i)` for `M`
//!   consecutive `i ≥ n0` (and `p` is a multiple of the pushes' periods, `n0` past their
//!   pre-periods): every later value is the same function of the same window;
//! - an octal game that splits heaps, under normal play, by the Guy–Smith periodicity theorem:
//!   if `G(n + p) = G(n)` for all `n0 ≤ n < 2·n0 + p + t` (t the largest number of tokens a move
//!   removes) then for all `n ≥ n0`; for hexadecimal games, whose moves may leave three heaps,
//!   the same argument needs `n0 ≤ n < 3·n0 + 2p + t` (every option of a heap of `N` has a part
//!   of at least `(N − t)/3`).
//!
//! Once certified, the computation stops: [`Computed`] answers every later heap from the
//! period, so `seq octal(0.07) --to 100000000` costs what the first few hundred values cost.
//! Splitting octal games are computed by [`super::octal`] (the rare/common method); Nim,
//! one-heap Zeruclid, Common Divisor Nim and the divisor game by their closed forms. Under
//! misère play a splitting octal game's heaps past a small search are answered by the misère
//! quotient, their outcome alone ([`compute_with_quotient`], in `by_quotient`).

mod by_quotient;
pub mod certificate;
mod collections;
mod dense;
mod fill;
mod window;
pub use by_quotient::{OutcomesOnly, compute_with_quotient, sequence_with_quotient, stream_with_quotient};
pub use certificate::Certificate;
pub use collections::{Collections, from_collections};
pub use dense::UNKNOWN;

/// Receives each value of a sequence as it is found (`None`: the heap is not a position), for
/// output that streams instead of waiting for the whole sequence.
pub type Sink<'a> = &'a mut dyn FnMut(u64, Option<u32>);

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use self::fill::{fill, fill_loopy};
use super::control::{Control, SolveError};
use super::octal::{self, OctalSequence};
use super::period::{NONE, Periodicity};
use crate::game::loopy::InfiniteSets;
use crate::game::{Gamma, Ruleset, has_sequence};

/// G(0..N) of a one-heap ruleset.
#[derive(Debug, Clone)]
pub struct Sequence {
    /// `None` where n is not a position (the divisor game has no heap 0).
    pub values: Vec<Option<u32>>,
    /// `Some` once a period is certified within the computed range (so for all n).
    pub periodicity: Option<Periodicity>,
    /// The heaps whose outcome alone is known (their `values` are `None`): by the misère
    /// quotient.
    pub outcomes_only: Option<OutcomesOnly>,
    /// For a game that loops: the sets of its infinite values, which `values` hold as codes
    /// ([`crate::game::loopy::cells`]).
    pub infinite: Option<Arc<InfiniteSets>>,
    /// The evidence of the period, as `seq --certificate` writes it (take-and-break codes and
    /// subtraction games under normal play; see [`Computed::certificate`]): the window shows
    /// "certified" from it.
    pub certificate: Option<Certificate>,
}

impl Sequence {
    /// The value of heap `n` as Smith's theory writes it (a Grundy value, or `∞(A)` in a game
    /// that loops); `None` where it is not known.
    pub fn gamma(&self, n: u64) -> Option<Gamma> {
        let v = (*self.values.get(usize::try_from(n).ok()?)?)?;
        Some(match &self.infinite {
            Some(t) => t.value(v),
            None => Gamma::Finite(u64::from(v)),
        })
    }

    /// The outcome of heap `n`: from its value, or from the quotient where only it is known;
    /// `None` where `n` is not a position.
    pub fn outcome(&self, n: u64) -> Option<crate::game::Outcome> {
        if self.infinite.is_some() {
            return self.gamma(n).map(|g| g.outcome());
        }
        match usize::try_from(n)
            .ok()
            .and_then(|i| self.values.get(i))
            .copied()
            .flatten()
        {
            Some(v) => Some(crate::game::Outcome::of(v)),
            None => self.outcomes_only.as_ref().and_then(|o| o.get(n)),
        }
    }
}

impl Sequence {
    /// G(0..n) of a sequence of at least `n` values, without computing again: its values up to
    /// `n`, the period it certified (a certificate holds for every heap), and the heaps known by
    /// their outcome alone below `n`.
    pub fn prefix(&self, n: usize) -> Sequence {
        let n = n.min(self.values.len());
        let outcomes_only = self.outcomes_only.as_ref().and_then(|o| {
            let keep = usize::try_from((n as u64).saturating_sub(o.from)).unwrap_or(usize::MAX);
            (keep > 0).then(|| OutcomesOnly {
                from: o.from,
                outcomes: o.outcomes[..keep.min(o.outcomes.len())].to_vec(),
                by: o.by.clone(),
            })
        });
        Sequence {
            values: self.values[..n].to_vec(),
            periodicity: self.periodicity,
            outcomes_only,
            // the codes of the values kept name the same sets
            infinite: self.infinite.clone(),
            // the period holds for every n, the evidence with it
            certificate: self.certificate.clone(),
        }
    }
}

/// How a sequence's values were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SequenceMethod {
    /// A closed form per heap (Nim, Zeruclid, Common Divisor Nim, the divisor game).
    ClosedForm,
    /// The mex over each heap's options, from the values before it.
    Fill,
    /// Splitting octal games: see [`super::octal::OctalMethod`].
    Octal(octal::OctalMethod),
    /// A memoised search per heap (compounds whose heaps split, Fibonacci Nim's fresh piles).
    Search,
    /// Smith's theory of games that loop: every position the heaps reach, labelled.
    Loopy,
}

impl SequenceMethod {
    /// The method's name as reports write it, e.g. `mex fill`.
    pub fn as_str(self) -> &'static str {
        match self {
            SequenceMethod::ClosedForm => "closed form",
            SequenceMethod::Fill => "mex fill",
            SequenceMethod::Octal(m) => m.as_str(),
            SequenceMethod::Search => "search",
            SequenceMethod::Loopy => "loopy labelling",
        }
    }
}

/// The computed part of a sequence: a prefix, and the period that gives every later value.
#[derive(Debug, Clone)]
pub struct Computed {
    /// G(0..len) (`NONE` where n is not a position), len ≤ the N asked for.
    values: Vec<u32>,
    /// The period and pre-period, when certified: they give every value past the prefix.
    pub periodicity: Option<Periodicity>,
    /// How many values were asked for.
    pub n: u64,
    /// How the values were computed.
    pub method: SequenceMethod,
    /// The octal engine's report (splitting octal games only).
    pub octal: Option<OctalSequence>,
    /// A closed form giving every value, instead of a prefix held in memory (Nim's G(n) = n:
    /// `seq nim --to 4294967296` holds nothing).
    formula: Option<fn(u64) -> Option<u32>>,
    /// The heaps after the values whose outcome alone is known (by the misère quotient).
    pub outcomes_only: Option<OutcomesOnly>,
    /// For a game that loops: the sets of its infinite values (the values hold codes).
    pub infinite: Option<Arc<InfiniteSets>>,
}

impl Computed {
    /// G(i) as Smith's theory writes it (a Grundy value, or `∞(A)` in a game that loops).
    pub fn gamma(&self, i: u64) -> Option<Gamma> {
        let v = self.get(i)?;
        Some(match &self.infinite {
            Some(t) => t.value(v),
            None => Gamma::Finite(u64::from(v)),
        })
    }

    /// G(i), for i below the N asked for, or any i once a period is certified; `None` where i
    /// is not a position or not known.
    pub fn get(&self, i: u64) -> Option<u32> {
        if let Some(f) = self.formula {
            return f(i);
        }
        let v = match usize::try_from(i).ok().and_then(|i| self.values.get(i)) {
            Some(&v) => v,
            None => {
                let p = self.periodicity?;
                let j = p.preperiod + (i - p.preperiod) % p.period;
                *self.values.get(j as usize)?
            }
        };
        (v != NONE).then_some(v)
    }

    /// Whether G(i) is known (computed, or given by the period), or its outcome alone.
    pub fn knows(&self, i: u64) -> bool {
        self.formula.is_some()
            || i < self.values.len() as u64
            || self.periodicity.is_some()
            || self.outcomes_only.as_ref().is_some_and(|o| o.get(i).is_some())
    }

    /// The outcome of heap `i` where only it is known (by the misère quotient).
    pub fn outcome_only(&self, i: u64) -> Option<crate::game::Outcome> {
        self.outcomes_only.as_ref()?.get(i)
    }

    /// How many values were computed (the rest follow from the period; a closed form gives
    /// all N asked for).
    pub fn computed_len(&self) -> usize {
        match self.formula {
            Some(_) => usize::try_from(self.n).unwrap_or(usize::MAX),
            None => self.values.len(),
        }
    }

    /// Memory held: the computed values and the octal engine's report.
    pub fn bytes(&self) -> u64 {
        let split = self.octal.as_ref().map_or(0, |o| {
            o.split.iter().map(|s| 64 + 24 * s.rare.len() as u64).sum::<u64>() + o.values.len() as u64 * 4
        });
        128 + 4 * self.values.capacity() as u64 + split
    }

    /// The certificate of the certified period, for a ruleset certificates are written for
    /// (take-and-break codes and subtraction games under normal play).
    pub fn certificate(&self, ruleset: &Ruleset) -> Option<Certificate> {
        let p = self.periodicity?;
        if self.formula.is_some() || ruleset.has_misere() || ruleset.push_count() > 0 {
            return None;
        }
        Certificate::new(
            ruleset,
            p,
            &crate::solver::octal::values_file::Values::U32(&self.values),
        )
    }

    /// G(0..N) as the window and the figures hold it.
    pub fn to_sequence(&self) -> Sequence {
        let n = self.n as usize;
        if self.formula.is_some() {
            return Sequence {
                values: (0..self.n).map(|i| self.get(i)).collect(),
                periodicity: None,
                outcomes_only: None,
                infinite: None,
                certificate: None,
            };
        }
        let mut values: Vec<Option<u32>> = Vec::with_capacity(n);
        values.extend(self.values.iter().take(n).map(|&v| (v != NONE).then_some(v)));
        if let Some(p) = self.periodicity {
            // the rest repeats the period: copy it forward
            let period = p.period as usize;
            while values.len() < n {
                values.push(values[values.len() - period]);
            }
        }
        values.resize(n, None);
        Sequence {
            values,
            periodicity: self.periodicity,
            outcomes_only: self.outcomes_only.clone(),
            infinite: self.infinite.clone(),
            // the ruleset is not known here: see `sequence_with_quotient`
            certificate: None,
        }
    }
}

/// Computes G(0..n) as a whole (for the window and the figures: small n).
pub fn sequence(ruleset: &Ruleset, n: u64, control: &Control) -> Result<Sequence, SolveError> {
    control.reserve(format!("{n} values of {ruleset}"), n.saturating_mul(8))?;
    Ok(compute(ruleset, n, control)?.to_sequence())
}

/// Computes G(0..n), stopping early once a period is certified.
pub fn compute(ruleset: &Ruleset, n: u64, control: &Control) -> Result<Computed, SolveError> {
    compute_within(ruleset, n, None, control)
}

/// [`compute`], where a splitting octal game gives up after `allowance` splits looked at
/// (see [`octal::octal_sequence_within`]): the prefix computed by then is returned, so
/// `computed_len()` may be less than `n` with no period.
pub fn compute_within(
    ruleset: &Ruleset,
    n: u64,
    allowance: Option<u64>,
    control: &Control,
) -> Result<Computed, SolveError> {
    compute_streaming(ruleset, n, allowance, control, None)
}

/// [`compute_within`], giving each value to `sink` as it is found where the ruleset's values
/// are found one by one (a mex fill, a search heap by heap); the caller reads the rest, if any,
/// from the result.
pub fn compute_streaming(
    ruleset: &Ruleset,
    n: u64,
    allowance: Option<u64>,
    control: &Control,
    sink: Option<Sink<'_>>,
) -> Result<Computed, SolveError> {
    if let Some(builtin) = super::equivalent::computed(ruleset) {
        return compute_streaming(&builtin, n, allowance, control, sink).map_err(|e| e.computed_as(&builtin));
    }
    if !has_sequence(ruleset) {
        return Err(SolveError::Unsupported(format!(
            "{ruleset} is not played on one heap; use grid for two heaps"
        )));
    }
    if ruleset.push_successors().len() > 64 {
        return Err(SolveError::Unsupported(format!(
            "{ruleset} nests more than 64 pushes; sequences take at most 64"
        )));
    }
    // heaps searched collection by collection: refused at once when they cannot fit
    super::cost::admit_sequence(ruleset, n, None, control)?;
    control.set_total(n);
    let c = match control.rules_within(|| fill(ruleset, n, allowance, control, &mut HashMap::new(), sink)) {
        // a typed rule whose moves loop: its heaps valued by Smith's theory
        Err(SolveError::Loops(_)) if ruleset.has_typed() => {
            return control.rules_within(|| fill_loopy(ruleset, n, control));
        }
        c => c?,
    };
    Ok(Rc::try_unwrap(c).unwrap_or_else(|c| (*c).clone()))
}

/// Refuses a prefix that outgrows the budget (checked as it grows: most sequences certify a
/// period long before N).
fn check_growth(ruleset: &Ruleset, len: usize, n: u64, control: &Control) -> Result<(), SolveError> {
    let needed = len as u64 * 4;
    if needed > control.memory_budget() {
        return Err(SolveError::OverBudget {
            what: format!("the values of {ruleset} up to {n}"),
            needed: n.saturating_mul(4),
            budget: control.memory_budget(),
        });
    }
    Ok(())
}

/// The refusal of a sequence whose length no memory holds.
fn too_long(ruleset: &Ruleset, n: u64, control: &Control) -> SolveError {
    SolveError::OverBudget {
        what: format!("{n} values of {ruleset}"),
        needed: u64::MAX,
        budget: control.memory_budget(),
    }
}

#[cfg(test)]
mod tests;
