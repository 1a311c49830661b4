//! The map's compute time against its CSV writing time:
//! `cargo run --release --example grid_csv -- [RULESET] [N]` (default wythoff 4096).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]
use std::time::Instant;

use nimscope::cli::GridFormat;
use nimscope_core::game::Layout;
use nimscope_core::game::Ruleset;
use nimscope_core::solver::Control;
use nimscope_core::solver::grid::grid;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r: Ruleset = args
        .first()
        .map_or("wythoff", String::as_str)
        .parse()
        .expect("a ruleset");
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4096);
    for _ in 0..3 {
        let t = Instant::now();
        let g = grid(&r, &Layout::Plain, 0..n, 0..n, &Control::new()).expect("fits");
        let compute = t.elapsed();
        let t = Instant::now();
        let mut out = Vec::with_capacity(1 << 27);
        nimscope::cli::output::grid(&mut out, &g, GridFormat::Csv, false).expect("writes");
        let write = t.elapsed();
        println!(
            "{r} {n}×{n}: compute {:.3} s, CSV {:.3} s ({} MB)",
            compute.as_secs_f64(),
            write.as_secs_f64(),
            out.len() >> 20
        );
    }
}
