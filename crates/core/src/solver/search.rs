//! Values of single positions of any ruleset: an iterative (explicit-stack) memoised mex
//! search, with no recursion-depth limit, cancellable and bounded by the memory budget.
//!
//! This is the plain search every fast path is tested against. Disjunctive sums are split
//! into their components (Sprague–Grundy: the value is the nim-sum) and Nim uses Bouton's
//! nim-sum, both tested against this search without the shortcut.

use std::collections::{HashMap, HashSet};

use super::control::{Control, SolveError};
use crate::game::quote::quoted;
use crate::game::{Position, Ruleset};

mod memo;

pub use memo::position_bytes;
pub(crate) use memo::{BYTES_PER_ENTRY, GENERAL_BUCKET_BYTES, Memo, PACKED_BUCKET_BYTES, table_buckets};

/// The last growth of the general map's table on the way to `entries` entries: how many it
/// held then and the bytes of the new table (the table of `entries` has `b` buckets and grew
/// to them from `b/2` when `b/2 · 7/8` entries filled it), `None` before the table's first
/// growth. A search that must hold `entries` is refused at that growth when the entries then
/// and the new table pass the budget. The packed table ([`memo`]) grows the same way, with
/// its own bucket's bytes.
pub(crate) fn memo_last_growth(entries: u128, bucket_bytes: u64) -> Option<(u128, u128)> {
    let buckets = table_buckets(entries);
    (buckets >= 16).then(|| (buckets / 2 / 8 * 7, buckets.saturating_mul(u128::from(bucket_bytes))))
}

/// A memoised solver for one ruleset. Keep it between requests to reuse what it learned; its
/// memo only ever holds finished values, so a cancelled request leaves it consistent.
#[derive(Debug, Clone)]
pub struct Search {
    ruleset: Ruleset,
    memo: Memo,
    /// The searches of the rulesets a push leads to, shared by every level of a nested push
    /// compound: a position after pushes is valued in its successor ruleset, so the many
    /// paths of buttons that lead to one ruleset share one memo (keyed by the paths, a nested
    /// compound would have exponentially many positions).
    successors: HashMap<Ruleset, Search>,
    /// Memory held outside this search while it runs (by the searches that delegated to it).
    outside_bytes: u64,
    /// This ruleset's push successors, built once.
    push_successors: Option<Vec<Ruleset>>,
    /// Whether sums and Nim may use the nim-sum shortcut (off to test the shortcut itself).
    shortcuts: bool,
}

struct Frame {
    position: Position,
    options: Vec<Position>,
    /// For a heap game whose collections are sums, the single heaps of its options, whose
    /// values the frame's value needs (otherwise it needs its options').
    heaps: Option<Vec<Position>>,
    /// The values of `children()[..next]`, as they were found (so the mex needs no look-up).
    values: Vec<u32>,
    next: usize,
}

impl Frame {
    /// The positions whose values the frame's value needs, visited in order.
    fn children(&self) -> &[Position] {
        self.heaps.as_deref().unwrap_or(&self.options)
    }
}

impl Search {
    /// An empty search of `ruleset`, taking the nim-sum shortcuts over sums of components.
    pub fn new(ruleset: Ruleset) -> Self {
        Self {
            ruleset,
            memo: Memo::default(),
            successors: HashMap::new(),
            outside_bytes: 0,
            push_successors: None,
            shortcuts: true,
        }
    }

    /// A search that never takes the nim-sum shortcuts: the plain definition of the value.
    pub fn plain(ruleset: Ruleset) -> Self {
        Self {
            ruleset,
            memo: Memo::default(),
            successors: HashMap::new(),
            outside_bytes: 0,
            push_successors: None,
            shortcuts: false,
        }
    }

    /// The ruleset searched.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The memory memoising `p` would need, when it passes the budget: only when the memo's
    /// table or arena is full and grows ([`Memo::growth_bytes`]).
    fn growth_past_budget(&self, p: &Position, open_bytes: u64, control: &Control) -> Option<u64> {
        let growth = self.memo.growth_bytes(p);
        let needed = (self.memo.bytes() + self.outside_bytes + open_bytes).saturating_add(growth);
        (growth > 0 && needed > control.memory_budget()).then_some(needed)
    }

    /// Memory held between requests: the memo, and those of the searches after a push.
    pub fn bytes(&self) -> u64 {
        self.memo.bytes() + self.successors.values().map(Search::bytes).sum::<u64>()
    }

    /// The value of `p` where a search before memoised it (no work, no estimate).
    pub fn memoised(&self, p: &Position) -> Option<u32> {
        self.memo.get(p)
    }

    /// The Grundy value of `p` (the misère Grundy value under misère play), which must be a
    /// legal position of the ruleset.
    pub fn value(&mut self, p: &Position, control: &Control) -> Result<u32, SolveError> {
        if self.shortcuts
            && let Some(v) = self.shortcut(&self.ruleset.clone(), p, control)?
        {
            return Ok(v);
        }
        if let Some(v) = self.memo.get(p) {
            return Ok(v);
        }
        if let Position::Pushed { choice, inner } = p {
            return self.successor_value(*choice, inner, 0, control);
        }
        let ruleset = self.ruleset.clone();
        let over = |needed: u64| SolveError::OverBudget {
            what: format!("the search of {} in {ruleset}", quoted(&p.to_string())),
            needed,
            budget: control.memory_budget(),
        };
        // Memory of the memo, of the open frames and of the option lists they hold; an
        // option list is bounded before it is generated (an option is about as large as its
        // position, plus the heaps a split adds).
        let mut open_bytes = 0u64;
        let frame = |s: &Self, q: Position, open: &mut u64| -> Result<Frame, SolveError> {
            let each = position_bytes(&q) + 32 + BYTES_PER_ENTRY;
            let bound = max_options(&q).saturating_mul(each);
            let needed = (s.memo.bytes() + s.outside_bytes)
                .saturating_add(*open)
                .saturating_add(bound);
            if needed > control.memory_budget() {
                return Err(over(needed));
            }
            let f = s.frame(q)?;
            *open += frame_bytes(&f);
            Ok(f)
        };
        // a typed rule may not be finite: the positions on the stack, to catch a cycle
        let track = self.ruleset.has_typed();
        let mut on_stack: HashSet<Position> = HashSet::new();
        if track {
            on_stack.insert(p.clone());
        }
        let mut stack = vec![frame(self, p.clone(), &mut open_bytes)?];
        let mut steps: u64 = 0;
        // the progress is the positions memoised (what the bounds of `cost` count)
        let mut reported = self.memo.len() as u64;
        loop {
            steps += 1;
            if steps.is_multiple_of(1024) {
                control.check()?;
                let met = self.memo.len() as u64;
                control.add_done(met.saturating_sub(reported));
                reported = met;
                let needed = self.memo.bytes() + self.outside_bytes + open_bytes;
                if needed > control.memory_budget() {
                    return Err(over(needed));
                }
            }
            let Some(top) = stack.last_mut() else {
                unreachable!("the stack holds the root until it returns")
            };
            while top.next < top.children().len() {
                let o = &top.children()[top.next];
                let v = match self.memo.get(o) {
                    Some(v) => v,
                    None => {
                        let Position::Pushed { choice, inner } = o else { break };
                        // valued in the ruleset the push leads to
                        let (choice, inner, key) = (*choice, (**inner).clone(), o.clone());
                        let v = self.successor_value(choice, &inner, open_bytes, control)?;
                        if let Some(needed) = self.growth_past_budget(&key, open_bytes, control) {
                            return Err(over(needed));
                        }
                        self.memo.insert(key, v);
                        v
                    }
                };
                top.values.push(v);
                top.next += 1;
            }
            if top.next < top.children().len() {
                let child = top.children()[top.next].clone();
                if track && !on_stack.insert(child.clone()) {
                    return Err(not_finite(&ruleset, &stack, &child));
                }
                let f = frame(self, child, &mut open_bytes)?;
                stack.push(f);
                continue;
            }
            let Some(frame) = stack.pop() else {
                unreachable!("the stack holds the root until it returns")
            };
            open_bytes -= frame_bytes(&frame);
            if track {
                on_stack.remove(&frame.position);
            }
            let v = if frame.options.is_empty() {
                self.ruleset.terminal_value(&frame.position)
            } else if self.additive() {
                self.additive_value(&frame)?
            } else {
                crate::game::mex(frame.values.iter().copied())
            };
            if let Some(needed) = self.growth_past_budget(&frame.position, open_bytes, control) {
                return Err(over(needed));
            }
            self.memo.insert(frame.position, v);
            // the parent takes the value and goes on to its next child
            let Some(parent) = stack.last_mut() else {
                return Ok(v);
            };
            parent.values.push(v);
            parent.next += 1;
        }
    }

    /// The value of `inner` in this ruleset's push successor number `choice`, by that
    /// successor's search (kept in the shared registry of successor searches).
    fn successor_value(
        &mut self,
        choice: u8,
        inner: &Position,
        open_bytes: u64,
        control: &Control,
    ) -> Result<u32, SolveError> {
        let ruleset = &self.ruleset;
        let s = self
            .push_successors
            .get_or_insert_with(|| ruleset.push_successors())
            .get(choice as usize)
            .cloned()
            .ok_or_else(|| SolveError::Unsupported(format!("{} has no push number {choice}", self.ruleset)))?;
        let shortcuts = self.shortcuts;
        let mut sub = self.successors.remove(&s).unwrap_or_else(|| {
            let mut sub = Search::new(s.clone());
            sub.shortcuts = shortcuts;
            sub
        });
        let others: u64 = self.successors.values().map(|x| x.memo.bytes()).sum();
        sub.outside_bytes = self.outside_bytes + self.memo.bytes() + open_bytes + others;
        // the successor shares the registry for its own pushes
        std::mem::swap(&mut sub.successors, &mut self.successors);
        let v = sub.value(inner, control);
        std::mem::swap(&mut sub.successors, &mut self.successors);
        self.successors.insert(s, sub);
        v
    }

    fn frame(&self, position: Position) -> Result<Frame, SolveError> {
        if let Some(e) = grows_at(&self.ruleset, &position) {
            return Err(e);
        }
        let mut options = Vec::new();
        self.ruleset.try_options(&position, &mut options)?;
        let heaps = if self.additive() {
            let mut heaps: Vec<u64> = options
                .iter()
                .flat_map(|o| match o {
                    Position::Heaps(h) => h.clone(),
                    _ => Vec::new(),
                })
                .collect();
            heaps.sort_unstable();
            heaps.dedup();
            Some(heaps.into_iter().map(|h| Position::Heaps(vec![h])).collect())
        } else {
            None
        };
        let values = Vec::with_capacity(heaps.as_ref().map_or(options.len(), Vec::len));
        Ok(Frame {
            position,
            options,
            heaps,
            values,
            next: 0,
        })
    }

    /// The value of a finished frame of an additive ruleset ([`Search::additive`]): the mex of
    /// its options' nim-sums of heap values, every heap valued before the frame (its `heaps`
    /// are its children).
    fn additive_value(&self, frame: &Frame) -> Result<u32, SolveError> {
        let memoised = |p: &Position| {
            self.memo.get(p).ok_or_else(|| {
                SolveError::Unsupported(format!(
                    "internal error: {} was not valued before its parent",
                    quoted(&p.to_string())
                ))
            })
        };
        let mut values = Vec::with_capacity(frame.options.len());
        for o in &frame.options {
            values.push(match o {
                Position::Heaps(hs) => hs
                    .iter()
                    .try_fold(0, |x, &h| memoised(&Position::Heaps(vec![h])).map(|v| x ^ v))?,
                other => memoised(other)?,
            });
        }
        Ok(crate::game::mex(values))
    }

    /// Whether a collection's value is the nim-sum of its heaps' values here: a typed
    /// one-heap rule under normal play (its options are collections).
    fn additive(&self) -> bool {
        self.shortcuts && matches!(&self.ruleset, Ruleset::Typed(r) if r.arity() == 1)
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
            (Ruleset::Typed(_), Position::Heaps(h)) if self.additive() && h.len() > 1 => {
                let mut x = 0;
                for &heap in h {
                    x ^= self.value(&Position::Heaps(vec![heap]), control)?;
                }
                Some(x)
            }
            _ => None,
        })
    }
}

/// Memory of an open frame: its position and its option lists.
fn frame_bytes(f: &Frame) -> u64 {
    let list = |l: &[Position]| l.iter().map(|o| position_bytes(o) + 32).sum::<u64>();
    position_bytes(&f.position) + list(&f.options) + f.heaps.as_deref().map_or(0, list) + 4 * f.values.capacity() as u64
}

/// The error of a game that is not finite at `p` because a move that grows without bound
/// applies there (a typed rule's term that adds to heaps its guards do not read:
/// [`crate::game::rules::typed::TypedRule::grows_from`]), found before any search climbs it.
pub fn grows_at(ruleset: &Ruleset, p: &Position) -> Option<SolveError> {
    let (Ruleset::Typed(r), Position::Heaps(h)) = (ruleset, p) else {
        return None;
    };
    let why = if r.arity() == 1 {
        h.iter().find_map(|&x| r.grows_from(&[x]))
    } else {
        r.grows_from(h)
    }?;
    Some(SolveError::Rule(format!(
        "{} is not a finite game: {why}",
        quoted(&ruleset.to_string())
    )))
}

/// The error of a game that is not finite: the cycle from `child`'s frame on the stack back to
/// `child`, shortened in the middle when long.
fn not_finite(ruleset: &Ruleset, stack: &[Frame], child: &Position) -> SolveError {
    let start = stack.iter().rposition(|f| &f.position == child).unwrap_or(0);
    let mut cycle: Vec<String> = stack[start..].iter().map(|f| f.position.to_string()).collect();
    cycle.push(child.to_string());
    if cycle.len() > 12 {
        let n = cycle.len();
        cycle.splice(6..n - 5, [format!("… ({} more) …", n - 11)]);
    }
    SolveError::Loops(format!(
        "{} is not a finite game: {} leads back to itself ({})",
        quoted(&ruleset.to_string()),
        quoted(&child.to_string()),
        cycle.join(" → ")
    ))
}

/// An upper bound on the number of positions a search from `p` can meet (for heap games whose
/// moves only lower heaps, the product of the heaps plus one; for octal games, the collections of
/// no more tokens), or `None` when there is no useful bound. A job whose bound does not fit the
/// budget may still finish (the bound can be far above what is met); a caller with another way
/// to answer takes it instead.
pub fn positions_bound(ruleset: &Ruleset, p: &Position) -> Option<u128> {
    let product = |h: &[u64]| h.iter().fold(1u128, |acc, &x| acc.saturating_mul(x as u128 + 1));
    let phases = ruleset.push_successors().len() as u128 + 1;
    let board = match (ruleset.base().0, p.board()) {
        (Ruleset::Octal(_), Position::Heaps(h)) => collections_up_to(h.iter().fold(0u64, |s, &x| s.saturating_add(x))),
        (Ruleset::Cram(_), _) => return None,
        (_, Position::Heaps(h)) => product(h),
        (_, Position::Fib { n, .. }) => (*n as u128 + 1).saturating_mul(*n as u128 + 1),
        (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => positions_bound(a, pa)?.saturating_mul(positions_bound(b, pb)?),
        _ => return None,
    };
    Some(board.saturating_mul(phases))
}

/// The number of multisets of positive heaps with at most `tokens` tokens in all (the sum of the
/// partition numbers p(0) + … + p(tokens)), saturating.
fn collections_up_to(tokens: u64) -> u128 {
    if tokens > 4000 {
        return u128::MAX;
    }
    let t = tokens as usize;
    let mut p = vec![0u128; t + 1];
    p[0] = 1;
    for part in 1..=t {
        for s in part..=t {
            p[s] = p[s].saturating_add(p[s - part]);
        }
    }
    p.iter().fold(0u128, |a, &x| a.saturating_add(x))
}

/// Memory a search from `p` may need at most, by [`positions_bound`].
pub fn memory_bound(ruleset: &Ruleset, p: &Position) -> Option<u128> {
    positions_bound(ruleset, p).map(|n| n.saturating_mul((position_bytes(p) + 16 + BYTES_PER_ENTRY) as u128))
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
    fn nested_pushes_share_their_successors() {
        let nest = |d: usize| {
            let mut text = "nim".to_string();
            for i in 0..d {
                text = format!("push({text},{})", ["nim", "wythoff"][i % 2]);
            }
            text.parse::<Ruleset>().unwrap()
        };
        // six buttons: the same values as the map's fill of push compounds (plane by plane)
        let r = nest(6);
        let g = crate::solver::grid::grid(&r, &crate::game::Layout::Plain, 0..6, 0..6, &Control::new()).unwrap();
        let mut plain = Search::plain(r.clone());
        for a in 0..6 {
            for b in 0..6 {
                let p = Position::Heaps(vec![a, b]);
                assert_eq!(
                    Some(plain.value(&p, &Control::new()).unwrap()),
                    g.get(a, b),
                    "({a},{b})"
                );
            }
        }
        // twenty buttons: 2^20 paths of pushes, but only the 20 rulesets they lead to are searched
        let r = nest(20);
        let mut plain = Search::plain(r.clone());
        assert!(plain.value(&Position::Heaps(vec![3, 4]), &Control::new()).is_ok());
        assert!(plain.successors.len() <= 20, "{}", plain.successors.len());
    }

    #[test]
    fn large_positions_are_refused_before_their_options_exist() {
        // 30,000 heaps: one option list would hold 240 KB per option
        let r: Ruleset = "zeruclid".parse().unwrap();
        let mut h = vec![6u64; 30_000];
        h.extend([3, 5]);
        let c = Control::with_budget(64 << 20);
        assert!(matches!(
            Search::new(r).value(&Position::Heaps(h), &c),
            Err(SolveError::OverBudget { .. })
        ));
    }

    #[test]
    fn position_bounds() {
        let r: Ruleset = "nim".parse().unwrap();
        assert_eq!(positions_bound(&r, &Position::Heaps(vec![2, 3])), Some(12));
        // collections of at most 4 tokens: 1 + 1 + 2 + 3 + 5
        let r: Ruleset = "octal(0.07)".parse().unwrap();
        assert_eq!(positions_bound(&r, &Position::Heaps(vec![1, 3])), Some(12));
        let r: Ruleset = "push(nim,wythoff)".parse().unwrap();
        assert_eq!(positions_bound(&r, &Position::Heaps(vec![1, 1])), Some(8));
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
