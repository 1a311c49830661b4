//! The map's input: drag to pan, wheel or pinch to zoom, and the keys (`+` `−` `0`, arrows).

use egui::{Rect, Vec2};

use super::MapState;

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
/// `)` and Shift+- is `_` on most layouts); `+` is Shift+= on many. Each key press is judged by
/// the modifiers held when it was pressed (its event's), not those of the frame's end: a quick
/// Shift+0 is released within the frame it was pressed in.
pub fn map_keys(ctx: &egui::Context) -> Vec<MapKey> {
    if ctx.egui_wants_keyboard_input() {
        return Vec::new();
    }
    ctx.input(|i| {
        let mut keys = Vec::new();
        let step = 60.0;
        for event in &i.events {
            let egui::Event::Key {
                key,
                pressed: true,
                modifiers,
                ..
            } = event
            else {
                continue;
            };
            let plain = !modifiers.shift && !modifiers.command && !modifiers.ctrl && !modifiers.alt;
            let no_command = !modifiers.command && !modifiers.ctrl;
            let k = match key {
                egui::Key::Plus | egui::Key::Equals if no_command => MapKey::ZoomIn,
                egui::Key::Minus if plain => MapKey::ZoomOut,
                egui::Key::Num0 if plain => MapKey::Fit,
                egui::Key::ArrowLeft if no_command => MapKey::Pan(step, 0.0),
                egui::Key::ArrowRight if no_command => MapKey::Pan(-step, 0.0),
                egui::Key::ArrowUp if no_command => MapKey::Pan(0.0, step),
                egui::Key::ArrowDown if no_command => MapKey::Pan(0.0, -step),
                _ => continue,
            };
            keys.push(k);
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
