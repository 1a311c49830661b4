//! How large a unit's search is, before it runs: the positions it expands, the table it fills,
//! the time it takes on one thread, and the `--memory-budget` that gives its table room. An
//! **estimate**, from a fit on boards this machine finishes (the points below), not a
//! measurement: expect it to be off by a few times either way, more far beyond the boards
//! measured.
//!
//! - **Positions.** A Cram search's size grows about exponentially with the empty cells of a
//!   board of a given height (the shorter side of the box around its empty cells), faster for
//!   taller boards: `log10(positions) = a + b × cells`, fitted by least squares to the
//!   searches of [`CRAM_POINTS`] of that height (heights above 6 use height 6's line,
//!   heights below 3 height 3's). A unit asked one value costs less than its whole value, and
//!   the shared proven values cut it further: the estimate is of the whole search.
//! - **Time.** Each position costs more as the table outgrows the caches: on one thread of
//!   this machine, `0.8 µs × (positions / 2×10^5)^0.25` a position (4×9: 0.8 µs, 5×9: 2.5 µs,
//!   3×21: 6.5 to 7.5 µs, measured).
//! - **Table.** The search stores about 0.85 entries a position expanded (3×17, 3×19, 5×9),
//!   and a table holds an entry in 32 bytes once its room for doubling is counted (3×21 filled
//!   8 GiB with 256 M entries): `table_bytes` is the room for everything the search stores.
//!   A search also finishes in less, recomputing what its table dropped: 3×21 finished with a
//!   third of that room (`--memory-budget 16G`, an 8 GiB table, 3240 s). The budget suggested,
//!   `memory_budget`, gives the table half of its room (the table takes half of the budget),
//!   and 256 MiB for the rest: for 3×21 that is the 16G it ran with.
//! - **Push Cram** has its own line, fitted to the times of the outcome searches of 3×n
//!   (RECORDS.md: 3×23, 3×27, 3×31); its positions are inferred from the time.

use serde::Serialize;

use crate::game::cram_game::CramGame;
use crate::game::rules::cram_board::Board;

/// Said wherever estimates are printed.
pub const NOTE: &str = "estimates from a fit on Cram boards this machine finishes (3×13 to 3×21, 4×9 to 4×11, 5×6 to 5×9, 6×7) and Push Cram 3×23 to 3×31, not measurements: expect a few times either way";

/// Searches measured: (height, empty cells, positions expanded). Release build of commit
/// 7ec0835, one thread, `THREADS=1 TT_MB=4096 bench_cram 3x13 3x15 3x17 4x9 4x11 5x6 5x7 5x8
/// 5x9 3x19` (2026-11-27); 3×21 from RECORDS.md (2026-11-21, older code, two threads); 6×7's
/// positions inferred from its single search's 312 s on one thread (docs/cluster.md) by the
/// time per position below.
pub const CRAM_POINTS: &[(u32, u32, f64)] = &[
    (3, 39, 3.11e5),
    (3, 45, 5.91e5),
    (3, 51, 8.36e6),
    (3, 57, 7.64e7),
    (3, 63, 8.64e8),
    (4, 36, 2.11e5),
    (4, 44, 7.32e6),
    (5, 30, 4.77e4),
    (5, 35, 4.35e5),
    (5, 40, 1.43e6),
    (5, 45, 1.58e7),
    (6, 42, 8.5e7),
];

/// Push Cram outcome searches of 3×n: (empty cells, seconds on one thread).
const PUSH_POINTS: &[(u32, f64)] = &[(69, 6.0), (81, 170.0), (93, 4221.0)];

/// Seconds a position at 2×10^5 positions, and how that grows.
const SECONDS_PER_POSITION: f64 = 0.8e-6;
const GROWTH: f64 = 0.25;
const GROWTH_FROM: f64 = 2e5;

/// Table entries a position, and bytes an entry.
const ENTRIES_PER_POSITION: f64 = 0.85;
const BYTES_PER_ENTRY: f64 = 32.0;

/// The budget beside the table.
const PROCESS_BYTES: u64 = 256 << 20;

/// What a search is estimated to take.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// Components (Cram) or positions (Push Cram) expanded.
    pub positions: f64,
    /// The table's bytes for everything the search stores.
    pub table_bytes: f64,
    /// Seconds on one thread.
    pub seconds: f64,
    /// The `--memory-budget` suggested: the table gets half of the room it would fill.
    pub memory_budget: u64,
}

/// Least squares of `y` on `x`: (intercept, slope).
fn fit(points: impl Iterator<Item = (f64, f64)> + Clone) -> (f64, f64) {
    let n = points.clone().count() as f64;
    let (sx, sy) = points.clone().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (sxy, sxx) = points.fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - slope * mx, slope)
}

/// Seconds of a search of `positions` on one thread.
fn seconds_of(positions: f64) -> f64 {
    SECONDS_PER_POSITION * positions * (positions / GROWTH_FROM).max(1.0).powf(GROWTH)
}

/// Positions a search of `seconds` expands (the inverse of [`seconds_of`]).
fn positions_of(seconds: f64) -> f64 {
    // seconds = c p^(1+g) / p0^g for p above p0.
    let p = (seconds / SECONDS_PER_POSITION * GROWTH_FROM.powf(GROWTH)).powf(1.0 / (1.0 + GROWTH));
    if p >= GROWTH_FROM {
        p
    } else {
        seconds / SECONDS_PER_POSITION
    }
}

/// The estimate of a search that expands `positions`.
fn of_positions(positions: f64) -> Estimate {
    let table_bytes = positions * ENTRIES_PER_POSITION * BYTES_PER_ENTRY;
    let budget = table_bytes + PROCESS_BYTES as f64;
    Estimate {
        positions,
        table_bytes,
        seconds: seconds_of(positions),
        memory_budget: budget.min(u64::MAX as f64 / 2.0) as u64,
    }
}

/// The height used for a board: the shorter side of the box around its empty cells.
fn height(board: &Board) -> (u32, u32) {
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            if board.is_empty(r, c) {
                rows.push(r);
                cols.push(c);
            }
        }
    }
    let span = |v: &[usize]| match (v.iter().min(), v.iter().max()) {
        (Some(a), Some(b)) => (b - a + 1) as u32,
        _ => 0,
    };
    let (h, w) = (span(&rows), span(&cols));
    (h.min(w), rows.len() as u32)
}

/// The estimate for a unit of `game` on `board`.
pub fn of_board(game: CramGame, board: &Board) -> Estimate {
    let (h, cells) = height(board);
    match game {
        CramGame::Cram => {
            let h = h.clamp(3, 6);
            let (a, b) = fit(CRAM_POINTS
                .iter()
                .filter(|p| p.0 == h)
                .map(|&(_, c, p)| (f64::from(c), p.log10())));
            of_positions(10f64.powf(a + b * f64::from(cells)).max(1.0))
        }
        CramGame::PushCram => {
            let (a, b) = fit(PUSH_POINTS.iter().map(|&(c, s)| (f64::from(c), s.log10())));
            let seconds = 10f64.powf(a + b * f64::from(cells));
            of_positions(positions_of(seconds).max(1.0))
        }
    }
}

/// Seconds in words: `40 s`, `12 min`, `3.1 h`, `2.5 days`.
pub fn human_seconds(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.1} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 3.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_passes_near_its_points() {
        // Within a factor of 4 of every board measured.
        for &(h, cells, positions) in CRAM_POINTS {
            let rows = h as usize;
            let cols = (cells / h) as usize;
            let board = Board::rectangle(rows, cols).unwrap();
            let e = of_board(CramGame::Cram, &board);
            let ratio = e.positions / positions;
            assert!(
                (0.25..=4.0).contains(&ratio),
                "{rows}x{cols}: {} against {positions}",
                e.positions
            );
        }
        let t = of_board(CramGame::PushCram, &Board::rectangle(3, 27).unwrap()).seconds;
        assert!((40.0..700.0).contains(&t), "{t}");
    }

    #[test]
    fn time_and_positions_invert() {
        for p in [1e3, 2e5, 1e7, 1e10] {
            let back = positions_of(seconds_of(p));
            assert!((back / p - 1.0).abs() < 1e-6, "{p} {back}");
        }
    }
}
