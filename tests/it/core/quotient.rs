//! `nimscope quotient` and the misère answers it gives `value` and `moves`, against the plain
//! misère search (the library's, without the quotient) and misère Nim's closed form.

use nimscope_core::game::{Position, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::search::Search;

use crate::common::nimscope;

fn json(args: &[&str]) -> serde_json::Value {
    let out = nimscope(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap()
}

#[test]
fn nims_quotient_is_misere_nims() {
    let q = json(&["quotient", "octal(0.333333333)", "--heaps", "9", "--json"]);
    assert_eq!(q["size"], 18);
    assert_eq!(q["tame"], true);
    assert_eq!(q["first_wild_heap"], serde_json::Value::Null);
    assert_eq!(q["grew_at"], serde_json::json!([1, 2, 4, 8]));
    let relations: Vec<&str> = q["relations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        relations.contains(&"a^2 = 1") && relations.contains(&"d^3 = d"),
        "{relations:?}"
    );
}

#[test]
fn dawsons_kayles_quotient_is_wild_and_deterministic() {
    let args = ["quotient", "misere(octal(0.07))", "--heaps", "14", "--json"];
    let q = json(&args);
    assert_eq!(q["tame"], false);
    assert_eq!(q["heap_elements"].as_array().unwrap().len(), 15);
    assert!(q["first_wild_heap"].as_u64().is_some());
    assert_eq!(json(&args), q);
}

#[test]
fn bad_quotient_requests_are_refused_in_one_line() {
    for args in [
        &["quotient", "nim", "--heaps", "5"][..],
        &["quotient", "octal(0.07)", "--heaps", "5000"],
        &["quotient", "octal(0.07)"],
    ] {
        let out = nimscope(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"), "{args:?}");
    }
}

fn search_outcome(r: &Ruleset, heaps: &[u64]) -> &'static str {
    let g = Search::plain(r.clone())
        .value(&Position::Heaps(heaps.to_vec()), &Control::new())
        .unwrap();
    if g == 0 { "P" } else { "N" }
}

#[test]
fn ten_heaps_by_the_quotient_equal_the_search() {
    for code in ["0.07", "0.77"] {
        let rules = format!("misere(octal({code}))");
        let r: Ruleset = rules.parse().unwrap();
        // past a search of 4 MiB: by the quotient
        for heaps in [[1u64, 2, 3, 4, 5, 6, 7, 8, 9, 10], [2, 3, 4, 5, 5, 6, 6, 7, 8, 9]] {
            let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
            let v = json(&["value", &rules, &text.join(","), "--json"]);
            assert_eq!(v["method"], "misère quotient", "{code} {heaps:?}");
            assert_eq!(v["outcome"], search_outcome(&r, &heaps), "{code} {heaps:?}");
        }
        // within it: searched, the misère Grundy value with the outcome
        let heaps = [1u64, 2, 3, 4, 5, 6, 7];
        let v = json(&["value", &rules, "1,2,3,4,5,6,7", "--json"]);
        assert_eq!(v["method"], "search", "{code}");
        assert_eq!(v["outcome"], search_outcome(&r, &heaps), "{code}");
        assert!(v["grundy"].as_u64().is_some());
    }
}

#[test]
fn winning_moves_by_the_quotient_equal_the_search() {
    let rules = "misere(octal(0.07))";
    let r: Ruleset = rules.parse().unwrap();
    let from = "6,8,10,12,14";
    // large enough for the quotient rather than a small search
    assert_eq!(json(&["value", rules, from, "--json"])["method"], "misère quotient");
    let out = nimscope(&["moves", rules, from, "--json"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut search = Search::plain(r);
    let mut checked = 0;
    for line in text.lines() {
        let o: serde_json::Value = serde_json::from_str(line).unwrap();
        let to: Vec<u64> = o["to"]
            .as_str()
            .unwrap()
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        let g = search.value(&Position::Heaps(to.clone()), &Control::new()).unwrap();
        assert_eq!(o["winning"], g == 0, "{to:?}");
        checked += 1;
    }
    assert!(checked > 10);
}

fn grid_rows(args: &[&str]) -> Vec<Vec<String>> {
    let out = nimscope(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn the_two_heap_map_by_the_quotient_equals_the_searched_map() {
    for (code, rows, cols) in [
        ("0.07", (0u64, 14u64), (0u64, 14u64)),
        ("0.137", (0, 12), (0, 12)),
        // past heap 24, where the old engine stopped, beside small heaps
        ("0.07", (24, 31), (0, 5)),
    ] {
        let rules = format!("misere(octal({code}))");
        let r: Ruleset = rules.parse().unwrap();
        let (rr, cc) = (format!("{}..{}", rows.0, rows.1), format!("{}..{}", cols.0, cols.1));
        let map = grid_rows(&["grid", &rules, "--rows", &rr, "--cols", &cc]);
        assert_eq!(map.len() as u64, rows.1 - rows.0);
        let mut search = Search::plain(r);
        for (i, row) in map.iter().enumerate() {
            let a = rows.0 + i as u64;
            assert_eq!(row.len() as u64, cols.1 - cols.0);
            for (j, cell) in row.iter().enumerate() {
                let b = cols.0 + j as u64;
                let g = search.value(&Position::Heaps(vec![a, b]), &Control::new()).unwrap();
                assert_eq!(cell, if g == 0 { "P" } else { "N" }, "{code}: {{{a}, {b}}}");
            }
        }
    }
    let out = nimscope(&[
        "grid",
        "misere(octal(0.07))",
        "--rows",
        "0..3",
        "--cols",
        "0..3",
        "--format",
        "json",
    ]);
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(first["method"], "misère quotient");
    assert_eq!(first["outcomes"].as_array().unwrap().len(), 3);
}

#[test]
fn dawsons_kayles_quotient_has_siegels_360_elements_at_heap_30() {
    let q = json(&["quotient", "octal(0.07)", "--heaps", "30", "--json"]);
    assert_eq!(q["size"], 360);
    assert_eq!(q["grew_at"], serde_json::json!([2, 4, 10, 14, 25, 27, 30]));
}

/// A collection with a heap past the quotient's reach that a small search answers is searched
/// at once (`value 'misere(octal(0.07))' 40,1` spent 4 s growing the quotient to heap 33 and
/// failing at 34 before the search).
#[test]
fn a_small_search_is_tried_before_the_quotient_grows() {
    let v = json(&["value", "misere(octal(0.07))", "40,1", "--json"]);
    assert_eq!(v["method"], "search");
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    assert_eq!(v["outcome"], search_outcome(&r, &[40, 1]));
}

/// `seq` of a misère octal game past the heaps a small search values: their outcome alone,
/// by the quotient, written `P`/`N` (JSON: `null` values and the outcomes apart), each the
/// outcome `value` gives the heap.
#[test]
fn seq_past_the_small_search_prints_outcomes_by_the_quotient() {
    let text = crate::common::stdout(&["seq", "misere(octal(0.77))", "--to", "47"]);
    let values: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    assert_eq!(values.len(), 47);
    let from = values
        .iter()
        .position(|v| v.parse::<u64>().is_err())
        .expect("outcomes at the end");
    assert!(values[from..].iter().all(|v| *v == "P" || *v == "N"), "{values:?}");
    assert!(text.contains(
        "the outcome alone (P or N; the misère Grundy value unknown), by the misère quotient of octal(0.77)"
    ));
    let j = json(&["seq", "misere(octal(0.77))", "--to", "47", "--json"]);
    assert_eq!(j["outcomes_only"]["from"], from as u64);
    assert_eq!(j["outcomes_only"]["method"], "misère quotient");
    assert_eq!(j["values"][from], serde_json::Value::Null);
    for (i, o) in values[from..].iter().enumerate() {
        let heap = (from + i).to_string();
        let v = json(&["value", "misere(octal(0.77))", &heap, "--json"]);
        assert_eq!(v["outcome"], *o, "heap {heap}");
        assert_eq!(v["method"], "misère quotient", "heap {heap}");
        assert_eq!(v["grundy"], serde_json::Value::Null);
    }
}
