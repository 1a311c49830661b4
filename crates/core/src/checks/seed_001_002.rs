//! Seeds 001–002 (Grossman's game, Zeruclid, Common Divisor Nim): their outcome and value
//! statements.

use crate::game::Position;
use crate::game::theory as th;
// the theorems are checked against the fill from the origin, never against their own formulas
use super::compare::*;
use crate::solver::search::Search;
use crate::solver::{Control, SolveError};

pub(super) fn seed_001_002(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    let cdn = map("cdn", n, c)?;
    let mut t = cells(0, n, all, |a, b| {
        (cdn.get(a, b) != Some(th::cdn_grundy(&[a, b]) as u32))
            .then(|| format!("G({a},{b}) = {:?}, formula {}", cdn.get(a, b), th::cdn_grundy(&[a, b])))
    });
    let k = (n / 6).max(4).min(n);
    let mut s = Search::new(rules("cdn"));
    searching(c, format!("cdn's three-heap positions below {k}"), k * k * k);
    for x in 0..k {
        c.add_done(k * k);
        for y in 0..k {
            for z in 0..k {
                let v = s.value(&Position::heaps(&[x, y, z]), c)?;
                t.case(
                    (v != th::cdn_grundy(&[x, y, z]) as u32)
                        .then(|| format!("G({x},{y},{z}) = {v}, formula {}", th::cdn_grundy(&[x, y, z]))),
                );
            }
        }
    }
    t.push_to(
        rows,
        "seed 001 Thm 1.3",
        "CDN: G = v₂(gcd)+1 if an odd number of heaps attain it, else 0 (derived)",
        format!("two heaps < {n}, three heaps < {k}"),
    );
    let e = map("euclid", n, c)?;
    cells(1, n, all, |a, b| {
        let Some(v) = e.get(a, b) else {
            return Some(missing("Euclid", a, b));
        };
        let computed = v != 0;
        (computed != th::euclid_first_player_wins(a, b))
            .then(|| format!("({a},{b}) is {}", if computed { "N" } else { "P" }))
    })
    .push_to(
        rows,
        "seed 002 Theorem",
        "Euclid: first player wins iff b/a ∈ ℤ or b/a > Φ",
        format!("1 ≤ a, b < {n}"),
    );
    Ok(())
}
