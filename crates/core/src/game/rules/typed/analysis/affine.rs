//! Affine forms of a rule's expressions (`c + Σ coef·slot`), the bounds a loop's range and its
//! guards put on its variable, and rational affine functions of one heap with the points where
//! two of them cross: the arithmetic the recognisers of [`super`] reason with.

use super::super::ast::{BinOp, CmpOp, Func};
use super::super::numbers::{floor_div, floor_rem};
use super::super::program::{CCond, CExpr, CLoop, CSource, Constraint, SLOTS};

/// `c + Σ coef[s]·slot_s`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aff {
    /// The constant term.
    pub c: i128,
    /// The coefficient of each slot.
    pub coef: [i128; SLOTS],
}

/// Values of slots known to be constants (a loop over constants, bound one value at a time).
pub type Known = [Option<i128>; SLOTS];

/// No slot known to be a constant.
pub const NOTHING_KNOWN: Known = [None; SLOTS];

impl Aff {
    /// The constant `c`.
    pub fn constant(c: i128) -> Aff {
        Aff { c, coef: [0; SLOTS] }
    }

    /// The value of slot `s`.
    pub fn slot(s: u8) -> Aff {
        let mut a = Aff::constant(0);
        a.coef[s as usize] = 1;
        a
    }

    /// Whether no slot appears in it.
    pub fn is_constant(&self) -> bool {
        self.coef.iter().all(|&x| x == 0)
    }

    fn zip(self, o: Aff, f: impl Fn(i128, i128) -> Option<i128>) -> Option<Aff> {
        let mut out = Aff::constant(f(self.c, o.c)?);
        for i in 0..SLOTS {
            out.coef[i] = f(self.coef[i], o.coef[i])?;
        }
        Some(out)
    }

    /// `self + o`; `None` on an overflow.
    pub fn plus(self, o: Aff) -> Option<Aff> {
        self.zip(o, i128::checked_add)
    }

    /// `self − o`; `None` on an overflow.
    pub fn minus(self, o: Aff) -> Option<Aff> {
        self.zip(o, i128::checked_sub)
    }

    /// `k·self`; `None` on an overflow.
    pub fn times(self, k: i128) -> Option<Aff> {
        self.zip(Aff::constant(0), |a, _| a.checked_mul(k))
    }

    /// The form without its term in slot `s`.
    pub fn without(mut self, s: u8) -> Aff {
        self.coef[s as usize] = 0;
        self
    }

    /// Whether only the slots in `allowed` appear.
    pub fn only(&self, allowed: &[u8]) -> bool {
        self.coef
            .iter()
            .enumerate()
            .all(|(i, &x)| x == 0 || allowed.contains(&(i as u8)))
    }

    /// `self ≤ o` wherever every slot is ≥ 0, by comparing coefficients (sufficient, not
    /// necessary).
    pub fn below(&self, o: &Aff) -> bool {
        self.c <= o.c && (0..SLOTS).all(|i| self.coef[i] <= o.coef[i])
    }
}

/// `e` as an affine form, the slots of `known` replaced by their values; `None` when it is not
/// affine (a product of two variables, a division of one, a function of one).
pub fn affine(e: &CExpr, known: &Known) -> Option<Aff> {
    match e {
        CExpr::Num(n) => Some(Aff::constant(*n)),
        CExpr::Slot(s) => Some(match known[*s as usize] {
            Some(v) => Aff::constant(v),
            None => Aff::slot(*s),
        }),
        CExpr::Neg(a) => affine(a, known)?.times(-1),
        CExpr::Bin(op, a, b, _) => {
            let (x, y) = (affine(a, known)?, affine(b, known)?);
            match op {
                BinOp::Add => x.plus(y),
                BinOp::Sub => x.minus(y),
                BinOp::Mul if x.is_constant() => y.times(x.c),
                BinOp::Mul if y.is_constant() => x.times(y.c),
                _ if x.is_constant() && y.is_constant() => Some(Aff::constant(match op {
                    BinOp::Div => floor_div(x.c, y.c)?,
                    BinOp::Rem => floor_rem(x.c, y.c)?,
                    BinOp::Pow => super::super::numbers::pow(x.c, y.c)?,
                    _ => return None,
                })),
                _ => None,
            }
        }
        CExpr::Call(f, args, _) => {
            let vals: Option<Vec<i128>> = args
                .iter()
                .map(|a| affine(a, known).filter(Aff::is_constant).map(|a| a.c))
                .collect();
            let vals = vals?;
            Some(Aff::constant(match f {
                Func::Min => *vals.iter().min()?,
                Func::Max => *vals.iter().max()?,
                Func::Abs => vals[0].checked_abs()?,
                _ => return None,
            }))
        }
        CExpr::AbsDiff(..) => None,
    }
}

/// The affine forms whose least (`min`) or greatest is `e`: `min(a, b)` is a or b, whichever
/// is less.
pub fn candidates(e: &CExpr, known: &Known, min: bool) -> Option<Vec<Aff>> {
    match e {
        CExpr::Call(Func::Min, args, _) if min => {
            let mut out = Vec::new();
            for a in args {
                out.extend(candidates(a, known, min)?);
            }
            Some(out)
        }
        CExpr::Call(Func::Max, args, _) if !min => {
            let mut out = Vec::new();
            for a in args {
                out.extend(candidates(a, known, min)?);
            }
            Some(out)
        }
        _ => Some(vec![affine(e, known)?]),
    }
}

/// A comparison `lhs op rhs` of affine sides as forms that must be ≥ 0 (`a < b` is
/// `b − a − 1 ≥ 0`); `None` for `!=` or sides that are not affine.
pub fn nonnegative(lhs: &CExpr, op: CmpOp, rhs: &CExpr, known: &Known) -> Option<Vec<Aff>> {
    let d = affine(lhs, known)?.minus(affine(rhs, known)?)?;
    let one = Aff::constant(1);
    Some(match op {
        CmpOp::Ge => vec![d],
        CmpOp::Gt => vec![d.minus(one)?],
        CmpOp::Le => vec![d.times(-1)?],
        CmpOp::Lt => vec![d.times(-1)?.minus(one)?],
        CmpOp::Eq => vec![d, d.times(-1)?],
        CmpOp::Ne => return None,
    })
}

/// A condition made only of comparisons joined by `and`, as forms ≥ 0; `None` otherwise.
pub fn conjunction(c: &CCond, known: &Known) -> Option<Vec<Aff>> {
    match c {
        CCond::Compare(es, ops) => {
            let mut out = Vec::new();
            for (i, &op) in ops.iter().enumerate() {
                out.extend(nonnegative(&es[i], op, &es[i + 1], known)?);
            }
            Some(out)
        }
        CCond::And(cs) => {
            let mut out = Vec::new();
            for c in cs {
                out.extend(conjunction(c, known)?);
            }
            Some(out)
        }
        _ => None,
    }
}

/// The bounds on a range loop's variable: from its range and from its guards, as forms in the
/// other slots with the divisor the variable's coefficient leaves (`2k ≤ n` bounds k by n/2).
#[derive(Debug, Clone, Default)]
pub struct Bounds {
    /// k ≥ ⌈form / d⌉.
    pub lower: Vec<(Aff, i128)>,
    /// k ≤ ⌊form / d⌋.
    pub upper: Vec<(Aff, i128)>,
    /// Guards on the loop that do not name its variable (forms ≥ 0).
    pub other: Vec<Aff>,
}

/// The bounds of `l` (a range whose guards all fold into it), or `None`.
pub fn loop_bounds(l: &CLoop, known: &Known) -> Option<Bounds> {
    let CSource::Range { lo, hi, inclusive } = &l.source else {
        return None;
    };
    let constraints: &Vec<Constraint> = l.constraints.as_ref()?;
    let k = l.slot;
    let mut b = Bounds::default();
    for c in candidates(lo, known, false)? {
        b.lower.push((c, 1));
    }
    for c in candidates(hi, known, true)? {
        let c = if *inclusive { c } else { c.minus(Aff::constant(1))? };
        b.upper.push((c, 1));
    }
    for c in constraints {
        for f in nonnegative(&c.lhs, c.op, &c.rhs, known)? {
            let ck = f.coef[k as usize];
            let rest = f.without(k);
            match ck {
                0 => b.other.push(rest),
                // ck·k + rest ≥ 0: k ≥ −rest/ck, or k ≤ rest/(−ck)
                ck if ck > 0 => b.lower.push((rest.times(-1)?, ck)),
                ck => b.upper.push((rest, -ck)),
            }
        }
    }
    Some(b)
}

/// A rational affine function of one heap `n`: `(p·n + q) / d`, `d > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lin {
    /// The coefficient of `n`.
    pub p: i128,
    /// The constant term.
    pub q: i128,
    /// The divisor, positive.
    pub d: i128,
}

impl Lin {
    /// The form (in slot `n` alone) divided by `d`.
    pub fn of(a: &Aff, n: u8, d: i128) -> Option<Lin> {
        a.only(&[n]).then_some(Lin {
            p: a.coef[n as usize],
            q: a.c,
            d,
        })
    }

    /// The constant `c`.
    pub fn constant(c: i128) -> Lin {
        Lin { p: 0, q: c, d: 1 }
    }

    /// `γ·self + α·n + β`.
    pub fn shifted(self, gamma: i128, alpha: i128, beta: i128) -> Option<Lin> {
        Some(Lin {
            p: gamma.checked_mul(self.p)?.checked_add(alpha.checked_mul(self.d)?)?,
            q: gamma.checked_mul(self.q)?.checked_add(beta.checked_mul(self.d)?)?,
            d: self.d,
        })
    }
}

/// The least `N` past which the floors of `f` and `g` (differing slopes) keep their order
/// with a gap of more than 3 (`None`: equal slopes, whose gap never grows).
pub fn settled_after(f: Lin, g: Lin) -> Option<i128> {
    // f − g = ((p_f d_g − p_g d_f) n + (q_f d_g − q_g d_f)) / (d_f d_g)
    let slope = f.p.checked_mul(g.d)?.checked_sub(g.p.checked_mul(f.d)?)?;
    if slope == 0 {
        return None;
    }
    let offset = f.q.checked_mul(g.d)?.checked_sub(g.q.checked_mul(f.d)?)?;
    let dd = f.d.checked_mul(g.d)?;
    // |slope·n + offset| ≥ 4·dd for n past (4·dd + |offset|) / |slope|, plus one for floors
    let n = (4i128.checked_mul(dd)?.checked_add(offset.checked_abs()?)?) / slope.abs() + 2;
    Some(n)
}

/// The least common multiple, `None` past `cap`.
pub fn lcm_capped(a: i128, b: i128, cap: i128) -> Option<i128> {
    let g = {
        let (mut x, mut y) = (a.abs(), b.abs());
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x.max(1)
    };
    let l = a.abs() / g * b.abs();
    (l <= cap).then_some(l)
}
