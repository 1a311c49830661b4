//! Values known without a search: the closed forms of [`crate::game::theory`] applied to
//! positions of the catalog, for heaps of any size a `u64` holds.
//!
//! Each closed form used here is compared with the plain mex search on every small position in
//! `crates/core/tests/it/heap_games.rs`; a ruleset without a tested closed form gets none (it is searched).
//! Where the theory gives only the outcome (Wythoff off its P-positions, Fibonacci Nim), the
//! answer says so: [`Known::Outcome`], used only when a search would not fit the budget.

use crate::game::rules::euclid::EuclidVariant;
use crate::game::theory as th;
use crate::game::{Outcome, Position, Ruleset};

/// What a closed form tells about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// The Grundy value.
    Value(u64),
    /// Only the outcome: the value has no closed form here.
    Outcome(Outcome),
}

/// A closed form's answer and the statement it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosedForm {
    /// The value, or only the outcome.
    pub known: Known,
    /// The theorem, e.g. "Bouton's theorem".
    pub by: &'static str,
}

impl ClosedForm {
    fn value(v: u64, by: &'static str) -> Option<Self> {
        Some(Self {
            known: Known::Value(v),
            by,
        })
    }

    fn outcome(p: bool, by: &'static str) -> Option<Self> {
        Some(Self {
            known: Known::Outcome(if p { Outcome::P } else { Outcome::N }),
            by,
        })
    }
}

const BOUTON: &str = "Bouton's theorem (the nim-sum of the heaps)";
const WYTHOFF: &str = "Wythoff's theorem (P-positions are the Beatty pairs, seed 003 Prop 3.1.3)";
const EUCLID: &str = "seed 000 Theorem 1 (Cole–Davie's Euclid)";
const GROSSMAN: &str = "seed 000 Theorem 1 (Grossman's game)";
const M_EUCLID: &str = "seed 000 Theorem 2 (M-Euclid)";
const CDN: &str = "seed 001 Theorem 1.3 (2-adic valuations, as derived here)";
const TAG: &str = "seed 003 Prop 4.2.2 (G(n) = n mod (k+1))";
const DIVISOR: &str = "the divisor game: G(n) = v2(n) (derived here)";
const FIBONACCI: &str = "seed 004 (Zeckendorf): P iff the quota is below the smallest Zeckendorf term";
const TERMINAL: &str = "a terminal position";
const MISERE_NIM: &str = "misère Nim (Bouton): the nim-sum, flipped in its last bit when no heap exceeds 1";

/// The misère Grundy value of misère Nim (the mex over the options, 1 at the terminal
/// position): the nim-sum when a heap exceeds 1, else 1 XOR the nim-sum (the parity of the
/// heaps of 1, flipped). By induction: with a heap ≥ 2 the options reach every smaller nim-sum
/// (through positions with a heap ≥ 2, or with every heap ≤ 1 and the right parity) and never
/// the nim-sum itself; with heaps ≤ 1 the only options flip the parity.
fn misere_nim_grundy(h: &[u64]) -> u64 {
    let x = th::nim_sum(h);
    if h.iter().any(|&n| n >= 2) { x } else { x ^ 1 }
}

/// The closed form of `p`, a legal position of `ruleset`, if the theory gives one. Leaf
/// rulesets under normal play, and misère Nim: push compounds, sums and other misère games are
/// not covered here.
pub fn closed_form(ruleset: &Ruleset, p: &Position) -> Option<ClosedForm> {
    match (ruleset, p) {
        (Ruleset::Nim, Position::Heaps(h)) => ClosedForm::value(th::nim_sum(h), BOUTON),
        (Ruleset::Misere(inner), Position::Heaps(h)) if **inner == Ruleset::Nim => {
            ClosedForm::value(misere_nim_grundy(h), MISERE_NIM)
        }
        (Ruleset::Wythoff, Position::Heaps(h)) => wythoff(h[0], h[1]),
        (Ruleset::Euclid(v), Position::Heaps(h)) => euclid(*v, h[0], h[1]),
        (Ruleset::Cdn, Position::Heaps(h)) => ClosedForm::value(th::cdn_grundy(h), CDN),
        (Ruleset::Tag(k), Position::Heaps(h)) if h.len() == 1 => ClosedForm::value(th::tag_grundy(*k, h[0]), TAG),
        (Ruleset::Divisor, Position::Heaps(h)) if h.len() == 1 => ClosedForm::value(th::divisor_grundy(h[0]), DIVISOR),
        (Ruleset::FibonacciNim, Position::Fib { n, q }) => {
            if *n == 0 || *q == 0 {
                ClosedForm::value(0, TERMINAL)
            } else {
                ClosedForm::outcome(th::fibonacci_nim_p(*n, *q), FIBONACCI)
            }
        }
        _ => None,
    }
}

fn wythoff(a: u64, b: u64) -> Option<ClosedForm> {
    if a == 0 || b == 0 {
        // one heap left: Nim on it
        return ClosedForm::value(a.max(b), BOUTON);
    }
    if th::is_wythoff_p(a, b) {
        ClosedForm::value(0, WYTHOFF)
    } else {
        ClosedForm::outcome(false, WYTHOFF)
    }
}

fn euclid(variant: EuclidVariant, a: u64, b: u64) -> Option<ClosedForm> {
    let (lo, hi) = (a.min(b), a.max(b));
    match variant {
        EuclidVariant::ColeDavie => match (lo, hi) {
            (0, _) => ClosedForm::value(0, TERMINAL),
            (lo, hi) if lo == hi => ClosedForm::value(1, EUCLID),
            _ => ClosedForm::value(th::euclid_grundy(lo, hi), EUCLID),
        },
        EuclidVariant::Grossman | EuclidVariant::Zero => match (lo, hi) {
            (0, 0) => ClosedForm::value(0, TERMINAL),
            // euclid0's extension: (0,i) has the single move to (0,0)
            (0, _) => ClosedForm::value(1, GROSSMAN),
            (lo, hi) if lo == hi => ClosedForm::value(0, TERMINAL),
            _ => ClosedForm::value(th::grossman_grundy(lo, hi), GROSSMAN),
        },
        EuclidVariant::Multiple => {
            if lo == 0 || hi.is_multiple_of(lo) {
                ClosedForm::value(0, TERMINAL)
            } else {
                ClosedForm::value(th::m_euclid_grundy(lo, hi), M_EUCLID)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misere_nim_matches_the_plain_search() {
        use crate::solver::{Control, search::Search};
        let r: Ruleset = "misere(nim)".parse().unwrap();
        let mut search = Search::plain(r.clone());
        for a in 0..7u64 {
            for b in 0..6u64 {
                for c in 0..4u64 {
                    for p in [vec![a], vec![a, b], vec![a, b, c]] {
                        let p = Position::Heaps(p);
                        let want = u64::from(search.value(&p, &Control::new()).unwrap());
                        assert_eq!(closed_form(&r, &p).map(|c| c.known), Some(Known::Value(want)), "{p}");
                    }
                }
            }
        }
    }

    #[test]
    fn huge_heaps_have_values() {
        let nim: Ruleset = "nim".parse().unwrap();
        let p = Position::Heaps(vec![1_000_000_000_000_000_000, 3]);
        assert_eq!(
            closed_form(&nim, &p).map(|c| c.known),
            Some(Known::Value(1_000_000_000_000_000_000 ^ 3))
        );
        let w: Ruleset = "wythoff".parse().unwrap();
        let big = 1_000_000_000_000_000_000u64;
        assert_eq!(
            closed_form(&w, &Position::Heaps(vec![big, big])).map(|c| c.known),
            Some(Known::Outcome(Outcome::N))
        );
        let (a, b) = th::wythoff_pair(big);
        assert_eq!(
            closed_form(&w, &Position::Heaps(vec![b, a])).map(|c| c.known),
            Some(Known::Value(0))
        );
    }
}
