//! `nimscope cram --unit DIR K [--round R | --ask VALUES] [--checkpoint FILE]`: one unit of a
//! plan, as a scheduler runs it.
//!
//! In order: the plan is loaded (its seal checked against its key), the unit's question is
//! decided (what the plan needs of it now, what round R asked it, or `--ask`), the folders it
//! writes are checked writable (a unit that cannot write its answer says so before it
//! searches, not hours later), a marker says it runs (`running/unit-K.json`, for `--status`),
//! the checkpoint and the other units' proven values are loaded, and the search runs. Every
//! `--recheck-every` seconds a watcher refreshes the marker and reads the other units'
//! answers: once they make this unit unnecessary (another option settled the question, the
//! bluff flag is known), the search stops, its checkpoint is saved, and the unit says it
//! stopped. A finished search writes the unit's proven values, then its answer, signed with
//! the plan's key.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use super::checkpoint;
use super::cram_args::{Common, PlanArgs};
use nimscope_core::files::{Accept, atomic::check_writable};
use nimscope_core::game::Position;
use nimscope_core::game::cram_game::CramGame;
use nimscope_core::solver::Control;
use nimscope_core::solver::cram::plan::answer::{self, Spent, UnitAnswer};
use nimscope_core::solver::cram::plan::questions::covers;
use nimscope_core::solver::cram::plan::rounds::{Round, ask_to_json};
use nimscope_core::solver::cram::plan::running::{self, Guard, Marker};
use nimscope_core::solver::cram::plan::{Ask, Fact, Plan, Policy, Question, merged, solve_unit, store};

/// What a unit does when it starts.
enum Decision {
    /// Search: the question, the round it belongs to.
    Ask(Ask, Option<u32>),
    /// Nothing to search: its answer on file answers what it is asked.
    Answered(Box<UnitAnswer>),
    /// Nothing to search, nothing on file: why.
    Skipped(String),
}

/// Runs `--unit DIR K`.
pub fn run(
    unit: &[String],
    args: &PlanArgs,
    policy: Policy,
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
    // `--ask` answers from its own search: an answer on file it cannot use is replaced.
    let before = match answer::read(dir, &plan, k) {
        Err(e) if args.ask.is_some() => {
            eprintln!("warning: {e}; this search's answer replaces it");
            None
        }
        read => read?,
    };
    let facts = others_facts(dir, &plan, k, before.as_ref());
    let fresh = args.ask.is_some();
    let (policy, decision) = decide(dir, &plan, k, args, policy, &facts, before.as_ref())?;
    let (ask, round) = match decision {
        Decision::Ask(ask, round) => (ask, round),
        Decision::Answered(a) => return print_answer(out, &a, "already answered", common.json),
        Decision::Skipped(why) => {
            if common.json {
                writeln!(out, "{}", json!({"unit": k, "skipped": true, "why": why}))?;
            } else {
                writeln!(out, "unit {k}: skipped, {why}")?;
            }
            return Ok(());
        }
    };
    check_folders(dir, k, args.no_proven)?;
    // Each look lists the answers and reads those that changed: every 30 s, and less often in
    // plans of thousands of units (many units looking at one shared folder).
    let every = Duration::from_secs(args.recheck_every.unwrap_or(30.max(plan.units as u64 / 5)));
    let marker = Guard::start(
        dir,
        &Marker {
            unit: k,
            round,
            asked: ask_to_json(ask),
            host: running::host_name(),
            pid: std::process::id(),
            job: slurm_job(),
            started: running::now_secs(),
            refresh: every.as_secs(),
        },
    )?;
    let unit_control = control.child();
    let watch = Watch::spawn(dir, &plan, k, (!fresh).then_some(policy), every, &unit_control)?;
    let searched = search(dir, &plan, k, ask, args.no_proven, common, &unit_control);
    let stopped = watch.stop();
    drop(marker);
    let (fact, spent) = match searched {
        Ok(done) => done,
        Err(_) if stopped => {
            let why = "the other units' answers made it unnecessary; its checkpoint is saved";
            if common.json {
                writeln!(out, "{}", json!({"unit": k, "stopped": true, "why": why}))?;
            } else {
                writeln!(out, "unit {k}: stopped, {why}")?;
            }
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let old = before.as_ref().map(UnitAnswer::fact);
    let stored = match old {
        Some(o) if !o.consistent_with(fact) => {
            eprintln!(
                "warning: unit {k}: its answer on file ({}) contradicts this search ({}): replaced by this search's",
                describe(o),
                describe(fact)
            );
            fact
        }
        _ => merged(old, fact),
    };
    let a = UnitAnswer::new(&plan, k, stored, (ask, round), spent, before.as_ref())?;
    answer::write(dir, &a)?;
    if fresh {
        // What this search found, whatever the file held before.
        let own = UnitAnswer::new(&plan, k, fact, (ask, round), spent, None)?;
        return print_answer(out, &own, "answered from its own search", common.json);
    }
    print_answer(out, &a, "answered", common.json)
}

/// The other units' answers as facts (a bad file only counts as missing here, with a warning;
/// `--combine` refuses it), and this unit's own.
fn others_facts(dir: &Path, plan: &Plan, k: usize, own: Option<&UnitAnswer>) -> Vec<Option<Fact>> {
    answer::read_each(dir, plan)
        .into_iter()
        .enumerate()
        .map(|(u, a)| match a {
            _ if u == k => own.map(UnitAnswer::fact),
            Ok(a) => a.map(|a| a.fact()),
            Err(e) => {
                eprintln!("warning: {e}");
                None
            }
        })
        .collect()
}

/// The unit's question, and the policy that decides whether it is still needed.
fn decide(
    dir: &Path,
    plan: &Plan,
    k: usize,
    args: &PlanArgs,
    policy: Policy,
    facts: &[Option<Fact>],
    before: Option<&UnitAnswer>,
) -> anyhow::Result<(Policy, Decision)> {
    if let Some(values) = &args.ask {
        return Ok((policy, Decision::Ask(ask_of(values, plan.question)?, None)));
    }
    let answered = |why: String| match before {
        Some(a) => Decision::Answered(Box::new(a.clone())),
        None => Decision::Skipped(why),
    };
    let Some(r) = args.round else {
        let needed = plan.needed(facts, policy).into_iter().find(|&(u, _)| u == k);
        return Ok((
            policy,
            match needed {
                Some((_, ask)) => Decision::Ask(ask, None),
                None => answered("the answers so far imply what the plan needs of it".into()),
            },
        ));
    };
    let round = Round::load(dir, plan, r)?;
    let policy = round.policy();
    let Some(asked) = round.ask_of(k) else {
        return Ok((policy, answered(format!("round {r} did not ask it"))));
    };
    if let Some(a) = before
        && covers(a.fact(), asked)
    {
        return Ok((policy, Decision::Answered(Box::new(a.clone()))));
    }
    // A unit the root still needs for anything answers its round's question whole: a value the
    // root no longer needs (another option has it) may still settle the bluff flag, and a
    // question cut short would cost a round.
    if !plan.needed(facts, policy).iter().any(|&(u, _)| u == k) {
        return Ok((
            policy,
            answered(format!(
                "the answers since round {r} was asked imply what the plan needs of it"
            )),
        ));
    }
    // Values it already excludes need no search.
    let known = match before.map(UnitAnswer::fact) {
        Some(Fact::Excluded(not)) if asked != u128::MAX => not,
        _ => 0,
    };
    Ok((policy, Decision::Ask(asked & !known, Some(r))))
}

/// Checks that the unit can write its answer, its marker and its proven values, before it
/// searches.
fn check_folders(dir: &Path, k: usize, no_proven: bool) -> anyhow::Result<()> {
    let mut files = vec![answer::answer_path(dir, k), running::marker_path(dir, k)];
    if !no_proven {
        files.push(store::proven_path(dir, k));
    }
    for file in files {
        let folder = file.parent().unwrap_or(dir);
        std::fs::create_dir_all(folder)
            .and_then(|()| check_writable(&file, Accept::FileOnly))
            .map_err(|e| {
                anyhow::anyhow!(
                    "unit {k}: cannot write {}: {e}; nothing was searched (make the plan's folder writable to the units)",
                    file.display()
                )
            })?;
    }
    Ok(())
}

/// The search of unit `k`: its checkpoint, the others' proven values, the question; then its
/// own proven values. Returns the answer and what the run spent.
fn search(
    dir: &Path,
    plan: &Plan,
    k: usize,
    ask: Ask,
    no_proven: bool,
    common: &Common,
    control: &Control,
) -> anyhow::Result<(Fact, Spent)> {
    let board = plan.unit_board(k)?;
    let push = plan.game == CramGame::PushCram;
    let mut eval = nimscope_core::query::cram::record_hunt_evaluator(control);
    let cpu_before = processor_seconds();
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
            store::import(dir, plan, k, cram, push_cram, control)?
        };
        for w in &got.warnings {
            eprintln!("warning: {w}");
        }
        let fact = solve_unit(plan, k, ask, cram, push_cram, control)?;
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
        store::export(dir, plan, k, &imported, cram, push_cram, control)?;
    }
    Ok((
        fact,
        Spent {
            seconds,
            cpu_seconds: (processor_seconds() - cpu_before).max(0.0),
            expanded,
            proven_loaded: imported.entries,
        },
    ))
}

/// Processor seconds (user and system) of this process so far.
fn processor_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrusage writes the struct it is given; a zeroed rusage is a valid value.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_SELF, &mut usage);
            usage
        };
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        secs(usage.ru_utime) + secs(usage.ru_stime)
    }
    #[cfg(not(target_os = "linux"))]
    {
        0.0
    }
}

/// The Slurm job running this unit, if any: `ARRAYJOB_TASK` or the job id.
fn slurm_job() -> Option<String> {
    let var = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
    match (var("SLURM_ARRAY_JOB_ID"), var("SLURM_ARRAY_TASK_ID")) {
        (Some(job), Some(task)) => Some(format!("{job}_{task}")),
        _ => var("SLURM_JOB_ID"),
    }
}

/// The watcher of a searching unit: refreshes its marker and, unless the unit was asked
/// with `--ask`, stops the search once the other units' answers make it unnecessary.
struct Watch {
    done: Arc<AtomicBool>,
    stopped: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    fn spawn(
        dir: &Path,
        plan: &Plan,
        k: usize,
        policy: Option<Policy>,
        every: Duration,
        control: &Control,
    ) -> anyhow::Result<Watch> {
        let done = Arc::new(AtomicBool::new(false));
        let stopped = Arc::new(AtomicBool::new(false));
        let (dir, plan, control) = (dir.to_path_buf(), plan.clone(), control.clone());
        let (done2, stopped2) = (done.clone(), stopped.clone());
        let thread = std::thread::Builder::new().name("unit-watch".into()).spawn(move || {
            let mut last = Instant::now();
            let mut seen = answer::Seen::new(plan.units);
            while !done2.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if last.elapsed() < every {
                    continue;
                }
                last = Instant::now();
                running::refresh(&dir, k);
                let Some(policy) = policy else { continue };
                let facts = seen.refresh(&dir, &plan);
                if !plan.needed(facts, policy).iter().any(|&(u, _)| u == k) {
                    stopped2.store(true, Ordering::Relaxed);
                    control.cancel();
                    return;
                }
            }
        })?;
        Ok(Watch {
            done,
            stopped,
            thread: Some(thread),
        })
    }

    /// Ends the watcher; whether it stopped the search.
    fn stop(mut self) -> bool {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.stopped.load(Ordering::Relaxed)
    }
}

fn describe(fact: Fact) -> String {
    nimscope_core::solver::cram::plan::verify::describe(fact)
}

fn print_answer(out: &mut impl std::io::Write, a: &UnitAnswer, how: &str, json: bool) -> anyhow::Result<()> {
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
            "unit {} ({}): {how}: {value}outcome {} ({:.1} s, {:.1} s of processor time, {} expanded, {} proven values loaded)",
            a.unit, a.board, a.outcome, a.seconds, a.cpu_seconds, a.expanded, a.proven_loaded
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
