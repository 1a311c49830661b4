//! Times Push Cram on 3×(2k+1) and prints, per board, the outcome, the post-push value, for
//! k <= BLUFF_MAX_K the Grundy value and the moves that lose, and for larger k up to
//! DOMINOES_MAX_K whether every vertical domino wins (the bluff part of seed 003's Conjecture
//! 5.0.3 read without the push; stops at the first losing domino). Usage:
//! `cargo run --release --example bench_push [MAX_K] [BLUFF_MAX_K] [DOMINOES_MAX_K]`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use nimscope_core::game::rules::cram_board::Board;
use nimscope_core::solver::control::Control;
use nimscope_core::solver::cram::push::{PushCramSolver, post_push_value};
use std::time::Instant;

fn main() {
    let max_k: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(12);
    let bluff_k: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(6);
    let dominoes_k: usize = std::env::args().nth(3).and_then(|a| a.parse().ok()).unwrap_or(0);
    let control = Control::new();
    let mut solver = PushCramSolver::with_table_bytes(1 << 30);
    let total = Instant::now();
    for k in 0..=max_k {
        let board = Board::rectangle(3, 2 * k + 1).expect("size");
        let start = Instant::now();
        let outcome = solver.outcome(&board, &control).expect("solve");
        let t = start.elapsed().as_secs_f64();
        print!(
            "push 3x{:<2}: outcome {outcome}  post {}  {t:>8.3} s  (cumulative {:.3} s, expanded {}, stored {})",
            2 * k + 1,
            post_push_value(&board),
            total.elapsed().as_secs_f64(),
            solver.expanded(),
            solver.table_len()
        );
        if k <= bluff_k {
            let start = Instant::now();
            let value = solver.value(&board, &control).expect("solve");
            print!("  value {value} ({:.3} s)", start.elapsed().as_secs_f64());
            let moves = solver.move_outcomes(&board, &control).expect("solve");
            let losing: Vec<String> = moves.iter().filter(|m| !m.1).map(|m| m.0.to_string()).collect();
            print!("  losing moves: [{}]", losing.join(" "));
        } else if k <= dominoes_k {
            let start = Instant::now();
            match solver.losing_vertical_move(&board, &control).expect("solve") {
                None => print!("  every vertical domino wins"),
                Some(d) => print!("  vertical domino {d} loses"),
            }
            print!(" ({:.3} s)", start.elapsed().as_secs_f64());
        }
        println!();
    }
}
