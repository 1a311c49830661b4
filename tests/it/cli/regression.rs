//! The command line's history: each finding of a bug report or an attack run through the binary
//! as it was found (issue 29's attack: the panic, the links a checkpoint must follow, the FIFOs
//! and endless devices given as files, the refusals known from the input's size, the closed
//! forms, Ctrl+C, the argument error's escaped newline and the silent JSON). Each says what it
//! expects of the output; none times the command (a hang is caught by the deadline of
//! [`crate::common::patient`]). A new finding goes here; a new behaviour goes in the file of
//! its command.

#![cfg(target_os = "linux")]

use std::time::Duration;

use crate::common::patient::{answered, refused, run, spawn, wait};
use crate::common::{example, mkfifo, temp_dir};

fn session() -> String {
    example("euclid-winning-pairs.ron").to_string_lossy().into_owned()
}

#[test]
fn a_misere_sum_is_searched_not_a_panic() {
    // misère Nim on two heaps: the nim-sum, flipped when no heap exceeds 1
    let csv = answered(&["grid", "misere(sum(nim,nim))", "--rows", "0..4", "--cols", "0..4"]);
    let want: Vec<String> = (0..4u32)
        .map(|a| {
            (0..4u32)
                .map(|b| if a.max(b) <= 1 { a ^ b ^ 1 } else { a ^ b }.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    assert_eq!(csv.lines().collect::<Vec<_>>(), want);
}

#[test]
fn a_checkpoint_behind_a_link_is_written_where_the_link_leads() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("link");
    let far = dir.join("larger-disk");
    std::fs::create_dir(&far).unwrap();
    let link = dir.join("ck.bin");
    std::os::unix::fs::symlink(far.join("ck.bin"), &link).unwrap();
    let ck = link.to_str().unwrap();
    let first = answered(&["cram", "4x5", "--checkpoint", ck]);
    assert!(
        std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
        "the link was replaced"
    );
    assert!(std::fs::metadata(far.join("ck.bin")).unwrap().is_file());
    std::fs::set_permissions(far.join("ck.bin"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = run(&["cram", "4x5", "--checkpoint", ck]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("resuming"));
    assert_eq!(String::from_utf8_lossy(&o.stdout), first);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(
        std::fs::metadata(far.join("ck.bin")).unwrap().permissions().mode() & 0o777,
        0o640,
        "the target's mode is kept"
    );
    let mut names: Vec<_> = std::fs::read_dir(&far)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["ck.bin"], "nothing left beside the target");
}

#[test]
fn fifos_and_endless_devices_are_refused_before_they_are_read() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    let out = dir.join("out.png");
    let o = out.to_str().unwrap();
    // nothing writes to the FIFO: an open would block forever
    assert!(refused(&["cram", "4x5", "--checkpoint", f]).contains("FIFO"));
    assert!(refused(&["export", f, "-o", o]).contains("FIFO"));
    for endless in ["/dev/urandom", "/dev/zero"] {
        assert!(refused(&["export", endless, "-o", o]).contains("not a regular file"));
    }
    // a file larger than any session, refused by its size (sparse: it takes no disk)
    let huge = dir.join("huge.ron");
    std::fs::File::create(&huge).unwrap().set_len(1 << 40).unwrap();
    assert!(refused(&["export", huge.to_str().unwrap(), "-o", o]).contains("larger than a session can be"));
    assert!(!out.exists());
}

#[test]
fn refusals_known_from_the_size_come_first_and_say_what_to_change() {
    let e = refused(&["value", "misere(wythoff)", "5000,7000", "--memory-budget", "16M"]);
    assert!(
        e.contains("'5000,7000'") && e.contains("35012001 positions") && e.contains("16.0 MiB"),
        "{e}"
    );
    let e = refused(&["seq", "misere(octal(0.6))", "--to", "100"]);
    assert!(e.contains("up to heap 99") && e.contains("heaps up to"), "{e}");
    let e = refused(&["value", "misere(octal(0.07))", "1000000000000000000"]);
    assert!(
        e.contains("heap 1000000000000000000") && e.contains("heaps up to"),
        "{e}"
    );
    // no period in reach and no room for 10^18 values: the search for a period is bounded by
    // its work, not by 2^20 values (seconds for 0.6, half a minute for 0.064)
    for code in ["octal(0.6)", "octal(0.064)", "octal(0.007)"] {
        let e = refused(&["value", code, "3,1000000000000000000"]);
        assert!(
            e.contains("heap 1000000000000000000") && e.contains("the search for a period stops"),
            "{e}"
        );
    }
}

#[test]
fn the_bounded_search_for_a_period_still_finds_the_longest_ones() {
    // octal(0.16): period 149459 (Gangolli and Plambeck, 1989), found within the bound
    let v: serde_json::Value =
        serde_json::from_str(&answered(&["value", "octal(0.16)", "1000000000000000000", "--json"])).unwrap();
    let (pre, period) = (105_351u64, 149_459u64);
    let same = pre + (1_000_000_000_000_000_000 - pre) % period;
    let seq = answered(&["seq", "octal(0.16)", "--to", &(same + 1).to_string()]);
    let direct: u64 = seq.lines().next().unwrap().rsplit(',').next().unwrap().parse().unwrap();
    assert_eq!(v["grundy"].as_u64(), Some(direct), "{v}");
    assert_eq!(v["method"].as_str(), Some("closed form"), "{v}");
}

#[test]
fn closed_forms_answer_at_any_size() {
    assert!(answered(&["value", "misere(nim)", "4294967296"]).contains("grundy 4294967296, outcome N"));
    let v: serde_json::Value = serde_json::from_str(&answered(&["value", "misere(nim)", "1,1,1", "--json"])).unwrap();
    assert_eq!(
        (v["grundy"].as_u64(), v["method"].as_str()),
        (Some(0), Some("closed form"))
    );
    let seq = answered(&["seq", "misere(nim)", "--to", "1000000"]);
    let first = seq.lines().next().unwrap();
    assert!(
        first.starts_with("1,0,2,3,4,") && first.ends_with(",999999"),
        "{}",
        &first[..40]
    );
}

#[test]
fn argument_errors_hold_no_escaped_newline() {
    let e = refused(&["export", &session(), "-o", "x.jpg", "--format", "jpg"]);
    assert!(!e.contains("\\n"), "{e}");
    assert!(e.contains("[possible values: png, svg]"), "{e}");
}

#[test]
fn json_states_a_terminal_position() {
    let line = answered(&["moves", "tag(3)", "0", "--json"]);
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["terminal"], true);
    assert_eq!(v["options"], "0");
}

#[test]
fn ctrl_c_stops_a_long_command_cleanly() {
    let args = ["check", "--upto", "1000"];
    let child = spawn(&args);
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: kill(2) on the child this test started
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    // a child that ignored the signal runs past the patience of wait
    let o = wait(child, &args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert_eq!(err, "error: interrupted (Ctrl+C); nothing was saved\n");
    assert!(o.stdout.is_empty(), "no partial table");
}

#[test]
fn a_symmetric_boards_moves_are_answered_by_the_mirror() {
    // 2x64: 190 moves, each an N-position, at once
    let text = answered(&["cram", "2x64", "--moves", "--json"]);
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["moves"], 190);
    assert_eq!(lines.len(), 1 + 190);
    assert!(lines[1..].iter().all(|o| o["outcome"] == "N" && o["grundy"].is_null()));
    // the strategy's claim against the solver on a board it searches quickly
    let text = answered(&["cram", "2x18", "--moves", "--json"]);
    for o in text.lines().skip(1).step_by(5) {
        let o: serde_json::Value = serde_json::from_str(o).unwrap();
        assert_eq!(o["outcome"], "N");
        let board = o["to"].as_str().unwrap();
        let v: serde_json::Value = serde_json::from_str(&answered(&["cram", board, "--outcome", "--json"])).unwrap();
        assert_eq!(v["outcome"], "N", "{board}");
    }
}

#[test]
fn push_cram_is_not_transposed() {
    // Transposing a board swaps the vertical dominoes before the push with the horizontal ones
    // after it: another game. So 64x2 is not answered as 2x64 is (the solver keys Push Cram
    // only under the symmetries that keep rows as rows), and small boards show why.
    let grundy = |board: &str| -> u64 {
        let v: serde_json::Value =
            serde_json::from_str(answered(&["cram", board, "--push", "--json"]).lines().next().unwrap()).unwrap();
        v["grundy"].as_u64().unwrap()
    };
    assert_eq!((grundy("2x3"), grundy("3x2")), (2, 0));
    assert_eq!((grundy("3x4"), grundy("4x3")), (0, 3));
    // plain Cram is symmetric under transposition
    assert_eq!(
        answered(&["cram", "3x5"]).split(':').nth(1),
        answered(&["cram", "5x3"]).split(':').nth(1)
    );
}
