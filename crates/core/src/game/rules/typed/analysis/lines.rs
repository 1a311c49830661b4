//! Nim and Wythoff written as typed rules, recognised term by term: each term of one loop must
//! give exactly one of the line families — a row (`(a - k, b)` for every 1 ≤ k ≤ a), a column,
//! the diagonal (`(a - k, b - k)` for every 1 ≤ k ≤ min(a, b)), or on one heap every smaller
//! heap — whatever its spelling (`(k, b) for k in 0..a`, `for k in 1..=a if k <= b`, …), by
//! the affine bounds of its range and guards: the greatest lower bound and the least upper
//! bound must be single affine forms that dominate the others coefficient by coefficient (so
//! on every position), and the target's values over them must be the family's, identically.

use super::super::program::{CLoop, CTerm, Program, TargetKind};
use super::Equivalent;
use super::affine::{Aff, NOTHING_KNOWN, affine, loop_bounds};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Every smaller value of heap `i`, the other heaps unchanged.
    Line(usize),
    /// `(a - d, b - d)` for every 1 ≤ d ≤ min(a, b).
    Diagonal,
}

/// The bounds of a term's one loop as forms in the heaps (unit divisors only), with the
/// dominant lower bound.
struct Span {
    lower: Aff,
    upper: Vec<Aff>,
}

fn span(l: &CLoop, heaps: &[u8]) -> Option<Span> {
    let b = loop_bounds(l, &NOTHING_KNOWN)?;
    if !b.other.is_empty() || b.lower.iter().chain(&b.upper).any(|&(f, d)| d != 1 || !f.only(heaps)) {
        return None;
    }
    let lowers: Vec<Aff> = b.lower.iter().map(|&(f, _)| f).collect();
    // the greatest lower bound: one that every other stays below on every position
    let lower = *lowers.iter().find(|g| lowers.iter().all(|h| h.below(g)))?;
    Some(Span {
        lower,
        upper: b.upper.iter().map(|&(f, _)| f).collect(),
    })
}

/// The least of `upper` when one dominates (is below every other).
fn least(upper: &[Aff]) -> Option<Aff> {
    upper.iter().find(|g| upper.iter().all(|h| g.below(h))).copied()
}

fn family(term: &CTerm, arity: usize) -> Option<Family> {
    if !term.guards.is_empty() || term.comprehension || term.loops.len() != 1 {
        return None;
    }
    if arity == 1 && term.kind == TargetKind::Tuple {
        return None;
    }
    let l = &term.loops[0];
    let k = l.slot as usize;
    let heaps: Vec<u8> = (0..arity as u8).collect();
    let s = span(l, &heaps)?;
    let parts: Vec<Aff> = term
        .target
        .iter()
        .map(|p| affine(&p.expr, &NOTHING_KNOWN))
        .collect::<Option<_>>()?;
    if parts.len() != arity {
        return None;
    }
    let mut with_k = parts.iter().enumerate().filter(|(_, p)| p.coef[k] != 0);
    let (i, first) = with_k.next()?;
    let unchanged = |j: usize| parts[j] == Aff::slot(j as u8);
    match with_k.next() {
        None => {
            // a line: heap i takes the values x = γk + A for k in [lower, upper], every other
            // heap unchanged; those values must be 0..=h_i − 1 exactly
            if !(0..arity).all(|j| j == i || unchanged(j)) {
                return None;
            }
            let gamma = first.coef[k];
            let rest = first.without(k as u8);
            let upper = least(&s.upper)?;
            let (lo, hi) = match gamma {
                1 => (rest.plus(s.lower)?, rest.plus(upper)?),
                -1 => (rest.minus(upper)?, rest.minus(s.lower)?),
                _ => return None,
            };
            let top = Aff::slot(i as u8).minus(Aff::constant(1))?;
            (lo == Aff::constant(0) && hi == top).then_some(Family::Line(i))
        }
        Some((j, second)) => {
            // the diagonal of two heaps: (a − d, b − d), d = k − c, d from 1 to min(a, b)
            if arity != 2 || with_k.next().is_some() || first.coef[k] != -1 || second.coef[k] != -1 {
                return None;
            }
            let c = first.without(k as u8).minus(Aff::slot(i as u8))?;
            if !c.is_constant() || second.without(k as u8).minus(Aff::slot(j as u8))? != c {
                return None;
            }
            let (a, b) = (Aff::slot(0).plus(c)?, Aff::slot(1).plus(c)?);
            let lower_ok = s.lower == Aff::constant(1).plus(c)?;
            let upper_ok =
                s.upper.contains(&a) && s.upper.contains(&b) && s.upper.iter().all(|h| a.below(h) || b.below(h));
            (lower_ok && upper_ok).then_some(Family::Diagonal)
        }
    }
}

/// Nim (one heap or two) or Wythoff, when every term is one of their families and each of
/// theirs is present.
pub fn equivalent(program: &Program) -> Option<Equivalent> {
    if program.domain.is_some() || program.arity > 2 || program.terms.is_empty() {
        return None;
    }
    let families: Vec<Family> = program
        .terms
        .iter()
        .map(|t| family(t, program.arity))
        .collect::<Option<_>>()?;
    let has = |f: Family| families.contains(&f);
    match program.arity {
        1 => has(Family::Line(0)).then_some(Equivalent::Nim),
        _ if has(Family::Line(0)) && has(Family::Line(1)) => Some(if has(Family::Diagonal) {
            Equivalent::Wythoff
        } else {
            Equivalent::Nim
        }),
        _ => None,
    }
}
