//! The inspector: the selected position (clicked on the map or the strip, or typed), its value,
//! outcome and the mex computation made visible, its options as a lazily expanding move tree,
//! the nim-sum table (Nim) or the Zeckendorf representation (Fibonacci Nim), and play mode.
//!
//! [`InspectorState`] is the inspector's document part (serde, for sessions) plus caches that
//! are never saved. Reports come from the worker's inspector lane, one position at a time: the
//! game being played first, then the selected position, then the expanded tree nodes in the
//! order they are shown.
//!
//! Keyboard: while the pointer is over the inspector, or after a click inside it (until a
//! click elsewhere), the arrow keys move through the tree (up/down), expand (right or Enter)
//! and collapse (left); otherwise they pan the map as before.

use std::collections::HashMap;
use std::sync::Arc;

use egui::{Align2, FontId, Rect, Sense, Stroke, StrokeKind, Vec2, pos2};

use crate::app::theme;
use crate::game::{Outcome, Position, Ruleset, theory};
use crate::session::InspectorDocument;
use crate::solver::grid::Layout;
use crate::solver::play::{self, GameRecord};
use crate::solver::report::{self, PositionReport};
use crate::worker::{JobSpec, Lane, Output, Response, Worker};

pub use super::move_tree::TreeRow;

/// Options valued per report (the tree shows them in pages, see [`TREE_PAGE`]).
pub const OPTION_LIMIT: usize = report::DEFAULT_OPTION_LIMIT;
/// Children a tree node shows before "show more".
pub const TREE_PAGE: usize = 25;
/// Reports kept in memory before the cache is emptied.
const CACHE_LIMIT: usize = 4000;
/// Largest value shown as a box in the mex strip.
const MEX_STRIP_MAX: u32 = 40;

/// Text for the window: the default fonts lack some symbols the move descriptions use (an
/// arrow, ⊕, ≤, ≥), so they are spelled in ASCII here; the command line keeps them.
pub fn shown(text: &str) -> String {
    text.replace('→', "->")
        .replace('⊕', "xor")
        .replace('≤', "<=")
        .replace('≠', "!=")
        .replace('≥', ">=")
}

/// A cell to describe (the hovered cell of the map).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellInfo {
    pub a: u64,
    pub b: u64,
    /// `None`: not computed yet; `Some(None)`: not a position.
    pub value: Option<Option<u32>>,
}

/// Text describing a cell, as shown in the inspector and the status bar.
pub fn describe(cell: &CellInfo) -> String {
    match cell.value {
        None => format!("({}, {}): not computed yet", cell.a, cell.b),
        Some(None) => format!("({}, {}): not a position", cell.a, cell.b),
        Some(Some(g)) => format!("({}, {}): G = {g}, {}", cell.a, cell.b, Outcome::of(g)),
    }
}

/// The inspector. The serialised fields are the user's document (saved in sessions with the
/// ruleset); everything else is a cache rebuilt from them.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct InspectorState {
    /// The ruleset expression the selection belongs to; a different ruleset clears it.
    pub ruleset: String,
    /// The selected position, the open nodes of the move tree, the game being played.
    #[serde(flatten)]
    pub doc: InspectorDocument,
    #[serde(skip)]
    pub(crate) cache: Cache,
}

impl InspectorState {
    /// The saved part, for session files.
    pub fn document(&self) -> InspectorDocument {
        self.doc.clone()
    }

    /// An inspector showing a saved document of `ruleset` (checked against the ruleset on the
    /// next frame, see [`InspectorState::sync`]).
    pub fn from_document(ruleset: &str, doc: InspectorDocument) -> InspectorState {
        InspectorState {
            ruleset: ruleset.to_string(),
            doc,
            cache: Cache::default(),
        }
    }
}

/// Why `game` is not a game of `ruleset`: a position that is not one, or a step that is not
/// a move.
fn check_game(ruleset: &Ruleset, game: &GameRecord) -> Result<(), String> {
    for p in &game.positions {
        ruleset
            .check_position(p)
            .map_err(|e| format!("'{p}' is not a position of {ruleset}: {e}"))?;
    }
    let mut options = Vec::new();
    for step in game.positions.windows(2) {
        options.clear();
        ruleset.options(&step[0], &mut options);
        if !options.contains(&step[1]) {
            return Err(format!("'{}' is not a move from '{}' in {ruleset}", step[1], step[0]));
        }
    }
    Ok(())
}

/// Separates the positions of a tree path (never part of a position's text).
pub const PATH_SEPARATOR: &str = " > ";

/// What the inspector computed or saw; never saved.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    /// The ruleset the caches belong to.
    ruleset: Option<Ruleset>,
    /// `selected`, parsed.
    pub(crate) root: Option<Position>,
    pub(crate) reports: HashMap<Position, Arc<PositionReport>>,
    pub(crate) errors: HashMap<Position, String>,
    /// The position of the job running on the inspector lane.
    requested: Option<Position>,
    /// Why the typed position was refused.
    pub(crate) input_error: Option<String>,
    /// The tree row the keyboard is on (its path key).
    pub(crate) cursor: Option<String>,
    /// The rows drawn in the last frame, in order (for the keyboard).
    pub(crate) rows: Vec<TreeRow>,
    /// Expanded nodes without a report, in the order drawn (for the schedule).
    pub(crate) wanted: Vec<Position>,
    /// The inspector's rectangle in the last frame.
    rect: Option<Rect>,
    /// The keyboard belongs to the tree (set by a click inside the inspector).
    focused: bool,
    /// The hint shown in play mode.
    pub(crate) hint: Option<String>,
}

/// Where to draw the inspector's marks on the map: the cell of the position in focus and the
/// cells of its options (winning or not).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapMarks {
    pub selected: Option<(u64, u64)>,
    pub options: Vec<((u64, u64), bool)>,
}

impl InspectorState {
    /// Selects `p`, a position of the current ruleset, as the root of the tree (leaves play mode).
    pub fn select(&mut self, p: Position) {
        let text = p.to_string();
        self.doc.typed = text.clone();
        self.cache.input_error = None;
        if self.doc.selected.as_deref() == Some(text.as_str()) && self.cache.root.as_ref() == Some(&p) {
            return;
        }
        self.doc.selected = Some(text.clone());
        self.cache.root = Some(p);
        self.cache.cursor = Some(text.clone());
        self.doc.expanded.clear();
        self.doc.expanded.insert(text); // the options of a new selection are shown at once
        self.doc.shown.clear();
        self.doc.play = None;
        self.cache.hint = None;
    }

    /// Parses and selects the typed position; an illegal one gets a message and changes nothing.
    pub fn select_typed(&mut self, ruleset: &Ruleset) {
        self.sync(ruleset);
        match ruleset.parse_position(&self.doc.typed) {
            Ok(p) => self.select(p),
            Err(e) => {
                self.cache.input_error = Some(format!(
                    "'{}' is not a position of {ruleset}: {e}",
                    self.doc.typed.trim()
                ))
            }
        }
    }

    /// Selects position text (`--select` on the command line, a session): parsed and checked
    /// against `ruleset`.
    pub fn select_text(&mut self, ruleset: &Ruleset, text: &str) -> Result<(), String> {
        self.doc.typed = text.to_string();
        self.select_typed(ruleset);
        match &self.cache.input_error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// The selected position, parsed.
    pub fn root(&self) -> Option<&Position> {
        self.cache.root.as_ref()
    }

    /// The report of `p`, if computed.
    pub fn report(&self, p: &Position) -> Option<&Arc<PositionReport>> {
        self.cache.reports.get(p)
    }

    /// Why the typed position was refused, if it was.
    pub fn input_error(&self) -> Option<&str> {
        self.cache.input_error.as_deref()
    }

    /// The tree rows drawn in the last frame.
    pub fn rows(&self) -> &[TreeRow] {
        &self.cache.rows
    }

    /// The path key of the row the keyboard is on.
    pub fn cursor(&self) -> Option<&str> {
        self.cache.cursor.as_deref()
    }

    /// Keeps the state consistent with the window's ruleset: a new ruleset empties the caches,
    /// and clears the selection unless it was saved for that ruleset (a restored session).
    pub fn sync(&mut self, ruleset: &Ruleset) {
        if self.cache.ruleset.as_ref() == Some(ruleset) {
            return;
        }
        let name = ruleset.to_string();
        self.cache = Cache {
            ruleset: Some(ruleset.clone()),
            ..Cache::default()
        };
        if self.ruleset != name {
            self.ruleset = name;
            self.doc.selected = None;
            self.doc.expanded.clear();
            self.doc.shown.clear();
            self.doc.play = None;
        }
        // a restored (or kept) selection must still be a position of the ruleset
        if let Some(text) = self.doc.selected.clone() {
            match ruleset.parse_position(&text) {
                Ok(p) => {
                    self.cache.cursor = Some(p.to_string());
                    self.cache.root = Some(p);
                }
                Err(e) => {
                    self.doc.selected = None;
                    self.doc.play = None;
                    self.cache.input_error = Some(format!(
                        "the saved position '{text}' is not a position of {ruleset}: {e}"
                    ));
                }
            }
        }
        // and a saved game must still be a game of it: dropped with a word, never silently
        if let Some(g) = &self.doc.play
            && let Err(e) = check_game(ruleset, g)
        {
            self.cache.input_error = Some(format!("the saved game was not restored: {e}"));
            self.doc.play = None;
        }
    }

    /// Takes a response of the inspector lane.
    pub fn on_response(&mut self, resp: Response) {
        let JobSpec::Position { ruleset, position, .. } = resp.spec else {
            return;
        };
        if self.cache.requested.as_ref() == Some(&position) {
            self.cache.requested = None;
        }
        if self.cache.ruleset.as_ref() != Some(&ruleset) {
            return; // for a ruleset no longer shown
        }
        if self.cache.reports.len() >= CACHE_LIMIT {
            self.cache.reports.clear();
        }
        match resp.result {
            Ok(Output::Position(r)) => {
                self.cache.errors.remove(&position);
                self.cache.reports.insert(position, r);
            }
            Ok(_) => {}
            Err(e) => {
                self.cache.errors.insert(position, e);
            }
        }
    }

    /// The positions whose reports the inspector needs now, most urgent first.
    fn needed(&self) -> Vec<Position> {
        let mut out = Vec::new();
        if let Some(p) = self.doc.play.as_ref().and_then(GameRecord::current) {
            out.push(p.clone());
        }
        out.extend(self.cache.root.iter().cloned());
        if let Some(p) = self.focus_position() {
            out.push(p);
        }
        out.extend(self.cache.wanted.iter().cloned());
        out
    }

    /// Asks the worker for the first needed report, plays the computer's move when it is its
    /// turn. Call once a frame after taking the lane's responses.
    pub fn logic(&mut self, ruleset: &Ruleset, worker: &mut Worker) {
        self.sync(ruleset);
        self.computer_move();
        let needed = self.needed();
        if worker.is_running(Lane::Inspector) && self.cache.requested.as_ref().is_some_and(|r| needed.contains(r)) {
            return;
        }
        if !worker.is_running(Lane::Inspector) {
            self.cache.requested = None;
        }
        let next = needed
            .into_iter()
            .find(|p| !self.cache.reports.contains_key(p) && !self.cache.errors.contains_key(p));
        match next {
            Some(p) => {
                worker.submit(
                    Lane::Inspector,
                    JobSpec::Position {
                        ruleset: ruleset.clone(),
                        position: p.clone(),
                        limit: OPTION_LIMIT,
                    },
                );
                self.cache.requested = Some(p);
            }
            None if self.cache.requested.is_some() => {
                worker.cancel(Lane::Inspector); // nobody needs it any more
                self.cache.requested = None;
            }
            None => {}
        }
    }

    /// Plays the computer's move if it is to move and the current position's report is known.
    fn computer_move(&mut self) {
        let Some(g) = &mut self.doc.play else { return };
        if !g.computer_to_move() {
            return;
        }
        let Some(r) = g.current().and_then(|p| self.cache.reports.get(p)) else {
            return;
        };
        if let Some(i) = play::computer_choice(&r.options) {
            let to = r.options[i].position.clone();
            g.play(to);
            self.cache.hint = None;
        }
    }

    /// The position whose options are marked on the map: the game's current position in play
    /// mode, else the tree row under the keyboard cursor, else the selected position.
    pub fn focus_position(&self) -> Option<Position> {
        if let Some(p) = self.doc.play.as_ref().and_then(GameRecord::current) {
            return Some(p.clone());
        }
        if let Some(c) = &self.cache.cursor
            && let Some(row) = self.cache.rows.iter().find(|r| &r.key == c)
        {
            return Some(row.position.clone());
        }
        self.cache.root.clone()
    }

    /// The marks of the focus position on a map drawn with `layout`.
    pub fn map_marks(&self, layout: &Layout, ruleset: &Ruleset) -> MapMarks {
        let Some(p) = self.focus_position() else {
            return MapMarks::default();
        };
        let options = self.cache.reports.get(&p).map_or_else(Vec::new, |r| {
            r.options
                .iter()
                .filter_map(|o| report::cell_of(layout, ruleset, &o.position).map(|c| (c, o.winning)))
                .collect()
        });
        MapMarks {
            selected: report::cell_of(layout, ruleset, &p),
            options,
        }
    }

    /// Heaps marked on the strip of a one-heap ruleset: the focus heap and the heaps its
    /// options lead to (winning or not).
    pub fn strip_marks(&self) -> (Option<u64>, Vec<(u64, bool)>) {
        let one = |p: &Position| match p {
            Position::Heaps(h) if h.len() == 1 => Some(h[0]),
            _ => None,
        };
        let Some(p) = self.focus_position() else {
            return (None, Vec::new());
        };
        let opts = self.cache.reports.get(&p).map_or_else(Vec::new, |r| {
            r.options
                .iter()
                .filter_map(|o| one(&o.position).map(|n| (n, o.winning)))
                .collect()
        });
        (one(&p), opts)
    }

    /// Starts a game from `start` against the chosen opponent.
    pub fn start_play(&mut self, start: Position) {
        self.doc.play = Some(GameRecord::new(start, self.doc.opponent));
        self.cache.hint = None;
    }

    /// Keyboard navigation of the tree (see the module docs); consumes the keys it uses, so
    /// call it before the map's keyboard handler.
    pub fn keyboard_ui(&mut self, ctx: &egui::Context) {
        let pointer = ctx.input(|i| i.pointer.latest_pos());
        let pressed = ctx.input(|i| i.pointer.any_pressed());
        let over = matches!((pointer, self.cache.rect), (Some(p), Some(r)) if r.contains(p));
        if pressed {
            self.cache.focused = over;
        }
        if !(over || self.cache.focused) || ctx.egui_wants_keyboard_input() || self.cache.rows.is_empty() {
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
        let rows = &self.cache.rows;
        let at = self
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
                self.doc.expanded.insert(row.key.clone());
            }
        }
        if let Some(i) = at
            && left
        {
            let row = &rows[i];
            if row.expanded {
                self.doc.expanded.remove(&row.key);
            } else if let Some(p) = row.parent {
                to = Some(p);
            }
        }
        if let Some(i) = to {
            self.cache.cursor = Some(rows[i].key.clone());
        }
    }
}

/// Draws the inspector: `hovered` is the map cell under the pointer.
pub fn inspector_ui(ui: &mut egui::Ui, state: &mut InspectorState, ruleset: &Ruleset, hovered: Option<CellInfo>) {
    state.cache.rect = Some(ui.max_rect());
    ui.heading("Inspector");
    ui.label(format!("ruleset: {ruleset}"));
    match hovered {
        Some(c) => ui.label(format!("under the pointer {}", describe(&c))),
        None => ui.label("click a cell of the map, or type a position"),
    };
    ui.horizontal(|ui| {
        let l = ui.label("Position");
        let edit = ui
            .add(egui::TextEdit::singleline(&mut state.doc.typed).desired_width(120.0))
            .labelled_by(l.id);
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Inspect").clicked() || enter {
            state.select_typed(ruleset);
        }
    });
    if let Some(e) = &state.cache.input_error {
        ui.colored_label(theme::ERROR_TEXT, shown(e));
    }
    ui.separator();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        let Some(root) = state.cache.root.clone() else {
            state.cache.rows.clear();
            state.cache.wanted.clear();
            return;
        };
        match (state.cache.reports.get(&root).cloned(), state.cache.errors.get(&root)) {
            (Some(r), _) => summary_ui(ui, &r),
            (None, Some(e)) => {
                ui.colored_label(theme::ERROR_TEXT, shown(&format!("{root}: {e}")));
            }
            (None, None) => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("computing {root}…"));
                });
            }
        }
        ui.separator();
        super::play_panel::play_ui(ui, state, &root);
        ui.separator();
        super::move_tree::tree_ui(ui, state, &root);
    });
}

/// The position, its value and outcome, the mex computation, and the per-game extras.
fn summary_ui(ui: &mut egui::Ui, r: &PositionReport) {
    ui.strong(format!("position {}", r.position));
    ui.label(format!(
        "G = {}, outcome {} ({})",
        r.value,
        r.outcome,
        match r.outcome {
            Outcome::P => "the previous player wins",
            Outcome::N => "the next player wins",
        }
    ));
    if let Some(p) = &r.phase {
        ui.label(format!("phase: {p}"));
    }
    match r.total_options {
        Some(0) => {
            ui.label(if r.value == 0 {
                "no move: the game is over, and the player to move has lost"
            } else {
                "no move: the game is over, and under misère play the player to move has won"
            });
        }
        Some(n) => {
            let wins = r.winning().count();
            ui.label(format!(
                "{n} option(s), {wins} winning{}",
                if r.complete() {
                    String::new()
                } else {
                    format!(" among the first {}", r.options.len())
                }
            ));
            mex_ui(ui, r);
        }
        None => {
            ui.label(format!(
                "too many options to list (more than {}); the value comes from the solver",
                report::ENUMERATE_LIMIT
            ));
        }
    }
    extras_ui(ui, r);
}

/// The mex made visible: a box per value 0..=max, filled where an option has that value, the
/// smallest missing value outlined.
fn mex_ui(ui: &mut egui::Ui, r: &PositionReport) {
    let values = r.option_values();
    let mex = r.mex();
    let shown: Vec<String> = values.iter().take(16).map(u32::to_string).collect();
    let more = if values.len() > 16 { ", …" } else { "" };
    ui.label(format!(
        "option values {{{}{more}}}; the smallest missing value is {mex}{}",
        shown.join(", "),
        if r.complete() { "" } else { " (over the options valued)" }
    ));
    let top = values.last().copied().unwrap_or(0).max(mex).min(MEX_STRIP_MAX);
    let size = 18.0;
    let per_row = ((ui.available_width() / (size + 2.0)).floor() as usize).max(1);
    let n = top as usize + 1;
    let rows = n.div_ceil(per_row);
    let (rect, _) = ui.allocate_exact_size(
        Vec2::new(ui.available_width(), rows as f32 * (size + 2.0)),
        Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    for v in 0..=top {
        let (row, col) = (v as usize / per_row, v as usize % per_row);
        let b = Rect::from_min_size(
            pos2(
                rect.left() + col as f32 * (size + 2.0),
                rect.top() + row as f32 * (size + 2.0),
            ),
            Vec2::splat(size),
        );
        let present = values.binary_search(&v).is_ok();
        painter.rect_filled(
            b,
            2.0,
            if present {
                theme::VALUE_PRESENT
            } else {
                theme::VALUE_ABSENT
            },
        );
        if v == mex {
            painter.rect_stroke(b, 2.0, Stroke::new(2.0, theme::MEX_HIGHLIGHT), StrokeKind::Inside);
        }
        painter.text(
            b.center(),
            Align2::CENTER_CENTER,
            v.to_string(),
            FontId::monospace(10.0),
            theme::AXIS_TEXT,
        );
    }
    if r.value != mex && r.complete() && !r.is_terminal() {
        ui.small(format!(
            "G = {} differs from the mex: misère values of terminal positions",
            r.value
        ));
    } else {
        ui.small(format!("G = mex = {}", r.value));
    }
}

/// Seed 004's nim-sum table for Nim positions and the Zeckendorf representation for Fibonacci
/// Nim.
fn extras_ui(ui: &mut egui::Ui, r: &PositionReport) {
    match (r.ruleset.base().0, &r.position) {
        (Ruleset::Nim, Position::Heaps(h)) if h.len() >= 2 && !matches!(r.ruleset, Ruleset::Push(..)) => {
            nim_sum_table_ui(ui, h);
        }
        (Ruleset::FibonacciNim, Position::Fib { n, q }) if matches!(r.ruleset, Ruleset::FibonacciNim) => {
            let terms = theory::zeckendorf_terms(*n);
            let text: Vec<String> = terms.iter().map(u64::to_string).collect();
            ui.label(format!(
                "Zeckendorf: {n} = {}",
                if text.is_empty() {
                    "0".to_string()
                } else {
                    text.join(" + ")
                }
            ));
            match (terms.last(), theory::fibonacci_nim_move(*n, *q)) {
                (_, Some(k)) if k == *n => ui.label(format!("at most {q} may be taken: take all {n} and win")),
                (Some(s), Some(_)) => ui.label(format!("the smallest term {s} <= q = {q}: taking {s} wins")),
                (Some(s), None) => ui.label(format!("the smallest term {s} > q = {q}: every move loses")),
                (None, _) => ui.label("no chips left"),
            };
        }
        _ => {}
    }
}

/// The binary digits of each heap in columns, and the nim-sum row (seed 004).
pub fn nim_sum_table_ui(ui: &mut egui::Ui, heaps: &[u64]) {
    let rows = nim_sum_table(heaps);
    let bits = rows.first().map_or(1, |r| r.1.len());
    ui.label("nim-sum table (seed 004)");
    egui::Grid::new("nim-sum-table").striped(true).show(ui, |ui| {
        ui.label("");
        for k in (0..bits).rev() {
            ui.monospace(format!("2^{k}"));
        }
        ui.end_row();
        for (i, (label, digits)) in rows.iter().enumerate() {
            let last = i + 1 == rows.len();
            if last {
                ui.strong(label);
            } else {
                ui.monospace(label);
            }
            for d in digits {
                if last {
                    ui.strong(d.to_string());
                } else {
                    ui.monospace(d.to_string());
                }
            }
            ui.end_row();
        }
    });
    let s = theory::nim_sum(heaps);
    let terms: Vec<String> = heaps.iter().map(u64::to_string).collect();
    ui.label(format!(
        "{} = {s}: {}",
        terms.join(" xor "),
        if s == 0 { "balanced (P)" } else { "unbalanced (N)" }
    ));
}

/// The rows of the nim-sum table: each heap and its binary digits (most significant first),
/// then "nim-sum" and the digits of the xor, all as wide as the largest.
pub fn nim_sum_table(heaps: &[u64]) -> Vec<(String, Vec<u8>)> {
    let s = theory::nim_sum(heaps);
    let top = heaps.iter().copied().max().unwrap_or(0).max(s);
    let bits = (64 - top.leading_zeros()).max(1) as usize;
    let digits = |x: u64| (0..bits).rev().map(|k| ((x >> k) & 1) as u8).collect::<Vec<_>>();
    let mut rows: Vec<(String, Vec<u8>)> = heaps.iter().map(|&h| (h.to_string(), digits(h))).collect();
    rows.push(("nim-sum".into(), digits(s)));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_004_nim_sum_tables() {
        // seed 004's tables: 1,3,5,7 balances; 5⊕6⊕7 = 4; 9⊕10⊕15 = 12 (the slide says 10)
        let t = nim_sum_table(&[1, 3, 5, 7]);
        assert_eq!(t[1], ("3".to_string(), vec![0, 1, 1]));
        assert_eq!(t[4], ("nim-sum".to_string(), vec![0, 0, 0]));
        assert_eq!(nim_sum_table(&[5, 6, 7])[3].1, vec![1, 0, 0]);
        let t = nim_sum_table(&[9, 10, 15]);
        assert_eq!(t[3].1, vec![1, 1, 0, 0]);
        assert_eq!(t[0].1, vec![1, 0, 0, 1]);
        // every column's digits xor to the last row's
        for heaps in [[3u64, 17, 40, 9], [255, 1, 2, 128]] {
            let t = nim_sum_table(&heaps);
            let (last, body) = t.split_last().unwrap();
            for k in 0..last.1.len() {
                assert_eq!(body.iter().fold(0, |x, r| x ^ r.1[k]), last.1[k]);
            }
        }
    }

    #[test]
    fn a_new_ruleset_clears_the_selection_but_a_restored_one_survives() {
        let wythoff: Ruleset = "wythoff".parse().unwrap();
        let mut s = InspectorState::default();
        s.sync(&wythoff);
        s.select_text(&wythoff, "3,5").unwrap();
        s.doc.expanded.insert("3,5".into());
        let saved = serde_json::to_string(&s).unwrap();
        let mut restored: InspectorState = serde_json::from_str(&saved).unwrap();
        restored.sync(&wythoff);
        assert_eq!(restored.root(), Some(&Position::heaps(&[3, 5])));
        assert!(restored.doc.expanded.contains("3,5"));
        restored.sync(&"euclid".parse().unwrap());
        assert_eq!(restored.root(), None);
        assert!(restored.doc.expanded.is_empty());
        // an illegal typed position changes nothing
        let mut s = InspectorState::default();
        s.sync(&wythoff);
        s.select_text(&wythoff, "3,5").unwrap();
        assert!(s.select_text(&wythoff, "3,5,7").is_err());
        assert_eq!(s.root(), Some(&Position::heaps(&[3, 5])));
        assert!(s.input_error().unwrap().contains("two heaps"));
    }

    #[test]
    fn a_saved_game_that_no_longer_fits_is_dropped_with_a_word() {
        let wythoff: Ruleset = "wythoff".parse().unwrap();
        let restore = |positions: &[&[u64]]| {
            let mut s = InspectorState::default();
            s.sync(&wythoff);
            s.doc.play = Some(GameRecord {
                positions: positions.iter().map(|h| Position::heaps(h)).collect(),
                ..GameRecord::default()
            });
            s.cache = Cache::default(); // as freshly loaded from a file
            s.sync(&wythoff);
            s
        };
        // a real game survives: (3,5) -> (1,3) (2 from both) -> (0,3)
        let s = restore(&[&[3, 5], &[1, 3], &[0, 3]]);
        assert!(s.doc.play.is_some());
        assert_eq!(s.input_error(), None);
        let s = restore(&[&[3, 5], &[1, 2, 3]]);
        assert!(s.doc.play.is_none());
        assert!(
            s.input_error()
                .unwrap()
                .contains("'1,2,3' is not a position of wythoff")
        );
        // (3,5) -> (2,2) removes 1 and 3: not a move
        let s = restore(&[&[3, 5], &[2, 2]]);
        assert!(s.doc.play.is_none());
        assert_eq!(
            s.input_error(),
            Some("the saved game was not restored: '2,2' is not a move from '3,5' in wythoff")
        );
    }
}
