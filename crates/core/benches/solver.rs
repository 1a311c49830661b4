//! Speed goals of the engine (README "Speed"): whole Grundy maps of the two-heap rulesets, the
//! window's map of the same squares (filled in stages and pooled into tiles, as the worker
//! does it), long octal sequences (periodic, and by the rare/common method), heap sums and the
//! search of misère collections. Run with `cargo bench --bench solver`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use nimscope_core::game::Layout;
use nimscope_core::game::Ruleset;
use nimscope_core::solver::Control;
use nimscope_core::solver::Evaluator;
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::search::Search;
use nimscope_core::solver::sequence::{compute, sequence};
use nimscope_core::solver::tiles::{CellRect, Compare, KeyRule, PoolJob, TileKey, TileSource};

fn map(c: &mut Criterion, rules: &str, n: u64) {
    let r: Ruleset = rules.parse().unwrap();
    c.bench_function(&format!("grid {rules} {n}x{n}"), |b| {
        b.iter(|| grid(&r, &Layout::Plain, 0..n, 0..n, &Control::new()).unwrap())
    });
}

fn maps(c: &mut Criterion) {
    map(c, "wythoff", 4096);
    map(c, "wythoff", 8192);
    for rules in [
        "nim",
        "euclid",
        "grossman",
        "euclid0",
        "m-euclid",
        "zeruclid",
        "cdn",
        "push(nim,euclid0)",
        "push(wythoff,nim)",
    ] {
        map(c, rules, 4096);
    }
}

/// The window's map of `[0, n)²` at `level` (2^level cells a pooled cell): a fresh source
/// filled in stages, each stage pooled into the view's tiles.
fn view(c: &mut Criterion, rules: &str, n: u64, level: u8) {
    let r: Ruleset = rules.parse().unwrap();
    c.bench_function(&format!("view {rules} {n}x{n} level {level}"), |b| {
        b.iter(|| {
            let view = CellRect::new(0..n, 0..n);
            let tiles = TileKey::covering(level, &view, (0.0, 0.0));
            let mut job = PoolJob::new(level, KeyRule::Value, view.clone(), tiles);
            let mut source = TileSource::new(&r, &Layout::Plain);
            let control = Control::new();
            let mut sent = 0;
            source
                .fill(&view, &control, &mut |s, stage| {
                    sent += job.absorb(s, &Compare::Nothing, stage, &control)?.len();
                    Ok(())
                })
                .unwrap();
            sent
        })
    });
}

fn views(c: &mut Criterion) {
    view(c, "wythoff", 4096, 3);
    view(c, "euclid", 4096, 3);
}

fn sequences(c: &mut Criterion) {
    let r: Ruleset = "octal(0.07)".parse().unwrap();
    c.bench_function("seq octal(0.07) to 1000000", |b| {
        b.iter(|| sequence(&r, 1_000_000, &Control::new()).unwrap())
    });
    let r: Ruleset = "nim".parse().unwrap();
    c.bench_function("seq nim to 100000", |b| {
        b.iter(|| compute(&r, 100_000, &Control::new()).unwrap())
    });
    // octal games without a known period, by the rare/common method (the same lengths as
    // `ogsolve -m rc2 -n 100000`; examples/octal_vs_ogsolve.rs runs both in turns)
    for code in ["0.6", "0.16", "0.064"] {
        let r: Ruleset = format!("octal({code})").parse().unwrap();
        c.bench_function(&format!("seq octal({code}) to 100001"), |b| {
            b.iter(|| compute(&r, 100_001, &Control::new()).unwrap())
        });
    }
}

fn heap_sums(c: &mut Criterion) {
    // a collection of heaps is the nim-sum of its heaps (answered from the sequence)
    let r: Ruleset = "octal(0.07)".parse().unwrap();
    let p = r.parse_position("30,40").unwrap();
    c.bench_function("value octal(0.07) 30,40", |b| {
        b.iter(|| Evaluator::new().answer(&r, &p, &Control::new()).unwrap())
    });
    let p = r.parse_position("1000000").unwrap();
    c.bench_function("moves octal(0.07) 1000000, first 1000", |b| {
        b.iter(|| Evaluator::new().options_page(&r, &p, 0, 1000, &Control::new()).unwrap())
    });
}

fn misere_collections(c: &mut Criterion) {
    // a misère collection is a position of its own: the plain search of every collection two
    // heaps of 0.6 reach (362,968 from 26,26), each memoised packed (search/memo.rs)
    let r: Ruleset = "misere(octal(0.6))".parse().unwrap();
    let p = r.parse_position("26,26").unwrap();
    c.bench_function("search misere(octal(0.6)) 26,26", |b| {
        b.iter(|| Search::plain(r.clone()).value(&p, &Control::new()).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = maps, views, sequences, heap_sums, misere_collections
}
criterion_main!(benches);
