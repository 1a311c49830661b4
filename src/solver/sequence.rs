//! Values G(0..N) of one-heap rulesets, with the period and pre-period detected and certified.
//!
//! Certificates:
//! - a ruleset whose value at n depends only on the previous `M` values (subtraction games,
//!   octal games that never split, and push compounds of them whose pushes lead to certified
//!   periodic sequences) is periodic from `n0` with period `p` once `G(i + p) = G(i)` for `M`
//!   consecutive `i ≥ n0` (and `p` is a multiple of the pushes' periods, `n0` past their
//!   pre-periods): every later value is the same function of the same window;
//! - an octal game that splits heaps, under normal play, by the Guy–Smith periodicity theorem:
//!   if `G(n + p) = G(n)` for all `n0 ≤ n < 2·n0 + p + t` (t the largest number of tokens a move
//!   removes) then for all `n ≥ n0`.
//!
//! Once certified, the rest of the sequence is filled by the period, so `seq octal(0.07) --to
//! 1000000` costs what the first few hundred values cost.

use super::control::{Control, SolveError};
use super::search::Search;
use crate::game::rules::one_heap::{OctalOption, divisor_options};
use crate::game::{MexSet, Position, Ruleset, Shape, has_sequence};

const NONE: u32 = u32::MAX;

/// Period and pre-period of a sequence, with the certificate's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Periodicity {
    /// G(n + period) = G(n) for all n ≥ preperiod.
    pub period: u64,
    pub preperiod: u64,
}

/// G(0..N) of a one-heap ruleset.
#[derive(Debug, Clone)]
pub struct Sequence {
    /// `None` where n is not a position (the divisor game has no heap 0).
    pub values: Vec<Option<u32>>,
    /// `Some` once a period is certified within the computed range (so for all n).
    pub periodicity: Option<Periodicity>,
}

/// How the value at n depends on earlier values, for certification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Memory {
    /// G(n) is a function of G(n-1..n-M) and n mod (pushes' periods) for n ≥ M.
    Window(u64),
    /// Octal game with splits under normal play; t = largest take.
    GuySmith(u64),
    /// No certificate (the divisor game, Fibonacci Nim).
    Unbounded,
}

/// Computes G(0..n).
pub fn sequence(ruleset: &Ruleset, n: u64, control: &Control) -> Result<Sequence, SolveError> {
    if !has_sequence(ruleset) {
        return Err(SolveError::Unsupported(format!(
            "{ruleset} is not played on one heap; use grid for two heaps"
        )));
    }
    let len = usize::try_from(n).map_err(|_| SolveError::OverBudget {
        what: format!("{n} values"),
        needed: u64::MAX,
        budget: control.memory_budget(),
    })?;
    control.reserve(format!("{n} values of {ruleset}"), n.saturating_mul(12))?;
    control.set_total(n);
    fill(ruleset, len, control)
}

fn fill(ruleset: &Ruleset, n: usize, control: &Control) -> Result<Sequence, SolveError> {
    let extras = ruleset
        .push_successors()
        .iter()
        .map(|s| fill(s, n, control))
        .collect::<Result<Vec<_>, _>>()?;
    let (base, misere) = ruleset.base();
    let terminal = u32::from(misere);
    let memory = match base {
        Ruleset::Subtraction(s) => Memory::Window(*s.last().unwrap_or(&1)),
        Ruleset::Tag(k) => Memory::Window(*k),
        Ruleset::Nim | Ruleset::Zeruclid | Ruleset::Cdn | Ruleset::Divisor | Ruleset::FibonacciNim => Memory::Unbounded,
        Ruleset::Octal(code) if !code.splits() => Memory::Window(code.max_take()),
        Ruleset::Octal(code) if extras.is_empty() && !misere => Memory::GuySmith(code.max_take()),
        // a split heap is a collection: with a push or misère play its value is not a nim-sum
        _ => return fill_by_search(ruleset, n, control),
    };
    // Pushes' periods: the window certificate needs p to be a multiple and n0 past them.
    let mut ext_period = 1u64;
    let mut ext_pre = 0u64;
    let mut memory = memory;
    for e in &extras {
        match e.periodicity {
            Some(p) => {
                ext_period = lcm(ext_period, p.period);
                ext_pre = ext_pre.max(p.preperiod);
            }
            None => memory = Memory::Unbounded,
        }
    }
    let mut values = vec![NONE; n];
    let mut seen = MexSet::new();
    let mut ones = Vec::new();
    let mut octal = Vec::new();
    let mut next_check = 64usize;
    let mut periodicity = None;
    let mut i = 0;
    while i < n {
        // a value of a splitting octal game costs O(n): check every value
        control.check()?;
        if i % 4096 == 0 {
            control.add_done(4096.min((n - i) as u64));
        }
        let ext: Vec<u32> = extras.iter().map(|e| e.values[i].unwrap_or(NONE)).collect();
        if ext.contains(&NONE) {
            i += 1;
            continue;
        }
        seen.clear();
        let mut has_option = !ext.is_empty();
        ext.iter().for_each(|&e| seen.insert(e));
        let heap = i as u64;
        let valid = match base {
            Ruleset::Octal(code) => {
                octal.clear();
                code.options(heap, &mut octal);
                for o in &octal {
                    has_option = true;
                    seen.insert(match *o {
                        OctalOption::Gone => values[0],
                        OctalOption::One(x) => values[x as usize],
                        OctalOption::Two(x, y) => values[x as usize] ^ values[y as usize],
                    });
                }
                true
            }
            Ruleset::FibonacciNim => {
                // a fresh pile: search each (n, n-1) with one shared memo
                return fill_by_search(ruleset, n, control);
            }
            Ruleset::Divisor if heap == 0 => false,
            _ => {
                ones.clear();
                one_heap_options(base, heap, &mut ones);
                for &x in &ones {
                    has_option = true;
                    seen.insert(values[x as usize]);
                }
                true
            }
        };
        if valid {
            values[i] = if has_option { seen.mex() } else { terminal };
        }
        i += 1;
        if i == next_check || i == n {
            next_check *= 2;
            if let Some(p) = certify(&values[..i], memory, ext_period, ext_pre) {
                periodicity = Some(p);
                for j in i..n {
                    values[j] = values[j - p.period as usize];
                }
                break;
            }
        }
    }
    Ok(Sequence {
        values: values.into_iter().map(|v| (v != NONE).then_some(v)).collect(),
        periodicity,
    })
}

/// Options of the non-octal one-heap leaves, as heap sizes.
fn one_heap_options(base: &Ruleset, n: u64, out: &mut Vec<u64>) {
    match base {
        Ruleset::Subtraction(s) => crate::game::rules::one_heap::subtraction_options(s, n, out),
        Ruleset::Tag(k) => out.extend((1..=(*k).min(n)).map(|s| n - s)),
        Ruleset::Divisor => divisor_options(n, out),
        Ruleset::Nim => out.extend(0..n),
        Ruleset::Zeruclid => out.extend((n > 0).then_some(0)),
        Ruleset::Cdn => out.extend(crate::game::rules::heaps::divisors(n).into_iter().map(|d| n - d)),
        _ => {}
    }
}

/// A one-heap ruleset without a fast fill: a memoised search per heap.
fn fill_by_search(ruleset: &Ruleset, n: usize, control: &Control) -> Result<Sequence, SolveError> {
    let mut search = Search::new(ruleset.clone());
    let mut values = Vec::with_capacity(n);
    for i in 0..n as u64 {
        let p = match ruleset.shape() {
            Shape::Fibonacci => Position::fresh_fib(i),
            _ => Position::Heaps(vec![i]),
        };
        values.push(match ruleset.check_position(&p) {
            Ok(()) => Some(search.value(&p, control)?),
            Err(_) => None,
        });
        control.add_done(1);
    }
    Ok(Sequence {
        values,
        periodicity: None,
    })
}

/// The least certified (period, pre-period) of a prefix of a sequence whose value at n is a
/// function of the previous `window` values and of `n mod step` for `n ≥ min_pre` (for
/// example the outcome sequence of `push(sub(S), R2)`, with `step` the period of `R2`).
pub fn certify_window(values: &[u32], window: u64, step: u64, min_pre: u64) -> Option<Periodicity> {
    certify(values, Memory::Window(window), step, min_pre)
}

/// The least certified (period, pre-period) of the computed prefix, if any.
fn certify(values: &[u32], memory: Memory, step: u64, min_pre: u64) -> Option<Periodicity> {
    let len = values.len() as u64;
    let mut p = step;
    while p < len {
        // the last i where the shift by p disagrees
        let last_bad = (0..len - p)
            .rev()
            .find(|&i| values[i as usize] != values[(i + p) as usize]);
        let n0 = last_bad.map_or(0, |i| i + 1).max(min_pre);
        let certified = match memory {
            Memory::Window(m) => n0 + m + p <= len && n0 + p >= m,
            Memory::GuySmith(t) => 2 * n0 + p + t + p <= len,
            Memory::Unbounded => return None,
        };
        if certified && !values[n0 as usize..].contains(&NONE) {
            // The least pre-period for this period is n0; the period is the least one that
            // certifies within the prefix (a smaller true period would certify as well).
            return Some(Periodicity {
                period: p,
                preperiod: n0,
            });
        }
        p += step;
    }
    None
}

fn lcm(a: u64, b: u64) -> u64 {
    a / crate::game::rules::heaps::gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(rules: &str, n: u64) -> Sequence {
        sequence(&rules.parse().unwrap(), n, &Control::new()).unwrap()
    }

    fn plain(rules: &str, n: u64) -> Vec<Option<u32>> {
        let r: Ruleset = rules.parse().unwrap();
        let mut s = Search::plain(r.clone());
        (0..n)
            .map(|i| {
                let p = if r.shape() == Shape::Fibonacci {
                    Position::fresh_fib(i)
                } else {
                    Position::Heaps(vec![i])
                };
                r.check_position(&p).ok().map(|_| s.value(&p, &Control::new()).unwrap())
            })
            .collect()
    }

    #[test]
    fn fills_match_plain_search() {
        for rules in [
            "sub(1,3,4)",
            "tag(5)",
            "divisor",
            "octal(0.07)",
            "octal(0.77)",
            "octal(0.137)",
            "octal(0.6)",
            "misere(sub(2,3))",
            "misere(tag(3))",
            "push(tag(2),tag(3))",
            "push(sub(1,4),octal(0.07))",
            "misere(push(tag(3),sub(2,5)))",
            "push(push(tag(1),tag(2)),tag(4))",
            "nim",
            "cdn",
            "zeruclid",
            "fibonacci-nim",
            "push(octal(0.07),octal(0.07))",
            "misere(octal(0.07))",
        ] {
            // the plain search plays octal games on collections of heaps: keep them small
            let n = if rules.contains("octal(0.07),") || rules.starts_with("misere(octal") {
                16
            } else if rules.contains("octal") {
                40
            } else {
                300
            };
            assert_eq!(seq(rules, n).values, plain(rules, n), "{rules}");
        }
    }

    #[test]
    fn dawson_kayles_published_values_and_period() {
        // Winning Ways: 0.07 in cell indexing, period 34
        let expect = [
            0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0,
            1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
        ];
        let s = seq("octal(0.07)", 100_000);
        let got: Vec<u32> = s.values[..expect.len()].iter().map(|v| v.unwrap()).collect();
        assert_eq!(got, expect);
        assert_eq!(s.periodicity.map(|p| p.period), Some(34));
        // the extrapolated tail agrees with a direct computation (mex over removing 2 from an
        // end or splitting what is left in two) where both exist
        let mut naive = vec![0u32; 3000];
        for n in 2..naive.len() {
            let rest = n - 2;
            let mut seen: Vec<u32> = (0..=rest / 2).map(|x| naive[x] ^ naive[rest - x]).collect();
            seen.sort_unstable();
            naive[n] = (0..).find(|v| seen.binary_search(v).is_err()).unwrap();
        }
        let got: Vec<u32> = s.values[..3000].iter().map(|v| v.unwrap()).collect();
        assert_eq!(got, naive);
    }

    #[test]
    fn kayles_published_values_and_period() {
        let expect = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7,
        ];
        let s = seq("octal(0.77)", 2000);
        let got: Vec<u32> = s.values[..expect.len()].iter().map(|v| v.unwrap()).collect();
        assert_eq!(got, expect);
        assert_eq!(
            s.periodicity,
            Some(Periodicity {
                period: 12,
                preperiod: 71
            })
        );
    }

    #[test]
    fn subtraction_periods() {
        assert_eq!(
            seq("tag(5)", 100).periodicity,
            Some(Periodicity {
                period: 6,
                preperiod: 0
            })
        );
        assert_eq!(seq("divisor", 100).periodicity, None);
        assert_eq!(seq("divisor", 3).values, vec![None, Some(0), Some(1)]);
    }
}
