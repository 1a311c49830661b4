//! Games that loop: typed rules whose moves lead back to a position they left. Their positions
//! are valued by Smith's theory (see [`crate::game::loopy`]): the positions a question needs
//! are explored ([`graph`]), labelled by the retrograde method ([`label`]), and a sum — of two
//! rulesets, or a collection of heaps of a one-heap rule — is valued from its components by
//! Smith's rules, never explored as a whole.
//!
//! A move that grows without bound (a term that adds to some heaps and applies again where it
//! applied, [`crate::game::rules::typed::analysis::pump`]) is refused as soon as the
//! exploration meets a position where it applies; other growth is refused when the positions
//! met pass the memory budget.

pub mod graph;
pub mod label;

use std::collections::HashMap;

use graph::{Graph, explore};

use super::control::{Control, SolveError};
use super::search::{grows_at, position_bytes};
use crate::game::loopy::Gamma;
use crate::game::quote::quoted;
use crate::game::rules::typed::TypedRule;
use crate::game::{Position, Ruleset};

/// The positions explored, numbered: as positions, or (a typed rule's, explored by the rule
/// itself) as their heaps.
#[derive(Debug, Clone)]
enum Index {
    Positions(HashMap<Position, u32>),
    Heaps(HashMap<Box<[u64]>, u32, foldhash::fast::RandomState>),
}

impl Default for Index {
    fn default() -> Self {
        Index::Positions(HashMap::new())
    }
}

/// The positions explored for some questions, with their values.
#[derive(Debug, Clone, Default)]
pub struct Solved {
    index: Index,
    graph: Graph,
    labels: Vec<u32>,
}

impl Solved {
    /// The value of `p`, if it was explored.
    pub fn get(&self, p: &Position) -> Option<Gamma> {
        let v = match (&self.index, p) {
            (Index::Positions(m), p) => *m.get(p)?,
            (Index::Heaps(m), Position::Heaps(h)) => *m.get(h.as_slice())?,
            _ => return None,
        } as usize;
        Some(match self.labels[v] {
            label::INFINITE => Gamma::Infinite(label::option_values(&self.graph, &self.labels, v)),
            m => Gamma::Finite(u64::from(m)),
        })
    }

    /// How many positions were explored.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether no position was solved.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Memory held.
    pub fn bytes(&self) -> u64 {
        let keys: u64 = match &self.index {
            Index::Positions(m) => m.keys().map(|k| position_bytes(k) + 32).sum(),
            Index::Heaps(m) => m.keys().map(|k| 8 * k.len() as u64 + 40).sum(),
        };
        keys + self.graph.bytes() + 4 * self.labels.len() as u64
    }
}

/// Whether a position of `ruleset` is a sum whose components are valued apart: a sum of two
/// rulesets, or two or more heaps of a one-heap typed rule (a collection is their sum).
fn components(ruleset: &Ruleset, p: &Position) -> Option<Vec<(Ruleset, Position)>> {
    match (ruleset, p) {
        (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => {
            Some(vec![((**a).clone(), (**pa).clone()), ((**b).clone(), (**pb).clone())])
        }
        (Ruleset::Typed(r), Position::Heaps(h)) if r.arity() == 1 && h.len() > 1 => {
            Some(h.iter().map(|&x| (ruleset.clone(), Position::Heaps(vec![x]))).collect())
        }
        _ => None,
    }
}

/// Explores `ruleset` from `starts` (positions of it, none a sum) and labels every position
/// met.
pub fn solve(ruleset: &Ruleset, starts: Vec<Position>, control: &Control) -> Result<Solved, SolveError> {
    if ruleset.has_misere() {
        return Err(SolveError::Unsupported(format!(
            "{ruleset} loops, and the values of games that loop (Smith's theory) are for normal play, not misère"
        )));
    }
    let first = starts.first().map(|p| p.to_string()).unwrap_or_default();
    let what = || format!("the game {} from {}", ruleset.short_text(60), quoted(&first));
    let (index, graph) = match ruleset {
        Ruleset::Typed(rule) => {
            let starts = starts.into_iter().filter_map(|p| match p {
                Position::Heaps(h) => Some(h.into_boxed_slice()),
                _ => None,
            });
            let (index, graph) = explore(
                starts,
                |h, out| typed_options(ruleset, rule, h, out),
                |h| 8 * h.len() as u64 + 40,
                &what,
                control,
            )?;
            (Index::Heaps(index), graph)
        }
        _ => {
            let options = |p: &Position, out: &mut Vec<Position>| -> Result<(), SolveError> {
                if let Some(e) = grows_at(ruleset, p) {
                    return Err(e);
                }
                ruleset.try_options(p, out)?;
                Ok(())
            };
            let (index, graph) = explore(starts, options, position_bytes, &what, control)?;
            (Index::Positions(index), graph)
        }
    };
    let rev = graph.reversed();
    let labels = label::label(&graph, &rev, control)?;
    Ok(Solved { index, graph, labels })
}

/// The options of a position of a typed rule, by the rule itself (no position built, no
/// repeat dropped: a repeated edge changes no value): a collection of a one-heap rule moves in
/// one heap, each heap of a size once.
fn typed_options(ruleset: &Ruleset, rule: &TypedRule, h: &[u64], out: &mut Vec<Box<[u64]>>) -> Result<(), SolveError> {
    if rule.arity() != 1 {
        if let Some(why) = rule.grows_from(h) {
            return Err(grows(ruleset, &why));
        }
        return Ok(rule.options(h, &mut |_: usize, o: &[u64]| out.push(o.into()))?);
    }
    for (i, &n) in h.iter().enumerate() {
        if h[..i].contains(&n) {
            continue;
        }
        if let Some(why) = rule.grows_from(&[n]) {
            return Err(grows(ruleset, &why));
        }
        rule.options(&[n], &mut |_: usize, parts: &[u64]| {
            let mut c: Vec<u64> = Vec::with_capacity(h.len() + parts.len());
            c.extend(h.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x));
            c.extend_from_slice(parts);
            out.push(rule.normalise(c).into_boxed_slice());
        })?;
    }
    Ok(())
}

/// The error of a game found to grow without bound.
fn grows(ruleset: &Ruleset, why: &str) -> SolveError {
    SolveError::Rule(format!("{} is not a finite game: {why}", quoted(&ruleset.to_string())))
}

/// The value of `p`, a position of `ruleset` that may loop: a sum by Smith's rules from its
/// components, each explored from itself (or read from `known`).
pub fn value(ruleset: &Ruleset, p: &Position, known: &mut LoopyCache, control: &Control) -> Result<Gamma, SolveError> {
    if let Some(parts) = components(ruleset, p) {
        let mut total = Gamma::Finite(0);
        for (r, q) in parts {
            total = total.sum(&value(&r, &q, known, control)?);
        }
        return Ok(total);
    }
    if let Some(g) = known.get(ruleset, p) {
        return Ok(g);
    }
    let solved = solve(ruleset, vec![p.clone()], control)?;
    let g = solved
        .get(p)
        .ok_or_else(|| SolveError::Unsupported(format!("{p} was not explored")))?;
    known.keep(ruleset, solved);
    Ok(g)
}

/// The last exploration of each ruleset, kept to answer the next question (an inspector's
/// options, a `moves` listing) without exploring again.
#[derive(Debug, Clone, Default)]
pub struct LoopyCache {
    solved: HashMap<Ruleset, Solved>,
}

impl LoopyCache {
    /// The value of `p` in `ruleset`, if a solved graph holds it.
    pub fn get(&self, ruleset: &Ruleset, p: &Position) -> Option<Gamma> {
        self.solved.get(ruleset)?.get(p)
    }

    /// Keeps the graph `solved` of `ruleset`.
    pub fn keep(&mut self, ruleset: &Ruleset, solved: Solved) {
        self.solved.insert(ruleset.clone(), solved);
    }

    /// The bytes the kept graphs hold.
    pub fn bytes(&self) -> u64 {
        self.solved.values().map(Solved::bytes).sum()
    }

    /// Drops what is kept of `ruleset`.
    pub fn forget(&mut self, ruleset: &Ruleset) {
        self.solved.remove(ruleset);
    }
}
