//! A unit's answer: one small JSON file, `DIR/answers/unit-K.json`, written atomically (the
//! crate's one writer: a temporary file, synced, renamed), so a unit killed at any point
//! leaves either no answer or a whole one.
//!
//! An answer names its plan (by id), its unit and its board, and carries a check over those
//! and the answer itself: an answer of another plan, of another unit, or edited or damaged
//! is refused with one line naming the file. Besides the answer it records what the unit
//! spent (seconds of this run, positions searched, proven values loaded), for the cost table.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Fact, Plan, PlanError, Question, fnv64};

/// The answer files' format tag and version.
pub const ANSWER_FORMAT: &str = "nimscope-cram-answer";
/// The answer files' format version this build writes and reads.
pub const ANSWER_VERSION: u32 = 2;

/// Largest answer file read (bytes).
const MAX_ANSWER_BYTES: u64 = 64 << 10;

/// What a unit writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitAnswer {
    /// Always [`ANSWER_FORMAT`].
    pub format: String,
    /// The format's version, [`ANSWER_VERSION`] when written.
    pub version: u32,
    /// The plan's id.
    pub plan: String,
    /// The unit answered, numbered from 0.
    pub unit: usize,
    /// The unit's position, in the text form of boards.
    pub board: String,
    /// Whether the plan asks values or outcomes.
    pub question: Question,
    /// The unit's value (a value plan, once a question needed it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
    /// Values the unit is known not to have (a value plan, while its value is not needed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<u32>,
    /// "P", "N", or "unknown" (a value plan that has excluded values other than 0).
    pub outcome: String,
    /// The nimscope that found it.
    pub solver: String,
    /// Wall-clock seconds of the run that finished it (not counting runs a checkpoint resumed).
    pub seconds: f64,
    /// Components (Cram) or positions (Push Cram) whose options the search generated.
    pub expanded: u64,
    /// Proven values of other units loaded before the search.
    pub proven_loaded: u64,
    /// A check over plan, unit, board, question and answer.
    pub check: String,
}

impl UnitAnswer {
    /// The answer of unit `k` of `plan`.
    pub fn new(plan: &Plan, k: usize, fact: Fact, seconds: f64, expanded: u64, proven_loaded: u64) -> UnitAnswer {
        let mut a = UnitAnswer {
            format: ANSWER_FORMAT.into(),
            version: ANSWER_VERSION,
            plan: plan.id.clone(),
            unit: k,
            board: plan.work.get(k).map(|w| w.board.clone()).unwrap_or_default(),
            question: plan.question,
            value: match fact {
                Fact::Value(v) => Some(v),
                Fact::IsZero(_) | Fact::Excluded(_) => None,
            },
            excluded: match fact {
                Fact::Excluded(set) => (0..128).filter(|v| set >> v & 1 == 1).collect(),
                _ => Vec::new(),
            },
            outcome: fact.outcome().map_or(UNKNOWN, |o| o.as_str()).into(),
            solver: format!("nimscope {}", crate::GIT_COMMIT_VERSION),
            seconds,
            expanded,
            proven_loaded,
            check: String::new(),
        };
        a.check = a.compute_check();
        a
    }

    fn compute_check(&self) -> String {
        let text = format!(
            "{}|{}|{}|{}|{:?}|{:?}|{}",
            self.plan,
            self.unit,
            self.board,
            self.question.name(),
            self.value,
            self.excluded,
            self.outcome
        );
        format!("{:016x}", fnv64(text.as_bytes()))
    }

    /// The fact it states.
    pub fn fact(&self) -> Fact {
        match self.value {
            Some(v) => Fact::Value(v),
            None if !self.excluded.is_empty() => {
                Fact::Excluded(self.excluded.iter().fold(0, |set, &v| set | 1u128 << v.min(127)))
            }
            None => Fact::IsZero(self.outcome == "P"),
        }
    }
}

/// The outcome of an answer that has excluded values other than 0 only.
const UNKNOWN: &str = "unknown";

/// The folder of the answers, and unit `k`'s file in it.
pub fn answers_dir(dir: &Path) -> PathBuf {
    dir.join("answers")
}

/// Unit `k`'s answer file, `DIR/answers/unit-K.json`.
pub fn answer_path(dir: &Path, k: usize) -> PathBuf {
    answers_dir(dir).join(format!("unit-{k}.json"))
}

/// Writes unit `k`'s answer into the plan's folder, atomically.
pub fn write(dir: &Path, answer: &UnitAnswer) -> Result<(), PlanError> {
    let folder = answers_dir(dir);
    std::fs::create_dir_all(&folder).map_err(|e| PlanError::io(&folder, e))?;
    let path = answer_path(dir, answer.unit);
    let mut text = serde_json::to_vec(answer).map_err(|e| PlanError::Refused(e.to_string()))?;
    text.push(b'\n');
    crate::files::write_with(&path, crate::files::Accept::FileOnly, |f| {
        std::io::Write::write_all(f, &text)
    })
    .map_err(|e| PlanError::io(&path, e))
}

/// Reads and checks unit `k`'s answer: `None` when there is none yet.
pub fn read(dir: &Path, plan: &Plan, k: usize) -> Result<Option<UnitAnswer>, PlanError> {
    let path = answer_path(dir, k);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let bytes =
        crate::files::read_bounded(&path, MAX_ANSWER_BYTES, "an answer").map_err(|e| PlanError::io(&path, e))?;
    let damaged = |why: String| PlanError::Damaged {
        path: path.clone(),
        why,
    };
    let a: UnitAnswer = serde_json::from_slice(&bytes).map_err(|e| damaged(format!("not an answer: {e}")))?;
    if a.format != ANSWER_FORMAT || a.version != ANSWER_VERSION {
        return Err(damaged(format!(
            "format {} {}, not {ANSWER_FORMAT} {ANSWER_VERSION}",
            a.format, a.version
        )));
    }
    if a.check != a.compute_check() {
        return Err(damaged("its check does not match its contents".into()));
    }
    let mismatch = |why: String| PlanError::Mismatch {
        path: path.clone(),
        why: format!("{why}; remove it"),
    };
    if a.plan != plan.id {
        return Err(mismatch(format!(
            "the answer of another plan ({}, not {})",
            a.plan, plan.id
        )));
    }
    let spec = plan.work.get(k).map(|w| w.board.as_str());
    if a.unit != k || spec != Some(a.board.as_str()) || a.question != plan.question {
        return Err(mismatch(format!(
            "the answer of unit {} ({} of {}), not of unit {k}",
            a.unit,
            a.question.name(),
            a.board
        )));
    }
    let excluded_ok = a.excluded.windows(2).all(|w| w[0] < w[1]) && a.excluded.iter().all(|&v| v < 128);
    let consistent = match (plan.question, a.value, a.excluded.first()) {
        (Question::Value, Some(v), None) => (v == 0) == (a.outcome == "P") && a.outcome != UNKNOWN,
        (Question::Value, None, Some(&lowest)) => excluded_ok && a.outcome == if lowest == 0 { "N" } else { UNKNOWN },
        (Question::Outcome, None, None) => a.outcome == "P" || a.outcome == "N",
        _ => false,
    };
    if !consistent {
        return Err(damaged("its value and outcome disagree".into()));
    }
    Ok(Some(a))
}

/// Every unit's answer, if given (checked one by one; the first bad file refuses them all).
pub fn read_all(dir: &Path, plan: &Plan) -> Result<Vec<Option<UnitAnswer>>, PlanError> {
    // One listing instead of a failed open per missing unit (plans of 10^5 units).
    let present: std::collections::HashSet<String> = match std::fs::read_dir(answers_dir(dir)) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().and_then(|e| e.file_name().into_string().ok()))
            .collect(),
        Err(_) => Default::default(),
    };
    (0..plan.units)
        .map(|k| {
            if present.contains(&format!("unit-{k}.json")) {
                read(dir, plan, k)
            } else {
                Ok(None)
            }
        })
        .collect()
}

/// The facts of [`read_all`]'s answers.
pub fn facts(answers: &[Option<UnitAnswer>]) -> Vec<Option<super::Fact>> {
    answers.iter().map(|a| a.as_ref().map(UnitAnswer::fact)).collect()
}
