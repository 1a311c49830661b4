//! `seq --stats`: the statistics researchers compare, as text (with time and peak memory) or
//! JSON (deterministic).

use std::io::Write;
use std::time::Duration;

use nimscope_core::solver::octal::stats::Stats;
use serde_json::json;

use super::report::Report;

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
pub(super) fn print_stats(
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
