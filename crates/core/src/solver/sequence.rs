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

use super::control::{Control, SolveError};
use super::octal::{self, OctalSequence};
use super::period::Periodicity;
use super::period::{Memory, NONE, certify, lcm};
use super::search::Search;
use crate::game::loopy::InfiniteSets;
use crate::game::rules::one_heap::OctalOption;
use crate::game::{Gamma, MexSet, Position, Ruleset, Shape, has_sequence, theory};

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
        return compute_streaming(&builtin, n, allowance, control, sink);
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

/// G(0..n) of a one-heap ruleset that loops: every position the heaps reach, labelled.
fn fill_loopy(ruleset: &Ruleset, n: u64, control: &Control) -> Result<Computed, SolveError> {
    let len = usize::try_from(n).map_err(|_| too_long(ruleset, n, control))?;
    check_growth(ruleset, len, n, control)?;
    let heap = |i: u64| Position::Heaps(vec![i]);
    let starts: Vec<Position> = (0..n).map(heap).filter(|p| ruleset.check_position(p).is_ok()).collect();
    let solved = super::loopy::solve(ruleset, starts, control)?;
    let mut table = InfiniteSets::default();
    let mut values = Vec::with_capacity(len);
    for i in 0..n {
        values.push(match solved.get(&heap(i)) {
            Some(g) => table.code(&g).ok_or_else(|| {
                SolveError::Unsupported(format!(
                    "{ruleset} has more distinct infinite values than a sequence holds"
                ))
            })?,
            None => NONE,
        });
    }
    Ok(Computed {
        values,
        periodicity: None,
        n,
        method: SequenceMethod::Loopy,
        octal: None,
        formula: None,
        outcomes_only: None,
        infinite: Some(Arc::new(table)),
    })
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

/// G(0..n) of `ruleset`; the sequences of its push successors are computed once each (a nested
/// push compound reaches the same successors along many paths).
fn fill(
    ruleset: &Ruleset,
    n: u64,
    allowance: Option<u64>,
    control: &Control,
    memo: &mut HashMap<Ruleset, Rc<Computed>>,
    sink: Option<Sink<'_>>,
) -> Result<Rc<Computed>, SolveError> {
    if let Some(c) = memo.get(ruleset) {
        return Ok(c.clone());
    }
    let mut extras = Vec::new();
    for s in ruleset.push_successors() {
        // a push's successors in full: the compound reads their values up to n
        extras.push(fill(&s, n, None, control, memo, None)?);
    }
    let (base, misere) = ruleset.base();
    let plain_leaf = extras.is_empty() && !misere;
    let done = |c: Computed, memo: &mut HashMap<Ruleset, Rc<Computed>>| {
        let c = Rc::new(c);
        memo.insert(ruleset.clone(), c.clone());
        Ok(c)
    };
    let closed = match (extras.is_empty(), misere) {
        (true, false) => closed_form_leaf(base),
        (true, true) => closed_form_misere_leaf(base),
        _ => None,
    };
    if let Some(formula) = closed {
        // nothing is held: each value is the formula's, when it is printed or asked
        control.add_done(n);
        return done(
            Computed {
                values: Vec::new(),
                periodicity: None,
                n,
                method: SequenceMethod::ClosedForm,
                octal: None,
                formula: Some(formula),
                outcomes_only: None,
                infinite: None,
            },
            memo,
        );
    }
    if plain_leaf
        && let Ruleset::Typed(rule) = base
        && let Some(c) = fill_typed(ruleset, rule, n, control)?
    {
        return done(c, memo);
    }
    if plain_leaf
        && let Ruleset::Octal(code) = base
        && code.splits()
    {
        let mut o = octal::octal_sequence_within(code, n, allowance, control)?;
        return done(
            Computed {
                // the values are kept once, here; the report keeps the rest
                values: std::mem::take(&mut o.values),
                periodicity: o.periodicity,
                n,
                method: SequenceMethod::Octal(o.method),
                octal: Some(o),
                formula: None,
                outcomes_only: None,
                infinite: None,
            },
            memo,
        );
    }
    let memory = match base {
        Ruleset::Subtraction(s) => Memory::Window(s.largest()),
        Ruleset::Tag(k) => Memory::Window(*k),
        Ruleset::Nim | Ruleset::Zeruclid | Ruleset::Cdn | Ruleset::Divisor => Memory::Unbounded,
        Ruleset::Octal(code) if !code.splits() => Memory::Window(code.max_take()),
        // a split heap is a collection: with a push or misère play its value is not a nim-sum;
        // Fibonacci Nim's fresh piles are not one heap of one game either
        _ => return done(fill_by_search(ruleset, n, control, sink)?, memo),
    };
    done(
        fill_window(ruleset, base, misere, memory, &extras, n, control, sink)?,
        memo,
    )
}

fn too_long(ruleset: &Ruleset, n: u64, control: &Control) -> SolveError {
    SolveError::OverBudget {
        what: format!("{n} values of {ruleset}"),
        needed: u64::MAX,
        budget: control.memory_budget(),
    }
}

/// The closed form of a one-heap leaf under normal play, where the theory gives one (each is
/// checked against the plain search in the tests below).
fn closed_form_leaf(base: &Ruleset) -> Option<fn(u64) -> Option<u32>> {
    Some(match base {
        // Nim: a heap of n moves to every smaller heap (`seq` stops at 2^32 values, so every
        // value it prints fits)
        Ruleset::Nim => |n| u32::try_from(n).ok(),
        // one Zeruclid heap n > 0 has the single move to 0
        Ruleset::Zeruclid => |n| Some(u32::from(n > 0)),
        Ruleset::Cdn => |n| Some(theory::cdn_grundy(&[n]) as u32),
        Ruleset::Divisor => |n| (n != 0).then(|| theory::divisor_grundy(n) as u32),
        _ => return None,
    })
}

/// The closed form of a one-heap leaf under misère play, where the theory gives one: misère
/// Nim's heap of 0 is terminal (value 1), a heap of 1 moves only there (value 0), and a heap of
/// n ≥ 2 reaches both and every 2 ≤ m < n (value n). Checked against the plain search below.
fn closed_form_misere_leaf(base: &Ruleset) -> Option<fn(u64) -> Option<u32>> {
    Some(match base {
        Ruleset::Nim => |n| match n {
            0 => Some(1),
            1 => Some(0),
            n => u32::try_from(n).ok(),
        },
        _ => return None,
    })
}

/// The mex fill over each heap's options (subtraction, tag, non-splitting octal codes, and any
/// one-heap ruleset with pushes or misère play), certified by the window argument.
#[expect(clippy::too_many_arguments, reason = "the fill's inputs, each used once")]
fn fill_window(
    ruleset: &Ruleset,
    base: &Ruleset,
    misere: bool,
    memory: Memory,
    extras: &[Rc<Computed>],
    n: u64,
    control: &Control,
    mut sink: Option<Sink<'_>>,
) -> Result<Computed, SolveError> {
    let terminal = u32::from(misere);
    // Pushes' periods: the window certificate needs p to be a multiple and n0 past them.
    let mut ext_period = 1u64;
    let mut ext_pre = 0u64;
    let mut memory = memory;
    for e in extras {
        match e.periodicity {
            Some(p) => {
                ext_period = lcm(ext_period, p.period);
                ext_pre = ext_pre.max(p.preperiod);
            }
            None => memory = Memory::Unbounded,
        }
    }
    let len = usize::try_from(n).map_err(|_| too_long(ruleset, n, control))?;
    let mut values: Vec<u32> = Vec::new();
    let mut seen = MexSet::new();
    let mut ones = Vec::new();
    let mut octal = Vec::new();
    // Nim's options are every smaller heap: keep the values seen so far instead of rescanning
    let mut all_before = MexSet::new();
    let mut nim_mex = 0u32;
    let mut next_check = 64usize;
    let mut periodicity = None;
    for i in 0..len {
        if i % 4096 == 0 {
            control.check()?;
            control.add_done(4096.min((len - i) as u64));
            check_growth(ruleset, i + 4096, n, control)?;
        }
        let heap = i as u64;
        let ext: Vec<u32> = extras.iter().map(|e| e.get(heap).unwrap_or(NONE)).collect();
        let valid = !(ext.contains(&NONE) || matches!(base, Ruleset::Divisor) && heap == 0);
        let v = if !valid {
            NONE
        } else if matches!(base, Ruleset::Nim) {
            // the values before only grow, so their mex never falls: resume from the last one
            // instead of scanning from 0 (which made push(nim,…) sequences quadratic)
            while all_before.contains(nim_mex) {
                nim_mex += 1;
            }
            let mut v = nim_mex;
            // the mex of everything before together with the pushes' values
            while ext.contains(&v) || all_before.contains(v) {
                v += 1;
            }
            if heap == 0 && ext.is_empty() { terminal } else { v }
        } else {
            seen.clear();
            let mut has_option = !ext.is_empty();
            ext.iter().for_each(|&e| seen.insert(e));
            if let Ruleset::Octal(code) = base {
                octal.clear();
                code.options(heap, &mut octal);
                for o in &octal {
                    has_option = true;
                    seen.insert(match *o {
                        OctalOption::Gone => values[0],
                        OctalOption::One(x) => values[x as usize],
                        // never reached: splitting codes are computed elsewhere
                        OctalOption::Two(..) | OctalOption::Three(..) => NONE,
                    });
                }
            } else {
                ones.clear();
                one_heap_options(base, heap, &mut ones);
                for &x in &ones {
                    has_option = true;
                    seen.insert(values[x as usize]);
                }
            }
            if has_option { seen.mex() } else { terminal }
        };
        values.push(v);
        if let Some(s) = sink.as_mut() {
            s(heap, (v != NONE).then_some(v));
        }
        if v != NONE {
            all_before.insert(v);
        }
        let done = i + 1;
        if done == next_check || done == len {
            next_check *= 2;
            if let Some(p) = certify(&values, memory, ext_period, ext_pre) {
                periodicity = Some(p);
                break;
            }
        }
    }
    Ok(Computed {
        values,
        periodicity,
        n,
        method: SequenceMethod::Fill,
        octal: None,
        formula: None,
        outcomes_only: None,
        infinite: None,
    })
}

/// Options of the non-octal one-heap leaves, as heap sizes.
fn one_heap_options(base: &Ruleset, n: u64, out: &mut Vec<u64>) {
    match base {
        Ruleset::Subtraction(s) => crate::game::rules::one_heap::subtraction_options(s, n, out),
        Ruleset::Tag(k) => out.extend((1..=(*k).min(n)).map(|s| n - s)),
        Ruleset::Divisor => crate::game::rules::one_heap::divisor_options(n, out),
        Ruleset::Nim => out.extend(0..n),
        Ruleset::Zeruclid => out.extend((n > 0).then_some(0)),
        Ruleset::Cdn => out.extend(crate::game::rules::heaps::divisors(n).into_iter().map(|d| n - d)),
        _ => {}
    }
}

/// A typed one-heap rule under normal play: G(n) is the mex over its options of the nim-sum of
/// their heaps' values. `None` when an option holds a heap as large as the one it came from
/// (the game may not be finite): the search, which finds cycles, takes over.
fn fill_typed(
    ruleset: &Ruleset,
    rule: &crate::game::rules::typed::TypedRule,
    n: u64,
    control: &Control,
) -> Result<Option<Computed>, SolveError> {
    let len = usize::try_from(n).map_err(|_| too_long(ruleset, n, control))?;
    // the heaps of the last half, each at least the rule's cost at the least of them
    let far = [(i128::from(n / 2), i128::from(n.saturating_sub(1)))];
    super::cost::admit_typed_fill(rule, &far, u128::from(n - n / 2), &|| {
        format!(
            "the values of {} up to heap {}",
            ruleset.short_text(60),
            n.saturating_sub(1)
        )
    })?;
    let values = from_collections(len, control, |heap, options| {
        if !rule.in_domain(&[heap]) {
            return Ok(false);
        }
        rule.options(&[heap], &mut |_: usize, parts: &[u64]| options.option(parts))?;
        Ok(true)
    })
    .map_err(|e| match e {
        // named as check_growth names the other sequences
        SolveError::OverBudget { needed, budget, .. } => SolveError::OverBudget {
            what: format!("the values of {ruleset} up to {n}"),
            needed,
            budget,
        },
        e => e,
    })?;
    Ok(values.map(|values| Computed {
        values,
        periodicity: None,
        n,
        method: SequenceMethod::Fill,
        octal: None,
        formula: None,
        outcomes_only: None,
        infinite: None,
    }))
}

/// A one-heap ruleset without a fast fill: a memoised search per heap.
fn fill_by_search(
    ruleset: &Ruleset,
    n: u64,
    control: &Control,
    mut sink: Option<Sink<'_>>,
) -> Result<Computed, SolveError> {
    let mut search = Search::new(ruleset.clone());
    let mut values = Vec::new();
    for i in 0..n {
        check_growth(ruleset, values.len() + 1, n, control)?;
        let p = match ruleset.shape() {
            Shape::Fibonacci => Position::fresh_fib(i),
            _ => Position::Heaps(vec![i]),
        };
        values.push(match ruleset.check_position(&p) {
            // named as asked: the sequence, not the heap the search had reached
            Ok(()) => search.value(&p, control).map_err(|e| match e {
                SolveError::OverBudget { needed, budget, .. } => SolveError::OverBudget {
                    what: format!(
                        "the values of {ruleset} up to heap {} (searched heap by heap, at heap {i})",
                        n - 1
                    ),
                    needed,
                    budget,
                },
                e => e,
            })?,
            Err(_) => NONE,
        });
        if let Some(s) = sink.as_mut() {
            let v = values[values.len() - 1];
            s(i, (v != NONE).then_some(v));
        }
        control.add_done(1);
    }
    Ok(Computed {
        values,
        periodicity: None,
        n,
        method: SequenceMethod::Search,
        octal: None,
        formula: None,
        outcomes_only: None,
        infinite: None,
    })
}

#[cfg(test)]
mod tests;
