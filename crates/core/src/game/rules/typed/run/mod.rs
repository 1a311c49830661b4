//! Evaluates a compiled rule at one position, handing each option to a sink with no allocation
//! per option. Numbers are signed (`i128`): a guard or a bound may go below zero as written;
//! a heap of a target below zero or past 2^64 − 1, a division by zero or an overflow is an
//! error naming the term, the part of it that failed, the bindings and the position.
//!
//! A term's innermost loop takes the fast path when [`super::program`] found it affine: every
//! guard is evaluated (checked) at both ends of the range, which proves it error-free on the
//! whole range (each node of an affine expression is monotone in the loop variable), then the
//! guards narrow the range by integer arithmetic, and the affine parts of the target are
//! emitted by adding their step. Otherwise, and whenever an end fails, the loop runs value by
//! value, which is the definition the fast path must agree with (tested in `super::tests`).
//!
//! Costs are known before they are spent: a loop whose range alone passes the caps is refused
//! as it is entered, and a large outer loop is refused when the interval estimate of what lies
//! below it ([`super::estimate`]) passes them. The caller's stop flag ([`with_limits`]) is
//! polled every few thousand loop steps, so a position with many steps and few options stops
//! within milliseconds of Ctrl+C.

mod error;
mod eval;
mod fast;

use std::cell::RefCell;
use std::rc::Rc;

pub use error::{RuleError, big_number, position_text};
pub use eval::{Fault, eval, holds};

use super::ast::Family;
use super::estimate::{self, Interval};
use super::numbers;
use super::program::{CCond, CLoop, CPart, CSource, CTerm, Program, SLOTS, TargetKind};
use eval::{Env, FaultKind, operand};

/// Most options one position may have, and most loop steps spent to find them.
pub const MAX_OPTIONS: u64 = 1 << 24;
/// Most loop steps one position may spend finding its options.
pub const MAX_STEPS: u64 = 1 << 27;
/// Most loop steps a whole job (a sequence, a map) may spend on a typed rule: 2^34, a few
/// minutes; a job whose estimate passes it is refused before it starts.
pub const MAX_TOTAL_STEPS: u128 = 1 << 34;
/// Most heaps one option's collection may hold.
pub const MAX_COLLECTION: usize = 1 << 12;
/// Loop steps between two looks at the stop flag.
const POLL_STEPS: u64 = 1 << 13;
/// An outer loop longer than this has what lies below it estimated before it runs.
const ESTIMATE_FROM: u128 = 64;

/// Receives the options of a position: the term that made each, and its heaps (a position of
/// the rule's heaps; for a one-heap rule, the heaps of the collection, possibly none).
pub trait Sink {
    /// One option: `term` is the index (from 0) of the term that made it, `heaps` its heaps.
    fn option(&mut self, term: usize, heaps: &[u64]);

    /// The option with the values of the term's loop variables (in the order of its `for`
    /// clauses); only the value-by-value run behind [`TypedRule::describe`](super::TypedRule::describe)
    /// fills them in.
    fn option_bound(&mut self, term: usize, heaps: &[u64], loops: &[i128]) {
        let _ = loops;
        self.option(term, heaps);
    }
}

impl<F: FnMut(usize, &[u64])> Sink for F {
    fn option(&mut self, term: usize, heaps: &[u64]) {
        self(term, heaps)
    }
}

/// What the caller allows one position: a stop flag to poll, and at most this many options
/// (a solver bounds them by its memory budget).
#[derive(Clone)]
pub struct Limits {
    /// Polled every few thousand loop steps; `true` stops the position.
    pub stop: Rc<dyn Fn() -> bool>,
    /// The most options one position may have.
    pub max_options: u64,
}

thread_local! {
    static LIMITS: RefCell<Option<Limits>> = const { RefCell::new(None) };
}

/// Runs `f` with `limits` in force for every rule evaluated on this thread (the previous ones
/// restored after).
pub fn with_limits<R>(limits: Limits, f: impl FnOnce() -> R) -> R {
    let before = LIMITS.with(|l| l.replace(Some(limits)));
    struct Restore(Option<Limits>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            LIMITS.with(|l| *l.borrow_mut() = before);
        }
    }
    let _restore = Restore(before);
    f()
}

fn current_limits() -> (Option<Rc<dyn Fn() -> bool>>, u64) {
    LIMITS.with(|l| match &*l.borrow() {
        Some(l) => (Some(l.stop.clone()), l.max_options.min(MAX_OPTIONS)),
        None => (None, MAX_OPTIONS),
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
    max_options: u64,
    stop: Option<Rc<dyn Fn() -> bool>>,
    next_poll: u64,
    /// The heaps of the option being made.
    parts: Vec<u64>,
}

impl<S: Sink> Run<'_, S> {
    fn arithmetic(&self, t: usize, term: &CTerm, fault: Fault, env: &Env, bound: usize) -> RuleError {
        self.arithmetic_in(t, term, fault, env, bound, None)
    }

    /// The error of a fault with the first `bound` loops of the term bound, and in a
    /// comprehension `part` its first loops too.
    fn arithmetic_in(
        &self,
        t: usize,
        term: &CTerm,
        fault: Fault,
        env: &Env,
        bound: usize,
        part: Option<(&CPart, usize)>,
    ) -> RuleError {
        let text = self
            .program
            .texts
            .get(fault.node as usize)
            .cloned()
            .unwrap_or_else(|| "a part".into());
        let what = match fault.op {
            FaultKind::BelowZero => format!("the heap {text} goes below zero ({})", fault.a),
            FaultKind::TooLarge => format!("the heap {text} is past 2^64 - 1 ({})", fault.a),
            FaultKind::Overflow => format!("{text} is past the integers of 128 bits ({} and {})", fault.a, fault.b),
            FaultKind::DivByZero => format!("{text} divides by zero"),
            FaultKind::Negative => format!("{text} needs a number ≥ 0, not {}", fault.a.min(fault.b)),
            FaultKind::OutOfReach => format!("{text} is out of reach ({})", fault.a),
            FaultKind::BadBase => format!("{text} needs a base of at least 2, not {}", fault.a),
        };
        let mut bindings: Vec<String> = self
            .program
            .params
            .iter()
            .zip(self.position)
            .map(|(p, v)| format!("{p} = {v}"))
            .collect();
        let inner = part.map_or(&[][..], |(p, depth)| &p.loops[..depth.min(p.loops.len())]);
        let loops = term.loops.iter().take(bound).chain(inner);
        bindings.extend(loops.map(|l| format!("{} = {}", l.var, env[l.slot as usize])));
        RuleError::Arithmetic {
            term: t + 1,
            text: term.text.clone(),
            what,
            bindings: bindings.join(", "),
            position: position_text(self.position),
        }
    }

    fn too_many(&self, t: usize, term: &CTerm, count: Option<u128>) -> RuleError {
        RuleError::TooManyOptions {
            term: t + 1,
            text: term.text.clone(),
            position: position_text(self.position),
            limit: self.max_options,
            count,
        }
    }

    fn too_many_steps(&self, t: usize, term: &CTerm, count: Option<u128>) -> RuleError {
        RuleError::TooManySteps {
            term: t + 1,
            text: term.text.clone(),
            position: position_text(self.position),
            limit: MAX_STEPS,
            count,
        }
    }

    fn step(&mut self, t: usize, term: &CTerm, n: u64) -> Result<(), RuleError> {
        self.steps += n;
        if self.steps > MAX_STEPS {
            return Err(self.too_many_steps(t, term, None));
        }
        if self.steps >= self.next_poll {
            self.next_poll = self.steps + POLL_STEPS;
            if self.stop.as_ref().is_some_and(|s| s()) {
                return Err(RuleError::Stopped);
            }
        }
        Ok(())
    }

    /// Refuses, before it runs, a loop of `count` values (each a step) that would pass the cap.
    fn admit_steps(&self, t: usize, term: &CTerm, count: u128) -> Result<(), RuleError> {
        let total = u128::from(self.steps).saturating_add(count);
        if total > u128::from(MAX_STEPS) {
            return Err(self.too_many_steps(t, term, Some(total)));
        }
        Ok(())
    }

    fn emit(&mut self, t: usize, term: &CTerm, env: &Env) -> Result<(), RuleError> {
        self.options += 1;
        if self.options > self.max_options {
            return Err(self.too_many(t, term, None));
        }
        let heaps = std::mem::take(&mut self.parts);
        let done = self.emit_heaps(t, term, &heaps, env);
        self.parts = heaps;
        done
    }

    fn emit_heaps(&mut self, t: usize, term: &CTerm, heaps: &[u64], env: &Env) -> Result<(), RuleError> {
        if let Some(domain) = &self.program.domain {
            let outside = |h: &[u64]| !in_domain_of(domain, h);
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
            let n = term.loops.len();
            let base = super::parse::MAX_HEAPS;
            self.sink.option_bound(t, heaps, &env[base..base + n]);
        }
        Ok(())
    }

    /// A heap of a target: a natural number below 2^64 (`depth`: the part's loops bound).
    fn heap(&self, t: usize, term: &CTerm, part: &CPart, depth: usize, v: i128, env: &Env) -> Result<u64, RuleError> {
        u64::try_from(v).map_err(|_| {
            let op = if v < 0 {
                FaultKind::BelowZero
            } else {
                FaultKind::TooLarge
            };
            let fault = Fault {
                node: part.text,
                op,
                a: v,
                b: 0,
            };
            self.arithmetic_in(t, term, fault, env, term.loops.len(), Some((part, depth)))
        })
    }

    /// Evaluates the target with every loop bound and emits it.
    fn target(&mut self, t: usize, term: &CTerm, env: &mut Env) -> Result<(), RuleError> {
        self.parts.clear();
        if term.comprehension {
            for part in &term.target {
                if !self.guards(t, term, &part.guards, env, term.loops.len())? {
                    continue;
                }
                self.comprehension(t, term, part, env, 0)?;
            }
        } else {
            for part in &term.target {
                let v = eval(&part.expr, env).map_err(|f| self.arithmetic(t, term, f, env, term.loops.len()))?;
                let h = self.heap(t, term, part, 0, v, env)?;
                self.parts.push(h);
            }
        }
        self.emit(t, term, env)
    }

    /// The heaps of a comprehension part, its loops from `depth` on.
    fn comprehension(
        &mut self,
        t: usize,
        term: &CTerm,
        part: &CPart,
        env: &mut Env,
        depth: usize,
    ) -> Result<(), RuleError> {
        let bound = term.loops.len();
        let here = Some((part, depth));
        let Some(l) = part.loops.get(depth) else {
            let v = eval(&part.expr, env).map_err(|f| self.arithmetic_in(t, term, f, env, bound, here))?;
            let h = self.heap(t, term, part, depth, v, env)?;
            if self.parts.len() >= MAX_COLLECTION {
                return Err(RuleError::TooManyHeaps {
                    term: t + 1,
                    text: term.text.clone(),
                    position: position_text(self.position),
                    limit: MAX_COLLECTION,
                });
            }
            self.parts.push(h);
            return Ok(());
        };
        self.each_value(t, term, l, env, bound, &mut |run, env| {
            for g in &l.guards {
                let inside = Some((part, depth + 1));
                if !holds(g, env).map_err(|f| run.arithmetic_in(t, term, f, env, bound, inside))? {
                    return Ok(());
                }
            }
            run.comprehension(t, term, part, env, depth + 1)
        })
    }

    fn guards(&self, t: usize, term: &CTerm, guards: &[CCond], env: &Env, bound: usize) -> Result<bool, RuleError> {
        for g in guards {
            if !holds(g, env).map_err(|f| self.arithmetic(t, term, f, env, bound))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Binds `l`'s variable to each value of its source in turn (a step each) and calls `f`.
    fn each_value(
        &mut self,
        t: usize,
        term: &CTerm,
        l: &CLoop,
        env: &mut Env,
        bound: usize,
        f: &mut dyn FnMut(&mut Self, &mut Env) -> Result<(), RuleError>,
    ) -> Result<(), RuleError> {
        let slot = l.slot as usize;
        match &l.source {
            CSource::Set(es) => {
                for e in es {
                    self.step(t, term, 1)?;
                    env[slot] = eval(e, env).map_err(|x| self.arithmetic(t, term, x, env, bound))?;
                    f(self, env)?;
                }
                Ok(())
            }
            CSource::Range { lo, hi, inclusive } => {
                let lo = operand(lo, env).map_err(|x| self.arithmetic(t, term, x, env, bound))?;
                let hi = operand(hi, env).map_err(|x| self.arithmetic(t, term, x, env, bound))?;
                let last = if *inclusive { hi } else { hi.saturating_sub(1) };
                if lo > last {
                    return Ok(());
                }
                self.admit_steps(t, term, (last - lo) as u128 + 1)?;
                let mut v = lo;
                loop {
                    self.step(t, term, 1)?;
                    env[slot] = v;
                    f(self, env)?;
                    if v == last {
                        return Ok(());
                    }
                    v += 1;
                }
            }
            CSource::Family(family, args, node) => {
                let mut vals = [0i128; 2];
                for (i, a) in args.iter().enumerate() {
                    vals[i] = eval(a, env).map_err(|x| self.arithmetic(t, term, x, env, bound))?;
                }
                let fault = |op, a| Fault {
                    node: *node,
                    op,
                    a,
                    b: 0,
                };
                match family {
                    Family::Primes => {
                        let n = vals[0];
                        if n > numbers::MAX_PRIME_BOUND as i128 {
                            return Err(self.arithmetic(t, term, fault(FaultKind::OutOfReach, n), env, bound));
                        }
                        let primes = numbers::primes_up_to(n.max(0) as u64);
                        let end = primes.partition_point(|&p| i128::from(p) <= n);
                        self.admit_steps(t, term, end as u128)?;
                        for &p in &primes[..end] {
                            self.step(t, term, 1)?;
                            env[slot] = i128::from(p);
                            f(self, env)?;
                        }
                    }
                    Family::Powers => {
                        if vals[0] < 2 {
                            return Err(self.arithmetic(t, term, fault(FaultKind::BadBase, vals[0]), env, bound));
                        }
                        for p in numbers::powers_up_to(vals[0], vals[1]) {
                            self.step(t, term, 1)?;
                            env[slot] = p;
                            f(self, env)?;
                        }
                    }
                    Family::Fibs => {
                        for p in numbers::fibs_up_to(vals[0]) {
                            self.step(t, term, 1)?;
                            env[slot] = p;
                            f(self, env)?;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Loops number `depth..` of the term, the earlier ones bound in `env`.
    fn loops(&mut self, t: usize, term: &CTerm, env: &mut Env, depth: usize) -> Result<(), RuleError> {
        let Some(l) = term.loops.get(depth) else {
            return self.target(t, term, env);
        };
        let innermost = depth + 1 == term.loops.len();
        if let CSource::Range { lo, hi, inclusive } = &l.source {
            let lo = operand(lo, env).map_err(|f| self.arithmetic(t, term, f, env, depth))?;
            let hi = operand(hi, env).map_err(|f| self.arithmetic(t, term, f, env, depth))?;
            let last = if *inclusive { hi } else { hi.saturating_sub(1) };
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
                (lo, last, narrowed) = (from, to, true);
            }
            let count = (last - lo) as u128 + 1;
            // steps first: a range past their cap is refused as what it runs, even where each
            // value gives an option (`n - 1 for k in 1..=2^27 + 1` has one distinct option)
            self.admit_steps(t, term, count)?;
            if narrowed && u128::from(self.options) + count > u128::from(self.max_options) {
                // every value of a narrowed innermost range gives an option
                return Err(self.too_many(t, term, Some(u128::from(self.options) + count)));
            }
            if !innermost && count > ESTIMATE_FROM {
                self.admit_subtree(t, term, env, depth, (lo, last))?;
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
        self.each_value(t, term, l, env, depth, &mut |run, env| {
            if run.guards(t, term, &l.guards, env, depth + 1)? {
                run.loops(t, term, env, depth + 1)?;
            }
            Ok(())
        })
    }

    /// Refuses an outer loop over `var` whose values, with what lies below each (at least the
    /// estimate's lower bound), would pass the cap of steps.
    fn admit_subtree(&self, t: usize, term: &CTerm, env: &Env, depth: usize, var: Interval) -> Result<(), RuleError> {
        let mut intervals = [(0i128, 0i128); SLOTS];
        for (i, v) in env.iter().enumerate() {
            intervals[i] = (*v, *v);
        }
        let count = (var.1 - var.0) as u128 + 1;
        intervals[term.loops[depth].slot as usize] = var;
        if !term.loops[depth].guards.is_empty() {
            return Ok(());
        }
        let below = estimate::subtree_estimate(term, depth + 1, &mut intervals);
        self.admit_steps(t, term, count.saturating_mul(below.steps.lower.saturating_add(1)))
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
    let (stop, max_options) = current_limits();
    let mut run = Run {
        program,
        sink,
        position,
        options: 0,
        steps: 0,
        fast_ok,
        max_options,
        stop,
        next_poll: POLL_STEPS,
        parts: Vec::new(),
    };
    let mut env = [0i128; SLOTS];
    for (e, &h) in env.iter_mut().zip(position) {
        *e = i128::from(h);
    }
    for (t, term) in program.terms.iter().enumerate() {
        if run.guards(t, term, &term.guards, &env, 0)? {
            run.loops(t, term, &mut env, 0)?;
        }
    }
    Ok(())
}

fn in_domain_of(domain: &CCond, heaps: &[u64]) -> bool {
    let mut env = [0i128; SLOTS];
    for (e, &h) in env.iter_mut().zip(heaps) {
        *e = i128::from(h);
    }
    matches!(holds(domain, &env), Ok(true))
}

/// Whether `heaps` is a position of the program (its domain holds, or it has none).
pub fn in_domain(program: &Program, heaps: &[u64]) -> bool {
    match &program.domain {
        None => true,
        Some(d) => in_domain_of(d, heaps),
    }
}
