//! Maps far from the origin and answers by their fastest method, as the command line gives
//! them (issue 28): a rectangle at 10¹² from the closed form, its figure, and Wythoff's
//! (8000, 9000) from its map.

use crate::common::stdout;

/// Each cell of the grid at 10¹² is the value `value` gives for it (a closed form there too,
/// computed by the theory's reference implementation), and Euclid's P-positions are where
/// b/a < φ (seed 002).
#[test]
fn a_grid_at_ten_to_the_twelve_answers_cell_by_cell() {
    let (a0, b0) = (1_000_000_000_000u64, 1_618_033_988_740u64);
    for rules in ["euclid", "m-euclid", "nim", "cdn"] {
        let rows = format!("{a0}..{}", a0 + 3);
        let cols = format!("{b0}..{}", b0 + 12);
        let text = stdout(&["grid", rules, "--rows", &rows, "--cols", &cols]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{rules}");
        for (i, line) in lines.iter().enumerate() {
            let values: Vec<u64> = line.split(',').map(|v| v.parse().unwrap()).collect();
            assert_eq!(values.len(), 12);
            for (j, v) in values.iter().enumerate() {
                let (a, b) = (a0 + i as u64, b0 + j as u64);
                if j % 4 == 0 {
                    let one = stdout(&["value", rules, &format!("{a},{b}"), "--json"]);
                    let json: serde_json::Value = serde_json::from_str(one.trim()).unwrap();
                    assert_eq!(json["grundy"], *v, "{rules} at ({a},{b})");
                }
                if rules == "euclid" {
                    let below_phi = nimscope_core::game::theory::cmp_ratio_with_phi(a, b) == std::cmp::Ordering::Less;
                    assert_eq!(*v == 0, below_phi, "euclid at ({a},{b})");
                }
            }
        }
    }
}

/// `value wythoff 8000,9000` is exact: read off the filled map, equal to the value the map's
/// own cell gives with `grid`.
#[test]
fn wythoff_far_cells_are_read_off_the_map() {
    let json: serde_json::Value =
        serde_json::from_str(stdout(&["value", "wythoff", "8000,9000", "--json"]).trim()).unwrap();
    assert_eq!(json["by"], "a filled map of the positions below");
    let g = json["grundy"].as_u64().expect("the value, not only the outcome");
    let cell = stdout(&["grid", "wythoff", "--rows", "8000..8001", "--cols", "9000..9001"]);
    assert_eq!(cell.trim().parse::<u64>().unwrap(), g);
}

/// `grid --outcome`: Wythoff's outcomes anywhere, 0 exactly at the pairs (⌊nφ⌋, ⌊nφ⌋ + n) and
/// their mirror images, and near the origin the zeros of the filled map's values.
#[test]
fn wythoff_outcomes_anywhere() {
    let near = stdout(&["grid", "wythoff", "--rows", "0..40", "--cols", "0..50"]);
    let near_p = stdout(&["grid", "wythoff", "--outcome", "--rows", "0..40", "--cols", "0..50"]);
    for (values, outcomes) in near.lines().zip(near_p.lines()) {
        for (v, o) in values.split(',').zip(outcomes.split(',')) {
            assert_eq!(o, if v == "0" { "0" } else { "1" });
        }
    }
    for n in [618_033_988_749u64, 1_000_000_000_000_000_000] {
        let (a, b) = nimscope_core::game::theory::wythoff_pair(n);
        let (r0, c0) = (b - 5, a - 7);
        let rows = format!("{r0}..{}", r0 + 10);
        let cols = format!("{c0}..{}", c0 + 14);
        let text = stdout(&["grid", "wythoff", "--outcome", "--rows", &rows, "--cols", &cols]);
        let mut zeros = 0;
        for (i, line) in text.lines().enumerate() {
            for (j, o) in line.split(',').enumerate() {
                let (x, y) = (r0 + i as u64, c0 + j as u64);
                // the defining inequality of ⌊nφ⌋ for the smaller heap (no square root)
                let (lo, hi) = (i128::from(x.min(y)), i128::from(x.max(y)));
                let d = hi - lo;
                let p = lo * lo - lo * d - d * d < 0 && (lo + 1) * (lo + 1) - (lo + 1) * d - d * d > 0;
                assert_eq!(o, if p { "0" } else { "1" }, "({x},{y})");
                zeros += u32::from(p);
            }
        }
        assert!(zeros >= 3, "{zeros} P-positions around ({b},{a})");
    }
}
