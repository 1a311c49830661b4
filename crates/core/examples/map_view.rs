//! Times the window's map fill headless, as the worker runs it: a fresh source filled in
//! stages over the view, each stage pooled into the view's tiles at one level.
//! `map_view RULESET ROWS COLS LEVEL [outcome]`, e.g. `map_view wythoff 0..4096 0..5843 3`;
//! prints the fill alone, the command line's `grid` of the same cells, then the fill with
//! pooling (the window's engine part, without the window); `outcome`: as the window's
//! P-positions colours fill (the outcomes' own closed form where there is one).
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
    let t = std::time::Instant::now();
    let mut stages = 0;
    TileSource::new_for(&r, &Layout::Plain, outcomes)
        .fill(&view, &control, &mut |_, _| {
            stages += 1;
            Ok(())
        })
        .unwrap();
    println!("fill alone: {:.3} s, {stages} stages", t.elapsed().as_secs_f64());
    let t = std::time::Instant::now();
    nimscope_core::solver::grid::grid(&r, &Layout::Plain, view.rows.clone(), view.cols.clone(), &control).unwrap();
    println!("the command line's fill (grid): {:.3} s", t.elapsed().as_secs_f64());
    let t = std::time::Instant::now();
    let tiles = TileKey::covering(level, &view, (0.0, 0.0));
    let mut job = PoolJob::new(level, rule, view.clone(), tiles);
    let mut source = TileSource::new_for(&r, &Layout::Plain, outcomes);
    let region = job.region().clone();
    let (mut sent, mut pooling) = (0, std::time::Duration::ZERO);
    source
        .fill(&region, &control, &mut |s, stage| {
            let p = std::time::Instant::now();
            sent += job.absorb(s, &Compare::Nothing, stage, &control)?.len();
            pooling += p.elapsed();
            Ok(())
        })
        .unwrap();
    println!(
        "fill and pooling at level {level}: {:.3} s ({:.3} s pooling), {sent} tiles sent",
        t.elapsed().as_secs_f64(),
        pooling.as_secs_f64()
    );
}
