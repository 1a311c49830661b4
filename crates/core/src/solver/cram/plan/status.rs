//! A hunt's state from its folder alone (`nimscope cram --status DIR`): the rounds recorded,
//! the units answered, running, pending (needed now, not running) and skipped (neither), the
//! questions the root needs now, the processor time the answers record, the largest unit, an
//! estimate of what the units needed now will take, answers written by other nimscopes, files
//! refused, and what the Slurm scripts left (`result.json`, `failed`, `hunt.lock`). Nothing
//! here runs a search or asks a scheduler.

use std::path::Path;

use serde::Serialize;

use super::answer::{UnitAnswer, read_each};
use super::estimate::{self, Estimate};
use super::rounds::{Round, ask_to_json, recorded};
use super::running::{Liveness, list, now_secs};
use super::{Fact, Plan, PlanError, Policy, Question};

/// Units listed by name at most (the counts are whole).
const LIST_AT_MOST: usize = 50;

/// One recorded round.
#[derive(Debug, Clone, Serialize)]
pub struct RoundLine {
    /// Its number, from 0.
    pub round: u32,
    /// Seconds since 1970 when it was recorded.
    pub recorded: u64,
    /// The values asked ahead (`--ahead`).
    pub ahead: u32,
    /// How the bluff flag was asked (`--bluff`: `all` or `one`).
    pub bluff: &'static str,
    /// Units it asked.
    pub asked: usize,
    /// Of those, units whose question is still open and still needed now.
    pub open: usize,
}

/// A unit and a figure about it.
#[derive(Debug, Clone, Serialize)]
pub struct UnitLine {
    /// The unit, numbered from 0.
    pub unit: usize,
    /// Its empty cells.
    pub cells: u32,
    /// Its moves.
    pub moves: u32,
    /// The estimate of its search (positions, table, time).
    pub estimate: Estimate,
}

/// What `--status` reports.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// `cram` or `push-cram`.
    pub game: String,
    /// The root's board, in the text form of boards.
    pub board: String,
    /// `value` or `outcome`.
    pub question: String,
    /// The plan's depth in plies.
    pub depth: u32,
    /// How many units the plan has.
    pub units: usize,
    /// The root's answer, when the answers settle it (`"grundy 1"`, `"P"`).
    pub settled: Option<String>,
    /// `DIR/result.json` and `DIR/failed` as the Slurm scripts left them.
    pub result: Option<String>,
    /// `DIR/failed`: why the hunt stopped and how to resume it.
    pub failed: Option<String>,
    /// `DIR/hunt.lock`: the jobs of the hunt submitted last.
    pub lock: Option<String>,
    /// The rounds recorded, first to last.
    pub rounds: Vec<RoundLine>,
    /// Units with an answer on file.
    pub answered: usize,
    /// Units whose marker says they run, and whose process is alive or refreshed lately.
    pub running: Vec<usize>,
    /// Units whose marker says they run but whose process is gone (killed).
    pub stale: Vec<usize>,
    /// Units needed now that are neither answered nor running.
    pub pending: Vec<usize>,
    /// Units neither answered nor needed.
    pub skipped: usize,
    /// The questions the root needs answered now (unit, values), at most `LIST_AT_MOST`.
    pub needed: Vec<serde_json::Value>,
    /// How many questions the root needs now (all of them, listed or not).
    pub needed_count: usize,
    /// Processor seconds the answers record (every run that answered), and those runs.
    pub cpu_seconds: f64,
    /// The runs that answered.
    pub answer_runs: u64,
    /// The unit with the most processor time so far.
    pub most_cpu: Option<(usize, f64)>,
    /// The unit of the most empty cells, with its estimate.
    pub largest_unit: Option<UnitLine>,
    /// Estimated processor seconds of the units needed now (those running: what is left of
    /// their estimate); later rounds are not in it.
    pub remaining_seconds: f64,
    /// What the estimates are (a fit, not a measurement), said beside them.
    pub estimate_note: &'static str,
    /// Answers written by other nimscopes: (unit, which).
    pub other_versions: Vec<(usize, String)>,
    /// Answer files refused, one line each.
    pub refused: Vec<String>,
}

/// Every unit's answer (a refused file counts as none), and one line for each refused file.
fn answers_and_refusals(dir: &Path, plan: &Plan) -> (Vec<Option<UnitAnswer>>, Vec<String>) {
    let mut refused = Vec::new();
    let answers = read_each(dir, plan)
        .into_iter()
        .map(|a| {
            a.unwrap_or_else(|e| {
                refused.push(e.to_string());
                None
            })
        })
        .collect();
    (answers, refused)
}

/// The state of the hunt of `plan` in `dir`.
pub fn read(dir: &Path, plan: &Plan) -> Result<Status, PlanError> {
    let (answers, refused) = answers_and_refusals(dir, plan);
    let facts: Vec<Option<Fact>> = answers.iter().map(|a| a.as_ref().map(UnitAnswer::fact)).collect();
    let rounds: Vec<Round> = recorded(dir)
        .into_iter()
        .filter_map(|r| Round::load(dir, plan, r).ok())
        .collect();
    let policy = rounds.last().map_or(Policy::default(), Round::policy);
    let needed = plan.needed(&facts, policy);
    let markers = list(dir);
    let is_running = |k: usize| markers.iter().any(|(m, l)| m.unit == k && *l == Liveness::Running);
    let running: Vec<usize> = markers
        .iter()
        .filter(|(_, l)| *l == Liveness::Running)
        .map(|(m, _)| m.unit)
        .collect();
    let stale: Vec<usize> = markers
        .iter()
        .filter(|(_, l)| *l == Liveness::Stale)
        .map(|(m, _)| m.unit)
        .collect();
    let pending: Vec<usize> = needed.iter().map(|&(k, _)| k).filter(|&k| !is_running(k)).collect();
    let answered = facts.iter().filter(|f| f.is_some()).count();
    let needed_set: std::collections::BTreeSet<usize> = needed.iter().map(|&(k, _)| k).collect();
    let skipped = (0..plan.units)
        .filter(|&k| facts[k].is_none() && !needed_set.contains(&k) && !is_running(k))
        .count();
    let estimate_of = |k: usize| {
        plan.unit_board(k)
            .map(|b| estimate::of_board(plan.game, &b))
            .unwrap_or_default()
    };
    let now = now_secs();
    let remaining_seconds = needed
        .iter()
        .map(|&(k, _)| {
            let est = estimate_of(k).seconds;
            match markers.iter().find(|(m, l)| m.unit == k && *l == Liveness::Running) {
                Some((m, _)) => (est - now.saturating_sub(m.started) as f64).max(0.0),
                None => est,
            }
        })
        .sum();
    let largest_unit = plan
        .work
        .iter()
        .enumerate()
        .max_by_key(|(k, w)| (w.cells, w.moves, std::cmp::Reverse(*k)))
        .map(|(k, w)| UnitLine {
            unit: k,
            cells: w.cells,
            moves: w.moves,
            estimate: estimate_of(k),
        });
    let cpu = |a: &UnitAnswer| a.cpu_seconds_total;
    let most_cpu = answers
        .iter()
        .flatten()
        .max_by(|a, b| cpu(a).total_cmp(&cpu(b)))
        .map(|a| (a.unit, cpu(a)));
    let read_note = |name: &str| {
        crate::files::read_bounded(&dir.join(name), 64 << 10, "a note")
            .ok()
            .map(|b| String::from_utf8_lossy(&b).trim().to_string())
    };
    Ok(Status {
        game: plan.game.name().into(),
        board: plan.board.clone(),
        question: plan.question.name().into(),
        depth: plan.depth,
        units: plan.units,
        settled: plan.root_fact(&facts).map(|f| match (f, plan.question) {
            (Fact::Value(v), _) => format!("grundy {v}"),
            (f, Question::Outcome) => if f.is_zero() { "P" } else { "N" }.into(),
            (f, Question::Value) => super::verify::describe(f),
        }),
        result: read_note("result.json"),
        failed: read_note("failed"),
        lock: read_note("hunt.lock"),
        rounds: rounds
            .iter()
            .map(|r| RoundLine {
                round: r.round,
                recorded: r.recorded,
                ahead: r.ahead,
                bluff: r.bluff.name(),
                asked: r.asked.len(),
                open: r.unanswered(plan, &facts).len(),
            })
            .collect(),
        answered,
        running,
        stale,
        pending,
        skipped,
        needed: needed
            .iter()
            .take(LIST_AT_MOST)
            .map(|&(k, a)| serde_json::json!({"unit": k, "asked": ask_to_json(a)}))
            .collect(),
        needed_count: needed.len(),
        cpu_seconds: answers.iter().flatten().map(cpu).sum::<f64>() + 0.0,
        answer_runs: answers.iter().flatten().map(|a| u64::from(a.runs)).sum(),
        most_cpu,
        largest_unit,
        remaining_seconds,
        estimate_note: estimate::NOTE,
        other_versions: answers
            .iter()
            .flatten()
            .filter(|a| a.by_other_version())
            .map(|a| (a.unit, a.solver.clone()))
            .collect(),
        refused,
    })
}
