//! Damaged, edited, forged, crafted and foreign files are refused in one line, never with a
//! panic: plans, answers, proven values; a watcher keeps nothing from a file that is gone or
//! changed; `--verify` finds an answer a faulty node signed.

use super::*;

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
