//! Zeruclid's map on two heaps without listing every option where the lists are long. In a
//! row 0 < a ≤ b the options of (a, b) are (0, b) and (a, b − k·a): every earlier cell of the
//! row in b's residue class mod a. A row whose classes are long keeps one mex set per class,
//! so a cell costs a few operations instead of b/a; a strip `1 × 10⁶` is linear, not
//! quadratic. A strip taller than wide is filled transposed (the game is symmetric).

use super::storage::{Cells, Plane};
use crate::game::MexSet;
use crate::game::rules::heaps;
use crate::solver::control::{Control, SolveError};

/// Rows whose residue classes are longer than this keep a mex set per class.
const LONG_CLASS: usize = 32;

/// Fills `[0, r) × [0, c)` of Zeruclid (no push planes), `terminal` the value of (0, 0).
pub(super) fn fill_zeruclid(r: usize, c: usize, terminal: u32, control: &Control) -> Result<Plane, SolveError> {
    let bound = 2 * (r + c) as u64 + 2;
    let bytes = (r * c) as u64 * Cells::bytes_per_cell(bound);
    if r > c {
        // the transposed strip, then its cells read back: two planes at once
        control.reserve(format!("a {r}×{c} Zeruclid map"), bytes.saturating_mul(2))?;
        let t = fill_zeruclid(c, r, terminal, control)?;
        let mut cells = Cells::new(r * c, bound);
        for a in 0..r {
            for b in 0..c {
                cells.set(a * c + b, t.cells.get(b * r + a));
            }
        }
        return Ok(Plane {
            rows: r,
            cols: c,
            symmetric: false,
            cells,
        });
    }
    control.reserve(format!("a {r}×{c} Zeruclid map"), bytes)?;
    let mut cells = Cells::new(r * c, bound);
    let (mut opts, mut seen) = (Vec::new(), MexSet::new());
    let mut classes: Vec<MexSet> = Vec::new();
    // per class, the least value that may be its next: at most mex(class ∪ {G(0, b)}), which
    // only grows as the class does (G(0, b) is the same for every b ≥ 1: (0, b) has the one
    // option (0, 0))
    let mut next: Vec<u32> = Vec::new();
    for a in 0..r {
        control.check()?;
        let chains = a >= 1 && c / a > LONG_CLASS;
        classes.clear();
        next.clear();
        if chains {
            classes.resize_with(a, MexSet::new);
            next.resize(a, 0);
        }
        for b in 0..c {
            let v = if a == 0 && b == 0 {
                terminal
            } else if chains && b >= a {
                // the mex of the class so far together with G(0, b)
                let (class, zero, y) = (&classes[b % a], cells.get(b), &mut next[b % a]);
                while *y == zero || class.contains(*y) {
                    *y += 1;
                }
                *y
            } else {
                opts.clear();
                heaps::zeruclid2_options(a as u64, b as u64, &mut opts);
                seen.clear();
                for &(x, y) in &opts {
                    seen.insert(cells.get(x as usize * c + y as usize));
                }
                seen.mex()
            };
            cells.set(a * c + b, v);
            if chains {
                classes[b % a].insert(v);
            }
        }
        control.add_done(c as u64);
    }
    Ok(Plane {
        rows: r,
        cols: c,
        symmetric: false,
        cells,
    })
}

/// The plain fill of the same map, listing every option (what the fill above must equal).
#[cfg(test)]
fn listed(r: usize, c: usize, terminal: u32) -> Plane {
    use super::enumerated::fill_enumerated;
    let empty = Plane {
        rows: r,
        cols: c,
        symmetric: false,
        cells: Cells::Wide(Vec::new()),
    };
    fill_enumerated(
        empty,
        2 * (r + c) as u64,
        terminal,
        &[],
        &Control::new(),
        |a, b, out| {
            heaps::zeruclid2_options(a, b, out);
            true
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_squares_equal_the_listed_fill() {
        for (r, c) in [(1, 500), (2, 700), (5, 400), (40, 40), (300, 3), (64, 2200)] {
            for terminal in [0, 1] {
                let fast = fill_zeruclid(r, c, terminal, &Control::new()).unwrap_or_else(|e| panic!("{e}"));
                let plain = listed(r, c, terminal);
                for i in 0..r * c {
                    assert_eq!(
                        fast.cells.get(i),
                        plain.cells.get(i),
                        "{r}×{c}, terminal {terminal}, cell {i}"
                    );
                }
            }
        }
    }
}
