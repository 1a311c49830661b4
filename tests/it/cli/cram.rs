//! The `cram` command: closed forms, outcomes alone, threads and budgets, checkpoints.

use crate::common::{nimscope, stdout};

#[test]
fn cram_command_values_agree_with_brute_force_and_the_listed_options() {
    // 2×64: even × even, 0 by symmetry; without --moves its 190 options are not valued.
    let text = stdout(&["cram", "2x64", "--json"]);
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(
        (v["grundy"].as_u64(), v["moves"].as_u64(), v["bluff"].as_bool()),
        (Some(0), Some(190), Some(false))
    );
    // One column of 128 cells before the push: G_0.07(128) + 1, and its 128 options too;
    // Dawson's Kayles by the plain mex over its splits.
    let mut g007 = vec![0u32; 129];
    for m in 2..=128 {
        let seen: std::collections::HashSet<u32> = (0..=m - 2).map(|a| g007[a] ^ g007[m - 2 - a]).collect();
        g007[m] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    let text = stdout(&["cram", "128x1", "--push", "--json"]);
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["grundy"].as_u64(), Some(u64::from(g007[128]) + 1));
    assert_eq!((v["moves"].as_u64(), v["after_push"].as_u64()), (Some(128), Some(0)));
    // The same summary as the one computed from every option's value.
    for args in [["cram", "3x4"], ["cram", "2x5"]] {
        let summary = stdout(&args);
        let listed = stdout(&[args[0], args[1], "--moves"]);
        assert!(listed.starts_with(&summary), "{summary}\n{listed}");
    }
}

/// `cram --outcome` answers P or N without the value: on Cram boards whose values are
/// published (3×3 … 3×7: 0, 1, 1, 4, 1; 4×5 = 2 and 5×5 = 0, Beling's table), and on Push Cram
/// boards as their values (themselves checked against a brute force above) say; with a
/// checkpoint, the resumed search gives the same answer.
#[test]
fn cram_outcome_alone_agrees_with_the_values() {
    let json = |args: &[&str]| -> serde_json::Value { serde_json::from_str(stdout(args).trim()).unwrap() };
    for (board, g) in [
        ("3x3", 0),
        ("3x4", 1),
        ("3x5", 1),
        ("3x6", 4),
        ("3x7", 1),
        ("4x5", 2),
        ("5x5", 0),
    ] {
        let v = json(&["cram", board, "--outcome", "--json"]);
        assert_eq!(v["outcome"], if g == 0 { "P" } else { "N" }, "cram {board}");
        assert!(v.get("grundy").is_none(), "the value was not asked: {v}");
    }
    for board in ["3x3", "3x5", "2x4", "3x7", "4x4", "3x9"] {
        let full = json(&["cram", board, "--push", "--json"]);
        let only = json(&["cram", board, "--push", "--outcome", "--json"]);
        assert_eq!(only["outcome"], full["outcome"], "push cram {board}");
    }
    let text = stdout(&["cram", "5x5", "--outcome"]);
    assert!(
        text.starts_with("cram on .....") && text.ends_with(": outcome P\n"),
        "{text}"
    );
    let path = checkpoint_path("outcome-4x7");
    let file = path.to_str().unwrap();
    let first = json(&["cram", "4x7", "--outcome", "--json", "--checkpoint", file]);
    let again = nimscope(&["cram", "4x7", "--outcome", "--json", "--checkpoint", file]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("resuming the search saved in"));
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&again.stdout).unwrap(),
        first
    );
    assert_eq!(first["outcome"], "N"); // 4×7 = 3, Beling's table
    let out = nimscope(&["cram", "3x3", "--outcome", "--moves"]);
    assert_eq!(out.status.code(), Some(2), "--outcome and --moves are refused together");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn threads_and_small_budgets_on_the_command_line() {
    for threads in ["1", "2", "3"] {
        let text = stdout(&["--threads", threads, "cram", "5x5"]);
        assert!(text.contains("grundy 0, outcome P"), "{text}");
    }
    // Half of a 1 MiB budget is table enough for small boards.
    let text = stdout(&["--memory-budget", "1M", "cram", "1x2"]);
    assert!(text.contains("grundy 1"), "{text}");
    // The command's table may take half the budget: a budget past what the machine can map
    // is refused in one line (or, where the system maps it lazily, simply used), never an
    // abort.
    let out = nimscope(&["--memory-budget", "100T", "cram", "4x5"]);
    match out.status.code() {
        Some(0) => assert!(String::from_utf8_lossy(&out.stdout).contains("grundy 2")),
        Some(2) => {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.lines().count() == 1 && err.contains("refused"), "{err}");
        }
        other => panic!("{other:?}: {}", String::from_utf8_lossy(&out.stderr)),
    }
    for bad in [
        &["--threads", "0", "cram", "1x2"][..],
        &["--memory-budget", "100K", "cram", "3x3"],
    ] {
        let out = nimscope(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

// ---------------------------------------------------------------------------------------------
// Checkpoints from the command line (`nimscope cram BOARD --checkpoint FILE`); the library's
// tests (interrupted at random points, damaged files) are in `crates/core/src/solver/cram/checkpoint/tests.rs`.

fn checkpoint_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nimscope-cli-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn checkpoint_resumes_with_the_same_answer_and_refuses_other_files() {
    let path = checkpoint_path("4x7");
    let file = path.to_str().unwrap();
    let plain = nimscope(&["cram", "4x7", "--memory-budget", "64M"]);
    assert!(plain.status.success());
    let first = nimscope(&["cram", "4x7", "--memory-budget", "64M", "--checkpoint", file]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(first.stdout, plain.stdout);
    assert!(path.is_file());
    let again = nimscope(&["cram", "4x7", "--memory-budget", "64M", "--checkpoint", file, "--json"]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("resuming the search saved in"));
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["grundy"], 3); // Beling's table

    let refused = |args: &[&str], says: &str| {
        let out = nimscope(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(args[3]) && err.contains(says), "{err}");
    };
    refused(&["cram", "4x6", "--checkpoint", file], "not of cram");
    refused(&["cram", "4x7", "--checkpoint", file, "--push"], "not of push-cram");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    refused(&["cram", "4x7", "--checkpoint", file], "damaged");
    std::fs::write(&path, b"my notes").unwrap();
    refused(&["cram", "4x7", "--checkpoint", file], "not a nimscope Cram checkpoint");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"my notes",
        "a refused file is left alone"
    );
    let dir = path.parent().unwrap().to_str().unwrap();
    refused(&["cram", "4x7", "--checkpoint", dir], "not a regular file");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn ctrl_c_saves_the_search_and_the_same_command_resumes_it() {
    let path = checkpoint_path("5x7");
    let file = path.to_str().unwrap();
    let args = [
        "cram",
        "5x7",
        "--threads",
        "1",
        "--memory-budget",
        "256M",
        "--checkpoint",
        file,
    ];
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        // finished before the signal (a fast machine): nothing to resume, still the answer
        assert!(String::from_utf8_lossy(&out.stdout).contains("grundy 1"));
    } else {
        assert_eq!(out.status.code(), Some(130), "Ctrl+C: 128 + SIGINT");
        assert!(
            err.contains("interrupted (Ctrl+C); the search is saved in") && err.contains(file),
            "{err}"
        );
    }
    let resumed = nimscope(&args);
    assert!(resumed.status.success());
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("resuming"));
    assert!(
        String::from_utf8_lossy(&resumed.stdout)
            .starts_with("cram on ......./......./......./......./.......: grundy 1, outcome N, 58 moves")
    );
    std::fs::remove_file(&path).unwrap();
}
