//! Speed goals of the engine (README "Speed"): whole Grundy maps of the two-heap rulesets and
//! a long octal sequence. Run with `cargo bench --bench solver`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use nimscope::game::Layout;
use nimscope::game::Ruleset;
use nimscope::solver::Control;
use nimscope::solver::grid::grid;
use nimscope::solver::sequence::sequence;

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

fn sequences(c: &mut Criterion) {
    let r: Ruleset = "octal(0.07)".parse().unwrap();
    c.bench_function("seq octal(0.07) to 1000000", |b| {
        b.iter(|| sequence(&r, 1_000_000, &Control::new()).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = maps, sequences
}
criterion_main!(benches);
