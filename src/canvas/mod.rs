//! The zoomable value map: a camera in cell space, the raster of the visible cells (through the
//! shared [`crate::raster`] path), overlays, axes and the hovered cell. Drag to pan, wheel or
//! pinch to zoom, `+` `−` `0` and the arrow keys from the keyboard.

pub mod board_view;
pub mod camera;
pub mod sequence_view;

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, TextureHandle, TextureOptions, Vec2, pos2};

use crate::app::theme;
use crate::game::prediction::Prediction;
pub use crate::raster::Overlays;
use crate::raster::{ColorMode, GRID_LINES_MIN_CELL_PX, View, colors, legend_entries, nice_step, raster};
use crate::solver::tiles::{TILE, TileKey, TileStore};
pub use camera::Camera;

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

/// What the difference colour mode compares the map with.
#[derive(Debug, Clone, Copy)]
pub enum Compare<'a> {
    Nothing,
    /// A second ruleset's map.
    Map(&'a TileStore),
    /// A theorem's predicted P-positions.
    Theorem(Prediction),
}

impl Compare<'_> {
    /// 0 where the other side says P, 1 where it says N, `None` where it says nothing.
    fn value(&self, a: u64, b: u64) -> Option<u32> {
        match self {
            Compare::Nothing => None,
            Compare::Map(g) => g.get(a, b).flatten(),
            Compare::Theorem(p) => p.is_p(a, b).map(|p| u32::from(!p)),
        }
    }

    fn key(&self) -> u64 {
        match self {
            Compare::Nothing => 0,
            Compare::Theorem(p) => 1 + *p as u64,
            Compare::Map(g) => 1000 + g.generation(),
        }
    }
}

/// The cell under the pointer, with its value if computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredCell {
    pub a: u64,
    pub b: u64,
    /// `None`: not computed yet; `Some(None)`: not a position.
    pub value: Option<Option<u32>>,
}

impl MapState {
    /// The tiles the view shows (cells below `limit` only), nearest the view's centre first.
    pub fn visible_tiles(&self, limit: u64) -> Vec<TileKey> {
        let rect = self
            .last_rect
            .unwrap_or(Rect::from_min_size(Pos2::ZERO, Vec2::new(800.0, 600.0)));
        let (b0, a0) = self.camera.cell_from_offset(-rect.width() / 2.0, rect.height() / 2.0);
        let (b1, a1) = self.camera.cell_from_offset(rect.width() / 2.0, -rect.height() / 2.0);
        let range = |lo: f64, hi: f64| {
            let last = (limit.saturating_sub(1) / TILE) as f64;
            let first = (lo.max(0.0) / TILE as f64).floor();
            let end = (hi / TILE as f64).floor().min(last);
            first as u64..(end + 1.0).max(first) as u64
        };
        if a1 < 0.0 || b1 < 0.0 {
            return Vec::new();
        }
        let (rows, cols) = (range(a0, a1), range(b0, b1));
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

    /// Screen position of the centre of cell (a, b) in the last frame.
    pub fn screen_pos_of_cell(&self, a: u64, b: u64) -> Option<Pos2> {
        let rect = self.last_rect?;
        let (dx, dy) = self.camera.offset_from_cell(b as f64 + 0.5, a as f64 + 0.5);
        Some(rect.center() + Vec2::new(dx, dy))
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
pub fn map_ui(ui: &mut egui::Ui, state: &mut MapState, map: &TileStore, other: Compare<'_>) -> MapResponse {
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    state.last_rect = Some(rect);
    handle_input(ui, state, rect, &response);
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, ui.visuals().extreme_bg_color);

    let ppp = ui.ctx().pixels_per_point();
    let width = (rect.width() * ppp).round().max(1.0) as usize;
    let height = (rect.height() * ppp).round().max(1.0) as usize;
    let cpp = state.camera.cells_per_point / ppp as f64;
    let (left, bottom) = state.camera.cell_from_offset(-rect.width() / 2.0, rect.height() / 2.0);
    let view = View {
        left,
        bottom,
        cells_per_pixel: cpp,
        width,
        height,
    };
    let key = (view, state.color, map.generation(), other.key());
    let max = map.max_value();
    if state.painted != Some(key) {
        let reader = map.reader();
        let value = |a: u64, b: u64| reader.get(a, b);
        let other_reader = match other {
            Compare::Map(g) => Some(g.reader()),
            _ => None,
        };
        let other_value = |a: u64, b: u64| match &other_reader {
            Some(r) => r.get(a, b).flatten(),
            None => other.value(a, b),
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
        let (b, a) = state
            .camera
            .cell_from_offset(p.x - rect.center().x, p.y - rect.center().y);
        (a >= 0.0 && b >= 0.0).then(|| {
            let (a, b) = (a.floor() as u64, b.floor() as u64);
            HoveredCell {
                a,
                b,
                value: map.get(a, b),
            }
        })
    });
    if let Some(h) = hovered {
        let cell_px = 1.0 / state.camera.cells_per_point as f32;
        if cell_px >= 4.0 {
            let (dx, dy) = state.camera.offset_from_cell(h.b as f64, h.a as f64 + 1.0);
            let r = Rect::from_min_size(rect.center() + Vec2::new(dx, dy), Vec2::splat(cell_px));
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
pub fn marks_ui(ui: &egui::Ui, state: &MapState, selected: Option<(u64, u64)>, options: &[((u64, u64), bool)]) {
    let Some(rect) = state.last_rect else { return };
    let painter = ui.painter_at(rect);
    let cam = state.camera;
    let cell_px = (1.0 / cam.cells_per_point) as f32;
    let centre = |a: u64, b: u64| {
        let (dx, dy) = cam.offset_from_cell(b as f64 + 0.5, a as f64 + 0.5);
        rect.center() + Vec2::new(dx, dy)
    };
    let radius = (cell_px * 0.32).clamp(2.0, 9.0);
    for &((a, b), winning) in options {
        let p = centre(a, b);
        if !rect.expand(radius).contains(p) {
            continue;
        }
        if winning {
            painter.circle_filled(p, radius, theme::WINNING_MARK);
        } else {
            painter.circle_stroke(p, radius, Stroke::new(1.5, theme::OPTION_MARK));
        }
    }
    if let Some((a, b)) = selected {
        let side = cell_px.max(6.0);
        let r = Rect::from_center_size(centre(a, b), Vec2::splat(side));
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
    let to_screen = |b: f64, a: f64| {
        let (dx, dy) = cam.offset_from_cell(b, a);
        rect.center() + Vec2::new(dx, dy)
    };
    let (b0, a0) = cam.cell_from_offset(-rect.width() / 2.0, rect.height() / 2.0);
    let (b1, a1) = cam.cell_from_offset(rect.width() / 2.0, -rect.height() / 2.0);
    let cell_px = 1.0 / cam.cells_per_point;
    if state.overlays.grid_lines && cell_px >= GRID_LINES_MIN_CELL_PX {
        let stroke = Stroke::new(1.0, theme::color32(colors::OVERLAY_GRID));
        let (bl, al) = (b0.max(0.0), a0.max(0.0));
        for b in (bl.ceil() as i64)..=(b1.ceil() as i64) {
            painter.line_segment([to_screen(b as f64, al), to_screen(b as f64, a1)], stroke);
        }
        for a in (al.ceil() as i64)..=(a1.ceil() as i64) {
            painter.line_segment([to_screen(bl, a as f64), to_screen(b1, a as f64)], stroke);
        }
    }
    let shapes = state.overlays.shapes(b1, a1);
    for ([(xb, xa), (yb, ya)], c) in shapes.lines {
        painter.line_segment(
            [to_screen(xb, xa), to_screen(yb, ya)],
            Stroke::new(1.5, theme::color32(c)),
        );
    }
    let radius = (cell_px as f32 * 0.3).clamp(1.5, 6.0);
    for ((b, a), c) in shapes.marks {
        let p = to_screen(b, a);
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
    let (b0, a0) = cam.cell_from_offset(-rect.width() / 2.0, rect.height() / 2.0);
    let (b1, a1) = cam.cell_from_offset(rect.width() / 2.0, -rect.height() / 2.0);
    let font = FontId::monospace(11.0);
    let mut b = (b0 / step_cells).ceil().max(0.0) * step_cells;
    while b <= b1 {
        let (dx, _) = cam.offset_from_cell(b, 0.0);
        let p = pos2(rect.center().x + dx, rect.bottom() - 2.0);
        let r = painter.text(p, Align2::CENTER_BOTTOM, format!("{b}"), font.clone(), theme::AXIS_TEXT);
        painter.rect_filled(r.expand(1.0), 2.0, theme::AXIS_BACKGROUND);
        painter.text(p, Align2::CENTER_BOTTOM, format!("{b}"), font.clone(), theme::AXIS_TEXT);
        b += step_cells;
    }
    let mut a = (a0 / step_cells).ceil().max(0.0) * step_cells;
    while a <= a1 {
        let (_, dy) = cam.offset_from_cell(0.0, a);
        let p = pos2(rect.left() + 2.0, rect.center().y + dy);
        let r = painter.text(p, Align2::LEFT_CENTER, format!("{a}"), font.clone(), theme::AXIS_TEXT);
        painter.rect_filled(r.expand(1.0), 2.0, theme::AXIS_BACKGROUND);
        painter.text(p, Align2::LEFT_CENTER, format!("{a}"), font.clone(), theme::AXIS_TEXT);
        a += step_cells;
    }
}
