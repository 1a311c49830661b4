//! Plans against the single search: every unit answered (in plan order, in reverse, with
//! and without the proven values of the others, asking one value a round or several) and
//! combined gives the value and outcome the solver finds for the whole board, for Cram and
//! Push Cram, at depths 1 and 2; rounds where every unit answers the round's question (a
//! cluster's wide round) settle in as few rounds as the policy promises; units interrupted at
//! random points and run again give the same answers. The refusals of damaged, edited,
//! forged, crafted and foreign files are in `evidence`.

mod evidence;

use super::answer::{self, UnitAnswer};
use super::{
    Ask, Bluff, Board, CramGame, Fact, MAX_AHEAD, Plan, PlanError, Policy, Question, ask, merged, rounds, solve_unit,
    store, verify,
};
use crate::solver::cram::checkpoint::Checkpoint;
use crate::solver::cram::push::PushCramSolver;
use crate::solver::cram::test_rng::Lcg;
use crate::solver::cram::{CramSolver, Outcome};
use crate::solver::{Control, SolveError};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nimscope-plan-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

/// The single search's answer about the whole board.
fn single(game: CramGame, b: &Board, question: Question) -> Fact {
    let control = Control::new();
    let (mut cram, mut push) = (CramSolver::new().with_threads(1), PushCramSolver::new());
    match (game, question) {
        (CramGame::Cram, Question::Value) => Fact::Value(cram.value(b, &control).unwrap()),
        (CramGame::Cram, Question::Outcome) => Fact::IsZero(cram.outcome(b, &control).unwrap() == Outcome::P),
        (CramGame::PushCram, Question::Value) => Fact::Value(push.value(b, &control).unwrap()),
        (CramGame::PushCram, Question::Outcome) => Fact::IsZero(push.outcome(b, &control).unwrap() == Outcome::P),
    }
}

/// A plan made and saved in `dir` (with its key), read back.
fn saved(game: CramGame, text: &str, question: Question, depth: u32, dir: &Path) -> Plan {
    let mut plan = Plan::new(game, &board(text), question, depth).unwrap();
    plan.save(dir).unwrap();
    Plan::load(dir).unwrap()
}

/// The answer of a unit as a test writes it.
fn answer_of(plan: &Plan, k: usize, fact: Fact, before: Option<&UnitAnswer>) -> UnitAnswer {
    UnitAnswer::new(
        plan,
        k,
        fact,
        (verify::question_of(fact), None),
        answer::Spent::default(),
        before,
    )
    .unwrap()
}

/// Unit `k` as `--unit` runs it in a process of its own: skipped when the answers so far do
/// not need it (asked `ask` when given: the round's question), else fresh solvers, the others'
/// proven values (when `share`), the search of what the plan asks it, its own proven values
/// and its answer (with what it knew before). Returns whether it searched.
fn run_unit(dir: &Path, plan: &Plan, k: usize, share: bool, policy: Policy, ask: Option<Ask>) -> bool {
    let answers = answer::read_all(dir, plan).unwrap();
    let Some(&(_, now)) = plan
        .needed(&answer::facts(&answers), policy)
        .iter()
        .find(|(u, _)| *u == k)
    else {
        return false;
    };
    let ask = ask.unwrap_or(now);
    let control = Control::with_budget(64 << 20);
    let (mut cram, mut push) = (CramSolver::new().with_threads(1), PushCramSolver::new());
    let got = if share {
        let got = store::import(dir, plan, k, &mut cram, &mut push, &control).unwrap();
        assert!(got.warnings.is_empty(), "{:?}", got.warnings);
        got
    } else {
        store::Imported::default()
    };
    let fact = solve_unit(plan, k, ask, &mut cram, &mut push, &control).unwrap();
    if share {
        store::export(dir, plan, k, &got, &mut cram, &mut push, &control).unwrap();
    }
    let fact = merged(answers[k].as_ref().map(UnitAnswer::fact), fact);
    answer::write(dir, &answer_of(plan, k, fact, answers[k].as_ref())).unwrap();
    true
}

/// Whether `fact` is true of a position whose single search says `truth`.
fn consistent(fact: Fact, truth: Fact) -> bool {
    match (fact, truth) {
        (Fact::Value(a), Fact::Value(b)) => a == b,
        (Fact::Excluded(_), Fact::Value(b)) => !fact.excludes(b),
        (Fact::IsZero(a), Fact::IsZero(b)) => a == b,
        _ => false,
    }
}

/// How the units of a round run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Schedule {
    /// One after another, each asked what the plan needs when it starts (a small cluster,
    /// GNU parallel), in plan order or in reverse.
    InTurn { reverse: bool },
    /// All at once: each asked the round's question, as recorded when the round started (a
    /// cluster with a node for each unit), skipped only if the answers before it make it
    /// unnecessary.
    Wide,
}

/// Runs the units of a plan in `dir` in rounds until the root is settled. Returns the root's
/// fact, the number of unit runs that searched and of rounds.
fn run_rounds(dir: &Path, plan: &Plan, schedule: Schedule, share: bool, policy: Policy) -> (Fact, usize, usize) {
    let (mut searched, mut rounds) = (0, 0);
    loop {
        let facts = answer::facts(&answer::read_all(dir, plan).unwrap());
        if let Some(fact) = plan.root_fact(&facts) {
            assert!(
                plan.needed(&facts, policy).is_empty(),
                "a settled root needs nothing more"
            );
            return (fact, searched, rounds);
        }
        let needed = plan.needed(&facts, policy);
        assert!(!needed.is_empty(), "an unsettled root needs some unit");
        searched += match schedule {
            Schedule::InTurn { reverse } => {
                let mut order: Vec<usize> = needed.iter().map(|&(k, _)| k).collect();
                if reverse {
                    order.reverse();
                }
                order
                    .iter()
                    .filter(|&&k| run_unit(dir, plan, k, share, policy, None))
                    .count()
            }
            Schedule::Wide => {
                let round = rounds::Round::new(plan, rounds as u32, policy, &needed);
                round.save(dir).unwrap();
                let round = rounds::Round::load(dir, plan, rounds as u32).unwrap();
                needed
                    .iter()
                    .filter(|&&(k, _)| run_unit(dir, plan, k, share, policy, round.ask_of(k)))
                    .count()
            }
        };
        rounds += 1;
        assert!(rounds <= 4 * plan.units + 8, "rounds do not end");
    }
}

/// Plans `text` in `game`, runs its units in rounds, and combines. Returns the root's fact,
/// the plan, the runs that searched and the rounds.
fn combined(
    game: CramGame,
    text: &str,
    question: Question,
    depth: u32,
    (schedule, share, policy): (Schedule, bool, Policy),
) -> (Fact, Plan, usize, usize) {
    let dir = temp(
        &format!(
            "{}-{text}-{}-{depth}-{schedule:?}-{share}-{}-{:?}",
            game.name(),
            question.name(),
            policy.ahead,
            policy.bluff
        )
        .replace(['/', ' ', '{', '}', ':'], "_"),
    );
    let plan = saved(game, text, question, depth, &dir);
    let (fact, searched, rounds) = run_rounds(&dir, &plan, schedule, share, policy);
    // Every answer given is true of its unit's position.
    for (k, a) in answer::read_all(&dir, &plan).unwrap().iter().enumerate() {
        if let Some(a) = a {
            let truth = single(game, &plan.unit_board(k).unwrap(), question);
            assert!(consistent(a.fact(), truth), "unit {k}: {:?}, alone {truth:?}", a.fact());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    (fact, plan, searched, rounds)
}

#[test]
fn combined_values_and_outcomes_are_the_single_search_s() {
    let cases = [
        (CramGame::Cram, "3x5"),
        (CramGame::Cram, "4x4"),
        (CramGame::Cram, "3x6"),
        (CramGame::Cram, "4x5"),
        (CramGame::Cram, "..#../...../.#.../....."),
        (CramGame::Cram, "5x5"),
        (CramGame::PushCram, "3x5"),
        (CramGame::PushCram, "3x7"),
        (CramGame::PushCram, "4x4"),
        (CramGame::PushCram, "4x5"),
        (CramGame::PushCram, "..../.#../..../...#"),
    ];
    for (game, text) in cases {
        for question in [Question::Value, Question::Outcome] {
            let want = single(game, &board(text), question);
            for depth in [1, 2] {
                for run in [
                    (
                        Schedule::InTurn { reverse: false },
                        false,
                        Policy::new(0, Bluff::OneARound).unwrap(),
                    ),
                    (Schedule::InTurn { reverse: true }, true, Policy::default()),
                    (Schedule::Wide, true, Policy::default()),
                    (Schedule::Wide, false, Policy::new(1, Bluff::AllAtOnce).unwrap()),
                ] {
                    let (got, plan, _, _) = combined(game, text, question, depth, run);
                    assert_eq!(
                        got,
                        want,
                        "{} {text} {} depth {depth} ({run:?}, {} units)",
                        game.name(),
                        question.name(),
                        plan.units
                    );
                }
            }
        }
    }
}

#[test]
fn a_value_plan_knows_whether_the_root_is_a_bluff() {
    // Against the report `nimscope cram` prints (every option searched for its outcome).
    for (game, text) in [
        (CramGame::Cram, "1x3"),
        (CramGame::Cram, "..#/.../#.."),
        (CramGame::Cram, "4x5"),
        (CramGame::Cram, "3x4"),
        (CramGame::PushCram, "1x5"),
        (CramGame::PushCram, "3x5"),
        (CramGame::PushCram, "4x4"),
    ] {
        let r: crate::game::Ruleset = game.name().parse().unwrap();
        let p = r.parse_position(text).unwrap();
        let control = Control::new();
        let mut eval = crate::solver::Evaluator::new();
        let g = eval.value(&r, &p, &control).unwrap();
        let want = eval.cram_summary(&r, &p, g, &control).unwrap().bluff;
        for (schedule, ahead, bluff) in [
            (Schedule::InTurn { reverse: false }, 0, Bluff::OneARound),
            (Schedule::Wide, 0, Bluff::AllAtOnce),
            (Schedule::Wide, 1, Bluff::AllAtOnce),
        ] {
            let dir = temp(&format!("bluff-{}-{text}-{ahead}", game.name()).replace('/', "_"));
            let plan = saved(game, text, Question::Value, 1, &dir);
            let (root, _, _) = run_rounds(&dir, &plan, schedule, false, Policy::new(ahead, bluff).unwrap());
            assert_eq!(root, Fact::Value(g), "{} {text}", game.name());
            let facts = answer::facts(&answer::read_all(&dir, &plan).unwrap());
            assert_eq!(plan.root_bluff(&facts), Some(want), "{} {text}", game.name());
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

#[test]
fn an_outcome_plan_skips_the_units_a_winning_option_makes_irrelevant() {
    // 3×7 is an N-position: once a unit finds a P-position among the root's options at depth
    // 1, every other unit is implied.
    let want = single(CramGame::Cram, &board("3x7"), Question::Outcome);
    assert_eq!(want, Fact::IsZero(false));
    let run = (Schedule::InTurn { reverse: false }, false, Policy::default());
    let (got, plan, searched, _) = combined(CramGame::Cram, "3x7", Question::Outcome, 1, run);
    assert_eq!(got, want);
    assert!(searched < plan.units, "{searched} of {} units searched", plan.units);
}

#[test]
fn plans_are_deterministic_and_symmetry_merges_units() {
    let a = Plan::new(CramGame::Cram, &board("4x6"), Question::Value, 2).unwrap();
    let b = Plan::new(CramGame::Cram, &board("4x6"), Question::Value, 2).unwrap();
    assert_eq!(a, b);
    // 4×6 has 38 moves; the symmetries of the rectangle leave about a quarter of them.
    let one = Plan::new(CramGame::Cram, &board("4x6"), Question::Value, 1).unwrap();
    assert!(one.units < 38 / 2, "{} units", one.units);
    assert!(Plan::new(CramGame::Cram, &board("4x6"), Question::Value, 0).is_err());
}

#[test]
fn a_wide_round_asks_everything_that_can_matter() {
    // Asked every value at once, a depth-1 plan settles in one round, its bluff flag too;
    // asked one value at a time it takes more, and the bluff flag one option a round most.
    for (text, depth) in [("4x5", 1), ("3x7", 1), ("5x5", 1), ("3x7", 2), ("4x5", 2)] {
        let want = single(CramGame::Cram, &board(text), Question::Value);
        let mut rounds = Vec::new();
        for (ahead, bluff) in [
            (0, Bluff::OneARound),
            (0, Bluff::AllAtOnce),
            (1, Bluff::AllAtOnce),
            (MAX_AHEAD, Bluff::AllAtOnce),
        ] {
            let run = (Schedule::Wide, false, Policy::new(ahead, bluff).unwrap());
            let (got, _, _, r) = combined(CramGame::Cram, text, Question::Value, depth, run);
            assert_eq!(got, want, "{text} depth {depth} ahead {ahead}");
            rounds.push(r);
        }
        if depth == 1 {
            assert_eq!(rounds[2], 1, "{text}: {rounds:?}");
        }
        assert!(
            rounds[1] <= rounds[0] && rounds[2] <= rounds[1],
            "{text} depth {depth}: {rounds:?}"
        );
    }
}

#[test]
fn a_round_lists_the_units_that_did_not_answer() {
    let dir = temp("unanswered");
    let plan = saved(CramGame::Cram, "4x5", Question::Value, 1, &dir);
    let policy = Policy::default();
    let needed = plan.needed(&vec![None; plan.units], policy);
    rounds::Round::new(&plan, 0, policy, &needed).save(&dir).unwrap();
    assert_eq!(rounds::next_round(&dir), 1);
    let round = rounds::Round::load(&dir, &plan, 0).unwrap();
    let all: Vec<usize> = needed.iter().map(|&(k, _)| k).collect();
    assert_eq!(round.unanswered(&plan, &vec![None; plan.units]), all);
    // The first unit answers its round's question; the rest stay open while needed.
    let (k, asked) = needed[0];
    run_unit(&dir, &plan, k, false, policy, Some(asked));
    let facts = answer::facts(&answer::read_all(&dir, &plan).unwrap());
    let open = round.unanswered(&plan, &facts);
    assert!(!open.contains(&k), "{open:?}");
    for &(u, _) in &needed[1..] {
        run_unit(&dir, &plan, u, false, policy, round.ask_of(u));
    }
    let facts = answer::facts(&answer::read_all(&dir, &plan).unwrap());
    assert!(round.unanswered(&plan, &facts).is_empty());
    // A round of another plan, or edited, is refused.
    std::fs::write(rounds::round_path(&dir, 0), "{}").unwrap();
    assert!(rounds::Round::load(&dir, &plan, 0).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Unit `k` asked `ask`, run as a process that the scheduler kills after a random while, again
/// and again until it finishes: each run starts from fresh solvers, its checkpoint and the
/// proven values. Returns the answer and the number of runs.
fn killed_and_rerun(dir: &Path, plan: &Plan, k: usize, ask: Ask, rng: &mut Lcg) -> (Fact, u32) {
    let ckpt = dir.join(format!("unit-{k}.ckpt"));
    let b = plan.unit_board(k).unwrap();
    for run in 1.. {
        let control = Control::with_budget(64 << 20);
        let (mut cram, mut push) = (CramSolver::new().with_threads(1), PushCramSolver::new());
        let (checkpoint, _) = match plan.game {
            CramGame::Cram => Checkpoint::for_cram(&ckpt, &b, &mut cram, &control).unwrap(),
            CramGame::PushCram => Checkpoint::for_push_cram(&ckpt, &b, &mut push, &control).unwrap(),
        };
        let got = store::import(dir, plan, k, &mut cram, &mut push, &control).unwrap();
        let killer = control.clone();
        let after = Duration::from_micros(100 + rng.below(5_000) * (run as u64));
        let timer = std::thread::Builder::new()
            .name("unit-killer".into())
            .spawn(move || {
                std::thread::sleep(after);
                killer.cancel();
            })
            .unwrap();
        let result = solve_unit(plan, k, ask, &mut cram, &mut push, &control);
        timer.join().unwrap();
        match result {
            Ok(fact) => {
                store::export(dir, plan, k, &got, &mut cram, &mut push, &Control::new()).unwrap();
                answer::write(dir, &answer_of(plan, k, fact, None)).unwrap();
                return (fact, run);
            }
            Err(PlanError::Solve(SolveError::Cancelled)) => {
                // What the periodic saver would have written before the kill.
                checkpoint.save().unwrap();
            }
            Err(e) => panic!("{e}"),
        }
    }
    unreachable!()
}

#[test]
fn units_killed_at_random_points_and_run_again_give_the_same_answers() {
    let mut rng = Lcg(25);
    let (mut runs, mut killed_units) = (0, 0);
    for (game, text, question) in [
        (CramGame::Cram, "5x6", Question::Value),
        (CramGame::Cram, "4x9", Question::Outcome),
        (CramGame::PushCram, "4x9", Question::Value),
    ] {
        let dir = temp(&format!("killed-{}-{text}", game.name()));
        let plan = saved(game, text, question, 1, &dir);
        // The first units killed and run again, the others run once (the time of a test).
        let killed = plan.units.min(4);
        killed_units += killed as u32;
        // A Cram unit is asked whether its value is 0, 1 or 2 (the set search), a Push Cram
        // one for its value.
        let ask = match (game, question) {
            (_, Question::Outcome) => ask::ZERO,
            (CramGame::Cram, Question::Value) => 0b111,
            (CramGame::PushCram, Question::Value) => ask::EXACT,
        };
        for k in 0..killed {
            let (fact, n) = killed_and_rerun(&dir, &plan, k, ask, &mut rng);
            runs += n;
            let alone = single(game, &plan.unit_board(k).unwrap(), question);
            assert!(
                consistent(fact, alone),
                "{} {text} unit {k}: {fact:?}, alone {alone:?}",
                game.name()
            );
        }
        let (root, _, _) = run_rounds(
            &dir,
            &plan,
            Schedule::InTurn { reverse: false },
            true,
            Policy::default(),
        );
        assert_eq!(root, single(game, &board(text), question));
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(runs > killed_units, "no unit was interrupted ({runs} runs)");
}
