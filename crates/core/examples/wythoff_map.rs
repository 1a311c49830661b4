//! Times one Wythoff map fill (for profiling outside criterion): `wythoff_map N`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]
fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4096);
    let rules = std::env::args().nth(2).unwrap_or_else(|| "wythoff".into());
    let r: nimscope_core::game::Ruleset = rules.parse().unwrap();
    let t = std::time::Instant::now();
    let g = nimscope_core::solver::grid::grid(
        &r,
        &nimscope_core::game::Layout::Plain,
        0..n,
        0..n,
        &nimscope_core::solver::Control::new(),
    )
    .unwrap();
    println!(
        "{rules} {n}x{n}: {:?}, G({},{}) = {:?}",
        t.elapsed(),
        n - 1,
        n - 2,
        g.get(n - 1, n - 2)
    );
}
