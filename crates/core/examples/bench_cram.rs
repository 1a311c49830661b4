//! Times the Cram solver, with a fresh table for each board (cap `TT_MB` MiB, default 256) and
//! `THREADS` threads (default: the machine's cores).
//! Usage: `cargo run --release --example bench_cram [BOARD ...]`; without arguments it runs
//! the published table up to 5×7 and 3×15. Push Cram timings: `examples/bench_push.rs`.
//! With `REPORT=1`, times the board editor's report instead (`cram_report_progressive`, the
//! editor's default solvers): when the value is known, when the first placements are, and when
//! the report is complete.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use nimscope_core::game::rules::cram_board::Board;
use nimscope_core::solver::control::Control;
use nimscope_core::solver::cram::CramSolver;
use nimscope_core::solver::cram::progressive::cram_report_progressive;
use nimscope_core::solver::cram::report::{CramPhase, CramSolvers};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let boards: Vec<String> = if args.is_empty() {
        [
            "3x3", "3x4", "3x5", "3x6", "3x7", "3x8", "3x9", "3x10", "4x5", "4x7", "5x5", "5x6", "5x7", "3x15",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    } else {
        args.into_iter().filter(|a| !a.starts_with("push")).collect()
    };
    let mb: u64 = std::env::var("TT_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    // The default budget refuses tables over 4 GiB; a benchmark asking for more means it.
    let control = Control::with_budget(Control::new().memory_budget().max(mb << 20));
    // Progress on stderr every 30 s, for the long boards.
    let watcher = control.clone();
    let _ = std::thread::Builder::new().name("progress".into()).spawn(move || {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(30));
            eprintln!("  ... {} option evaluations so far", watcher.progress().0);
        }
    });
    for text in &boards {
        let board: Board = match text.parse() {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{text}: {e}");
                continue;
            }
        };
        if std::env::var("REPORT").is_ok_and(|v| v == "1") {
            time_report(&board, text, &control);
            continue;
        }
        let mut solver = CramSolver::with_table_bytes(mb << 20);
        if let Some(t) = std::env::var("THREADS").ok().and_then(|v| v.parse().ok()) {
            solver = solver.with_threads(t);
        }
        let start = Instant::now();
        let evaluated_before = control.progress().0;
        let value = solver.value(&board, &control).expect("solve");
        let s = solver.stats();
        println!(
            "cram {text:>6}: value {value:>2}  {:>9.3} s  evaluated {:>11}  expanded {:>10}  hits {:>11}  stored {:>10}",
            start.elapsed().as_secs_f64(),
            control.progress().0 - evaluated_before,
            s.expanded,
            s.table_hits,
            s.table_len
        );
    }
}

/// The editor's report of `board`, value first: the seconds to the value, to the first
/// placements, and to the complete report.
fn time_report(board: &Board, text: &str, control: &Control) {
    let start = Instant::now();
    let (mut value_at, mut first_at) = (None, None);
    let report = cram_report_progressive(board, CramPhase::Cram, &mut CramSolvers::default(), control, |p| {
        value_at.get_or_insert(start.elapsed().as_secs_f64());
        if !p.moves.is_empty() {
            first_at.get_or_insert((start.elapsed().as_secs_f64(), p.moves.len()));
        }
    })
    .expect("solve");
    let total = start.elapsed().as_secs_f64();
    let (first, batch) = first_at.unwrap_or((total, report.moves.len()));
    println!(
        "report {text:>6}: value {:>2} after {:>7.3} s; first {batch} of {} placements after {first:>7.3} s; complete after {total:>8.3} s",
        report.value,
        value_at.unwrap_or(total),
        report.moves_total,
    );
}
