//! `nimscope quotient 'octal(C)' --heaps N`: the misère quotient of an octal game for heaps up
//! to N, as text or one JSON object.

use std::io::Write;

use serde_json::json;

use super::args::{GridFormat, parse_ruleset};
use nimscope_core::game::Ruleset;
use nimscope_core::solver::Control;
use nimscope_core::solver::misere_quotient::outcomes::OutcomeMap;
use nimscope_core::solver::misere_quotient::{self, Quotient};

/// The misère outcome of each collection {a, b} of a misère octal game (`grid
/// 'misere(octal(C))'`, answered by its quotient): CSV rows of `P`/`N`, or one JSON line a row.
pub fn print_pair_map(out: &mut impl Write, r: &Ruleset, m: &OutcomeMap, format: GridFormat) -> anyhow::Result<()> {
    let code = nimscope_core::query::octal_code(r)?;
    let by = format!(
        "the misère quotient of octal({code}) for heaps up to {} ({} elements)",
        m.heaps, m.size
    );
    for a in m.rows.clone() {
        let row: Vec<&str> = m.row(a).iter().map(|o| o.as_str()).collect();
        match format {
            GridFormat::Csv => writeln!(out, "{}", row.join(","))?,
            GridFormat::Json => writeln!(
                out,
                "{}",
                json!({"row": a, "cols": [m.cols.start, m.cols.end], "outcomes": row, "method": "misère quotient", "by": by})
            )?,
        }
    }
    Ok(())
}

/// The arguments of `nimscope quotient`.
#[derive(Debug, clap::Args)]
pub struct QuotientArgs {
    /// An octal game, e.g. 'octal(0.07)' (or 'misere(octal(0.07))').
    pub ruleset: String,
    /// The largest heap, e.g. 20.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=i64::from(misere_quotient::MAX_HEAPS)))]
    pub heaps: u16,
    #[arg(long)]
    pub json: bool,
}

/// Runs `nimscope quotient`.
pub fn run(args: QuotientArgs, control: &Control, out: &mut impl Write) -> anyhow::Result<()> {
    let r = parse_ruleset(&args.ruleset)?;
    print_quotient(&r, args.heaps, args.json, control, out)
}

/// The quotient of `r` for heaps up to `heaps`, printed.
fn print_quotient(r: &Ruleset, heaps: u16, json: bool, control: &Control, out: &mut impl Write) -> anyhow::Result<()> {
    let start = std::time::Instant::now();
    let q = nimscope_core::query::quotient(r, heaps, control)?;
    let seconds = start.elapsed().as_secs_f64();
    print(out, &q, json, seconds)?;
    Ok(())
}

/// The quotient as text or JSON; `seconds` is the time it took (text only: JSON output is
/// deterministic).
pub fn print(out: &mut impl Write, q: &Quotient, json: bool, seconds: f64) -> std::io::Result<()> {
    let summary = nimscope_core::query::quotient_json(q);
    if json {
        return writeln!(out, "{summary}");
    }
    // the lists of the JSON object, as text
    let texts = |key: &str| -> Vec<String> {
        summary[key]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    let (generators, p, heap_elements) = (texts("generators"), texts("p_portion"), texts("heap_elements"));
    let kind = if q.is_tame() { "tame" } else { "wild" };
    writeln!(
        out,
        "misère quotient of octal({}) for heaps up to {}",
        q.code(),
        q.heaps()
    )?;
    writeln!(out, "size: {} ({kind})", q.size())?;
    match q.first_wild_heap() {
        Some(h) => writeln!(out, "tame up to heap {}; wild from heap {h}", h - 1)?,
        None => writeln!(out, "tame: misère Nim's quotient of the same size")?,
    }
    let grew: Vec<String> = q.grew_at().iter().map(u16::to_string).collect();
    writeln!(out, "grew at heaps: {}", grew.join(", "))?;
    let sizes: Vec<String> = q.stages().iter().map(|s| format!("{}:{}", s.heap, s.size)).collect();
    writeln!(out, "size by heap bound: {}", sizes.join(" "))?;
    let split: Vec<String> = q
        .stages()
        .iter()
        .filter(|s| s.split)
        .map(|s| s.heap.to_string())
        .collect();
    if !split.is_empty() {
        writeln!(out, "earlier elements split at heaps: {}", split.join(", "))?;
    }
    writeln!(out, "generators: {}", generators.join(", "))?;
    let rel = texts("relations");
    writeln!(out, "relations ({}):", rel.len())?;
    for r in &rel {
        writeln!(out, "  {r}")?;
    }
    writeln!(out, "P-portion ({}): {}", p.len(), p.join(", "))?;
    writeln!(out, "heap → element:")?;
    for (h, e) in heap_elements.iter().enumerate() {
        writeln!(out, "  {h:>4}  {e}")?;
    }
    let states: usize = q.stages().iter().map(|s| s.states).sum();
    writeln!(
        out,
        "proved by checking {states} states over {} heap bounds ({} candidates); {seconds:.2} s",
        q.stages().len(),
        q.candidates()
    )
}
