//! Issue 39's findings on typed rules, each run through the binary as the researcher and the
//! attack ran it: signed guards, the built-in twins' periods, the listing of a collection's
//! moves, games that loop and games that grow, the costs refused before they are spent, the
//! rule file that holds nothing, the slice of a rule with a domain, Ctrl+C and SIGTERM inside a
//! long position. None times the command (a hang is caught by the deadline of
//! [`crate::common::patient`]).

#![cfg(target_os = "linux")]

use std::time::Duration;

use crate::common::patient::{answered, refused, spawn, wait};
use crate::common::temp_dir;

#[test]
fn a_guard_below_zero_is_simply_false_or_true() {
    // leave fewer than 4: k > n − 4 was an error at n < 4
    let out = answered(&["seq", "rule(n -> n - k for k in 1..=n if k > n - 4)", "--to", "8"]);
    assert!(out.starts_with("0,1,2,3,4,4,4,4\n"), "{out}");
}

#[test]
fn typed_twins_print_the_builtins_certified_periods() {
    for (typed, builtin, to) in [
        ("rule(n -> n - s for s in {1, 3, 4} if s <= n)", "sub(1,3,4)", "1000000"),
        (
            "rule(n -> [k, n - 2 - k] for k in 0..n - 1 if n >= 2)",
            "octal(0.07)",
            "20000",
        ),
    ] {
        let (t, b) = (
            answered(&["seq", typed, "--to", to]),
            answered(&["seq", builtin, "--to", to]),
        );
        assert_eq!(t, b, "{typed} against {builtin}");
        assert!(t.contains("(certified;"), "{}", &t[t.len() - 100..]);
    }
}

#[test]
fn a_collection_lists_each_move_once_and_the_heap_it_is_in() {
    let kayles = "rule(n -> [k, n - 1 - k] for k in 0..n; [k, n - 2 - k] for k in 0..n - 1 if n >= 2)";
    let typed = answered(&["moves", kayles, "4,7"]);
    let octal = answered(&["moves", "octal(0.77)", "4,7"]);
    assert_eq!(typed.lines().count(), octal.lines().count(), "{typed}");
    assert!(
        typed
            .lines()
            .all(|l| l.starts_with("heap 4: ") || l.starts_with("heap 7: ")),
        "{typed}"
    );
}

#[test]
fn games_that_loop_are_valued_and_games_that_grow_refused() {
    let clock = "rule(x if x < 12 -> (x - s) % 12 for s in {2, 5} if x > 0)";
    let out = answered(&["value", clock, "3"]);
    assert!(out.contains("value ∞, outcome D"), "{out}");
    let out = answered(&["value", clock, "3", "--json"]);
    assert!(
        out.contains("\"outcome\":\"D\"") && out.contains("\"value\":\"∞\""),
        "{out}"
    );
    let out = answered(&["moves", clock, "3"]);
    assert!(out.lines().all(|l| l.ends_with("D  draws")), "{out}");
    let out = answered(&[
        "grid",
        "rule((a, b) -> (b, a))",
        "--rows",
        "0..2",
        "--cols",
        "0..2",
        "--outcome",
    ]);
    assert_eq!(out, "D,D\nD,D\n");
    for (rule, position) in [
        ("rule(n -> n + 1)", "3"),
        ("rule((a, b) -> (a, b + 1) if a == 0; (a - 1, b) if a >= 1)", "3,5"),
    ] {
        let err = refused(&["value", rule, position]);
        assert!(err.contains("not a finite game: it grows without bound"), "{err}");
    }
}

#[test]
fn costs_are_refused_before_they_are_spent() {
    for (args, says) in [
        (
            vec![
                "moves",
                "rule((a, b) -> (a - k, b - l) for k in 0..=a for l in 0..=b if k + l >= 1)",
                "18446744073709551615,18446744073709551615",
                "--memory-budget",
                "64M",
            ],
            "would run at least",
        ),
        (
            vec!["value", "rule(n -> n - k for k in 1..=n if n % k == 0)", "4294967296"],
            "no certified period",
        ),
        (
            vec!["value", "rule(n -> n - k*k for k in 1..=isqrt(n))", "4294967296"],
            "no certified period",
        ),
        (
            // split into two heaps, with a guard that is not affine so the rule stays the
            // interpreter's (`rule(n -> [k, n - k] for k in 1..n)` is the code 4.0, computed by
            // the octal engine at once)
            vec!["value", "rule(n -> [k, n - k] for k in 1..n if k*k > 0)", "16777218"],
            "loop steps",
        ),
        (
            vec!["moves", "rule(n -> n - k for k in 1..=n)", "100000000"],
            "at least 1.0e8 options",
        ),
        (
            vec!["value", "rule(n -> 0 for k in 0..n if k * k == n + 1)", "1000000000000"],
            "no certified period",
        ),
        (
            // 10^8 steps at each of the 10^6 positions the search must meet
            vec![
                "value",
                "rule((a, b) -> (a - 1, b) if a >= 1; (0, b) for k in 0..100000000 if k * k == 2)",
                "1000000,3",
            ],
            "would run at least",
        ),
        (
            vec![
                "seq",
                "rule(n -> 0 for i in 0..n for j in 0..n for k in 0..n if i * j + k * k == n)",
                "--to",
                "2000",
            ],
            "would run at least",
        ),
    ] {
        let err = refused(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `moves` refuses a range past the loop steps' cap for its steps, as `value` does, not for the
/// options it would make (both caps passed: the steps are what the loop meets first); a range
/// past the options' cap alone is refused for its options.
#[test]
fn moves_names_the_loop_steps_when_a_range_passes_their_cap() {
    // 2^27 + 1 values (the steps' cap is 2^27), each the same option
    let rule = "rule(n -> n - 1 for k in 1..=134217729)";
    for command in ["moves", "value"] {
        let err = refused(&[command, rule, "5"]);
        assert!(err.contains("would run at least 1.3e8 loop steps"), "{command}: {err}");
        assert!(!err.contains("options"), "{command}: {err}");
    }
    // 10^12 values at heap 10^12: past both caps
    let err = refused(&["moves", "rule(n -> n - k for k in 1..=n)", "1000000000000"]);
    assert!(err.contains("would run at least 1.0e12 loop steps"), "{err}");
    // 10^8 values: within the steps' cap, past the options'
    let err = refused(&["moves", "rule(n -> n - k for k in 1..=n)", "100000000"]);
    assert!(err.contains("at least 1.0e8 options, too many to list"), "{err}");
}

#[test]
fn a_rule_file_with_no_rule_says_so_and_a_byte_order_mark_is_skipped() {
    let dir = temp_dir("typed-rule-files");
    for (name, text) in [("empty.rule", ""), ("comments.rule", "# nothing here\n  # nor here\n")] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = refused(&["seq", "--rule-file", path.to_str().unwrap(), "--to", "5"]);
        assert!(err.contains("holds no rule"), "{err}");
    }
    let path = dir.join("bom.rule");
    std::fs::write(&path, "\u{feff}rule(n -> n - 1 if n >= 1)  # one at a time\n").unwrap();
    let out = answered(&["seq", "--rule-file", path.to_str().unwrap(), "--to", "5"]);
    assert!(out.starts_with("0,1,0,1,0\n"), "{out}");
}

#[test]
fn a_slice_of_a_rule_with_a_domain_is_drawn() {
    // (0, 1, 1) is not a position of this rule, which once refused the whole slice
    let rule = "rule((a, b, c) if b >= 2 or c >= 2 -> (a, b, c - 1) if c >= 3)";
    let out = answered(&["grid", rule, "--rows", "0..3", "--cols", "0..3", "--slice", "0,_,_"]);
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.starts_with(",,0\n"), "{out}");
    let err = refused(&["grid", rule, "--rows", "0..3", "--cols", "0..3", "--slice", "0,_"]);
    assert!(err.contains("slice"), "{err}");
}

#[test]
fn a_long_position_stops_on_ctrl_c_and_sigterm() {
    // each position runs 10^8 loop steps for one option
    let rule = "rule((a, b) -> (a - 1, b) for k in 0..100000000 if k * k == 0 and a >= 1)";
    for (signal, status, says) in [
        (libc::SIGINT, 130, "interrupted (Ctrl+C)"),
        (libc::SIGTERM, 143, "terminated (SIGTERM)"),
    ] {
        let args = ["value", rule, "1000,3"];
        let child = spawn(&args);
        std::thread::sleep(Duration::from_millis(1500));
        // SAFETY: kill(2) on the child this test started and has not reaped
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let o = wait(child, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(status), "{err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn the_examples_hold_a_game_that_loops_and_one_on_four_heaps() {
    let out = answered(&["rules", "--examples", "--json"]);
    for name in [
        "clock",
        "nim-shift",
        "moore3",
        "welter",
        "nim-pass",
        "ruler",
        "subtract-prime",
    ] {
        assert!(out.contains(&format!("\"name\":\"{name}\"")), "{name}");
    }
    let reference = answered(&["rules"]);
    assert!(
        reference.contains("primes(N)") && reference.contains("infinity(A)"),
        "{reference}"
    );
}
