//! Plans against the single search: every unit answered (in plan order, in reverse, with
//! and without the proven values of the others) and combined gives the value and outcome the
//! solver finds for the whole board, for Cram and Push Cram, at depths 1 and 2; units
//! interrupted at random points and run again give the same answers; damaged, edited and
//! foreign files are refused in one line.

use super::answer::{self, UnitAnswer};
use super::*;
use crate::solver::cram::checkpoint::Checkpoint;
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

/// Unit `k` as `--unit` runs it in a process of its own: skipped when the answers so far do
/// not need it, else fresh solvers, the others' proven values (when `share`), the search of
/// what the plan asks it, its own proven values and its answer (with what it knew before).
/// Returns whether it searched.
fn run_unit(dir: &Path, plan: &Plan, k: usize, share: bool) -> bool {
    let answers = answer::read_all(dir, plan).unwrap();
    let Some(&(_, ask)) = plan.needed(&answer::facts(&answers)).iter().find(|(u, _)| *u == k) else {
        return false;
    };
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
    answer::write(dir, &UnitAnswer::new(plan, k, fact, 0.0, 0, got.entries)).unwrap();
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

/// Runs the units of a plan in `dir` in rounds (`order` within each) until the root is
/// settled. Returns the root's fact, the number of unit runs that searched and of rounds.
fn run_rounds(dir: &Path, plan: &Plan, reverse: bool, share: bool) -> (Fact, usize, usize) {
    let (mut searched, mut rounds) = (0, 0);
    loop {
        let facts = answer::facts(&answer::read_all(dir, plan).unwrap());
        if let Some(fact) = plan.root_fact(&facts) {
            assert!(plan.needed(&facts).is_empty(), "a settled root needs nothing more");
            return (fact, searched, rounds);
        }
        let mut order: Vec<usize> = plan.needed(&facts).into_iter().map(|(k, _)| k).collect();
        assert!(!order.is_empty(), "an unsettled root needs some unit");
        if reverse {
            order.reverse();
        }
        searched += order.iter().filter(|&&k| run_unit(dir, plan, k, share)).count();
        rounds += 1;
        assert!(rounds <= 4 * plan.units + 8, "rounds do not end");
    }
}

/// Plans `text` in `game`, runs its units in rounds, and combines.
fn combined(
    game: CramGame,
    text: &str,
    question: Question,
    depth: u32,
    reverse: bool,
    share: bool,
) -> (Fact, Plan, usize) {
    let dir = temp(&format!("{}-{text}-{}-{depth}-{reverse}-{share}", game.name(), question.name()).replace('/', "_"));
    let plan = Plan::new(game, &board(text), question, depth).unwrap();
    plan.save(&dir).unwrap();
    let plan = Plan::load(&dir).unwrap();
    let (fact, searched, _) = run_rounds(&dir, &plan, reverse, share);
    // Every answer given is true of its unit's position.
    for (k, a) in answer::read_all(&dir, &plan).unwrap().iter().enumerate() {
        if let Some(a) = a {
            let truth = single(game, &plan.unit_board(k).unwrap(), question);
            assert!(consistent(a.fact(), truth), "unit {k}: {:?}, alone {truth:?}", a.fact());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    (fact, plan, searched)
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
                for (reverse, share) in [(false, true), (true, true), (false, false)] {
                    let (got, plan, _) = combined(game, text, question, depth, reverse, share);
                    assert_eq!(
                        got,
                        want,
                        "{} {text} {} depth {depth} (reverse {reverse}, share {share}, {} units)",
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
        let dir = temp(&format!("bluff-{}-{text}", game.name()).replace('/', "_"));
        let plan = Plan::new(game, &board(text), Question::Value, 1).unwrap();
        plan.save(&dir).unwrap();
        let (root, _, _) = run_rounds(&dir, &plan, false, false);
        assert_eq!(root, Fact::Value(g), "{} {text}", game.name());
        let facts = answer::facts(&answer::read_all(&dir, &plan).unwrap());
        assert_eq!(plan.root_bluff(&facts), Some(want), "{} {text}", game.name());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn an_outcome_plan_skips_the_units_a_winning_option_makes_irrelevant() {
    // 3×7 is an N-position: once a unit finds a P-position among the root's options at depth
    // 1, every other unit is implied.
    let want = single(CramGame::Cram, &board("3x7"), Question::Outcome);
    assert_eq!(want, Fact::IsZero(false));
    let (got, plan, searched) = combined(CramGame::Cram, "3x7", Question::Outcome, 1, false, false);
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
fn damaged_edited_and_foreign_files_are_refused_in_one_line() {
    let dir = temp("damaged");
    let plan = Plan::new(CramGame::Cram, &board("3x6"), Question::Value, 1).unwrap();
    plan.save(&dir).unwrap();
    run_unit(&dir, &plan, 0, true);
    run_unit(&dir, &plan, 1, true);
    let path = answer::answer_path(&dir, 0);
    let good = std::fs::read_to_string(&path).unwrap();
    let one_line = |e: PlanError| {
        let text = e.to_string();
        assert!(!text.contains('\n'), "{text}");
        text
    };
    // An edited outcome.
    let a: UnitAnswer = serde_json::from_str(&good).unwrap();
    let flipped = if a.outcome == "P" { "N" } else { "P" };
    let edited = good.replace(
        &format!("\"outcome\":\"{}\"", a.outcome),
        &format!("\"outcome\":\"{flipped}\""),
    );
    assert_ne!(edited, good);
    std::fs::write(&path, edited).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("damaged") && e.contains("unit-0.json"), "{e}");
    // A truncated file.
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("damaged"), "{e}");
    // Another unit's answer under this unit's name.
    std::fs::copy(answer::answer_path(&dir, 1), &path).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("not of unit 0"), "{e}");
    // Another plan's answer.
    let other = Plan::new(CramGame::Cram, &board("3x6"), Question::Outcome, 1).unwrap();
    let foreign = UnitAnswer::new(&other, 0, Fact::IsZero(false), 0.0, 0, 0);
    answer::write(&dir, &foreign).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("another plan"), "{e}");
    std::fs::write(&path, good).unwrap();
    assert!(answer::read_all(&dir, &plan).is_ok());
    // Another plan in the same folder.
    let e = one_line(other.save(&dir).unwrap_err());
    assert!(e.contains("another plan"), "{e}");
    // A damaged plan.
    let plan_path = dir.join(PLAN_FILE);
    let text = std::fs::read_to_string(&plan_path).unwrap();
    std::fs::write(&plan_path, text.replacen("\"unit\":0", "\"unit\":1", 1)).unwrap();
    let e = one_line(Plan::load(&dir).unwrap_err());
    assert!(e.contains("damaged"), "{e}");
    std::fs::write(&plan_path, "{}").unwrap();
    let e = one_line(Plan::load(&dir).unwrap_err());
    assert!(e.contains("not a nimscope Cram plan"), "{e}");
    // A damaged proven-values file is left out with a warning, not an error.
    let proven = store::proven_path(&dir, 1);
    let mut bytes = std::fs::read(&proven).unwrap();
    let last = bytes.len() - 5;
    bytes[last] ^= 1;
    std::fs::write(&proven, bytes).unwrap();
    std::fs::write(&plan_path, serde_json::to_vec(&plan).unwrap()).unwrap();
    let control = Control::new();
    let (mut cram, mut push) = (CramSolver::new(), PushCramSolver::new());
    let got = store::import(&dir, &plan, 2, &mut cram, &mut push, &control).unwrap();
    assert_eq!(got.files, 1, "{got:?}");
    assert_eq!(got.warnings.len(), 1, "{got:?}");
    assert!(got.warnings[0].contains("checksum"), "{got:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fixed pseudo-random sequence.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
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
                answer::write(dir, &UnitAnswer::new(plan, k, fact, 0.0, 0, 0)).unwrap();
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
        let plan = Plan::new(game, &board(text), question, 1).unwrap();
        plan.save(&dir).unwrap();
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
        let (root, _, _) = run_rounds(&dir, &plan, false, true);
        assert_eq!(root, single(game, &board(text), question));
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(runs > killed_units, "no unit was interrupted ({runs} runs)");
}
