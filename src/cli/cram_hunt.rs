//! `nimscope cram --status DIR [--json]` (a hunt's state from its folder: rounds, units,
//! questions, processor time, what is left) and `nimscope cram --verify DIR [--sample K]`
//! (answers asked again from scratch, every tag checked, the plan rebuilt from its board).
//! What they read: `solver::cram::plan::status` and `solver::cram::plan::verify`.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use nimscope_core::solver::Control;
use nimscope_core::solver::control::human_bytes;
use nimscope_core::solver::cram::plan::answer::{self, UnitAnswer};
use nimscope_core::solver::cram::plan::status::{self, Status};
use nimscope_core::solver::cram::plan::{Plan, estimate, verify};

/// The options of `cram` that look at a hunt.
#[derive(Debug, Clone, Args)]
pub struct HuntArgs {
    /// The state of the hunt of the plan in DIR: rounds, units answered, running, pending and
    /// skipped, the questions asked now, processor time so far, the largest unit, an estimate
    /// of what is left.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["moves", "board", "push", "outcome", "checkpoint", "combine", "unit", "plan", "needed", "verify"])]
    pub status: Option<PathBuf>,
    /// Check the hunt of the plan in DIR: the plan against its board, every answer's tag, and
    /// the answers themselves, asked again from scratch (all, or --sample K of them); exit
    /// status 2 when anything disagrees.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["moves", "board", "push", "outcome", "checkpoint", "combine", "unit", "plan", "needed"])]
    pub verify: Option<PathBuf>,
    /// With --verify: ask K answered units chosen at random (by --seed) instead of all.
    #[arg(long, value_name = "K", requires = "verify")]
    pub sample: Option<usize>,
    /// With --sample: the seed of the choice (default: one from the plan's id, so the same
    /// command asks the same units; printed, so a check can be repeated).
    #[arg(long, value_name = "S", requires = "sample")]
    pub seed: Option<u64>,
}

/// Runs `--status` or `--verify`; `None` when neither was given.
pub fn run(
    args: &HuntArgs,
    json: bool,
    control: &Control,
    out: &mut impl std::io::Write,
) -> Option<anyhow::Result<()>> {
    if let Some(dir) = &args.status {
        return Some(print_status(dir, json, out));
    }
    args.verify
        .as_ref()
        .map(|dir| run_verify(dir, args.sample, args.seed, json, control, out))
}

fn print_status(dir: &Path, json: bool, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let plan = Plan::load(dir)?;
    let s = status::read(dir, &plan)?;
    if json {
        writeln!(out, "{}", serde_json::to_string(&s)?)?;
        return Ok(());
    }
    write_status(&s, dir, out)
}

/// Units as a short list: `3, 7, 9` or `3, 7, 9, … (40 in all)`.
fn short_list(units: &[usize]) -> String {
    let mut list: Vec<String> = units.iter().take(12).map(usize::to_string).collect();
    if units.len() > 12 {
        list.push(format!("… ({} in all)", units.len()));
    }
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

fn write_status(s: &Status, dir: &Path, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "hunt {}: {} {} by {}, depth {}: {} units",
        dir.display(),
        s.game,
        s.board,
        s.question,
        s.depth,
        s.units
    )?;
    match (&s.settled, &s.failed) {
        (Some(root), _) => writeln!(
            out,
            "settled: {root}{}",
            if s.result.is_some() {
                " (result.json written)"
            } else {
                ""
            }
        )?,
        (None, Some(failed)) => writeln!(out, "stopped: failed: {}", failed.replace('\n', " / "))?,
        (None, None) => writeln!(out, "not settled")?,
    }
    let rounds: Vec<String> = s
        .rounds
        .iter()
        .map(|r| {
            let open = if r.open > 0 {
                format!(", {} open", r.open)
            } else {
                String::new()
            };
            format!("round {}: {} asked{open}", r.round, r.asked)
        })
        .collect();
    writeln!(
        out,
        "rounds: {}{}",
        s.rounds.len(),
        if rounds.is_empty() {
            String::new()
        } else {
            format!(" ({})", rounds.join("; "))
        }
    )?;
    writeln!(
        out,
        "units: {} answered, {} running ({}), {} pending ({}), {} skipped",
        s.answered,
        s.running.len(),
        short_list(&s.running),
        s.pending.len(),
        short_list(&s.pending),
        s.skipped
    )?;
    if !s.stale.is_empty() {
        writeln!(
            out,
            "stale: units {} say they run but their process is gone (killed); their round's combine step sees them unanswered",
            short_list(&s.stale)
        )?;
    }
    let needed: Vec<String> = s
        .needed
        .iter()
        .take(8)
        .map(|n| format!("unit {} asked {}", n["unit"], n["asked"]))
        .collect();
    if s.needed_count > 0 {
        let more = if s.needed_count > needed.len() {
            format!(", … ({} in all)", s.needed_count)
        } else {
            String::new()
        };
        writeln!(out, "needed now: {}{more}", needed.join(", "))?;
    }
    writeln!(
        out,
        "processor time in the answers: {} over {} runs{}",
        estimate::human_seconds(s.cpu_seconds),
        s.answer_runs,
        s.most_cpu
            .map(|(k, t)| format!("; most: unit {k}, {}", estimate::human_seconds(t)))
            .unwrap_or_default()
    )?;
    if let Some(l) = &s.largest_unit {
        writeln!(
            out,
            "largest unit: {} ({} empty cells, {} moves), estimated {:.2e} positions, a table of {}, {} on one thread",
            l.unit,
            l.cells,
            l.moves,
            l.estimate.positions,
            human_bytes(l.estimate.table_bytes as u64),
            estimate::human_seconds(l.estimate.seconds)
        )?;
    }
    if s.settled.is_none() {
        writeln!(
            out,
            "left: the {} units needed now, about {} of processor time (an estimate from their sizes; later rounds not counted)",
            s.needed_count,
            estimate::human_seconds(s.remaining_seconds)
        )?;
    }
    if !s.other_versions.is_empty() {
        let list: Vec<String> = s
            .other_versions
            .iter()
            .map(|(k, v)| format!("unit {k} ({v})"))
            .collect();
        writeln!(out, "answers by another nimscope: {}", list.join(", "))?;
    }
    for r in &s.refused {
        writeln!(out, "refused: {r}")?;
    }
    if let Some(lock) = &s.lock {
        writeln!(out, "submitted: {}", lock.replace('\n', " "))?;
    }
    Ok(())
}

fn run_verify(
    dir: &Path,
    sample: Option<usize>,
    seed: Option<u64>,
    json: bool,
    control: &Control,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let plan = Plan::load_bound(dir)?;
    let mut refused = Vec::new();
    let mut answers: Vec<UnitAnswer> = Vec::new();
    for a in answer::read_each(dir, &plan) {
        match a {
            Ok(Some(a)) => answers.push(a),
            Ok(None) => {}
            Err(e) => refused.push(e.to_string()),
        }
    }
    let answered: Vec<usize> = answers.iter().map(|a| a.unit).collect();
    let seed = seed.unwrap_or_else(|| verify::plan_seed(&plan));
    let chosen = match sample {
        Some(k) => verify::sample(&answered, k, seed),
        None => answered.clone(),
    };
    let table = nimscope_core::solver::budget::search_table(control.memory_budget());
    let mut verdicts = Vec::new();
    for &k in &chosen {
        let Some(a) = answers.iter().find(|a| a.unit == k) else {
            continue;
        };
        let v = verify::reask(&plan, k, a.fact(), table, control)?;
        if !json {
            // The time on stderr: what a search took differs from run to run, the verdicts do not.
            eprintln!("unit {k}: asked again in {:.1} s", v.seconds);
            writeln!(
                out,
                "unit {k}: recorded {}, asked again: {}: {}{}",
                v.recorded,
                v.again,
                if v.agrees { "agrees" } else { "DISAGREES" },
                if a.by_other_version() {
                    format!(" [written by {}]", a.solver)
                } else {
                    String::new()
                }
            )?;
            out.flush()?;
        }
        verdicts.push(v);
    }
    let disagree: Vec<usize> = verdicts.iter().filter(|v| !v.agrees).map(|v| v.unit).collect();
    let others: Vec<(usize, String)> = answers
        .iter()
        .filter(|a| a.by_other_version())
        .map(|a| (a.unit, a.solver.clone()))
        .collect();
    let mut facts = vec![None; plan.units];
    for a in &answers {
        facts[a.unit] = Some(a.fact());
    }
    let report = Report {
        plan: &plan,
        answered: answered.len(),
        verdicts: &verdicts,
        sample: sample.map(|k| (k, seed)),
        disagree: &disagree,
        refused: &refused,
        others: &others,
        root: plan.root_fact(&facts).map(verify::describe),
    };
    report.print(dir, json, out)?;
    if !disagree.is_empty() || !refused.is_empty() {
        anyhow::bail!(
            "verify {}: {} answers disagree with a search from scratch, {} files refused",
            dir.display(),
            disagree.len(),
            refused.len()
        );
    }
    Ok(())
}

/// What `--verify` found.
struct Report<'a> {
    plan: &'a Plan,
    answered: usize,
    verdicts: &'a [verify::Verdict],
    /// The sample's size and seed.
    sample: Option<(usize, u64)>,
    disagree: &'a [usize],
    refused: &'a [String],
    others: &'a [(usize, String)],
    root: Option<String>,
}

impl Report<'_> {
    fn print(&self, dir: &Path, json: bool, out: &mut impl std::io::Write) -> anyhow::Result<()> {
        if json {
            let obj = json!({
                "plan": dir.display().to_string(),
                "board": self.plan.board,
                "bound_to_board": true,
                "answered": self.answered,
                "checked": self.verdicts,
                "sample_seed": self.sample.map(|(_, seed)| seed),
                "disagree": self.disagree,
                "refused": self.refused,
                "other_versions": self.others,
                "root": self.root,
            });
            writeln!(out, "{obj}")?;
            return Ok(());
        }
        writeln!(
            out,
            "plan {}: its tree is the plan of its board {}; {} of {} units answered, every tag checked{}",
            dir.display(),
            self.plan.board,
            self.answered,
            self.plan.units,
            if self.refused.is_empty() {
                String::new()
            } else {
                format!(", {} files refused", self.refused.len())
            }
        )?;
        for r in self.refused {
            writeln!(out, "refused: {r}")?;
        }
        writeln!(
            out,
            "asked again from scratch: {} units{}: {}",
            self.verdicts.len(),
            self.sample
                .map(|(k, seed)| format!(" (a sample of {k}, --seed {seed})"))
                .unwrap_or_default(),
            if self.disagree.is_empty() {
                "every answer agrees".to_string()
            } else {
                format!(
                    "units {} DISAGREE",
                    self.disagree
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        )?;
        if !self.others.is_empty() {
            let list: Vec<String> = self.others.iter().map(|(k, v)| format!("unit {k} ({v})")).collect();
            writeln!(out, "answers by another nimscope than this one: {}", list.join(", "))?;
        }
        if let Some(root) = &self.root {
            writeln!(out, "the answers settle the root: {root}")?;
        }
        Ok(())
    }
}
