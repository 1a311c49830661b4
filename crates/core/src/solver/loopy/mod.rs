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
use crate::game::{Position, Ruleset};

/// The positions explored for some questions, with their values.
#[derive(Debug, Clone, Default)]
pub struct Solved {
    index: HashMap<Position, u32>,
    graph: Graph,
    labels: Vec<u32>,
}

impl Solved {
    /// The value of `p`, if it was explored.
    pub fn get(&self, p: &Position) -> Option<Gamma> {
        let v = *self.index.get(p)? as usize;
        Some(match self.labels[v] {
            label::INFINITE => Gamma::Infinite(label::option_values(&self.graph, &self.labels, v)),
            m => Gamma::Finite(u64::from(m)),
        })
    }

    /// How many positions were explored.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Memory held.
    pub fn bytes(&self) -> u64 {
        let keys: u64 = self.index.keys().map(|k| position_bytes(k) + 32).sum();
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
    let options = |p: &Position, out: &mut Vec<Position>| -> Result<(), SolveError> {
        if let Some(e) = grows_at(ruleset, p) {
            return Err(e);
        }
        ruleset.try_options(p, out)?;
        Ok(())
    };
    let (index, graph) = explore(starts, options, position_bytes, &what, control)?;
    let rev = graph.reversed();
    let labels = label::label(&graph, &rev, control)?;
    Ok(Solved { index, graph, labels })
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
    pub fn get(&self, ruleset: &Ruleset, p: &Position) -> Option<Gamma> {
        self.solved.get(ruleset)?.get(p)
    }

    pub fn keep(&mut self, ruleset: &Ruleset, solved: Solved) {
        self.solved.insert(ruleset.clone(), solved);
    }

    pub fn bytes(&self) -> u64 {
        self.solved.values().map(Solved::bytes).sum()
    }

    pub fn forget(&mut self, ruleset: &Ruleset) {
        self.solved.remove(ruleset);
    }
}

#[cfg(test)]
mod tests;
