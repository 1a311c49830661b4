//! What a rule costs, known before it runs: the loop steps and options of a position (or of
//! every position of a box of heaps), as a lower and an upper bound, by interval arithmetic
//! over the rule's ranges. A lower bound over the cap is a certain refusal (every value of a
//! range costs a step, whether its guards hold or not), so a rule that would run 10^38 steps
//! is refused in microseconds with the number, instead of after the 2^27 steps of the cap.

use super::numbers::{self, floor_div};
use super::program::{CExpr, CLoop, CSource, CTerm, Program, SLOTS};
use crate::game::rules::typed::ast::{BinOp, Family, Func};

/// A closed interval of integers, `lo ≤ hi`.
pub type Interval = (i128, i128);

/// An amount known between two bounds (saturating at `u128::MAX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count {
    /// At least this many.
    pub lower: u128,
    /// At most this many (`u128::MAX`: unbounded).
    pub upper: u128,
}

impl Count {
    const ZERO: Count = Count { lower: 0, upper: 0 };

    fn add(self, o: Count) -> Count {
        Count {
            lower: self.lower.saturating_add(o.lower),
            upper: self.upper.saturating_add(o.upper),
        }
    }

    fn times(self, n: Count) -> Count {
        Count {
            lower: self.lower.saturating_mul(n.lower),
            upper: self.upper.saturating_mul(n.upper),
        }
    }
}

/// The loop steps and options of one position, or of each position of a box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Estimate {
    /// The loop steps: every value of a range is one.
    pub steps: Count,
    /// The options produced.
    pub options: Count,
}

/// Where an unbounded count saturates: past every cap.
const UNBOUNDED: Count = Count {
    lower: 0,
    upper: u128::MAX,
};

/// The values `e` takes when each slot ranges over its interval in `env`; `None` when that
/// is not known (a division by an interval holding 0, an overflow, a negative argument).
pub fn interval(e: &CExpr, env: &[Interval; SLOTS]) -> Option<Interval> {
    Some(match e {
        CExpr::Num(n) => (*n, *n),
        CExpr::Slot(s) => env[*s as usize],
        CExpr::Neg(a) => {
            let (lo, hi) = interval(a, env)?;
            (hi.checked_neg()?, lo.checked_neg()?)
        }
        CExpr::Bin(op, a, b, _) => binary(*op, interval(a, env)?, interval(b, env)?)?,
        CExpr::Call(f, args, _) => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(interval(a, env)?);
            }
            call(*f, &vals)?
        }
        CExpr::AbsDiff(a, b) => {
            let (lo, hi) = binary(BinOp::Sub, interval(a, env)?, interval(b, env)?)?;
            abs((lo, hi))
        }
    })
}

fn abs((lo, hi): Interval) -> Interval {
    if lo >= 0 {
        (lo, hi)
    } else if hi <= 0 {
        (-hi, -lo)
    } else {
        (0, (-lo).max(hi))
    }
}

fn binary(op: BinOp, (al, ah): Interval, (bl, bh): Interval) -> Option<Interval> {
    Some(match op {
        BinOp::Add => (al.checked_add(bl)?, ah.checked_add(bh)?),
        BinOp::Sub => (al.checked_sub(bh)?, ah.checked_sub(bl)?),
        BinOp::Mul => {
            let c = [
                al.checked_mul(bl)?,
                al.checked_mul(bh)?,
                ah.checked_mul(bl)?,
                ah.checked_mul(bh)?,
            ];
            (*c.iter().min()?, *c.iter().max()?)
        }
        BinOp::Div => {
            if bl <= 0 && bh >= 0 {
                return None;
            }
            // floor division is monotone in each argument on a side of 0
            let c = [
                floor_div(al, bl)?,
                floor_div(al, bh)?,
                floor_div(ah, bl)?,
                floor_div(ah, bh)?,
            ];
            (*c.iter().min()?, *c.iter().max()?)
        }
        BinOp::Rem => {
            if bl > 0 {
                (0, bh - 1)
            } else if bh < 0 {
                (bl + 1, 0)
            } else {
                return None;
            }
        }
        BinOp::Pow => {
            if al < 0 || bl < 0 {
                return None;
            }
            let mut c = vec![
                numbers::pow(al, bl)?,
                numbers::pow(al, bh)?,
                numbers::pow(ah, bl)?,
                numbers::pow(ah, bh)?,
            ];
            if al == 0 && bh >= 1 {
                c.push(0);
            }
            if bl == 0 {
                c.push(1);
            }
            (*c.iter().min()?, *c.iter().max()?)
        }
    })
}

fn call(f: Func, v: &[Interval]) -> Option<Interval> {
    let nonneg = v.iter().all(|&(lo, _)| lo >= 0);
    let top = v.iter().map(|&(_, hi)| hi).max()?;
    Some(match f {
        Func::Min => (v.iter().map(|x| x.0).min()?, v.iter().map(|x| x.1).min()?),
        Func::Max => (v.iter().map(|x| x.0).max()?, v.iter().map(|x| x.1).max()?),
        Func::Isqrt if nonneg => (v[0].0.isqrt(), v[0].1.isqrt()),
        Func::Abs => abs(v[0]),
        Func::Gcd => (0, v.iter().map(|&x| abs(x).1).max()?),
        Func::Xor | Func::BitOr if nonneg => {
            let bits = 128 - top.leading_zeros();
            (0, if bits >= 127 { i128::MAX } else { (1i128 << bits) - 1 })
        }
        Func::BitAnd if nonneg => (0, v.iter().map(|x| x.1).min()?),
        Func::Popcount if nonneg => (0, 127),
        Func::Fib if nonneg => (numbers::fib(v[0].0)?, numbers::fib(v[0].1)?),
        _ => return None,
    })
}

/// How many values a loop's source gives, with its variable's interval, under `env`.
fn source_count(source: &CSource, env: &[Interval; SLOTS]) -> Option<(Count, Interval)> {
    let size = |lo: i128, hi: i128| -> u128 { if hi < lo { 0 } else { (hi - lo) as u128 + 1 } };
    Some(match source {
        CSource::Range { lo, hi, inclusive } => {
            let (lo, hi) = (interval(lo, env)?, interval(hi, env)?);
            let shift = i128::from(!*inclusive);
            let (hi_lo, hi_hi) = (hi.0.checked_sub(shift)?, hi.1.checked_sub(shift)?);
            let count = Count {
                lower: size(lo.1, hi_lo),
                upper: size(lo.0, hi_hi),
            };
            (count, (lo.0, hi_hi.max(lo.0)))
        }
        CSource::Set(es) => {
            let mut all: Option<Interval> = None;
            for e in es {
                let (lo, hi) = interval(e, env)?;
                all = Some(all.map_or((lo, hi), |(l, h)| (l.min(lo), h.max(hi))));
            }
            let n = es.len() as u128;
            (Count { lower: n, upper: n }, all?)
        }
        CSource::Family(family, args, _) => {
            let bound = interval(args.last()?, env)?;
            let upper = match family {
                Family::Primes => numbers::prime_count_bound(bound.1),
                // at least base 2: log2 of the bound, plus 1 for b^0
                Family::Powers => u128::from(128 - bound.1.max(1).leading_zeros()) + 1,
                Family::Fibs => numbers::fibs_up_to(bound.1).count() as u128,
            };
            (Count { lower: 0, upper }, (0, bound.1.max(0)))
        }
    })
}

/// The steps and options of loops `loops[depth..]` (each value a step; the last level's
/// values that pass its guards each give an option), the earlier ones bound in `env`.
fn loops_estimate(loops: &[CLoop], depth: usize, env: &mut [Interval; SLOTS], parts: &Count) -> Estimate {
    let Some(l) = loops.get(depth) else {
        return Estimate {
            steps: Count::ZERO,
            options: *parts,
        };
    };
    let Some((count, var)) = source_count(&l.source, env) else {
        return Estimate {
            steps: UNBOUNDED,
            options: UNBOUNDED,
        };
    };
    let saved = env[l.slot as usize];
    env[l.slot as usize] = var;
    let inner = loops_estimate(loops, depth + 1, env, parts);
    env[l.slot as usize] = saved;
    // an innermost range whose guards fold into it runs only where they hold: its own
    // steps may be as few as none
    let narrowed = depth + 1 == loops.len() && l.constraints.as_ref().is_some_and(|c| !c.is_empty());
    let count = if narrowed { Count { lower: 0, ..count } } else { count };
    // a guard may skip a value (and what is below it): only the upper bounds go through
    let guarded = |c: Count| {
        if l.guards.is_empty() {
            c
        } else {
            Count {
                lower: 0,
                upper: c.upper,
            }
        }
    };
    Estimate {
        steps: count.add(count.times(guarded(inner.steps))),
        options: count.times(guarded(inner.options)),
    }
}

/// The estimate of one term at the heaps `env` holds (as intervals).
pub fn term_estimate(term: &CTerm, env: &mut [Interval; SLOTS]) -> Estimate {
    // a comprehension costs its own steps per option (not modelled beyond its presence)
    let parts = Count { lower: 1, upper: 1 };
    let e = loops_estimate(&term.loops, 0, env, &parts);
    if term.guards.is_empty() {
        e
    } else {
        Estimate {
            steps: Count {
                lower: 0,
                upper: e.steps.upper,
            },
            options: Count {
                lower: 0,
                upper: e.options.upper,
            },
        }
    }
}

/// The estimate of a subtree: the loops from `depth` on of `term`, with `env` bound above.
pub fn subtree_estimate(term: &CTerm, depth: usize, env: &mut [Interval; SLOTS]) -> Estimate {
    loops_estimate(&term.loops, depth, env, &Count { lower: 1, upper: 1 })
}

/// The estimate of a whole position (or a box of them: each heap an interval), summed over
/// the terms.
pub fn estimate(program: &Program, heaps: &[Interval]) -> Estimate {
    let mut env = [(0i128, 0i128); SLOTS];
    env[..heaps.len()].copy_from_slice(heaps);
    let mut total = Estimate::default();
    for term in &program.terms {
        let e = term_estimate(term, &mut env);
        total.steps = total.steps.add(e.steps);
        total.options = total.options.add(e.options);
    }
    total
}

/// The exact heaps of a position as intervals.
pub fn exact(heaps: &[u64]) -> Vec<Interval> {
    heaps.iter().map(|&h| (i128::from(h), i128::from(h))).collect()
}
