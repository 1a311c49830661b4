//! `nimscope grid`: the values (or outcomes) of a rectangle of a two-heap map or a slice.

use std::ops::Range;

use nimscope_core::game::{Layout, Presentation};
use nimscope_core::solver::Control;
use nimscope_core::solver::grid;

use super::args::{GridFormat, RulesetSource, parse_range};
use super::{output, quotient};

/// The arguments of `nimscope grid`.
#[derive(Debug, clap::Args)]
pub struct GridArgs {
    #[command(flatten)]
    pub ruleset: RulesetSource,
    /// Half-open row range A..B.
    #[arg(long, value_parser = parse_range)]
    pub rows: Range<u64>,
    /// Half-open column range C..D.
    #[arg(long, value_parser = parse_range)]
    pub cols: Range<u64>,
    /// Fixed heaps of a slice of a game on more heaps, e.g. 1,_,_ for Zeruclid (1,a,b).
    #[arg(long)]
    pub slice: Option<String>,
    #[arg(long, value_enum, default_value_t = GridFormat::Csv)]
    pub format: GridFormat,
    /// Each cell's outcome instead of its value: 0 for a P-position, 1 for an N-position
    /// (Wythoff's anywhere in the plane, from its P-positions' closed form).
    #[arg(long)]
    pub outcome: bool,
}

/// Runs `nimscope grid`.
pub fn run(args: GridArgs, control: &Control, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let GridArgs {
        ruleset,
        rows,
        cols,
        slice,
        format,
        outcome,
    } = args;

    let r = ruleset.ruleset()?;
    if rows.is_empty() || cols.is_empty() {
        // an empty CSV would be a success that says nothing
        anyhow::bail!(
            "rows {}..{} and columns {}..{} hold no cell (ranges are half-open: --rows 0..4 is rows 0 to 3)",
            rows.start,
            rows.end,
            cols.start,
            cols.end
        );
    }
    if slice.is_none() && quotient::is_misere_octal(&r) {
        // the collections {a, b} of a misère octal game: outcomes by its quotient
        return quotient::grid(out, &r, rows, cols, format, control);
    }
    let asked = match &slice {
        Some(s) => Layout::parse_slice(s).map_err(anyhow::Error::msg)?,
        None => Layout::Plain,
    };
    let layout = match Presentation::of(&r, &asked) {
        Presentation::Map(layout) => layout,
        Presentation::Sequence => anyhow::bail!("{r} is played on one heap: use seq for its values"),
        Presentation::Board => anyhow::bail!("{r} is played on a board: use cram"),
        Presentation::NeedsSlice => {
            anyhow::bail!("{r} is played on three or more heaps: give a slice, e.g. --slice 1,_,_")
        }
        Presentation::PositionsOnly(why) => anyhow::bail!("{why}; use value or moves on single positions"),
    };
    if let Some(s) = &slice {
        // a probe cell tells a slice of the wrong length from a game's own limits; a typed
        // rule's domain may leave the probe out, so for it the number of heaps alone is the
        // slice's to get right
        let probe = layout.position(&r, nimscope_core::game::Cell::new(1, 1));
        let heaps = match &probe {
            nimscope_core::game::Position::Heaps(h) => h.len(),
            _ => 0,
        };
        match (r.check_position(&probe), r.base().0) {
            (Ok(()), _) => {}
            (Err(_), nimscope_core::game::Ruleset::Typed(t)) if t.arity() == heaps => {}
            (Err(e), _) => anyhow::bail!("slice {s} of {r}: {e}"),
        }
    }
    let g = if outcome {
        grid::outcomes(&r, &layout, rows, cols, control)?
    } else {
        grid::grid(&r, &layout, rows, cols, control)?
    };
    output::grid(out, &g, format, outcome)?;
    Ok(())
}
