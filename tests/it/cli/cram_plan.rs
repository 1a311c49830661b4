//! `cram --plan`, `--unit` and `--combine` as a scheduler runs them: separate processes, in
//! any order, twice, killed with SIGKILL and run again; the combined output is byte for byte
//! what `cram BOARD --json` prints, and bad files get one `error:` line and exit status 2. A
//! hand-edited answer is refused by `--combine` and `--verify`, `--ask` answers from its own
//! search, a unit that cannot write its folder says so before it searches, `--status` shows a
//! unit at work (and one killed), and a unit whose question another run answered stops.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::stdout;

use crate::common::nimscope;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nimscope-cram-plan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn units(dir: &Path) -> usize {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    v["units"].as_u64().unwrap() as usize
}

/// The one `error:` line of a command that must fail with status 2.
fn refused(args: &[&str]) -> String {
    let out = nimscope(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

#[test]
fn a_plan_run_unit_by_unit_combines_to_the_single_search() {
    for (board, opts) in [
        ("4x5", &[][..]),
        ("3x7", &["--push"][..]),
        ("3x8", &["--outcome"][..]),
        ("4x4", &["--push", "--outcome"][..]),
    ] {
        let dir = temp(&format!("{board}{}", opts.join("")));
        let d = dir.to_str().unwrap();
        let mut plan = vec!["cram", board, "--plan", d, "--json"];
        plan.extend_from_slice(opts);
        let summary: serde_json::Value = serde_json::from_str(stdout(&plan).trim()).unwrap();
        let n = units(&dir);
        assert_eq!(summary["units"], n);
        let mut single = vec!["cram", board, "--json"];
        single.extend_from_slice(opts);
        let single = stdout(&single);
        // Before any unit: the combine step names what is missing, unless the plan settled
        // the root already (an option whose value 0 the keys give at once, in an outcome plan).
        let before = nimscope(&["cram", "--combine", d, "--json"]);
        if before.status.success() {
            assert_eq!(String::from_utf8(before.stdout).unwrap(), single, "{board} {opts:?}");
        } else {
            let err = refused(&["cram", "--combine", d, "--json"]);
            assert!(err.contains("the root still needs units 0"), "{err}");
        }
        // In rounds, as `--needed` lists them; in reverse order, each unit twice (the second
        // run prints the answer the first gave).
        for round in 0.. {
            assert!(round < 4 * n + 8, "{board} {opts:?}: rounds do not end");
            let needed = stdout(&["cram", "--needed", d]);
            let listed: serde_json::Value =
                serde_json::from_str(stdout(&["cram", "--needed", d, "--json"]).trim()).unwrap();
            let needed: Vec<&str> = needed.trim().split(',').filter(|k| !k.is_empty()).collect();
            assert_eq!(listed["needed"].as_array().unwrap().len(), needed.len(), "{listed}");
            if needed.is_empty() {
                break;
            }
            for k in needed.iter().rev() {
                let first = stdout(&["--threads", "1", "cram", "--unit", d, k, "--json"]);
                let again = stdout(&["cram", "--unit", d, k, "--json"]);
                let first: serde_json::Value = serde_json::from_str(first.trim()).unwrap();
                if first.get("skipped").is_none() {
                    let again: serde_json::Value = serde_json::from_str(again.trim()).unwrap();
                    assert!(again.get("skipped").is_some() || again == first, "{first} then {again}");
                }
            }
        }
        assert_eq!(stdout(&["cram", "--combine", d, "--json"]), single, "{board} {opts:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn bad_plans_units_and_answers_get_one_line() {
    let dir = temp("bad");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "3x6", "--plan", d]);
    stdout(&["cram", "--unit", d, "0"]);
    let err = refused(&["cram", "--unit", d, "99"]);
    assert!(err.contains("units 0 to"), "{err}");
    let err = refused(&["cram", "3x7", "--plan", d]);
    assert!(err.contains("another plan"), "{err}");
    let answer = dir.join("answers/unit-0.json");
    let text = std::fs::read_to_string(&answer).unwrap();
    std::fs::write(&answer, &text[..text.len() - 20]).unwrap();
    let err = refused(&["cram", "--combine", d]);
    assert!(err.contains("unit-0.json") && err.contains("damaged"), "{err}");
    std::fs::write(dir.join("plan.json"), "not json").unwrap();
    let err = refused(&["cram", "--unit", d, "0"]);
    assert!(err.contains("not a nimscope Cram plan"), "{err}");
    let err = refused(&["cram", "3x6", "--plan", d, "--depth", "9"]);
    assert!(err.contains("--depth 9"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_unit_killed_with_sigkill_and_run_again_gives_the_same_answer() {
    let dir = temp("killed");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "5x7", "--plan", d]);
    let ckpt = dir.join("unit-0.ckpt");
    let c = ckpt.to_str().unwrap();
    let args = [
        "--threads",
        "1",
        "cram",
        "--unit",
        d,
        "0",
        "--checkpoint",
        c,
        "--checkpoint-every",
        "1",
        "--json",
    ];
    // Killed at a few points of its run (the kill's timing only changes how much is saved).
    for ms in [30, 300, 1200] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nimscope"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        let _ = child.kill();
        child.wait().unwrap();
    }
    let answered: serde_json::Value = serde_json::from_str(stdout(&args).trim()).unwrap();
    let board = answered["board"].as_str().unwrap().to_string();
    let alone: serde_json::Value = serde_json::from_str(stdout(&["cram", &board, "--json"]).trim()).unwrap();
    assert_eq!(answered["value"], alone["grundy"], "{answered}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_unit_asked_about_values_answers_what_its_single_search_says() {
    let dir = temp("ask");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "4x5", "--plan", d]);
    for k in 0..units(&dir) {
        let k = k.to_string();
        let answered: serde_json::Value =
            serde_json::from_str(stdout(&["cram", "--unit", d, &k, "--ask", "1,2", "--json"]).trim()).unwrap();
        let board = answered["board"].as_str().unwrap().to_string();
        let alone: serde_json::Value = serde_json::from_str(stdout(&["cram", &board, "--json"]).trim()).unwrap();
        let g = alone["grundy"].as_u64().unwrap();
        match answered["value"].as_u64() {
            Some(v) => assert_eq!(v, g, "{answered}"),
            None => {
                // What was asked, and whatever else the search learnt on the way.
                let excluded: Vec<u64> = answered["excluded"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
                    .collect();
                assert!(excluded.contains(&1) && excluded.contains(&2), "{answered}");
                assert!(!excluded.contains(&g), "{answered} but G = {g}");
            }
        }
    }
    let err = refused(&["cram", "--unit", d, "0", "--ask", "200"]);
    assert!(err.contains("--ask 200"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    stdout(&["cram", "3x6", "--outcome", "--plan", d]);
    let err = refused(&["cram", "--unit", d, "0", "--ask", "1"]);
    assert!(err.contains("outcome plan"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a plan's units in rounds as `--needed` lists them, then combines.
fn run_plan(d: &str) -> String {
    for _ in 0..64 {
        let needed = stdout(&["cram", "--needed", d]);
        if needed.trim().is_empty() {
            return stdout(&["cram", "--combine", d, "--json"]);
        }
        for k in needed.trim().split(',') {
            stdout(&["--threads", "1", "cram", "--unit", d, k]);
        }
    }
    panic!("{d}: rounds do not end")
}

#[test]
fn a_hand_edited_answer_is_refused_by_combine_and_verify() {
    // The forgery: Push Cram 4×5 (truly grundy 3, no bluff) made "grundy 1, bluff".
    let dir = temp("forged");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "4x5", "--push", "--plan", d]);
    let truth = run_plan(d);
    assert_eq!(truth, stdout(&["cram", "4x5", "--push", "--json"]));
    let verified = stdout(&["cram", "--verify", d]);
    assert!(verified.contains("every answer agrees"), "{verified}");
    let path = dir.join("answers/unit-0.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let mut a: serde_json::Value = serde_json::from_str(&good).unwrap();
    a["value"] = 0.into();
    a["outcome"] = "P".into();
    a.as_object_mut().unwrap().remove("excluded");
    std::fs::write(&path, serde_json::to_string(&a).unwrap()).unwrap();
    let err = refused(&["cram", "--combine", d]);
    assert!(
        err.contains("unit-0.json") && err.contains("does not match its contents"),
        "{err}"
    );
    let out = nimscope(&["cram", "--verify", d]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("refused: ") && text.contains("unit-0.json"), "{text}");
    // `--ask` answers from its own search (not the forged "0"), and replaces what it cannot
    // use; the hunt then goes on to the true answer.
    let before: serde_json::Value = serde_json::from_str(&good).unwrap();
    let asked: serde_json::Value =
        serde_json::from_str(stdout(&["cram", "--unit", d, "0", "--ask", "0", "--json"]).trim()).unwrap();
    assert_eq!(asked["outcome"], before["outcome"], "{asked}");
    assert_ne!(asked["value"], 0, "{asked}");
    assert_eq!(run_plan(d), truth);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_with_a_sample_and_no_seed_gives_the_same_bytes_twice() {
    let dir = temp("sample");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "4x5", "--push", "--plan", d]);
    run_plan(d);
    // The seed when none is given: the first 64 bits of the plan's id, read here from the file.
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    let id = plan["id"].as_str().unwrap();
    let seed = u64::from_str_radix(&id[..16], 16).unwrap().to_string();
    for json in [false, true] {
        let mut args = vec!["cram", "--verify", d, "--sample", "2"];
        if json {
            args.push("--json");
        }
        let first = stdout(&args);
        assert_eq!(stdout(&args), first, "{args:?}");
        // The same as naming that seed.
        let mut seeded = args.clone();
        seeded.extend(["--seed", &seed]);
        assert_eq!(stdout(&seeded), first, "{seeded:?}");
        if json {
            let v: serde_json::Value = serde_json::from_str(first.trim()).unwrap();
            assert_eq!(v["sample_seed"].to_string(), seed, "{v}");
            assert_eq!(v["checked"].as_array().unwrap().len(), 2, "{v}");
        } else {
            assert!(first.contains(&format!("(a sample of 2, --seed {seed})")), "{first}");
            assert!(first.contains("every answer agrees"), "{first}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_unit_that_cannot_write_its_folder_says_so_before_it_searches() {
    let dir = temp("read-only");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "5x9", "--plan", d]);
    let answers = dir.join("answers");
    std::fs::create_dir_all(&answers).unwrap();
    // A checkpoint saved every second, in a folder the unit may write: a unit that searched
    // before failing would leave one (its first save, or the save at the end of a search).
    let ckpt = dir.join("unit-0.ckpt");
    let unit = [
        "cram",
        "--unit",
        d,
        "0",
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--checkpoint-every",
        "1",
    ];
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nimscope"));
    cmd.args(unit);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&answers, std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root writes anywhere: run the unit as nobody, who owns the plan but not the answers'
        // write permission.
        if running_as_root() {
            for entry in ["", "plan.json", "plan.key", "answers"] {
                let p = dir.join(entry);
                std::process::Command::new("chown")
                    .args(["65534", p.to_str().unwrap()])
                    .status()
                    .unwrap();
            }
            cmd = Command::new("setpriv");
            cmd.args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                env!("CARGO_BIN_EXE_nimscope"),
            ])
            .args(unit);
        }
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: unit 0: cannot write ")
            && err.contains("answers/unit-0.json")
            && err.contains("nothing was searched"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    // Nothing of a search: no checkpoint, no marker saying it ran, no proven values, no answer.
    assert!(!ckpt.exists(), "a checkpoint was written: the unit searched");
    assert!(!dir.join("running/unit-0.json").exists());
    assert!(!dir.join("proven").exists() && !dir.join("checkpoints").exists());
    assert_eq!(std::fs::read_dir(&answers).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether the tests run as root (who may write read-only folders).
fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Waits until `cond` holds, for at most `secs` seconds.
fn wait_for(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn status_shows_a_unit_at_work_and_one_killed() {
    let dir = temp("status");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "5x9", "--plan", d]);
    stdout(&["cram", "--needed", d, "--round", "0"]);
    let ckpt = dir.join("unit-0.ckpt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .args([
            "--threads",
            "1",
            "cram",
            "--unit",
            d,
            "0",
            "--round",
            "0",
            "--checkpoint",
        ])
        .arg(&ckpt)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(wait_for(20, || dir.join("running/unit-0.json").exists()), "no marker");
    let status: serde_json::Value = serde_json::from_str(stdout(&["cram", "--status", d, "--json"]).trim()).unwrap();
    assert_eq!(status["running"], serde_json::json!([0]), "{status}");
    assert_eq!(status["rounds"].as_array().unwrap().len(), 1, "{status}");
    assert_eq!(status["units"], 22);
    assert!(status["pending"].as_array().unwrap().len() == 21, "{status}");
    let text = stdout(&["cram", "--status", d]);
    assert!(
        text.contains("1 running (0)") && text.contains("round 0: 22 asked"),
        "{text}"
    );
    let _ = child.kill();
    child.wait().unwrap();
    let status: serde_json::Value = serde_json::from_str(stdout(&["cram", "--status", d, "--json"]).trim()).unwrap();
    assert_eq!(status["stale"], serde_json::json!([0]), "{status}");
    assert_eq!(status["running"], serde_json::json!([]), "{status}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_unit_whose_question_another_run_answered_stops() {
    // Two runs of one unit (a requeue, a second submission): when the other's answer lands,
    // this one stops at its next look, saves its checkpoint and writes nothing.
    let dir = temp("moot");
    let d = dir.to_str().unwrap();
    stdout(&["cram", "5x9", "--plan", d]);
    let mut second = Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .args([
            "--threads",
            "1",
            "cram",
            "--unit",
            d,
            "1",
            "--recheck-every",
            "1",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        wait_for(20, || dir.join("running/unit-1.json").exists()),
        "no marker for unit 1"
    );
    // Unit 1's question answered by another run: an answer under the plan's key.
    let plan = nimscope_core::solver::cram::plan::Plan::load(&dir).unwrap();
    let fact = nimscope_core::solver::cram::plan::Fact::Value(7);
    let a = nimscope_core::solver::cram::plan::answer::UnitAnswer::new(
        &plan,
        1,
        fact,
        (1u128 << 7, None),
        Default::default(),
        None,
    )
    .unwrap();
    nimscope_core::solver::cram::plan::answer::write(&dir, &a).unwrap();
    let status = second.wait().unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(second.stdout.as_mut().unwrap(), &mut out).unwrap();
    assert!(status.success(), "{out}");
    // Stopped by its watcher (a search of a unit of 5×9 that ran to its end would print its
    // answer, not this).
    assert!(out.contains("\"stopped\":true"), "{out}");
    assert!(!dir.join("running/unit-1.json").exists());
    // The answer on file is the one written meanwhile, untouched.
    let on_file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("answers/unit-1.json")).unwrap()).unwrap();
    assert_eq!(on_file["value"], 7);
    let _ = std::fs::remove_dir_all(&dir);
}
