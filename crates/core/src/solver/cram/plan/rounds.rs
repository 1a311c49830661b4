//! A hunt's rounds: what a scheduler asked the units in each, `DIR/rounds/round-R.json`
//! (`nimscope cram --needed DIR --round R` writes it). A unit run for round R answers that
//! round's question (`--unit DIR K --round R`), so what a round asks does not depend on which
//! units happened to finish first; the combine step then lists the units of the round that
//! did not answer and are still needed ([`Round::unanswered`]), and `--status` reads the rounds
//! back. Rounds are numbered from 0 and a hunt resumed by hand goes on from the last one
//! ([`next_round`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::questions::{Bluff, covers};
use super::{Ask, Fact, Plan, PlanError, Policy, Question, ask};

/// The round files' format tag and version.
pub const ROUND_FORMAT: &str = "nimscope-cram-round";
/// The round files' format version this build writes and reads.
pub const ROUND_VERSION: u32 = 1;

/// Largest round file read (bytes): some 40 bytes a unit.
const MAX_ROUND_BYTES: u64 = 64 << 20;

/// Most rounds a hunt records.
pub const MAX_ROUNDS: u32 = 100_000;

/// One unit's question in a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asked {
    /// The unit, numbered from 0.
    pub unit: usize,
    /// The values asked about, or `"value"` (the exact value), as [`ask_to_json`] writes it.
    pub asked: serde_json::Value,
}

/// What a round asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// Always [`ROUND_FORMAT`].
    pub format: String,
    /// The file's version, [`ROUND_VERSION`] when written.
    pub version: u32,
    /// The plan's id.
    pub plan: String,
    /// Its number, from 0.
    pub round: u32,
    /// The policy it was asked with: how many values ahead (`--ahead`).
    pub ahead: u32,
    /// The policy it was asked with: how the bluff flag is asked (`--bluff`).
    #[serde(default)]
    pub bluff: Bluff,
    /// Seconds since 1970 when it was recorded.
    pub recorded: u64,
    /// Each unit asked and its question.
    pub asked: Vec<Asked>,
}

/// A question in the text form of answers and rounds: the values asked about, or `"value"`.
pub fn ask_to_json(a: Ask) -> serde_json::Value {
    if a == ask::EXACT {
        "value".into()
    } else {
        (0..128u32).filter(|v| a >> v & 1 == 1).collect::<Vec<u32>>().into()
    }
}

/// [`ask_to_json`] read back (`None`: not a question).
pub fn ask_from_json(v: &serde_json::Value) -> Option<Ask> {
    match v {
        serde_json::Value::String(s) if s == "value" => Some(ask::EXACT),
        serde_json::Value::Array(values) => {
            let mut set: Ask = 0;
            for x in values {
                let x = x.as_u64().filter(|&x| x < 128)?;
                set |= 1u128 << x;
            }
            (set != 0).then_some(set)
        }
        _ => None,
    }
}

/// The folder of the rounds, and round `r`'s file in it.
pub fn rounds_dir(dir: &Path) -> PathBuf {
    dir.join("rounds")
}

/// Round `r`'s file in the plan's folder `dir`.
pub fn round_path(dir: &Path, r: u32) -> PathBuf {
    rounds_dir(dir).join(format!("round-{r}.json"))
}

/// The rounds recorded so far, in order.
pub fn recorded(dir: &Path) -> Vec<u32> {
    let mut rounds: Vec<u32> = std::fs::read_dir(rounds_dir(dir))
        .map(|listing| {
            listing
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter_map(|n| n.strip_prefix("round-")?.strip_suffix(".json")?.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    rounds.sort_unstable();
    rounds
}

/// The number the next round gets: one past the last recorded, 0 for a new hunt.
pub fn next_round(dir: &Path) -> u32 {
    recorded(dir).last().map_or(0, |r| r + 1)
}

impl Round {
    /// The round `r` of `plan` asking `needed`.
    pub fn new(plan: &Plan, r: u32, policy: Policy, needed: &[(usize, Ask)]) -> Round {
        Round {
            format: ROUND_FORMAT.into(),
            version: ROUND_VERSION,
            plan: plan.id.clone(),
            round: r,
            ahead: policy.ahead,
            bluff: policy.bluff,
            recorded: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            asked: needed
                .iter()
                .map(|&(unit, a)| Asked {
                    unit,
                    asked: ask_to_json(a),
                })
                .collect(),
        }
    }

    /// Writes it to `dir` (atomically; a round recorded again is replaced).
    pub fn save(&self, dir: &Path) -> Result<(), PlanError> {
        if self.round >= MAX_ROUNDS {
            return Err(PlanError::Refused(format!(
                "round {}: a hunt records at most {MAX_ROUNDS} rounds",
                self.round
            )));
        }
        super::write_json(&round_path(dir, self.round), self)
    }

    /// Reads round `r` of `plan` from `dir`.
    pub fn load(dir: &Path, plan: &Plan, r: u32) -> Result<Round, PlanError> {
        let path = round_path(dir, r);
        let bytes =
            crate::files::read_bounded(&path, MAX_ROUND_BYTES, "a round").map_err(|e| PlanError::io(&path, e))?;
        let damaged = |why: String| PlanError::Damaged {
            path: path.clone(),
            why,
        };
        let round: Round = serde_json::from_slice(&bytes).map_err(|e| damaged(format!("not a round: {e}")))?;
        if round.format != ROUND_FORMAT || round.version != ROUND_VERSION {
            return Err(damaged(format!("format {} {}", round.format, round.version)));
        }
        if round.plan != plan.id || round.round != r {
            return Err(PlanError::Mismatch {
                path: path.clone(),
                why: format!(
                    "round {} of plan {}, not round {r} of plan {}",
                    round.round, round.plan, plan.id
                ),
            });
        }
        Policy::new(round.ahead, round.bluff).map_err(damaged)?;
        for a in &round.asked {
            if a.unit >= plan.units || ask_from_json(&a.asked).is_none() {
                return Err(damaged(format!("unit {} asked {}", a.unit, a.asked)));
            }
            if plan.question == Question::Outcome && ask_from_json(&a.asked) != Some(ask::ZERO) {
                return Err(damaged(format!("unit {} of an outcome plan asked {}", a.unit, a.asked)));
            }
        }
        Ok(round)
    }

    /// The policy the round was asked with.
    pub fn policy(&self) -> Policy {
        Policy::new(self.ahead, self.bluff).unwrap_or_default()
    }

    /// Unit `k`'s question in this round, if it was asked.
    pub fn ask_of(&self, k: usize) -> Option<Ask> {
        self.asked
            .iter()
            .find(|a| a.unit == k)
            .and_then(|a| ask_from_json(&a.asked))
    }

    /// The units this round asked that did not answer their question and that the root still
    /// needs (`answers` as they are now): a unit that answered, or that the others' answers
    /// made unnecessary, is not listed.
    pub fn unanswered(&self, plan: &Plan, answers: &[Option<Fact>]) -> Vec<usize> {
        let needed: std::collections::BTreeSet<usize> = plan
            .needed(answers, self.policy())
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        self.asked
            .iter()
            .filter(|a| needed.contains(&a.unit))
            .filter(|a| {
                let asked = ask_from_json(&a.asked).unwrap_or(ask::EXACT);
                !answers.get(a.unit).copied().flatten().is_some_and(|f| covers(f, asked))
            })
            .map(|a| a.unit)
            .collect()
    }
}
