//! Messages between the window and the solver thread. Every job has an id and a lane; a newer
//! job on a lane supersedes the older one, and results of superseded jobs are dropped. A job
//! may answer in parts before its last answer ([`Response::last`]): a map's tile batches, the
//! Cram lane's partial reports ([`Output::CramProgress`]), a misère quotient's stages
//! ([`Output::QuotientStage`]).

use std::path::PathBuf;
use std::sync::Arc;

use nimscope_core::figure::{FigureError, FigureSpec, Subject};
use nimscope_core::game::Layout;
use nimscope_core::game::Position;
use nimscope_core::game::Ruleset;
use nimscope_core::game::rules::cram_board::Board;
use nimscope_core::game::rules::one_heap::OctalCode;
use nimscope_core::raster::{ColorMode, CompareWith};
use nimscope_core::solver::SolveError;
use nimscope_core::solver::control::over_budget_message;
use nimscope_core::solver::cram::report::{CramPhase, CramReport};
use nimscope_core::solver::misere_quotient::{Quotient, Stage};
use nimscope_core::solver::report::PositionReport;
use nimscope_core::solver::sequence::Sequence;
use nimscope_core::solver::tiles::{CellRect, Tile, TileKey};

/// Identifies one job; ids grow, so a larger id is newer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JobId(pub u64);

/// Independent streams of work: a new map request must not cancel the inspector's, and the
/// other way round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The value map (or sequence) of the current ruleset (in the difference mode, with the
    /// compared ruleset's).
    Map,
    /// The selected position and its options (the inspector, play mode).
    Inspector,
    /// The Cram board editor's board.
    Cram,
    /// Files being written: figures (PNG or SVG) and the map's values as CSV.
    Export,
    /// The misère quotient window's quotient (started and stopped by hand, long).
    Quotient,
}

/// What to compute.
#[derive(Debug, Clone, PartialEq)]
pub enum JobSpec {
    /// The map of a two-heap ruleset (or a slice) over a view, pooled into tiles of one level;
    /// answered in batches as the cells are computed (see [`MapJob`]).
    Map(Box<MapJob>),
    /// G(0..n) of a one-heap ruleset.
    Sequence { ruleset: Ruleset, n: u64 },
    /// The board editor's report on one Cram or Push Cram position.
    CramBoard { board: Board, variant: CramPhase },
    /// One position's value and its first `limit` options with their values (the inspector).
    Position {
        ruleset: Ruleset,
        position: Position,
        limit: usize,
    },
    /// A figure drawn and written (atomically) to `path`, as PNG or SVG by its extension.
    /// `known`: the region's blocks as the window's map holds them (only the blocks they lack
    /// are computed, see [`nimscope_core::figure::make_figure_with`]).
    Export {
        spec: Box<FigureSpec>,
        path: PathBuf,
        known: Option<Arc<nimscope_core::solver::tiles::PooledRegion>>,
    },
    /// The values of `rows × cols` written (atomically) to `path` as CSV, the format of
    /// `nimscope grid`. `known`: the region's exact values as the window's map holds them
    /// (only the cells they lack are computed, see [`nimscope_core::solver::tiles::KnownCells::csv`]).
    Csv {
        ruleset: Ruleset,
        layout: Layout,
        rows: std::ops::Range<u64>,
        cols: std::ops::Range<u64>,
        path: PathBuf,
        known: Option<Arc<nimscope_core::solver::tiles::KnownCells>>,
    },
    /// The misère quotient of `octal(code)` for heaps up to `heaps`, answered heap by heap
    /// ([`Output::QuotientStage`]) before the quotient itself.
    Quotient { code: OctalCode, heaps: u16 },
}

impl JobSpec {
    /// Units of work, for the progress bar and the rate.
    pub fn size(&self) -> u64 {
        match self {
            JobSpec::Map(job) => job.view.len(),
            JobSpec::Sequence { n, .. } => *n,
            JobSpec::CramBoard { .. } => 0, // unknown: the editor shows positions searched
            JobSpec::Position { limit, .. } => *limit as u64,
            JobSpec::Export { spec, .. } => match &spec.subject {
                Subject::Map { rows, cols, .. } => rows.end.saturating_mul(cols.end),
                Subject::Sequence { n } => *n,
                Subject::Board(_) => 0,
            },
            // a fill reaches from the origin to the far corner of what it computes
            JobSpec::Csv { known: Some(k), .. } => {
                k.missing_span().map_or(0, |r| r.rows.end.saturating_mul(r.cols.end))
            }
            JobSpec::Csv { rows, cols, .. } => rows.end.saturating_mul(cols.end),
            JobSpec::Quotient { heaps, .. } => u64::from(*heaps),
        }
    }

    /// What [`JobSpec::size`] counts, in the plural, for the rate the status bar shows (a
    /// sequence counts heaps, the inspector options, a board positions).
    pub fn unit(&self) -> &'static str {
        match self {
            JobSpec::Map(_) | JobSpec::Csv { .. } => "cells",
            JobSpec::Sequence { .. } | JobSpec::Quotient { .. } => "heaps",
            JobSpec::CramBoard { .. } => "positions",
            // what a position's search counts: the positions it meets (the heaps of a
            // sequence computed up to it), not the options it lists
            JobSpec::Position { .. } => "positions",
            JobSpec::Export { spec, .. } => match &spec.subject {
                Subject::Map { .. } => "cells",
                Subject::Sequence { .. } => "heaps",
                Subject::Board(_) => "positions",
            },
        }
    }

    /// A few words for the status bar.
    pub fn describe(&self) -> String {
        match self {
            JobSpec::Map(job) => format!(
                "{}: the map of rows {}..{}, columns {}..{}",
                job.ruleset, job.view.rows.start, job.view.rows.end, job.view.cols.start, job.view.cols.end
            ),
            JobSpec::Sequence { ruleset, n } => format!("{ruleset}: G(0..{n})"),
            JobSpec::CramBoard { board, variant } => {
                format!("{}: {}×{} board", variant.describe(), board.rows(), board.cols())
            }
            JobSpec::Position { ruleset, position, .. } => format!("{ruleset}: position {position}"),
            JobSpec::Export { path, .. } => format!("exporting {}", path.display()),
            JobSpec::Csv { path, .. } => format!("writing {}", path.display()),
            JobSpec::Quotient { code, heaps } => {
                format!("misère quotient of octal({code}) for heaps up to {heaps}")
            }
        }
    }
}

/// The map over a view: every cell of `view` computed, pooled by the colour mode's rule into
/// blocks of 2^`level` cells, and the pooled cells of `tiles` (tiles of `level`) sent.
#[derive(Debug, Clone, PartialEq)]
pub struct MapJob {
    pub ruleset: Ruleset,
    pub layout: Layout,
    /// Sets the pooling rule (and, in the difference mode, what is compared).
    pub color: ColorMode,
    /// What a pooled cell of the Grundy colours keeps (the least, most common or greatest).
    pub pooling: nimscope_core::raster::Pooling,
    pub compare: CompareWith,
    pub level: u8,
    /// The cells shown (the colour scale is their largest value).
    pub view: CellRect,
    /// The tiles the window lacks, nearest the view's centre first.
    pub tiles: Vec<TileKey>,
    /// The cells whose values the last batch counts for the colour range's automatic top,
    /// when not the view's: the session's region, over which a figure of the session takes
    /// its top (filled too, after the view).
    pub scale: Option<CellRect>,
}

/// Part of a map job's answer: the tiles that gained pooled cells since the last batch.
#[derive(Debug, Clone)]
pub struct TileBatch {
    pub tiles: Vec<(TileKey, Arc<Tile>)>,
    /// The largest value among the view's cells computed so far (all of them in the last batch).
    pub max: Option<u32>,
    /// The last batch: the values of all the counted cells (the job's `scale`, else the
    /// view), counted (the colour range's automatic top is taken from them); `None` in the
    /// last batch when the job's `scale` could not be filled (over the memory budget).
    pub counts: Option<Box<nimscope_core::solver::tiles::ValueCounts>>,
}

/// A finished job's result.
#[derive(Debug, Clone)]
pub enum Output {
    /// Tiles of the map (a job answers with several batches; see [`Response::last`]).
    Tiles(TileBatch),
    Sequence(Arc<Sequence>),
    Cram(Arc<CramReport>),
    /// A partial report of the Cram lane's job (the value first, then the placements as they
    /// are valued, see `solver::cram::progressive`); the job goes on, and ends with `Cram`.
    CramProgress(Arc<CramReport>),
    Position(Arc<PositionReport>),
    /// A figure was written: its file and size in pixels, and the blocks of cells it drew
    /// from the window's map (`None`: every cell computed).
    Exported {
        path: PathBuf,
        width: u32,
        height: u32,
        from_map: Option<u64>,
    },
    /// A CSV file of values was written: its file, the number of rows and columns, and how
    /// many cells were computed for it (the others written as the window's map holds them).
    CsvWritten {
        path: PathBuf,
        rows: u64,
        cols: u64,
        computed: u64,
    },
    /// A heap added to the misère quotient being computed (the job goes on, and ends with
    /// `Quotient`).
    QuotientStage(Stage),
    Quotient(Arc<Quotient>),
}

/// What the worker sends back.
#[derive(Debug, Clone)]
pub struct Response {
    pub job: JobId,
    pub lane: Lane,
    pub spec: JobSpec,
    /// The result, or why there is none.
    pub result: Result<Output, JobError>,
    /// Whether this is the job's last answer (a map job sends batches before it, a Cram job
    /// its partial reports).
    pub last: bool,
}

/// Why a job gave no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// Refused before it started: it would need more memory than the budget.
    #[error("{}", over_budget_message(what, *needed, *budget))]
    OverBudget { what: String, needed: u64, budget: u64 },
    /// Stopped by the user or superseded (such results are normally dropped, never shown).
    #[error("cancelled")]
    Cancelled,
    /// The solver has no method for this ruleset or position.
    #[error("{0}")]
    Unsupported(String),
    /// Something went wrong on the way: a file not written, a figure too large, a panic.
    #[error("{0}")]
    Failed(String),
}

impl From<SolveError> for JobError {
    fn from(e: SolveError) -> Self {
        match e {
            SolveError::Cancelled => JobError::Cancelled,
            SolveError::OverBudget { what, needed, budget } => JobError::OverBudget { what, needed, budget },
            SolveError::Unsupported(why) => JobError::Unsupported(why),
            e @ SolveError::PastQuotient { .. } => JobError::Unsupported(e.to_string()),
            SolveError::Rule(why) | SolveError::Loops(why) => JobError::Failed(why),
        }
    }
}

impl From<FigureError> for JobError {
    fn from(e: FigureError) -> Self {
        match e {
            FigureError::Solve(e) => e.into(),
            e => JobError::Failed(e.to_string()),
        }
    }
}
