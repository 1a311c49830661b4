//! The combination: what the units' answers say about every node of a plan, up to the root
//! ([`Plan::facts`], [`Plan::root_fact`], [`Plan::root_bluff`]), and what a unit knows after
//! a new answer ([`merged`]). This is all `--combine` does.

use super::{Fact, Plan, PlanNode, Question};
use crate::game::Outcome;
use crate::game::rules::cram_board::low_bits;

impl Plan {
    /// What is known about every node from the units' answers (`answers[k]`: unit `k`'s, if
    /// given), in node order. In a value plan a node whose options' exact values include
    /// `0..m-1` but not `m`, while some option may still be `m`, has the fact "none of
    /// `0..m-1`".
    pub fn facts(&self, answers: &[Option<Fact>]) -> Vec<Option<Fact>> {
        let mut facts: Vec<Option<Fact>> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let fact = match node {
                PlanNode::Unit { unit } => answers.get(*unit).copied().flatten(),
                PlanNode::Options { known, options } => match self.question {
                    Question::Value => {
                        let achieved = achieved(known, options, &facts);
                        let m = mex(&achieved);
                        if options.iter().all(|o| facts[*o].is_some_and(|f| f.excludes(m))) {
                            Some(Fact::Value(m))
                        } else {
                            // Not below its mex, and never an option's value.
                            let not = achieved
                                .iter()
                                .filter(|&&v| v < 128)
                                .fold(low_bits(m.min(128) as usize), |s, &v| s | 1u128 << v);
                            (not != 0).then_some(Fact::Excluded(not))
                        }
                    }
                    Question::Outcome => {
                        let of = |o: &usize| facts[*o];
                        if known.contains(&0) || options.iter().any(|o| of(o).is_some_and(Fact::is_zero)) {
                            Some(Fact::IsZero(false))
                        } else if options.iter().all(|o| of(o).is_some()) {
                            Some(Fact::IsZero(true))
                        } else {
                            None
                        }
                    }
                },
            };
            facts.push(fact);
        }
        facts
    }

    /// The root's answer, if the answers settle it (a value plan: its value, and whether it
    /// is a bluff).
    pub fn root_fact(&self, answers: &[Option<Fact>]) -> Option<Fact> {
        let facts = self.facts(answers);
        let fact = facts[self.root].filter(|f| f.is_settled())?;
        match self.question {
            Question::Value => self.bluff_of(&facts).map(|_| fact),
            Question::Outcome => Some(fact),
        }
    }

    /// Whether the root is a bluff position (every move wins), when the answers settle it (a
    /// value plan): not when its value is 0 or at least 2 (an option of value 1 loses); at
    /// value 1, when every option is known to be a P-position.
    pub fn root_bluff(&self, answers: &[Option<Fact>]) -> Option<bool> {
        self.bluff_of(&self.facts(answers))
    }

    /// [`Plan::root_bluff`] from the nodes' facts.
    pub(super) fn bluff_of(&self, facts: &[Option<Fact>]) -> Option<bool> {
        let PlanNode::Options { known, options } = &self.nodes[self.root] else {
            return None;
        };
        let Some(Fact::Value(root)) = facts[self.root] else {
            return None;
        };
        if root != 1 || known.iter().any(|&v| v != 0) {
            return Some(false);
        }
        let mut all_zero = true;
        for o in options {
            match facts[*o].and_then(Fact::outcome) {
                // Cram never loops: a draw is not an outcome here
                Some(Outcome::N | Outcome::D) => return Some(false),
                Some(Outcome::P) => {}
                None => all_zero = false,
            }
        }
        all_zero.then_some(true)
    }
}

/// A node's known values and its options' exact values, sorted, each once.
pub(super) fn achieved(known: &[u32], options: &[usize], facts: &[Option<Fact>]) -> Vec<u32> {
    let mut values: Vec<u32> = known.to_vec();
    values.extend(options.iter().filter_map(|o| match facts[*o] {
        Some(Fact::Value(v)) => Some(v),
        _ => None,
    }));
    values.sort_unstable();
    values.dedup();
    values
}

/// The smallest value not in `sorted` (sorted, each once).
pub(super) fn mex(sorted: &[u32]) -> u32 {
    let mut v = 0;
    for &x in sorted {
        if x == v {
            v += 1;
        } else if x > v {
            break;
        }
    }
    v
}

/// What a unit knows after a new answer: the new one when it is settled, else the values
/// excluded by both.
pub fn merged(old: Option<Fact>, new: Fact) -> Fact {
    match (old, new) {
        (Some(Fact::Excluded(a)), Fact::Excluded(b)) => Fact::Excluded(a | b),
        (Some(old), Fact::Excluded(_)) if old.is_settled() => old,
        _ => new,
    }
}
