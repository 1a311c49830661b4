//! The command line as scripts see it: output formats, exit statuses, determinism.

use crate::common::nimscope;

use crate::common::stdout;

#[test]
fn value_json_has_grundy_and_outcome() {
    let line = stdout(&["value", "push(nim,euclid0)", "2,4", "--json"]);
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["grundy"], 0);
    assert_eq!(v["outcome"], "P");
    let v: serde_json::Value =
        serde_json::from_str(stdout(&["value", "fibonacci-nim", "20:5", "--json"]).trim()).unwrap();
    assert_eq!(v["position"], "20:5");
}

#[test]
fn moves_mark_the_winning_ones() {
    let text = stdout(&["moves", "euclid", "11,27", "--json"]);
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    // seed 002: from (11,27) the winning move goes to (11,16), ratio below Φ
    let winning: Vec<&str> = lines
        .iter()
        .filter(|l| l["winning"] == true)
        .map(|l| l["to"].as_str().unwrap())
        .collect();
    assert_eq!(winning, ["11,16"]);
    assert!(lines.iter().any(|l| l["move"] == "subtract 2×11 from 27"));
}

#[test]
fn grid_csv_rows_and_empty_cells() {
    assert_eq!(
        stdout(&["grid", "wythoff", "--rows", "0..3", "--cols", "0..4"]),
        "0,1,2,3\n1,2,0,4\n2,0,1,5\n"
    );
    assert_eq!(
        stdout(&["grid", "grossman", "--rows", "0..2", "--cols", "0..3"]),
        ",,\n,0,1\n"
    );
    assert_eq!(
        stdout(&[
            "grid", "zeruclid", "--rows", "0..2", "--cols", "0..3", "--slice", "1,_,_"
        ]),
        "1,0,2\n0,1,3\n"
    );
    let json = stdout(&["grid", "nim", "--rows", "2..3", "--cols", "0..3", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["values"], serde_json::json!([2, 3, 0]));
}

#[test]
fn seq_reports_the_certified_period() {
    let text = stdout(&["seq", "octal(0.07)", "--to", "300"]);
    assert!(
        text.lines().nth(1).unwrap().starts_with("period 34, pre-period 53"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&["seq", "tag(5)", "--to", "20", "--json"]).trim()).unwrap();
    assert_eq!(v["period"], 6);
    assert_eq!(v["values"][6], 0);
}

#[test]
fn bad_input_gets_one_error_line_and_status_2() {
    for args in [
        &["value", "nimm", "3"][..],
        &["value", "nim", "3,x"],
        &["value", "nim", "99999999999999999999"],
        &["value", "grossman", "0,5"],
        &["value", "sub()", "3"],
        &["value", "sub(0,1)", "3"],
        &["value", "wythoff", "1,2,3"],
        &["value", "divisor", "0"],
        &["moves", "push(nim", "3"],
        &["grid", "wythoff", "--rows", "0..100000", "--cols", "0..100000"],
        &["grid", "wythoff", "--rows", "5..2", "--cols", "0..3"],
        &["grid", "euclid3", "--rows", "0..3", "--cols", "0..3", "--slice", "1,_"],
        &["seq", "wythoff", "--to", "5"],
        // (wythoff 5000,5000 now answers its outcome by Wythoff's theorem instead)
        &["value", "--memory-budget", "1K", "zeruclid", "5000,5000"],
        &["seq", "octal(0.07)", "--to", "4294967297"],
        &[
            "moves",
            "euclid",
            "32,4294967295",
            "--limit",
            "100000000",
            "--memory-budget",
            "16M",
        ],
    ] {
        let out = nimscope(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn output_is_deterministic() {
    let args = ["check", "--upto", "40"];
    assert_eq!(stdout(&args), stdout(&args));
    let args = ["grid", "cdn", "--rows", "0..50", "--cols", "0..50"];
    assert_eq!(stdout(&args), stdout(&args));
}

#[test]
fn version_names_the_commit() {
    let text = stdout(&["--version"]);
    let version = format!("nimscope {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(text.starts_with(&version), "{text}");
}

#[test]
fn a_bad_editor_board_is_one_error_line() {
    let out = nimscope(&["--board", "..#/.x."]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "error: board '..#/.x.': row 2, column 2: unexpected 'x' (use '.' for empty, '#' for blocked)"
    );
    let out = nimscope(&["--board", "3x20"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 to 16 rows and columns"));
    // --push needs --board
    assert_eq!(nimscope(&["--push"]).status.code(), Some(2));
}

#[test]
fn positions_parse_what_they_say() {
    // issue 19: trailing or unbalanced characters are errors; one pair around the heaps is fine
    for bad in ["3,4)", "((3,4", "(3,4", "3,(4)", "pushed(3,4))"] {
        let out = nimscope(&["value", "nim", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
    }
    assert!(stdout(&["value", "nim", "(3,4)"]).contains("grundy 7"));
}

#[test]
fn value_json_says_how_the_value_was_found() {
    let json = |args: &[&str]| -> serde_json::Value { serde_json::from_str(stdout(args).trim()).unwrap() };
    let v = json(&["value", "nim", "1000000000000000000,3", "--json"]);
    assert_eq!(v["grundy"], 1_000_000_000_000_000_003u64);
    assert_eq!(v["method"], "closed form");
    let v = json(&["value", "wythoff", "5,9", "--json"]);
    assert_eq!(v["method"], "search");
    // only the outcome is known for a huge Wythoff position off the P-positions
    let v = json(&["value", "wythoff", "1000000000000000000,1000000000000000000", "--json"]);
    assert_eq!(
        (v["grundy"].clone(), v["outcome"].clone()),
        (serde_json::Value::Null, "N".into())
    );
    // a collection of octal heaps is the nim-sum of its heaps' values
    let v = json(&["value", "octal(0.07)", "30,40", "--json"]);
    let g30 = json(&["value", "octal(0.07)", "30", "--json"])["grundy"]
        .as_u64()
        .unwrap();
    let g40 = json(&["value", "octal(0.07)", "40", "--json"])["grundy"]
        .as_u64()
        .unwrap();
    assert_eq!(v["grundy"].as_u64(), Some(g30 ^ g40));
}

#[test]
fn moves_are_paged() {
    let text = stdout(&[
        "moves",
        "nim",
        "1000000000000000000,3",
        "--limit",
        "2",
        "--offset",
        "999999999999999999",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("→ 999999999999999999,3"), "{text}");
    assert!(lines[1].contains("→ 1000000000000000000,0"), "{text}");
    assert_eq!(
        lines[2],
        "options 1000000000000000000–1000000000000000001 of 1000000000000000003; --offset K and --limit N list others"
    );
    // without --limit: everything that fits (here all 35), and no trailer
    let text = stdout(&["moves", "octal(0.07)", "70", "--json"]);
    assert_eq!(text.lines().count(), 35);
    // a huge position without --limit: the first page and the count
    let text = stdout(&["moves", "wythoff", "1000000000000000000,1000000000000000000", "--json"]);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["options"], "3000000000000000000");
    assert_eq!(last["shown"], 1000);
}

#[test]
fn seq_json_reports_the_rare_common_split() {
    let v: serde_json::Value =
        serde_json::from_str(stdout(&["seq", "octal(0.6)", "--to", "3000", "--json"]).trim()).unwrap();
    assert_eq!(v["method"], "rare/common");
    assert_eq!(v["values"].as_array().unwrap().len(), 3000);
    let split = &v["rare_common"][0];
    assert_eq!(split["takes"], "odd");
    let rare: u64 = split["rare"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[2].as_u64().unwrap())
        .sum();
    assert_eq!(rare, split["rare_heaps"].as_u64().unwrap());
    assert_eq!(
        split["rare_heaps"].as_u64().unwrap() + split["common_heaps"].as_u64().unwrap(),
        2999
    );
    let largest = v["largest"].as_array().unwrap();
    let max = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .max();
    assert_eq!(largest[0]["value"].as_u64(), max);
    // hexadecimal codes: a move may leave three heaps
    let text = stdout(&["seq", "octal(0.8)", "--to", "8"]);
    assert!(text.starts_with("0,0,0,0,1,1,1,2\n"), "{text}");
}

#[test]
fn grid_csv_is_the_map() {
    // the fast CSV writer against the JSON rows (which go through the values one by one)
    let csv = stdout(&["grid", "wythoff", "--rows", "3..40", "--cols", "5..33"]);
    let json = stdout(&[
        "grid", "wythoff", "--rows", "3..40", "--cols", "5..33", "--format", "json",
    ]);
    for (c, j) in csv.lines().zip(json.lines()) {
        let v: serde_json::Value = serde_json::from_str(j).unwrap();
        let row: Vec<String> = v["values"].as_array().unwrap().iter().map(|x| x.to_string()).collect();
        assert_eq!(c, row.join(","));
    }
    assert_eq!(csv.lines().count(), 37);
    // values past 2^16 (formatted, not from the table), rows that are not a whole block
    for (rules, rows, cols) in [("nim", "65530..65540", "0..70"), ("grossman", "0..3", "0..4")] {
        let csv = stdout(&["grid", rules, "--rows", rows, "--cols", cols]);
        let json = stdout(&["grid", rules, "--rows", rows, "--cols", cols, "--format", "json"]);
        assert_eq!(csv.lines().count(), json.lines().count());
        for (c, j) in csv.lines().zip(json.lines()) {
            let v: serde_json::Value = serde_json::from_str(j).unwrap();
            let row: Vec<String> = v["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| if x.is_null() { String::new() } else { x.to_string() })
                .collect();
            assert_eq!(c, row.join(","), "{rules}");
        }
    }
}
