//! Moves that grow without bound: a term without loops whose target adds a constant ≥ 0 to
//! each heap (more than 0 to some), and whose guards (and the rule's domain) read only the
//! heaps it leaves unchanged. Where it applies it applies again at the option it gives, so the
//! game from there never ends: `rule(n -> n + 1)` at any heap, `(a, b + 1) if a == 0` at every
//! (0, b). Found in microseconds, before a search fills its memory with the climb.

use super::super::program::{CCond, CExpr, Program, SLOTS, TargetKind};
use super::super::run::{self, position_text};
use super::affine::{NOTHING_KNOWN, affine};
use crate::game::quote::quoted;

/// A term that grows without bound where its guards hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pump {
    /// The term's index (from 0).
    pub term: usize,
    /// What it adds to each heap.
    pub adds: Vec<i128>,
}

/// Every slot a condition reads.
fn cond_slots(c: &CCond, out: &mut Vec<u8>) {
    fn expr_slots(e: &CExpr, out: &mut Vec<u8>) {
        match e {
            CExpr::Num(_) => {}
            CExpr::Slot(s) => out.push(*s),
            CExpr::Neg(a) => expr_slots(a, out),
            CExpr::Bin(_, a, b, _) | CExpr::AbsDiff(a, b) => {
                expr_slots(a, out);
                expr_slots(b, out);
            }
            CExpr::Call(_, args, _) => args.iter().for_each(|a| expr_slots(a, out)),
        }
    }
    match c {
        CCond::Compare(es, _) | CCond::Pred(_, es, _) => es.iter().for_each(|e| expr_slots(e, out)),
        CCond::And(cs) | CCond::Or(cs) => cs.iter().for_each(|c| cond_slots(c, out)),
        CCond::Not(c) => cond_slots(c, out),
    }
}

/// The terms of `program` that grow without bound where they apply.
pub fn pumps(program: &Program) -> Vec<Pump> {
    let mut out = Vec::new();
    for (t, term) in program.terms.iter().enumerate() {
        if !term.loops.is_empty() || term.comprehension {
            continue;
        }
        let single = term.kind != TargetKind::Collection || term.target.len() == 1;
        if !single || (program.arity == 1) != (term.target.len() == 1) {
            continue;
        }
        let adds: Option<Vec<i128>> = term
            .target
            .iter()
            .enumerate()
            .map(|(i, part)| {
                let a = affine(&part.expr, &NOTHING_KNOWN)?;
                let mut unit = [0i128; SLOTS];
                unit[i] = 1;
                (a.coef == unit && a.c >= 0).then_some(a.c)
            })
            .collect();
        let Some(adds) = adds else { continue };
        if adds.iter().all(|&c| c == 0) {
            continue;
        }
        let mut read = Vec::new();
        term.guards.iter().for_each(|g| cond_slots(g, &mut read));
        if let Some(d) = &program.domain {
            cond_slots(d, &mut read);
        }
        if read.iter().all(|&s| adds.get(s as usize).is_some_and(|&c| c == 0)) {
            out.push(Pump { term: t, adds });
        }
    }
    out
}

/// Why the game from `heaps` (a position of `program`; one heap of a one-heap rule) is not
/// finite, if one of `pumps` applies there.
pub fn grows_from(program: &Program, pumps: &[Pump], heaps: &[u64]) -> Option<String> {
    if pumps.is_empty() || !run::in_domain(program, heaps) {
        return None;
    }
    let mut env = [0i128; SLOTS];
    for (e, &h) in env.iter_mut().zip(heaps) {
        *e = i128::from(h);
    }
    for p in pumps {
        let term = &program.terms[p.term];
        if term.guards.iter().all(|g| matches!(run::holds(g, &env), Ok(true))) {
            let next: Vec<u64> = heaps
                .iter()
                .zip(&p.adds)
                .map(|(&h, &c)| h.saturating_add(c as u64))
                .collect();
            return Some(format!(
                "it grows without bound: term {}, {}, leads from {} to {} and applies again there, and so on forever",
                p.term + 1,
                quoted(&term.text),
                position_text(heaps),
                position_text(&next)
            ));
        }
    }
    None
}
