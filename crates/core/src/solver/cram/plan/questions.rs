//! What a plan asks its units next ([`Plan::needed`]), and how far ahead ([`Policy`]).
//!
//! A node whose options' exact values (and the values the plan knew at once) include
//! `0..m-1` but not `m` needs to know whether some option is `m`: the single search asks its
//! options exactly that, one value at a time, and so does a round. A root of value 1 is a bluff
//! when every option is a P-position: asked one option a round ([`Bluff::OneARound`], the
//! least processor time, since the first option tried usually settles it), that took Cram
//! 5×8 17 rounds in the first version of the rounds, 15 of them for the bluff flag;
//! [`Bluff::AllAtOnce`] (the default) asks every option whose outcome is unknown in one round,
//! and once one of them answers "not 0" the others stop (`--unit` looks at the answers as it
//! runs). 5×8 now settles in one round either way (its N-position units learn "not 0" while
//! answering "not 1"); 5×9 in 2 rounds with `all` (3 in the first version, one a round;
//! docs/cluster.md).
//!
//! [`Policy::ahead`] trades processor time for rounds: each option is also asked about the
//! next `ahead` values that no option has yet (after `m`) in the same round, and, while the
//! root may be 1, whether it is 0 (its outcome, for the bluff flag). A set question costs more
//! than its first value, and values above an option's own value cost most (measured on a unit
//! of 5×8, a P-position: "is it 0?" 1.3 s, "1?" 0.3 s, "0 or 1?" 1.3 s, "1 or 2?" 9.5 s), so
//! the default asks no value ahead.
//!
//! The questions go down the tree: an inner node that a parent asks about some values asks
//! its own options about its own next values, up to the largest value its parents asked
//! about (values above it cannot matter), so a deep plan asks everything that can still
//! matter in one round too.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::combine::{achieved, mex};
use super::{Ask, Fact, Plan, PlanNode, Question, ask};

/// Values asked ahead by default: none.
pub const DEFAULT_AHEAD: u32 = 0;

/// Most values asked ahead (the sets hold values below 128).
pub const MAX_AHEAD: u32 = 127;

/// How the bluff flag of a root of value 1 is asked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bluff {
    /// Every option whose outcome is unknown, in one round.
    #[default]
    AllAtOnce,
    /// One option a round, until one is not a P-position.
    OneARound,
}

impl Bluff {
    /// Its name on the command line: `all` or `one`.
    pub fn name(self) -> &'static str {
        match self {
            Bluff::AllAtOnce => "all",
            Bluff::OneARound => "one",
        }
    }

    /// Reads `all` or `one` (`--bluff`); anything else is refused with the reason.
    pub fn parse(text: &str) -> Result<Bluff, String> {
        match text {
            "all" => Ok(Bluff::AllAtOnce),
            "one" => Ok(Bluff::OneARound),
            _ => Err(format!("--bluff {text}: all (one round) or one (an option a round)")),
        }
    }
}

/// How much processor time a plan spends for fewer rounds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// Values each option is asked about in one round beyond the one the node needs (0: one
    /// at a time, the single search's order and the least processor time; more: fewer rounds,
    /// and questions about values that turn out not to matter are searched in vain).
    pub ahead: u32,
    /// How the bluff flag is asked.
    #[serde(default)]
    pub bluff: Bluff,
}

impl Policy {
    /// A policy asking `ahead` values ahead (0 to [`MAX_AHEAD`]).
    pub fn new(ahead: u32, bluff: Bluff) -> Result<Policy, String> {
        if ahead <= MAX_AHEAD {
            Ok(Policy { ahead, bluff })
        } else {
            Err(format!("--ahead {ahead}: from 0 (one value a round) to {MAX_AHEAD}"))
        }
    }

    /// Whether the bluff flag is asked of every option at once.
    fn bluff_in_parallel(self) -> bool {
        self.bluff == Bluff::AllAtOnce
    }
}

/// The set of `values` (the exact question when one is 128 or more).
fn bits(values: &[u32]) -> Ask {
    values
        .iter()
        .try_fold(0u128, |set, &v| (v < 128).then(|| set | 1u128 << v))
        .unwrap_or(ask::EXACT)
}

/// Whether `fact` answers question `asked` (an answer that names its value or outcome answers
/// every question; one that excludes values answers a question about those values).
pub fn covers(fact: Fact, asked: Ask) -> bool {
    match fact {
        Fact::Value(_) | Fact::IsZero(_) => true,
        Fact::Excluded(not) => asked != ask::EXACT && asked & !not == 0,
    }
}

/// The questions of one round being gathered: units asked, and for each inner node the
/// largest value a parent asked it about.
struct Gather {
    asks: BTreeMap<usize, Ask>,
    top: Vec<Option<u32>>,
}

impl Gather {
    /// Asks node `o` whether its value is one of `values`.
    fn ask(&mut self, plan: &Plan, o: usize, values: &[u32]) {
        match plan.nodes[o] {
            PlanNode::Unit { unit } => *self.asks.entry(unit).or_default() |= bits(values),
            PlanNode::Options { .. } => {
                let most = values.iter().copied().max().unwrap_or(0);
                let top = &mut self.top[o];
                *top = Some(top.map_or(most, |t| t.max(most)));
            }
        }
    }
}

impl Plan {
    /// The units still needed to settle the root, in order, each with its question (see the
    /// module's header): every unit that some unsettled path from the root reaches and whose
    /// answer can still change what the root's answer is. An outcome plan asks each such
    /// unit whether it is a P-position, in one round.
    pub fn needed(&self, answers: &[Option<Fact>], policy: Policy) -> Vec<(usize, Ask)> {
        let facts = self.facts(answers);
        let mut g = Gather {
            asks: BTreeMap::new(),
            top: vec![None; self.nodes.len()],
        };
        match facts[self.root] {
            Some(f) if f.is_settled() => {
                if self.question == Question::Value && self.bluff_of(&facts).is_none() {
                    self.ask_bluff(&facts, policy, &mut g);
                }
            }
            _ => g.top[self.root] = Some(u32::MAX),
        }
        // Parents before their options: ids grow bottom-up.
        for i in (0..self.nodes.len()).rev() {
            let Some(top) = g.top[i] else { continue };
            if facts[i].is_some_and(Fact::is_settled) {
                continue;
            }
            let PlanNode::Options { known, options } = &self.nodes[i] else {
                continue;
            };
            match self.question {
                Question::Outcome => {
                    for &o in options.iter().filter(|&&o| facts[o].is_none()) {
                        g.ask(self, o, &[0]);
                    }
                }
                Question::Value => {
                    let done = achieved(known, options, &facts);
                    // A value is at most the number of its options' values.
                    let bound = (known.len() + options.len()) as u32;
                    let next: Vec<u32> = (mex(&done)..=bound.min(top))
                        .filter(|v| done.binary_search(v).is_err())
                        .take(policy.ahead as usize + 1)
                        .collect();
                    // While the root may be 1, whether it is a bluff needs the options'
                    // outcomes: asked now rather than a round later.
                    let bluff = i == self.root
                        && policy.ahead > 0
                        && policy.bluff_in_parallel()
                        && done.binary_search(&1).is_err()
                        && next.first().is_some_and(|&m| m <= 1);
                    for &o in options {
                        let fact = facts[o];
                        if fact.is_some_and(Fact::is_settled) {
                            continue;
                        }
                        let mut want: Vec<u32> = next
                            .iter()
                            .copied()
                            .filter(|&v| !fact.is_some_and(|f| f.excludes(v)))
                            .collect();
                        if bluff && fact.and_then(Fact::outcome).is_none() && !want.contains(&0) {
                            want.push(0);
                        }
                        if !want.is_empty() {
                            g.ask(self, o, &want);
                        }
                    }
                }
            }
        }
        g.asks.into_iter().collect()
    }

    /// A root of value 1 is a bluff when every option is a P-position: its options whose
    /// outcome is unknown are asked whether they are 0, all at once or one a round.
    fn ask_bluff(&self, facts: &[Option<Fact>], policy: Policy, g: &mut Gather) {
        let PlanNode::Options { options, .. } = &self.nodes[self.root] else {
            return;
        };
        let unknown = options
            .iter()
            .copied()
            .filter(|&o| facts[o].and_then(Fact::outcome).is_none());
        let take = if policy.bluff_in_parallel() { usize::MAX } else { 1 };
        for o in unknown.take(take) {
            g.ask(self, o, &[0]);
        }
    }
}
