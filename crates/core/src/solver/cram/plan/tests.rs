//! Plans against the single search: every unit answered (in plan order, in reverse, with
//! and without the proven values of the others, asking one value a round or several) and
//! combined gives the value and outcome the solver finds for the whole board, for Cram and
//! Push Cram, at depths 1 and 2; rounds where every unit answers the round's question (a
//! cluster's wide round) settle in as few rounds as the policy promises; units interrupted at
//! random points and run again give the same answers; damaged, edited, forged, crafted and
//! foreign files are refused in one line, never with a panic.

use super::answer::{self, UnitAnswer};
use super::{
    Ask, Bluff, Board, CramGame, Fact, MAX_AHEAD, PLAN_FILE, Plan, PlanError, Policy, Question, ask, evidence, merged,
    rounds, solve_unit, store, verify,
};
use crate::solver::cram::checkpoint::Checkpoint;
use crate::solver::cram::push::PushCramSolver;
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
            "{}-{text}-{}-{depth}-{schedule:?}-{share}-{}",
            game.name(),
            question.name(),
            policy.ahead
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

/// The one line of an error.
fn one_line(e: PlanError) -> String {
    let text = e.to_string();
    assert!(!text.contains('\n'), "{text}");
    text
}

#[test]
fn damaged_edited_and_foreign_files_are_refused_in_one_line() {
    let dir = temp("damaged");
    let plan = saved(CramGame::Cram, "3x6", Question::Value, 1, &dir);
    let policy = Policy::default();
    run_unit(&dir, &plan, 0, true, policy, Some(ask::EXACT));
    run_unit(&dir, &plan, 1, true, policy, Some(ask::EXACT));
    let path = answer::answer_path(&dir, 0);
    let good = std::fs::read_to_string(&path).unwrap();
    // An edited outcome, an edited value: the JSON stays whole, the tag does not fit.
    let a: UnitAnswer = serde_json::from_str(&good).unwrap();
    let flipped = if a.outcome == "P" { "N" } else { "P" };
    for edited in [
        good.replace(
            &format!("\"outcome\":\"{}\"", a.outcome),
            &format!("\"outcome\":\"{flipped}\""),
        ),
        good.replace(
            &format!("\"value\":{}", a.value.unwrap()),
            &format!("\"value\":{}", a.value.unwrap() + 1),
        ),
    ] {
        assert_ne!(edited, good);
        std::fs::write(&path, edited).unwrap();
        let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
        assert!(
            e.contains("does not match its contents") && e.contains("unit-0.json"),
            "{e}"
        );
    }
    // A truncated file.
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("damaged"), "{e}");
    // Another unit's answer under this unit's name.
    std::fs::copy(answer::answer_path(&dir, 1), &path).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("not of unit 0"), "{e}");
    // Another plan's answer.
    let other_dir = temp("damaged-other");
    let other = saved(CramGame::Cram, "3x6", Question::Outcome, 1, &other_dir);
    answer::write(&dir, &answer_of(&other, 0, Fact::IsZero(false), None)).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("another plan"), "{e}");
    // The same plan planned again elsewhere (a colleague's folder merged into this one): the
    // same id, another key.
    let twin_dir = temp("damaged-twin");
    let twin = saved(CramGame::Cram, "3x6", Question::Value, 1, &twin_dir);
    assert_eq!(twin.id, plan.id);
    answer::write(&dir, &answer_of(&twin, 0, a.fact(), None)).unwrap();
    let e = one_line(answer::read_all(&dir, &plan).unwrap_err());
    assert!(e.contains("does not match its contents"), "{e}");
    std::fs::write(&path, &good).unwrap();
    assert!(answer::read_all(&dir, &plan).is_ok());
    // Another plan in the same folder.
    let mut third = Plan::new(CramGame::Cram, &board("3x6"), Question::Outcome, 1).unwrap();
    let e = one_line(third.save(&dir).unwrap_err());
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
    std::fs::write(&plan_path, &text).unwrap();
    // The key lost, or another plan's key.
    let key = std::fs::read(evidence::Key::path(&dir)).unwrap();
    std::fs::remove_file(evidence::Key::path(&dir)).unwrap();
    let e = one_line(Plan::load(&dir).unwrap_err());
    assert!(e.contains("plan.key") && e.contains("missing"), "{e}");
    std::fs::copy(evidence::Key::path(&twin_dir), evidence::Key::path(&dir)).unwrap();
    let e = one_line(Plan::load(&dir).unwrap_err());
    assert!(e.contains("seal does not match"), "{e}");
    std::fs::write(evidence::Key::path(&dir), key).unwrap();
    assert!(Plan::load_bound(&dir).is_ok());
    for d in [other_dir, twin_dir, dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_watcher_sees_only_answer_files_that_exist_and_pass_their_checks() {
    let dir = temp("seen");
    let plan = saved(CramGame::Cram, "3x6", Question::Value, 1, &dir);
    let policy = Policy::default();
    for k in 0..plan.units {
        run_unit(&dir, &plan, k, false, policy, Some(ask::EXACT));
    }
    let all = answer::facts(&answer::read_all(&dir, &plan).unwrap());
    assert!(all.iter().all(Option::is_some) && plan.needed(&all, policy).is_empty());
    let mut seen = answer::Seen::new(plan.units);
    assert_eq!(seen.refresh(&dir, &plan), &all[..]);
    // An answer deleted after the watcher read it: its fact goes, and the unit is needed
    // again (a value plan's root depends on every option).
    std::fs::remove_file(answer::answer_path(&dir, 0)).unwrap();
    let facts = seen.refresh(&dir, &plan).to_vec();
    assert_eq!(facts[0], None);
    assert_eq!(facts[1..], all[1..]);
    assert!(plan.needed(&facts, policy).iter().any(|&(u, _)| u == 0));
    // An answer edited by hand, its old modification time put back: refused, no fact.
    let path = answer::answer_path(&dir, 1);
    let good = std::fs::read_to_string(&path).unwrap();
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let a: UnitAnswer = serde_json::from_str(&good).unwrap();
    let v = a.value.unwrap();
    let edited = good.replace(&format!("\"value\":{v}"), &format!("\"value\":{}", (v + 1) % 10));
    assert_ne!(edited, good);
    std::fs::write(&path, &edited).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), modified);
    assert_eq!(seen.refresh(&dir, &plan)[1], None);
    // Written back whole: seen again.
    std::fs::write(&path, &good).unwrap();
    assert_eq!(seen.refresh(&dir, &plan)[1], all[1]);
    // The folder of the answers gone: no facts at all.
    std::fs::remove_dir_all(answer::answers_dir(&dir)).unwrap();
    assert!(seen.refresh(&dir, &plan).iter().all(Option::is_none));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_plan_edited_for_another_board_is_refused_even_with_its_key() {
    // The attack: 3×7 planned at depth 2, its board changed in plan.json and the id
    // (and here even the seal, with the key) made anew, is combined for the wrong board unless
    // the tree is built again from the board.
    let dir = temp("reboard");
    let plan = saved(CramGame::Cram, "3x7", Question::Value, 2, &dir);
    let mut forged = plan.clone();
    forged.board = "3x7"
        .parse::<Board>()
        .unwrap()
        .place(board("3x7").legal_moves()[0])
        .unwrap()
        .to_string();
    forged.id = forged.compute_id();
    forged.seal = plan
        .key()
        .unwrap()
        .tag_text(evidence::Domain::Plan, forged.id.as_bytes());
    std::fs::write(dir.join(PLAN_FILE), serde_json::to_vec(&forged).unwrap()).unwrap();
    // Loaded as files (the seal fits: the forger held the key) ...
    assert!(Plan::load(&dir).is_ok());
    // ... and refused once its tree is built again from its board.
    let e = one_line(Plan::load_bound(&dir).unwrap_err());
    assert!(e.contains("not the plan of its own board"), "{e}");
    // Without the key the seal gives it away at once.
    forged.seal = "hmac-sha256:00".into();
    std::fs::write(dir.join(PLAN_FILE), serde_json::to_vec(&forged).unwrap()).unwrap();
    let e = one_line(Plan::load(&dir).unwrap_err());
    assert!(e.contains("seal does not match"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bytes of a proven-values file as an attacker who holds the key writes it: `body`
/// after the first line, and a tag that fits.
fn tagged_proven(plan: &Plan, body: &[u8]) -> Vec<u8> {
    let mut bytes = b"nimscope cram proven values 2\n".to_vec();
    bytes.extend_from_slice(body);
    let mut tagger = plan.key().unwrap().tagger(evidence::Domain::Proven);
    tagger.update(&bytes);
    bytes.extend_from_slice(&tagger.finish());
    bytes
}

/// Loads the proven values of `dir` into fresh solvers, as unit 0 does; the warnings.
fn import_warnings(dir: &Path, plan: &Plan) -> Vec<String> {
    let control = Control::new();
    let (mut cram, mut push) = (CramSolver::new(), PushCramSolver::new());
    store::import(dir, plan, 0, &mut cram, &mut push, &control)
        .unwrap()
        .warnings
}

#[test]
fn crafted_and_damaged_proven_values_are_refused_never_a_panic() {
    let dir = temp("crafted");
    let plan = saved(CramGame::Cram, "3x6", Question::Value, 1, &dir);
    std::fs::create_dir_all(store::proven_dir(&dir)).unwrap();
    let file = store::proven_path(&dir, 1);
    let header = format!(
        "{{\"plan\":\"{}\",\"unit\":1,\"game\":\"cram\",\"entries\":0}}",
        plan.id
    );
    // The file, in the format of the nimscope it broke: a header with no newline,
    // padded until the CRC's first byte is one (store.rs:293 sliced past the end and
    // panicked). Refused now as a file of that format.
    let mut old = b"nimscope cram proven values\n".to_vec();
    old.extend_from_slice(header.as_bytes());
    loop {
        let crc = crc32fast::hash(&old);
        if crc.to_le_bytes()[0] == b'\n' {
            old.extend_from_slice(&crc.to_le_bytes());
            break;
        }
        old.push(b' ');
    }
    std::fs::write(&file, &old).unwrap();
    let w = import_warnings(&dir, &plan);
    assert!(w.len() == 1 && w[0].contains("older nimscope"), "{w:?}");
    // The same trick in today's format, by someone holding the key: the tag's first byte a
    // newline and no newline before it.
    let mut padded = header.clone().into_bytes();
    loop {
        let bytes = tagged_proven(&plan, &padded);
        if bytes[bytes.len() - 32] == b'\n' {
            std::fs::write(&file, &bytes).unwrap();
            break;
        }
        padded.push(b' ');
    }
    let w = import_warnings(&dir, &plan);
    assert!(w.len() == 1 && w[0].contains("no header line"), "{w:?}");
    // Counts that overflow, lengths that do not fit, a header that is not JSON.
    for body in [
        format!(
            "{{\"plan\":\"{}\",\"unit\":1,\"game\":\"cram\",\"entries\":{}}}\n",
            plan.id,
            u64::MAX
        ),
        format!(
            "{{\"plan\":\"{}\",\"unit\":1,\"game\":\"cram\",\"entries\":3}}\nabc",
            plan.id
        ),
        "{\n".to_string(),
        "\n".to_string(),
    ] {
        std::fs::write(&file, tagged_proven(&plan, body.as_bytes())).unwrap();
        let w = import_warnings(&dir, &plan);
        assert_eq!(w.len(), 1, "{body}: {w:?}");
    }
    // A real file, then every truncation of its head and tail and flipped bytes throughout:
    // each refused with a warning (or, untouched, loaded).
    run_unit(&dir, &plan, 1, true, Policy::default(), Some(ask::EXACT));
    let good = std::fs::read(&file).unwrap();
    assert!(import_warnings(&dir, &plan).is_empty());
    let mut rng = Lcg(40);
    let mut cases: Vec<Vec<u8>> = (0..good.len().min(200)).map(|n| good[..n].to_vec()).collect();
    cases.extend((0..64).map(|_| {
        let mut b = good.clone();
        let i = rng.below(b.len() as u64) as usize;
        b[i] ^= 1 << rng.below(8);
        b
    }));
    for bytes in cases {
        std::fs::write(&file, &bytes).unwrap();
        assert_eq!(import_warnings(&dir, &plan).len(), 1, "{} bytes", bytes.len());
    }
    // A file of the right plan and unit under another copy of the key.
    let twin_dir = temp("crafted-twin");
    let twin = saved(CramGame::Cram, "3x6", Question::Value, 1, &twin_dir);
    std::fs::write(&file, tagged_proven(&twin, &good[30..good.len() - 32])).unwrap();
    let w = import_warnings(&dir, &plan);
    assert!(w.len() == 1 && w[0].contains("tag does not match"), "{w:?}");
    let _ = std::fs::remove_dir_all(&twin_dir);
    let _ = std::fs::remove_dir_all(&dir);
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

#[test]
fn verify_finds_an_answer_a_faulty_node_signed() {
    let dir = temp("verify");
    let plan = saved(CramGame::Cram, "4x5", Question::Value, 1, &dir);
    let control = Control::with_budget(64 << 20);
    for k in 0..plan.units {
        let truth = single(CramGame::Cram, &plan.unit_board(k).unwrap(), Question::Value);
        let v = verify::reask(&plan, k, truth, 16 << 20, &control).unwrap();
        assert!(v.agrees, "{v:?}");
        let Fact::Value(g) = truth else { unreachable!() };
        // A wrong value, and a wrong exclusion.
        for wrong in [Fact::Value(g + 1), Fact::Excluded(1u128 << g)] {
            let v = verify::reask(&plan, k, wrong, 16 << 20, &control).unwrap();
            assert!(!v.agrees, "unit {k} (value {g}): {v:?}");
        }
    }
    let chosen = verify::sample(&(0..10).collect::<Vec<_>>(), 3, 7);
    assert_eq!(chosen.len(), 3);
    assert_eq!(chosen, verify::sample(&(0..10).collect::<Vec<_>>(), 3, 7));
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
