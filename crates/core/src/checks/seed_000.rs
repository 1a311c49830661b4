//! Seed 000 (Cole & Davie's Euclid and its relatives): the closed forms of its maps.

use crate::game::theory as th;
// the theorems are checked against the fill from the origin, never against their own formulas
use super::compare::*;
use crate::solver::{Control, SolveError};

pub(super) fn seed_000(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    let e = map("euclid", n, c)?;
    let g = map("grossman", n, c)?;
    let m = map("m-euclid", n, c)?;
    let range = format!("0 < a < b < {n}");
    let below = |a: u64, b: u64| 0 < a && a < b;
    cells(1, n, below, |a, b| {
        (e.get(a, b) != Some(th::euclid_grundy(a, b) as u32))
            .then(|| format!("G_E({a},{b}) = {:?}, formula {}", e.get(a, b), th::euclid_grundy(a, b)))
    })
    .push_to(
        rows,
        "seed 000 Thm 1",
        "G_E(a,b) = ⌊b/a⌋ − [I(a,b) odd] (Euclid, Cole–Davie)",
        range.clone(),
    );
    cells(1, n, below, |a, b| {
        (g.get(a, b) != Some(th::grossman_grundy(a, b) as u32)).then(|| {
            format!(
                "G_G({a},{b}) = {:?}, formula {}",
                g.get(a, b),
                th::grossman_grundy(a, b)
            )
        })
    })
    .push_to(
        rows,
        "seed 000 Thm 1",
        "G_G = G_E except all partial quotients equal (Grossman)",
        range,
    );
    let m_domain = |a: u64, b: u64| below(a, b) && !b.is_multiple_of(a);
    let range_m = format!("0 < a < b < {n}, a ∤ b");
    cells(1, n, m_domain, |a, b| {
        (m.get(a, b) != Some(th::m_euclid_grundy(a, b) as u32)).then(|| {
            format!(
                "G_M({a},{b}) = {:?}, formula {}",
                m.get(a, b),
                th::m_euclid_grundy(a, b)
            )
        })
    })
    .push_to(
        rows,
        "seed 000 Thm 2",
        "G_M(a,b) = ⌊b/a⌋ − [J(a,b) odd] (M-Euclid)",
        range_m.clone(),
    );
    cells(1, n, m_domain, |a, b| {
        let (Some(ge), Some(gg), Some(gm)) = (e.get(a, b), g.get(a, b), m.get(a, b)) else {
            return Some(missing("Euclid, Grossman or M-Euclid", a, b));
        };
        let (from_e, from_g) = (
            th::corollary_m_from_e(a, b, ge as u64),
            th::corollary_m_from_g(a, b, gg as u64),
        );
        (from_e != gm as u64 || from_g != gm as u64)
            .then(|| format!("({a},{b}): G_M = {gm}, from G_E {from_e}, from G_G {from_g}"))
    })
    .push_to(
        rows,
        "seed 000 Corollary",
        "G_M from G_E and from G_G as stated",
        range_m,
    );
    Ok(())
}
