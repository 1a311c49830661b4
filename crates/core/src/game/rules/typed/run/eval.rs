//! Checked evaluation of compiled expressions and conditions: every operation that leaves the
//! 128-bit integers, divides by zero or is out of reach is a [`Fault`] naming its node.

use super::super::ast::{BinOp, Func, Pred};
use super::super::numbers::{self, floor_div, floor_rem};
use super::super::program::{CCond, CExpr, SLOTS};

/// A failed operation: which node (its text's index) and what went wrong.
#[derive(Debug, Clone, Copy)]
pub struct Fault {
    pub(super) node: u32,
    pub(super) op: FaultKind,
    pub(super) a: i128,
    pub(super) b: i128,
}

#[derive(Debug, Clone, Copy)]
pub(super) enum FaultKind {
    /// Past the 128-bit integers.
    Overflow,
    DivByZero,
    /// A function's argument or an exponent below zero.
    Negative,
    /// `fib(k)` past F(184), `prime(x)` past 2^64, `primes(n)` past its bound.
    OutOfReach,
    /// A heap of a target below zero.
    BelowZero,
    /// A heap of a target past 2^64 − 1.
    TooLarge,
    /// `powers(b, n)` with b < 2.
    BadBase,
}

pub(super) type Env = [i128; SLOTS];

/// A leaf's value without a call (most operands are names and numbers).
#[inline(always)]
pub(super) fn operand(e: &CExpr, env: &Env) -> Result<i128, Fault> {
    match e {
        CExpr::Num(n) => Ok(*n),
        CExpr::Slot(s) => Ok(env[*s as usize]),
        other => eval(other, env),
    }
}

/// The value of `e` with the slots bound as in `env`; a [`Fault`] on checked arithmetic failing.
pub fn eval(e: &CExpr, env: &Env) -> Result<i128, Fault> {
    match e {
        CExpr::Num(n) => Ok(*n),
        CExpr::Slot(s) => Ok(env[*s as usize]),
        CExpr::Neg(a) => {
            let x = operand(a, env)?;
            x.checked_neg().ok_or(Fault {
                node: u32::MAX,
                op: FaultKind::Overflow,
                a: x,
                b: 0,
            })
        }
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
                BinOp::Sub => x.checked_sub(y).ok_or_else(|| fault(FaultKind::Overflow)),
                BinOp::Mul => x.checked_mul(y).ok_or_else(|| fault(FaultKind::Overflow)),
                BinOp::Div | BinOp::Rem if y == 0 => Err(fault(FaultKind::DivByZero)),
                BinOp::Div => floor_div(x, y).ok_or_else(|| fault(FaultKind::Overflow)),
                BinOp::Rem => floor_rem(x, y).ok_or_else(|| fault(FaultKind::Overflow)),
                BinOp::Pow if y < 0 => Err(fault(FaultKind::Negative)),
                BinOp::Pow => numbers::pow(x, y).ok_or_else(|| fault(FaultKind::Overflow)),
            }
        }
        CExpr::Call(f, args, node) => call(*f, args, *node, env),
        CExpr::AbsDiff(a, b) => {
            let (x, y) = (eval(a, env)?, eval(b, env)?);
            x.checked_sub(y).and_then(i128::checked_abs).ok_or(Fault {
                node: u32::MAX,
                op: FaultKind::Overflow,
                a: x,
                b: y,
            })
        }
    }
}

fn call(f: Func, args: &[CExpr], node: u32, env: &Env) -> Result<i128, Fault> {
    let first = eval(&args[0], env)?;
    let fault = |op, a| Fault { node, op, a, b: 0 };
    match f {
        Func::Isqrt if first < 0 => Err(fault(FaultKind::Negative, first)),
        Func::Isqrt => Ok(first.isqrt()),
        Func::Abs => first.checked_abs().ok_or(fault(FaultKind::Overflow, first)),
        Func::Popcount if first < 0 => Err(fault(FaultKind::Negative, first)),
        Func::Popcount => Ok(i128::from(first.count_ones())),
        Func::Fib if first < 0 => Err(fault(FaultKind::Negative, first)),
        Func::Fib => numbers::fib(first).ok_or(fault(FaultKind::OutOfReach, first)),
        Func::Min | Func::Max | Func::Gcd | Func::Xor | Func::BitAnd | Func::BitOr => {
            let mut acc = first;
            for a in &args[1..] {
                let v = eval(a, env)?;
                acc = match f {
                    Func::Min => acc.min(v),
                    Func::Max => acc.max(v),
                    Func::Gcd => gcd(acc, v),
                    Func::Xor => acc ^ v,
                    Func::BitAnd => acc & v,
                    _ => acc | v,
                };
            }
            Ok(acc)
        }
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).unwrap_or(i128::MAX)
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
        CCond::Pred(Pred::Prime, args, node) => {
            let x = eval(&args[0], env)?;
            numbers::is_prime(x).ok_or(Fault {
                node: *node,
                op: FaultKind::OutOfReach,
                a: x,
                b: 0,
            })?
        }
        CCond::Pred(Pred::Distinct, args, _) => {
            let mut vals = [0i128; 16];
            for (i, a) in args.iter().enumerate() {
                vals[i] = eval(a, env)?;
                if vals[..i].contains(&vals[i]) {
                    return Ok(false);
                }
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
