//! What the map shows and how: the camera, the colour mode and overlays ([`MapState`]), how
//! much of the view is computed ([`MapProgress`]) and the cell under the pointer ([`HoveredCell`]).

use std::cell::RefCell;

use egui::{Pos2, Rect, Vec2};

use super::MapKey;
use super::map_textures::TileTextures;
pub use nimscope_core::camera::Camera;
use nimscope_core::camera::{CellPoint, CellRect, MAX_CELLS_PER_POINT, MIN_CELLS_PER_POINT};
use nimscope_core::game::{Cell, Outcome};
use nimscope_core::raster::ColorMode;
pub use nimscope_core::raster::Overlays;
use nimscope_core::solver::tiles::{KeyRule, MAX_LEVEL, NO_POSITION, NOT_COMPUTED, TileKey, TileStore, differ};

/// What the map shows and how.
pub struct MapState {
    pub camera: Camera,
    pub color: ColorMode,
    pub overlays: Overlays,
    pub(super) textures: TileTextures,
    /// The map's cells on screen in the last frame (the axes and legend lie outside).
    pub last_rect: Option<Rect>,
    /// Pixels per point in the last frame.
    pub(super) ppp: f32,
    /// The UI scale (egui's zoom factor, Ctrl+plus/minus/0) in the last frame drawn: when it
    /// changes, the camera keeps its cells per pixel, so scaling the text never zooms the map.
    pub(super) ui_zoom: Option<f32>,
    /// What "Fit" (the `0` key) shows: the session's region, or the first cells.
    pub fit_region: Option<CellRect>,
    /// A region to show once the map's size is known, if the camera is still `camera` then
    /// (`--view`, the first start); a camera set otherwise (a session) wins.
    pub(super) pending_fit: Option<(CellRect, Camera)>,
    /// The region last shown whole and the camera that showed it: while the camera is still
    /// that one, the UI scale restored on start shows the region whole again.
    pub(super) fitted: Option<(CellRect, Camera)>,
    /// The UI scale the window's preferences restore on start (see [`MapState::follow_ui_zoom`]).
    pub zoom_restored: Option<f32>,
    /// The map's next change of size shows the region last fitted whole again.
    pub(super) refit: bool,
    /// The progress of the view, recounted only when the view or the tiles change.
    pub(super) progress: RefCell<Option<(ProgressKey, MapProgress)>>,
}

type ProgressKey = (CellRect, u8, u64);

/// How much of the view is computed (the status bar, the trace, the legend).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MapProgress {
    /// Cells of the view whose final value is known at the level drawn.
    pub done: u64,
    pub in_view: u64,
    /// Whether some cell shown is not a position.
    pub some_not_a_position: bool,
}

impl MapProgress {
    pub fn is_complete(&self) -> bool {
        self.done >= self.in_view
    }
}

impl Default for MapState {
    fn default() -> Self {
        let camera = Camera::default();
        Self {
            camera,
            color: ColorMode::Outcome,
            overlays: Overlays::default(),
            textures: TileTextures::default(),
            last_rect: None,
            ppp: 1.0,
            ui_zoom: None,
            fit_region: None,
            pending_fit: Some((natural_view(), camera)),
            fitted: None,
            zoom_restored: None,
            refit: false,
            progress: RefCell::new(None),
        }
    }
}

/// What "Fit" shows: the first cells of every ruleset's map.
pub fn natural_view() -> CellRect {
    CellRect::new(0..64, 0..64)
}

/// A pooled block under the pointer when a pixel covers several cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockReadout {
    pub rows: (u64, u64),
    pub cols: (u64, u64),
    pub key: u32,
    pub rule: KeyRule,
}

/// A cell of the map with its value as far as it is known (the hovered cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredCell {
    pub cell: Cell,
    /// `None`: not computed yet (or not held at this zoom); `Some(None)`: not a position.
    pub value: Option<Option<u32>>,
    /// When zoomed out so far that a pixel stands for several cells: the block ringed.
    pub block: Option<BlockReadout>,
}

impl HoveredCell {
    /// The cell (or the block ringed) and its value in words, as the inspector and the status
    /// bar show it.
    pub fn describe(&self) -> String {
        if let (None, Some(b)) = (self.value, self.block) {
            if (b.rows.1 - b.rows.0, b.cols.1 - b.cols.0, b.rule) == (1, 1, KeyRule::Outcome) && b.key != NO_POSITION {
                let outcome = if b.key == 0 { Outcome::P } else { Outcome::N };
                return format!("{}: {outcome} (its outcome alone is known, not G)", self.cell);
            }
            let what = format!("rows {}..{}, columns {}..{}", b.rows.0, b.rows.1, b.cols.0, b.cols.1);
            return match (b.key, b.rule) {
                (NOT_COMPUTED, _) => format!("{what}: not computed yet"),
                (NO_POSITION, _) => format!("{what}: no position"),
                (0, KeyRule::Value) => format!("{what}: holds a P-position (least G = 0)"),
                (k, KeyRule::Value) => format!("{what}: no P-position, least G = {k}"),
                (k, KeyRule::Residue(m)) => format!("{what}: least G mod {m} = {k}"),
                (k, KeyRule::Greatest) => format!("{what}: greatest G = {k}"),
                (k, KeyRule::MostCommon) => format!("{what}: most common G = {k}"),
                (0, KeyRule::Outcome) => format!("{what}: holds a P-position"),
                (_, KeyRule::Outcome) => format!("{what}: no P-position"),
                (differ::DIFFER, KeyRule::Differ) => format!("{what}: outcomes differ here"),
                (_, KeyRule::Differ) => format!("{what}: outcomes agree"),
            };
        }
        match self.value {
            None => format!("{}: not computed yet", self.cell),
            Some(None) => format!("{}: not a position", self.cell),
            // values past 32 bits are held as the top of the colour scale
            Some(Some(g)) if g >= nimscope_core::solver::grid::SATURATED => {
                format!("{}: G ≥ {g} (the inspector gives it exactly), N", self.cell)
            }
            Some(Some(g)) => format!("{}: G = {g}, {}", self.cell, Outcome::of(g)),
        }
    }
}

/// The screen point of a point of cell space, for a map drawn in `rect` by `camera`.
pub(super) fn to_screen(camera: &Camera, rect: Rect, p: CellPoint) -> Pos2 {
    let (dx, dy) = camera.offset_from_cell(p);
    rect.center() + Vec2::new(dx, dy)
}

impl MapState {
    /// Says whether the window is drawn by a software renderer (it uploads more tiles a frame).
    pub fn set_software_renderer(&mut self, software: bool) {
        self.textures.software = software;
    }

    /// The map's size on screen in the last frame (before the first frame: a typical one).
    fn size(&self) -> Vec2 {
        self.last_rect.map_or(Vec2::new(680.0, 620.0), |r| r.size())
    }

    /// Whether a region waits to be shown until the map's size is known (the view is not the
    /// one that will be shown: nothing should be computed for it).
    pub fn fit_pending(&self) -> bool {
        self.pending_fit.is_some()
    }

    /// Shows `region` (rows × columns) once the map's size is known: in full, its bottom-left
    /// corner at the map's.
    pub fn show_region(&mut self, region: CellRect) {
        match self.last_rect {
            Some(r) => {
                self.camera = Camera::fit_rect(&region, r.width(), r.height());
                self.fitted = Some((region, self.camera));
            }
            None => self.pending_fit = Some((region, self.camera)),
        }
    }

    /// Follows a change of the UI scale from the last frame drawn to `zoom`: the map keeps
    /// the cells each pixel shows (UI scale and map zoom are separate).
    pub fn follow_ui_zoom(&mut self, zoom: f32) {
        // the UI scale restored on start: a region shown whole stays whole (the map refits it
        // to its new size in points); a scale the user changes keeps the cells' size
        let restored = self.zoom_restored.is_some_and(|z| z == zoom)
            && self.fitted.as_ref().is_some_and(|(_, c)| *c == self.camera);
        if self.ui_zoom != Some(zoom) && self.zoom_restored == Some(zoom) {
            self.zoom_restored = None;
            self.refit = restored;
        }
        if let Some(old) = self.ui_zoom
            && old != zoom
            && old > 0.0
            && !restored
        {
            let cpp = self.camera.cells_per_point * f64::from(zoom / old);
            self.camera.cells_per_point = cpp.clamp(MIN_CELLS_PER_POINT, MAX_CELLS_PER_POINT);
        }
        self.ui_zoom = Some(zoom);
    }

    /// Cells per pixel.
    pub fn cells_per_pixel(&self) -> f64 {
        self.camera.cells_per_point / f64::from(self.ppp.max(0.1))
    }

    /// The pyramid level drawn: the finest whose blocks cover at least a pixel each (with a
    /// margin, so no block ever falls between two pixel centres and goes unseen).
    pub fn level(&self) -> u8 {
        let cpp = self.cells_per_pixel() * 1.05;
        if cpp <= 1.0 {
            0
        } else {
            (cpp.log2().ceil() as u8).min(MAX_LEVEL)
        }
    }

    /// The cells the view shows (rows and columns below `limit`).
    pub fn visible_cells(&self, limit: u64) -> CellRect {
        let size = self.size();
        self.camera.visible_cells(size.x, size.y, limit)
    }

    /// The tiles of the level drawn that the view shows (cells below `limit` only), nearest the
    /// view's centre first.
    pub fn visible_tiles(&self, limit: u64) -> Vec<TileKey> {
        let cells = self.visible_cells(limit);
        TileKey::covering(self.level(), &cells, (self.camera.center_a, self.camera.center_b))
    }

    /// Screen position of the centre of `cell` in the last frame.
    pub fn screen_pos_of_cell(&self, cell: Cell) -> Option<Pos2> {
        Some(to_screen(&self.camera, self.last_rect?, CellPoint::centre_of(cell)))
    }

    /// How much of the view is computed at the level drawn, in `tiles`.
    pub fn progress(&self, tiles: &TileStore, limit: u64) -> MapProgress {
        let view = self.visible_cells(limit);
        let level = self.level();
        let key = (view.clone(), level, tiles.generation());
        if let Some((k, p)) = &*self.progress.borrow()
            && *k == key
        {
            return *p;
        }
        let mut p = MapProgress {
            in_view: view.len(),
            ..MapProgress::default()
        };
        for k in TileKey::covering(level, &view, (0.0, 0.0)) {
            if let Some(t) = tiles.tile(k) {
                p.done += t.cells_done_in(k, &view);
                p.some_not_a_position |= t.keys().contains(&NO_POSITION);
            }
        }
        *self.progress.borrow_mut() = Some((key, p));
        p
    }

    /// The cell under the pointer at `pos` (and, zoomed out, the block around it).
    pub fn hovered_at(&self, pos: Pos2, tiles: &TileStore) -> Option<HoveredCell> {
        let rect = self.last_rect?;
        if !rect.contains(pos) {
            return None;
        }
        let cell = self
            .camera
            .cell_from_offset(pos.x - rect.center().x, pos.y - rect.center().y)
            .cell()?;
        let level = self.level();
        let block = (level > 0).then(|| {
            let s = TileKey::block_of(level);
            let (a0, b0) = (cell.a / s * s, cell.b / s * s);
            BlockReadout {
                rows: (a0, a0 + s),
                cols: (b0, b0 + s),
                key: tiles.key(level, cell.a, cell.b).unwrap_or(NOT_COMPUTED),
                rule: tiles.rule(),
            }
        });
        let value = if level == 0 { tiles.get(cell.a, cell.b) } else { None };
        // a cell whose outcome alone is known (an outcome form, a misère quotient): its key
        // says which, where its value is not known
        let block = block.or_else(|| {
            let key = tiles
                .key(0, cell.a, cell.b)
                .filter(|&k| k != NOT_COMPUTED && value.is_none())?;
            Some(BlockReadout {
                rows: (cell.a, cell.a + 1),
                cols: (cell.b, cell.b + 1),
                key,
                rule: tiles.rule(),
            })
        });
        Some(HoveredCell { cell, value, block })
    }

    /// Does what a map key (or the View menu's item) asks.
    pub fn apply(&mut self, key: MapKey) {
        match key {
            MapKey::ZoomIn => self.camera.zoom_at(1.5, 0.0, 0.0),
            MapKey::ZoomOut => self.camera.zoom_at(1.0 / 1.5, 0.0, 0.0),
            MapKey::Fit => self.show_region(self.fit_region.clone().unwrap_or_else(natural_view)),
            MapKey::Pan(dx, dy) => self.camera.pan(dx, dy),
        }
    }
}

/// The cell under the pointer, from the pointer's position now and the map as last drawn, so
/// the panels drawn before the map name the cell this frame's ring will mark (a drag or a
/// zoom keeps the cell under the pointer where it is).
pub fn hovered_now(ctx: &egui::Context, state: &MapState, tiles: &TileStore) -> Option<HoveredCell> {
    let pos = ctx.pointer_hover_pos()?;
    let over_map = ctx.layer_id_at(pos).is_none_or(|l| l.order == egui::Order::Background);
    if !over_map {
        return None;
    }
    state.hovered_at(pos, tiles)
}
