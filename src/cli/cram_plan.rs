//! `nimscope cram BOARD --plan DIR [--depth D]`, `nimscope cram --unit DIR K`,
//! `nimscope cram --needed DIR` and `nimscope cram --combine DIR`: a Cram or Push Cram search
//! split into work units that any scheduler runs as separate processes (`scripts/slurm/` for
//! Slurm, GNU parallel without a cluster; `docs/cluster.md`). A unit's run is in
//! [`super::cram_unit`], `--status` and `--verify` in [`super::cram_hunt`]. What a plan is and
//! why its combination is the single search's answer: `solver::cram::plan`.

use std::path::Path;

use serde_json::json;

use super::args::parse_ruleset;
use super::cram_args::{Common, PlanArgs};
use super::{cram_hunt, cram_unit, output};
use nimscope_core::game::cram_game::CramGame;
use nimscope_core::game::quote::quoted;
use nimscope_core::game::{Outcome, Position};
use nimscope_core::solver::cram::plan::rounds::{Round, ask_to_json};
use nimscope_core::solver::cram::plan::{DEFAULT_AHEAD, Fact, Plan, PlanNode, Policy, Question, answer, estimate};
use nimscope_core::solver::{Control, CramSummary};

/// Runs `--plan`, `--unit`, `--needed`, `--unanswered`, `--combine`, `--status` or
/// `--verify`; `None` when none was given.
pub fn run(
    args: &PlanArgs,
    common: &Common,
    control: &Control,
    out: &mut impl std::io::Write,
) -> Option<anyhow::Result<()>> {
    let policy =
        || Policy::new(args.ahead.unwrap_or(DEFAULT_AHEAD), args.bluff.unwrap_or_default()).map_err(anyhow::Error::msg);
    let rounds = args.unit.is_some() || args.needed.is_some();
    if args.round.is_some() && !rounds {
        return Some(Err(anyhow::anyhow!(
            "--round goes with --needed (to record a round) or --unit (to answer one)"
        )));
    }
    if (args.ahead.is_some() || args.bluff.is_some()) && !rounds {
        return Some(Err(anyhow::anyhow!("--ahead and --bluff go with --needed or --unit")));
    }
    if let Some(dir) = &args.plan {
        return Some(make_plan(dir, args.depth.unwrap_or(1), common, out));
    }
    if let Some(unit) = &args.unit {
        return Some(policy().and_then(|policy| cram_unit::run(unit, args, policy, common, control, out)));
    }
    if let Some(dir) = &args.needed {
        return Some(policy().and_then(|policy| print_needed(dir, args.round, policy, common.json, out)));
    }
    if let Some(dir_round) = &args.unanswered {
        return Some(print_unanswered(dir_round, out));
    }
    if let Some(result) = cram_hunt::run(&args.hunt, common.json, control, out) {
        return Some(result);
    }
    args.combine.as_ref().map(|dir| combine(dir, common.json, out))
}

fn make_plan(dir: &Path, depth: u32, common: &Common, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let text = common
        .board
        .ok_or_else(|| anyhow::anyhow!("--plan: give the BOARD to plan"))?;
    let game = if common.push {
        CramGame::PushCram
    } else {
        CramGame::Cram
    };
    let question = if common.outcome {
        Question::Outcome
    } else {
        Question::Value
    };
    let r = parse_ruleset(game.name())?;
    let Position::Board(board) = r
        .parse_position(text)
        .map_err(|e| anyhow::anyhow!("board {}: {e}", quoted(text)))?
    else {
        anyhow::bail!("board {}: a plan starts before the push", quoted(text))
    };
    let mut plan = Plan::new(game, &board, question, depth)?;
    plan.save(dir)?;
    let cells: Vec<u32> = plan.work.iter().map(|w| w.cells).collect();
    let moves: u64 = plan.work.iter().map(|w| w.moves as u64).sum();
    let inner = plan
        .nodes
        .iter()
        .filter(|n| matches!(n, PlanNode::Options { .. }))
        .count();
    let estimates: Vec<estimate::Estimate> = (0..plan.units)
        .map(|k| plan.unit_board(k).map(|b| estimate::of_board(game, &b)))
        .collect::<Result<_, _>>()?;
    let largest = estimates
        .iter()
        .copied()
        .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
        .unwrap_or_default();
    if common.json {
        let units: Vec<serde_json::Value> = plan
            .work
            .iter()
            .zip(&estimates)
            .enumerate()
            .map(|(k, (w, e))| json!({"unit": k, "cells": w.cells, "moves": w.moves, "estimate": e}))
            .collect();
        let obj = json!({
            "plan": dir.display().to_string(),
            "id": plan.id,
            "ruleset": r.to_string(),
            "board": plan.board,
            "question": question.name(),
            "depth": depth,
            "units": plan.units,
            "inner_positions": inner,
            "unit_cells_max": cells.iter().max(),
            "unit_cells_min": cells.iter().min(),
            "unit_moves_total": moves,
            "estimate_note": estimate::NOTE,
            "unit_estimate_max": largest,
            "unit_seconds_total_estimate": estimates.iter().map(|e| e.seconds).sum::<f64>(),
            "work": units,
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(
            out,
            "plan {}: {} on {} by {}, depth {depth}: {} units (numbered from 0) below {inner} inner positions; units of {}..{} empty cells",
            dir.display(),
            r,
            plan.board,
            question.name(),
            plan.units,
            cells.iter().min().unwrap_or(&0),
            cells.iter().max().unwrap_or(&0),
        )?;
        writeln!(
            out,
            "largest unit, estimated (a fit on boards this machine finishes, not a measurement): {:.2e} positions, a table of {}, {} on one thread: --memory-budget {}",
            largest.positions,
            nimscope_core::solver::control::human_bytes(largest.table_bytes as u64),
            estimate::human_seconds(largest.seconds),
            nimscope_core::solver::control::human_bytes(largest.memory_budget),
        )?;
        writeln!(
            out,
            "run: nimscope cram --unit {d} K  for each K that `nimscope cram --needed {d}` lists, and again until it lists none; then: nimscope cram --combine {d}",
            d = dir.display(),
        )?;
    }
    Ok(())
}

/// Units listed in a message, at most this many.
const LIST_AT_MOST: usize = 20;

fn combine(dir: &Path, json: bool, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let plan = Plan::load_bound(dir)?;
    let read = answer::read_all(dir, &plan)?;
    let others: Vec<String> = read
        .iter()
        .flatten()
        .filter(|a| a.by_other_version())
        .map(|a| format!("unit {} ({})", a.unit, a.solver))
        .collect();
    if !others.is_empty() {
        eprintln!(
            "warning: answers written by another nimscope than this one ({}): {}",
            answer::this_solver(),
            others.join(", ")
        );
    }
    let answers = answer::facts(&read);
    let Some(root) = plan.root_fact(&answers) else {
        let needed: Vec<usize> = plan
            .needed(&answers, Policy::default())
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        let answered = answers.iter().filter(|a| a.is_some()).count();
        let mut list: Vec<String> = needed.iter().take(LIST_AT_MOST).map(|k| k.to_string()).collect();
        if needed.len() > LIST_AT_MOST {
            list.push("…".into());
        }
        anyhow::bail!(
            "plan {}: {} of {} units answered; the root still needs units {} (`nimscope cram --needed` lists them)",
            dir.display(),
            answered,
            plan.units,
            list.join(", ")
        )
    };
    let r = parse_ruleset(plan.game.name())?;
    let p = r.parse_position(&plan.board).map_err(|e| {
        anyhow::anyhow!(
            "plan {}: board {}: {e}",
            quoted(&dir.display().to_string()),
            quoted(&plan.board)
        )
    })?;
    match root {
        Fact::IsZero(zero) => {
            let outcome = if zero { Outcome::P } else { Outcome::N };
            output::cram_outcome(out, &r, &p, outcome, json)?
        }
        // root_fact settles the root's value or outcome.
        Fact::Excluded(_) => anyhow::bail!("plan {}: the root is not settled", dir.display()),
        Fact::Value(g) => {
            let mut opts = Vec::new();
            r.options(&p, &mut opts);
            let after_push = match (&p, plan.game) {
                (Position::Board(b), CramGame::PushCram) => Some(nimscope_core::solver::cram::push::post_push_value(b)),
                _ => None,
            };
            let summary = CramSummary {
                moves: opts.len(),
                bluff: plan.root_bluff(&answers).unwrap_or(false),
                after_push,
            };
            output::cram(out, &r, &p, g, &summary, None, plan.game == CramGame::PushCram, json)?;
        }
    }
    Ok(())
}

/// `--needed DIR [--round R]`: the units the root still needs, for the next round of a
/// scheduler (recorded as round R when given).
fn print_needed(
    dir: &Path,
    round: Option<u32>,
    policy: Policy,
    json: bool,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let plan = Plan::load(dir)?;
    let answers = answer::facts(&answer::read_all(dir, &plan)?);
    let needed = plan.needed(&answers, policy);
    if let Some(r) = round
        && !needed.is_empty()
    {
        Round::new(&plan, r, policy, &needed).save(dir)?;
    }
    if json {
        let units: Vec<serde_json::Value> = needed
            .iter()
            .map(|&(k, question)| json!({"unit": k, "asked": ask_to_json(question)}))
            .collect();
        let mut obj = json!({"plan": dir.display().to_string(), "ahead": policy.ahead, "bluff": policy.bluff.name(), "needed": units});
        if let Some(r) = round {
            obj["round"] = r.into();
        }
        writeln!(out, "{obj}")?;
    } else {
        let list: Vec<String> = needed.iter().map(|(k, _)| k.to_string()).collect();
        writeln!(out, "{}", list.join(","))?;
    }
    Ok(())
}

/// `--unanswered DIR R`: the units round R asked that did not answer and are still needed.
fn print_unanswered(dir_round: &[String], out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let [dir, r] = dir_round else {
        anyhow::bail!("--unanswered: give the plan's folder and a round number, e.g. --unanswered plan 0")
    };
    let dir = Path::new(dir);
    let r: u32 = r
        .parse()
        .map_err(|_| anyhow::anyhow!("--unanswered {}: a round number", quoted(r)))?;
    let plan = Plan::load(dir)?;
    let round = Round::load(dir, &plan, r)?;
    let answers = answer::facts(&answer::read_all(dir, &plan)?);
    let list: Vec<String> = round.unanswered(&plan, &answers).iter().map(usize::to_string).collect();
    writeln!(out, "{}", list.join(","))?;
    Ok(())
}
