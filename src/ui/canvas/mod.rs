//! The zoomable value map: a camera in cell space, the tiles of the pyramid level that puts
//! about one pooled cell on each pixel (each tile one texture, drawn with UV rectangles; the
//! coarser tiles under a tile not complete yet), overlays, axes outside the map, a legend
//! beside it, the hovered cell and the inspector's marks. Drag to pan, wheel or pinch to zoom,
//! `+` `−` `0` and the arrow keys from the keyboard.

pub mod board_view;
mod input;
mod map_legend;
mod map_textures;
mod overlays;
pub mod sequence_view;
mod state;

use input::handle_input;
pub use input::{MapKey, keyboard_ui, map_keys};
use overlays::{axes_ui, label_width, overlays_ui};
pub(crate) use overlays::{overlay_line, overlay_ring};
use state::to_screen;
pub use state::{BlockReadout, HoveredCell, MapProgress, MapState, hovered_now, natural_view};

use egui::{Painter, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, pos2};

use crate::ui::theme;
pub use nimscope_core::camera::Camera;
use nimscope_core::camera::CellPoint;
use nimscope_core::game::Cell;
pub use nimscope_core::raster::Overlays;
use nimscope_core::raster::axes::AxisTitles;
use nimscope_core::raster::{CompareWith, Legend, LegendSpec, MarksShown};
use nimscope_core::solver::tiles::{TileKey, TileStore};

/// Levels above a tile that may stand in for it while it is not complete: their blocks are at
/// most four times as large (coarser ones would draw a whole region in one block's colour).
const STAND_IN_LEVELS: u8 = 2;
/// Room around the map for the axes, in points.
const AXIS_LEFT: f32 = 52.0;
const AXIS_BOTTOM: f32 = 36.0;
const AXIS_TOP: f32 = 18.0;

/// What the pointer did on the map this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapResponse {
    pub hovered: Option<HoveredCell>,
    /// The map itself was clicked (not a menu or window over it).
    pub clicked: bool,
    /// The map's widget (named for screen readers by [`crate::ui::theme::set_accessible`]).
    pub id: egui::Id,
}

/// What the map draws besides its tiles.
pub struct MapContext<'a> {
    pub tiles: &'a TileStore,
    /// The top of the colour scale (see [`nimscope_core::raster::range`]).
    pub max: u32,
    /// The legend's note on the values above the top, if any.
    pub clipped: Option<String>,
    /// What a pooled pixel of the Grundy colours shows.
    pub pooling: nimscope_core::raster::Pooling,
    pub compare: &'a CompareWith,
    pub titles: AxisTitles,
    pub marks: MarksShown,
    /// Rows and columns below this only.
    pub limit: u64,
    /// Whether the map holds infinite values (a game that loops): the legend then has draws.
    pub loopy: bool,
}

impl MapState {
    /// Draws the map filling the available space (axes below and left, legend right);
    /// returns the hovered cell and whether the map was clicked.
    pub fn ui(&mut self, ui: &mut egui::Ui, map: &MapContext) -> MapResponse {
        map_ui(ui, self, map)
    }
}

/// Draws the map (see [`MapState::ui`]).
fn map_ui(ui: &mut egui::Ui, state: &mut MapState, map: &MapContext) -> MapResponse {
    let (outer, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let painter = ui.painter_at(outer);
    state.ppp = ui.ctx().pixels_per_point();
    state.follow_ui_zoom(ui.ctx().zoom_factor());
    let level = state.level();
    let progress = state.progress(map.tiles, map.limit);
    let cell_px = 1.0 / state.camera.cells_per_point;
    let legend_spec = LegendSpec {
        mode: state.color,
        max: map.max,
        clipped: map.clipped.clone(),
        pooled: level > 0,
        pooling: map.pooling,
        not_computed: !progress.is_complete(),
        not_a_position: progress.some_not_a_position,
        loopy: map.loopy,
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
        // a game that loops widens it by its draws' entries only where it has them
        loopy: map.loopy,
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
            id: response.id,
        };
    }
    let refit = std::mem::take(&mut state.refit)
        .then(|| {
            state
                .fitted
                .as_ref()
                .filter(|(_, camera)| *camera == state.camera)
                .map(|(r, _)| r.clone())
        })
        .flatten();
    if let Some(old) = state.last_rect
        && old.size() != rect.size()
        && let Some(region) = refit
    {
        // still as fitted: the region stays whole
        state.camera = Camera::fit_rect(&region, rect.width(), rect.height());
        state.fitted = Some((region, state.camera));
    } else if let Some(old) = state.last_rect
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
        state.fitted = Some((region, state.camera));
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
        id: response.id,
    }
}

/// The tiles in view at the level drawn; where one is not complete, the hatch where it lacks
/// cells, the coarser tiles that stand in for it where they have them, and what it has.
///
/// Every pixel is painted as few times as can be (a software renderer pays for each, some
/// 30–60 ns of CPU a pixel under lavapipe, and draws each frame while a fill runs on the same
/// cores): the area off the map once; a tile not complete only over the rectangle it has
/// computed (a fill computes rows, or a square from the origin), the hatch only around it; a
/// stand-in only where it has cells the tile lacks. The stand-ins pooled from the tile itself
/// (the store pools every tile upwards) have none: a view's first fill paints each pixel of the
/// map once, not three times (measured: 70 ms of lavapipe's CPU a frame while Wythoff 4096²
/// filled, half of it the map's).
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
    let screen = TileScreen {
        cam: state.camera,
        rect,
    };
    let limit = map.limit as f64;
    let lo = to_screen(&screen.cam, rect, CellPoint::new(0.0, 0.0));
    let hi = to_screen(&screen.cam, rect, CellPoint::new(limit, limit));
    let valid = Rect::from_min_max(pos2(lo.x, hi.y), pos2(hi.x, lo.y)).intersect(rect);
    if valid != rect {
        painter.rect_filled(rect, 0.0, theme::map_off(painter.ctx().theme()));
    }
    let view = state.visible_tiles(map.limit);
    let cells_in_view = state.visible_cells(map.limit);
    let mut pieces: Vec<(TileKey, Rect)> = Vec::new();
    let mut hatched: Vec<Rect> = Vec::new();
    for &k in &view {
        let tile = map.tiles.tile(k);
        let area = screen.tile(k).intersect(rect);
        // complete where it is seen: a tile at the view's edge is rarely complete
        let shown_complete = complete
            || tile.is_some_and(|t| t.cells_done_in(k, &cells_in_view) >= k.cells().intersect(&cells_in_view).len());
        if shown_complete {
            if tile.is_some() {
                pieces.push((k, area));
            }
            continue;
        }
        // where the tile has its cells (`None`: not one rectangle, drawn whole) and lacks them
        let done = computed_area(state, map, &screen, k);
        let missing = outside(area, done);
        hatched.extend(missing.iter().map(|m| m.intersect(valid)).filter(|m| m.is_positive()));
        let mut up = k;
        for _ in 0..STAND_IN_LEVELS {
            let Some((p, _, _)) = up.parent() else { break };
            up = p;
            if !map.tiles.contains(p) {
                continue;
            }
            let has = computed_area(state, map, &screen, p);
            for m in &missing {
                let over = has.map_or(*m, |h| m.intersect(h));
                if over.is_positive() {
                    pieces.push((p, over));
                }
            }
        }
        if tile.is_some_and(|t| t.done() > 0) {
            let over = done.map_or(area, |d| area.intersect(d));
            if over.is_positive() {
                pieces.push((k, over));
            }
        }
    }
    hatch_ui(ctx, painter, state, valid, &hatched);
    // coarser first: a stand-in under what the finer tile has (a stable sort keeps the rest)
    pieces.sort_by_key(|(k, _)| std::cmp::Reverse(k.level));
    let level = state.level();
    for (k, over) in pieces {
        let Some((tile, version)) = map.tiles.tile_version(k) else {
            continue;
        };
        let Some(texture) = state.textures.texture(ctx, k, tile, version, state.color, map.max) else {
            continue;
        };
        let full = screen.tile(k);
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
        painter.image(texture, over, Rect::from_min_max(uv(over.min), uv(over.max)), tint);
    }
    if state.textures.behind {
        crate::ui::repaint_once(ctx); // the tiles left to upload go in the next frame
    }
}

/// Where tiles lie on the screen: the camera and the map's rectangle.
struct TileScreen {
    cam: Camera,
    rect: Rect,
}

impl TileScreen {
    /// The screen rectangle of cell rows `rows` and columns `cols` (rows grow upwards).
    fn cells(&self, rows: std::ops::Range<u64>, cols: std::ops::Range<u64>) -> Rect {
        let p0 = to_screen(&self.cam, self.rect, CellPoint::new(rows.end as f64, cols.start as f64));
        let p1 = to_screen(&self.cam, self.rect, CellPoint::new(rows.start as f64, cols.end as f64));
        Rect::from_min_max(p0, p1)
    }

    /// The tile's whole square.
    fn tile(&self, k: TileKey) -> Rect {
        let cells = k.cells();
        self.cells(cells.rows, cells.cols)
    }
}

/// The screen rectangle of the cells tile `k` has computed, if they make one rectangle (an
/// empty one if it has none, or is not in the store).
fn computed_area(state: &mut MapState, map: &MapContext, screen: &TileScreen, k: TileKey) -> Option<Rect> {
    let Some((tile, version)) = map.tiles.tile_version(k) else {
        return Some(Rect::NOTHING);
    };
    let (rows, cols) = state.textures.done_rect(k, tile, version)?;
    let (first, block) = (k.cells(), TileKey::block_of(k.level));
    let span = |start: u64, r: std::ops::Range<usize>| start + r.start as u64 * block..start + r.end as u64 * block;
    Some(screen.cells(span(first.rows.start, rows), span(first.cols.start, cols)))
}

/// The hatch of cells not computed yet over `areas`, on one lattice across the map.
fn hatch_ui(ctx: &egui::Context, painter: &Painter, state: &mut MapState, valid: Rect, areas: &[Rect]) {
    if areas.is_empty() {
        return;
    }
    let texture = state.textures.hatch(ctx);
    let period = map_textures::HATCH_SPACING;
    let uv = |p: Pos2| pos2((p.x - valid.min.x) / period, (p.y - valid.min.y) / period);
    for &area in areas {
        painter.image(
            texture,
            area,
            Rect::from_min_max(uv(area.min), uv(area.max)),
            egui::Color32::WHITE,
        );
    }
}

/// The parts of `area` outside `hole` (`None`: no hole known, the whole area): up to four
/// rectangles, none overlapping.
fn outside(area: Rect, hole: Option<Rect>) -> Vec<Rect> {
    if !area.is_positive() {
        return Vec::new();
    }
    let Some(hole) = hole.map(|h| h.intersect(area)).filter(|h| h.is_positive()) else {
        return vec![area];
    };
    [
        Rect::from_min_max(area.min, pos2(area.max.x, hole.min.y)),
        Rect::from_min_max(pos2(area.min.x, hole.max.y), area.max),
        Rect::from_min_max(pos2(area.min.x, hole.min.y), pos2(hole.min.x, hole.max.y)),
        Rect::from_min_max(pos2(hole.max.x, hole.min.y), pos2(area.max.x, hole.max.y)),
    ]
    .into_iter()
    .filter(|r| r.is_positive())
    .collect()
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
