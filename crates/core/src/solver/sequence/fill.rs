//! How a sequence's values are found: the choice of method for a ruleset (closed form, the
//! octal engine, a typed rule's fill, the mex fill of `window`, a search heap by heap,
//! Smith's labelling for games that loop), and the budget checks they share.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use super::window::fill_window;
use super::{Computed, SequenceMethod, Sink, from_collections};
use crate::game::loopy::InfiniteSets;
use crate::game::{Position, Ruleset, Shape, theory};
use crate::solver::control::{Control, SolveError};
use crate::solver::octal;
use crate::solver::period::{Memory, NONE};
use crate::solver::search::Search;

/// G(0..n) of a one-heap ruleset that loops: every position the heaps reach, labelled.
pub(super) fn fill_loopy(ruleset: &Ruleset, n: u64, control: &Control) -> Result<Computed, SolveError> {
    let len = usize::try_from(n).map_err(|_| too_long(ruleset, n, control))?;
    check_growth(ruleset, len, n, control)?;
    let heap = |i: u64| Position::Heaps(vec![i]);
    let starts: Vec<Position> = (0..n).map(heap).filter(|p| ruleset.check_position(p).is_ok()).collect();
    let solved = crate::solver::loopy::solve(ruleset, starts, control)?;
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
pub(super) fn check_growth(ruleset: &Ruleset, len: usize, n: u64, control: &Control) -> Result<(), SolveError> {
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
pub(super) fn fill(
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

pub(super) fn too_long(ruleset: &Ruleset, n: u64, control: &Control) -> SolveError {
    SolveError::OverBudget {
        what: format!("{n} values of {ruleset}"),
        needed: u64::MAX,
        budget: control.memory_budget(),
    }
}

/// The closed form of a one-heap leaf under normal play, where the theory gives one (each is
/// checked against the plain search in the sequence's tests).
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
/// n ≥ 2 reaches both and every 2 ≤ m < n (value n). Checked against the plain search in the
/// sequence's tests.
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
    crate::solver::cost::admit_typed_fill(rule, &far, u128::from(n - n / 2), &|| {
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
