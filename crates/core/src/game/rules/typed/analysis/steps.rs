//! Which heaps a rule can always lower by one, the others unchanged: then a memoised search
//! from a position meets every position below it in those heaps (by unit steps in any order),
//! which is a certain lower bound on its cost (subtract-a-square from 2^32 meets 2^32 + 1
//! heaps, whatever order it takes them in). Proved on a box of positions by interval
//! arithmetic: the step's guards hold and its loop's range holds the value 1 on the whole box.

use super::super::estimate::{Interval, interval};
use super::super::program::{CCond, CSource, CTerm, Program, SLOTS};
use super::affine::{Aff, Known, NOTHING_KNOWN, affine};

/// Whether `c` holds everywhere `env`'s intervals allow.
fn always(c: &CCond, env: &[Interval; SLOTS]) -> bool {
    match c {
        CCond::Compare(es, ops) => ops.iter().enumerate().all(|(i, op)| {
            let (Some(a), Some(b)) = (interval(&es[i], env), interval(&es[i + 1], env)) else {
                return false;
            };
            use crate::game::rules::typed::ast::CmpOp::*;
            match op {
                Lt => a.1 < b.0,
                Le => a.1 <= b.0,
                Gt => a.0 > b.1,
                Ge => a.0 >= b.1,
                Eq => a.0 == a.1 && b.0 == b.1 && a.0 == b.0,
                Ne => a.1 < b.0 || b.1 < a.0,
            }
        }),
        CCond::And(cs) => cs.iter().all(|c| always(c, env)),
        CCond::Or(cs) => cs.iter().any(|c| always(c, env)),
        _ => false,
    }
}

/// Whether `term` lowers heap `i` by one, the other heaps unchanged, at every position of
/// the box `heaps` whose heap `i` is at least 1.
fn steps_down(term: &CTerm, arity: usize, i: usize, heaps: &[Interval]) -> bool {
    if term.comprehension || term.target.len() != arity || term.loops.len() > 1 {
        return false;
    }
    let mut env = [(0i128, 0i128); SLOTS];
    env[..heaps.len()].copy_from_slice(heaps);
    env[i].0 = env[i].0.max(1);
    if env[i].0 > env[i].1 || !term.guards.iter().all(|g| always(g, &env)) {
        return false;
    }
    let mut known: Known = NOTHING_KNOWN;
    if let Some(l) = term.loops.first() {
        let CSource::Range { lo, hi, inclusive } = &l.source else {
            return false;
        };
        let (Some(lo), Some(hi)) = (interval(lo, &env), interval(hi, &env)) else {
            return false;
        };
        let last = if *inclusive { hi.0 } else { hi.0 - 1 };
        // the value 1 is in every range of the box, and passes the loop's guards
        env[l.slot as usize] = (1, 1);
        if lo.1 > 1 || last < 1 || !l.guards.iter().all(|g| always(g, &env)) {
            return false;
        }
        known[l.slot as usize] = Some(1);
    }
    term.target.iter().enumerate().all(|(j, part)| {
        let want = Aff::slot(j as u8);
        let want = if j == i {
            want.minus(Aff::constant(1))
        } else {
            Some(want)
        };
        affine(&part.expr, &known).is_some_and(|a| Some(a) == want)
    })
}

/// For each heap, whether some term lowers it by one at every position of the box `heaps`
/// (each heap an interval) where it is at least 1, the other heaps unchanged.
pub fn unit_steps(program: &Program, heaps: &[Interval]) -> Vec<bool> {
    (0..program.arity)
        .map(|i| program.domain.is_none() && program.terms.iter().any(|t| steps_down(t, program.arity, i, heaps)))
        .collect()
}
