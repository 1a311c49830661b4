//! The CSV of a view the map has partly filled, written from the map's level-0 tiles with only
//! the missing cells computed, against the CSV computed from nothing:
//! `cargo run --example csv_from_map -- [RULESET] [N]` (default euclid 4096). The map holds the
//! left half of the view `0..N × 0..N`, filled the way the window's worker fills it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]
use std::time::Instant;

use nimscope_core::game::{Layout, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::grid::grid;
use nimscope_core::solver::tiles::{CellRect, Compare, KeyRule, PoolJob, TileKey, TileSource, TileStore};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r: Ruleset = args
        .first()
        .map_or("euclid", String::as_str)
        .parse()
        .expect("a ruleset");
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4096);
    let layout = Layout::Plain;
    let mut store = TileStore::new(u64::MAX);
    // the map's fill of the left half, as the worker's map job makes it
    fill(&r, &layout, &CellRect::new(0..n, 0..n / 2), &mut store);
    let view = CellRect::new(0..n, 0..n);
    for round in 0..6 {
        if round == 3 {
            // the rest of the view filled: the window writes such a view from the map alone
            fill(&r, &layout, &CellRect::new(0..n, n / 2..n), &mut store);
        }
        let t = Instant::now();
        let known = store.known_cells(&view).expect("the map holds some");
        let read = t.elapsed();
        let (text, computed) = known.csv(&r, &layout, &Control::new()).expect("fits");
        let from_map = t.elapsed();
        let t = Instant::now();
        let g = grid(&r, &layout, view.rows.clone(), view.cols.clone(), &Control::new()).expect("fits");
        let mut whole = Vec::new();
        g.write_csv(&mut whole).expect("writes");
        let full = t.elapsed();
        assert!(text == whole, "the same bytes");
        println!(
            "{r} {n}×{n}, {} from the map: {:.3} s ({:.3} s reading the tiles, {computed} cells computed); \
             computed whole: {:.3} s ({} MB)",
            if round < 3 { "half" } else { "all" },
            from_map.as_secs_f64(),
            read.as_secs_f64(),
            full.as_secs_f64(),
            whole.len() >> 20
        );
    }
}

/// Fills `part` of the map into `store`'s level-0 tiles, as the worker's map job does.
fn fill(r: &Ruleset, layout: &Layout, part: &CellRect, store: &mut TileStore) {
    let control = Control::new();
    let t = Instant::now();
    let mut pool = PoolJob::new(0, KeyRule::Value, part.clone(), TileKey::covering(0, part, (0.0, 0.0)));
    let mut source = TileSource::new_for(r, layout, false);
    let region = pool.region().clone();
    source
        .fill(&region, &control, &mut |s, stage| {
            for (k, tile) in pool.absorb(s, &Compare::Nothing, stage, &control)? {
                store.insert(k, &tile);
            }
            Ok(())
        })
        .expect("the part fills");
    println!("{r}: the map filled {part:?} in {:.3} s", t.elapsed().as_secs_f64());
}
