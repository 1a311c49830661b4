//! Sequences G(0..N) of one-heap rulesets and maps of rectangles, as `seq` and `grid` ask for
//! them: the ruleset's presentation checked first (a two-heap game has no sequence, a game on
//! three heaps needs a slice), a misère octal game's map (or slice) answered by its quotient.

use std::ops::Range;

use super::QueryError;
use crate::game::{Cell, Layout, Presentation, Ruleset, has_sequence};
use crate::solver::Control;
use crate::solver::grid::{self, Grid};
use crate::solver::misere_quotient::outcomes::{self, OutcomeMap};
use crate::solver::sequence::{self, Computed};

/// Refuses a ruleset that has no sequence of one-heap values, saying what to ask instead.
pub fn check_sequence(r: &Ruleset) -> Result<(), QueryError> {
    if has_sequence(r) {
        return Ok(());
    }
    Err(QueryError::Unanswerable(match Presentation::of(r, &Layout::Plain) {
        Presentation::Board => format!("{r} is played on a board: use cram"),
        _ => format!("{r} is not played on one heap: use grid for its map"),
    }))
}

/// G(0..to) of a one-heap ruleset with its certified period (a misère octal game's heaps past
/// a small search by their outcome alone, from the misère quotient).
pub fn sequence(r: &Ruleset, to: u64, control: &Control) -> Result<Computed, QueryError> {
    check_sequence(r)?;
    Ok(sequence::compute_with_quotient(r, to, control)?)
}

/// A map as `grid` computes it.
#[derive(Debug, Clone)]
pub enum MapAnswer {
    /// The values of the cells (with `outcome`, 0 exactly at the P-positions).
    Values(Grid),
    /// The misère outcomes of the collections {a, b} of a misère octal game, by its quotient
    /// (the misère Grundy values are not computed).
    MisereOutcomes(OutcomeMap),
}

/// The rectangle `rows × cols` of `r` (a slice such as `1,_,_` of a game on more heaps): its
/// values, or with `outcome` its outcomes (0 for a P-position; Wythoff's anywhere in the plane
/// from its P-positions' closed form); a misère octal game's outcomes by its quotient.
pub fn map(
    r: &Ruleset,
    rows: Range<u64>,
    cols: Range<u64>,
    slice: Option<&str>,
    outcome: bool,
    control: &Control,
) -> Result<MapAnswer, QueryError> {
    if rows.is_empty() || cols.is_empty() {
        // an empty map would be a success that says nothing
        return Err(QueryError::Unanswerable(format!(
            "rows {}..{} and columns {}..{} hold no cell (ranges are half-open: --rows 0..4 is rows 0 to 3)",
            rows.start, rows.end, cols.start, cols.end
        )));
    }
    if super::is_misere_octal(r) {
        // the collections {a, b} (with a slice's fixed heaps, `3,_,_`) read off the quotient
        let code = super::octal_code(r)?;
        let fixed: Vec<u64> = match slice {
            Some(s) => match Layout::parse_slice(s).map_err(QueryError::Unanswerable)? {
                Layout::Slice(t) => t.iter().flatten().copied().collect(),
                Layout::Plain => Vec::new(),
            },
            None => Vec::new(),
        };
        return Ok(MapAnswer::MisereOutcomes(outcomes::collection_map(
            &code, &fixed, rows, cols, control,
        )?));
    }
    let layout = map_layout(r, slice)?;
    let g = if outcome {
        grid::outcomes(r, &layout, rows, cols, control)?
    } else {
        grid::grid(r, &layout, rows, cols, control)?
    };
    Ok(MapAnswer::Values(g))
}

/// The layout of `r`'s map (a slice when one is given), or why it has none.
fn map_layout(r: &Ruleset, slice: Option<&str>) -> Result<Layout, QueryError> {
    let asked = match slice {
        Some(s) => Layout::parse_slice(s).map_err(QueryError::Unanswerable)?,
        None => Layout::Plain,
    };
    let refuse = |m: String| Err(QueryError::Unanswerable(m));
    let layout = match Presentation::of(r, &asked) {
        Presentation::Map(layout) => layout,
        Presentation::Sequence => return refuse(format!("{r} is played on one heap: use seq for its values")),
        Presentation::Board => return refuse(format!("{r} is played on a board: use cram")),
        Presentation::NeedsSlice => {
            return refuse(format!(
                "{r} is played on three or more heaps: give a slice, e.g. --slice 1,_,_"
            ));
        }
        Presentation::PositionsOnly(why) => return refuse(format!("{why}; use value or moves on single positions")),
    };
    if let Some(s) = slice {
        // a probe cell tells a slice of the wrong length from a game's own limits; a typed
        // rule's domain may leave the probe out, so for it the number of heaps alone is the
        // slice's to get right
        let probe = layout.position(r, Cell::new(1, 1));
        let heaps = match &probe {
            crate::game::Position::Heaps(h) => h.len(),
            _ => 0,
        };
        match (r.check_position(&probe), r.base().0) {
            (Ok(()), _) => {}
            (Err(_), Ruleset::Typed(t)) if t.arity() == heaps => {}
            (Err(e), _) => return Err(QueryError::Unanswerable(format!("slice {s} of {r}: {e}"))),
        }
    }
    Ok(layout)
}
