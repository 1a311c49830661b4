//! The one entry point for values of single positions and their options: picks the fastest
//! exact method for each position (a cached rectangle for two-heap games, a cached sequence
//! for one heap, nim-sums for sums, the memoised search otherwise) and keeps what it computed
//! for the next request.

use std::collections::HashMap;

use super::control::{Control, SolveError};
use super::cram::CramSolver;
use super::cram::octal::column_runs_value;
use super::grid::{self, Grid};
use super::push_cram::{PushCramSolver, post_push_value};
use super::search::Search;
use super::sequence::{self, Sequence};
use crate::game::catalog::CramKind;
use crate::game::rules::cram_board::Board;
use crate::game::{Layout, Outcome, Position, Ruleset, Shape};

/// Largest rectangle (in cells) solved as a whole to answer one position.
const REGION_CELLS: u64 = 1 << 26;
/// Largest heap answered through a whole sequence.
const SEQUENCE_LEN: u64 = 1 << 20;

/// One option of a position, with its value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OptionValue {
    pub description: String,
    pub to: String,
    pub grundy: u32,
    pub outcome: Outcome,
    /// A move to a P-position wins.
    pub winning: bool,
    #[serde(skip)]
    pub position: Position,
}

/// What `nimscope cram` says about a board besides its value: the number of moves, whether
/// every move wins (a bluff), and before a Push Cram push the value after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CramSummary {
    pub moves: usize,
    pub bluff: bool,
    pub after_push: Option<u32>,
}

/// Caches of regions, sequences and searches, per ruleset, and the Cram solvers with their
/// transposition tables.
#[derive(Default)]
pub struct Evaluator {
    grids: HashMap<Ruleset, Grid>,
    sequences: HashMap<Ruleset, Sequence>,
    searches: HashMap<Ruleset, Search>,
    cram: CramSolver,
    push_cram: PushCramSolver,
}

/// `push-cram` as the expression language spells it.
fn is_push_cram(r: &Ruleset) -> bool {
    matches!(r, Ruleset::Push(a, b) if **a == Ruleset::Cram(CramKind::Vertical) && **b == Ruleset::Cram(CramKind::Horizontal))
}

/// Vertical-only Cram: the nim-sum over columns of 0.07 on each maximal vertical run, i.e. the
/// post-push value of the transposed board.
fn vertical_value(b: &Board) -> u32 {
    column_runs_value(b.empty_mask(), b.rows(), b.cols())
}

impl Evaluator {
    pub fn new() -> Self {
        Self::default()
    }

    /// The Grundy value of a legal position `p` of `ruleset` (the misère Grundy value under
    /// misère play: 0 exactly on P-positions).
    pub fn value(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<u32, SolveError> {
        if let Position::Pushed { choice, inner } = p {
            let succ = ruleset.push_successors();
            let s = succ
                .get(*choice as usize)
                .ok_or_else(|| SolveError::Unsupported(format!("{ruleset} has no push number {choice}")))?;
            return self.value(s, inner, control);
        }
        if let (Ruleset::Sum(ra, rb), Position::Sum(pa, pb)) = (ruleset, p) {
            return Ok(self.value(ra, pa, control)? ^ self.value(rb, pb, control)?);
        }
        if let Position::Board(b) = p {
            match ruleset {
                Ruleset::Cram(CramKind::Both) => return self.cram.value(b, control),
                Ruleset::Cram(CramKind::Horizontal) => return Ok(post_push_value(b)),
                Ruleset::Cram(CramKind::Vertical) => return Ok(vertical_value(b)),
                r if is_push_cram(r) => return self.push_cram.value(b, control),
                _ => {}
            }
        }
        if let Some(v) = self.by_region(ruleset, p, control)? {
            return Ok(v);
        }
        self.searches
            .entry(ruleset.clone())
            .or_insert_with(|| Search::new(ruleset.clone()))
            .value(p, control)
    }

    /// Values from a whole rectangle or sequence, when the position's shape has a fast fill and
    /// the region is small enough.
    fn by_region(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<Option<u32>, SolveError> {
        let cell = match (ruleset.shape(), p) {
            (Shape::TwoHeaps | Shape::AnyHeaps, Position::Heaps(h)) if h.len() == 2 => Some((h[0], h[1])),
            (Shape::Fibonacci, Position::Fib { n, q }) => Some((*n, (*q).min(*n))),
            _ => None,
        };
        if let Some((a, b)) = cell {
            if let Some(v) = self.grids.get(ruleset).and_then(|g| g.get(a, b)) {
                return Ok(Some(v));
            }
            let cells = (a.saturating_add(1)).saturating_mul(b.saturating_add(1));
            if grid::has_fast_fill(ruleset) && cells <= REGION_CELLS {
                let g = grid::grid(ruleset, &Layout::Plain, 0..a + 1, 0..b + 1, control)?;
                let v = g.get(a, b);
                self.grids.insert(ruleset.clone(), g);
                return Ok(v);
            }
            return Ok(None);
        }
        if let (Shape::OneHeap, Position::Heaps(h)) = (ruleset.shape(), p)
            && h.len() == 1
            && h[0] >= SEQUENCE_LEN
        {
            // A large heap: a certified period answers it from a prefix.
            let s = match self.sequences.get(ruleset) {
                Some(s) => s,
                None => {
                    let s = sequence::sequence(ruleset, SEQUENCE_LEN, control)?;
                    self.sequences.entry(ruleset.clone()).or_insert(s)
                }
            };
            if let Some(per) = s.periodicity {
                let n = h[0];
                let i = if n < per.preperiod {
                    n
                } else {
                    per.preperiod + (n - per.preperiod) % per.period
                };
                return Ok(s.values.get(i as usize).copied().flatten());
            }
        }
        if let (Shape::OneHeap, Position::Heaps(h)) = (ruleset.shape(), p)
            && h.len() == 1
            && h[0] < SEQUENCE_LEN
        {
            let n = h[0] as usize;
            if let Some(v) = self
                .sequences
                .get(ruleset)
                .and_then(|s| s.values.get(n).copied().flatten())
            {
                return Ok(Some(v));
            }
            let s = sequence::sequence(ruleset, h[0] + 1, control)?;
            let v = s.values[n];
            self.sequences.insert(ruleset.clone(), s);
            return Ok(v);
        }
        Ok(None)
    }

    /// The Cram and Push Cram solvers (a checkpoint restores their tables and saves them).
    pub fn cram_solvers(&mut self) -> (&mut CramSolver, &mut PushCramSolver) {
        (&mut self.cram, &mut self.push_cram)
    }

    /// Whether `p` is a P-position: the Cram solvers search outcomes, which is cheaper than
    /// values; other rulesets go through [`Evaluator::value`].
    fn is_p_position(&mut self, ruleset: &Ruleset, p: &Position, control: &Control) -> Result<bool, SolveError> {
        if let Position::Board(b) = p {
            if *ruleset == Ruleset::Cram(CramKind::Both) {
                return Ok(self.cram.outcome(b, control)? == Outcome::P);
            }
            if is_push_cram(ruleset) {
                return Ok(self.push_cram.outcome(b, control)? == Outcome::P);
            }
        }
        Ok(self.value(ruleset, p, control)? == 0)
    }

    /// The [`CramSummary`] of a position of value `value`, without valuing every option: a
    /// P-position is no bluff, and an N-position is settled at its first option that is not
    /// a P-position. (`nimscope cram 2x64` is 0 by symmetry; its 190 options are not.)
    pub fn cram_summary(
        &mut self,
        ruleset: &Ruleset,
        p: &Position,
        value: u32,
        control: &Control,
    ) -> Result<CramSummary, SolveError> {
        let mut opts = Vec::new();
        ruleset.options(p, &mut opts);
        let mut after_push = None;
        for o in &opts {
            if matches!(o, Position::Pushed { .. }) && !matches!(p, Position::Pushed { .. }) {
                after_push = Some(self.value(ruleset, o, control)?);
            }
        }
        let mut bluff = value != 0 && !opts.is_empty();
        for o in &opts {
            if !bluff {
                break;
            }
            control.check()?;
            bluff = self.is_p_position(ruleset, o, control)?;
        }
        Ok(CramSummary {
            moves: opts.len(),
            bluff,
            after_push,
        })
    }

    /// Every option of `p` with its value, in the ruleset's move order.
    pub fn options(
        &mut self,
        ruleset: &Ruleset,
        p: &Position,
        control: &Control,
    ) -> Result<Vec<OptionValue>, SolveError> {
        let mut opts = Vec::new();
        ruleset.options(p, &mut opts);
        // One region covering the position answers all its options at once.
        self.value(ruleset, p, control)?;
        opts.into_iter()
            .map(|o| self.option_value(ruleset, p, o, control))
            .collect()
    }

    /// The option `to` of `from`, with its move in words and its value.
    pub fn option_value(
        &mut self,
        ruleset: &Ruleset,
        from: &Position,
        to: Position,
        control: &Control,
    ) -> Result<OptionValue, SolveError> {
        control.check()?;
        let g = self.value(ruleset, &to, control)?;
        Ok(OptionValue {
            description: ruleset.describe_move(from, &to),
            to: to.to_string(),
            grundy: g,
            outcome: Outcome::of(g),
            winning: g == 0,
            position: to,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_agrees_with_the_plain_search() {
        let c = Control::new();
        let mut e = Evaluator::new();
        for (rules, positions) in [
            ("wythoff", &["3,5", "10,7", "0,0"][..]),
            ("push(nim,euclid0)", &["2,4", "pushed(2,4)", "0,1"]),
            (
                "push(push(nim,wythoff),euclid)",
                &["4,6", "pushed1(4,6)", "pushed(4,6)", "pushed1(pushed(2,2))"],
            ),
            ("sum(tag(3),wythoff)", &["5+2,3"]),
            ("fibonacci-nim", &["20", "20:5", "13"]),
            ("octal(0.07)", &["30", "5,7"]),
            ("misere(octal(0.07))", &["5,7"]),
            ("euclid3", &["3,5,7"]),
            ("zeruclid", &["1,3,5", "4,9"]),
            ("cram", &["3x3", "2x4", "..#/.../#.."]),
            ("cram-v", &["3x3", ".#./..."]),
            ("cram-h", &["2x5"]),
            ("push-cram", &["3x3", "2x3", "pushed(3x3)"]),
            ("misere(cram)", &["2x3"]),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let mut plain = Search::plain(r.clone());
            for text in positions {
                let p = r
                    .parse_position(text)
                    .unwrap_or_else(|err| panic!("{rules} {text}: {err}"));
                assert_eq!(
                    e.value(&r, &p, &c).unwrap(),
                    plain.value(&p, &c).unwrap(),
                    "{rules} {text}"
                );
                for o in e.options(&r, &p, &c).unwrap() {
                    assert_eq!(
                        o.grundy,
                        plain.value(&o.position, &c).unwrap(),
                        "{rules} {text} → {}",
                        o.to
                    );
                }
            }
        }
    }

    #[test]
    fn huge_heaps_are_answered_through_the_certified_period() {
        // Dawson's Kayles by the plain recurrence (a move removes 2 from a row of n cells,
        // leaving the two sides), and its published period 34 (Winning Ways) for n ≥ 53.
        let mut g = vec![0u32; 400];
        for n in 2..g.len() {
            let rest = n - 2;
            let seen: Vec<u32> = (0..=rest / 2).map(|x| g[x] ^ g[rest - x]).collect();
            g[n] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
        let r: Ruleset = "octal(0.07)".parse().unwrap();
        let mut e = Evaluator::new();
        for n in [1_048_610u64, 10_000_000_000_017, 999_999_999_999] {
            let small = 53 + (n - 53) % 34 + 68;
            let v = e.value(&r, &Position::Heaps(vec![n]), &Control::new()).unwrap();
            assert_eq!(v, g[small as usize], "G({n})");
        }
        let r: Ruleset = "tag(3)".parse().unwrap();
        assert_eq!(
            e.value(&r, &Position::Heaps(vec![4_000_000_000_001]), &Control::new()),
            Ok(1)
        );
    }

    #[test]
    fn winning_moves_are_marked() {
        let r: Ruleset = "nim".parse().unwrap();
        let p = r.parse_position("1,3,5,6").unwrap();
        let opts = Evaluator::new().options(&r, &p, &Control::new()).unwrap();
        let wins: Vec<&str> = opts.iter().filter(|o| o.winning).map(|o| o.to.as_str()).collect();
        // seed 004: 1⊕3⊕5⊕6 = 1; the balancing moves
        assert_eq!(wins, ["0,3,5,6", "1,2,5,6", "1,3,4,6"]);
    }
}
