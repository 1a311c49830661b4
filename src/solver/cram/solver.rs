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
//! known not to have.
//!
//! The recursion depth is bounded by the number of dominoes that fit (at most 64) times a
//! small constant, so the stack stays small.

use super::bits::move_count;
use super::table::{FillCounter, PAYLOAD_BITS, SharedTable};
use super::word_table::{BoundsTable, ExactTable};
use crate::game::rules::cram_board::{Board, Domino, low_bits};
use crate::solver::control::{Control, SolveError, StepCounter};
use std::sync::Arc;

/// Outcome classes are the engine's own.
pub use crate::game::Outcome;

/// What is known about the value of a component.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Info {
    pub(super) exact: Option<u32>,
    /// Bit `v` set: the value is not `v` (for `v < PAYLOAD_BITS`). A prefix of ones is a lower
    /// bound.
    not: u64,
}

/// The tables of components: key = canonical bits and width, priority = cell count.
///
/// Exact values and excluded values live apart. Every option of every component searched is
/// looked up for its exact value (the enhanced transposition cut-off), while what a component
/// is not is read only when it is itself searched, and there are about ten times more
/// components with excluded values than with exact ones. Keys of 64 bits or fewer go to
/// tables of one word an entry ([`ExactTable`], [`BoundsTable`]), small enough for the
/// processor's caches; wider keys (components of more than 64 cells) to [`SharedTable`]s.
pub(super) struct Tables {
    /// Absent when the memory is too small for them: then the shared tables take every key.
    small: Option<ExactTable>,
    small_bounds: Option<BoundsTable>,
    /// Payload: the value plus one.
    wide: SharedTable,
    /// Payload: bit `v` set when the value is not `v`.
    wide_bounds: SharedTable,
}

impl Tables {
    /// Tables that together use at most `bytes`: a quarter each, or half each for the shared
    /// tables when a quarter is too small for a table of words. (They start small and grow
    /// as they fill, so a table a search does not use costs no memory.)
    /// `Err`: the system refused the memory (the tables are virtual memory the size of their
    /// cap, of which only what is used gets pages; a cap beyond what the machine can map is
    /// refused here rather than aborting the process).
    pub(super) fn with_bytes(bytes: u64) -> Result<Tables, std::alloc::Layout> {
        let quarter = bytes / 4;
        Ok(if quarter >= BoundsTable::MIN_BYTES.max(ExactTable::MIN_BYTES) {
            Tables {
                small: Some(ExactTable::try_with_bytes(quarter)?),
                small_bounds: Some(BoundsTable::try_with_bytes(quarter)?),
                wide: SharedTable::try_with_bytes(quarter)?,
                wide_bounds: SharedTable::try_with_bytes(quarter)?,
            }
        } else {
            Tables {
                small: None,
                small_bounds: None,
                wide: SharedTable::try_with_bytes(bytes / 2)?,
                wide_bounds: SharedTable::try_with_bytes(bytes / 2)?,
            }
        })
    }

    /// Entries stored.
    pub(super) fn len(&self) -> usize {
        self.small.as_ref().map_or(0, |t| t.len())
            + self.small_bounds.as_ref().map_or(0, |t| t.len())
            + self.wide.len()
            + self.wide_bounds.len()
    }

    /// Slots in use now.
    pub(super) fn capacity(&self) -> usize {
        self.small.as_ref().map_or(0, |t| t.capacity())
            + self.small_bounds.as_ref().map_or(0, |t| t.capacity())
            + self.wide.capacity()
            + self.wide_bounds.capacity()
    }

    /// The table of words for the exact value of a key, if it fits one.
    #[inline(always)]
    fn small_for(&self, key: u128, w: usize) -> Option<&ExactTable> {
        self.small.as_ref().filter(|_| ExactTable::fits(key, w))
    }

    /// The table of words for the excluded values of a key, if it fits one.
    #[inline(always)]
    fn small_bounds_for(&self, key: u128, w: usize) -> Option<&BoundsTable> {
        self.small_bounds.as_ref().filter(|_| BoundsTable::fits(key, w))
    }

    /// The exact value of a component, if stored.
    #[inline]
    pub(super) fn exact(&self, key: u128, w: usize) -> Option<u32> {
        let payload = match self.small_for(key, w) {
            Some(t) => t.get(key as u64, w),
            None => self.wide.get(key, w as u16),
        };
        payload.map(|p| p as u32 - 1)
    }

    /// The values a component is known not to have (bit `v`: not `v`).
    #[inline]
    pub(super) fn excluded(&self, key: u128, w: usize) -> u64 {
        match self.small_bounds_for(key, w) {
            Some(t) => t.get(key as u64, w),
            None => self.wide_bounds.get(key, w as u16),
        }
        .unwrap_or(0)
    }

    /// Stores the value of a component, counting the slots filled in `filled`.
    #[inline]
    fn store(&self, key: u128, w: usize, value: u32, filled: &mut Filled) {
        match self.small_for(key, w) {
            Some(t) => {
                if value as u64 + 1 > ExactTable::PAYLOAD {
                    // Does not fit (63 options and more; no board comes near).
                    return;
                }
                let fresh = t.update(key as u64, w, |_| value as u64 + 1);
                filled.small.count(t, fresh);
            }
            None => {
                let fresh = self
                    .wide
                    .update(key, w as u16, key.count_ones() as u8, |_| value as u64 + 1);
                filled.wide.count(&self.wide, fresh);
            }
        }
    }

    /// Records that a component's value is none of `set` (bit `v`: not `v`).
    #[inline]
    fn exclude(&self, key: u128, w: usize, set: u64, filled: &mut Filled) {
        match self.small_bounds_for(key, w) {
            Some(t) => {
                let fresh = t.update(key as u64, w, |old| old.unwrap_or(0) | set);
                filled.small_bounds.count(t, fresh);
            }
            None => {
                let set = set & ((1 << PAYLOAD_BITS) - 1);
                let fresh = self
                    .wide_bounds
                    .update(key, w as u16, key.count_ones() as u8, |old| old.unwrap_or(0) | set);
                filled.wide_bounds.count(&self.wide_bounds, fresh);
            }
        }
    }

    /// Asks the processor to start loading the entry of a component's excluded values.
    #[inline]
    fn prefetch_bounds(&self, key: u128, w: usize) {
        match self.small_bounds_for(key, w) {
            Some(t) => t.prefetch(key as u64),
            None => self.wide_bounds.prefetch(key, w as u16),
        }
    }

    /// Calls `f(key, width, fact)` on every entry, while the search may go on (a checkpoint):
    /// the fact is an exact value (`Ok`) or a set of excluded values (`Err`, bit `v`: not `v`).
    pub(super) fn for_each_entry(&self, mut f: impl FnMut(u128, usize, Result<u32, u64>)) {
        if let Some(t) = &self.small {
            t.for_each_entry(|key, w, payload| f(key as u128, w, Ok(payload as u32 - 1)));
        }
        self.wide
            .for_each_entry(|key, tag, _, payload| f(key, tag as usize, Ok(payload as u32 - 1)));
        if let Some(t) = &self.small_bounds {
            t.for_each_entry(|key, w, set| f(key as u128, w, Err(set)));
        }
        self.wide_bounds
            .for_each_entry(|key, tag, _, set| f(key, tag as usize, Err(set)));
    }

    /// Stores what a checkpoint holds: an exact value (`Ok`) or a set of excluded values.
    pub(super) fn restore(&self, key: u128, w: usize, fact: Result<u32, u64>, filled: &mut Filled) {
        match fact {
            Ok(value) => self.store(key, w, value, filled),
            Err(set) => self.exclude(key, w, set, filled),
        }
    }

    /// Reports the slots counted in `filled`.
    pub(super) fn flush(&self, filled: &mut Filled) {
        if let Some(t) = &self.small {
            filled.small.flush(t);
        }
        if let Some(t) = &self.small_bounds {
            filled.small_bounds.flush(t);
        }
        filled.wide.flush(&self.wide);
        filled.wide_bounds.flush(&self.wide_bounds);
    }
}

/// Table slots one solver filled and has not reported to the tables yet.
#[derive(Debug, Default)]
pub(super) struct Filled {
    small: FillCounter,
    small_bounds: FillCounter,
    wide: FillCounter,
    wide_bounds: FillCounter,
}

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

/// Default memory cap of the transposition table: 256 MiB (less when the job's memory
/// budget is smaller: the table takes at most half of it).
pub const DEFAULT_TABLE_BYTES: u64 = 256 << 20;

/// Smallest table worth searching with: 64 KiB.
const MIN_TABLE_BYTES: u64 = 64 << 10;

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
    Unknown { moves: u32, cells: u32 },
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
        }
    }

    /// The number of threads searching the root's options (at least 1; by default the
    /// machine's cores, at most 8). The values found do not depend on it.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

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
            let bytes = self.table_bytes.min(control.memory_budget() / 2);
            if bytes < MIN_TABLE_BYTES {
                return Err(SolveError::OverBudget {
                    what: "the Cram transposition table".into(),
                    needed: 2 * MIN_TABLE_BYTES,
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
        let moves = board.legal_moves();
        if moves.is_empty() {
            return Ok(false);
        }
        for d in moves {
            let after = board.place(d).map_err(|e| SolveError::Unsupported(e.to_string()))?;
            if self.outcome(&after, control)? == Outcome::N {
                return Ok(false);
            }
        }
        Ok(true)
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

    /// Value of any set of cells (stride `w`): XOR of its components' values.
    fn sum_value(&mut self, cells: u128, w: usize, control: &Control) -> Res<u32> {
        let base = self.comps.len();
        let (mut xor, n, _) = self.push_components(cells, w);
        for i in 0..n as usize {
            let (k, kw) = self.comps[base + i];
            xor ^= self.root_nimber(k, kw, control)?;
        }
        self.comps.truncate(base);
        Ok(xor)
    }

    /// Whether the value of a set of cells (stride `w`) is `v`.
    pub(super) fn sum_has_value(&mut self, cells: u128, w: usize, v: u32, control: &Control) -> Res<bool> {
        let base = self.comps.len();
        let (xor, n, cells_left) = self.push_components(cells, w);
        let mut opt = Opt {
            first: base as u32,
            len: n,
            xor,
            cells: cells_left,
            moves: 0,
        };
        let result = self.option_value_in_set(&mut opt, v, single(v), control);
        self.comps.truncate(base);
        Ok(result? == Some(v))
    }

    /// The value of an option if it lies in `set` (`None`: it does not). Reduces the option to
    /// its largest component first, computing the others exactly, and records that in `opt`.
    /// `hint` is a value of `set` used when the set cannot hold it (values of 128 and more).
    pub(super) fn option_value_in_set(
        &mut self,
        opt: &mut Opt,
        hint: u32,
        set: u128,
        control: &Control,
    ) -> Res<Option<u32>> {
        self.steps.step(control)?;
        while opt.len > 1 {
            let (k, kw) = self.comps[opt.first as usize];
            opt.xor ^= self.nimber(k, kw, control)?;
            opt.cells -= k.count_ones();
            opt.first += 1;
            opt.len -= 1;
        }
        if opt.len == 0 {
            return Ok(Some(opt.xor));
        }
        let (k, kw) = self.comps[opt.first as usize];
        if set == 0 || opt.xor >= 128 {
            // Values of 128 and more do not fit the sets: compute the exact value (such values
            // need at least 128 options, so this does not happen on real boards).
            let v = self.nimber(k, kw, control)? ^ opt.xor;
            return Ok((set >> v.min(127) & 1 == 1 || v == hint).then_some(v));
        }
        Ok(self
            .nimber_in_set(k, kw, xor_set(set, opt.xor), control)?
            .map(|x| x ^ opt.xor))
    }

    /// Exact value of a component.
    pub(super) fn nimber(&mut self, key: u128, w: usize, control: &Control) -> Res<u32> {
        if let Some(v) = self.lookup(key, w) {
            return Ok(v);
        }
        let v = self.in_frame(|s| s.nimber_inner(key, w, control))?;
        self.store(key, w, v);
        Ok(v)
    }

    fn nimber_inner(&mut self, key: u128, w: usize, control: &Control) -> Res<u32> {
        let base = self.opts.len();
        // With an empty stop set the generation never stops early.
        let Some((known, count)) = self.push_options(key, w, 0) else {
            return Err(SolveError::Unsupported("internal: option generation stopped".into()));
        };
        self.mex_by_search(base, known, count, control)
    }

    /// The value of the component whose options are `opts[base..]`: for v = 0, 1, ... look
    /// for an option of value v, asking each option only "is your value v?"; an option that
    /// answers with another exact value is dropped and its value noted.
    pub(super) fn mex_by_search(&mut self, base: usize, known: [u64; 4], count: u32, control: &Control) -> Res<u32> {
        let mut known = known;
        let mut live = self.opts.len() - base;
        'values: for v in 0..=count {
            if v < 256 && known[(v / 64) as usize] >> (v % 64) & 1 == 1 {
                continue;
            }
            let mut i = base;
            while i < base + live {
                let mut opt = self.opts[i];
                let found = self.option_value_in_set(&mut opt, v, single(v), control)?;
                self.opts[i] = opt;
                match found {
                    Some(x) => {
                        self.opts.swap(i, base + live - 1);
                        live -= 1;
                        if x == v {
                            continue 'values;
                        }
                        if x < 256 {
                            known[(x / 64) as usize] |= 1 << (x % 64);
                        }
                    }
                    None => i += 1,
                }
            }
            return Ok(v);
        }
        // The mex of `count` values is at most `count`.
        Ok(count)
    }

    /// The component's value if it lies in `set` (bit v: value v < 128), `None` when it does
    /// not. May return a value outside `set` when it is known anyway. This is Beling and
    /// Rogalski's search ("On pruning search trees of impartial games", 2020): the candidates
    /// for the mex shrink as options report, and each option is only asked about the
    /// candidates that still matter.
    pub(super) fn nimber_in_set(&mut self, key: u128, w: usize, set: u128, control: &Control) -> Res<Option<u32>> {
        let info = self.info(key, w);
        if let Some(x) = info.exact {
            self.hits += 1;
            return Ok(Some(x));
        }
        // Values already excluded, and values above the number of options (< 2 * cells).
        let set = set & !(info.not as u128) & low_bits(2 * key.count_ones() as usize);
        if set == 0 {
            self.hits += 1;
            return Ok(None);
        }
        let answer = self.in_frame(|s| s.nimber_in_set_inner(key, w, set, control))?;
        Ok(self.record(key, w, answer, set))
    }

    fn nimber_in_set_inner(&mut self, key: u128, w: usize, set: u128, control: &Control) -> Res<Option<u32>> {
        let base = self.opts.len();
        let Some((known, count)) = self.push_options(key, w, set) else {
            // Options already have every value of `set`.
            return Ok(None);
        };
        let live = self.opts.len() - base;
        // A thread helping another on the same question takes the options from the other end
        // (`parallel.rs`); the order changes nothing but the time.
        let reverse = std::mem::take(&mut self.reverse_next);
        if count >= 127 {
            // Candidate sets hold values below 128: use the plain search.
            return Ok(Some(self.mex_by_search(base, known, count, control)?));
        }
        let known = known[0] as u128 | (known[1] as u128) << 64;
        // The value is the smallest candidate left once every option's value is removed; with
        // k options left only the k + 1 smallest candidates can still become it.
        let mut cand = keep_smallest(low_bits(count as usize + 1) & !known, live + 1);
        let top = 127 - set.leading_zeros();
        let upto = low_bits(top as usize + 1);
        let mut exact = true;
        for i in 0..live {
            if cand & set == 0 {
                return Ok(None);
            }
            // Whether the option's value is the largest candidate does not matter: that
            // candidate goes anyway when the option count drops.
            let largest = 1u128 << (127 - cand.leading_zeros());
            let below = cand & !largest;
            let query = below & upto;
            let j = if reverse { base + live - 1 - i } else { base + i };
            let mut opt = self.opts[j];
            let value = if query == 0 {
                None
            } else {
                let hint = query.trailing_zeros();
                self.option_value_in_set(&mut opt, hint, query, control)?
            };
            self.opts[j] = opt;
            match value {
                Some(x) if x < 128 => cand &= !(1u128 << x),
                Some(_) => {}
                None => {
                    cand = below;
                    exact = false;
                }
            }
            cand = keep_smallest(cand, live - i);
        }
        let e = cand.trailing_zeros();
        // Without every exact option value, candidates above the top of `set` may be wrong,
        // but those at or below it are right.
        Ok((exact || e <= top).then_some(e))
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

#[cfg(test)]
mod tests {
    use super::super::keys::component_key;
    use super::*;

    /// The 8 images of a board under the symmetries of the square, cell by cell.
    fn images(b: &Board) -> Vec<Board> {
        let (h, w) = (b.rows(), b.cols());
        let mut out = Vec::new();
        for t in 0..8 {
            let (nh, nw) = if t >= 4 { (w, h) } else { (h, w) };
            let mut mask = 0u128;
            for r in 0..h {
                for c in 0..w {
                    if b.is_empty(r, c) {
                        let (mut rr, mut cc) = if t >= 4 { (c, r) } else { (r, c) };
                        if t & 1 == 1 {
                            cc = nw - 1 - cc;
                        }
                        if t & 2 == 2 {
                            rr = nh - 1 - rr;
                        }
                        mask |= 1u128 << (rr * nw + cc);
                    }
                }
            }
            out.push(Board::from_mask(nh, nw, mask).unwrap());
        }
        out
    }

    #[test]
    fn keys_are_symmetry_invariant() {
        for text in [
            "#.../#.##/#.##",
            "#.../..../.#../####",
            "1x7",
            "##.../....#",
            "..#/.../#..",
            "2x5",
        ] {
            let b: Board = text.parse().unwrap();
            let key = component_key::<u128>(b.empty_mask(), b.cols());
            for img in images(&b) {
                assert_eq!(
                    component_key::<u128>(img.empty_mask(), img.cols()),
                    key,
                    "{text} -> {img}"
                );
            }
        }
        // Different shapes get different keys.
        let k = |t: &str| {
            let b: Board = t.parse().unwrap();
            component_key::<u128>(b.empty_mask(), b.cols())
        };
        assert_ne!(k(".../..#"), k("..../...#"));
        assert_eq!(k("#..../#####"), k("#/./././."));
    }

    #[test]
    fn small_values() {
        let mut s = CramSolver::with_table_bytes(1 << 20);
        let c = Control::new();
        let v = |s: &mut CramSolver, t: &str| s.value(&t.parse().unwrap(), &c).unwrap();
        assert_eq!(v(&mut s, "1x1"), 0);
        assert_eq!(v(&mut s, "1x2"), 1);
        assert_eq!(v(&mut s, "1x4"), 2);
        assert_eq!(v(&mut s, "2x2"), 0);
        assert_eq!(v(&mut s, "2x3"), 1);
        assert_eq!(v(&mut s, "#"), 0);
        assert_eq!(v(&mut s, "1x128"), v(&mut s, "128x1"));
        // A bridge goes: the path of 5 cells is two dominoes (0.07: G(5) = 0).
        assert_eq!(v(&mut s, "...../#####"), 0);
        assert_eq!(v(&mut s, "....#/#####"), 2);
        // A closed 2×2 block whose horizontal edges go, then a star (value 0 by the brute force
        // of tests/cram_solver.rs; splitting again with stale block edges once gave 2).
        assert_eq!(v(&mut s, "#.#/.../..#"), 0);
    }
}
