//! `nimscope seq RULESET --to N`: the values G(0..N) of a one-heap ruleset, with the certified
//! period, printed as they are found. For records: `--values FILE` (binary, docs/values-file.md),
//! `--checkpoint FILE` (resume after a stop or a kill), `--stats [--json]` (the statistics
//! researchers compare) and `--certificate FILE` (the evidence of a period, checked by
//! `scripts/verify_period.py`; docs/certificates.md).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nimscope_core::game::Ruleset;
use nimscope_core::game::rules::one_heap::OctalCode;
use nimscope_core::query::maps;
use nimscope_core::solver::octal::Engine;
use nimscope_core::solver::octal::run::{self as octal_run, Spec};
use nimscope_core::solver::octal::stats;
use nimscope_core::solver::octal::values_file;
use nimscope_core::solver::sequence;
use nimscope_core::solver::{Control, SolveError};

use self::printer::Printer;
use self::report::Report;
use self::statistics::print_stats;
use super::args::RulesetSource;
use super::interrupt;

mod printer;
mod report;
mod statistics;

/// Most values `seq` prints (about 15 GB of text).
pub const MAX_SEQ: u64 = 1 << 32;
/// Most values a run that does not print them computes (`--stats`, `--values`): the memory
/// budget refuses long before, at 2 bytes a value.
pub const MAX_RUN: u64 = 1 << 40;

/// The arguments of `nimscope seq`.
#[derive(Debug, clap::Args)]
pub struct SeqArgs {
    #[command(flatten)]
    pub ruleset: RulesetSource,
    /// N: values for n in 0..N (half-open), e.g. 1000, 2^28 or 10^6.
    #[arg(long, value_parser = parse_count)]
    pub to: u64,
    #[arg(long)]
    pub json: bool,
    /// Print the statistics instead of the values: the largest value and its first heap, the
    /// rare mask and rare heaps, the values' SHA-256, the method, time and memory.
    #[arg(long)]
    pub stats: bool,
    /// Write the values to FILE in binary (docs/values-file.md) instead of printing them.
    #[arg(long, value_name = "FILE")]
    pub values: Option<PathBuf>,
    /// Keep the run in FILE (a values file of the values found so far, saved every
    /// --checkpoint-every seconds and on Ctrl+C) and resume from it when it exists.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between saves of the checkpoint.
    #[arg(long, value_name = "SECONDS", default_value = "30", requires = "checkpoint")]
    pub checkpoint_every: u64,
    /// Write the certificate of the period to FILE (JSON; docs/certificates.md); an error when
    /// no period is certified within N.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
}

/// `1000`, `1_000_000`, `2^28`, `10^6`.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    let bad = || format!("{text:?} is not a count (write 1000, 2^28 or 10^6)");
    match t.split_once('^') {
        Some((b, e)) => {
            let b: u64 = b.parse().map_err(|_| bad())?;
            let e: u32 = e.parse().map_err(|_| bad())?;
            b.checked_pow(e).ok_or_else(|| format!("{text} is past 2^64"))
        }
        None => t.parse().map_err(|_| bad()),
    }
}

/// The code of a take-and-break ruleset that splits heaps, under normal play: its values go
/// through the long-run engine (checkpoints, values files).
fn splitting_code(r: &Ruleset) -> Option<&OctalCode> {
    match r {
        Ruleset::Octal(c) if c.splits() => Some(c),
        _ => None,
    }
}

/// Runs `nimscope seq`.
pub fn run(args: SeqArgs, control: &Control, out: &mut impl Write) -> anyhow::Result<()> {
    let SeqArgs {
        ruleset,
        to,
        json,
        stats,
        values,
        checkpoint,
        checkpoint_every,
        certificate,
    } = args;
    let r = ruleset.ruleset()?;
    maps::check_sequence(&r)?;
    let printing = !stats && values.is_none();
    if printing && to > MAX_SEQ {
        anyhow::bail!(
            "seq --to {to}: seq prints every value, at most {MAX_SEQ} of them (for one heap, ask value; for statistics or a values file, add --stats or --values FILE)"
        );
    }
    if to > MAX_RUN {
        anyhow::bail!("seq --to {to}: at most {MAX_RUN} values");
    }
    if checkpoint.is_some() && splitting_code(&r).is_none() {
        anyhow::bail!(
            "--checkpoint: runs are checkpointed for take-and-break codes that split heaps (octal(0.6), grundy, octal(4.007)); {r} is computed in one go"
        );
    }
    for (flag, path) in [("--values", &values), ("--certificate", &certificate)] {
        if let Some(p) = path {
            nimscope_core::files::atomic::check_writable(p, nimscope_core::files::Accept::FileOrStream)
                .map_err(|e| anyhow::anyhow!("{flag} {}: {e}", p.display()))?;
        }
    }
    let started = Instant::now();
    let mut printer = Printer::new(out, json, printing);
    printer.start(&r, to)?;
    let report = match splitting_code(&r) {
        Some(code) => {
            let every = Duration::from_secs(checkpoint_every.max(1));
            long_run(to, checkpoint, every, &r, code, control, &mut printer)?
        }
        None => computed(&r, to, control, &mut printer)?,
    };
    if printing {
        printer.finish(&report)?;
    }
    if values.is_none() && certificate.is_none() && !stats {
        return Ok(());
    }
    report.with_values(|v| -> anyhow::Result<()> {
        if let Some(path) = &values {
            values_file::write(path, &r.to_string(), v)
                .map_err(|e| anyhow::anyhow!("--values {}: {e}", path.display()))?;
        }
        if let Some(path) = &certificate {
            let cert = report.certificate(&r)?;
            nimscope_core::files::write_atomic(path, cert.to_json().as_bytes())
                .map_err(|e| anyhow::anyhow!("--certificate {}: {e}", path.display()))?;
        }
        if stats {
            let s = stats::stats(&r.to_string(), splitting_code(&r), v);
            let splits = splitting_code(&r).is_some();
            print_stats(printer.out, &s, &report, json, started.elapsed(), splits)?;
        }
        Ok(())
    })?
}

/// A splitting take-and-break code: the long-run engine, with its checkpoint.
fn long_run(
    to: u64,
    checkpoint: Option<PathBuf>,
    every: Duration,
    r: &Ruleset,
    code: &OctalCode,
    control: &Control,
    printer: &mut Printer<'_, impl Write>,
) -> anyhow::Result<Report> {
    let spec = Spec {
        code: code.clone(),
        name: r.to_string(),
        n: to,
        checkpoint,
        every,
    };
    let mut sink = |e: &Engine, from: u64, to: u64| -> std::io::Result<()> {
        for i in from..to {
            printer.value(Some(e.get(i as usize)))?;
        }
        Ok(())
    };
    match octal_run::run(&spec, control, &mut sink) {
        Ok(run) => {
            if run.resumed_from > 0 {
                eprintln!(
                    "resumed from {}: {} values were saved",
                    spec.checkpoint
                        .as_deref()
                        .map_or(String::new(), |p| p.display().to_string()),
                    run.resumed_from
                );
            }
            Ok(Report::Long(run))
        }
        Err(SolveError::Cancelled) if interrupt::interrupted() => match &spec.checkpoint {
            Some(p) => anyhow::bail!(
                "interrupted (Ctrl+C); the values found so far are saved in {}: run the same command to resume",
                p.display()
            ),
            None => Err(SolveError::Cancelled.into()),
        },
        Err(e) => Err(e.into()),
    }
}

/// Any other one-heap ruleset: the sequence computed, its values printed as they are found
/// where they are found one by one.
fn computed(r: &Ruleset, to: u64, control: &Control, printer: &mut Printer<'_, impl Write>) -> anyhow::Result<Report> {
    let mut failed: Option<std::io::Error> = None;
    let enabled = printer.enabled;
    let c = {
        let mut sink = |_: u64, v: Option<u32>| {
            if failed.is_none()
                && let Err(e) = printer.value(v)
            {
                // a closed pipe or Ctrl+C: the computation stops at its next check
                failed = Some(e);
                control.cancel();
            }
        };
        let sink: sequence::Sink<'_> = &mut sink;
        sequence::stream_with_quotient(r, to, control, enabled.then_some(sink))
    };
    if let Some(e) = failed {
        return Err(e.into());
    }
    Ok(Report::Computed(c?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_numbers_or_powers() {
        assert_eq!(parse_count("1000"), Ok(1000));
        assert_eq!(parse_count("2^28"), Ok(1 << 28));
        assert_eq!(parse_count("10^6"), Ok(1_000_000));
        assert_eq!(parse_count("1_000"), Ok(1000));
        assert!(parse_count("2^64").is_err());
        assert!(parse_count("two").is_err());
        assert!(parse_count("2^").is_err());
    }
}
