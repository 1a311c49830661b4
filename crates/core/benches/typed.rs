//! Typed rules against the same rules written by hand in Rust (docs/performance.md, "Typed
//! rules against Rust closures"): the compiled move language must stay within 3× of a
//! hand-written closure filling the same map or sequence by the same engine; the built-in fast
//! fills are timed beside them. Typed rules that equal a built-in ruleset (Nim, Wythoff, 0.07,
//! sub(1,3,4)) are timed against it, parse and recognition included (goal: within 3×); a game
//! that loops on 10^6 positions is valued by Smith's labelling (goal: under 10 s). Run with
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
    // the catalog's spelling is recognised as the code 4u.0 (the rare/common engine); a guard
    // that is not affine (k·k ≥ 0, always true) keeps the same game in the interpreter
    let rule = typed("grundy");
    g.bench_function("typed rule (recognised: the engine of 4u.0)", |b| {
        b.iter(|| compute(&rule, HEAPS, &Control::new()).unwrap())
    });
    let interpreted: Ruleset = "rule(n -> [k, n - k] for k in 1..n if 2*k < n and k*k >= 0)"
        .parse()
        .unwrap();
    g.bench_function("typed rule (interpreted)", |b| {
        b.iter(|| compute(&interpreted, HEAPS, &Control::new()).unwrap())
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

/// A typed rule that equals a built-in ruleset against the built-in: each parsed in the
/// iteration, so the typed rule's recognition is paid every time.
fn twins(c: &mut Criterion) {
    let cases: [(&str, &str, &str, Job); 4] = [
        (
            "nim",
            "rule((a, b) -> (a - k, b) for k in 1..=a; (a, b - k) for k in 1..=b)",
            "nim",
            Job::Map(N),
        ),
        ("wythoff", example("wythoff").unwrap().text, "wythoff", Job::Map(N)),
        (
            "0.07",
            example("dawson-kayles").unwrap().text,
            "octal(0.07)",
            Job::Seq(20_000),
        ),
        (
            "sub(1,3,4)",
            example("sub134").unwrap().text,
            "sub(1,3,4)",
            Job::Seq(1_000_000),
        ),
    ];
    for (name, typed, builtin, job) in cases {
        let mut g = c.benchmark_group(format!("typed {name} against the built-in, {}", job.label()));
        g.sample_size(10);
        for (who, text) in [("typed rule", typed), ("built-in", builtin)] {
            g.bench_function(who, |b| b.iter(|| job.run(text)));
        }
        g.finish();
    }
}

#[derive(Clone, Copy)]
enum Job {
    Map(u64),
    Seq(u64),
}

impl Job {
    fn label(self) -> String {
        match self {
            Job::Map(n) => format!("map {n}x{n}"),
            Job::Seq(n) => format!("sequence to {n}"),
        }
    }

    fn run(self, text: &str) {
        let r: Ruleset = text.parse().unwrap();
        match self {
            Job::Map(n) => {
                grid(&r, &Layout::Plain, 0..n, 0..n, &Control::new()).unwrap();
            }
            Job::Seq(n) => {
                compute(&r, n, &Control::new()).unwrap();
            }
        }
    }
}

/// Games that loop, 10^6 positions each: subtraction modulo 10^6 (a sequence) and the sum of
/// two subtraction games modulo 1000 written as one rule on two heaps (a map).
fn loopy(c: &mut Criterion) {
    let mut g = c.benchmark_group("a game that loops, 10^6 positions");
    g.sample_size(10);
    let clock: Ruleset = "rule(x if x < 1000000 -> (x - s) % 1000000 for s in {1, 3, 4} if x > 0)"
        .parse()
        .unwrap();
    g.bench_function("sequence of sub(1,3,4) modulo 10^6", |b| {
        b.iter(|| compute(&clock, 1_000_000, &Control::new()).unwrap())
    });
    let two: Ruleset = "rule((a, b) if a < 1000 and b < 1000 -> ((a - s) % 1000, b) for s in {1, 3, 4} if a > 0; (a, (b - s) % 1000) for s in {2, 5} if b > 0)".parse().unwrap();
    g.bench_function("map 1000x1000 of two clocks", |b| {
        b.iter(|| grid(&two, &Layout::Plain, 0..1000, 0..1000, &Control::new()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, maps, grundy, twins, loopy);
criterion_main!(benches);
