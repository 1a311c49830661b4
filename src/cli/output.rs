//! Text and JSON renderings of command results. Every format is deterministic: the same
//! command gives the same bytes.

use std::io::Write;

use serde_json::json;

use super::GridFormat;
use crate::checks::row::CheckRow;
use crate::game::{Outcome, Position, Ruleset};
use crate::solver::OptionValue;
use crate::solver::grid::Grid;
use crate::solver::sequence::Sequence;

pub fn value(out: &mut impl Write, r: &Ruleset, p: &Position, g: u32, json: bool) -> std::io::Result<()> {
    let o = Outcome::of(g);
    if json {
        writeln!(
            out,
            "{}",
            json!({"ruleset": r.to_string(), "position": p.to_string(), "grundy": g, "outcome": o.as_str()})
        )
    } else {
        let who = if o == Outcome::P {
            "the previous player wins"
        } else {
            "the next player wins"
        };
        writeln!(out, "{r} at {p}: grundy {g}, outcome {o} ({who})")
    }
}

pub fn moves(out: &mut impl Write, opts: &[OptionValue], json: bool) -> std::io::Result<()> {
    if json {
        for o in opts {
            writeln!(
                out,
                "{}",
                json!({"move": o.description, "to": o.to, "grundy": o.grundy, "outcome": o.outcome.as_str(), "winning": o.winning})
            )?;
        }
        return Ok(());
    }
    if opts.is_empty() {
        return writeln!(out, "no moves: the position is terminal");
    }
    let w_move = opts.iter().map(|o| o.description.chars().count()).max().unwrap_or(0);
    let w_to = opts.iter().map(|o| o.to.chars().count()).max().unwrap_or(0);
    for o in opts {
        let mark = if o.winning { "  winning" } else { "" };
        let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w - s.chars().count()));
        writeln!(
            out,
            "{}  → {}  grundy {:>3}  {}{mark}",
            pad(&o.description, w_move),
            pad(&o.to, w_to),
            o.grundy,
            o.outcome
        )?;
    }
    Ok(())
}

/// `nimscope cram`: the board's value and outcome; for Push Cram also the value after a push
/// and whether the position is a bluff (a first-player win where every move wins).
#[allow(clippy::too_many_arguments)]
pub fn cram(
    out: &mut impl Write,
    r: &Ruleset,
    p: &Position,
    g: u32,
    opts: &[OptionValue],
    push: bool,
    list: bool,
    json: bool,
) -> std::io::Result<()> {
    let o = Outcome::of(g);
    let bluff = o == Outcome::N && !opts.is_empty() && opts.iter().all(|m| m.winning);
    let after_push = opts
        .iter()
        .find(|m| m.description == "push the button")
        .map(|m| m.grundy);
    if json {
        let mut obj = json!({"ruleset": r.to_string(), "board": p.to_string(), "grundy": g, "outcome": o.as_str(), "bluff": bluff, "moves": opts.len()});
        if push {
            obj["after_push"] = json!(after_push);
        }
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "{r} on {p}: grundy {g}, outcome {o}, {} moves", opts.len())?;
        if push {
            writeln!(
                out,
                "after the push: grundy {}",
                after_push.map_or("-".into(), |v| v.to_string())
            )?;
        }
        writeln!(
            out,
            "bluff position (every move wins): {}",
            if bluff { "yes" } else { "no" }
        )?;
    }
    if list {
        moves(out, opts, json)?;
    }
    Ok(())
}

pub fn grid(out: &mut impl Write, g: &Grid, format: GridFormat) -> std::io::Result<()> {
    match format {
        GridFormat::Csv => g.write_csv(out),
        GridFormat::Json => {
            for (a, values) in g.rows_iter() {
                let line = json!({"row": a, "cols": [g.cols.start, g.cols.end], "values": values});
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
    }
}

pub fn sequence(out: &mut impl Write, r: &Ruleset, s: &Sequence, json: bool) -> std::io::Result<()> {
    let (period, pre) = s
        .periodicity
        .map_or((None, None), |p| (Some(p.period), Some(p.preperiod)));
    if json {
        return writeln!(
            out,
            "{}",
            json!({"ruleset": r.to_string(), "n": s.values.len(), "values": s.values, "period": period, "preperiod": pre})
        );
    }
    let text: Vec<String> = s
        .values
        .iter()
        .map(|v| v.map_or(String::new(), |v| v.to_string()))
        .collect();
    writeln!(out, "{}", text.join(","))?;
    match s.periodicity {
        Some(p) => writeln!(
            out,
            "period {}, pre-period {} (certified; indexing by heap size n)",
            p.period, p.preperiod
        ),
        None => writeln!(out, "no period certified within n < {}", s.values.len()),
    }
}

pub fn checks(out: &mut impl Write, rows: &[CheckRow], json: bool) -> std::io::Result<()> {
    if json {
        for r in rows {
            writeln!(out, "{}", serde_json::to_string(r).map_err(std::io::Error::other)?)?;
        }
        Ok(())
    } else {
        write!(out, "{}", crate::checks::format_table(rows))
    }
}
