//! The move tree of the inspector: the selected position, its options, their options, ...,
//! expanded one node at a time (each expansion asks the worker for that node's report), at
//! most a page of children per node with "show more".

use super::inspector_panel::{InspectorState, PATH_SEPARATOR, TREE_PAGE, shown};
use crate::app::theme;
use crate::game::Position;

/// One row of the tree as drawn in the last frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRow {
    /// The path of position texts from the root, joined by [`PATH_SEPARATOR`].
    pub key: String,
    pub position: Position,
    /// The row index of the parent node.
    pub parent: Option<usize>,
    /// Whether the node may have options (unknown counts as yes).
    pub expandable: bool,
    pub expanded: bool,
}

/// What a child row says about the move leading to it.
struct Edge {
    description: String,
    grundy: u32,
    winning: bool,
}

/// Draws the tree rooted at `root`.
pub fn tree_ui(ui: &mut egui::Ui, state: &mut InspectorState, root: &Position) {
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
        Some(e) => format!(
            "{marker}{} -> {p}   G = {}{}",
            shown(&e.description),
            e.grundy,
            if e.winning { "   winning" } else { "" }
        ),
        None => match &report {
            Some(r) => format!("{marker}{p}   G = {}", r.value),
            None => format!("{marker}{p}"),
        },
    };
    let mut rich = egui::RichText::new(shown(&text));
    if edge.as_ref().is_some_and(|e| e.winning) {
        rich = rich.color(theme::WINNING_TEXT);
    }
    let is_cursor = state.cache.cursor.as_deref() == Some(key.as_str());
    let response = ui
        .horizontal(|ui| {
            ui.add_space(depth as f32 * theme::TREE_INDENT);
            ui.selectable_label(is_cursor, rich)
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
        ui.horizontal(|ui| {
            ui.add_space((depth + 1) as f32 * theme::TREE_INDENT);
            match state.cache.errors.get(p) {
                Some(e) => {
                    ui.colored_label(theme::ERROR_TEXT, shown(e));
                }
                None => {
                    ui.spinner();
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
            grundy: o.grundy,
            winning: o.winning,
        };
        node_ui(ui, state, &o.position, child, depth + 1, Some(index), Some(edge));
    }
    let hidden = r.options.len().saturating_sub(shown);
    ui.horizontal(|ui| {
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
