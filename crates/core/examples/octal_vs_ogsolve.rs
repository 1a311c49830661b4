//! nimscope's octal engine against Beling's `ogsolve` (the anchor: `cargo install ogsolve`),
//! run in turns in one run, on the same codes and lengths:
//!
//!     cargo run --release --example octal_vs_ogsolve -- [N] [ROUNDS] [CODE ...]
//!
//! Defaults: N = 100000 (values G(0..=N), as `ogsolve -n N` computes them), 5 rounds, codes
//! 0.6, 0.16 and 0.064. Each round times nimscope (in this process) and then `ogsolve -m rc2`
//! (its own reported calculation time, and the wall time of the process); the values are
//! compared once with `ogsolve -p`'s list. Prints min and median per side and code.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use std::process::Command;
use std::time::{Duration, Instant};

use nimscope_core::solver::Control;
use nimscope_core::solver::octal::octal_sequence;

fn ogsolve(code: &str, n: u64, print: bool) -> Option<(Duration, Duration, String)> {
    let start = Instant::now();
    let mut cmd = Command::new("ogsolve");
    cmd.args(["-m", "rc2", "-n", &n.to_string(), code]);
    if print {
        cmd.arg("-p");
    }
    let out = cmd.output().ok()?;
    let wall = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // " calculation time: 1.15s" (or ms, µs)
    let line = text.lines().find(|l| l.contains("calculation time:"))?;
    let t = line.split("calculation time:").nth(1)?.trim();
    let (num, unit) = t.split_at(t.find(|c: char| c.is_alphabetic() || c == 'µ')?);
    let x: f64 = num.trim().parse().ok()?;
    let secs = match unit.trim() {
        "s" => x,
        "ms" => x / 1e3,
        "µs" | "us" => x / 1e6,
        "ns" => x / 1e9,
        _ => return None,
    };
    Some((Duration::from_secs_f64(secs), wall, text))
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let codes: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        ["0.6", "0.16", "0.064"].map(String::from).to_vec()
    };
    for code in &codes {
        let c = code.parse().expect("an octal code");
        // the values, once, against ogsolve's printed list
        let ours = octal_sequence(&c, n + 1, &Control::new()).expect("computes");
        match ogsolve(code, n, true) {
            Some((_, _, text)) => {
                let theirs: Vec<u32> = text
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("nimbers:"))
                    .map(|l| l.split_whitespace().filter_map(|x| x.parse().ok()).collect())
                    .unwrap_or_default();
                let same = theirs.len() == ours.values.len() && theirs == ours.values;
                println!(
                    "{code}: {} values, the same as ogsolve's: {same}{}",
                    ours.values.len(),
                    ours.periodicity.map_or(String::new(), |p| format!(
                        " (period {} from {})",
                        p.period, p.preperiod
                    ))
                );
            }
            None => println!("{code}: ogsolve not found (cargo install ogsolve); timing nimscope only"),
        }
        let (mut mine, mut theirs, mut theirs_wall) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..rounds {
            let start = Instant::now();
            let s = octal_sequence(&c, n + 1, &Control::new()).expect("computes");
            mine.push(start.elapsed());
            std::hint::black_box(s);
            if let Some((t, wall, _)) = ogsolve(code, n, false) {
                theirs.push(t);
                theirs_wall.push(wall);
            }
        }
        let min = |v: &[Duration]| v.iter().min().copied().unwrap_or_default();
        println!(
            "  nimscope rare/common: min {:.3} s, median {:.3} s",
            min(&mine).as_secs_f64(),
            median(&mut mine).as_secs_f64()
        );
        if !theirs.is_empty() {
            println!(
                "  ogsolve -m rc2:       min {:.3} s, median {:.3} s (process wall time min {:.3} s)",
                min(&theirs).as_secs_f64(),
                median(&mut theirs).as_secs_f64(),
                min(&theirs_wall).as_secs_f64()
            );
        }
    }
}
