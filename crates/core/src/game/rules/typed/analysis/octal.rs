//! Take-and-break rules on one heap: the subtraction and octal games typed as rules, found by
//! comparing the rule's options with a code's on every heap up to a bound, with a proof that
//! the comparison holds beyond it.
//!
//! The proof: every term must be affine — loops over constants (bound one value at a time),
//! and at most one loop whose range and guards are affine in the heap `n` and its variable `k`
//! (so for each `n` the values of `k` form one interval, `max` of lower bounds to `min` of
//! upper bounds, each `⌈(p·n + q)/d⌉` or `⌊(p·n + q)/d⌋`), targets affine in `n` and `k` with
//! `k`'s coefficient −1, 0 or 1. The options of heap `n` are then fixed by the order of finitely
//! many such functions of `n` (the bounds, the targets at the bounds, the code's `n − t` and
//! `(n − t)/2`, small constants): two with different slopes keep their order (with a margin)
//! past the point where they cross, two with the same slope differ by a periodic amount. Past
//! the last crossing `N`, whether the options equal the code's is periodic in `n` with period
//! `D`, the least common multiple of the divisors; so equality on every heap up to `N + 2D`
//! holds on every heap. The code's functions count for the takes the code has: the heaps are
//! compared up to a bound for the takes seen, and further if a larger take shows below it.

use super::super::program::{CSource, CTerm, Program};
use super::super::run::{self, MAX_OPTIONS};
use super::Equivalent;
use super::affine::{Aff, Known, Lin, NOTHING_KNOWN, affine, conjunction, lcm_capped, loop_bounds, settled_after};
use crate::game::rules::one_heap::{MAX_DIGITS, OctalCode, SubtractionSet};

/// The largest heap the comparison runs to (past it the rule is not recognised).
const MAX_CHECKED: i128 = 4096;
/// The most bindings of the loops over constants of one term.
const MAX_BINDINGS: usize = 4096;

/// A take-and-break code: `digits[t]` says whether taking `t` tokens may leave no heap (1),
/// one heap (2), two heaps (4) or three (8); `digits[0]` (the digit before the point) takes
/// nothing and splits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeAndBreak {
    /// The code's digits, `digits[0]` the one before the point.
    pub digits: Vec<u8>,
    /// Whether a split leaves two different heaps only (Grundy's game: `4.` with unequal parts).
    pub unequal: bool,
}

impl TakeAndBreak {
    /// The code as written: `0.07`, `4.007`.
    pub fn code_text(&self) -> String {
        let mut s = format!("{:x}.", self.digits.first().copied().unwrap_or(0));
        for d in self.digits.iter().skip(1) {
            s.push_str(&format!("{d:x}"));
        }
        if self.digits.len() < 2 {
            s.push('0');
        }
        s
    }

    /// The built-in ruleset: a subtraction game when every digit is 0 or 3, else the octal
    /// code, the digit before the point and its unequal splits included (Grundy's game is
    /// `4u.0`, computed by the rare/common engine as `grundy` is).
    pub fn equivalent(&self) -> Option<Equivalent> {
        if self.unequal || self.digits.first().is_some_and(|&d| d != 0) {
            return self.octal_code().map(Equivalent::Octal);
        }
        if self.digits.len() < 2 {
            return None;
        }
        let rest = &self.digits[1..];
        // a code of no move at all (every digit 0) is no subtraction set: the octal code says it
        if rest.iter().all(|&d| d == 0 || d == 3)
            && let Ok(set) = SubtractionSet::new((1..=rest.len() as u64).filter(|&t| rest[t as usize - 1] == 3))
        {
            return Some(Equivalent::Subtraction(set));
        }
        self.code_text().parse::<OctalCode>().ok().map(Equivalent::Octal)
    }

    /// The code as an [`OctalCode`], the digit before the point and its unequal splits too
    /// (`4u.0` for Grundy's game): the same options on every heap, for what reads a code's
    /// moves without its engine (the size of a search over collections).
    pub fn octal_code(&self) -> Option<OctalCode> {
        let text = self.code_text();
        let text = match text.split_once('.') {
            Some((d0, rest)) if self.unequal => format!("{d0}u.{rest}"),
            _ => text,
        };
        text.parse().ok()
    }

    /// The options of heap `n`, each a sorted collection of non-empty heaps, sorted, each once.
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (t, &d) in self.digits.iter().enumerate() {
            let Some(rest) = n.checked_sub(t as u64) else { break };
            if d & 1 != 0 && rest == 0 && t > 0 {
                out.push(Vec::new());
            }
            if d & 2 != 0 && rest >= 1 && t > 0 {
                out.push(vec![rest]);
            }
            if d & 4 != 0 && rest >= 2 {
                for x in 1..=rest / 2 {
                    if !(self.unequal && t == 0 && 2 * x == rest) {
                        out.push(vec![x, rest - x]);
                    }
                }
            }
            if d & 8 != 0 && rest >= 3 {
                for x in 1..=rest / 3 {
                    for y in x..=(rest - x) / 2 {
                        out.push(vec![x, y, rest - x - y]);
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The functions of `n` whose order fixes a term's options, and their divisors.
#[derive(Default)]
struct Orders {
    lins: Vec<Lin>,
    /// Points past which a guard on `n` alone keeps its truth.
    points: Vec<i128>,
    period: i128,
}

impl Orders {
    fn add_guard(&mut self, f: &Aff) -> Option<()> {
        // α·n + β ≥ 0 changes truth at most once, near n = −β/α
        let a = f.coef[0];
        if a != 0 {
            self.points.push((f.c.checked_abs()? / a.abs()) + 2);
        }
        Some(())
    }

    fn add(&mut self, l: Lin) -> Option<()> {
        self.period = lcm_capped(self.period.max(1), l.d, 64)?;
        self.lins.push(l);
        Some(())
    }

    /// `N`: past every crossing.
    fn settled(&self) -> i128 {
        let mut n = self.points.iter().copied().max().unwrap_or(0);
        for (i, f) in self.lins.iter().enumerate() {
            for g in &self.lins[i + 1..] {
                if let Some(m) = settled_after(*f, *g) {
                    n = n.max(m);
                }
            }
        }
        n
    }
}

/// The loops of a term that run over constants, and the one (the last) that may not.
fn constant_loops(term: &CTerm) -> Option<usize> {
    let constant = |s: &CSource| match s {
        CSource::Set(es) => es
            .iter()
            .all(|e| affine(e, &NOTHING_KNOWN).is_some_and(|a| a.is_constant())),
        CSource::Range { lo, hi, .. } => [lo, hi]
            .iter()
            .all(|e| affine(e, &NOTHING_KNOWN).is_some_and(|a| a.is_constant())),
        CSource::Family(..) => false,
    };
    let n = term.loops.iter().take_while(|l| constant(&l.source)).count();
    (n + 1 >= term.loops.len()).then_some(n)
}

/// Every binding of the loops over constants (`count` of them) as known slot values.
fn bindings(term: &CTerm, count: usize) -> Option<Vec<Known>> {
    let mut out = vec![NOTHING_KNOWN];
    for l in &term.loops[..count] {
        let values: Vec<i128> = match &l.source {
            CSource::Set(es) => es
                .iter()
                .map(|e| affine(e, &NOTHING_KNOWN).map(|a| a.c))
                .collect::<Option<_>>()?,
            CSource::Range { lo, hi, inclusive } => {
                let (lo, hi) = (affine(lo, &NOTHING_KNOWN)?.c, affine(hi, &NOTHING_KNOWN)?.c);
                let last = if *inclusive { hi } else { hi - 1 };
                if last - lo > MAX_BINDINGS as i128 {
                    return None;
                }
                (lo..=last).collect()
            }
            CSource::Family(..) => return None,
        };
        let mut next = Vec::new();
        for known in &out {
            for &v in &values {
                let mut k = *known;
                k[l.slot as usize] = Some(v);
                next.push(k);
            }
        }
        if next.len() > MAX_BINDINGS {
            return None;
        }
        out = next;
    }
    Some(out)
}

/// Adds to `orders` the functions of `n` of one term under one binding of its constant loops.
fn term_orders(term: &CTerm, known: &Known, constant: usize, orders: &mut Orders) -> Option<()> {
    let guards = term
        .guards
        .iter()
        .chain(term.loops[..constant].iter().flat_map(|l| &l.guards));
    for g in guards {
        for f in conjunction(g, known)? {
            if !f.only(&[0]) {
                return None;
            }
            orders.add_guard(&f)?;
        }
    }
    let parts: Vec<Aff> = term
        .target
        .iter()
        .map(|p| affine(&p.expr, known))
        .collect::<Option<_>>()?;
    let Some(l) = term.loops.get(constant) else {
        // no loop left: each part is an affine function of n
        for p in &parts {
            orders.add(Lin::of(p, 0, 1)?)?;
        }
        return Some(());
    };
    let k = l.slot as usize;
    let b = loop_bounds(l, known)?;
    for f in &b.other {
        if !f.only(&[0]) {
            return None;
        }
        orders.add_guard(f)?;
    }
    if parts.iter().any(|p| p.coef[k].abs() > 1 || !p.only(&[0, k as u8])) {
        return None;
    }
    // a split leaves the same number of tokens R whatever k is; one heap may take k of them
    let total = parts.iter().try_fold(Aff::constant(0), |s, p| s.plus(*p))?;
    let r = if parts.len() >= 2 {
        if total.coef[k] != 0 {
            return None;
        }
        let r = Lin::of(&total, 0, 1)?;
        orders.add(r)?;
        orders.add(Lin { d: 2, ..r })?;
        Some(r)
    } else {
        None
    };
    for &(bound, d) in b.lower.iter().chain(&b.upper) {
        let at = Lin::of(&bound, 0, d)?;
        orders.add(at)?;
        for p in &parts {
            let x = at.shifted(p.coef[k], p.coef[0], p.c)?;
            orders.add(x)?;
            if let Some(r) = r {
                // the other part of a split: R − x
                orders.add(Lin {
                    p: r.p.checked_mul(x.d)?.checked_sub(x.p)?,
                    q: r.q.checked_mul(x.d)?.checked_sub(x.q)?,
                    d: x.d,
                })?;
            }
        }
    }
    Some(())
}

/// The options of heap `n` by the rule, normalised, sorted, each once; `None` if it fails
/// there.
fn rule_options(program: &Program, n: u64) -> Option<Vec<Vec<u64>>> {
    let mut out = Vec::new();
    let found = run::options(program, &[n], &mut |_: usize, parts: &[u64]| {
        let mut c: Vec<u64> = parts.iter().copied().filter(|&x| x > 0).collect();
        c.sort_unstable();
        out.push(c);
    });
    if found.is_err() || out.len() as u64 >= MAX_OPTIONS {
        return None;
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

/// The take-and-break digits the options of heaps `0..` show (`options[n]` those of heap n),
/// and whether a split without taking leaves two equal heaps somewhere.
fn digits_of(options: &[Vec<Vec<u64>>]) -> Option<(Vec<u8>, bool)> {
    let mut digits = vec![0u8; MAX_DIGITS + 1];
    let mut split_equal = false;
    for (n, opts) in options.iter().enumerate() {
        for o in opts {
            let t = (n as u64).checked_sub(o.iter().sum())?;
            let bit = match o.len() {
                0 => 1,
                1 => 2,
                2 => 4,
                3 => 8,
                _ => return None,
            };
            if t == 0 && bit < 4 || t as usize > MAX_DIGITS {
                return None;
            }
            split_equal |= o.len() == 2 && o[0] == o[1] && t == 0;
            digits[t as usize] |= bit;
        }
    }
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    Some((digits, split_equal))
}

/// The take-and-break code `program` equals, if it provably equals one (see the module's
/// header). The functions of the code's side (`n − t`, `(n − t)/2`) count for the takes it
/// has: the heaps compared grow until the code they show needs no more.
pub fn take_and_break(program: &Program, zero_terminal: bool) -> Option<TakeAndBreak> {
    if program.arity != 1 || program.domain.is_some() || !zero_terminal || program.terms.is_empty() {
        return None;
    }
    let mut rule = Orders {
        period: 1,
        ..Orders::default()
    };
    for c in 0..=3 {
        rule.add(Lin::constant(c))?;
    }
    for term in &program.terms {
        if term.comprehension {
            return None;
        }
        let constant = constant_loops(term)?;
        for known in bindings(term, constant)? {
            term_orders(term, &known, constant, &mut rule)?;
        }
    }
    let mut options: Vec<Vec<Vec<u64>>> = Vec::new();
    let mut takes = 0usize;
    loop {
        let mut orders = Orders {
            lins: rule.lins.clone(),
            points: rule.points.clone(),
            period: rule.period,
        };
        for t in 0..=takes as i128 {
            orders.add(Lin { p: 1, q: -t, d: 1 })?;
            orders.add(Lin { p: 1, q: -t, d: 2 })?;
        }
        let last = orders.settled().checked_add(2 * orders.period + 8)?;
        if last > MAX_CHECKED {
            return None;
        }
        while (options.len() as i128) <= last {
            options.push(rule_options(program, options.len() as u64)?);
        }
        let (digits, split_equal) = digits_of(&options)?;
        if digits.len() - 1 > takes {
            // a larger take shows: its functions count too, so the heaps compared may grow
            takes = digits.len() - 1;
            continue;
        }
        let code = TakeAndBreak {
            unequal: digits[0] & 4 != 0 && !split_equal,
            digits,
        };
        return options
            .iter()
            .enumerate()
            .all(|(n, opts)| *opts == code.options(n as u64))
            .then_some(code);
    }
}
