//! `nimscope seq RULESET --to N`: the values G(0..N) of a one-heap ruleset, with the certified
//! period, printed as they are found. For records: `--values FILE` (binary, docs/values-file.md),
//! `--checkpoint FILE` (resume after a stop or a kill), `--stats [--json]` (the statistics
//! researchers compare) and `--certificate FILE` (the evidence of a period, checked by
//! `scripts/verify_period.py`; docs/certificates.md).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nimscope_core::game::loopy::cells;
use nimscope_core::game::rules::one_heap::OctalCode;
use nimscope_core::game::{Gamma, Ruleset};
use nimscope_core::query::maps;
use nimscope_core::solver::octal::run::{self as octal_run, Run, Spec};
use nimscope_core::solver::octal::stats::{self, Stats};
use nimscope_core::solver::octal::values_file::{self, Values};
use nimscope_core::solver::octal::{Engine, OctalMethod};
use nimscope_core::solver::period::Periodicity;
use nimscope_core::solver::sequence::{self, Certificate, Computed};
use nimscope_core::solver::{Control, SolveError};
use serde_json::json;

use super::args::RulesetSource;
use super::interrupt;
use super::output::csv_field;

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

/// What a run found, for the trailer, the statistics and the files.
enum Report {
    Long(Run),
    Computed(Computed),
}

impl Report {
    fn n(&self) -> u64 {
        match self {
            Report::Long(r) => r.n,
            Report::Computed(c) => c.n,
        }
    }

    fn periodicity(&self) -> Option<Periodicity> {
        match self {
            Report::Long(r) => r.periodicity,
            Report::Computed(c) => c.periodicity,
        }
    }

    /// The value of heap `i`: a number, or for a game that loops a cell code whose ∞(A) is
    /// [`Report::gamma`] (use [`Report::finite`] for the numbers alone).
    fn get(&self, i: u64) -> Option<u32> {
        match self {
            Report::Long(r) => Some(r.get(i)),
            Report::Computed(c) => c.get(i),
        }
    }

    /// Whether the game loops (its values are Smith's: some may be infinite).
    fn loops(&self) -> bool {
        matches!(self, Report::Computed(c) if c.infinite.is_some())
    }

    /// Heap `i`'s value ∞(A) when it is infinite (a game that loops).
    fn gamma(&self, i: u64) -> Option<Gamma> {
        match self {
            Report::Computed(c) if c.get(i).is_some_and(cells::is_infinite) && c.infinite.is_some() => c.gamma(i),
            _ => None,
        }
    }

    /// Heap `i`'s value when it is a number (not ∞(A)).
    fn finite(&self, i: u64) -> Option<u32> {
        self.get(i).filter(|_| self.gamma(i).is_none())
    }

    fn computed(&self) -> u64 {
        match self {
            Report::Long(r) => r.computed(),
            Report::Computed(c) => c.computed_len() as u64,
        }
    }

    fn method(&self) -> &'static str {
        match self {
            Report::Long(r) => r.method().as_str(),
            Report::Computed(c) => c.method.as_str(),
        }
    }

    /// Every value as a values file holds them; an error when some heap has none (not a
    /// position, or its outcome alone known).
    fn with_values<T>(&self, f: impl FnOnce(&Values) -> T) -> anyhow::Result<T> {
        match self {
            Report::Long(r) => Ok(r.with_values(f)),
            Report::Computed(_) if self.loops() => anyhow::bail!(
                "the game loops: its values are Smith's (∞(A) is no number); values files and statistics need numbers"
            ),
            Report::Computed(c) => {
                if let Some(i) = (0..c.n).find(|&i| c.get(i).is_none()) {
                    anyhow::bail!(
                        "heap {i} has no value (not a position, or its outcome alone is known): values files and statistics need every value"
                    );
                }
                let get = |i: u64| c.get(i).unwrap_or(0);
                Ok(f(&Values::By(c.n, &get)))
            }
        }
    }

    fn certificate(&self, r: &Ruleset) -> anyhow::Result<Certificate> {
        let none = || anyhow::anyhow!("--certificate: no period of {r} is certified within n < {}", self.n());
        match self {
            Report::Long(run) => {
                let p = run.periodicity.ok_or_else(none)?;
                let get = |i: u64| run.get(i);
                Certificate::new(r, p, &Values::By(run.computed(), &get)).ok_or_else(none)
            }
            Report::Computed(c) => match c.periodicity {
                None => Err(none()),
                Some(_) => c.certificate(r).ok_or_else(|| {
                    anyhow::anyhow!("--certificate: certificates are written for take-and-break codes and subtraction games, not {r}")
                }),
            },
        }
    }
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
                "{}; the values found so far are saved in {}: run the same command to resume",
                interrupt::signal_name(),
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

/// Prints values as text (comma-separated) or the JSON object, as they come.
struct Printer<'a, W: Write> {
    out: &'a mut W,
    json: bool,
    enabled: bool,
    printed: u64,
    buf: Vec<u8>,
    digits: itoa::Buffer,
}

impl<'a, W: Write> Printer<'a, W> {
    fn new(out: &'a mut W, json: bool, enabled: bool) -> Self {
        Printer {
            out,
            json,
            enabled,
            printed: 0,
            buf: Vec::with_capacity(1 << 17),
            digits: itoa::Buffer::new(),
        }
    }

    fn start(&mut self, r: &Ruleset, n: u64) -> std::io::Result<()> {
        if self.enabled && self.json {
            write!(
                self.out,
                "{{\"ruleset\":{},\"n\":{n},\"values\":[",
                json!(r.to_string())
            )?;
        }
        Ok(())
    }

    /// Appends one value (`None`: no value, printed as nothing or `null`).
    fn value(&mut self, v: Option<u32>) -> std::io::Result<()> {
        if !self.enabled {
            return Ok(());
        }
        if self.printed > 0 {
            self.buf.push(b',');
        }
        match v {
            Some(v) => self.buf.extend_from_slice(self.digits.format(v).as_bytes()),
            None if self.json => self.buf.extend_from_slice(b"null"),
            None => {}
        }
        self.ended()
    }

    /// Appends a heap's text: its outcome where its value is unknown (text output only), ∞(A)
    /// where a game that loops has an infinite value.
    fn text(&mut self, text: &str) -> std::io::Result<()> {
        if self.printed > 0 {
            self.buf.push(b',');
        }
        self.buf.extend_from_slice(text.as_bytes());
        self.ended()
    }

    /// One item more: the buffer goes out when full.
    fn ended(&mut self) -> std::io::Result<()> {
        self.printed += 1;
        if self.buf.len() >= 1 << 16 {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
            // the values so far reach the reader (a pipe, a terminal) while the rest is found
            self.out.flush()?;
            if interrupt::interrupted() {
                return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted"));
            }
        }
        Ok(())
    }

    /// The values not printed yet (from the period, or known by their outcome alone), then the
    /// trailer.
    fn finish(&mut self, report: &Report) -> std::io::Result<()> {
        let n = report.n();
        let outcomes = match report {
            Report::Computed(c) => c.outcomes_only.clone(),
            Report::Long(_) => None,
        };
        while self.printed < n {
            let i = self.printed;
            match (report.get(i), outcomes.as_ref().and_then(|o| o.get(i))) {
                // a game that loops: ∞(A) where the value is infinite (never streamed: the
                // values of a game that loops are found all at once)
                (Some(_), _) if let Some(g) = report.gamma(i) => {
                    let text = if self.json {
                        json!(g.to_string()).to_string()
                    } else {
                        csv_field(&g)
                    };
                    self.text(&text)?;
                }
                // the misère Grundy value unknown: the outcome alone, by the misère quotient
                (None, Some(o)) if !self.json => self.text(o.as_str())?,
                (v, _) => self.value(v)?,
            }
        }
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        let period = report.periodicity();
        if self.json {
            let (split, outcomes_only) = match report {
                Report::Long(r) => (
                    match r.engine() {
                        Engine::RareCommon(e) if r.method() == OctalMethod::RareCommon => Some(json!(e.summary())),
                        _ => None,
                    },
                    None,
                ),
                Report::Computed(c) => (
                    c.octal.as_ref().map(|o| json!(o.split)),
                    c.outcomes_only.as_ref().map(|o| {
                        json!({
                            "from": o.from,
                            "outcomes": o.outcomes.iter().map(|x| x.as_str()).collect::<String>(),
                            "method": "misère quotient",
                            "by": o.by,
                        })
                    }),
                ),
            };
            let extra = json!({
                "period": period.map(|p| p.period),
                "preperiod": period.map(|p| p.preperiod),
                "method": report.method(),
                "computed": report.computed(),
                "largest": largest_values(report, 5),
                "rare_common": split,
                "outcomes_only": outcomes_only,
            });
            // the object's other members, after "values"
            let extra = extra.to_string();
            return writeln!(self.out, "],{}", &extra[1..]);
        }
        writeln!(self.out)?;
        if let Some(o) = &outcomes {
            writeln!(
                self.out,
                "heaps {} to {}: the outcome alone (P or N; the misère Grundy value unknown), by {}",
                o.from,
                n.saturating_sub(1),
                o.by
            )?;
        }
        match period {
            _ if report.loops() => writeln!(
                self.out,
                "the game loops: values by Smith's theory (∞(A), A the finite values of the options: a draw unless A holds 0)"
            ),
            Some(p) => writeln!(
                self.out,
                "period {}, pre-period {} (certified; indexing by heap size n)",
                p.period, p.preperiod
            ),
            None => writeln!(self.out, "no period certified within n < {n}"),
        }
    }
}

/// The `count` largest distinct values of G(0..N), each with the first heap that has it (the
/// period repeats values of the computed prefix, so the prefix holds them all).
fn largest_values(report: &Report, count: usize) -> Vec<serde_json::Value> {
    let len = report.computed().min(report.n());
    let mut first: std::collections::BTreeMap<u32, u64> = std::collections::BTreeMap::new();
    for i in 0..len {
        if let Some(v) = report.finite(i) {
            first.entry(v).or_insert(i);
            if first.len() > count {
                first.pop_first();
            }
        }
    }
    first
        .iter()
        .rev()
        .map(|(&value, &heap)| json!({"value": value, "first": heap}))
        .collect()
}

/// Processor time (user + system) and peak resident memory of this process so far.
fn usage() -> Option<(f64, u64)> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrusage writes the struct it is given and nothing else
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above; RUSAGE_SELF is a valid target
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
            return None;
        }
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        Some((secs(u.ru_utime) + secs(u.ru_stime), u.ru_maxrss as u64 * 1024))
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// `--stats`: text (with time and memory) or JSON (deterministic: the same for a resumed run).
fn print_stats(
    out: &mut impl Write,
    s: &Stats,
    report: &Report,
    json: bool,
    wall: Duration,
    splits: bool,
) -> anyhow::Result<()> {
    let period = report.periodicity();
    if json {
        let mut v = serde_json::to_value(s)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("method".into(), json!(report.method()));
            o.insert("computed".into(), json!(report.computed()));
            o.insert("period".into(), json!(period.map(|p| p.period)));
            o.insert("preperiod".into(), json!(period.map(|p| p.preperiod)));
        }
        writeln!(out, "{v}")?;
        return Ok(());
    }
    writeln!(out, "{}: G(n) for 0 ≤ n < {}", s.ruleset, s.n)?;
    writeln!(out, "method: {}", report.method())?;
    writeln!(out, "largest value: {}, first at heap {}", s.largest, s.largest_first)?;
    match &s.rare_mask {
        Some(m) => {
            let pos = if s.rare_mask_position {
                " with the heap's parity (pos)"
            } else {
                ""
            };
            writeln!(
                out,
                "rare mask: {m}{} (heap n is rare when G(n) & {m}{pos} has an even number of bits)",
                if s.rare_mask_position { " pos" } else { "" }
            )?;
            let last = s.last_rare_heap.map_or("none".to_string(), |h| h.to_string());
            writeln!(
                out,
                "rare heaps: {} (heaps n ≥ 1), the last at heap {last}",
                s.rare_count
            )?;
            let shown: Vec<String> = s.rare_heaps.iter().take(20).map(u64::to_string).collect();
            let more = if s.rare_heaps.len() > 20 {
                ", … (all of them: --stats --json)"
            } else {
                ""
            };
            writeln!(out, "  {}{more}", shown.join(", "))?;
        }
        None if splits => writeln!(out, "rare mask: values too wide for the transform")?,
        None => {}
    }
    match period {
        Some(p) => writeln!(
            out,
            "period {}, pre-period {} (certified; G(0..{}) computed)",
            p.period,
            p.preperiod,
            report.computed()
        )?,
        None => writeln!(out, "no period certified within n < {}", s.n)?,
    }
    writeln!(
        out,
        "values: sha256 {} (of the values file, {} byte{} a value)",
        s.sha256,
        s.value_bytes,
        if s.value_bytes == 1 { "" } else { "s" }
    )?;
    if let Report::Long(r) = report
        && r.resumed_from > 0
    {
        writeln!(out, "resumed after {} values from the checkpoint", r.resumed_from)?;
    }
    match usage() {
        Some((cpu, peak)) => writeln!(
            out,
            "time: {:.1} s ({cpu:.1} s of processor time), peak memory {}",
            wall.as_secs_f64(),
            nimscope_core::solver::control::human_bytes(peak)
        )?,
        None => writeln!(out, "time: {:.1} s", wall.as_secs_f64())?,
    }
    Ok(())
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
