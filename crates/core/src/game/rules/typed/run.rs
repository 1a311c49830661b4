//! Evaluates a compiled rule at one position, handing each option to a sink with no allocation
//! per option. Arithmetic is checked: a value below zero, past 2^64 − 1 or a division by zero
//! is an error naming the term, the part of it that failed, the bindings and the position.
//!
//! A term's innermost loop takes the fast path when [`super::program`] found it affine: every
//! guard is evaluated (checked) at both ends of the range, which proves it error-free on the
//! whole range (each node of an affine expression is monotone in the loop variable), then the
//! guards narrow the range by integer arithmetic, and the affine parts of the target are
//! emitted by adding their step. Otherwise, and whenever an end fails, the loop runs value by
//! value, which is the definition the fast path must agree with (tested in `super::tests`).

use super::ast::{BinOp, CmpOp, Func};
use super::program::{CCond, CExpr, CLoop, CSource, CTerm, FastLoop, Program, SLOTS, TargetKind};
use crate::game::quote::quoted;

/// Most options one position may have, and most loop steps spent to find them.
pub const MAX_OPTIONS: u64 = 1 << 24;
/// Most loop steps one position may spend finding its options.
pub const MAX_STEPS: u64 = 1 << 27;

/// Receives the options of a position: the term that made each, and its heaps (a position of
/// two or three heaps; for a one-heap rule, the heaps of the collection, possibly none).
pub trait Sink {
    /// One option: `term` is the index (from 0) of the term that made it, `heaps` its heaps.
    fn option(&mut self, term: usize, heaps: &[u64]);

    /// The option with the values of the term's loop variables (in the order of its `for`
    /// clauses); only [`explain`] fills them in.
    fn option_bound(&mut self, term: usize, heaps: &[u64], loops: &[u64]) {
        let _ = loops;
        self.option(term, heaps);
    }
}

impl<F: FnMut(usize, &[u64])> Sink for F {
    fn option(&mut self, term: usize, heaps: &[u64]) {
        self(term, heaps)
    }
}

/// Why a rule could not give the options of a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// An operation went below zero, past 2^64 − 1, or divided by zero.
    #[error("term {term} of the rule, {}, at {position} ({bindings}): {what}", quoted(.text))]
    Arithmetic {
        /// The term, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The part that failed and how, e.g. `n - 2 goes below zero (1 - 2)`.
        what: String,
        /// The heap names and loop variables bound, e.g. `n = 1, k = 3`.
        bindings: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
    },
    #[error(
        "{position} has more than {limit} options (term {term}, {}); the rule gives too many options at this position",
        quoted(.text)
    )]
    /// The position has more than [`MAX_OPTIONS`] options.
    TooManyOptions {
        /// The term that made the option over the limit, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
        /// The limit, [`MAX_OPTIONS`].
        limit: u64,
    },
    /// The term runs more than [`MAX_STEPS`] loop steps at the position.
    #[error("term {term} of the rule, {}, runs more than {limit} loop steps at {position}; narrow its ranges", quoted(.text))]
    TooManySteps {
        /// The term, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
        /// The limit, [`MAX_STEPS`].
        limit: u64,
    },
    #[error(
        "term {term} of the rule, {}, leads from {position} to {option}, which is not a position of the rule (its 'if' after the heaps says so)",
        quoted(.text)
    )]
    /// The term leads to a position the rule's domain (`if` after the heaps) excludes.
    OutsideDomain {
        /// The term, counted from 1.
        term: usize,
        /// The term's canonical text.
        text: String,
        /// The position, e.g. `heap 1` or `(3, 5)`.
        position: String,
        /// The option outside the domain, in the same form.
        option: String,
    },
}

/// A failed operation: which node (its text's index) and what went wrong.
#[derive(Debug, Clone, Copy)]
pub struct Fault {
    node: u32,
    op: FaultKind,
    a: u64,
    b: u64,
}

#[derive(Debug, Clone, Copy)]
enum FaultKind {
    BelowZero,
    Overflow,
    DivByZero,
}

type Env = [u64; SLOTS];

/// A leaf's value without a call (most operands are names and numbers).
#[inline(always)]
fn operand(e: &CExpr, env: &Env) -> Result<u64, Fault> {
    match e {
        CExpr::Num(n) => Ok(*n),
        CExpr::Slot(s) => Ok(env[*s as usize]),
        other => eval(other, env),
    }
}

/// The value of `e` with the slots bound as in `env`; a [`Fault`] on checked arithmetic failing.
pub fn eval(e: &CExpr, env: &Env) -> Result<u64, Fault> {
    match e {
        CExpr::Num(n) => Ok(*n),
        CExpr::Slot(s) => Ok(env[*s as usize]),
        CExpr::Bin(op, a, b, node) => {
            let (x, y) = (operand(a, env)?, operand(b, env)?);
            let fault = |op| Fault {
                node: *node,
                op,
                a: x,
                b: y,
            };
            match op {
                BinOp::Add => x.checked_add(y).ok_or_else(|| fault(FaultKind::Overflow)),
                BinOp::Sub => x.checked_sub(y).ok_or_else(|| fault(FaultKind::BelowZero)),
                BinOp::Mul => x.checked_mul(y).ok_or_else(|| fault(FaultKind::Overflow)),
                BinOp::Div => x.checked_div(y).ok_or_else(|| fault(FaultKind::DivByZero)),
                BinOp::Rem => x.checked_rem(y).ok_or_else(|| fault(FaultKind::DivByZero)),
            }
        }
        CExpr::Call(f, args, _) => {
            let first = eval(&args[0], env)?;
            match f {
                Func::Isqrt => Ok(first.isqrt()),
                Func::Min | Func::Max | Func::Gcd => {
                    let mut acc = first;
                    for a in &args[1..] {
                        let v = eval(a, env)?;
                        acc = match f {
                            Func::Min => acc.min(v),
                            Func::Max => acc.max(v),
                            _ => gcd(acc, v),
                        };
                    }
                    Ok(acc)
                }
            }
        }
        CExpr::AbsDiff(a, b) => Ok(eval(a, env)?.abs_diff(eval(b, env)?)),
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The expression in exact integers, for the fast path's folding (its nodes are known to be
/// in range at the ends); `None` where even that overflows.
fn eval_wide(e: &CExpr, env: &Env) -> Option<i128> {
    Some(match e {
        CExpr::Bin(op, a, b, _) => {
            let (x, y) = (eval_wide(a, env)?, eval_wide(b, env)?);
            match op {
                BinOp::Add => x.checked_add(y)?,
                BinOp::Sub => x.checked_sub(y)?,
                BinOp::Mul => x.checked_mul(y)?,
                BinOp::Div | BinOp::Rem => eval(e, env).ok()? as i128,
            }
        }
        other => eval(other, env).ok()? as i128,
    })
}

/// Whether the condition holds; `Err` if evaluating it fails.
pub fn holds(c: &CCond, env: &Env) -> Result<bool, Fault> {
    Ok(match c {
        CCond::Compare(es, ops) => {
            let mut left = operand(&es[0], env)?;
            for (i, op) in ops.iter().enumerate() {
                let right = operand(&es[i + 1], env)?;
                if !op.holds(left, right) {
                    return Ok(false);
                }
                left = right;
            }
            true
        }
        CCond::And(cs) => {
            for c in cs {
                if !holds(c, env)? {
                    return Ok(false);
                }
            }
            true
        }
        CCond::Or(cs) => {
            for c in cs {
                if holds(c, env)? {
                    return Ok(true);
                }
            }
            false
        }
        CCond::Not(c) => !holds(c, env)?,
    })
}

/// The evaluation of one position: the program, the sink, the budget of options and steps.
struct Run<'a, S: Sink> {
    program: &'a Program,
    sink: &'a mut S,
    position: &'a [u64],
    options: u64,
    steps: u64,
    /// Whether the fast path may be taken ([`explain`] runs value by value, to see bindings).
    fast_ok: bool,
}

/// How a failed run is described: the term and its bindings.
fn position_text(p: &[u64]) -> String {
    if p.len() == 1 {
        format!("heap {}", p[0])
    } else {
        format!("({})", p.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))
    }
}

impl<S: Sink> Run<'_, S> {
    fn arithmetic(&self, t: usize, term: &CTerm, fault: Fault, env: &Env, bound: usize) -> RuleError {
        let text = self
            .program
            .texts
            .get(fault.node as usize)
            .cloned()
            .unwrap_or_else(|| "a part".into());
        let what = match fault.op {
            FaultKind::BelowZero => format!("{text} goes below zero ({} - {})", fault.a, fault.b),
            FaultKind::Overflow => format!("{text} is past 2^64 - 1 ({} and {})", fault.a, fault.b),
            FaultKind::DivByZero => format!("{text} divides by zero"),
        };
        let mut bindings: Vec<String> = self
            .program
            .params
            .iter()
            .zip(self.position)
            .map(|(p, v)| format!("{p} = {v}"))
            .collect();
        bindings.extend(
            term.loops[..bound]
                .iter()
                .map(|l| format!("{} = {}", l.var, env[l.slot as usize])),
        );
        RuleError::Arithmetic {
            term: t + 1,
            text: term.text.clone(),
            what,
            bindings: bindings.join(", "),
            position: position_text(self.position),
        }
    }

    fn too_many(&self, t: usize, term: &CTerm) -> RuleError {
        RuleError::TooManyOptions {
            term: t + 1,
            text: term.text.clone(),
            position: position_text(self.position),
            limit: MAX_OPTIONS,
        }
    }

    fn step(&mut self, t: usize, term: &CTerm, n: u64) -> Result<(), RuleError> {
        self.steps += n;
        if self.steps > MAX_STEPS {
            return Err(RuleError::TooManySteps {
                term: t + 1,
                text: term.text.clone(),
                position: position_text(self.position),
                limit: MAX_STEPS,
            });
        }
        Ok(())
    }

    fn emit(&mut self, t: usize, term: &CTerm, heaps: &[u64], env: &Env) -> Result<(), RuleError> {
        self.options += 1;
        if self.options > MAX_OPTIONS {
            return Err(self.too_many(t, term));
        }
        if let Some(domain) = &self.program.domain {
            let outside = |h: &[u64]| {
                let mut env = [0; SLOTS];
                env[..h.len()].copy_from_slice(h);
                !matches!(holds(domain, &env), Ok(true))
            };
            let bad = if term.kind == TargetKind::Tuple {
                outside(heaps).then(|| position_text(heaps))
            } else {
                heaps.iter().find(|&&h| outside(&[h])).map(|h| format!("heap {h}"))
            };
            if let Some(option) = bad {
                return Err(RuleError::OutsideDomain {
                    term: t + 1,
                    text: term.text.clone(),
                    position: position_text(self.position),
                    option,
                });
            }
        }
        if self.fast_ok {
            self.sink.option(t, heaps);
        } else {
            self.sink.option_bound(t, heaps, &env[3..3 + term.loops.len()]);
        }
        Ok(())
    }

    /// Evaluates the target with every loop bound and emits it.
    fn target(&mut self, t: usize, term: &CTerm, env: &Env) -> Result<(), RuleError> {
        let n = term.target.len();
        let mut parts = [0u64; 16];
        for (i, e) in term.target.iter().enumerate() {
            parts[i] = eval(e, env).map_err(|f| self.arithmetic(t, term, f, env, term.loops.len()))?;
        }
        self.emit(t, term, &parts[..n], env)
    }

    fn guards(&self, t: usize, term: &CTerm, guards: &[CCond], env: &Env, bound: usize) -> Result<bool, RuleError> {
        for g in guards {
            if !holds(g, env).map_err(|f| self.arithmetic(t, term, f, env, bound))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Loops number `depth..` of the term, the earlier ones bound in `env`.
    fn loops(&mut self, t: usize, term: &CTerm, env: &mut Env, depth: usize) -> Result<(), RuleError> {
        let Some(l) = term.loops.get(depth) else {
            return self.target(t, term, env);
        };
        let innermost = depth + 1 == term.loops.len();
        match &l.source {
            CSource::Set(es) => {
                for e in es {
                    self.step(t, term, 1)?;
                    env[l.slot as usize] = eval(e, env).map_err(|f| self.arithmetic(t, term, f, env, depth))?;
                    if self.guards(t, term, &l.guards, env, depth + 1)? {
                        self.loops(t, term, env, depth + 1)?;
                    }
                }
                Ok(())
            }
            CSource::Range { lo, hi, inclusive } => {
                let lo = operand(lo, env).map_err(|f| self.arithmetic(t, term, f, env, depth))?;
                let hi = operand(hi, env).map_err(|f| self.arithmetic(t, term, f, env, depth))?;
                // the last value, if any
                let last = if *inclusive {
                    hi
                } else if hi == 0 {
                    return Ok(());
                } else {
                    hi - 1
                };
                if lo > last {
                    return Ok(());
                }
                // an affine innermost loop runs only where its guards hold (both paths)
                let (mut lo, mut last, mut narrowed) = (lo, last, false);
                if innermost
                    && let Some(fast) = &term.fast
                    && let Some((from, to)) = self.narrow(fast, l, env, lo, last)
                {
                    if from > to {
                        return Ok(());
                    }
                    (lo, last, narrowed) = (from as u64, to as u64, true);
                }
                if narrowed
                    && self.fast_ok
                    && let Some(fast) = &term.fast
                    && self.fast(t, term, fast, l, env, lo, last)?
                {
                    return Ok(());
                }
                let mut v = lo;
                loop {
                    self.step(t, term, 1)?;
                    env[l.slot as usize] = v;
                    if self.guards(t, term, &l.guards, env, depth + 1)? {
                        self.loops(t, term, env, depth + 1)?;
                    }
                    if v == last {
                        return Ok(());
                    }
                    v += 1;
                }
            }
        }
    }

    /// The values of `lo..=last` where the guards of an affine innermost loop hold, found by
    /// arithmetic: every guard evaluates (checked) at both ends, so on the whole range, and
    /// each is `lhs op rhs` with `lhs − rhs` affine in the loop variable. `None` when an end
    /// fails: the loop then runs over the whole range, value by value.
    fn narrow(&self, fast: &FastLoop, l: &CLoop, env: &mut Env, lo: u64, last: u64) -> Option<(i128, i128)> {
        let slot = l.slot as usize;
        for end in [lo, last] {
            env[slot] = end;
            if l.guards.iter().any(|g| holds(g, env).is_err()) {
                return None;
            }
        }
        let (mut from, mut to) = (lo as i128, last as i128);
        for c in &fast.constraints {
            env[slot] = lo;
            let d0 = eval_wide(&c.lhs, env)? - eval_wide(&c.rhs, env)?;
            let slope = if last > lo {
                env[slot] = last;
                let d1 = eval_wide(&c.lhs, env)? - eval_wide(&c.rhs, env)?;
                let span = (last - lo) as i128;
                if (d1 - d0) % span != 0 {
                    return None;
                }
                (d1 - d0) / span
            } else {
                0
            };
            // d(v) = d0 + slope·(v − lo); keep the v where d(v) op 0
            let (a, b) = solve(d0, slope, c.op, lo as i128);
            from = from.max(a);
            to = to.min(b);
        }
        Some((from, to))
    }

    /// The fast path over `lo..=last`, where every guard holds; `Ok(false)` when it does not
    /// apply here (a limit would be reached, or an end fails), so the caller runs the loop
    /// value by value.
    #[allow(clippy::too_many_arguments)]
    fn fast(
        &mut self,
        t: usize,
        term: &CTerm,
        fast: &FastLoop,
        l: &CLoop,
        env: &mut Env,
        lo: u64,
        last: u64,
    ) -> Result<bool, RuleError> {
        let slot = l.slot as usize;
        let (from, to) = (lo, last);
        // the definition spends a step on every value of the range: where it would run out of
        // steps or of options it decides which error comes first, so it runs instead
        let iterations = (to - from) as u128 + 1;
        if self.steps as u128 + iterations > MAX_STEPS as u128 {
            return Ok(false);
        }
        let count = (to - from) as u128 + 1;
        if self.options as u128 + count > MAX_OPTIONS as u128 {
            return Ok(false);
        }
        // the affine parts at both ends, checked; the steps between them exact
        let n = term.target.len();
        let mut start = [0u64; 16];
        let mut step = [0u64; 16];
        for (i, e) in term.target.iter().enumerate() {
            if !fast.affine[i] {
                continue;
            }
            env[slot] = from;
            let Ok(a) = operand(e, env) else { return Ok(false) };
            start[i] = a;
            if to > from {
                env[slot] = to;
                let Ok(b) = operand(e, env) else { return Ok(false) };
                let d = b as i128 - a as i128;
                let span = (to - from) as i128;
                if d % span != 0 {
                    return Ok(false);
                }
                // two's complement: adding a negative step wraps to the exact value
                step[i] = ((d / span) as i64) as u64;
            }
        }
        self.steps += iterations as u64;
        let all_affine = fast.affine.iter().all(|&a| a);
        if all_affine && (1..=3).contains(&n) && self.program.domain.is_none() && self.fast_ok {
            // the options were counted above: hand them over with nothing else to check
            self.options += count as u64;
            match n {
                1 => emit_steps::<1, S>(self.sink, t, &start, &step, count),
                2 => emit_steps::<2, S>(self.sink, t, &start, &step, count),
                _ => emit_steps::<3, S>(self.sink, t, &start, &step, count),
            }
            return Ok(true);
        }
        let mut parts = start;
        let mut v = from;
        loop {
            if !all_affine {
                env[slot] = v;
                for (i, e) in term.target.iter().enumerate() {
                    if !fast.affine[i] {
                        parts[i] = eval(e, env).map_err(|f| self.arithmetic(t, term, f, env, term.loops.len()))?;
                    }
                }
            }
            self.emit(t, term, &parts[..n], env)?;
            if v == to {
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
    let floor_div = |a: i128, b: i128| a.div_euclid(b);
    // d(v) < 0 ⇔ d(v) ≤ −1, so every comparison is some bound on d(v) ≤ c or d(v) ≥ c
    let le = |c: i128| -> (i128, i128) {
        // d0 + s·t ≤ c, t = v − lo
        if slope == 0 {
            if d0 <= c { ALL } else { NONE }
        } else if slope > 0 {
            (i128::MIN, lo + floor_div(c - d0, slope))
        } else {
            // s·t ≤ c − d0 ⇔ t ≥ ceil((c − d0)/s) for s < 0 ⇔ t ≥ −floor((c − d0)/(−s))... computed exactly
            (lo - floor_div(c - d0, -slope), i128::MAX)
        }
    };
    let ge = |c: i128| -> (i128, i128) {
        if slope == 0 {
            if d0 >= c { ALL } else { NONE }
        } else if slope > 0 {
            (lo - floor_div(d0 - c, slope), i128::MAX)
        } else {
            (i128::MIN, lo + floor_div(d0 - c, -slope))
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

/// Every option of `position` (its heaps, `program.arity` of them), in the order of the terms
/// and of their loops.
pub fn options<S: Sink>(program: &Program, position: &[u64], sink: &mut S) -> Result<(), RuleError> {
    run(program, position, sink, true)
}

/// As [`options`], value by value, handing the sink each option's loop bindings.
pub fn explain<S: Sink>(program: &Program, position: &[u64], sink: &mut S) -> Result<(), RuleError> {
    run(program, position, sink, false)
}

fn run<S: Sink>(program: &Program, position: &[u64], sink: &mut S, fast_ok: bool) -> Result<(), RuleError> {
    let mut run = Run {
        program,
        sink,
        position,
        options: 0,
        steps: 0,
        fast_ok,
    };
    let mut env = [0u64; SLOTS];
    env[..position.len()].copy_from_slice(position);
    for (t, term) in program.terms.iter().enumerate() {
        if run.guards(t, term, &term.guards, &env, 0)? {
            run.loops(t, term, &mut env, 0)?;
        }
    }
    Ok(())
}

/// Whether `heaps` is a position of the program (its domain holds, or it has none).
pub fn in_domain(program: &Program, heaps: &[u64]) -> bool {
    match &program.domain {
        None => true,
        Some(d) => {
            let mut env = [0; SLOTS];
            env[..heaps.len()].copy_from_slice(heaps);
            matches!(holds(d, &env), Ok(true))
        }
    }
}
