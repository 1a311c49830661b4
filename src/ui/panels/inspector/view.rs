//! The inspector's view: the position field, the summary (value, outcome, the mex made
//! visible, seed 004's nim-sum table, the Zeckendorf terms), then play mode and the move tree.

use egui::{Align2, FontId, Rect, Sense, Stroke, StrokeKind, Vec2, pos2};

use super::state::InspectorState;
use crate::ui::canvas::HoveredCell;
use crate::ui::job::JobState;
use crate::ui::theme::{self, shown};
use nimscope_core::game::{Position, Ruleset, theory};
use nimscope_core::solver::report::PositionReport;

/// Largest value shown as a box in the mex strip.
const MEX_STRIP_MAX: u32 = 40;

impl InspectorState {
    /// Draws the inspector: `hovered` is the map cell under the pointer; `from_map` gives the
    /// value of a position the map has filled (the one truth of a cell: the inspector never
    /// refuses or contradicts a value the map shows).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ruleset: &Ruleset,
        hovered: Option<HoveredCell>,
        from_map: &dyn Fn(&Position) -> Option<u32>,
    ) {
        inspector_ui(ui, self, ruleset, hovered, from_map);
    }
}

/// Draws the inspector (see [`InspectorState::ui`]).
fn inspector_ui(
    ui: &mut egui::Ui,
    state: &mut InspectorState,
    ruleset: &Ruleset,
    hovered: Option<HoveredCell>,
    from_map: &dyn Fn(&Position) -> Option<u32>,
) {
    state.cache.rect = Some(ui.max_rect());
    ui.heading("Inspector");
    ui.label(format!("ruleset: {ruleset}"));
    match hovered {
        Some(c) => ui.label(format!("under the pointer {}", c.describe())),
        None => ui.label("click a cell of the map, or type a position"),
    };
    // wrapped, the field no wider than the panel leaves: at UI scale 2 the row of a 120-point
    // field widened the panel past the window's edge (its Inspect button cut off)
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("Position");
        let room = ui.available_width() - 80.0;
        let edit = ui
            .add(egui::TextEdit::singleline(&mut state.doc.typed).desired_width(room.clamp(60.0, 120.0)))
            .labelled_by(l.id);
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Inspect").clicked() || enter {
            state.select_typed(ruleset);
        }
    });
    if let Some(e) = &state.cache.input_error {
        ui.colored_label(theme::error_text(ui.visuals()), shown(e));
    }
    ui.separator();
    // both ways: a wide line (a sum position, the nim-sum table) scrolls instead of widening
    // the panel
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        let Some(root) = state.cache.root.clone() else {
            state.cache.rows.clear();
            state.cache.wanted.clear();
            return;
        };
        // during a game the summary follows the game's position, not the start
        let current = state
            .doc
            .play
            .as_ref()
            .and_then(|g| g.current())
            .cloned()
            .unwrap_or_else(|| root.clone());
        let job = state.job_state(&current);
        let count = state.job_count(&current);
        let what = current.to_string();
        match (state.cache.reports.get(&current).cloned(), &job) {
            (Some(r), _) => summary_ui(ui, &r),
            (None, job) if let Some(v) = from_map(&current) => from_map_ui(ui, &current, v, job, count),
            (None, JobState::Cancelled) => {
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("{}.", job.centre_text(&what)));
                    if ui.button("Compute again").clicked() {
                        state.resume(&current);
                    }
                });
            }
            (None, JobState::Failed(e)) => {
                ui.colored_label(theme::error_text(ui.visuals()), shown(&format!("{current}: {e}")));
            }
            (None, JobState::Held(_)) => {
                ui.colored_label(theme::error_text(ui.visuals()), shown(&job.centre_text(&what)));
            }
            (None, job) => {
                ui.horizontal_wrapped(|ui| {
                    crate::ui::busy_ui(ui);
                    ui.label(job.centre_text(&what));
                    // the count the status bar shows of the same job
                    if let Some(count) = count {
                        ui.label(count);
                    }
                });
            }
        }
        ui.separator();
        super::play::play_ui(ui, state, &root);
        ui.separator();
        super::move_tree::tree_ui(ui, state, &root);
    });
}

/// A position whose value the map holds, while its report is computed (`count`: its job's
/// progress) or could not be.
fn from_map_ui(ui: &mut egui::Ui, p: &Position, v: u32, job: &JobState, count: Option<String>) {
    ui.strong(format!("position {p}"));
    ui.label(format!("G = {v}, outcome {} (from the map)", outcome_words(v)));
    match job {
        JobState::Queued | JobState::Running { .. } | JobState::Done => {
            ui.horizontal_wrapped(|ui| {
                crate::ui::busy_ui(ui);
                ui.label("listing its options…");
                if let Some(count) = count {
                    ui.label(count);
                }
            });
        }
        JobState::Cancelled | JobState::Failed(_) | JobState::Held(_) => {
            let e = match job {
                JobState::Failed(e) | JobState::Held(e) => e.as_str(),
                _ => "stopped by Cancel",
            };
            ui.add(
                egui::Label::new(egui::RichText::new(shown(&format!("its options are not listed: {e}"))).small())
                    .wrap(),
            );
        }
    }
}

/// "P (the previous player wins)" or "N (the next player wins)" for a value.
fn outcome_words(v: u32) -> &'static str {
    if v == 0 {
        "P (the previous player wins)"
    } else {
        "N (the next player wins)"
    }
}

/// The position, its value and outcome, the mex computation, and the per-game extras.
fn summary_ui(ui: &mut egui::Ui, r: &PositionReport) {
    ui.strong(format!("position {}", r.position));
    ui.label(format!(
        "G = {}, outcome {} ({})",
        r.value_text(),
        r.outcome,
        r.outcome.words()
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
                nimscope_core::game::rules::paging::ENUMERATE_LIMIT
            ));
        }
    }
    extras_ui(ui, r);
}

/// The mex made visible: a box per value 0..=max, filled where an option has that value, the
/// smallest missing value outlined. When only some options are valued (a position with very
/// many), the values known are shown but no mex is claimed: the missing value may be among the
/// options not valued, and G comes from the solver.
fn mex_ui(ui: &mut egui::Ui, r: &PositionReport) {
    let values = r.option_values();
    let complete = r.complete();
    let mex = complete.then(|| r.mex());
    let listed: Vec<String> = values.iter().take(16).map(u32::to_string).collect();
    let more = if values.len() > 16 { ", …" } else { "" };
    match mex {
        Some(mex) => ui.label(format!(
            "option values {{{}{more}}}; the smallest missing value is {mex}",
            listed.join(", ")
        )),
        None => ui.label(format!(
            "values of the first {} options {{{}{more}}}; the others are not valued here, so no \
             mex is drawn (G comes from the solver)",
            r.options.len(),
            listed.join(", ")
        )),
    };
    // no boxes without a mex: they would draw one (the first grey box) the text says is not
    if let Some(mex) = mex {
        mex_boxes_ui(ui, &values, mex);
    }
    match mex {
        // a game that loops: Smith's value, not a mex of the options
        _ if r.gamma.is_some() => {
            ui.small(format!("G = {} (Smith's theory: the game loops)", r.value_text()));
        }
        Some(mex) if r.value != mex && !r.is_terminal() => {
            ui.small(format!(
                "G = {} differs from the mex: misère values of terminal positions",
                r.value
            ));
        }
        Some(_) => {
            ui.small(format!("G = mex = {}", r.value));
        }
        None => {
            ui.small(format!("G = {} (from the solver)", r.value));
        }
    }
}

/// The boxes of the values 0..=max of the options (`values`, sorted), filled where an option
/// has that value, `mex` outlined; named for screen readers (and tests) by what they show.
fn mex_boxes_ui(ui: &mut egui::Ui, values: &[u32], mex: u32) {
    let top = values.last().copied().unwrap_or(0).max(mex).min(MEX_STRIP_MAX);
    let size = 18.0;
    let per_row = ((ui.available_width() / (size + 2.0)).floor() as usize).max(1);
    let n = top as usize + 1;
    let rows = n.div_ceil(per_row);
    let (rect, response) = ui.allocate_exact_size(
        Vec2::new(ui.available_width(), rows as f32 * (size + 2.0)),
        Sense::hover(),
    );
    let name = format!("mex boxes of the values 0 to {top}: the first missing is {mex}");
    theme::set_accessible(ui, response.id, egui::accesskit::Role::Image, &name);
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
}

/// Seed 004's nim-sum table for Nim positions and the Zeckendorf representation for Fibonacci
/// Nim.
fn extras_ui(ui: &mut egui::Ui, r: &PositionReport) {
    match (r.ruleset.base().0, &r.position) {
        (Ruleset::Nim, Position::Heaps(h)) if h.len() >= 2 && !matches!(r.ruleset, Ruleset::Push(..)) => {
            nim_sum_table_ui(ui, h, r.ruleset.base().1);
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

/// The binary digits of each heap in columns, and the nim-sum row (seed 004); under misère
/// play (`misere`), with Bouton's misère rule for the verdict.
pub fn nim_sum_table_ui(ui: &mut egui::Ui, heaps: &[u64], misere: bool) {
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
    ui.label(format!("{} = {s}: {}", terms.join(" xor "), nim_verdict(heaps, misere)));
}

/// What the nim-sum says of `heaps`: in normal play, P exactly when it is 0; in misère play
/// (Bouton), the same while some heap is 2 or more, and when every heap is 0 or 1, P exactly
/// when the number of heaps of 1 is odd.
pub fn nim_verdict(heaps: &[u64], misere: bool) -> String {
    let s = theory::nim_sum(heaps);
    if misere && heaps.iter().all(|&h| h <= 1) {
        let ones = heaps.iter().filter(|&&h| h == 1).count();
        let p = ones % 2 == 1;
        return format!(
            "every heap 0 or 1, and misère play: P exactly when the heaps of 1 are odd in number ({ones}: {})",
            if p { "P" } else { "N" }
        );
    }
    let verdict = if s == 0 { "balanced (P)" } else { "unbalanced (N)" };
    if misere {
        format!("{verdict}, as in normal play while a heap is 2 or more (misère)")
    } else {
        verdict.to_string()
    }
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
    use super::nim_sum_table;

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
}
