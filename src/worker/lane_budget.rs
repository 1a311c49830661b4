//! What a lane keeps between jobs, held within the memory budget.
//!
//! A lane's thread keeps its caches (the inspector's maps, sequences and search memos, the
//! board editor's Cram tables, the map's tile source) so the next request starts from them.
//! Each keeper accounts for what it holds against the budget of the job that uses it: the
//! evaluator gives back its least recently used caches before it allocates (see
//! `Evaluator::trim`), the tile source and the Cram solvers count what they keep in what they
//! reserve. What the lane's other keepers hold is taken off the job's budget, and given back
//! if the job needs it. So the caches and the job together stay within the budget.

use super::protocol::{JobError, JobSpec};
use nimscope_core::solver::Control;
use nimscope_core::solver::cram::push::PushCramSolver;
use nimscope_core::solver::cram::report::CramSolvers;
use nimscope_core::solver::cram::{self, CramSolver};
use nimscope_core::solver::evaluate::Evaluator;
use nimscope_core::solver::tiles::TileSource;

/// What a lane's thread keeps from one job to the next.
pub struct LaneState {
    pub evaluator: Evaluator,
    /// The board editor's solvers (Cram lane), kept for their transposition tables.
    pub cram: CramSolvers,
    /// The map's tile source, kept so each map job continues from what the last one computed.
    pub tiles: Option<TileSource>,
    /// The difference mode's compared ruleset's source.
    pub compare: Option<TileSource>,
    /// The most each Cram transposition table may grow to.
    cram_table_bytes: u64,
}

impl LaneState {
    /// Empty caches for jobs with `budget` bytes: each Cram table may take a quarter of it, at
    /// most the solvers' default and at least [`nimscope_core::solver::budget::MIN_LANE_TABLE`] (a smaller budget refuses
    /// Cram boards as over budget).
    pub fn new(budget: u64) -> Self {
        let cram_table_bytes = nimscope_core::solver::budget::lane_table(budget, cram::DEFAULT_TABLE_BYTES);
        Self {
            evaluator: Evaluator::with_cram_table_bytes(cram_table_bytes),
            cram: Self::cram_solvers(cram_table_bytes),
            tiles: None,
            compare: None,
            cram_table_bytes,
        }
    }

    fn cram_solvers(table_bytes: u64) -> CramSolvers {
        CramSolvers {
            cram: CramSolver::with_table_bytes(table_bytes),
            push: PushCramSolver::with_table_bytes(table_bytes),
        }
    }

    /// Memory the caches hold (a Cram table counted at the size it may grow to, once allocated).
    pub fn bytes(&self) -> u64 {
        self.evaluator.cache_bytes() + self.board_bytes() + self.map_bytes()
    }

    fn map_bytes(&self) -> u64 {
        self.tiles.as_ref().map_or(0, TileSource::bytes) + self.compare.as_ref().map_or(0, TileSource::bytes)
    }

    fn board_bytes(&self) -> u64 {
        let cram = self.cram.cram.stats().table_capacity > 0;
        let push = self.cram.push.table_len() > 0 || self.cram.push.expanded() > 0;
        (u64::from(cram) + u64::from(push)) * self.cram_table_bytes
    }

    /// Gives memory back until the caches hold at most `limit`: the inspector's least recently
    /// used caches first, then the board editor's tables, then the compared map's source, then
    /// the map's.
    pub fn trim(&mut self, limit: u64) {
        let others = self.board_bytes() + self.map_bytes();
        self.evaluator.trim(limit.saturating_sub(others));
        if self.bytes() > limit && self.board_bytes() > 0 {
            self.cram = Self::cram_solvers(self.cram_table_bytes);
        }
        if self.bytes() > limit {
            self.compare = None;
        }
        if self.bytes() > limit {
            self.tiles = None;
        }
    }
}

/// Returns the memory freed so far to the system. Freeing a cache gives its blocks back to the
/// allocator, and glibc keeps freed blocks below its mmap threshold (32 MiB at most) in its
/// arenas, the lane thread's own among them: without this an emptied lane would stay resident.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointers; it walks the allocator's own free lists
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Which part of a lane's state a job keeps its work in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keeper {
    Evaluator,
    Board,
    /// The map's and the compared map's tile sources.
    Map,
    /// Nothing is kept (sequences, figures, CSV files, the quotient window's quotients).
    Nothing,
}

impl Keeper {
    pub fn of(spec: &JobSpec) -> Self {
        match spec {
            JobSpec::Position { .. } => Keeper::Evaluator,
            JobSpec::CramBoard { .. } => Keeper::Board,
            JobSpec::Map(_) => Keeper::Map,
            JobSpec::Sequence { .. } | JobSpec::Export { .. } | JobSpec::Csv { .. } | JobSpec::Quotient { .. } => {
                Keeper::Nothing
            }
        }
    }
}

impl LaneState {
    /// What `keeper` holds.
    pub fn bytes_of(&self, keeper: Keeper) -> u64 {
        match keeper {
            Keeper::Evaluator => self.evaluator.cache_bytes(),
            Keeper::Board => self.board_bytes(),
            Keeper::Map => self.map_bytes(),
            Keeper::Nothing => 0,
        }
    }

    /// Empties every keeper but `keeper`.
    fn free_all_but(&mut self, keeper: Keeper) {
        if keeper != Keeper::Evaluator {
            self.evaluator.trim(0);
        }
        if keeper != Keeper::Board && self.board_bytes() > 0 {
            self.cram = Self::cram_solvers(self.cram_table_bytes);
        }
        if keeper != Keeper::Map {
            self.tiles = None;
            self.compare = None;
        }
    }
}

/// Runs `job`, which keeps its work in `keeper`, with what the lane's other keepers leave of
/// `control`'s budget; refused as over that budget, it runs again after they gave their memory
/// back. The caches hold at most the budget afterwards.
pub fn run_within_budget<T>(
    state: &mut LaneState,
    keeper: Keeper,
    control: &Control,
    mut job: impl FnMut(&mut LaneState, &Control) -> Result<T, JobError>,
) -> Result<T, JobError> {
    let budget = control.memory_budget();
    let others = state.bytes().saturating_sub(state.bytes_of(keeper));
    let mut result = job(state, &control.with_budget_at_most(budget.saturating_sub(others)));
    if others > 0 && matches!(result, Err(JobError::OverBudget { .. })) {
        state.free_all_but(keeper);
        result = job(state, control);
    }
    // a keeper's estimate of what it keeps may be off: never keep more than the budget
    state.trim(budget);
    result
}
