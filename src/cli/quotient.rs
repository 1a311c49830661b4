//! `nimscope quotient 'octal(C)' --heaps N`: the misère quotient of an octal game for heaps up
//! to N, as text or one JSON object.

use std::io::Write;
use std::ops::Range;

use serde_json::json;

use super::args::{GridFormat, parse_ruleset};
use nimscope_core::game::Ruleset;
use nimscope_core::game::rules::one_heap::OctalCode;
use nimscope_core::solver::Control;
use nimscope_core::solver::misere_quotient::monoid::Presentation;
use nimscope_core::solver::misere_quotient::{self, Quotient, outcomes};

/// The octal code of `octal(C)` or `misere(octal(C))`.
pub fn octal_code(r: &Ruleset) -> anyhow::Result<OctalCode> {
    match r {
        Ruleset::Octal(c) => Ok(c.clone()),
        Ruleset::Misere(inner) => match &**inner {
            Ruleset::Octal(c) => Ok(c.clone()),
            _ => anyhow::bail!("misère quotients are computed for octal games, not {r}"),
        },
        _ => anyhow::bail!("misère quotients are computed for octal games, e.g. 'octal(0.07)', not {r}"),
    }
}

/// Whether `r` is `misere(octal(C))`.
pub fn is_misere_octal(r: &Ruleset) -> bool {
    matches!(r, Ruleset::Misere(inner) if matches!(&**inner, Ruleset::Octal(_)))
}

/// `grid 'misere(octal(C))' [--slice 3,_,_]`: the misère outcome of each collection {a, b}
/// (with the slice's fixed heaps), by the quotient for heaps up to the largest in the region;
/// CSV rows of `P`/`N`, or one JSON line a row.
pub fn grid(
    out: &mut impl Write,
    r: &Ruleset,
    fixed: &[u64],
    rows: Range<u64>,
    cols: Range<u64>,
    format: GridFormat,
    control: &Control,
) -> anyhow::Result<()> {
    let code = octal_code(r)?;
    let m = outcomes::collection_map(&code, fixed, rows, cols, control)?;
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

/// Computes and prints the quotient.
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
    let code = octal_code(r)?;
    let start = std::time::Instant::now();
    let q = misere_quotient::compute(&code, heaps, control)?;
    let seconds = start.elapsed().as_secs_f64();
    print(out, &q, json, seconds)?;
    Ok(())
}

fn relations(q: &Quotient) -> Vec<String> {
    q.presentation()
        .relations
        .iter()
        .map(|(l, r)| format!("{} = {}", Presentation::word(l), Presentation::word(r)))
        .collect()
}

/// The quotient as text or JSON; `seconds` is the time it took (text only: JSON output is
/// deterministic).
pub fn print(out: &mut impl Write, q: &Quotient, json: bool, seconds: f64) -> std::io::Result<()> {
    let generators: Vec<String> = q
        .generator_heaps()
        .iter()
        .enumerate()
        .map(|(i, h)| format!("{} = heap {h}", Presentation::generator_name(i)))
        .collect();
    let p: Vec<String> = q.p_portion_names();
    let heap_elements: Vec<String> = (0..=q.heaps()).map(|h| q.name(q.heap_element(h))).collect();
    let kind = if q.is_tame() { "tame" } else { "wild" };
    if json {
        let stages: Vec<_> = q
            .stages()
            .iter()
            .map(|s| json!({"heaps": s.heap, "size": s.size, "tame": s.tame, "states_checked": s.states, "split": s.split}))
            .collect();
        return writeln!(
            out,
            "{}",
            json!({
                "ruleset": format!("misere(octal({}))", q.code()),
                "heaps": q.heaps(),
                "size": q.size(),
                "tame": q.is_tame(),
                "first_wild_heap": q.first_wild_heap(),
                "grew_at": q.grew_at(),
                "generators": generators,
                "relations": relations(q),
                "p_portion": p,
                "heap_elements": heap_elements,
                "stages": stages,
                "candidates": q.candidates(),
            })
        );
    }
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
    let rel = relations(q);
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
