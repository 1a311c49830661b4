//! Outcome maps of a misère octal game from its quotient: the strip of single heaps and the
//! map of two-heap collections `{a, b}` (what `grid 'misere(octal(C))'` prints), each cell a
//! product of two heaps' elements and a look-up instead of a search of the collection.

use std::ops::Range;

use super::{MAX_HEAPS, Quotient, compute};
use crate::game::Outcome;
use crate::game::rules::one_heap::OctalCode;
use crate::solver::control::{Control, SolveError};

/// The misère outcomes of the collections `{a, b}` for `a` in `rows`, `b` in `cols`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeMap {
    /// The heap sizes `a`, one row each.
    pub rows: Range<u64>,
    /// The heap sizes `b`, one column each.
    pub cols: Range<u64>,
    /// Row by row.
    pub cells: Vec<Outcome>,
    /// The largest heap of the quotient that answered.
    pub heaps: u16,
    /// Its number of elements.
    pub size: usize,
}

impl OutcomeMap {
    /// The cells of row `a`.
    pub fn row(&self, a: u64) -> &[Outcome] {
        let w = (self.cols.end - self.cols.start) as usize;
        let i = (a - self.rows.start) as usize;
        &self.cells[i * w..(i + 1) * w]
    }
}

/// The largest heap the map needs, or a refusal past the quotients computed.
fn largest(rows: &Range<u64>, cols: &Range<u64>) -> Result<u16, SolveError> {
    let top = rows.end.max(cols.end).saturating_sub(1);
    u16::try_from(top).ok().filter(|&t| t <= MAX_HEAPS).ok_or_else(|| {
        SolveError::Unsupported(format!(
            "misère quotients are computed for heaps up to {MAX_HEAPS}, and this map reaches heap {top}"
        ))
    })
}

/// The map of `{a, b}` by the quotient of `code` for heaps up to the largest needed.
pub fn pair_map(
    code: &OctalCode,
    rows: Range<u64>,
    cols: Range<u64>,
    control: &Control,
) -> Result<OutcomeMap, SolveError> {
    let q = compute(code, largest(&rows, &cols)?, control)?;
    pair_map_from(&q, rows, cols)
}

/// The map of `{a, b}` by a quotient computed already (heaps past its bound are refused).
pub fn pair_map_from(q: &Quotient, rows: Range<u64>, cols: Range<u64>) -> Result<OutcomeMap, SolveError> {
    if largest(&rows, &cols)? > q.heaps() {
        return Err(SolveError::Unsupported(format!(
            "the misère quotient answers heaps up to {}",
            q.heaps()
        )));
    }
    let mut cells = Vec::with_capacity(((rows.end - rows.start) * (cols.end - cols.start)) as usize);
    for a in rows.clone() {
        for b in cols.clone() {
            // within the bound, checked above
            cells.push(q.outcome(&[a, b]).unwrap_or(Outcome::N));
        }
    }
    Ok(OutcomeMap {
        rows,
        cols,
        cells,
        heaps: q.heaps(),
        size: q.size(),
    })
}

/// The outcome of each single heap `0..to` by the quotient (heaps past its bound `None`).
pub fn strip(q: &Quotient, to: u64) -> Vec<Option<Outcome>> {
    (0..to).map(|n| q.outcome(&[n])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Position, Ruleset};
    use crate::solver::search::Search;

    fn searched(c: &str, heaps: &[u64]) -> Outcome {
        let r: Ruleset = format!("misere(octal({c}))").parse().unwrap();
        let g = Search::plain(r)
            .value(&Position::Heaps(heaps.to_vec()), &Control::new())
            .unwrap();
        if g == 0 { Outcome::P } else { Outcome::N }
    }

    #[test]
    fn the_strip_is_the_searched_outcome_of_each_heap() {
        for c in ["0.07", "0.137", "0.6"] {
            let q = compute(&c.parse().unwrap(), 14, &Control::new()).unwrap();
            let s = strip(&q, 16);
            for (n, o) in s.iter().enumerate() {
                let expect = (n <= 14).then(|| searched(c, &[n as u64]));
                assert_eq!(*o, expect, "{c}: heap {n}");
            }
        }
    }

    #[test]
    fn heaps_past_the_bound_are_refused() {
        let q = compute(&"0.07".parse().unwrap(), 10, &Control::new()).unwrap();
        assert!(pair_map_from(&q, 0..12, 0..4).is_err());
        assert!(pair_map(&"0.07".parse().unwrap(), 0..2000, 0..2, &Control::new()).is_err());
    }
}
