//! Cancel from the window's status bar, measured: the process's resident memory while an
//! inspector job runs, and after `Worker::cancel_and_free` (what the status bar's Cancel calls).
//!
//!     cargo run --release --example cancel_frees
//!
//! Three jobs on the inspector's lane: a finished Wythoff map (its cache freed with no job
//! running), a big octal sum (0.6, a heap near 10^6) cancelled while it computes, and the
//! search of a misère Nim position cancelled while its memo grows. Linux only (reads
//! /proc/self/status).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use std::time::{Duration, Instant};

use nimscope::worker::{JobSpec, Lane, Worker, no_wake};
use nimscope_core::game::Ruleset;

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::NAN);
    kb / 1024.0
}

fn job(rules: &str, position: &str) -> JobSpec {
    let ruleset: Ruleset = rules.parse().unwrap();
    let position = ruleset.parse_position(position).unwrap();
    JobSpec::Position {
        ruleset,
        position,
        limit: 8,
    }
}

/// Polls until the lane's caches are empty; the time it took.
fn until_freed(w: &Worker) -> Duration {
    let start = Instant::now();
    while w.cached_bytes(Lane::Inspector) > 0 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(1));
    }
    start.elapsed()
}

fn main() {
    let mut w = Worker::new(no_wake(), 4 << 30);
    println!("start: {:.0} MB resident", rss_mb());

    w.submit(Lane::Inspector, job("wythoff", "8000,7999"));
    while w.is_running(Lane::Inspector) {
        w.drain(Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(10));
    }
    println!(
        "wythoff 8000,7999 answered: {:.0} MB resident, the lane holds {:.0} MB",
        rss_mb(),
        w.cached_bytes(Lane::Inspector) as f64 / 1048576.0
    );
    w.cancel_and_free(Lane::Inspector);
    let t = until_freed(&w);
    std::thread::sleep(Duration::from_millis(50));
    println!("freed in {t:?}: {:.0} MB resident", rss_mb());

    for (rules, position, run) in [("octal(0.6)", "1000000,1", 3.0), ("misere(nim)", "60,70,80,90", 20.0)] {
        w.submit(Lane::Inspector, job(rules, position));
        std::thread::sleep(Duration::from_secs_f64(run));
        let during = rss_mb();
        let cancelled = Instant::now();
        w.cancel_and_free(Lane::Inspector);
        // the lane answers the next job once the cancelled one has stopped
        w.submit(Lane::Inspector, job("nim", "1,2"));
        while w.drain(Duration::from_millis(1)).is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let stopped = cancelled.elapsed();
        std::thread::sleep(Duration::from_millis(50));
        println!(
            "{rules} at {position}, cancelled after {run} s at {during:.0} MB resident: stopped in {stopped:?}, {:.0} MB resident after, the lane holds {} bytes",
            rss_mb(),
            w.cached_bytes(Lane::Inspector)
        );
    }
}
