//! Tests of [`PoolJob`]: pooled tiles against a brute force over the plain grid, the colour
//! range's counts, Wythoff's outcomes far out.

use super::*;
use crate::game::{Layout, Ruleset};
use crate::solver::grid::grid;
use crate::solver::tiles::{TileStore, combine};

/// Fills `view` of `rules` at `level` through a source and a pool job, into a store.
fn pooled(rules: &str, slice: Option<&str>, rule: KeyRule, level: u8, view: CellRect) -> (TileStore, Option<u32>) {
    let r: Ruleset = rules.parse().unwrap();
    let layout = slice.map_or(Layout::Plain, |s| Layout::parse_slice(s).unwrap());
    let mut source = TileSource::new_for(&r, &layout, rule == KeyRule::Outcome);
    let tiles = TileKey::covering(level, &view, (0.0, 0.0));
    let mut job = PoolJob::new(level, rule, view.clone(), tiles);
    let mut store = TileStore::new(u64::MAX);
    let c = Control::new();
    let region = job.region().clone();
    source
        .fill(&region, &c, &mut |s, stage| {
            for (k, t) in job.absorb(s, &Compare::Nothing, stage, &c)? {
                store.insert(k, &t);
            }
            Ok(())
        })
        .unwrap();
    (store, job.max_value())
}

/// The values counted for the colour range are those of the region asked for, whether it
/// lies inside the view, overlaps it or holds it, for a symmetric source (Wythoff), a
/// closed form (Euclid) and a slice: the counts of the plain grid over that region.
#[test]
fn the_colour_range_counts_the_region_asked_for() {
    let c = Control::new();
    for (rules, slice, view, counted) in [
        (
            "wythoff",
            None,
            CellRect::new(0..300, 0..400),
            CellRect::new(0..200, 0..200),
        ),
        (
            "wythoff",
            None,
            CellRect::new(50..300, 0..400),
            CellRect::new(0..500, 100..600),
        ),
        (
            "euclid",
            None,
            CellRect::new(10..300, 20..400),
            CellRect::new(0..900, 0..700),
        ),
        (
            "zeruclid",
            Some("1,_,_"),
            CellRect::new(0..40, 0..60),
            CellRect::new(10..90, 5..70),
        ),
    ] {
        let r: Ruleset = rules.parse().unwrap();
        let layout = slice.map_or(Layout::Plain, |s| Layout::parse_slice(s).unwrap());
        let mut source = TileSource::new(&r, &layout);
        let tiles = TileKey::covering(1, &view, (0.0, 0.0));
        let mut job = PoolJob::new(1, KeyRule::Value, view.clone(), tiles).count_over(counted.clone());
        let region = job.region().clone();
        source
            .fill(&region, &c, &mut |s, stage| {
                job.absorb(s, &Compare::Nothing, stage, &c).map(drop)
            })
            .unwrap();
        if let Some(rest) = job.uncounted().cloned() {
            source.fill(&rest, &c, &mut |_, _| Ok(())).unwrap();
            job.count_rest(&source, &c).unwrap();
        }
        let g = grid(&r, &layout, counted.rows.clone(), counted.cols.clone(), &c).unwrap();
        let want = ValueCounts::of(g.rows_iter().flat_map(|(_, row)| row.into_iter().flatten()));
        assert_eq!(job.counts(), &want, "{rules} {view:?} counting {counted:?}");
    }
}

/// A block's key from its cells' keys, counted plainly: the least, the greatest, or the
/// most common (ties: the least) position's key.
fn brute_pool(rule: KeyRule, keys: impl Iterator<Item = u32>) -> u32 {
    let keys: Vec<u32> = keys.collect();
    let positions = keys.iter().copied().filter(|&k| k != NO_POSITION);
    match rule {
        KeyRule::Greatest => positions.max().unwrap_or(NO_POSITION),
        KeyRule::MostCommon => {
            let mut counts = std::collections::BTreeMap::new();
            for k in positions {
                *counts.entry(k).or_insert(0u64) += 1;
            }
            let most = counts.values().copied().max().unwrap_or(0);
            counts
                .iter()
                .find(|(_, n)| **n == most)
                .map_or(NO_POSITION, |(k, _)| *k)
        }
        _ => keys.into_iter().fold(NO_POSITION, combine),
    }
}

/// A level-0 tile keeps each cell's value (the readout's), mirrored cells included.
fn values_kept(store: &TileStore, plain: &crate::solver::grid::Grid, region: &CellRect, rules: &str) {
    for a in region.rows.clone() {
        for b in region.cols.clone() {
            let want = plain.get_wide(a, b).map(|v| v.min(u64::from(NO_POSITION - 1)) as u32);
            assert_eq!(store.get(a, b), Some(want), "{rules} ({a}, {b}): the value kept");
        }
    }
}

/// Every pooled cell is its block's key in the plain grid (a brute force over the block:
/// the least, greatest or most common), every cell of the view is covered, and the scale
/// is the view's maximum.
#[test]
fn pooled_tiles_hold_the_least_key_of_their_blocks() {
    let c = Control::new();
    for (rules, slice, rule, level, view) in [
        ("wythoff", None, KeyRule::Value, 0, CellRect::new(0..300, 0..300)),
        ("wythoff", None, KeyRule::Value, 2, CellRect::new(5..1030, 3..700)),
        ("wythoff", None, KeyRule::MostCommon, 2, CellRect::new(5..1030, 3..700)),
        ("euclid", None, KeyRule::Greatest, 3, CellRect::new(0..900, 40..700)),
        (
            "zeruclid",
            Some("1,_,_"),
            KeyRule::MostCommon,
            2,
            CellRect::new(3..70, 0..90),
        ),
        (
            "zeruclid",
            Some("1,_,_"),
            KeyRule::Greatest,
            1,
            CellRect::new(0..70, 0..90),
        ),
        (
            "euclid",
            None,
            KeyRule::MostCommon,
            1,
            CellRect::new(1_000_000..1_000_300, 1_618_000..1_618_200),
        ),
        (
            "wythoff",
            None,
            KeyRule::Residue(4),
            3,
            CellRect::new(900..2100, 17..2000),
        ),
        ("euclid", None, KeyRule::Value, 1, CellRect::new(100..700, 300..900)),
        // far from the origin, from the closed form
        (
            "euclid",
            None,
            KeyRule::Residue(3),
            2,
            CellRect::new(
                1_000_000_000_000..1_000_000_000_600,
                1_618_033_988_500..1_618_033_989_000,
            ),
        ),
        (
            "nim",
            None,
            KeyRule::Value,
            0,
            CellRect::new(1 << 40..(1 << 40) + 300, 5..300),
        ),
        // values past 32 bits: residues of the exact values
        (
            "nim",
            None,
            KeyRule::Residue(7),
            0,
            CellRect::new(5..300, (1 << 40) + 3..(1 << 40) + 200),
        ),
        (
            "euclid",
            None,
            KeyRule::Residue(5),
            1,
            CellRect::new(1..200, 1_000_000_000_000..1_000_000_000_300),
        ),
        ("grossman", None, KeyRule::Value, 2, CellRect::new(0..600, 0..600)),
        // level 0 under residues: the tiles keep the values too, mirrored ones included
        ("wythoff", None, KeyRule::Residue(3), 0, CellRect::new(3..300, 0..260)),
        ("euclid", None, KeyRule::Residue(2), 0, CellRect::new(0..200, 50..300)),
        ("fibonacci-nim", None, KeyRule::Value, 1, CellRect::new(0..300, 0..400)),
        (
            "zeruclid",
            Some("1,_,_"),
            KeyRule::Value,
            1,
            CellRect::new(0..70, 0..90),
        ),
        (
            "sum(sub(1,2),tag(3))",
            None,
            KeyRule::Residue(2),
            2,
            CellRect::new(3..500, 0..300),
        ),
    ] {
        let r: Ruleset = rules.parse().unwrap();
        let layout = slice.map_or(Layout::Plain, |s| Layout::parse_slice(s).unwrap());
        let (store, max) = pooled(rules, slice, rule, level, view.clone());
        let s = TileKey::block_of(level);
        let region = view.align_out(s);
        let plain = grid(&r, &layout, region.rows.clone(), region.cols.clone(), &c).unwrap();
        let mut want_max = None;
        for a in view.rows.clone() {
            for b in view.cols.clone() {
                if let Some(v) = plain.get(a, b) {
                    want_max = want_max.max(Some(v));
                }
            }
        }
        assert_eq!(max, want_max, "{rules}: the view's largest value");
        if level == 0 {
            values_kept(&store, &plain, &region, rules);
        }
        for bi in region.rows.start / s..region.rows.end / s {
            for bj in region.cols.start / s..region.cols.end / s {
                let keys = (bi * s..(bi + 1) * s)
                    .flat_map(|a| (bj * s..(bj + 1) * s).map(move |b| (a, b)))
                    .map(|(a, b)| rule.key_wide(plain.get_wide(a, b), None));
                let want = brute_pool(rule, keys);
                assert_eq!(
                    store.key(level, bi * s, bj * s),
                    Some(want),
                    "{rules} L{level} block ({bi}, {bj})"
                );
            }
        }
    }
}

/// Wythoff's P-positions pooled as outcomes, near the origin (the zeros of the filled map)
/// and at 10¹² (the pairs (⌊nφ⌋, ⌊nφ⌋ + n), by the defining inequality of ⌊nφ⌋); a cell's
/// readout is its value where the outcome gives it (0 at a P-position) and not computed
/// elsewhere, and a source of outcomes serves no map of values.
#[test]
fn wythoff_outcome_tiles_anywhere() {
    let c = Control::new();
    let r = Ruleset::Wythoff;
    let near = grid(&r, &Layout::Plain, 0..300, 0..300, &c).unwrap();
    let (an, bn) = crate::game::theory::wythoff_pair(618_033_988_749);
    let far = CellRect::new(an - 100..an + 100, bn - 150..bn + 150);
    let p_by_inequality = |a: u64, b: u64| {
        let (lo, hi) = (i128::from(a.min(b)), i128::from(a.max(b)));
        let n = hi - lo;
        let f = |m: i128| m * m - m * n - n * n;
        f(lo) < 0 && f(lo + 1) > 0
    };
    for (view, level) in [(CellRect::new(0..300, 0..300), 0), (far.clone(), 0), (far.clone(), 2)] {
        let (store, _) = pooled("wythoff", None, KeyRule::Outcome, level, view.clone());
        let s = TileKey::block_of(level);
        let region = view.align_out(s);
        for bi in region.rows.start / s..region.rows.end / s {
            for bj in region.cols.start / s..region.cols.end / s {
                let cells = || (bi * s..(bi + 1) * s).flat_map(|a| (bj * s..(bj + 1) * s).map(move |b| (a, b)));
                let p = if view.rows.start == 0 {
                    cells().any(|(a, b)| near.get(a, b) == Some(0))
                } else {
                    cells().any(|(a, b)| p_by_inequality(a, b))
                };
                assert_eq!(
                    store.key(level, bi * s, bj * s),
                    Some(u32::from(!p)),
                    "L{level} ({bi},{bj})"
                );
                if level == 0 {
                    let want = if p { Some(Some(0)) } else { None };
                    assert_eq!(store.get(bi, bj), want, "readout at ({bi},{bj})");
                }
            }
        }
    }
    let outcomes = TileSource::new_for(&r, &Layout::Plain, true);
    assert!(outcomes.outcome_only());
    assert!(outcomes.serves(&r, &Layout::Plain, true));
    assert!(!outcomes.serves(&r, &Layout::Plain, false));
    let values = TileSource::new(&r, &Layout::Plain);
    assert!(!values.serves(&r, &Layout::Plain, true));
    // a ruleset whose values have a closed form: one source for both
    let euclid: Ruleset = "euclid".parse().unwrap();
    assert!(TileSource::new(&euclid, &Layout::Plain).serves(&euclid, &Layout::Plain, true));
}
