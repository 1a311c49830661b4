//! The memory budget and its shares, named once. A job is given a budget (`--memory-budget`,
//! or the window's per-job budget); the parts of the program that hold memory for long take
//! a named share of it, so "half" or "a quarter" means the same thing everywhere.

/// Default memory budget for one job: 4 GiB.
pub const DEFAULT: u64 = 4 << 30;

/// The most a search's transposition table (Cram, Push Cram) takes of its job's budget: half,
/// the rest for everything else the job holds.
pub fn search_table(budget: u64) -> u64 {
    budget / 2
}

/// The most a listing held whole (the options `moves` prints, aligned in columns) takes of
/// its job's budget: half.
pub fn held_listing(budget: u64) -> u64 {
    budget / 2
}

/// The smallest transposition table a search works with at all (below it a job is refused as
/// over budget): 64 KiB.
pub const MIN_SEARCH_TABLE: u64 = 64 << 10;

/// What the window's tile store keeps of its per-job budget: a quarter (the tiles of every
/// level, for panning back).
pub fn tile_store(budget: u64) -> u64 {
    budget / 4
}

/// Each Cram table a worker lane keeps between jobs: a quarter of the lane's budget, within
/// [`MIN_LANE_TABLE`] and the solvers' default cap (`default_cap`).
pub fn lane_table(budget: u64, default_cap: u64) -> u64 {
    (budget / 4).clamp(MIN_LANE_TABLE, default_cap)
}

/// The smallest Cram table a worker lane allocates: below it the search would spend its time
/// recomputing what it forgot.
pub const MIN_LANE_TABLE: u64 = 4 << 20;

/// The largest search (by its bound on the collections it meets) under which a collection of
/// a misère octal game is searched for its misère Grundy value rather than answered by the
/// misère quotient (its outcome alone): 2 MiB, as many collections as 16 MiB held before the
/// memo packed them (`search/memo.rs`; heaps up to 41 of 0.6, 52 of 0.07), so a sequence's
/// searches stay a matter of seconds.
pub const MISERE_GRUNDY_SEARCH: u64 = 2 << 20;

/// The most memory a misère quotient computed to answer a position or a sequence may use.
pub const MISERE_QUOTIENT: u64 = 256 << 20;

/// A number of bytes as the command line's `--memory-budget` and Python's `memory_budget=`
/// take it: digits, then an optional unit K, M, G or T (powers of 1024; `KB`, `KiB` too).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, unit) = t.find(|c: char| !c.is_ascii_digit()).map_or((t, ""), |i| t.split_at(i));
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{} is not a size such as 512M or 4G", crate::game::quote::quoted(text)))?;
    let mult: u64 = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => {
            return Err(format!(
                "{}: unknown unit {} (use K, M, G or T)",
                crate::game::quote::quoted(text),
                crate::game::quote::quoted(unit)
            ));
        }
    };
    n.checked_mul(mult)
        .ok_or_else(|| format!("{} is too large", crate::game::quote::quoted(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_stay_within_the_budget() {
        for budget in [0, 1, 64 << 10, 16 << 20, DEFAULT, u64::MAX] {
            assert!(search_table(budget) <= budget);
            assert!(tile_store(budget) <= budget);
            assert!(search_table(budget) + tile_store(budget) <= budget);
        }
        assert_eq!(lane_table(1 << 20, 256 << 20), MIN_LANE_TABLE);
        assert_eq!(lane_table(64 << 30, 256 << 20), 256 << 20);
        const { assert!(MIN_SEARCH_TABLE < MIN_LANE_TABLE) };
    }
}
