//! `cram --plan`, `--unit` and `--combine` as a scheduler runs them: separate processes, in
//! any order, twice, killed with SIGKILL and run again; the combined output is byte for byte
//! what `cram BOARD --json` prints, and bad files get one `error:` line and exit status 2.

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
                assert!(g != 1 && g != 2, "{answered} but G = {g}");
                assert_eq!(answered["excluded"], serde_json::json!([1, 2]), "{answered}");
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
