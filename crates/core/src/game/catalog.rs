//! The closed set of rulesets as one serde enum and the one dispatch point from a ruleset to
//! its moves; the expression language that names them (`push(nim,euclid0)`, `sub(1,3,4)`,
//! `misere(octal(0.07))`, ...) is parsed in [`super::expr`].
//!
//! Every ruleset is impartial and played under the normal convention unless wrapped in
//! `misere(...)`. Definitions follow `docs/games.md`; see each variant's docs.

use std::fmt;

use super::position::Position;
use super::rules::euclid::{EuclidVariant, euclid3_options};
use super::rules::one_heap::{
    OctalCode, SubtractionSet, describe_octal_move, divisor_options, each_heap_options, subtraction_options,
};
use super::rules::typed::RuleError;
use super::rules::typed::TypedRule;
use super::rules::{fibonacci, heaps};

/// A ruleset of the catalog, possibly compound.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Ruleset {
    /// Nim on any number of heaps: lower one heap by any positive amount. Terminal: all zero.
    Nim,
    /// Wythoff (two heaps): lower one heap, or both by the same amount. Terminal: (0,0).
    Wythoff,
    /// A member of the Euclid family on two heaps (`euclid`, `grossman`, `euclid0`, `m-euclid`).
    Euclid(EuclidVariant),
    /// Zeruclid (seed 003), any number of heaps: remove a positive multiple of the smallest
    /// non-zero heap from any heap. Terminal: all heaps zero.
    Zeruclid,
    /// 3-Euclid on triples (seed 002): subtract a positive multiple of one entry from one of the
    /// other two, result ≥ 0. A zero entry ends the game.
    Euclid3,
    /// Common Divisor Nim (seed 001), any number of heaps: subtract from one heap a positive
    /// common divisor of all heaps. Terminal: all heaps zero.
    Cdn,
    /// `sub(S)`: remove `s ∈ S` tokens from one heap.
    Subtraction(SubtractionSet),
    /// `tag(k)` = `sub({1..k})` (seed 004's TAG_k).
    Tag(u64),
    /// The divisor game (seed 004): from `n ≥ 1` subtract a proper divisor; 1 is terminal.
    Divisor,
    /// Fibonacci Nim (seed 004); positions `n:q`.
    FibonacciNim,
    /// An octal game; a position is a collection of heaps.
    Octal(OctalCode),
    /// Cram (seed 003 §5): place a 1×2 domino on two empty adjacent cells; `Vertical` and
    /// `Horizontal` allow only that direction (`push-cram` = `push(cram-v,cram-h)`).
    Cram(Dominoes),
    /// `push(R1,R2)` (seed 003 Def 2.0.1): play `R1`; a player may instead push the button
    /// (once, a move), after which `R2` is played on the same board.
    Push(Box<Ruleset>, Box<Ruleset>),
    /// `sum(R1,R2)`: the disjunctive sum; positions `p1+p2`.
    Sum(Box<Ruleset>, Box<Ruleset>),
    /// `misere(R)`: the player who cannot move wins.
    Misere(Box<Ruleset>),
    /// `rule(…)`: a rule the user typed in the move language ([`super::rules::typed`]), on
    /// one heap (a position is a collection of heaps, their sum) or on a fixed number of heaps.
    Typed(TypedRule),
}

/// Which dominoes a Cram ruleset allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Dominoes {
    /// Cram: dominoes either way.
    Both,
    /// Vertical dominoes only.
    Vertical,
    /// Horizontal dominoes only.
    Horizontal,
}

/// What kind of board a ruleset is played on, for the region solvers and the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Exactly two heaps: a 2-D map.
    TwoHeaps,
    /// A fixed number of heaps, three or more (3-Euclid, typed rules on `(a, b, c, …)`): 2-D
    /// slices.
    ThreeHeaps,
    /// Any number of heaps (one heap gives a sequence, two a map, more need a slice).
    AnyHeaps,
    /// One heap: a sequence.
    OneHeap,
    /// Fibonacci Nim: a 2-D map over (n, q), a sequence over fresh piles.
    Fibonacci,
    /// A sum of two rulesets.
    Sum,
    /// A Cram board.
    Board,
}

impl Ruleset {
    /// The Cram game this ruleset is, when it is one the board editor plays: `cram`, or
    /// `push-cram` (however it was spelt: `push(cram-v,cram-h)` is the same ruleset).
    pub fn cram_game(&self) -> Option<super::cram_game::CramGame> {
        use super::cram_game::CramGame;
        match self {
            Ruleset::Cram(Dominoes::Both) => Some(CramGame::Cram),
            Ruleset::Push(a, b)
                if **a == Ruleset::Cram(Dominoes::Vertical) && **b == Ruleset::Cram(Dominoes::Horizontal) =>
            {
                Some(CramGame::PushCram)
            }
            _ => None,
        }
    }

    /// The board every position of this ruleset lives on: its family's for a leaf, from its
    /// parts for a compound or a typed rule.
    pub fn shape(&self) -> Shape {
        if let Some(shape) = self.family().row().shape {
            return shape;
        }
        match self {
            Ruleset::Push(r1, r2) => match r1.shape() {
                Shape::AnyHeaps => r2.shape(),
                s => s,
            },
            Ruleset::Misere(r) => r.shape(),
            Ruleset::Sum(..) => Shape::Sum,
            Ruleset::Typed(rule) => match rule.arity() {
                1 => Shape::OneHeap,
                2 => Shape::TwoHeaps,
                _ => Shape::ThreeHeaps,
            },
            // a leaf's row names its shape (a test holds every leaf row to one)
            _ => Shape::AnyHeaps,
        }
    }

    /// The least heap size a position may hold (1 for Grossman, M-Euclid and the divisor game);
    /// a push is only possible where the second ruleset accepts every board of the first.
    pub fn min_heap(&self) -> u64 {
        match self {
            Ruleset::Euclid(EuclidVariant::Grossman | EuclidVariant::Multiple) | Ruleset::Divisor => 1,
            Ruleset::Push(a, _) | Ruleset::Misere(a) => a.min_heap(),
            _ => 0,
        }
    }

    /// Whether the play convention of this ruleset's terminal positions is misère.
    pub fn has_misere(&self) -> bool {
        match self {
            Ruleset::Misere(_) => true,
            Ruleset::Push(a, b) | Ruleset::Sum(a, b) => a.has_misere() || b.has_misere(),
            _ => false,
        }
    }

    /// Every ruleset one push away from the start of `self`, with the same board: playing
    /// `push(R1,R2)` from its start, a push leads to `R2`, or (if `R1` is itself a push
    /// compound) to `push(S, R2)` for each `S` one push away in `R1`. The value of a start
    /// position is the mex over its base moves and these successors at the same board.
    pub fn push_successors(&self) -> Vec<Ruleset> {
        match self {
            Ruleset::Push(r1, r2) => {
                let mut out = vec![(**r2).clone()];
                out.extend(
                    r1.push_successors()
                        .into_iter()
                        .map(|s| Ruleset::Push(Box::new(s), r2.clone())),
                );
                out
            }
            Ruleset::Misere(r) => r
                .push_successors()
                .into_iter()
                .map(|s| Ruleset::Misere(Box::new(s)))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The number of buttons from the start of `self`: `push_successors().len()` without
    /// building them (a nested compound's successors cost the square of its depth).
    pub fn push_count(&self) -> usize {
        match self {
            Ruleset::Push(r1, _) => 1 + r1.push_count(),
            Ruleset::Misere(r) => r.push_count(),
            _ => 0,
        }
    }

    /// The rulesets a push compound is made of (its non-push parts), each once.
    fn push_leaves<'a>(&'a self, out: &mut Vec<&'a Ruleset>) {
        match self {
            Ruleset::Push(a, b) => {
                a.push_leaves(out);
                b.push_leaves(out);
            }
            other if !out.contains(&other) => out.push(other),
            _ => {}
        }
    }

    /// The leaf ruleset whose moves are played before any push, and whether terminal positions
    /// of `self` reached without a push are misère. Only meaningful for non-sum rulesets.
    pub fn base(&self) -> (&Ruleset, bool) {
        match self {
            Ruleset::Push(r1, _) => (r1.base().0, false),
            Ruleset::Misere(r) => {
                let (b, _) = r.base();
                (b, !matches!(**r, Ruleset::Push(..)))
            }
            other => (other, false),
        }
    }

    /// Appends every option of `p` (a legal position) in a fixed order, or says why a typed
    /// rule cannot give them (the built-in rulesets always can). The solvers use this;
    /// [`Ruleset::options`] keeps what was found before an error.
    pub fn try_options(&self, p: &Position, out: &mut Vec<Position>) -> Result<(), RuleError> {
        match (self, p) {
            (Ruleset::Push(..) | Ruleset::Misere(_), Position::Pushed { choice, inner }) => {
                if let Some(s) = self.push_successors().get(*choice as usize) {
                    let start = out.len();
                    let found = s.try_options(inner, out);
                    for o in &mut out[start..] {
                        let to = std::mem::replace(o, Position::Heaps(Vec::new()));
                        *o = Position::Pushed {
                            choice: *choice,
                            inner: Box::new(to),
                        };
                    }
                    found?;
                }
            }
            (Ruleset::Push(..), p) => {
                self.base().0.try_options(p, out)?;
                let pushes = self.push_count();
                out.extend((0..pushes).map(|i| Position::Pushed {
                    choice: i as u8,
                    inner: Box::new(p.clone()),
                }));
            }
            (Ruleset::Misere(r), p) => r.try_options(p, out)?,
            (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => {
                let mut tmp = Vec::new();
                let found = a.try_options(pa, &mut tmp);
                out.extend(tmp.drain(..).map(|o| Position::Sum(Box::new(o), pb.clone())));
                found?;
                let found = b.try_options(pb, &mut tmp);
                out.extend(tmp.drain(..).map(|o| Position::Sum(pa.clone(), Box::new(o))));
                found?;
            }
            (Ruleset::FibonacciNim, Position::Fib { n, q }) => {
                let mut tmp = Vec::new();
                fibonacci::options(*n, *q, &mut tmp);
                out.extend(tmp.into_iter().map(|(n, q)| Position::Fib { n, q }));
            }
            (Ruleset::Cram(kind), Position::Board(b)) => {
                let moves = match kind {
                    Dominoes::Both => b.legal_moves(),
                    Dominoes::Vertical => b.vertical_moves(),
                    Dominoes::Horizontal => b.horizontal_moves(),
                };
                out.extend(moves.into_iter().filter_map(|d| b.place(d).ok()).map(Position::Board));
            }
            (Ruleset::Typed(rule), Position::Heaps(h)) => typed_options(rule, h, out)?,
            (leaf, Position::Heaps(h)) => leaf_heap_options(leaf, h, out),
            _ => {}
        }
        Ok(())
    }

    /// The expression with every typed rule cut to `max` characters, for titles (the whole
    /// text goes into a figure's provenance).
    pub fn short_text(&self, max: usize) -> String {
        match self {
            Ruleset::Typed(rule) => rule.short_text(max),
            Ruleset::Push(a, b) => format!("push({},{})", a.short_text(max), b.short_text(max)),
            Ruleset::Sum(a, b) => format!("sum({},{})", a.short_text(max), b.short_text(max)),
            Ruleset::Misere(r) => format!("misere({})", r.short_text(max)),
            other => other.to_string(),
        }
    }

    /// Whether a typed rule is part of this ruleset (its options may fail, and its game may
    /// not be finite).
    pub fn has_typed(&self) -> bool {
        match self {
            Ruleset::Typed(_) => true,
            Ruleset::Push(a, b) | Ruleset::Sum(a, b) => a.has_typed() || b.has_typed(),
            Ruleset::Misere(r) => r.has_typed(),
            _ => false,
        }
    }

    /// Appends every option of `p` (a legal position) in a fixed order.
    pub fn options(&self, p: &Position, out: &mut Vec<Position>) {
        // only a typed rule can fail; the solvers call try_options and report it
        let _ = self.try_options(p, out);
    }

    /// The Grundy value of a terminal position: 0 under normal play, 1 under misère play (the
    /// misère Grundy value: terminal 1, otherwise mex, so 0 exactly on P-positions).
    pub fn terminal_value(&self, p: &Position) -> u32 {
        match (self, p) {
            (Ruleset::Push(..) | Ruleset::Misere(_), Position::Pushed { choice, inner }) => self
                .push_successors()
                .get(*choice as usize)
                .map_or(0, |s| s.terminal_value(inner)),
            _ => u32::from(self.base().1),
        }
    }

    /// Describes the move from `from` to its option `to`, e.g. "subtract 2×5 from 27".
    pub fn describe_move(&self, from: &Position, to: &Position) -> String {
        match (self, from, to) {
            (
                Ruleset::Push(..) | Ruleset::Misere(_),
                Position::Pushed { choice, inner: a },
                Position::Pushed { inner: b, .. },
            ) => self
                .push_successors()
                .get(*choice as usize)
                .map_or_else(String::new, |s| s.describe_move(a, b)),
            (Ruleset::Push(..) | Ruleset::Misere(_), _, Position::Pushed { choice, .. }) => {
                let succ = self.push_successors();
                match succ.get(*choice as usize) {
                    Some(s) if succ.len() > 1 => format!("push the button (play {s} next)"),
                    _ => "push the button".to_string(),
                }
            }
            (Ruleset::Push(..), a, b) => self.base().0.describe_move(a, b),
            (Ruleset::Misere(r), a, b) => r.describe_move(a, b),
            (Ruleset::Sum(ra, rb), Position::Sum(a1, b1), Position::Sum(a2, b2)) => {
                if a1 != a2 {
                    format!("in the first component: {}", ra.describe_move(a1, a2))
                } else {
                    format!("in the second component: {}", rb.describe_move(b1, b2))
                }
            }
            (_, Position::Fib { n, .. }, Position::Fib { n: m, .. }) => format!("take {}", n - m),
            (_, Position::Board(a), Position::Board(b)) => describe_domino(a, b),
            (Ruleset::Octal(_), Position::Heaps(a), Position::Heaps(b)) => describe_octal_move(a, b),
            (Ruleset::Typed(rule), Position::Heaps(a), Position::Heaps(b)) => rule
                .describe(a, b)
                .unwrap_or_else(|| format!("{} → {}", fmt_heaps(a), fmt_heaps(b))),
            (leaf, Position::Heaps(a), Position::Heaps(b)) => describe_heap_move(leaf, a, b),
            _ => format!("{from} → {to}"),
        }
    }
}

/// The options of a typed rule's position, each once ([`TypedRule::positions`]).
fn typed_options(rule: &TypedRule, h: &[u64], out: &mut Vec<Position>) -> Result<(), RuleError> {
    let mut heaps = Vec::new();
    let found = rule.positions(h, &mut heaps);
    out.extend(heaps.into_iter().map(Position::Heaps));
    found
}

/// Moves of the leaf heap rulesets on a `Heaps` position.
fn leaf_heap_options(leaf: &Ruleset, h: &[u64], out: &mut Vec<Position>) {
    let mut vecs: Vec<Vec<u64>> = Vec::new();
    let mut pairs: Vec<(u64, u64)> = Vec::new();
    match leaf {
        Ruleset::Nim => heaps::nim_options(h, &mut vecs),
        Ruleset::Zeruclid => heaps::zeruclid_options(h, &mut vecs),
        Ruleset::Cdn => heaps::cdn_options(h, &mut vecs),
        Ruleset::Euclid3 => euclid3_options(h, &mut vecs),
        Ruleset::Wythoff => heaps::wythoff_options(h[0], h[1], &mut pairs),
        Ruleset::Euclid(v) => v.options(h[0], h[1], &mut pairs),
        // a collection of heaps of a one-heap game is their disjunctive sum
        Ruleset::Subtraction(s) => each_heap_options(h, |n, o| subtraction_options(s, n, o), &mut vecs),
        Ruleset::Tag(k) => each_heap_options(h, |n, o| o.extend((1..=(*k).min(n)).map(|s| n - s)), &mut vecs),
        Ruleset::Divisor => each_heap_options(h, divisor_options, &mut vecs),
        Ruleset::Octal(code) => code.collection_options(h, &mut vecs),
        _ => {}
    }
    out.extend(vecs.into_iter().map(Position::Heaps));
    out.extend(pairs.into_iter().map(|(a, b)| Position::Heaps(vec![a, b])));
}

fn describe_heap_move(leaf: &Ruleset, from: &[u64], to: &[u64]) -> String {
    let changed: Vec<usize> = (0..from.len()).filter(|&i| from[i] != to[i]).collect();
    if from.len() == 1 {
        return format!("take {} from {}", from[0] - to[0], from[0]);
    }
    match changed.as_slice() {
        [i] => {
            let (i, d) = (*i, from[*i] - to[*i]);
            let euclid_like = matches!(leaf, Ruleset::Euclid(_) | Ruleset::Euclid3 | Ruleset::Zeruclid);
            let unit = if euclid_like {
                // the multiple subtracted: of the smaller heap (Euclid) or smallest non-zero
                (0..from.len())
                    .filter(|&j| j != i || matches!(leaf, Ruleset::Zeruclid))
                    .map(|j| from[j])
                    .filter(|&u| u > 0 && d % u == 0)
                    .max_by_key(|&u| (u <= from[i], std::cmp::Reverse(u)))
            } else {
                None
            };
            match unit {
                Some(u) if u != d => format!("subtract {}×{u} from {}", d / u, from[i]),
                _ => format!("take {d} from heap {} ({} → {})", i + 1, from[i], to[i]),
            }
        }
        [_, _] => format!("take {} from both heaps", from[0] - to[0]),
        _ => format!("{} → {}", fmt_heaps(from), fmt_heaps(to)),
    }
}

/// "place a vertical domino on (1,2)-(2,2)": the cells empty in `from` and blocked in `to`.
fn describe_domino(from: &super::rules::cram_board::Board, to: &super::rules::cram_board::Board) -> String {
    let covered: Vec<(usize, usize)> = (0..from.rows())
        .flat_map(|r| (0..from.cols()).map(move |c| (r, c)))
        .filter(|&(r, c)| from.is_empty(r, c) && !to.is_empty(r, c))
        .collect();
    match covered.as_slice() {
        [(r1, c1), (r2, c2)] => {
            let dir = if r1 == r2 { "horizontal" } else { "vertical" };
            format!("place a {dir} domino on ({r1},{c1})-({r2},{c2})")
        }
        _ => format!("{from} → {to}"),
    }
}

fn fmt_heaps(h: &[u64]) -> String {
    h.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruleset::Subtraction(s) => write!(f, "sub({})", fmt_heaps(s)),
            Ruleset::Tag(k) => write!(f, "tag({k})"),
            // Grundy's game (4u.0) is a leaf: written as its row's name, `grundy`
            Ruleset::Octal(c) if !c.is_grundy() => write!(f, "octal({c})"),
            // push-cram too: it is written as what it is, push(cram-v,cram-h)
            Ruleset::Push(a, b) => write!(f, "push({a},{b})"),
            Ruleset::Sum(a, b) => write!(f, "sum({a},{b})"),
            Ruleset::Misere(r) => write!(f, "misere({r})"),
            Ruleset::Typed(rule) => write!(f, "{rule}"),
            // a family without parameters is written as its row's name
            leaf => f.write_str(leaf.family().row().name),
        }
    }
}

mod positions;
#[cfg(test)]
mod tests;
