//! Times the window's map fill headless, as the worker runs it: a fresh source filled in
//! stages over the view, each stage pooled into the view's tiles at one level.
//! `map_view RULESET ROWS COLS LEVEL [outcome]`, e.g. `map_view wythoff 0..4096 0..5843 3`;
//! prints the fill alone, the command line's `grid` of the same cells, then the fill with
//! pooling (the window's engine part, without the window); `outcome`: as the window's
//! P-positions colours fill (the outcomes' own closed form where there is one). Each phase
//! prints its wall time and the process's processor time (user + system, every thread): on a
//! shared machine the wall time is mostly waiting, the processor time is the work.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]
use nimscope_core::game::{Layout, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::tiles::{CellRect, Compare, KeyRule, PoolJob, TileKey, TileSource};

fn range(s: &str) -> std::ops::Range<u64> {
    let (a, b) = s.split_once("..").expect("a range A..B");
    a.parse().unwrap()..b.parse().unwrap()
}

/// The process's processor time so far (user + system, every thread), from /proc/self/stat
/// (Linux; zero elsewhere).
fn cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // the fields after the command's closing parenthesis: utime is the 12th, stime the 13th
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, r)| r)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Wall and processor time since `(t, c)`.
fn since((t, c): (std::time::Instant, f64)) -> String {
    format!("{:.3} s (cpu {:.2} s)", t.elapsed().as_secs_f64(), cpu() - c)
}

fn now() -> (std::time::Instant, f64) {
    (std::time::Instant::now(), cpu())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let r: Ruleset = args.get(1).map_or("wythoff", |s| s).parse().unwrap();
    let rows = range(args.get(2).map_or("0..4096", |s| s));
    let cols = range(args.get(3).map_or("0..4096", |s| s));
    let level: u8 = args.get(4).map_or(Ok(3), |s| s.parse()).unwrap();
    let outcomes = args.get(5).is_some_and(|s| s == "outcome");
    let rule = if outcomes { KeyRule::Outcome } else { KeyRule::Value };
    let view = CellRect::new(rows, cols);
    let control = Control::new();
    let t = now();
    let mut stages = 0;
    TileSource::new_for(&r, &Layout::Plain, outcomes)
        .fill(&view, &control, &mut |_, _| {
            stages += 1;
            Ok(())
        })
        .unwrap();
    println!("fill alone: {}, {stages} stages", since(t));
    let t = now();
    nimscope_core::solver::grid::grid(&r, &Layout::Plain, view.rows.clone(), view.cols.clone(), &control).unwrap();
    println!("the command line's fill (grid): {}", since(t));
    let t = now();
    let tiles = TileKey::covering(level, &view, (0.0, 0.0));
    let mut job = PoolJob::new(level, rule, view.clone(), tiles);
    let mut source = TileSource::new_for(&r, &Layout::Plain, outcomes);
    let region = job.region().clone();
    let (mut sent, mut pooling, mut pooling_cpu) = (0, std::time::Duration::ZERO, 0.0);
    source
        .fill(&region, &control, &mut |s, stage| {
            let (p, c) = now();
            sent += job.absorb(s, &Compare::Nothing, stage, &control)?.len();
            pooling += p.elapsed();
            pooling_cpu += cpu() - c;
            Ok(())
        })
        .unwrap();
    println!(
        "fill and pooling at level {level}: {} ({:.3} s, cpu {pooling_cpu:.2} s pooling), {sent} tiles sent",
        since(t),
        pooling.as_secs_f64()
    );
}
