//! Times the octal engines on one code: `cargo run --release --example octal_bench -- 0.6 100000`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]
use nimscope_core::solver::Control;
use nimscope_core::solver::octal::octal_sequence;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = args.get(1).map_or("0.6", String::as_str);
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let start = std::time::Instant::now();
    let s = octal_sequence(&code.parse().unwrap(), n, &Control::new()).unwrap();
    let t = start.elapsed();
    println!(
        "{code} to {n}: G({}) = {}, {:?}, {} {:?}, {:?}",
        s.values.len() - 1,
        s.values.last().unwrap(),
        t,
        s.method.as_str(),
        s.work,
        s.periodicity
    );
    for sp in &s.split {
        println!(
            "  takes {}: {} rare heaps, {} rare classes",
            sp.takes,
            sp.rare_heaps,
            sp.rare.len()
        );
    }
}
