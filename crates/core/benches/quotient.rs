//! Misère quotients (README "Misère quotients"): the quotient of octal games computed heap by
//! heap, and a ten-heap misère answer by it (a fresh evaluator each time, so the quotient is
//! computed inside the answer). Run with `cargo bench --bench quotient`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use nimscope_core::game::{Position, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::Evaluator;
use nimscope_core::solver::misere_quotient::compute;

fn quotients(c: &mut Criterion) {
    let mut g = c.benchmark_group("quotient");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (code, heaps) in [("0.07", 24), ("0.07", 30), ("0.77", 40), ("0.137", 30), ("0.6", 16)] {
        let octal = code.parse().unwrap();
        g.bench_function(format!("octal({code}) --heaps {heaps}"), |b| {
            b.iter(|| compute(&octal, heaps, &Control::new()).unwrap())
        });
    }
    g.finish();
}

fn ten_heaps(c: &mut Criterion) {
    let mut g = c.benchmark_group("ten heaps");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for (rules, heaps) in [
        ("misere(octal(0.07))", [3u64, 5, 7, 9, 11, 14, 17, 19, 22, 24]),
        ("misere(octal(0.07))", [3, 5, 7, 9, 11, 14, 17, 22, 27, 30]),
        ("misere(octal(0.77))", [3, 5, 7, 9, 11, 14, 17, 22, 27, 30]),
    ] {
        let r: Ruleset = rules.parse().unwrap();
        let p = Position::Heaps(heaps.to_vec());
        g.bench_function(format!("value {rules} {heaps:?}"), |b| {
            b.iter(|| Evaluator::new().answer(&r, &p, &Control::new()).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, quotients, ten_heaps);
criterion_main!(benches);
