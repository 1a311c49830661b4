//! The fast path of an affine innermost loop: the range narrowed by integer arithmetic where
//! its guards hold, and the affine parts of the target emitted by adding their step.

use super::super::ast::CmpOp;
use super::super::numbers::{floor_div, floor_rem};
use super::super::program::{CLoop, CTerm, FastLoop};
use super::eval::{Env, eval, holds, operand};
use super::{RuleError, Run, Sink};

impl<S: Sink> Run<'_, S> {
    /// The values of `lo..=last` where the guards of an affine innermost loop hold, found by
    /// arithmetic: every guard evaluates (checked) at both ends, so on the whole range, and
    /// each is `lhs op rhs` with `lhs − rhs` affine in the loop variable. `None` when an end
    /// fails: the loop then runs over the whole range, value by value.
    pub(super) fn narrow(
        &self,
        fast: &FastLoop,
        l: &CLoop,
        env: &mut Env,
        lo: i128,
        last: i128,
    ) -> Option<(i128, i128)> {
        let slot = l.slot as usize;
        for end in [lo, last] {
            env[slot] = end;
            if l.guards.iter().any(|g| holds(g, env).is_err()) {
                return None;
            }
        }
        let (mut from, mut to) = (lo, last);
        for c in &fast.constraints {
            env[slot] = lo;
            let d0 = eval(&c.lhs, env).ok()?.checked_sub(eval(&c.rhs, env).ok()?)?;
            let slope = if last > lo {
                env[slot] = last;
                let d1 = eval(&c.lhs, env).ok()?.checked_sub(eval(&c.rhs, env).ok()?)?;
                let span = last - lo;
                let rise = d1.checked_sub(d0)?;
                if floor_rem(rise, span)? != 0 {
                    return None;
                }
                floor_div(rise, span)?
            } else {
                0
            };
            // d(v) = d0 + slope·(v − lo); keep the v where d(v) op 0
            let (a, b) = solve(d0, slope, c.op, lo);
            from = from.max(a);
            to = to.min(b);
        }
        Some((from, to))
    }

    /// The fast path over `lo..=last`, where every guard holds; `Ok(false)` when it does not
    /// apply here (an end of the target is not a heap), so the caller runs the loop value by
    /// value.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fast(
        &mut self,
        t: usize,
        term: &CTerm,
        fast: &FastLoop,
        l: &CLoop,
        env: &mut Env,
        lo: i128,
        last: i128,
    ) -> Result<bool, RuleError> {
        let slot = l.slot as usize;
        let count = (last - lo) as u128 + 1;
        // every value is an option: more than the cap is certain
        if u128::from(self.options) + count > u128::from(self.max_options) {
            return Err(self.too_many(t, term, Some(u128::from(self.options) + count)));
        }
        // the affine parts at both ends, checked heaps; the steps between them exact
        let n = term.target.len();
        let mut start = [0u64; 16];
        let mut step = [0u64; 16];
        for (i, part) in term.target.iter().enumerate() {
            if !fast.affine[i] {
                continue;
            }
            env[slot] = lo;
            let Ok(a) = operand(&part.expr, env) else {
                return Ok(false);
            };
            env[slot] = last;
            let Ok(b) = operand(&part.expr, env) else {
                return Ok(false);
            };
            // both ends heaps: so is every value between (the part is monotone)
            let (Ok(a64), Ok(_)) = (u64::try_from(a), u64::try_from(b)) else {
                return Ok(false);
            };
            start[i] = a64;
            if last > lo {
                let span = last - lo;
                let (Some(0), Some(q)) = (floor_rem(b - a, span), floor_div(b - a, span)) else {
                    return Ok(false);
                };
                // two's complement: adding a negative step wraps to the exact value
                step[i] = q as u64;
            }
        }
        let all_affine = fast.affine.iter().all(|&a| a);
        if all_affine && (1..=4).contains(&n) && self.program.domain.is_none() && self.fast_ok {
            // the steps and options were admitted above: hand them over with nothing else
            // to check
            self.step(t, term, count as u64)?;
            self.options += count as u64;
            match n {
                1 => emit_steps::<1, S>(self.sink, t, &start, &step, count),
                2 => emit_steps::<2, S>(self.sink, t, &start, &step, count),
                3 => emit_steps::<3, S>(self.sink, t, &start, &step, count),
                _ => emit_steps::<4, S>(self.sink, t, &start, &step, count),
            }
            return Ok(true);
        }
        let mut v = lo;
        let mut parts = start;
        loop {
            self.step(t, term, 1)?;
            env[slot] = v;
            self.parts.clear();
            for (i, part) in term.target.iter().enumerate() {
                if fast.affine[i] {
                    self.parts.push(parts[i]);
                } else {
                    let x = eval(&part.expr, env).map_err(|f| self.arithmetic(t, term, f, env, term.loops.len()))?;
                    let h = self.heap(t, term, part, 0, x, env)?;
                    self.parts.push(h);
                }
            }
            self.emit(t, term, env)?;
            if v == last {
                return Ok(true);
            }
            v += 1;
            for i in 0..n {
                parts[i] = parts[i].wrapping_add(step[i]);
            }
        }
    }
}

/// Hands `count` options to the sink, the first `start` and each the last plus `step`, with
/// `N` parts (a width known at compile time, so the loop is a few adds).
#[inline]
fn emit_steps<const N: usize, S: Sink>(sink: &mut S, term: usize, start: &[u64; 16], step: &[u64; 16], count: u128) {
    let mut parts: [u64; N] = std::array::from_fn(|i| start[i]);
    let step: [u64; N] = std::array::from_fn(|i| step[i]);
    for _ in 0..count {
        sink.option(term, &parts);
        for i in 0..N {
            parts[i] = parts[i].wrapping_add(step[i]);
        }
    }
}

/// The integers v ≥ lo with d0 + slope·(v − lo) op 0, as an interval (possibly empty).
fn solve(d0: i128, slope: i128, op: CmpOp, lo: i128) -> (i128, i128) {
    const ALL: (i128, i128) = (i128::MIN, i128::MAX);
    const NONE: (i128, i128) = (1, 0);
    // b > 0 in every use: the floor, by the 64-bit division where the numbers allow
    let floor_div = |a: i128, b: i128| floor_div(a, b).unwrap_or_else(|| a.div_euclid(b));
    // d(v) < 0 ⇔ d(v) ≤ −1, so every comparison is some bound on d(v) ≤ c or d(v) ≥ c
    let le = |c: i128| -> (i128, i128) {
        // d0 + s·t ≤ c, t = v − lo
        if slope == 0 {
            if d0 <= c { ALL } else { NONE }
        } else if slope > 0 {
            (i128::MIN, lo.saturating_add(floor_div(c.saturating_sub(d0), slope)))
        } else {
            (lo.saturating_sub(floor_div(c.saturating_sub(d0), -slope)), i128::MAX)
        }
    };
    let ge = |c: i128| -> (i128, i128) {
        if slope == 0 {
            if d0 >= c { ALL } else { NONE }
        } else if slope > 0 {
            (lo.saturating_sub(floor_div(d0.saturating_sub(c), slope)), i128::MAX)
        } else {
            (i128::MIN, lo.saturating_add(floor_div(d0.saturating_sub(c), -slope)))
        }
    };
    let meet = |a: (i128, i128), b: (i128, i128)| (a.0.max(b.0), a.1.min(b.1));
    match op {
        CmpOp::Lt => le(-1),
        CmpOp::Le => le(0),
        CmpOp::Gt => ge(1),
        CmpOp::Ge => ge(0),
        CmpOp::Eq => meet(le(0), ge(0)),
        CmpOp::Ne => ALL,
    }
}
