//! Values of single positions of any ruleset: an iterative (explicit-stack) memoised mex
//! search, with no recursion-depth limit, cancellable and bounded by the memory budget.
//!
//! This is the plain search every fast path is tested against. Disjunctive sums are split
//! into their components (Sprague–Grundy: the value is the nim-sum) and Nim uses Bouton's
//! nim-sum, both tested against this search without the shortcut.

use std::collections::HashMap;

use super::control::{Control, SolveError};
use crate::game::{Position, Ruleset};

/// Rough memory of one memo entry (key, boxed heaps, value, table overhead).
const BYTES_PER_ENTRY: u64 = 128;

/// A memoised solver for one ruleset. Keep it between requests to reuse what it learned; its
/// memo only ever holds finished values, so a cancelled request leaves it consistent.
#[derive(Debug, Clone)]
pub struct Search {
    ruleset: Ruleset,
    memo: HashMap<Position, u32>,
    /// Whether sums and Nim may use the nim-sum shortcut (off to test the shortcut itself).
    shortcuts: bool,
}

struct Frame {
    position: Position,
    options: Vec<Position>,
    next: usize,
}

impl Search {
    pub fn new(ruleset: Ruleset) -> Self {
        Self {
            ruleset,
            memo: HashMap::new(),
            shortcuts: true,
        }
    }

    /// A search that never takes the nim-sum shortcuts: the plain definition of the value.
    pub fn plain(ruleset: Ruleset) -> Self {
        Self {
            ruleset,
            memo: HashMap::new(),
            shortcuts: false,
        }
    }

    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// Number of positions whose value is memoised.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// The Grundy value of `p` (the misère Grundy value under misère play), which must be a
    /// legal position of the ruleset.
    pub fn value(&mut self, p: &Position, control: &Control) -> Result<u32, SolveError> {
        if self.shortcuts
            && let Some(v) = self.shortcut(&self.ruleset.clone(), p, control)?
        {
            return Ok(v);
        }
        if let Some(&v) = self.memo.get(p) {
            return Ok(v);
        }
        let over = |needed: u64| SolveError::OverBudget {
            what: format!("the search of {p} in {}", self.ruleset),
            needed,
            budget: control.memory_budget(),
        };
        // Memory of the memo, of the open frames and of the option lists they hold.
        let mut open_bytes = 0u64;
        let frame = |s: &Self, q: Position, open: &mut u64| -> Result<Frame, SolveError> {
            let bound = max_options(&q).saturating_mul(BYTES_PER_ENTRY);
            let needed = (s.memo.len() as u64 * BYTES_PER_ENTRY)
                .saturating_add(*open)
                .saturating_add(bound);
            if needed > control.memory_budget() {
                return Err(over(needed));
            }
            let f = s.frame(q);
            *open += (f.options.len() as u64 + 1) * BYTES_PER_ENTRY;
            Ok(f)
        };
        let mut stack = vec![frame(self, p.clone(), &mut open_bytes)?];
        let mut steps: u64 = 0;
        loop {
            steps += 1;
            if steps.is_multiple_of(1024) {
                control.check()?;
                control.add_done(1024);
                let needed = self.memo.len() as u64 * BYTES_PER_ENTRY + open_bytes;
                if needed > control.memory_budget() {
                    return Err(over(needed));
                }
            }
            let Some(top) = stack.last_mut() else {
                unreachable!("the stack holds the root until it returns")
            };
            while top.next < top.options.len() && self.memo.contains_key(&top.options[top.next]) {
                top.next += 1;
            }
            if top.next < top.options.len() {
                let child = top.options[top.next].clone();
                let f = frame(self, child, &mut open_bytes)?;
                stack.push(f);
                continue;
            }
            let Some(frame) = stack.pop() else {
                unreachable!("the stack holds the root until it returns")
            };
            open_bytes -= (frame.options.len() as u64 + 1) * BYTES_PER_ENTRY;
            let v = if frame.options.is_empty() {
                self.ruleset.terminal_value(&frame.position)
            } else {
                crate::game::mex(frame.options.iter().map(|o| self.memo[o]))
            };
            self.memo.insert(frame.position, v);
            if stack.is_empty() {
                return Ok(v);
            }
        }
    }

    fn frame(&self, position: Position) -> Frame {
        let mut options = Vec::new();
        self.ruleset.options(&position, &mut options);
        Frame {
            position,
            options,
            next: 0,
        }
    }

    /// Values known without a search: sums by the nim-sum of their components, normal-play
    /// Nim by Bouton's theorem.
    fn shortcut(&mut self, r: &Ruleset, p: &Position, control: &Control) -> Result<Option<u32>, SolveError> {
        Ok(match (r, p) {
            (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => {
                let va = Search::new((**a).clone()).value(pa, control)?;
                let vb = Search::new((**b).clone()).value(pb, control)?;
                Some(va ^ vb)
            }
            (Ruleset::Nim, Position::Heaps(h)) => {
                let x = h.iter().fold(0u64, |x, &h| x ^ h);
                u32::try_from(x).ok()
            }
            _ => None,
        })
    }
}

/// An upper bound on the number of options of `p` in any ruleset of the catalog, known before
/// generating them (a heap game moves to fewer positions than four times its tokens, plus the
/// pushes; a Cram board has at most two dominoes per cell).
fn max_options(p: &Position) -> u64 {
    match p {
        Position::Heaps(h) => h
            .iter()
            .fold(0u64, |s, &x| s.saturating_add(x))
            .saturating_mul(4)
            .saturating_add(16),
        Position::Fib { n, .. } => n.saturating_add(1),
        Position::Sum(a, b) => max_options(a).saturating_add(max_options(b)),
        Position::Pushed { inner, .. } => max_options(inner),
        Position::Board(_) => 2 * crate::game::rules::cram_board::MAX_CELLS as u64 + 16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(rules: &str, pos: &str) -> u32 {
        let r: Ruleset = rules.parse().unwrap();
        let p = r.parse_position(pos).unwrap();
        Search::plain(r).value(&p, &Control::new()).unwrap()
    }

    #[test]
    fn small_known_values() {
        assert_eq!(value("nim", "3,5"), 6);
        assert_eq!(value("wythoff", "1,2"), 0);
        assert_eq!(value("wythoff", "3,5"), 0);
        assert_eq!(value("euclid", "4,4"), 1);
        assert_eq!(value("grossman", "4,4"), 0);
        assert_eq!(value("tag(5)", "42"), 0);
        assert_eq!(value("misere(nim)", "1"), 0);
        assert_eq!(value("misere(nim)", "0"), 1);
        // Lemma 2.1.1 on one position: push(R,R) = R + *
        assert_eq!(value("push(wythoff,wythoff)", "3,5"), 1);
    }

    #[test]
    fn shortcuts_agree_with_plain_search() {
        let c = Control::new();
        for (rules, pos) in [
            ("nim", "3,5,6"),
            ("sum(wythoff,sub(1,2))", "2,7+5"),
            ("sum(nim,fibonacci-nim)", "3,4+20:5"),
        ] {
            let r: Ruleset = rules.parse().unwrap();
            let p = r.parse_position(pos).unwrap();
            assert_eq!(
                Search::new(r.clone()).value(&p, &c),
                Search::plain(r).value(&p, &c),
                "{rules} {pos}"
            );
        }
    }

    #[test]
    fn deep_games_do_not_overflow_the_stack() {
        // tag(1) from 200000 is a chain of 200000 moves
        assert_eq!(value("tag(1)", "200000"), 0);
    }

    #[test]
    fn cancelled_search_stops_and_budget_is_enforced() {
        let r: Ruleset = "euclid3".parse().unwrap();
        let p = r.parse_position("1000,999,998").unwrap();
        let c = Control::new();
        c.cancel();
        assert_eq!(Search::new(r.clone()).value(&p, &c), Err(SolveError::Cancelled));
        let tight = Control::with_budget(1 << 16);
        assert!(matches!(
            Search::new(r).value(&p, &tight),
            Err(SolveError::OverBudget { .. })
        ));
    }
}
