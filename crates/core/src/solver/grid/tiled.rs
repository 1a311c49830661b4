//! The line-bitset fill of a symmetric plane in tiles of [`TILE`] × [`TILE`] cells, a band of
//! [`TILE`] rows at a time: the cost of a Wythoff-like map is in memory traffic, not in work.
//!
//! A cell's mex scan starts at the largest of its three lines' own mexes and still walks about
//! n/5 values (measured: 415 values a cell at n = 2048, 836 at 4096, 1695 at 8192), a few cache
//! lines of its column and of its diagonal. Row by row, a row of n cells reads n columns and n
//! diagonals, megabytes that the next row reads again after they have left the cache, so the
//! cost per cell grew with n (×6 time for ×4 cells). In a tile, the same 64 columns and 127
//! diagonals serve 64 rows while they are in the cache, and consecutive rows scan nearly the
//! same words (the values grow by about one a row), so each line is brought in once a band.
//!
//! The order keeps every dependency: a band's tiles go left to right, so a cell's row part
//! left of the tile and its column part above the band are final; inside a tile rows go in
//! order, and a row's values are merged into its own column (the mirror image of the row)
//! as soon as its diagonal cell is done, before any later row of the band reads that column.
//!
//! This is the order on one core; [`super::wavefront`] fills the same tiles on every core.

use std::ops::Range;

use super::lines::{LineSets, Lines, first_free};
use super::storage::{Plane, extra_values};

/// Side of a tile, in cells (and rows of a band).
pub(super) const TILE: usize = 64;

/// Fills rows `rows` (cells b ≤ a) of a symmetric plane of Nim-like or Wythoff-like moves, the
/// rows before them finished; `band` is scratch room of at least `rows.len()` lines.
pub(super) fn lines_band(
    plane: &mut Plane,
    rows: Range<usize>,
    sets: &mut LineSets,
    band: &mut Lines,
    terminal: u32,
    extras: &[&Plane],
) {
    let LineSets { diag, cols, diags, .. } = sets;
    let diag = *diag;
    band.clear();
    let mut ext = [0u32; 8];
    let (a0, a1) = (rows.start, rows.end);
    for b0 in (0..a1).step_by(TILE) {
        let b1 = (b0 + TILE).min(a1);
        for a in a0.max(b0)..a1 {
            let r = a - a0;
            for b in b0..b1.min(a + 1) {
                let Some(n_ext) = extra_values(extras, a, b, &mut ext) else {
                    continue;
                };
                let d = a - b;
                let mut start = band.lo[r].max(cols.lo[b]);
                if diag {
                    start = start.max(diags.lo[d]);
                }
                let v = if a == 0 && b == 0 && n_ext == 0 {
                    terminal
                } else {
                    loop {
                        let found = first_free(start, band, r, cols, b, if diag { Some((diags, d)) } else { None });
                        if ext[..n_ext].contains(&found) {
                            start = found + 1;
                        } else {
                            break found;
                        }
                    }
                };
                let i = plane.index(a, b);
                plane.cells.set(i, v);
                band.insert(r, v);
                if b != a {
                    cols.insert(b, v);
                }
                if diag {
                    diags.insert(d, v);
                }
            }
            if (b0..b1).contains(&a) {
                // row a is finished: its mirror image is column a
                cols.merge_from(a, band, r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lines::row_by_row_square;
    use super::super::{Growing, has_fast_fill};
    use crate::game::Ruleset;
    use crate::solver::control::Control;

    /// The tiled triangle, grown in uneven steps across several bands and tiles, holds the
    /// values of the row-by-row fill of the whole square (no symmetry used), push compounds
    /// and misère play included.
    #[test]
    fn tiles_give_the_row_by_row_values() {
        let c = Control::new();
        for rules in [
            "wythoff",
            "nim",
            "misere(wythoff)",
            "push(wythoff,nim)",
            "push(nim,wythoff)",
        ] {
            let r: Ruleset = rules.parse().unwrap();
            assert!(has_fast_fill(&r));
            let n = 300;
            let mut g = Growing::new(&r).unwrap();
            for step in [1, 64, 100, 130, 257, n] {
                g.grow_to(step as u64, &c).unwrap();
            }
            let plain = row_by_row_square(&r, n, &c);
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(g.raw(a as u64, b as u64), plain.at(a, b), "{rules} at ({a},{b})");
                }
            }
        }
    }
}
