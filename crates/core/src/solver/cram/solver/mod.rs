//! The Cram solver: exact Grundy values and outcomes of positions, found by search with a
//! transposition table kept between requests.
//!
//! Values are found by search rather than by the mex over all options: for v = 0, 1, ... the
//! solver looks for an option of value v, asking each option only "is your value in this set?"
//! (Lemoine & Viennot, "Nimbers are inevitable", 2012; Beling & Rogalski, "On pruning search
//! trees of impartial games", 2020). An option that splits gets exact values for all but its
//! largest component, and the question moves to that component with the set shifted by XOR.
//! Options are keyed and looked up one by one, centre first (`expand.rs`), so that a question
//! is often settled by look-ups alone before any option is searched (Beling's enhanced
//! transposition cut-off). Besides exact values the table remembers values a component is
//! known not to have: those asked about when the answer is "no", and every exact value of an
//! option seen on the way (a component never has an option's value).
//!
//! The recursion depth is bounded by the number of dominoes that fit (at most 64) times a
//! small constant, so the stack stays small.
//!
//! The API and the root's bookkeeping are here; the search itself is in [`search`].

mod search;
#[cfg(test)]
mod tests;

use super::bits::move_count;
use super::pieces::PieceCache;
use super::table::{Filled, Info, Tables};
use crate::game::rules::cram_board::{Board, Domino};
use crate::solver::control::{Control, SolveError, StepCounter};
use std::sync::Arc;

/// Outcome classes are the engine's own.
pub use crate::game::Outcome;

// ---------------------------------------------------------------------------------------------
// The solver.
//
// Rather than taking the mex over the values of all options, the value of a component is
// found as in Lemoine & Viennot ("Nimbers are inevitable", 2012) with Beling's refinement: for
// v = 0, 1, 2, ... find one option whose value is v ("has value v?" is a search that stops at
// the first refutation) and drop it from the list, since an option has only one value; the
// first v that no remaining option has is the value. An option that splits into several
// components gets the exact values of all but its largest component, and the question about
// the option becomes a question about that largest component. Options whose components all
// have stored values are settled up front by table look-ups.

/// How many option evaluations happen between two polls of the [`Control`].
const POLL_EVERY: u64 = 4096;

/// Components below this many cells are searched on one thread: they take milliseconds, less
/// than starting threads for each round would cost.
pub(super) const PARALLEL_MIN_CELLS: u32 = 20;

/// Most threads a solver uses for the root's search.
const MAX_THREADS: usize = 8;

/// Positions each option may expand in the first round of [`CramSolver::every_option_p`].
const FIRST_OPTION_BUDGET: u64 = 256;

/// Default memory cap of the transposition table: 256 MiB (less when the job's memory
/// budget is smaller: the table takes at most half of it).
pub const DEFAULT_TABLE_BYTES: u64 = 256 << 20;

/// Counters of the work done by a solver, for tuning and progress displays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct CramStats {
    /// Components whose options were generated and searched.
    pub expanded: u64,
    /// Component look-ups answered by the table.
    pub table_hits: u64,
    /// Entries currently stored in the table.
    pub table_len: usize,
    /// Capacity of the table in entries (0 before the first request allocates it).
    pub table_capacity: usize,
}

/// What a look-up tells about a position before any search ([`CramSolver::peek`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peek {
    /// Its value, from stored values and closed forms alone.
    Known(u32),
    /// Not known: the legal moves and the cells of its components whose values are not
    /// stored (the solver's own measure of the work left: fewer moves first).
    Unknown {
        /// Number of legal moves.
        moves: u32,
        /// Empty cells of its components whose values are not stored.
        cells: u32,
    },
}

/// One option of a component being searched: components `comps[first..first + len]` (largest
/// last) whose values are not known yet, plus the XOR `xor` of the values of the others.
#[derive(Debug, Clone, Copy)]
pub(super) struct Opt {
    pub(super) first: u32,
    pub(super) len: u32,
    pub(super) xor: u32,
    /// Cells in the unknown components, for ordering.
    pub(super) cells: u32,
    /// Legal moves in the unknown components, for ordering.
    pub(super) moves: u32,
}

/// Cram solver with a transposition table that is kept between requests.
pub struct CramSolver {
    /// Shared with `helpers`.
    pub(super) table: Option<Arc<Tables>>,
    pub(super) table_bytes: u64,
    pub(super) expanded: u64,
    pub(super) hits: u64,
    /// Table slots this solver filled and has not reported to the tables yet.
    pub(super) filled: Filled,
    /// Threads for the root's search (this one included).
    pub(super) threads: usize,
    /// Solvers that search options of the root on other threads, sharing the table.
    pub(super) helpers: Vec<CramSolver>,
    /// Polls the control every `POLL_EVERY` steps.
    pub(super) steps: StepCounter<POLL_EVERY>,
    /// Stacks shared by the nested searches: each search pushes its options and their
    /// components on top and truncates back when it returns.
    pub(super) opts: Vec<Opt>,
    pub(super) comps: Vec<(u128, usize)>,
    /// The next set question searches its options in reverse order (a helping thread).
    pub(super) reverse_next: bool,
    /// A search stops with [`SolveError::Cancelled`] once `expanded` reaches this (a budget
    /// of work for one try of [`CramSolver::every_option_p`]; `u64::MAX` otherwise), and says
    /// so in `limit_hit`.
    pub(super) expand_limit: u64,
    pub(super) limit_hit: bool,
    /// What is known about the pieces options split into (`pieces.rs`).
    pub(in crate::solver::cram) pieces: PieceCache,
}

impl Default for CramSolver {
    fn default() -> Self {
        Self::new()
    }
}

/// Result of a search inside the solver.
pub(super) type Res<T> = Result<T, SolveError>;

impl CramSolver {
    /// A solver whose table may use up to [`DEFAULT_TABLE_BYTES`].
    pub fn new() -> Self {
        Self::with_table_bytes(DEFAULT_TABLE_BYTES)
    }

    /// A solver whose table may use up to `bytes` (at least one bucket is always allocated).
    pub fn with_table_bytes(bytes: u64) -> Self {
        CramSolver {
            table: None,
            table_bytes: bytes,
            expanded: 0,
            hits: 0,
            filled: Filled::default(),
            threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(MAX_THREADS),
            helpers: Vec::new(),
            steps: StepCounter::default(),
            opts: Vec::new(),
            comps: Vec::new(),
            reverse_next: false,
            expand_limit: u64::MAX,
            limit_hit: false,
            pieces: PieceCache::new(),
        }
    }

    /// The number of threads searching the root's options (at least 1; by default the
    /// machine's cores, at most 8). The values found do not depend on it.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The search's counters so far, over the solver and its helper threads.
    pub fn stats(&self) -> CramStats {
        let helpers = self.helpers.iter().map(|h| h.stats());
        let (expanded, hits) = helpers.fold((self.expanded, self.hits), |(e, h), x| {
            (e + x.expanded, h + x.table_hits)
        });
        CramStats {
            expanded,
            table_hits: hits,
            table_len: self.table.as_ref().map_or(0, |t| t.len()),
            table_capacity: self.table.as_ref().map_or(0, |t| t.capacity()),
        }
    }

    /// Forgets every stored value (a fresh table is allocated by the next request).
    pub fn clear(&mut self) {
        self.table = None;
        self.helpers.clear();
        self.pieces.clear();
        self.filled = Filled::default();
    }

    /// The solver's tables, allocated now if they are not yet (to the job's budget), for a
    /// checkpoint to read while the search runs and to restore into before it starts.
    pub(super) fn tables(&mut self, control: &Control) -> Res<Arc<Tables>> {
        self.begin(control)?;
        self.table
            .clone()
            .ok_or_else(|| SolveError::Unsupported("internal: no Cram table after begin".into()))
    }

    fn begin(&mut self, control: &Control) -> Res<()> {
        if let Some(n) = control.threads() {
            self.threads = n.max(1);
        }
        if self.table.is_none() {
            // Half the job's budget at most, the rest for everything else.
            let bytes = self
                .table_bytes
                .min(crate::solver::budget::search_table(control.memory_budget()));
            if bytes < crate::solver::budget::MIN_SEARCH_TABLE {
                return Err(SolveError::OverBudget {
                    what: "the Cram transposition table".into(),
                    needed: 2 * crate::solver::budget::MIN_SEARCH_TABLE,
                    budget: control.memory_budget(),
                });
            }
            let tables = Tables::with_bytes(bytes).map_err(|_| refused_memory("Cram", bytes))?;
            self.table = Some(Arc::new(tables));
        }
        // A cancelled search leaves its frames behind.
        self.opts.clear();
        self.comps.clear();
        Ok(())
    }

    fn end(&mut self, control: &Control) {
        self.steps.flush(control);
        self.report_filled();
    }

    /// Grundy value of the Cram position `board`.
    pub fn value(&mut self, board: &Board, control: &Control) -> Res<u32> {
        self.begin(control)?;
        let result = self.sum_value(board.empty_mask(), board.cols(), control);
        self.end(control);
        result
    }

    /// Outcome of `board`: `N` when the player to move wins.
    pub fn outcome(&mut self, board: &Board, control: &Control) -> Res<Outcome> {
        self.begin(control)?;
        let result = if self.threads > 1 {
            self.sum_is_zero_parallel(board.empty_mask(), board.cols(), control)
        } else {
            self.sum_has_value(board.empty_mask(), board.cols(), 0, control)
        };
        self.end(control);
        Ok(if result? { Outcome::P } else { Outcome::N })
    }

    /// The value of `board` if it lies in `set` (bit `v`: value `v`, below 128), `None` when
    /// it does not: the question a value plan's unit answers (`plan`), cheaper than the exact
    /// value when the set is small. May return a value outside `set` that the search found
    /// anyway. "Is it 0?" searches on every thread, as [`CramSolver::outcome`] does; larger
    /// sets on one.
    pub fn value_in_set(&mut self, board: &Board, set: u128, control: &Control) -> Res<Option<u32>> {
        if set == 1 {
            return Ok((self.outcome(board, control)? == Outcome::P).then_some(0));
        }
        self.begin(control)?;
        let hint = set.trailing_zeros();
        let result = self.sum_value_in_set(board.empty_mask(), board.cols(), hint, set, control);
        self.end(control);
        result
    }

    /// What the table and the closed forms say about `board` without searching: its value,
    /// or how much is left to search (the report of `progressive.rs` orders placements by it).
    pub fn peek(&mut self, board: &Board, control: &Control) -> Res<Peek> {
        self.begin(control)?;
        let (xor, n, cells) = self.push_components(board.empty_mask(), board.cols());
        let moves = self.comps.iter().map(|&(k, kw)| move_count(k, kw)).sum();
        self.comps.clear();
        Ok(if n == 0 {
            Peek::Known(xor)
        } else {
            Peek::Unknown { moves, cells }
        })
    }

    /// The value of the position after each legal move, in [`Board::legal_moves`] order.
    /// Winning moves are those of value 0.
    pub fn move_values(&mut self, board: &Board, control: &Control) -> Res<Vec<(Domino, u32)>> {
        let moves = board.legal_moves();
        let mut out = Vec::with_capacity(moves.len());
        for d in moves {
            // place() cannot fail for a move listed by legal_moves().
            let after = board.place(d).map_err(|e| SolveError::Unsupported(e.to_string()))?;
            out.push((d, self.value(&after, control)?));
        }
        Ok(out)
    }

    /// Legal moves to a position of value 0 (P-positions), in [`Board::legal_moves`] order.
    /// Decided by outcome searches, which is cheaper than [`CramSolver::move_values`].
    pub fn winning_moves(&mut self, board: &Board, control: &Control) -> Res<Vec<Domino>> {
        let mut out = Vec::new();
        for d in board.legal_moves() {
            let after = board.place(d).map_err(|e| SolveError::Unsupported(e.to_string()))?;
            if self.outcome(&after, control)? == Outcome::P {
                out.push(d);
            }
        }
        Ok(out)
    }

    /// Whether `board` is a bluff position: a first-player win in which every move wins.
    pub fn is_bluff(&mut self, board: &Board, control: &Control) -> Res<bool> {
        self.every_option_p(board, control)
    }

    /// [`CramSolver::is_bluff`] for a board whose value is known: only a board of value 1 can
    /// be one (when every option has value 0 the value is mex{0} = 1), so no other needs a
    /// search.
    pub fn is_bluff_of_value(&mut self, board: &Board, value: u32, control: &Control) -> Res<bool> {
        if value != 1 {
            return Ok(false);
        }
        self.every_option_p(board, control)
    }

    /// Whether the board has moves and every one leads to a P-position. One option shown to be
    /// an N-position decides it, so the options the table already decides come first (after a
    /// search of the board's value most are), then the others by the work left in them, least
    /// first: showing an N-position takes one winning reply, a P-position a refutation of all.
    fn every_option_p(&mut self, board: &Board, control: &Control) -> Res<bool> {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return Ok(false);
        }
        let mut after = Vec::with_capacity(moves.len());
        for d in moves {
            after.push(board.place(d).map_err(|e| SolveError::Unsupported(e.to_string()))?);
        }
        self.begin(control)?;
        let mut unknown = Vec::with_capacity(after.len());
        let mut known_n = false;
        for b in after {
            match self.table_says_p(&b) {
                Ok(true) => {}
                Ok(false) => known_n = true,
                Err(work) => unknown.push((work, b)),
            }
        }
        unknown.sort_by_key(|&(work, _)| work);
        let result = if known_n {
            Ok(true)
        } else {
            let options = unknown.into_iter().map(|(_, b)| b).collect();
            self.first_n_option(options, FIRST_OPTION_BUDGET, control)
        };
        self.expand_limit = u64::MAX;
        self.limit_hit = false;
        self.end(control);
        Ok(!result?)
    }

    /// Whether one of `options` is an N-position. Which are is not known before searching
    /// them, and a P-position can cost many times what an N-position does, so each round
    /// gives every option left a budget of positions, four times the last round's, on this
    /// thread; what a stopped search proved stays in the table for the next round.
    fn first_n_option(&mut self, mut options: Vec<Board>, first_budget: u64, control: &Control) -> Res<bool> {
        let mut budget = first_budget;
        while !options.is_empty() {
            let mut i = 0;
            while i < options.len() {
                self.expand_limit = self.expanded.saturating_add(budget);
                let after = &options[i];
                match self.sum_has_value(after.empty_mask(), after.cols(), 0, control) {
                    Ok(true) => {
                        options.remove(i);
                    }
                    Ok(false) => return Ok(true),
                    Err(SolveError::Cancelled) if std::mem::take(&mut self.limit_hit) => i += 1,
                    Err(e) => return Err(e),
                }
            }
            budget = budget.saturating_mul(4);
        }
        Ok(false)
    }

    /// Whether the table and the closed forms show `board` to be a P-position (`Ok(true)`) or
    /// an N-position (`Ok(false)`); `Err((moves, cells))` of its unknown components when they
    /// do not.
    fn table_says_p(&mut self, board: &Board) -> Result<bool, (u32, u32)> {
        let base = self.comps.len();
        let (xor, _, cells) = self.push_components(board.empty_mask(), board.cols());
        let comps = self.comps.split_off(base);
        match comps[..] {
            [] => return Ok(xor == 0),
            // The value is v ^ xor: 0 exactly when v = xor.
            [(k, kw)] => {
                let info = self.info(k, kw);
                if let Some(v) = info.exact {
                    return Ok(v == xor);
                }
                if xor < 64 && info.not >> xor & 1 == 1 {
                    return Ok(false);
                }
            }
            _ => {}
        }
        Err((comps.iter().map(|&(k, kw)| move_count(k, kw)).sum(), cells))
    }

    /// The stored value of a component, if known.
    #[inline]
    pub(super) fn lookup(&mut self, key: u128, w: usize) -> Option<u32> {
        let v = self.table.as_ref().and_then(|t| t.exact(key, w));
        self.hits += v.is_some() as u64;
        v
    }

    /// Asks the processor to start loading the entry of a component's excluded values.
    #[inline]
    pub(super) fn prefetch_bounds(&self, key: u128, w: usize) {
        if let Some(t) = self.table.as_ref() {
            t.prefetch_bounds(key, w);
        }
    }

    /// What is known about a component: its value, else the values it does not have.
    #[inline]
    pub(super) fn info(&mut self, key: u128, w: usize) -> Info {
        let Some(t) = self.table.as_ref() else {
            return Info::default();
        };
        match t.exact(key, w) {
            Some(v) => Info { exact: Some(v), not: 0 },
            None => Info {
                exact: None,
                not: t.excluded(key, w),
            },
        }
    }

    #[inline]
    fn store(&mut self, key: u128, w: usize, value: u32) {
        if let Some(t) = self.table.as_ref() {
            t.store(key, w, value, &mut self.filled);
        }
    }

    /// Records that the value is none of `set`.
    #[inline]
    fn exclude(&mut self, key: u128, w: usize, set: u64) {
        if let Some(t) = self.table.as_ref() {
            t.exclude(key, w, set, &mut self.filled);
        }
    }

    pub(super) fn report_filled(&mut self) {
        if let Some(t) = self.table.as_ref() {
            t.flush(&mut self.filled);
        }
    }

    /// Runs a search whose options and components go on top of the stacks, and takes them off
    /// again, also when the search fails.
    #[inline]
    pub(super) fn in_frame<T>(&mut self, search: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        let (base_o, base_c) = (self.opts.len(), self.comps.len());
        let result = search(self);
        self.opts.truncate(base_o);
        self.comps.truncate(base_c);
        result
    }

    /// Records the answer to "is the value in `set`?" in the table: the value, or that it is
    /// none of `set`.
    #[inline]
    pub(super) fn record(&mut self, key: u128, w: usize, answer: Option<u32>, set: u128) -> Option<u32> {
        match answer {
            Some(v) => self.store(key, w, v),
            None => self.exclude(key, w, set as u64),
        }
        answer
    }
}

/// The error of a table whose memory the system refused.
pub(super) fn refused_memory(game: &str, bytes: u64) -> SolveError {
    SolveError::Unsupported(format!(
        "the system refused {} of memory for the {game} transposition table; lower the memory budget",
        crate::solver::control::human_bytes(bytes)
    ))
}

/// The set holding only `v` (empty for `v >= 128`).
#[inline]
pub(super) fn single(v: u32) -> u128 {
    if v < 128 { 1u128 << v } else { 0 }
}

/// `{x ^ v : x in set}` for `v < 128`.
#[inline]
fn xor_set(mut set: u128, v: u32) -> u128 {
    let mut out = 0u128;
    while set != 0 {
        let x = set.trailing_zeros();
        set &= set - 1;
        out |= 1u128 << (x ^ v);
    }
    out
}

/// The `n` smallest elements of `set`.
#[inline]
fn keep_smallest(mut set: u128, n: usize) -> u128 {
    while set.count_ones() as usize > n {
        set &= !(1u128 << (127 - set.leading_zeros()));
    }
    set
}
