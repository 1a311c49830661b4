//! Typed rules against the same rules written by hand in Rust (README "Typed rules: speed"):
//! the compiled move language must stay within 3× of a hand-written closure filling the same
//! map or sequence by the same engine; the built-in fast fills are timed beside them. Run with
//! `cargo bench --bench typed`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use nimscope_core::game::rules::typed::examples::example;
use nimscope_core::game::{Layout, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::grid::{from_options, grid};
use nimscope_core::solver::sequence::{compute, from_collections};

const N: u64 = 1024;

fn typed(name: &str) -> Ruleset {
    example(name).unwrap().text.parse().unwrap()
}

fn wythoff_by_hand(a: u64, b: u64, out: &mut Vec<(u64, u64)>) -> bool {
    out.extend((1..=a).map(|k| (a - k, b)));
    out.extend((1..=b).map(|k| (a, b - k)));
    out.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
    true
}

fn euclid_by_hand(a: u64, b: u64, out: &mut Vec<(u64, u64)>) -> bool {
    if 1 <= b && b <= a {
        out.extend((1..=a / b).map(|k| (a - k * b, b)));
    }
    if 1 <= a && a <= b {
        out.extend((1..=b / a).map(|k| (a, b - k * a)));
    }
    true
}

fn maps(c: &mut Criterion) {
    for (name, builtin, by_hand) in [
        (
            "wythoff",
            "wythoff",
            wythoff_by_hand as fn(u64, u64, &mut Vec<(u64, u64)>) -> bool,
        ),
        ("euclid", "euclid", euclid_by_hand),
    ] {
        let mut g = c.benchmark_group(format!("{name} {N}x{N}"));
        g.sample_size(10);
        let rule = typed(name);
        g.bench_function("typed rule", |b| {
            b.iter(|| grid(&rule, &Layout::Plain, 0..N, 0..N, &Control::new()).unwrap())
        });
        g.bench_function("hand-written closure", |b| {
            b.iter(|| from_options(N, N, &Control::new(), by_hand).unwrap().unwrap())
        });
        let builtin: Ruleset = builtin.parse().unwrap();
        g.bench_function("built-in fill", |b| {
            b.iter(|| grid(&builtin, &Layout::Plain, 0..N, 0..N, &Control::new()).unwrap())
        });
        g.finish();
    }
}

fn grundy(c: &mut Criterion) {
    const HEAPS: u64 = 10_000;
    let mut g = c.benchmark_group(format!("grundy's game to {HEAPS}"));
    g.sample_size(10);
    let rule = typed("grundy");
    g.bench_function("typed rule", |b| {
        b.iter(|| compute(&rule, HEAPS, &Control::new()).unwrap())
    });
    g.bench_function("hand-written closure", |b| {
        b.iter(|| {
            from_collections(HEAPS as usize, &Control::new(), |n, options| {
                for k in 1..n.div_ceil(2) {
                    options.option(&[k, n - k]);
                }
                Ok(true)
            })
            .unwrap()
            .unwrap()
        })
    });
    // the nearest built-in: Kayles (0.77), another splitting heap game, by its octal engine
    let kayles: Ruleset = "octal(0.77)".parse().unwrap();
    g.bench_function("built-in octal(0.77) (for scale)", |b| {
        b.iter(|| compute(&kayles, HEAPS, &Control::new()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, maps, grundy);
criterion_main!(benches);
