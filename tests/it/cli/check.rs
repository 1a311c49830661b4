//! `nimscope check` says what it checked: a row whose range holds no case says so instead of
//! PASS and is counted apart, `--upto` bounds the ranges it derives (so `--upto 0` and
//! `--upto 5` differ), the number of cases of a row is the size of its stated range (counted
//! here independently), and a bad `--upto` is refused as a value.

use serde_json::Value;

use crate::common::nimscope;

fn rows(upto: &str) -> Vec<Value> {
    let o = nimscope(&["check", "--upto", upto, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn find<'a>(rows: &'a [Value], source: &str, statement_part: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["source"] == source && r["statement"].as_str().unwrap().contains(statement_part))
        .unwrap_or_else(|| panic!("no row {source} / {statement_part}"))
}

#[test]
fn an_empty_range_is_not_a_pass() {
    let rows = rows("0");
    for r in &rows {
        let result = r["result"].as_str().unwrap_or_else(|| panic!("no result in {r}"));
        let checked = r["checked"].as_u64().unwrap_or_else(|| panic!("no count in {r}"));
        match result {
            "PASS" => assert!(checked > 0, "a PASS with nothing checked: {r}"),
            "FAIL" => assert!(checked > 0 && !r["counterexample"].is_null(), "{r}"),
            "EMPTY" => assert!(checked == 0 && r["counterexample"].is_null(), "{r}"),
            other => panic!("result {other} in {r}"),
        }
    }
    // the rows: Cram on boards of at most 0 cells, Euclid on 0 < a < b < 0
    for r in rows.iter().filter(|r| r["source"].as_str().unwrap().contains("Cram")) {
        assert_eq!(r["result"], "EMPTY", "{r}");
    }
    assert_eq!(find(&rows, "seed 000 Thm 1", "Euclid")["result"], "EMPTY");
    // rows about the papers' own listed examples are checked at any bound
    assert_eq!(find(&rows, "seed 004 Nim table", "")["result"], "PASS");
    assert_eq!(find(&rows, "seed 004 Nim-sum examples", "")["result"], "FAIL");
}

#[test]
fn the_text_table_counts_empty_rows_apart() {
    let o = nimscope(&["check", "--upto", "0"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let json = rows("0");
    let empty = json.iter().filter(|r| r["result"] == "EMPTY").count();
    let pass = json.iter().filter(|r| r["result"] == "PASS").count();
    let fail = json.iter().filter(|r| r["result"] == "FAIL").count();
    assert!(empty > 0);
    let summary = text.lines().last().unwrap();
    assert_eq!(
        summary,
        format!(
            "{} statements: {pass} PASS, {fail} FAIL, {empty} EMPTY (no case in range)",
            json.len()
        )
    );
    let cram = text.lines().find(|l| l.contains("even×even rectangle")).unwrap();
    assert!(!cram.ends_with("PASS") && cram.contains("EMPTY"), "{cram}");
    // --upto 0 and --upto 5 are different tables
    let five = nimscope(&["check", "--upto", "5"]);
    assert_ne!(String::from_utf8(five.stdout).unwrap(), text);
}

#[test]
fn the_counts_are_the_sizes_of_the_stated_ranges() {
    for n in [0u64, 1, 2, 7, 10, 23] {
        let rows = rows(&n.to_string());
        // 0 < a < b < n
        let pairs_below = (1..n).map(|a| (a + 1..n).count() as u64).sum::<u64>();
        let euclid = find(&rows, "seed 000 Thm 1", "Euclid");
        assert_eq!(euclid["checked"], pairs_below, "n = {n}: {euclid}");
        assert!(
            euclid["range"].as_str().unwrap().ends_with(&format!("< {n}")),
            "{euclid}"
        );
        // 1 ≤ a ≤ b < n
        let upper = (1..n).map(|a| (a..n).count() as u64).sum::<u64>();
        let prop = find(&rows, "seed 003 Prop 3.0.3", "grossman:");
        assert_eq!(prop["checked"], upper, "n = {n}: {prop}");
        // every cell of [0, n)²
        let thm = find(&rows, "seed 003 Thm 3.1.6", "euclid0");
        assert_eq!(thm["checked"], n * n, "n = {n}: {thm}");
        // boards of Cram with at most 3n/20 cells, even×even
        let cells = 3 * n / 20;
        let even = (1..=cells)
            .flat_map(|r| (1..=cells).map(move |c| (r, c)))
            .filter(|&(r, c)| r * c <= cells && r % 2 == 0 && c % 2 == 0)
            .count() as u64;
        let cram = find(&rows, "seed 003 §5 (Cram)", "even×even");
        assert_eq!(cram["checked"], even, "n = {n}: {cram}");
        // the listed examples are always there
        assert_eq!(find(&rows, "seed 004 Nim table", "")["checked"], 16);
    }
}

#[test]
fn a_bad_bound_is_an_error_about_the_value() {
    for bad in ["-1", "x", "1e3", "99999999999999999999", ""] {
        let o = nimscope(&["check", "--upto", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("unexpected argument"), "{bad}: {err}");
        assert!(
            err.contains("--upto") && err.contains(&format!("'{bad}'")),
            "{bad}: {err}"
        );
    }
    // a bound past what the checks can hold is one clean refusal, not a crash
    let o = nimscope(&["check", "--upto", "18446744073709551615"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
}
