//! A unit's answer: one small JSON file, `DIR/answers/unit-K.json`, written atomically (the
//! crate's one writer: a temporary file, synced, renamed), so a unit killed at any point
//! leaves either no answer or a whole one.
//!
//! An answer names its plan (by id), its unit, its board, the question it was asked (and in
//! which round) and the nimscope that found it, and carries an HMAC-SHA256 over all of its
//! fields under the plan's key ([`super::evidence`]): an answer of another plan, of another
//! unit, edited or damaged is refused with one line naming the file. Besides the answer it
//! records what the unit spent (wall clock and processor time of this run and of every run
//! that answered it, positions searched, proven values loaded), for `--status` and the cost
//! table.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::evidence::Domain;
use super::rounds::{ask_from_json, ask_to_json};
use super::{Ask, Fact, Plan, PlanError, Question};

/// The answer files' format tag and version.
pub const ANSWER_FORMAT: &str = "nimscope-cram-answer";
/// The answer files' format version this build writes and reads.
pub const ANSWER_VERSION: u32 = 3;

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
    /// What this run was asked: values, or `"value"` ([`ask_to_json`]).
    pub asked: serde_json::Value,
    /// The round it was asked in, when a scheduler records rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
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
    /// Wall-clock seconds of the run that wrote it (not counting runs a checkpoint resumed).
    pub seconds: f64,
    /// Processor seconds (user and system) of that run.
    pub cpu_seconds: f64,
    /// Processor seconds of every run that wrote an answer of this unit (runs killed before
    /// they answered are not counted: their work is in the checkpoint they resumed from).
    pub cpu_seconds_total: f64,
    /// Runs that wrote an answer of this unit.
    pub runs: u32,
    /// Components (Cram) or positions (Push Cram) whose options the search generated.
    pub expanded: u64,
    /// Proven values of other units loaded before the search.
    pub proven_loaded: u64,
    /// HMAC-SHA256 under the plan's key over every other field.
    pub check: String,
}

/// What a run of a unit spent.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// Processor seconds (user + system) of the run.
    pub cpu_seconds: f64,
    /// Positions the search expanded.
    pub expanded: u64,
    /// Proven values of other units loaded before the search.
    pub proven_loaded: u64,
}

impl UnitAnswer {
    /// The answer of unit `k` of `plan` asked `asked` (in `round`), after the answer
    /// `before` it had (whose runs it adds up).
    pub fn new(
        plan: &Plan,
        k: usize,
        fact: Fact,
        (asked, round): (Ask, Option<u32>),
        spent: Spent,
        before: Option<&UnitAnswer>,
    ) -> Result<UnitAnswer, PlanError> {
        let mut a = UnitAnswer {
            format: ANSWER_FORMAT.into(),
            version: ANSWER_VERSION,
            plan: plan.id.clone(),
            unit: k,
            board: plan.work.get(k).map(|w| w.board.clone()).unwrap_or_default(),
            question: plan.question,
            asked: ask_to_json(asked),
            round,
            value: match fact {
                Fact::Value(v) => Some(v),
                Fact::IsZero(_) | Fact::Excluded(_) => None,
            },
            excluded: match fact {
                Fact::Excluded(set) => (0..128).filter(|v| set >> v & 1 == 1).collect(),
                _ => Vec::new(),
            },
            outcome: fact.outcome().map_or(UNKNOWN, |o| o.as_str()).into(),
            solver: this_solver(),
            seconds: spent.seconds,
            cpu_seconds: spent.cpu_seconds,
            cpu_seconds_total: before.map_or(0.0, |b| b.cpu_seconds_total) + spent.cpu_seconds,
            runs: before.map_or(0, |b| b.runs).saturating_add(1),
            expanded: spent.expanded,
            proven_loaded: spent.proven_loaded,
            check: String::new(),
        };
        a.check = plan.key()?.tag_text(Domain::Answer, &a.signed_bytes());
        Ok(a)
    }

    /// What the check covers: the answer as [`write`] writes it, with an empty check.
    fn signed_bytes(&self) -> Vec<u8> {
        let mut copy = self.clone();
        copy.check.clear();
        serde_json::to_vec(&copy).unwrap_or_default()
    }

    /// Whether another nimscope wrote it (its answer is still checked and used; `--status`,
    /// `--combine` and `--verify` name it).
    pub fn by_other_version(&self) -> bool {
        self.solver != this_solver()
    }

    /// The question it was asked.
    pub fn asked(&self) -> Option<Ask> {
        ask_from_json(&self.asked)
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

/// This nimscope, as answers name it.
pub fn this_solver() -> String {
    format!("nimscope {}", crate::GIT_COMMIT_VERSION)
}

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
    super::write_json(&answer_path(dir, answer.unit), answer)
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
    let head: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| damaged(format!("not an answer: {e}")))?;
    let (format, version) = (
        head.get("format").and_then(|f| f.as_str()),
        head.get("version").and_then(|v| v.as_u64()),
    );
    if format != Some(ANSWER_FORMAT) || version != Some(ANSWER_VERSION as u64) {
        return Err(damaged(format!(
            "format {} {}, not {ANSWER_FORMAT} {ANSWER_VERSION} (an older nimscope's answer: run the unit again)",
            format.unwrap_or("?"),
            version.unwrap_or(0)
        )));
    }
    let a: UnitAnswer = serde_json::from_value(head).map_err(|e| damaged(format!("not an answer: {e}")))?;
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
    // The check covers the file's own bytes (numbers read back and written again need not
    // give the same digits).
    let signed = unsigned_text(&bytes).ok_or_else(|| damaged("no check".into()))?;
    if !plan.key()?.check_text(Domain::Answer, &signed, &a.check) {
        return Err(damaged(
            "its check does not match its contents: edited by hand, damaged, or signed with another copy of this plan's key".into(),
        ));
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
    if a.asked().is_none() || a.runs == 0 {
        return Err(damaged(format!("its question {} or its runs {}", a.asked, a.runs)));
    }
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

/// An answer file's bytes with its check's value taken out (and its last newline): what the
/// check was computed over.
fn unsigned_text(bytes: &[u8]) -> Option<Vec<u8>> {
    const FIELD: &[u8] = b"\"check\":\"";
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let start = bytes.windows(FIELD.len()).rposition(|w| w == FIELD)? + FIELD.len();
    let end = start + bytes[start..].iter().position(|&b| b == b'"')?;
    let mut out = bytes[..start].to_vec();
    out.extend_from_slice(&bytes[end..]);
    Some(out)
}

/// Every unit's answer, if given (checked one by one; the first bad file refuses them all).
pub fn read_all(dir: &Path, plan: &Plan) -> Result<Vec<Option<UnitAnswer>>, PlanError> {
    read_each(dir, plan).into_iter().collect()
}

/// Every unit's answer, if given, or why its file is refused.
pub fn read_each(dir: &Path, plan: &Plan) -> Vec<Result<Option<UnitAnswer>, PlanError>> {
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

/// The answers of a plan's folder as a watcher last read them (a unit that looks every few
/// minutes whether the others made it unnecessary, in a plan of thousands of units): each file
/// read again only when it changed, and a fact only while its file exists and passes its
/// checks. A file deleted, replaced or edited since the last look takes its fact with it, so
/// a unit is never stopped by an answer that is no longer there.
#[derive(Debug, Clone)]
pub struct Seen {
    facts: Vec<Option<Fact>>,
    stamps: Vec<Option<Stamp>>,
}

/// What tells a file changed without reading it: its modification time and size and, where
/// the system has them, its inode and change time (which a hand edit that puts the old
/// modification time back still moves).
type Stamp = (std::time::SystemTime, u64, u64, i64, i64);

fn stamp(meta: &std::fs::Metadata) -> Option<Stamp> {
    let modified = meta.modified().ok()?;
    #[cfg(unix)]
    let (ino, ctime, ctime_nsec) = {
        use std::os::unix::fs::MetadataExt;
        (meta.ino(), meta.ctime(), meta.ctime_nsec())
    };
    #[cfg(not(unix))]
    let (ino, ctime, ctime_nsec) = (0, 0, 0);
    Some((modified, meta.len(), ino, ctime, ctime_nsec))
}

impl Seen {
    /// Nothing seen yet, for a plan of `units` units.
    pub fn new(units: usize) -> Seen {
        Seen {
            facts: vec![None; units],
            stamps: vec![None; units],
        }
    }

    /// The facts now: those of the answer files that exist and pass their checks (a file that
    /// cannot be read or checked, or a folder that cannot be listed, counts as no answer).
    pub fn refresh(&mut self, dir: &Path, plan: &Plan) -> &[Option<Fact>] {
        let mut present = vec![false; self.facts.len()];
        if let Ok(listing) = std::fs::read_dir(answers_dir(dir)) {
            for entry in listing.filter_map(|e| e.ok()) {
                let name = entry.file_name();
                let Some(k) = name
                    .to_str()
                    .and_then(|n| n.strip_prefix("unit-")?.strip_suffix(".json")?.parse::<usize>().ok())
                    .filter(|&k| k < self.facts.len())
                else {
                    continue;
                };
                let Some(now) = std::fs::metadata(entry.path()).ok().as_ref().and_then(stamp) else {
                    continue;
                };
                present[k] = true;
                if self.stamps[k] != Some(now) {
                    self.stamps[k] = Some(now);
                    self.facts[k] = read(dir, plan, k).ok().flatten().map(|a| a.fact());
                }
            }
        }
        for (k, here) in present.into_iter().enumerate() {
            if !here {
                self.facts[k] = None;
                self.stamps[k] = None;
            }
        }
        &self.facts
    }
}
