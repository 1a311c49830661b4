//! Prints the seed 003 check rows. Usage: `cargo run --release --example checks [MAX_CELLS]`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use nimscope_core::checks::cram::{check_cram, check_push_cram};
use nimscope_core::solver::control::Control;
use std::time::Instant;

fn main() {
    let max: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(40);
    let control = Control::new();
    let start = Instant::now();
    let mut rows = check_push_cram(max, &control);
    let push_time = start.elapsed().as_secs_f64();
    let start = Instant::now();
    rows.extend(check_cram(max.min(30), &control));
    let cram_time = start.elapsed().as_secs_f64();
    for r in &rows {
        let verdict = match &r.counterexample {
            Some(c) => format!("FAIL: {c}"),
            None => r.result.as_str().to_string(), // PASS, or EMPTY when no board was checked
        };
        println!("{} | {} | {} | {}", r.source, r.statement, r.range, verdict);
    }
    println!("push cram checks: {push_time:.2} s, cram checks: {cram_time:.2} s");
}
