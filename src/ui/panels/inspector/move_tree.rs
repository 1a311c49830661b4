//! The move tree of the inspector: the selected position, its options, their options, ...,
//! expanded one node at a time (each expansion asks the worker for that node's report), at
//! most a page of children per node with "show more".

use super::state::{InspectorState, PATH_SEPARATOR, TREE_PAGE, TreeRow};
use crate::ui::theme::{self, shown};
use crate::worker::JobError;
use nimscope_core::game::Position;

/// What a child row says about the move leading to it.
struct Edge {
    description: String,
    /// The option's value as written (`3`, or `∞(0,2)` in a game that loops).
    value: String,
    winning: bool,
}

/// Draws the tree rooted at `root`.
pub(super) fn tree_ui(ui: &mut egui::Ui, state: &mut InspectorState, root: &Position) {
    ui.strong("Move tree");
    ui.small("Click a move to expand it. Keys (pointer over the inspector): up/down, right or Enter to expand, left to collapse.");
    state.cache.rows.clear();
    state.cache.wanted.clear();
    node_ui(ui, state, root, root.to_string(), 0, None, None);
}

fn node_ui(
    ui: &mut egui::Ui,
    state: &mut InspectorState,
    p: &Position,
    key: String,
    depth: usize,
    parent: Option<usize>,
    edge: Option<Edge>,
) {
    let report = state.cache.reports.get(p).cloned();
    let expandable = report.as_ref().is_none_or(|r| !r.is_terminal());
    let expanded = expandable && state.doc.expanded.contains(&key);
    let index = state.cache.rows.len();
    state.cache.rows.push(TreeRow {
        key: key.clone(),
        position: p.clone(),
        parent,
        expandable,
        expanded,
    });
    let marker = match (expandable, expanded) {
        (false, _) => "  ",
        (true, false) => "+ ",
        (true, true) => "- ",
    };
    let text = match &edge {
        // the value and the result first: a narrow panel cuts the description, not them
        Some(e) => format!(
            "{marker}G = {}{}  {p}  ({})",
            e.value,
            if e.winning { " winning" } else { "" },
            shown(&e.description),
        ),
        None => match &report {
            Some(r) => format!("{marker}{p}   G = {}", r.value_text()),
            None => format!("{marker}{p}"),
        },
    };
    let mut rich = egui::RichText::new(shown(&text));
    if edge.as_ref().is_some_and(|e| e.winning) {
        rich = rich.color(theme::WINNING_TEXT);
    }
    let is_cursor = state.cache.cursor.as_deref() == Some(key.as_str());
    // wrapped at the panel's edge: a long description (a take-and-break move at UI scale
    // 1.3) is read in full, not cut by the edge of a panel that scrolls sideways
    let response = ui
        .horizontal(|ui| {
            ui.add_space(depth as f32 * theme::TREE_INDENT);
            ui.add(egui::Button::selectable(is_cursor, rich).wrap())
        })
        .inner;
    if response.clicked() {
        state.cache.cursor = Some(key.clone());
        if expanded {
            state.doc.expanded.remove(&key);
        } else if expandable {
            state.doc.expanded.insert(key.clone());
        }
    }
    response.context_menu(|ui| {
        if ui.button("Inspect this position").clicked() {
            state.select(p.clone());
        }
        if ui.button("Play from this position").clicked() {
            state.select(p.clone());
            state.start_play(p.clone());
        }
    });
    if !expanded {
        return;
    }
    let Some(r) = report else {
        ui.horizontal_wrapped(|ui| {
            ui.add_space((depth + 1) as f32 * theme::TREE_INDENT);
            match state.cache.errors.get(p) {
                Some(JobError::Cancelled) => {
                    ui.label("stopped by Cancel");
                    if ui.small_button("compute again").clicked() {
                        state.resume(p);
                    }
                }
                Some(e) => {
                    ui.colored_label(theme::error_text(ui.visuals()), shown(&e.to_string()));
                }
                None => {
                    crate::ui::busy_ui(ui);
                    ui.label("computing…");
                }
            }
        });
        state.cache.wanted.push(p.clone());
        return;
    };
    let shown = state.doc.shown.get(&key).copied().unwrap_or(TREE_PAGE);
    for o in r.options.iter().take(shown) {
        let child = format!("{key}{PATH_SEPARATOR}{}", o.to);
        let edge = Edge {
            description: o.description.clone(),
            value: o.value_text(),
            winning: o.winning,
        };
        node_ui(ui, state, &o.position, child, depth + 1, Some(index), Some(edge));
    }
    let hidden = r.options.len().saturating_sub(shown);
    // the tree's last line wraps too: "N further options not valued" at the panel's edge
    ui.horizontal_wrapped(|ui| {
        ui.add_space((depth + 1) as f32 * theme::TREE_INDENT);
        if hidden > 0 && ui.button(format!("show more of {p} ({hidden} more)")).clicked() {
            state.doc.shown.insert(key.clone(), shown + TREE_PAGE * 4);
        }
        if let Some(total) = r.total_options
            && total > r.options.len() as u64
        {
            ui.small(format!("{} further options not valued", total - r.options.len() as u64));
        }
        if r.total_options.is_none() {
            ui.small("too many options to list");
        }
    });
}

impl InspectorState {
    /// Keyboard navigation of the tree (see the inspector's module docs); consumes the keys it
    /// uses, so call it before the map's keyboard handler.
    pub fn keyboard_ui(&mut self, ctx: &egui::Context) {
        keyboard_ui(ctx, self);
    }
}

/// Keyboard navigation of the tree (see [`InspectorState::keyboard_ui`]).
fn keyboard_ui(ctx: &egui::Context, state: &mut InspectorState) {
    let pointer = ctx.input(|i| i.pointer.latest_pos());
    let pressed = ctx.input(|i| i.pointer.any_pressed());
    let over = matches!((pointer, state.cache.rect), (Some(p), Some(r)) if r.contains(p));
    if pressed {
        state.cache.focused = over;
    }
    if !(over || state.cache.focused) || ctx.egui_wants_keyboard_input() || state.cache.rows.is_empty() {
        return;
    }
    let none = egui::Modifiers::NONE;
    let (up, down, right, enter, left) = ctx.input_mut(|i| {
        (
            i.consume_key(none, egui::Key::ArrowUp),
            i.consume_key(none, egui::Key::ArrowDown),
            i.consume_key(none, egui::Key::ArrowRight),
            i.consume_key(none, egui::Key::Enter),
            i.consume_key(none, egui::Key::ArrowLeft),
        )
    });
    let rows = &state.cache.rows;
    let at = state
        .cache
        .cursor
        .as_ref()
        .and_then(|c| rows.iter().position(|r| &r.key == c));
    let mut to = at;
    if up {
        to = Some(at.map_or(0, |i| i.saturating_sub(1)));
    }
    if down {
        to = Some(at.map_or(0, |i| (i + 1).min(rows.len() - 1)));
    }
    if let Some(i) = at
        && (right || enter)
    {
        let row = &rows[i];
        if row.expanded {
            if rows.get(i + 1).is_some_and(|r| r.parent == Some(i)) {
                to = Some(i + 1);
            }
        } else if row.expandable {
            state.doc.expanded.insert(row.key.clone());
        }
    }
    if let Some(i) = at
        && left
    {
        let row = &rows[i];
        if row.expanded {
            state.doc.expanded.remove(&row.key);
        } else if let Some(p) = row.parent {
            to = Some(p);
        }
    }
    if let Some(i) = to {
        state.cache.cursor = Some(rows[i].key.clone());
    }
}
