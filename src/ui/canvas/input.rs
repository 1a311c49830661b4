//! The map's input: drag to pan, wheel or pinch to zoom, and the keys (`+` `−` `0`, arrows).

use egui::{Rect, Vec2};

use super::*;

pub(super) fn handle_input(ui: &egui::Ui, state: &mut MapState, rect: Rect, response: &egui::Response, on_map: bool) {
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

/// Keyboard navigation of the map (see [`map_keys`]).
pub fn keyboard_ui(ctx: &egui::Context, state: &mut MapState) {
    for key in map_keys(ctx) {
        state.apply(key);
    }
}
