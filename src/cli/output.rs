//! Text and JSON renderings of command results. Every format is deterministic: the same
//! command gives the same bytes.

use std::io::Write;

use serde_json::json;

use super::args::GridFormat;
use nimscope_core::checks::row::CheckRow;
use nimscope_core::game::{Outcome, Position, Ruleset};
use nimscope_core::solver::evaluate::{Answer, OptionsPage};
use nimscope_core::solver::grid::Grid;
use nimscope_core::solver::{CramSummary, OptionValue};

fn who_wins(o: Outcome) -> &'static str {
    o.words()
}

/// A value of a game that loops as a field of a comma-separated line (`seq`, `grid`): quoted
/// when its set holds commas, as CSV quotes a field.
pub fn csv_field(g: &nimscope_core::game::Gamma) -> String {
    let text = g.to_string();
    if text.contains(',') {
        format!("\"{text}\"")
    } else {
        text
    }
}

/// `value`: the Grundy value and outcome; `--json` adds how it was found (`"method"`: `"closed
/// form"`, `"search"` or `"misère quotient"`, and `"by"`: the theorem or computation). A value only known by its
/// outcome has `"grundy": null`.
/// Longest typed rule named in a line of text output.
const RULE_CHARS: usize = 80;

pub fn value(out: &mut impl Write, r: &Ruleset, p: &Position, a: &Answer, json: bool) -> std::io::Result<()> {
    let o = a.outcome;
    if json {
        let mut obj = json!({"ruleset": r.to_string(), "position": p.to_string(), "grundy": a.grundy, "outcome": o.as_str(), "method": a.method.as_str(), "by": a.by});
        if let Some(set) = &a.infinite {
            // a game that loops: ∞(A), A the finite values of the options
            obj["value"] = json!(a.gamma().map(|g| g.to_string()));
            obj["infinite"] = json!(set);
        }
        writeln!(out, "{obj}")
    } else {
        // a typed rule is named by its start (JSON keeps the whole text)
        let r = r.short_text(RULE_CHARS);
        if a.method == nimscope_core::solver::evaluate::ValueMethod::Loopy
            && let Some(g) = a.gamma()
        {
            return writeln!(
                out,
                "{r} at {p}: value {g}, outcome {o} ({}); the game loops, valued by Smith's theory",
                who_wins(o)
            );
        }
        match a.grundy {
            Some(g) => writeln!(out, "{r} at {p}: grundy {g}, outcome {o} ({})", who_wins(o)),
            None if a.method == nimscope_core::solver::evaluate::ValueMethod::MisereQuotient => writeln!(
                out,
                "{r} at {p}: outcome {o} ({}) by {}; the misère grundy value is unknown: its search would not fit the memory budget",
                who_wins(o),
                a.by
            ),
            None => writeln!(
                out,
                "{r} at {p}: outcome {o} ({}); the grundy value is not known: only the outcome has a closed form ({}), and a search would not fit the memory budget",
                who_wins(o),
                a.by
            ),
        }
    }
}

/// `moves`: a page of options; when the page is not all of them, a last line says which part
/// of how many was shown (in JSON, an object with `"options"`, `"offset"` and `"shown"`).
pub fn moves_page(out: &mut impl Write, page: &OptionsPage, json: bool) -> std::io::Result<()> {
    let opts = &page.options;
    let partial = page.offset > 0 || (opts.len() as u128) < page.total;
    if json {
        if page.total == 0 {
            // said in JSON too: a script that reads nothing cannot tell a terminal position
            // from a command that failed silently
            return writeln!(
                out,
                "{}",
                json!({"options": "0", "offset": page.offset.to_string(), "shown": 0, "terminal": true})
            );
        }
        for o in opts {
            let mut obj = json!({"move": o.description, "to": o.to, "grundy": o.answer.grundy, "outcome": o.answer.outcome.as_str(), "winning": o.winning()});
            if o.answer.infinite.is_some() {
                obj["value"] = json!(o.answer.gamma().map(|g| g.to_string()));
            }
            writeln!(out, "{obj}")?;
        }
        if partial {
            writeln!(
                out,
                "{}",
                json!({"options": page.total.to_string(), "offset": page.offset.to_string(), "shown": opts.len()})
            )?;
        }
        return Ok(());
    }
    if page.total == 0 {
        return writeln!(out, "no moves: the position is terminal");
    }
    // a game that loops writes its values as Smith's theory does (∞(A)); an outcome known
    // alone shows '?'
    let loopy = opts.iter().any(|o| o.answer.infinite.is_some());
    let grundy = |o: &nimscope_core::solver::evaluate::OptionAnswer| match (o.answer.grundy, o.answer.gamma()) {
        (Some(g), _) => g.to_string(),
        (None, Some(g)) => g.to_string(),
        (None, None) => "?".to_string(),
    };
    let word = if loopy { "value" } else { "grundy" };
    let w_move = opts.iter().map(|o| o.description.chars().count()).max().unwrap_or(0);
    let w_to = opts.iter().map(|o| o.to.chars().count()).max().unwrap_or(0);
    let w_g = opts.iter().map(|o| grundy(o).chars().count()).max().unwrap_or(0).max(3);
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    for o in opts {
        let mark = match o.answer.outcome {
            _ if o.winning() => "  winning",
            // a move to a draw keeps the draw (and from a lost position it is the best move)
            Outcome::D => "  draws",
            _ => "",
        };
        writeln!(
            out,
            "{}  → {}  {word} {:>w_g$}  {}{mark}",
            pad(&o.description, w_move),
            pad(&o.to, w_to),
            grundy(o),
            o.answer.outcome
        )?;
    }
    if partial {
        let first = page.offset + 1;
        let last = page.offset + opts.len() as u128;
        if opts.is_empty() {
            writeln!(
                out,
                "no options from number {first} on: the position has {} (--offset counts from 0)",
                page.total
            )?;
        } else {
            writeln!(
                out,
                "options {first}–{last} of {}; --offset K and --limit N list others",
                page.total
            )?;
        }
    }
    Ok(())
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
/// and whether the position is a bluff (a first-player win where every move wins); with
/// `--moves` (`opts`) every move and its value.
#[allow(clippy::too_many_arguments)]
pub fn cram(
    out: &mut impl Write,
    r: &Ruleset,
    p: &Position,
    g: u32,
    summary: &CramSummary,
    opts: Option<&[OptionValue]>,
    push: bool,
    json: bool,
) -> std::io::Result<()> {
    let o = Outcome::of(g);
    let CramSummary {
        moves: count,
        bluff,
        after_push,
    } = *summary;
    if json {
        let mut obj = json!({"ruleset": r.to_string(), "board": p.to_string(), "grundy": g, "outcome": o.as_str(), "bluff": bluff, "moves": count});
        if push {
            obj["after_push"] = json!(after_push);
        }
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "{r} on {p}: grundy {g}, outcome {o}, {count} moves")?;
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
    if let Some(opts) = opts {
        moves(out, opts, json)?;
    }
    Ok(())
}

/// `cram --outcome`: the outcome alone.
pub fn cram_outcome(out: &mut impl Write, r: &Ruleset, p: &Position, o: Outcome, json: bool) -> std::io::Result<()> {
    if json {
        writeln!(
            out,
            "{}",
            json!({"ruleset": r.to_string(), "board": p.to_string(), "outcome": o.as_str()})
        )
    } else {
        writeln!(out, "{r} on {p}: outcome {o}")
    }
}

/// `grid`: CSV ([`Grid::write_csv`], which the window's CSV export writes too), or one JSON
/// object a row.
/// With `outcome`, 0 for a P-position and 1 for an N-position instead of the value.
pub fn grid(out: &mut impl Write, g: &Grid, format: GridFormat, outcome: bool) -> std::io::Result<()> {
    match format {
        GridFormat::Csv if outcome => g.write_outcome_csv(out),
        GridFormat::Csv => g.write_csv(out),
        GridFormat::Json if g.infinite_sets().is_some() => {
            // a game that loops: each value as Smith's theory writes it, or its outcome
            for a in g.rows.clone() {
                let values: Vec<serde_json::Value> = g
                    .cols
                    .clone()
                    .map(|b| match g.gamma(a, b) {
                        None => serde_json::Value::Null,
                        Some(v) if outcome => json!(v.outcome().as_str()),
                        Some(nimscope_core::game::Gamma::Finite(v)) => json!(v),
                        Some(v) => json!(v.to_string()),
                    })
                    .collect();
                let line = json!({"row": a, "cols": [g.cols.start, g.cols.end], "values": values});
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
        GridFormat::Json => {
            for (a, mut values) in g.wide_rows() {
                if outcome {
                    values.iter_mut().flatten().for_each(|v| *v = u64::from(*v != 0));
                }
                let line = json!({"row": a, "cols": [g.cols.start, g.cols.end], "values": values});
                writeln!(out, "{line}")?;
            }
            Ok(())
        }
    }
}

pub fn checks(out: &mut impl Write, rows: &[CheckRow], json: bool) -> std::io::Result<()> {
    if json {
        for r in rows {
            writeln!(out, "{}", serde_json::to_string(r).map_err(std::io::Error::other)?)?;
        }
        Ok(())
    } else {
        write!(out, "{}", nimscope_core::checks::format_table(rows))
    }
}
