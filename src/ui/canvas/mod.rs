//! The zoomable value map: a camera in cell space, the tiles of the pyramid level that puts
//! about one pooled cell on each pixel (each tile one texture, drawn with UV rectangles; the
//! coarser tiles under a tile not complete yet), overlays, axes outside the map, a legend
//! beside it, the hovered cell and the inspector's marks. Drag to pan, wheel or pinch to zoom,
//! `+` `−` `0` and the arrow keys from the keyboard.

pub mod board_view;
mod map_legend;
mod map_textures;
pub mod sequence_view;

use std::cell::RefCell;

use egui::{Align2, FontId, Painter, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, pos2};

pub use crate::camera::Camera;
use crate::camera::{CellPoint, CellRect};
use crate::game::{Cell, Outcome};
pub use crate::raster::Overlays;
use crate::raster::axes::{AxisTitles, ticks};
use crate::raster::{
    ColorMode, CompareWith, GRID_LINES_MIN_CELL_PX, Legend, LegendSpec, MarksShown, OverlayStyle, colors,
};
use crate::solver::tiles::{KeyRule, MAX_LEVEL, NO_POSITION, NOT_COMPUTED, TileKey, TileStore, differ};
use crate::ui::theme;
use map_textures::TileTextures;

/// Levels above a tile that may stand in for it while it is not complete: their blocks are at
/// most four times as large (coarser ones would draw a whole region in one block's colour).
const STAND_IN_LEVELS: u8 = 2;
/// Room around the map for the axes, in points.
const AXIS_LEFT: f32 = 52.0;
const AXIS_BOTTOM: f32 = 36.0;
const AXIS_TOP: f32 = 18.0;

/// What the map shows and how.
pub struct MapState {
    pub camera: Camera,
    pub color: ColorMode,
    pub overlays: Overlays,
    textures: TileTextures,
    /// The map's cells on screen in the last frame (the axes and legend lie outside).
    pub last_rect: Option<Rect>,
    /// Pixels per point in the last frame.
    ppp: f32,
    /// A region to show once the map's size is known, if the camera is still `camera` then
    /// (`--view`, the first start); a camera set otherwise (a session) wins.
    pending_fit: Option<(CellRect, Camera)>,
    /// The progress of the view, recounted only when the view or the tiles change.
    progress: RefCell<Option<(ProgressKey, MapProgress)>>,
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
            pending_fit: Some((natural_view(), camera)),
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
            let what = format!("rows {}..{}, columns {}..{}", b.rows.0, b.rows.1, b.cols.0, b.cols.1);
            return match (b.key, b.rule) {
                (NOT_COMPUTED, _) => format!("{what}: not computed yet"),
                (NO_POSITION, _) => format!("{what}: no position"),
                (0, KeyRule::Value) => format!("{what}: holds a P-position (least G = 0)"),
                (k, KeyRule::Value) => format!("{what}: no P-position, least G = {k}"),
                (k, KeyRule::Residue(m)) => format!("{what}: least G mod {m} = {k}"),
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
            Some(Some(g)) if g >= crate::solver::grid::SATURATED => {
                format!("{}: G ≥ {g} (the inspector gives it exactly), N", self.cell)
            }
            Some(Some(g)) => format!("{}: G = {g}, {}", self.cell, Outcome::of(g)),
        }
    }
}

/// The screen point of a point of cell space, for a map drawn in `rect` by `camera`.
fn to_screen(camera: &Camera, rect: Rect, p: CellPoint) -> Pos2 {
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

    /// Shows `region` (rows × columns) once the map's size is known: in full, its bottom-left
    /// corner at the map's.
    pub fn show_region(&mut self, region: CellRect) {
        match self.last_rect {
            Some(r) => self.camera = Camera::fit_rect(&region, r.width(), r.height()),
            None => self.pending_fit = Some((region, self.camera)),
        }
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
        Some(HoveredCell { cell, value, block })
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

/// What the pointer did on the map this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapResponse {
    pub hovered: Option<HoveredCell>,
    /// The map itself was clicked (not a menu or window over it).
    pub clicked: bool,
}

/// What the map draws besides its tiles.
pub struct MapContext<'a> {
    pub tiles: &'a TileStore,
    /// The top of the colour scale (the view's largest value).
    pub max: u32,
    pub compare: &'a CompareWith,
    pub titles: AxisTitles,
    pub marks: MarksShown,
    /// Rows and columns below this only.
    pub limit: u64,
}

/// Draws the map filling the available space (axes below and left, legend right); returns
/// the hovered cell and whether the map was clicked.
pub fn map_ui(ui: &mut egui::Ui, state: &mut MapState, map: &MapContext) -> MapResponse {
    let (outer, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let painter = ui.painter_at(outer);
    state.ppp = ui.ctx().pixels_per_point();
    let level = state.level();
    let progress = state.progress(map.tiles, map.limit);
    let cell_px = 1.0 / state.camera.cells_per_point;
    let legend_spec = LegendSpec {
        mode: state.color,
        max: map.max,
        pooled: level > 0,
        not_computed: !progress.is_complete(),
        not_a_position: progress.some_not_a_position,
        compare: map.compare,
        overlays: state.overlays.drawn_at(cell_px),
        overlays_hidden: state.overlays.hidden_at(cell_px),
        marks: map.marks,
    };
    let legend = Legend::of_map(&legend_spec);
    // measured on the fullest legend of the mode, so the map keeps its size as it fills
    let fullest = Legend::of_map(&LegendSpec {
        max: 99_999,
        overlays: state.overlays,
        overlays_hidden: true,
        pooled: true,
        not_computed: true,
        not_a_position: true,
        marks: MarksShown {
            selected: true,
            options: true,
            winning: true,
        },
        ..LegendSpec::clone(&legend_spec)
    });
    let legend_w = map_legend::legend_width(&painter, &fullest).clamp(120.0, 220.0);
    // the row labels' column is as wide as the largest row in view needs (13 digits at 10¹²)
    let top_row = state.camera.center_a + f64::from(outer.height()) * state.camera.cells_per_point;
    let axis_left = AXIS_LEFT.max(label_width(&painter, top_row.max(0.0) as u64) + 12.0);
    let rect = Rect::from_min_max(
        pos2(outer.left() + axis_left, outer.top() + AXIS_TOP),
        pos2(outer.right() - legend_w - 8.0, outer.bottom() - AXIS_BOTTOM),
    );
    if rect.width() < 16.0 || rect.height() < 16.0 {
        return MapResponse {
            hovered: None,
            clicked: false,
        };
    }
    if let Some(old) = state.last_rect
        && old.size() != rect.size()
    {
        // a resized map keeps its bottom-left corner where it was, as plots do
        let (lo, _) = state.camera.extent(old.width(), old.height());
        let cpp = state.camera.cells_per_point;
        state.camera.center_a = lo.a + f64::from(rect.height()) * cpp / 2.0;
        state.camera.center_b = lo.b + f64::from(rect.width()) * cpp / 2.0;
        if let Some((_, camera)) = &mut state.pending_fit {
            *camera = state.camera;
        }
    }
    state.last_rect = Some(rect);
    if let Some((region, camera)) = state.pending_fit.take()
        && camera == state.camera
    {
        state.camera = Camera::fit_rect(&region, rect.width(), rect.height());
    }
    let map_response = response.hovered() || response.dragged();
    handle_input(ui, state, rect, &response, map_response);
    state.camera.keep_near(map.limit, rect.width(), rect.height());

    let map_painter = painter.with_clip_rect(rect);
    tiles_ui(ui.ctx(), &map_painter, state, map, rect, progress.is_complete());
    overlays_ui(&map_painter, state, rect);
    axes_ui(&painter, state, rect, &map.titles, map.limit);
    map_legend::legend_ui(
        &painter,
        &legend,
        Rect::from_min_max(pos2(rect.right() + 8.0, rect.top()), outer.right_bottom()),
    );

    let hovered = response.hover_pos().and_then(|p| state.hovered_at(p, map.tiles));
    if let Some(h) = hovered {
        hover_ring_ui(&map_painter, state, rect, &h);
    }
    MapResponse {
        hovered,
        clicked: response.clicked() && hovered.is_some(),
    }
}

/// The tiles in view at the level drawn; where one is not complete, the coarser tiles that
/// stand in for it first, then what it has over them (its missing cells are transparent).
///
/// Every pixel is painted as few times as can be (a software renderer pays for each, some
/// 60 ns of CPU a pixel under lavapipe): the area off the map once, the hatch only over the
/// tiles not yet complete where they are seen, their stand-ins only under those.
fn tiles_ui(
    ctx: &egui::Context,
    painter: &Painter,
    state: &mut MapState,
    map: &MapContext,
    rect: Rect,
    complete: bool,
) {
    state.textures.begin();
    state.textures.follow(map.tiles.epoch());
    let cam = state.camera;
    let limit = map.limit as f64;
    let lo = to_screen(&cam, rect, CellPoint::new(0.0, 0.0));
    let hi = to_screen(&cam, rect, CellPoint::new(limit, limit));
    let valid = Rect::from_min_max(pos2(lo.x, hi.y), pos2(hi.x, lo.y)).intersect(rect);
    if valid != rect {
        painter.rect_filled(rect, 0.0, theme::MAP_OFF);
    }
    // the tile's whole square on the screen (rows grow upwards)
    let tile_rect = |k: TileKey| {
        let cells = k.cells();
        let p0 = to_screen(
            &cam,
            rect,
            CellPoint::new(cells.rows.end as f64, cells.cols.start as f64),
        );
        let p1 = to_screen(
            &cam,
            rect,
            CellPoint::new(cells.rows.start as f64, cells.cols.end as f64),
        );
        Rect::from_min_max(p0, p1)
    };
    let view = state.visible_tiles(map.limit);
    let cells_in_view = state.visible_cells(map.limit);
    let level = state.level();
    let mut draw: Vec<TileKey> = Vec::new();
    for &k in &view {
        // complete where it is seen: a tile at the view's edge is rarely complete, and its
        // stand-ins painted under it cost a software renderer as much as the tile itself
        let tile = map.tiles.tile(k);
        let shown_complete = complete
            || tile.is_some_and(|t| t.cells_done_in(k, &cells_in_view) >= k.cells().intersect(&cells_in_view).len());
        if shown_complete {
            if tile.is_some() {
                draw.push(k);
            }
            continue;
        }
        // the hatch of cells not computed yet, on one lattice across the tiles
        let area = tile_rect(k).intersect(valid);
        if area.is_positive() {
            let texture = state.textures.hatch(ctx);
            let period = map_textures::HATCH_SPACING;
            let uv = |p: Pos2| pos2((p.x - valid.min.x) / period, (p.y - valid.min.y) / period);
            painter.image(
                texture,
                area,
                Rect::from_min_max(uv(area.min), uv(area.max)),
                egui::Color32::WHITE,
            );
        }
        let mut up = k;
        for _ in 0..STAND_IN_LEVELS {
            let Some((p, _, _)) = up.parent() else { break };
            if map.tiles.contains(p) && !draw.contains(&p) {
                draw.push(p);
            }
            up = p;
        }
        if tile.is_some_and(|t| t.done() > 0) {
            draw.push(k);
        }
    }
    draw.sort_by_key(|k| std::cmp::Reverse(k.level));
    for k in draw {
        let Some((tile, version)) = map.tiles.tile_version(k) else {
            continue;
        };
        let Some(texture) = state.textures.texture(ctx, k, tile, version, state.color, map.max) else {
            continue;
        };
        let full = tile_rect(k);
        let shown = full.intersect(rect);
        if !shown.is_positive() {
            continue;
        }
        let uv = |p: Pos2| {
            pos2(
                ((p.x - full.left()) / full.width()).clamp(0.0, 1.0),
                ((p.y - full.top()) / full.height()).clamp(0.0, 1.0),
            )
        };
        // a stand-in for a finer level is dimmed: provisional, coarser than the zoom
        let tint = if k.level > level {
            theme::STAND_IN_TINT
        } else {
            egui::Color32::WHITE
        };
        painter.image(texture, shown, Rect::from_min_max(uv(shown.min), uv(shown.max)), tint);
    }
    if state.textures.behind {
        crate::ui::repaint_once(ctx); // the tiles left to upload go in the next frame
    }
}

/// The ring around the cell under the pointer, or, zoomed out, around the block it names.
fn hover_ring_ui(painter: &Painter, state: &MapState, rect: Rect, h: &HoveredCell) {
    let cam = state.camera;
    let (a0, a1, b0, b1) = match h.block {
        Some(b) => (b.rows.0, b.rows.1, b.cols.0, b.cols.1),
        None => (h.cell.a, h.cell.a + 1, h.cell.b, h.cell.b + 1),
    };
    let p0 = to_screen(&cam, rect, CellPoint::new(a1 as f64, b0 as f64));
    let p1 = to_screen(&cam, rect, CellPoint::new(a0 as f64, b1 as f64));
    let r = Rect::from_min_max(p0, p1);
    // never smaller than a few points, so it can be seen at any zoom
    let r = Rect::from_center_size(r.center(), r.size().max(Vec2::splat(7.0)));
    painter.rect_stroke(r, 0.0, Stroke::new(2.0, theme::HOVER_OUTLINE), StrokeKind::Outside);
}

/// The inspector's marks over the map drawn this frame: `selected` outlined, a ring on each
/// cell an option leads to (filled for winning moves). Cells outside the map are skipped.
pub fn marks_ui(ui: &egui::Ui, state: &MapState, selected: Option<Cell>, options: &[(Cell, bool)]) {
    let Some(rect) = state.last_rect else { return };
    let painter = ui.painter_at(rect);
    let cam = state.camera;
    let cell_px = (1.0 / cam.cells_per_point) as f32;
    let centre = |cell: Cell| to_screen(&cam, rect, CellPoint::centre_of(cell));
    let radius = (cell_px * 0.32).clamp(2.0, 9.0);
    for &(cell, winning) in options {
        let p = centre(cell);
        if !rect.expand(radius).contains(p) {
            continue;
        }
        if winning {
            painter.circle_filled(p, radius, theme::WINNING_MARK);
        } else {
            painter.circle_stroke(p, radius, Stroke::new(1.5, theme::OPTION_MARK));
        }
    }
    if let Some(cell) = selected {
        let side = cell_px.max(6.0);
        let r = Rect::from_center_size(centre(cell), Vec2::splat(side));
        painter.rect_stroke(r, 0.0, Stroke::new(2.5, theme::SELECTED_OUTLINE), StrokeKind::Outside);
    }
}

fn handle_input(ui: &egui::Ui, state: &mut MapState, rect: Rect, response: &egui::Response, on_map: bool) {
    if response.dragged() {
        let d = response.drag_delta();
        state.camera.pan(d.x, d.y);
    }
    if on_map {
        let (scroll, zoom, pointer) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta(), i.pointer.hover_pos()));
        let at = pointer.map_or(Vec2::ZERO, |p| p - rect.center());
        if scroll != 0.0 {
            state.camera.zoom_at((scroll as f64 / 200.0).exp(), at.x, at.y);
        }
        if zoom != 1.0 {
            state.camera.zoom_at(zoom as f64, at.x, at.y);
        }
    }
}

/// What a key of the map asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MapKey {
    ZoomIn,
    ZoomOut,
    Fit,
    Pan(f32, f32),
}

/// The map's keys pressed this frame: `+` (or `=`) zooms in, `-` zooms out, `0` fits the
/// ruleset's first cells, the arrows pan. `-` and `0` are taken without Shift only (Shift+0 is
/// `)` and Shift+- is `_` on most layouts); `+` is Shift+= on many.
pub fn map_keys(ctx: &egui::Context) -> Vec<MapKey> {
    if ctx.egui_wants_keyboard_input() {
        return Vec::new();
    }
    ctx.input(|i| {
        let plain = !i.modifiers.shift && !i.modifiers.command && !i.modifiers.alt;
        let mut keys = Vec::new();
        if !i.modifiers.command && (i.key_pressed(egui::Key::Plus) || i.key_pressed(egui::Key::Equals)) {
            keys.push(MapKey::ZoomIn);
        }
        if plain && i.key_pressed(egui::Key::Minus) {
            keys.push(MapKey::ZoomOut);
        }
        if plain && i.key_pressed(egui::Key::Num0) {
            keys.push(MapKey::Fit);
        }
        let step = 60.0;
        for (key, dx, dy) in [
            (egui::Key::ArrowLeft, step, 0.0),
            (egui::Key::ArrowRight, -step, 0.0),
            (egui::Key::ArrowUp, 0.0, step),
            (egui::Key::ArrowDown, 0.0, -step),
        ] {
            if !i.modifiers.command && i.key_pressed(key) {
                keys.push(MapKey::Pan(dx, dy));
            }
        }
        keys
    })
}

impl MapState {
    /// Does what a map key (or the View menu's item) asks.
    pub fn apply(&mut self, key: MapKey) {
        match key {
            MapKey::ZoomIn => self.camera.zoom_at(1.5, 0.0, 0.0),
            MapKey::ZoomOut => self.camera.zoom_at(1.0 / 1.5, 0.0, 0.0),
            MapKey::Fit => self.show_region(natural_view()),
            MapKey::Pan(dx, dy) => self.camera.pan(dx, dy),
        }
    }
}

/// Keyboard navigation of the map (see [`map_keys`]).
pub fn keyboard_ui(ctx: &egui::Context, state: &mut MapState) {
    for key in map_keys(ctx) {
        state.apply(key);
    }
}

fn overlays_ui(painter: &Painter, state: &MapState, rect: Rect) {
    let cam = state.camera;
    let to_screen = |p: CellPoint| to_screen(&cam, rect, p);
    let (lo, hi) = cam.extent(rect.width(), rect.height());
    let cell_px = 1.0 / cam.cells_per_point;
    if state.overlays.grid_lines && cell_px >= GRID_LINES_MIN_CELL_PX {
        let stroke = Stroke::new(1.0, theme::color32(colors::OVERLAY_GRID));
        let (bl, al) = (lo.b.max(0.0), lo.a.max(0.0));
        for b in (bl.ceil() as i64)..=(hi.b.ceil() as i64) {
            let b = b as f64;
            painter.line_segment(
                [to_screen(CellPoint::new(al, b)), to_screen(CellPoint::new(hi.a, b))],
                stroke,
            );
        }
        for a in (al.ceil() as i64)..=(hi.a.ceil() as i64) {
            let a = a as f64;
            painter.line_segment(
                [to_screen(CellPoint::new(a, bl)), to_screen(CellPoint::new(a, hi.b))],
                stroke,
            );
        }
    }
    let shapes = state.overlays.drawn_at(cell_px).shapes_within(lo.a, lo.b, hi.b, hi.a);
    for ([from, to], style) in shapes.lines {
        overlay_line(painter, to_screen(from), to_screen(to), &style);
    }
    for (centre, style) in shapes.marks {
        let p = to_screen(centre);
        if rect.contains(p) {
            overlay_ring(painter, p, style.ring_radius(cell_px, 1.0) as f32, &style);
        }
    }
}

/// An overlay's line as the figures draw it: its casing, then its core, dashed or not.
pub(crate) fn overlay_line(painter: &Painter, from: Pos2, to: Pos2, style: &OverlayStyle) {
    let mut strokes = Vec::new();
    if let Some((casing, reach)) = style.casing {
        strokes.push(Stroke::new(style.width + 2.0 * reach, theme::color32(casing)));
    }
    strokes.push(Stroke::new(style.width, theme::color32(style.color)));
    for stroke in strokes {
        match style.dash {
            Some([dash, gap]) => {
                painter.extend(egui::Shape::dashed_line(&[from, to], stroke, dash, gap));
            }
            None => {
                painter.line_segment([from, to], stroke);
            }
        }
    }
}

/// An overlay's ring: its casing, then its core.
pub(crate) fn overlay_ring(painter: &Painter, centre: Pos2, radius: f32, style: &OverlayStyle) {
    if let Some((casing, reach)) = style.casing {
        painter.circle_stroke(
            centre,
            radius,
            Stroke::new(style.width + 2.0 * reach, theme::color32(casing)),
        );
    }
    painter.circle_stroke(centre, radius, Stroke::new(style.width, theme::color32(style.color)));
}

/// Tick labels at cell centres below the map (columns) and left of it (rows), spaced so no
/// two overlap, and the axes' titles: the columns' below their labels, the rows' above the map.
/// The width of the axis label of `k`.
fn label_width(painter: &Painter, k: u64) -> f32 {
    let digit = painter
        .layout_no_wrap("0".into(), FontId::monospace(11.0), theme::AXIS_TEXT)
        .size()
        .x;
    digit * k.to_string().len() as f32
}

fn axes_ui(painter: &Painter, state: &MapState, rect: Rect, titles: &AxisTitles, limit: u64) {
    let cam = state.camera;
    let (lo, hi) = cam.extent(rect.width(), rect.height());
    let font = FontId::monospace(11.0);
    let px_per_cell = 1.0 / cam.cells_per_point;
    let digit = painter
        .layout_no_wrap("0".into(), font.clone(), theme::AXIS_TEXT)
        .size()
        .x as f64;
    let width = |k: u64| digit * k.to_string().len() as f64;
    let height = |_: u64| 13.0;
    for b in ticks(lo.b, hi.b, limit, px_per_cell, 12.0, &width) {
        let (dx, _) = cam.offset_from_cell(CellPoint::new(0.0, b as f64 + 0.5));
        let x = rect.center().x + dx;
        painter.line_segment(
            [pos2(x, rect.bottom()), pos2(x, rect.bottom() + 4.0)],
            Stroke::new(1.0, theme::AXIS_TEXT),
        );
        painter.text(
            pos2(x, rect.bottom() + 5.0),
            Align2::CENTER_TOP,
            b.to_string(),
            font.clone(),
            theme::AXIS_TEXT,
        );
    }
    for a in ticks(lo.a, hi.a, limit, px_per_cell, 16.0, &height) {
        let (_, dy) = cam.offset_from_cell(CellPoint::new(a as f64 + 0.5, 0.0));
        let y = rect.center().y + dy;
        painter.line_segment(
            [pos2(rect.left() - 4.0, y), pos2(rect.left(), y)],
            Stroke::new(1.0, theme::AXIS_TEXT),
        );
        painter.text(
            pos2(rect.left() - 6.0, y),
            Align2::RIGHT_CENTER,
            a.to_string(),
            font.clone(),
            theme::AXIS_TEXT,
        );
    }
    let words = FontId::proportional(13.0);
    let cols = match &titles.caption {
        Some(c) => format!("{}    positions {c}", titles.cols),
        None => titles.cols.clone(),
    };
    painter.text(
        pos2(rect.center().x, rect.bottom() + 20.0),
        Align2::CENTER_TOP,
        cols,
        words.clone(),
        theme::AXIS_TEXT,
    );
    painter.text(
        pos2(rect.left() - 6.0, rect.top() - 4.0),
        Align2::LEFT_BOTTOM,
        &titles.rows,
        words,
        theme::AXIS_TEXT,
    );
}
