//! `nimscope cram BOARD --plan DIR [--depth D]`, `nimscope cram --unit DIR K` and
//! `nimscope cram --combine DIR`: a Cram or Push Cram search split into work units that any
//! scheduler runs as separate processes (`scripts/slurm/` for Slurm, GNU parallel without a
//! cluster; `docs/cluster.md`). What a plan is and why its combination is the single
//! search's answer: `solver::cram::plan`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use super::args::parse_ruleset;
use super::{checkpoint, output};
use nimscope_core::game::cram_game::CramGame;
use nimscope_core::game::quote::quoted;
use nimscope_core::game::{Outcome, Position};
use nimscope_core::solver::cram::plan::{Ask, Fact, Plan, PlanNode, Question, answer, ask, merged, solve_unit, store};
use nimscope_core::solver::{Control, CramSummary, Evaluator};

/// The evaluator of a board's search, whole or a work unit: the searches may be long (record
/// hunts), so their tables may fill a search's share of the budget (they start small and grow
/// as they fill).
pub(super) fn record_hunt_evaluator(control: &Control) -> Evaluator {
    nimscope_core::query::cram::record_hunt_evaluator(control)
}

/// The options of `cram` that split a search into units.
#[derive(Debug, Clone, Args)]
pub struct PlanArgs {
    /// Write a plan of BOARD's search to DIR: the positions --depth plies below the root, each
    /// a unit that `--unit DIR K` answers (with --outcome: only P or N is asked).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["unit", "combine", "moves", "checkpoint"])]
    pub plan: Option<PathBuf>,
    /// Plies from the root to the plan's units (1 to 4).
    #[arg(long, value_name = "D", requires = "plan")]
    pub depth: Option<u32>,
    /// Answer what the plan in DIR asks unit K now (skipped when the answers so far do not
    /// need it), writing its answer and its proven values into DIR; resumes from --checkpoint.
    #[arg(long, num_args = 2, value_names = ["DIR", "K"], conflicts_with_all = ["combine", "moves", "board", "push", "outcome"])]
    pub unit: Option<Vec<String>>,
    /// With --unit: neither load the other units' proven values nor write this one's (to
    /// measure what sharing them saves).
    #[arg(long, requires = "unit")]
    pub no_proven: bool,
    /// With --unit, in a value plan: ask the unit whether its value is one of these (e.g.
    /// 0,1) instead of what the plan needs, even if it is answered (to check an answer again
    /// from scratch, in a copy of the plan).
    #[arg(long, value_name = "VALUES", requires = "unit", value_delimiter = ',')]
    pub ask: Option<Vec<u32>>,
    /// The root's value (or outcome) from the answers of the plan in DIR, as `cram BOARD`
    /// prints it; which units are missing otherwise.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["moves", "board", "push", "outcome", "checkpoint"])]
    pub combine: Option<PathBuf>,
    /// The units the root of the plan in DIR still needs, comma-separated (a value plan asks
    /// in rounds: run these, then ask again), nothing when it is settled; with --json, each
    /// with its question.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["moves", "board", "push", "outcome", "checkpoint", "combine", "unit", "plan"])]
    pub needed: Option<PathBuf>,
}

/// The rest of `cram`'s options that a plan's modes read.
pub struct Common<'a> {
    pub board: Option<&'a str>,
    pub push: bool,
    pub outcome: bool,
    pub json: bool,
    pub checkpoint: Option<&'a Path>,
    pub checkpoint_every: u64,
}

/// Runs `--plan`, `--unit` or `--combine`; `None` when none was given.
pub fn run(
    args: &PlanArgs,
    common: &Common,
    control: &Control,
    out: &mut impl std::io::Write,
) -> Option<anyhow::Result<()>> {
    if let Some(dir) = &args.plan {
        return Some(make_plan(dir, args.depth.unwrap_or(1), common, out));
    }
    if let Some(unit) = &args.unit {
        return Some(run_unit(
            unit,
            args.no_proven,
            args.ask.as_deref(),
            common,
            control,
            out,
        ));
    }
    if let Some(dir) = &args.needed {
        return Some(print_needed(dir, common.json, out));
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
    let plan = Plan::new(game, &board, question, depth)?;
    plan.save(dir)?;
    let cells: Vec<u32> = plan.work.iter().map(|w| w.cells).collect();
    let moves: u64 = plan.work.iter().map(|w| w.moves as u64).sum();
    let inner = plan
        .nodes
        .iter()
        .filter(|n| matches!(n, PlanNode::Options { .. }))
        .count();
    if common.json {
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
            "run: nimscope cram --unit {d} K  for each K that `nimscope cram --needed {d}` lists, and again until it lists none; then: nimscope cram --combine {d}",
            d = dir.display(),
        )?;
    }
    Ok(())
}

fn run_unit(
    unit: &[String],
    no_proven: bool,
    asked: Option<&[u32]>,
    common: &Common,
    control: &Control,
    out: &mut impl std::io::Write,
) -> anyhow::Result<()> {
    let [dir, k] = unit else {
        anyhow::bail!("--unit: give the plan's folder and a unit number, e.g. --unit plan 3")
    };
    let dir = Path::new(dir);
    let plan = Plan::load(dir)?;
    let k: usize = k.parse().ok().filter(|&k| k < plan.units).ok_or_else(|| {
        anyhow::anyhow!(
            "--unit {k}: the plan in {} has units 0 to {}",
            dir.display(),
            plan.units.saturating_sub(1)
        )
    })?;
    let before = answer::read(dir, &plan, k)?;
    // Another unit's bad answer does not stop this one: it only counts as missing here, and
    // --combine refuses it.
    let answers: Vec<Option<Fact>> = (0..plan.units)
        .map(|u| match answer::read(dir, &plan, u) {
            Ok(a) => a.map(|a| a.fact()),
            Err(e) => {
                eprintln!("warning: {e}");
                None
            }
        })
        .collect();
    let asked = match asked {
        Some(values) => Some(ask_of(values, plan.question)?),
        None => None,
    };
    let needed = plan.needed(&answers).iter().find(|(u, _)| *u == k).map(|&(_, a)| a);
    let Some(ask) = asked.or(needed) else {
        if let Some(a) = before {
            return print_answer(out, &a, "already answered", common.json);
        }
        if common.json {
            writeln!(out, "{}", json!({"unit": k, "skipped": true}))?;
        } else {
            writeln!(
                out,
                "unit {k}: skipped, the answers so far imply what the plan needs of it"
            )?;
        }
        return Ok(());
    };
    let board = plan.unit_board(k)?;
    let push = plan.game == CramGame::PushCram;
    let mut eval = record_hunt_evaluator(control);
    let saving = match common.checkpoint {
        Some(path) => Some(checkpoint::start(
            path,
            push,
            &Position::Board(board),
            &mut eval,
            control,
            Duration::from_secs(common.checkpoint_every),
        )?),
        None => None,
    };
    let started = Instant::now();
    let (cram, push_cram) = eval.cram_solvers();
    let mut solve = || -> anyhow::Result<(Fact, store::Imported)> {
        let got = if no_proven {
            store::Imported::default()
        } else {
            store::import(dir, &plan, k, cram, push_cram, control)?
        };
        for w in &got.warnings {
            eprintln!("warning: {w}");
        }
        let fact = solve_unit(&plan, k, ask, cram, push_cram, control)?;
        Ok((fact, got))
    };
    let result = solve();
    let (fact, imported) = checkpoint::finish(saving, result)?;
    let seconds = started.elapsed().as_secs_f64();
    let (cram, push_cram) = eval.cram_solvers();
    let expanded = if push {
        push_cram.expanded()
    } else {
        cram.stats().expanded
    };
    // The proven values before the answer: a unit killed between the two runs again.
    if !no_proven {
        store::export(dir, &plan, k, &imported, cram, push_cram, control)?;
    }
    let fact = merged(before.as_ref().map(answer::UnitAnswer::fact), fact);
    let a = answer::UnitAnswer::new(&plan, k, fact, seconds, expanded, imported.entries);
    answer::write(dir, &a)?;
    print_answer(out, &a, "answered", common.json)
}

fn print_answer(out: &mut impl std::io::Write, a: &answer::UnitAnswer, how: &str, json: bool) -> anyhow::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(a)?)?;
    } else {
        let value = match (a.value, a.excluded.is_empty()) {
            (Some(v), _) => format!("grundy {v}, "),
            (None, false) => {
                let list: Vec<String> = a.excluded.iter().map(u32::to_string).collect();
                format!("grundy none of {}, ", list.join(", "))
            }
            (None, true) => String::new(),
        };
        writeln!(
            out,
            "unit {} ({}): {how}: {value}outcome {} ({:.1} s, {} expanded, {} proven values loaded)",
            a.unit, a.board, a.outcome, a.seconds, a.expanded, a.proven_loaded
        )?;
    }
    Ok(())
}

/// The question `--ask` names.
fn ask_of(values: &[u32], question: Question) -> anyhow::Result<Ask> {
    if question != Question::Value {
        anyhow::bail!("--ask: an outcome plan asks its units only whether they are P-positions");
    }
    let mut set: Ask = 0;
    for &v in values {
        if v >= 128 {
            anyhow::bail!("--ask {v}: values of 0 to 127 can be asked");
        }
        set |= 1 << v;
    }
    if set == 0 {
        anyhow::bail!("--ask: give the values to ask about, e.g. --ask 0,1");
    }
    Ok(set)
}

/// Units listed in a message, at most this many.
const LIST_AT_MOST: usize = 20;

fn combine(dir: &Path, json: bool, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let plan = Plan::load(dir)?;
    let answers = answer::facts(&answer::read_all(dir, &plan)?);
    let Some(root) = plan.root_fact(&answers) else {
        let needed: Vec<usize> = plan.needed(&answers).into_iter().map(|(k, _)| k).collect();
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

/// `--needed DIR`: the units the root still needs, for the next round of a scheduler.
fn print_needed(dir: &Path, json: bool, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let plan = Plan::load(dir)?;
    let answers = answer::facts(&answer::read_all(dir, &plan)?);
    let needed = plan.needed(&answers);
    if json {
        let units: Vec<serde_json::Value> = needed
            .iter()
            .map(|&(k, question)| {
                let asked: serde_json::Value = if question == ask::EXACT {
                    "value".into()
                } else {
                    (0..128u32)
                        .filter(|v| question >> v & 1 == 1)
                        .collect::<Vec<u32>>()
                        .into()
                };
                json!({"unit": k, "asked": asked})
            })
            .collect();
        writeln!(out, "{}", json!({"plan": dir.display().to_string(), "needed": units}))?;
    } else {
        let list: Vec<String> = needed.iter().map(|(k, _)| k.to_string()).collect();
        writeln!(out, "{}", list.join(","))?;
    }
    Ok(())
}
