//! What the inspector shows about one position: its value and outcome, its options with their
//! values (at most a fixed number of them, with the total), the mex computation made visible,
//! and which phase of a compound it is in. Computed on the inspector's worker lane.

use super::control::{Control, SolveError};
use super::evaluate::{Evaluator, OptionValue, first_options};
use crate::game::rules::paging::{self, ENUMERATE_LIMIT, option_bound};
use crate::game::{Outcome, Position, Ruleset};

/// Most options whose values one report computes (the rest are counted, not valued).
pub const DEFAULT_OPTION_LIMIT: usize = 5000;

/// Everything the inspector shows about one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionReport {
    /// The ruleset the position is of.
    pub ruleset: Ruleset,
    /// The position reported on.
    pub position: Position,
    /// The Grundy value (the misère Grundy value under misère play); in a game that loops, the
    /// cell of its value ([`super::evaluate::gamma_cell`]) and the value itself in `gamma`.
    pub value: u32,
    /// P (the player to move loses) or N.
    pub outcome: Outcome,
    /// The value in a game that loops (`None` for finite games): `n` or `∞(A)`.
    pub gamma: Option<crate::game::Gamma>,
    /// The first options in the ruleset's move order, with their values.
    pub options: Vec<OptionValue>,
    /// How many options the position has, when they were enumerated (`None`: too many to list).
    pub total_options: Option<u64>,
    /// For compounds: which phase or component the position is in, in words.
    pub phase: Option<String>,
}

impl PositionReport {
    /// The value as the inspector writes it: the Grundy value, or `∞(A)` in a game that loops.
    pub fn value_text(&self) -> String {
        self.gamma
            .as_ref()
            .map_or_else(|| self.value.to_string(), ToString::to_string)
    }

    /// Whether every option was valued, so the mex below is over all of them.
    pub fn complete(&self) -> bool {
        self.total_options == Some(self.options.len() as u64)
    }

    /// The distinct values of the valued options, ascending.
    pub fn option_values(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.options.iter().map(|o| o.grundy).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The least value missing among the valued options (equal to `value` under normal play
    /// when the report is complete and the position is not terminal).
    pub fn mex(&self) -> u32 {
        crate::game::mex(self.options.iter().map(|o| o.grundy))
    }

    /// The winning options (those leading to P-positions).
    pub fn winning(&self) -> impl Iterator<Item = &OptionValue> {
        self.options.iter().filter(|o| o.winning)
    }

    /// Whether the position has no move (the game is over).
    pub fn is_terminal(&self) -> bool {
        self.total_options == Some(0)
    }
}

/// Which phase or component a position of a compound is in, in words; `None` for leaves.
pub fn phase(ruleset: &Ruleset, p: &Position) -> Option<String> {
    match (ruleset, p) {
        (Ruleset::Push(..) | Ruleset::Misere(_), Position::Pushed { choice, .. }) => {
            let succ = ruleset.push_successors();
            let next = succ.get(*choice as usize).map_or_else(String::new, |s| s.to_string());
            Some(format!("after the push: playing {next}"))
        }
        (Ruleset::Push(..), _) => Some(format!(
            "before the push: playing {}; the button may still be pushed",
            ruleset.base().0
        )),
        (Ruleset::Misere(r), p) => phase(r, p).map(|s| format!("{s} (misère play)")),
        (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => Some(format!("a sum: {pa} in {a}, and {pb} in {b}")),
        _ => None,
    }
}

/// The report of `p`, a legal position of `ruleset`, valuing at most `limit` options.
pub fn report(
    evaluator: &mut Evaluator,
    ruleset: &Ruleset,
    p: &Position,
    limit: usize,
    control: &Control,
) -> Result<PositionReport, SolveError> {
    ruleset
        .check_position(p)
        .map_err(|e| SolveError::Unsupported(e.to_string()))?;
    let answer = evaluator.answer(ruleset, p, control)?;
    let gamma = answer
        .gamma()
        .filter(|_| answer.method == super::evaluate::ValueMethod::Loopy);
    let value = match &gamma {
        Some(g) => super::evaluate::gamma_cell(g),
        None => evaluator.value(ruleset, p, control)?,
    };
    let outcome = answer.outcome;
    let mut options = Vec::new();
    let mut total = None;
    // counted and paged without generating the rest where the ruleset allows (a heap of 10^6
    // has half a million splits: the first page costs a page)
    let first = match paging::option_count(ruleset, p) {
        Some(_) => Some(first_options(ruleset, p, 0, limit, control)?),
        None if option_bound(ruleset, p) <= ENUMERATE_LIMIT => Some(first_options(ruleset, p, 0, limit, control)?),
        None => None,
    };
    if let Some((count, page)) = first {
        total = Some(u64::try_from(count).unwrap_or(u64::MAX));
        for o in page {
            options.push(evaluator.option_value(ruleset, p, o, control)?);
        }
    }
    Ok(PositionReport {
        ruleset: ruleset.clone(),
        position: p.clone(),
        value,
        outcome,
        gamma,
        options,
        total_options: total,
        phase: phase(ruleset, p),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::theory;

    fn rep(rules: &str, pos: &str) -> PositionReport {
        let r: Ruleset = rules.parse().unwrap();
        let p = r.parse_position(pos).unwrap();
        report(&mut Evaluator::new(), &r, &p, DEFAULT_OPTION_LIMIT, &Control::new()).unwrap()
    }

    #[test]
    fn nim_winning_moves_are_boutons_balancing_move() {
        for heaps in [[1u64, 3, 5, 6], [2, 7, 9, 4], [8, 8, 3, 0], [5, 6, 3, 0]] {
            let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
            let r = rep("nim", &text.join(","));
            assert_eq!(u64::from(r.value), theory::nim_sum(&heaps));
            assert!(r.complete());
            assert_eq!(r.total_options, Some(heaps.iter().sum::<u64>()));
            // every balancing move (the one the lemma picks included) is marked, and only those
            let balancing: Vec<Vec<u64>> = (0..4)
                .filter_map(|i| {
                    let y = theory::nim_sum(&heaps) ^ heaps[i];
                    (y < heaps[i]).then(|| {
                        let mut h = heaps.to_vec();
                        h[i] = y;
                        h
                    })
                })
                .collect();
            let wins: Vec<Position> = r.winning().map(|o| o.position.clone()).collect();
            assert_eq!(wins, balancing.into_iter().map(Position::Heaps).collect::<Vec<_>>());
            if let Some((k, y)) = theory::bouton_winning_move(&heaps) {
                let mut h = heaps.to_vec();
                h[k] = y;
                assert!(wins.contains(&Position::Heaps(h)));
            }
        }
    }

    #[test]
    fn wythoff_values_outcomes_and_mex_agree_with_the_closed_form() {
        for a in 0..12 {
            for b in 0..12 {
                let r = rep("wythoff", &format!("{a},{b}"));
                assert_eq!(r.outcome == Outcome::P, theory::is_wythoff_p(a, b), "({a},{b})");
                assert_eq!(r.mex(), r.value, "({a},{b})");
                for o in &r.options {
                    let Position::Heaps(h) = &o.position else { panic!() };
                    assert_eq!(o.winning, theory::is_wythoff_p(h[0], h[1]));
                }
            }
        }
    }

    #[test]
    fn the_option_limit_counts_the_rest() {
        let r: Ruleset = "nim".parse().unwrap();
        let p = r.parse_position("300,200").unwrap();
        let rep = report(&mut Evaluator::new(), &r, &p, 100, &Control::new()).unwrap();
        assert_eq!(rep.options.len(), 100);
        assert_eq!(rep.total_options, Some(500));
        assert!(!rep.complete());
        assert_eq!(rep.value, 300 ^ 200);
        // millions of options: counted, and the first page listed
        let p = r.parse_position("3000000,7,1").unwrap();
        let rep = report(&mut Evaluator::new(), &r, &p, 100, &Control::new()).unwrap();
        assert_eq!(rep.total_options, Some(3_000_008));
        assert_eq!(rep.options.len(), 100);
        assert_eq!(rep.options[99].to, "99,7,1");
        assert_eq!(rep.value, 3_000_000 ^ 7 ^ 1);
    }

    #[test]
    fn a_huge_subtraction_heap_has_few_options() {
        let rep = rep("sub(1,3,4)", "1000000000000");
        assert_eq!(rep.total_options, Some(3));
        // sub(1,3,4) has period 7 with P-positions n ≡ 0, 2 (mod 7)
        assert_eq!(rep.outcome == Outcome::P, [0, 2].contains(&(1_000_000_000_000u64 % 7)));
    }

    #[test]
    fn compounds_name_their_phase() {
        let before = rep("push(nim,euclid0)", "2,4");
        assert!(before.phase.as_deref().unwrap().starts_with("before the push"));
        assert_eq!(before.options.last().unwrap().description, "push the button");
        // seed 003 Table 1: (2,4) is a P-position of nim pushed into euclid0
        assert_eq!(before.value, 0);
        let after = rep("push(nim,euclid0)", "pushed(2,4)");
        assert_eq!(after.phase.as_deref(), Some("after the push: playing euclid0"));
        assert!(rep("nim", "3,4").phase.is_none());
    }

    #[test]
    fn terminal_positions() {
        let r = rep("euclid", "5,0");
        assert!(r.is_terminal());
        assert_eq!((r.value, r.mex()), (0, 0));
        let r = rep("misere(nim)", "0");
        assert!(r.is_terminal());
        assert_eq!(r.value, 1);
    }
}
