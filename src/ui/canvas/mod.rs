//! The zoomable value map: a camera in cell space, the raster of the visible cells (through the
//! shared [`crate::raster`] path), overlays, axes and the hovered cell. Drag to pan, wheel or
//! pinch to zoom, `+` `−` `0` and the arrow keys from the keyboard.

pub mod board_view;
pub mod sequence_view;

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, TextureHandle, TextureOptions, Vec2, pos2};

pub use crate::camera::Camera;
use crate::camera::{CellPoint, CellRect};
use crate::game::{Cell, Outcome};
pub use crate::raster::Overlays;
use crate::raster::{ColorMode, CompareWith, GRID_LINES_MIN_CELL_PX, View, colors, legend_entries, nice_step, raster};
use crate::solver::tiles::{TILE, TileKey, TileStore};
use crate::ui::theme;

/// What the map shows and how.
pub struct MapState {
    pub camera: Camera,
    pub color: ColorMode,
    pub overlays: Overlays,
    texture: Option<TextureHandle>,
    /// What the texture was painted from, to repaint only on change.
    painted: Option<(View, ColorMode, u64, u64)>,
    /// The map's rectangle on screen in the last frame (for tests and the status bar).
    pub last_rect: Option<Rect>,
}

impl Default for MapState {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            color: ColorMode::Outcome,
            overlays: Overlays::default(),
            texture: None,
            painted: None,
            last_rect: None,
        }
    }
}

/// A cell of the map with its value as far as it is known (the hovered cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredCell {
    pub cell: Cell,
    /// `None`: not computed yet; `Some(None)`: not a position.
    pub value: Option<Option<u32>>,
}

impl HoveredCell {
    /// The cell and its value in words, as the inspector and the status bar show it.
    pub fn describe(&self) -> String {
        match self.value {
            None => format!("{}: not computed yet", self.cell),
            Some(None) => format!("{}: not a position", self.cell),
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
    /// The map's size on screen in the last frame (before the first frame: a typical one).
    fn size(&self) -> Vec2 {
        self.last_rect.map_or(Vec2::new(800.0, 600.0), |r| r.size())
    }

    /// The cells the view shows (rows and columns below `limit`).
    pub fn visible_cells(&self, limit: u64) -> CellRect {
        let size = self.size();
        self.camera.visible_cells(size.x, size.y, limit)
    }

    /// The tiles the view shows (cells below `limit` only), nearest the view's centre first.
    pub fn visible_tiles(&self, limit: u64) -> Vec<TileKey> {
        let cells = self.visible_cells(limit);
        let tiles = |r: &std::ops::Range<u64>| r.start / TILE..r.end.div_ceil(TILE);
        let (rows, cols) = (tiles(&cells.rows), tiles(&cells.cols));
        let (ca, cb) = (self.camera.center_a, self.camera.center_b);
        let mut keys: Vec<TileKey> = rows
            .flat_map(|row| cols.clone().map(move |col| TileKey { row, col }))
            .collect();
        let t = TILE as f64;
        keys.sort_by(|x, y| {
            let d = |k: &TileKey| {
                let (a, b) = ((k.row as f64 + 0.5) * t - ca, (k.col as f64 + 0.5) * t - cb);
                a * a + b * b
            };
            d(x).total_cmp(&d(y)).then(x.cmp(y))
        });
        keys
    }

    /// Screen position of the centre of `cell` in the last frame.
    pub fn screen_pos_of_cell(&self, cell: Cell) -> Option<Pos2> {
        Some(to_screen(&self.camera, self.last_rect?, CellPoint::centre_of(cell)))
    }
}

/// What the pointer did on the map this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapResponse {
    pub hovered: Option<HoveredCell>,
    /// The map itself was clicked (not a menu or window over it).
    pub clicked: bool,
}

/// Draws the map filling the available space; returns the hovered cell and whether the map
/// was clicked.
/// In the difference mode, `compare` says what the map is compared with; a compared ruleset's
/// values are in `compare_tiles`.
pub fn map_ui(
    ui: &mut egui::Ui,
    state: &mut MapState,
    map: &TileStore,
    compare: &CompareWith,
    compare_tiles: &TileStore,
) -> MapResponse {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    state.last_rect = Some(rect);
    handle_input(ui, state, rect, &response);
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, ui.visuals().extreme_bg_color);

    let ppp = ui.ctx().pixels_per_point();
    let width = (rect.width() * ppp).round().max(1.0) as usize;
    let height = (rect.height() * ppp).round().max(1.0) as usize;
    let cpp = state.camera.cells_per_point / ppp as f64;
    let (corner, _) = state.camera.extent(rect.width(), rect.height());
    let view = View {
        left: corner.b,
        bottom: corner.a,
        cells_per_pixel: cpp,
        width,
        height,
    };
    let compare_key = match compare {
        CompareWith::Nothing => 0,
        CompareWith::Theorem(p) => 1 + *p as u64,
        CompareWith::Ruleset(_) => 1000 + compare_tiles.generation(),
    };
    let key = (view, state.color, map.generation(), compare_key);
    let max = map.max_value();
    if state.painted != Some(key) {
        let reader = map.reader();
        let value = |c: Cell| reader.get(c.a, c.b);
        let other_reader = compare_tiles.reader();
        let other_value = |c: Cell| match compare {
            CompareWith::Ruleset(_) => other_reader.get(c.a, c.b).flatten(),
            _ => compare.theorem_value(c),
        };
        let px = raster(&view, state.color, max, &value, &other_value);
        let image = egui::ColorImage::from_rgba_unmultiplied([width, height], &px);
        match &mut state.texture {
            Some(t) => t.set(image, TextureOptions::NEAREST),
            None => state.texture = Some(ui.ctx().load_texture("value-map", image, TextureOptions::NEAREST)),
        }
        state.painted = Some(key);
    }
    if let Some(t) = &state.texture {
        painter.image(
            t.id(),
            rect,
            Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
            Color32::WHITE,
        );
    }
    overlays_ui(&painter, state, rect);
    axes_ui(&painter, state, rect);
    legend_ui(&painter, state.color, max, rect);

    let hovered = response.hover_pos().and_then(|p| {
        let cell = state
            .camera
            .cell_from_offset(p.x - rect.center().x, p.y - rect.center().y)
            .cell()?;
        Some(HoveredCell {
            cell,
            value: map.get(cell.a, cell.b),
        })
    });
    if let Some(h) = hovered {
        let cell_px = 1.0 / state.camera.cells_per_point as f32;
        if cell_px >= 4.0 {
            let corner = CellPoint::new(h.cell.a as f64 + 1.0, h.cell.b as f64);
            let r = Rect::from_min_size(to_screen(&state.camera, rect, corner), Vec2::splat(cell_px));
            painter.rect_stroke(r, 0.0, Stroke::new(2.0, theme::HOVER_OUTLINE), StrokeKind::Outside);
        }
    }
    MapResponse {
        hovered,
        clicked: response.clicked(),
    }
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

fn handle_input(ui: &egui::Ui, state: &mut MapState, rect: Rect, response: &egui::Response) {
    if response.dragged() {
        let d = response.drag_delta();
        state.camera.pan(d.x, d.y);
    }
    if response.hovered() {
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

/// Keyboard navigation of the map: `+`/`−` zoom, `0` fits `[0, n)²`, arrows pan.
pub fn keyboard_ui(ctx: &egui::Context, state: &mut MapState, fit_n: f64) {
    if ctx.egui_wants_keyboard_input() {
        return;
    }
    let rect = state
        .last_rect
        .unwrap_or(Rect::from_min_size(Pos2::ZERO, Vec2::new(800.0, 600.0)));
    ctx.input(|i| {
        if i.key_pressed(egui::Key::Plus) || i.key_pressed(egui::Key::Equals) {
            state.camera.zoom_at(1.5, 0.0, 0.0);
        }
        if i.key_pressed(egui::Key::Minus) {
            state.camera.zoom_at(1.0 / 1.5, 0.0, 0.0);
        }
        if i.key_pressed(egui::Key::Num0) {
            state.camera = Camera::fit(fit_n, rect.width(), rect.height());
        }
        let step = 60.0;
        for (key, dx, dy) in [
            (egui::Key::ArrowLeft, step, 0.0),
            (egui::Key::ArrowRight, -step, 0.0),
            (egui::Key::ArrowUp, 0.0, step),
            (egui::Key::ArrowDown, 0.0, -step),
        ] {
            if i.key_pressed(key) {
                state.camera.pan(dx, dy);
            }
        }
    });
}

fn overlays_ui(painter: &egui::Painter, state: &MapState, rect: Rect) {
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
    let shapes = state.overlays.shapes(hi.b, hi.a);
    for ([from, to], c) in shapes.lines {
        painter.line_segment([to_screen(from), to_screen(to)], Stroke::new(1.5, theme::color32(c)));
    }
    let radius = (cell_px as f32 * 0.3).clamp(1.5, 6.0);
    for (centre, c) in shapes.marks {
        let p = to_screen(centre);
        if rect.contains(p) {
            painter.circle_stroke(p, radius, Stroke::new(1.5, theme::color32(c)));
        }
    }
}

/// The colour key of the current mode, in the top-right corner of the map.
fn legend_ui(painter: &egui::Painter, mode: ColorMode, max: u32, rect: Rect) {
    let swatch = theme::color32;
    let entries = legend_entries(mode, max);
    let font = FontId::proportional(12.0);
    let row_h = 16.0;
    let width = 130.0;
    let top_left = pos2(rect.right() - width - 8.0, rect.top() + 8.0);
    let bg = Rect::from_min_size(top_left, Vec2::new(width, row_h * entries.len() as f32 + 6.0));
    painter.rect_filled(bg, 4.0, theme::AXIS_BACKGROUND);
    for (i, (label, c)) in entries.iter().enumerate() {
        let y = top_left.y + 3.0 + i as f32 * row_h;
        let sw = Rect::from_min_size(pos2(top_left.x + 6.0, y + 2.0), Vec2::splat(row_h - 4.0));
        painter.rect_filled(sw, 2.0, swatch(*c));
        painter.text(
            pos2(sw.right() + 6.0, y + row_h / 2.0),
            Align2::LEFT_CENTER,
            label,
            font.clone(),
            theme::AXIS_TEXT,
        );
    }
}

/// Tick labels along the bottom (columns b) and left (rows a) edges, spaced to stay readable.
fn axes_ui(painter: &egui::Painter, state: &MapState, rect: Rect) {
    let cam = state.camera;
    let step_cells = nice_step(theme::TICK_SPACING as f64 * cam.cells_per_point);
    let (lo, hi) = cam.extent(rect.width(), rect.height());
    let font = FontId::monospace(11.0);
    let mut b = (lo.b / step_cells).ceil().max(0.0) * step_cells;
    while b <= hi.b {
        let (dx, _) = cam.offset_from_cell(CellPoint::new(0.0, b));
        let p = pos2(rect.center().x + dx, rect.bottom() - 2.0);
        let r = painter.text(p, Align2::CENTER_BOTTOM, format!("{b}"), font.clone(), theme::AXIS_TEXT);
        painter.rect_filled(r.expand(1.0), 2.0, theme::AXIS_BACKGROUND);
        painter.text(p, Align2::CENTER_BOTTOM, format!("{b}"), font.clone(), theme::AXIS_TEXT);
        b += step_cells;
    }
    let mut a = (lo.a / step_cells).ceil().max(0.0) * step_cells;
    while a <= hi.a {
        let (_, dy) = cam.offset_from_cell(CellPoint::new(a, 0.0));
        let p = pos2(rect.left() + 2.0, rect.center().y + dy);
        let r = painter.text(p, Align2::LEFT_CENTER, format!("{a}"), font.clone(), theme::AXIS_TEXT);
        painter.rect_filled(r.expand(1.0), 2.0, theme::AXIS_BACKGROUND);
        painter.text(p, Align2::LEFT_CENTER, format!("{a}"), font.clone(), theme::AXIS_TEXT);
        a += step_cells;
    }
}
