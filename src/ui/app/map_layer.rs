//! The map's layer of values: the tiles of one ruleset, layout and pooling rule, the colour
//! scale of the view, and what the worker was last asked ([`MapLayer`]); and what the status
//! bar says of the map's job ([`MapStatus`]).

use std::time::Instant;

use crate::ui::canvas::Camera;
use crate::worker::{JobError, MapJob};
use nimscope_core::camera::CellRect;
use nimscope_core::game::{Layout, Position, Ruleset};
use nimscope_core::raster::{ColorMode, ColorRange, CompareWith, RangeTop};
use nimscope_core::solver::tiles::{KeyRule, TileStore, ValueCounts};

/// A filled map covers rows and columns below this (the worker's memory budget may stop it
/// sooner).
pub const MAX_MAP: u64 = 1 << 16;
/// A map computed cell by cell from its closed form covers rows and columns below this.
const MAX_DIRECT_MAP: u64 = nimscope_core::solver::tiles::MAX_VIEW;

/// How far a map of `ruleset` under `layout` goes, `outcome_form`: in a colour mode that takes
/// the outcomes' own closed form ([`ColorMode::has_outcome_form`]).
fn far_limit(ruleset: &Ruleset, layout: &Layout, outcome_form: bool) -> u64 {
    if nimscope_core::solver::grid::CellForm::of(ruleset, layout).is_some() || outcome_form {
        MAX_DIRECT_MAP
    } else {
        MAX_MAP
    }
}

/// The map's values as far as computed: the tiles of one ruleset, layout and pooling rule
/// (and in the difference mode, one compared ruleset or theorem), the colour scale of the
/// view, and what the worker was last asked.
pub struct MapLayer {
    /// The finished tiles, of every level; panning back reads them.
    pub(super) tiles: TileStore,
    /// What the tiles are of.
    pub(super) of: Option<(Ruleset, Layout, KeyRule, CompareWith, bool)>,
    /// Rows and columns this far or farther are not asked for: a job that far was over the
    /// memory budget.
    pub(super) limit: u64,
    /// The colour scale: the largest value of a view (once `complete`, of all its cells).
    pub(super) scale: Option<Scale>,
    /// The automatic top of the Grundy colours, taken from the first view filled (or the one
    /// the user rescaled to) and kept while panning and zooming, so a colour means one value.
    pub(super) auto_top: Option<RangeTop>,
    /// The values the automatic top was taken from.
    counts: Option<Box<ValueCounts>>,
    /// The cells the automatic top was counted over: the session's region (what a figure of
    /// the session counts too), or for a session without one, the first view filled.
    pub(super) auto_region: Option<CellRect>,
    /// The session's region could not be filled for the colour range (over the memory
    /// budget): the range is counted over the view instead.
    pub(super) region_too_large: bool,
    /// "Rescale to this view": the next count is over the view, and fixes the top.
    pub(super) fix_to_view: bool,
    /// The job running: what it asks for and when it was asked.
    pub(super) asked: Option<(Box<MapJob>, Instant)>,
    /// When the fill of the current view began, and how many of its cells were done then.
    pub(super) fill: Option<(CellRect, Instant, u64)>,
}

/// The top of the colour scale, taken over a view.
#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    /// The view whose values were counted.
    pub view: CellRect,
    /// Its largest value.
    pub max: Option<u32>,
    /// Whether every cell of the view was counted.
    pub complete: bool,
}

impl MapLayer {
    pub(super) fn new(memory_budget: u64) -> Self {
        Self {
            tiles: TileStore::new(nimscope_core::solver::budget::tile_store(memory_budget)),
            of: None,
            limit: MAX_MAP,
            scale: None,
            auto_top: None,
            counts: None,
            auto_region: None,
            region_too_large: false,
            fix_to_view: false,
            asked: None,
            fill: None,
        }
    }

    /// Forgets the values (a new ruleset or layout).
    pub(super) fn clear(&mut self) {
        self.tiles.clear();
        self.of = None;
        self.limit = MAX_MAP;
        self.scale = None;
        self.rescale();
        self.region_too_large = false;
        self.fix_to_view = false;
        self.asked = None;
        self.fill = None;
    }

    /// Makes the layer hold these values, forgetting others.
    pub(super) fn show(&mut self, of: (Ruleset, Layout, KeyRule, CompareWith, bool)) {
        let only_pooling = self.of.as_ref().is_some_and(|o| {
            (&o.0, &o.1, &o.3, o.4) == (&of.0, &of.1, &of.3, of.4) && o.2.keys_are_values() && of.2.keys_are_values()
        });
        if only_pooling && self.of.as_ref() != Some(&of) {
            // another choice of the pooled pixel: the cells' values, their colour range and
            // the level-0 tiles stay; the coarser tiles are pooled again
            self.tiles.set_rule(of.2);
            self.asked = None;
            self.fill = None;
            self.of = Some(of);
        } else if self.of.as_ref() != Some(&of) {
            self.clear();
            self.limit = far_limit(&of.0, &of.1, of.4);
            self.tiles.set_rule(of.2);
            self.of = Some(of);
        }
    }

    /// Whether the view's cells counted so far hold infinite values (a game that loops).
    pub fn has_infinite(&self) -> bool {
        self.counts.as_ref().is_some_and(|c| c.infinite() > 0)
    }

    /// The top of the colours under `range`, and the values above it: a fixed top, or the
    /// automatic one kept since the first view filled (until then, the largest value so far).
    pub fn range_top(&self, range: ColorRange) -> RangeTop {
        match (range, self.auto_top) {
            (ColorRange::Fixed(top), auto) => RangeTop {
                top,
                // the values above a fixed top are counted over the view the automatic top
                // was taken from
                clipped: self.counts.as_ref().map_or(0, |c| c.above(top)),
                total: auto.map_or(0, |a| a.total),
            },
            (ColorRange::Auto, Some(t)) => t,
            (ColorRange::Auto, None) => RangeTop {
                top: self.scale.as_ref().and_then(|s| s.max).unwrap_or(0),
                ..RangeTop::default()
            },
        }
    }

    /// Takes the values of `region` (a map job's last batch) as the automatic range's,
    /// unless one is kept already.
    pub(super) fn take_counts(&mut self, counts: Box<ValueCounts>, region: CellRect) {
        if self.auto_top.is_none() {
            self.auto_top = Some(ColorRange::Auto.top(&counts));
            self.counts = Some(counts);
            self.auto_region = Some(region);
        }
    }

    /// Forgets the automatic top: the next map job counts it again.
    pub(super) fn rescale(&mut self) {
        self.auto_top = None;
        self.counts = None;
        self.auto_region = None;
    }

    /// The cells the next automatic top is counted over, when not the view: the session's
    /// `region` (its figure counts the same), unless it is too large to fill or the user
    /// asked for the view's.
    pub(super) fn scale_region(&self, region: Option<&CellRect>) -> Option<CellRect> {
        if self.fix_to_view || self.region_too_large {
            return None;
        }
        region.cloned()
    }
}

impl MapLayer {
    /// The finished tiles, of every level.
    pub fn tiles(&self) -> &TileStore {
        &self.tiles
    }

    /// The automatic top of the Grundy colours, once taken.
    pub fn auto_top(&self) -> Option<RangeTop> {
        self.auto_top
    }

    /// The cells the automatic top was counted over, once taken.
    pub fn auto_region(&self) -> Option<&CellRect> {
        self.auto_region.as_ref()
    }

    /// The top and the values above it counted over `region`, if the automatic top was
    /// (a figure of that region then draws with the window's own count).
    pub fn counted_over(&self, region: &CellRect) -> Option<RangeTop> {
        self.auto_top.filter(|_| self.auto_region.as_ref() == Some(region))
    }

    /// The value of `p` of `ruleset` on a map with `layout`, if these tiles are of that map and
    /// hold p's cell.
    pub fn value_of(&self, ruleset: &Ruleset, layout: &Layout, p: &Position) -> Option<u32> {
        if !self.shows(ruleset, layout) {
            return None;
        }
        let cell = layout.cell_of(ruleset, p)?;
        self.tiles.get(cell.a, cell.b)?
    }

    /// Whether the tiles are those of `ruleset`'s map with `layout`.
    pub fn shows(&self, ruleset: &Ruleset, layout: &Layout) -> bool {
        self.of.as_ref().is_some_and(|(r, l, ..)| r == ruleset && l == layout)
    }
}

/// A map job's identity, without the tiles it lacks.
pub(super) fn same_job(x: &MapJob, y: &MapJob) -> bool {
    (
        &x.ruleset, &x.layout, x.color, x.pooling, &x.compare, x.level, &x.view, &x.scale,
    ) == (
        &y.ruleset, &y.layout, y.color, y.pooling, &y.compare, y.level, &y.view, &y.scale,
    )
}

/// What the status bar says about the map. Only a failed sequence holds back its job (until
/// the ruleset changes); a cancelled map waits for the next change of view or colours.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum MapStatus {
    /// Nothing to say: the map fills or is full.
    #[default]
    Ready,
    /// Cancel was pressed with this view and these colours.
    Cancelled { camera: Camera, color: ColorMode },
    /// No map for the ruleset as set: why, in the window's words.
    NoMap(String),
    /// A tile from row or column `far` on could not be computed; nearer tiles still come.
    TooFar { far: u64, error: JobError },
    /// A job of the map failed (the sequence of a one-heap ruleset).
    Failed { what: String, error: JobError },
}

impl MapStatus {
    /// The status bar's text, if any.
    pub fn message(&self) -> Option<String> {
        match self {
            MapStatus::Ready => None,
            // said once by a notice that fades; the map just waits
            MapStatus::Cancelled { .. } => None,
            // the centre of the window says why, with what to do instead
            MapStatus::NoMap(_) => None,
            MapStatus::TooFar { far, error } => Some(format!(
                "the map beyond row or column {far} is too far to compute: {error}"
            )),
            MapStatus::Failed { what, error } => Some(format!("{what}: {error}")),
        }
    }
}
