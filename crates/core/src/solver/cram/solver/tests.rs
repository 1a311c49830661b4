//! Tests of the Cram solver against brute force and the symmetries of the square.

use super::super::keys::component_key;
use super::Board;
use crate::solver::Control;
use crate::solver::cram::CramSolver;

/// The 8 images of a board under the symmetries of the square, cell by cell.
fn images(b: &Board) -> Vec<Board> {
    let (h, w) = (b.rows(), b.cols());
    let mut out = Vec::new();
    for t in 0..8 {
        let (nh, nw) = if t >= 4 { (w, h) } else { (h, w) };
        let mut mask = 0u128;
        for r in 0..h {
            for c in 0..w {
                if b.is_empty(r, c) {
                    let (mut rr, mut cc) = if t >= 4 { (c, r) } else { (r, c) };
                    if t & 1 == 1 {
                        cc = nw - 1 - cc;
                    }
                    if t & 2 == 2 {
                        rr = nh - 1 - rr;
                    }
                    mask |= 1u128 << (rr * nw + cc);
                }
            }
        }
        out.push(Board::from_mask(nh, nw, mask).unwrap());
    }
    out
}

#[test]
fn keys_are_symmetry_invariant() {
    for text in [
        "#.../#.##/#.##",
        "#.../..../.#../####",
        "1x7",
        "##.../....#",
        "..#/.../#..",
        "2x5",
    ] {
        let b: Board = text.parse().unwrap();
        let key = component_key::<u128>(b.empty_mask(), b.cols());
        for img in images(&b) {
            assert_eq!(
                component_key::<u128>(img.empty_mask(), img.cols()),
                key,
                "{text} -> {img}"
            );
        }
    }
    // Different shapes get different keys.
    let k = |t: &str| {
        let b: Board = t.parse().unwrap();
        component_key::<u128>(b.empty_mask(), b.cols())
    };
    assert_ne!(k(".../..#"), k("..../...#"));
    assert_eq!(k("#..../#####"), k("#/./././."));
}

#[test]
fn small_values() {
    let mut s = CramSolver::with_table_bytes(1 << 20);
    let c = Control::new();
    let v = |s: &mut CramSolver, t: &str| s.value(&t.parse().unwrap(), &c).unwrap();
    assert_eq!(v(&mut s, "1x1"), 0);
    assert_eq!(v(&mut s, "1x2"), 1);
    assert_eq!(v(&mut s, "1x4"), 2);
    assert_eq!(v(&mut s, "2x2"), 0);
    assert_eq!(v(&mut s, "2x3"), 1);
    assert_eq!(v(&mut s, "#"), 0);
    assert_eq!(v(&mut s, "1x128"), v(&mut s, "128x1"));
    // A bridge goes: the path of 5 cells is two dominoes (0.07: G(5) = 0).
    assert_eq!(v(&mut s, "...../#####"), 0);
    assert_eq!(v(&mut s, "....#/#####"), 2);
    // A closed 2×2 block whose horizontal edges go, then a star (value 0 by the brute force
    // of crates/core/tests/it/cram_solver/; splitting again with stale block edges once gave 2).
    assert_eq!(v(&mut s, "#.#/.../..#"), 0);
}

/// The value of a board by the plain mex over its options, memoised on the empty cells and
/// the width.
fn brute(b: &Board, memo: &mut std::collections::HashMap<(u128, usize), u32>) -> u32 {
    if let Some(&v) = memo.get(&(b.empty_mask(), b.cols())) {
        return v;
    }
    let mut seen = 0u128;
    for d in b.legal_moves() {
        seen |= 1 << brute(&b.place(d).unwrap(), memo);
    }
    let v = seen.trailing_ones();
    memo.insert((b.empty_mask(), b.cols()), v);
    v
}

#[test]
fn bluffs_match_brute_force() {
    let control = Control::new();
    // Rectangles, and boards with blocked cells picked by a fixed generator.
    let mut boards: Vec<Board> = ["1x2", "1x3", "2x3", "3x3", "2x5", "3x4", "4x4", "3x5", "4x5"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for (h, w) in [(3, 4), (4, 4), (3, 5), (4, 5)] {
        for _ in 0..40 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // About three cells in four empty.
            let mask = (seed | seed >> 23) as u128 & ((1u128 << (h * w)) - 1);
            boards.push(Board::from_mask(h, w, mask).unwrap());
        }
    }
    let mut memo = std::collections::HashMap::new();
    let (mut bluffs, mut resumed) = (0, 0);
    for b in &boards {
        let moves = b.legal_moves();
        let expected = !moves.is_empty() && moves.iter().all(|&d| brute(&b.place(d).unwrap(), &mut memo) == 0);
        bluffs += expected as u32;
        let mut s = CramSolver::with_table_bytes(1 << 20).with_threads(1);
        assert_eq!(s.is_bluff(b, &control).unwrap(), expected, "{b}");
        let value = brute(b, &mut memo);
        assert_eq!(s.is_bluff_of_value(b, value, &control).unwrap(), expected, "{b}");
        // Rounds of one position each, from a fresh table: searches are stopped and resumed
        // many times. The P-positions among the options are all searched to the end.
        let (ps, ns): (Vec<Board>, Vec<Board>) = moves
            .iter()
            .map(|&d| b.place(d).unwrap())
            .partition(|o| brute(o, &mut memo) == 0);
        let mut s = CramSolver::with_table_bytes(1 << 20).with_threads(1);
        s.begin(&control).unwrap();
        let count = ps.len() as u64;
        assert!(!s.first_n_option(ps, 1, &control).unwrap(), "{b}");
        resumed += (s.expanded > count) as u32;
        assert_eq!(
            s.first_n_option(ns.clone(), 1, &control).unwrap(),
            !ns.is_empty(),
            "{b}"
        );
    }
    assert!(bluffs >= 3, "the boards hold bluffs ({bluffs})");
    assert!(resumed >= 10, "budgets stopped searches ({resumed})");
}

#[test]
fn value_in_set_answers_the_question_asked() {
    // Boards of 4×4 and 3×5 with pseudo-random blocked cells, asked random sets, on one solver
    // (facts of earlier questions in its table) and on fresh ones.
    let mut memo = std::collections::HashMap::new();
    let mut shared = CramSolver::with_table_bytes(1 << 20).with_threads(1);
    let c = Control::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut answered = [0usize; 2];
    for i in 0..300 {
        let (rows, cols) = if i % 2 == 0 { (4, 4) } else { (3, 5) };
        let blocked = next() as u128 & next() as u128 & crate::game::rules::cram_board::low_bits(rows * cols);
        let b = Board::from_mask(
            rows,
            cols,
            !blocked & crate::game::rules::cram_board::low_bits(rows * cols),
        )
        .unwrap();
        let want = brute(&b, &mut memo);
        let set = (next() as u128 & 0b1111) | if i % 5 == 0 { 1 } else { 0 };
        if set == 0 {
            continue;
        }
        for solver in [&mut shared, &mut CramSolver::with_table_bytes(1 << 20).with_threads(1)] {
            match solver.value_in_set(&b, set, &c).unwrap() {
                Some(v) => {
                    assert_eq!(v, want, "{b} asked {set:#b}");
                    answered[0] += 1;
                }
                None => {
                    assert!(
                        set >> want & 1 == 0,
                        "{b} (value {want}) asked {set:#b}: said not in it"
                    );
                    answered[1] += 1;
                }
            }
        }
    }
    assert!(answered[0] > 50 && answered[1] > 50, "{answered:?}");
}
