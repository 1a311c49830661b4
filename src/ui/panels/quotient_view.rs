//! The misère quotient window of a misère octal game: computes the quotient for heaps up to a
//! bound on the worker's quotient lane (cancellable, its size shown as heaps are added), then
//! shows the heap → element strip, the map of the outcomes of two heaps {a, b} by the
//! quotient, the multiplication table when small (P-portion coloured), and answers a typed
//! collection of heaps by its product in the quotient.
//!
//! The window draws and asks; [`QuotientView::logic`] (called between frames with the worker)
//! submits and cancels the job, and [`QuotientView::on_response`] takes its stages and result,
//! so the window has no thread of its own.

use std::sync::Arc;

use egui::{Align2, FontId, Rect, Sense, Stroke, StrokeKind, Vec2, pos2};

use crate::ui::theme;
use crate::worker::{JobId, JobSpec, Lane, Output, Response, Worker};
use nimscope_core::game::Ruleset;
use nimscope_core::game::quote::quoted;
use nimscope_core::game::rules::one_heap::OctalCode;
use nimscope_core::solver::misere_quotient::{self, Quotient, Stage};

/// The largest quotient whose multiplication table is drawn.
const TABLE_MAX: usize = 48;
/// The heap bound offered first.
const DEFAULT_HEAPS: u16 = 20;

/// The job asked of the worker's quotient lane.
#[derive(Debug, Clone)]
struct Asked {
    job: JobId,
    heaps: u16,
}

/// What the window asked for, done by the next [`QuotientView::logic`].
#[derive(Debug, Clone, PartialEq)]
enum Want {
    Start(OctalCode),
    Cancel,
}

/// What the quotient window holds between frames.
pub struct QuotientView {
    pub open: bool,
    /// The code whose window was last opened automatically (it opens once per code).
    opened_for: Option<OctalCode>,
    pub heaps: u16,
    asked: Option<Asked>,
    wanted: Option<Want>,
    /// The stages of the job running, as they come.
    stages: Vec<Stage>,
    pub result: Option<Result<Arc<Quotient>, String>>,
    /// The collection typed into the quotient's inspector, e.g. `3,5,7`.
    pub typed: String,
}

impl Default for QuotientView {
    fn default() -> Self {
        Self {
            open: false,
            opened_for: None,
            heaps: DEFAULT_HEAPS,
            asked: None,
            wanted: None,
            stages: Vec::new(),
            result: None,
            typed: "3,5,7".into(),
        }
    }
}

/// The octal code of `misere(octal(C))`.
pub fn misere_octal(r: &Ruleset) -> Option<&OctalCode> {
    match r {
        Ruleset::Misere(inner) => match &**inner {
            Ruleset::Octal(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

impl QuotientView {
    /// Asks for the quotient of `code` for heaps up to `self.heaps` (superseding any job
    /// running), at the next [`QuotientView::logic`].
    pub fn start(&mut self, code: &OctalCode) {
        self.wanted = Some(Want::Start(code.clone()));
    }

    /// Asks for the job running to stop, at the next [`QuotientView::logic`].
    pub fn cancel(&mut self) {
        self.wanted = Some(Want::Cancel);
    }

    /// Whether a quotient is being computed (or about to be).
    pub fn running(&self) -> bool {
        self.asked.is_some() || matches!(self.wanted, Some(Want::Start(_)))
    }

    /// Opens the window the first time a misère octal game is chosen, and asks for its
    /// quotient; another ruleset closes it and stops the job.
    fn follow_ruleset(&mut self, r: &Ruleset) {
        match misere_octal(r) {
            Some(code) if self.opened_for.as_ref() != Some(code) => {
                self.opened_for = Some(code.clone());
                self.open = true;
                self.start(code);
            }
            Some(_) => {}
            None => {
                if self.running() {
                    self.cancel();
                }
                self.open = false;
                self.opened_for = None;
            }
        }
    }

    /// Between frames: follows the ruleset, submits or cancels the job asked for, and notices
    /// a job stopped from elsewhere (the status bar's Cancel).
    pub fn logic(&mut self, ruleset: &Ruleset, worker: &mut Worker) {
        self.follow_ruleset(ruleset);
        match self.wanted.take() {
            Some(Want::Start(code)) => {
                let heaps = self.heaps;
                let job = worker.submit(Lane::Quotient, JobSpec::Quotient { code, heaps });
                self.asked = Some(Asked { job, heaps });
                self.stages.clear();
                self.result = None;
            }
            Some(Want::Cancel) => {
                worker.cancel_and_free(Lane::Quotient);
                if self.asked.take().is_some() {
                    self.result = Some(Err("cancelled".into()));
                }
            }
            None => {
                if self.asked.is_some() && !worker.is_running(Lane::Quotient) {
                    self.asked = None;
                    self.result = Some(Err("cancelled".into()));
                }
            }
        }
    }

    /// Takes an answer of the quotient lane: a stage, the quotient, or why there is none.
    pub fn on_response(&mut self, resp: Response) {
        if self.asked.as_ref().is_none_or(|a| a.job != resp.job) {
            return;
        }
        match resp.result {
            Ok(Output::QuotientStage(stage)) => self.stages.push(stage),
            Ok(Output::Quotient(q)) => self.result = Some(Ok(q)),
            Ok(_) => debug_assert!(false, "unexpected output on the quotient lane"),
            Err(e) => self.result = Some(Err(e.to_string())),
        }
        if resp.last {
            self.asked = None;
        }
    }
}

impl QuotientView {
    /// Draws the quotient window for a misère octal ruleset while it is open.
    pub fn ui(&mut self, ctx: &egui::Context, ruleset: &Ruleset) {
        quotient_window_ui(ctx, self, ruleset);
    }
}

/// The quotient window (see [`QuotientView::ui`]).
fn quotient_window_ui(ctx: &egui::Context, view: &mut QuotientView, ruleset: &Ruleset) {
    let Some(code) = misere_octal(ruleset).cloned() else {
        return;
    };
    let mut open = view.open;
    egui::Window::new("Misère quotient")
        .open(&mut open)
        .default_width(620.0)
        .default_height(560.0)
        .resizable(true)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| quotient_ui(ui, view, &code));
        });
    view.open = open;
}

fn quotient_ui(ui: &mut egui::Ui, view: &mut QuotientView, code: &OctalCode) {
    ui.label(format!(
        "misere(octal({code})) restricted to heaps up to a bound: the collections of heaps up to indistinguishability (Plambeck–Siegel)"
    ));
    ui.horizontal(|ui| {
        let l = ui.label("Heaps up to");
        ui.add(egui::DragValue::new(&mut view.heaps).range(1..=200))
            .labelled_by(l.id);
        if view.running() {
            if ui.button("Cancel").clicked() {
                view.cancel();
            }
        } else if ui.button("Compute").clicked() {
            view.start(code);
        }
    });
    if view.running() {
        let heaps = view.asked.as_ref().map_or(view.heaps, |a| a.heaps);
        let done = view.stages.len() as f32 / f32::from(heaps.max(1));
        ui.add(
            egui::ProgressBar::new(done)
                .text(format!("heap {} of {heaps}", view.stages.len()))
                .show_percentage(),
        );
        sizes_ui(ui, &view.stages);
        return;
    }
    match &view.result {
        None => {
            ui.label("press Compute");
        }
        Some(Err(e)) => {
            ui.colored_label(theme::error_text(ui.visuals()), e);
        }
        Some(Ok(q)) => {
            let q = q.clone();
            summary_ui(ui, &q);
            ui.separator();
            ui.strong("Size as heaps are added");
            sizes_ui(ui, q.stages());
            ui.separator();
            ui.strong("Heap to element");
            strip_ui(ui, &q);
            ui.separator();
            inspector_ui(ui, view, &q);
            ui.separator();
            ui.strong("Two heaps {a, b}");
            pair_map_ui(ui, &q);
            ui.separator();
            ui.strong("Multiplication table");
            if q.size() <= TABLE_MAX {
                table_ui(ui, &q);
            } else {
                ui.label(format!(
                    "{} elements: the table is drawn up to {TABLE_MAX} (nimscope quotient prints the presentation)",
                    q.size()
                ));
            }
        }
    }
}

fn summary_ui(ui: &mut egui::Ui, q: &Quotient) {
    let kind = match q.first_wild_heap() {
        Some(h) => format!("wild from heap {h}"),
        None => "tame (misère Nim's quotient)".into(),
    };
    ui.label(format!("{} elements for heaps up to {}: {kind}", q.size(), q.heaps()));
    let grew: Vec<String> = q.grew_at().iter().map(u16::to_string).collect();
    ui.label(format!("grew at heaps {}", grew.join(", ")));
    let p: Vec<String> = q.p_portion_names();
    ui.label(format!("P-portion: {}", p.join(", ")));
    let gens: Vec<String> = q
        .generator_heaps()
        .iter()
        .enumerate()
        .map(|(i, h)| {
            format!(
                "{} = heap {h}",
                misere_quotient::monoid::Presentation::generator_name(i)
            )
        })
        .collect();
    ui.label(format!("generators: {}", gens.join(", ")));
    let rel: Vec<String> = q
        .presentation()
        .relations
        .iter()
        .map(|(l, r)| {
            use misere_quotient::monoid::Presentation as P;
            format!("{} = {}", P::word(l), P::word(r))
        })
        .collect();
    ui.label(format!("relations: {}", rel.join(", ")));
}

/// Bars of the quotient's size after each heap (height by the logarithm of the size).
fn sizes_ui(ui: &mut egui::Ui, stages: &[Stage]) {
    if stages.is_empty() {
        return;
    }
    let height = 70.0;
    let width = ui.available_width().min(14.0 * stages.len() as f32).max(120.0);
    let (rect, resp) = ui.allocate_exact_size(Vec2::new(width, height + 14.0), Sense::hover());
    let painter = ui.painter_at(rect);
    let top = stages.iter().map(|s| s.size).max().unwrap_or(1).max(2) as f32;
    let w = width / stages.len() as f32;
    for (i, s) in stages.iter().enumerate() {
        let h = height * (s.size as f32).ln().max(0.0) / top.ln();
        let x = rect.left() + i as f32 * w;
        let bar = Rect::from_min_max(
            pos2(x + 1.0, rect.top() + height - h),
            pos2(x + w - 1.0, rect.top() + height),
        );
        let color = if s.tame {
            theme::VALUE_PRESENT
        } else {
            theme::PERIOD_MARK
        };
        painter.rect_filled(bar, 1.0, color);
    }
    painter.text(
        pos2(rect.left(), rect.bottom()),
        Align2::LEFT_BOTTOM,
        format!(
            "heaps 1–{}: sizes {} … {} (blue tame, orange wild)",
            stages.len(),
            stages[0].size,
            top as usize
        ),
        FontId::proportional(theme::SMALL_TEXT),
        theme::AXIS_TEXT,
    );
    if let Some(p) = resp.hover_pos() {
        let i = ((p.x - rect.left()) / w) as usize;
        if let Some(s) = stages.get(i) {
            resp.on_hover_text(format!("heaps up to {}: {} elements", s.heap, s.size));
        }
    }
}

/// The heap → element strip: one cell a heap, P-elements coloured.
fn strip_ui(ui: &mut egui::Ui, q: &Quotient) {
    egui::ScrollArea::horizontal().id_salt("quotient-strip").show(ui, |ui| {
        egui::Grid::new("quotient-strip-grid")
            .spacing([4.0, 2.0])
            .show(ui, |ui| {
                ui.small("heap");
                for h in 0..=q.heaps() {
                    ui.small(h.to_string());
                }
                ui.end_row();
                ui.small("element");
                for h in 0..=q.heaps() {
                    let x = q.heap_element(h);
                    element_cell_ui(ui, q, x);
                }
                ui.end_row();
            });
    });
}

fn element_cell_ui(ui: &mut egui::Ui, q: &Quotient, x: u32) {
    let text = egui::RichText::new(q.name(x)).monospace();
    if q.monoid().is_p(x) {
        ui.label(text.color(theme::WINNING_TEXT))
            .on_hover_text("in the P-portion");
    } else {
        ui.label(text);
    }
}

/// A typed collection of heaps answered by its product.
fn inspector_ui(ui: &mut egui::Ui, view: &mut QuotientView, q: &Quotient) {
    ui.horizontal(|ui| {
        let l = ui.label("Collection of heaps");
        ui.add(egui::TextEdit::singleline(&mut view.typed).desired_width(200.0))
            .labelled_by(l.id);
    });
    let parsed: Result<Vec<u64>, String> = view
        .typed
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u64>()
                .map_err(|_| format!("{} is not a heap size", quoted(&theme::shown(s))))
        })
        .collect();
    match parsed {
        Err(e) => {
            ui.colored_label(theme::error_text(ui.visuals()), e);
        }
        Ok(heaps) => match q.element_of(&heaps) {
            None => {
                ui.colored_label(
                    theme::error_text(ui.visuals()),
                    format!("a heap is past {}: compute the quotient for more heaps", q.heaps()),
                );
            }
            Some(x) => {
                let factors: Vec<String> = heaps.iter().map(|&h| q.name(q.heap_element(h as u16))).collect();
                let factors = if factors.is_empty() {
                    "1".to_string()
                } else {
                    factors.join(" · ")
                };
                let p = q.monoid().is_p(x);
                ui.label(format!("{factors} = {}", q.name(x)));
                let (outcome, who) = if p {
                    ("P", "the previous player wins")
                } else {
                    ("N", "the next player wins")
                };
                let color = if p { theme::WINNING_TEXT } else { theme::AXIS_TEXT };
                ui.colored_label(color, format!("misère outcome {outcome}: {who}"));
            }
        },
    }
}

/// The multiplication table; products in the P-portion coloured.
fn table_ui(ui: &mut egui::Ui, q: &Quotient) {
    let n = q.size();
    let names: Vec<String> = (0..n as u32).map(|x| q.name(x)).collect();
    let cell = names.iter().map(|s| s.chars().count()).max().unwrap_or(1) as f32 * 7.0 + 8.0;
    let cell = cell.max(18.0);
    let side = cell * (n as f32 + 1.0);
    egui::ScrollArea::both()
        .id_salt("quotient-table")
        .max_height(420.0)
        .show(ui, |ui| {
            let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
            let painter = ui.painter_at(rect);
            let at = |row: usize, col: usize| {
                Rect::from_min_size(
                    pos2(rect.left() + col as f32 * cell, rect.top() + row as f32 * cell),
                    Vec2::splat(cell - 1.0),
                )
            };
            let font = FontId::monospace(10.0);
            for (i, name) in names.iter().enumerate() {
                for b in [at(0, i + 1), at(i + 1, 0)] {
                    painter.text(b.center(), Align2::CENTER_CENTER, name, font.clone(), theme::AXIS_TEXT);
                }
            }
            for x in 0..n {
                for y in 0..n {
                    let z = q.monoid().mul(x as u32, y as u32);
                    let b = at(x + 1, y + 1);
                    let fill = if q.monoid().is_p(z) {
                        theme::WINNING_MARK
                    } else {
                        theme::VALUE_ABSENT
                    };
                    painter.rect_filled(b, 1.0, fill);
                    painter.rect_stroke(b, 1.0, Stroke::new(0.5, theme::LEGEND_FRAME), StrokeKind::Inside);
                    painter.text(
                        b.center(),
                        Align2::CENTER_CENTER,
                        &names[z as usize],
                        font.clone(),
                        theme::AXIS_TEXT,
                    );
                }
            }
        });
}

/// The misère outcome of each collection {a, b} with `a, b ≤ heaps`, by the quotient: P-cells
/// marked as winning for the previous player, row `a` down, column `b` across.
fn pair_map_ui(ui: &mut egui::Ui, q: &Quotient) {
    let end = u64::from(q.heaps()) + 1;
    let Ok(m) = misere_quotient::outcomes::pair_map_from(q, 0..end, 0..end) else {
        return;
    };
    let p = m
        .cells
        .iter()
        .filter(|&&o| o == nimscope_core::game::Outcome::P)
        .count();
    ui.label(format!(
        "{end}×{end} collections by the quotient: {p} P-positions (marked), heap a down, heap b across"
    ));
    let cell = 6.0;
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(cell * end as f32), Sense::hover());
    let painter = ui.painter_at(rect);
    for a in 0..end {
        for (b, &o) in m.row(a).iter().enumerate() {
            let fill = if o == nimscope_core::game::Outcome::P {
                theme::WINNING_MARK
            } else {
                theme::VALUE_ABSENT
            };
            let at = pos2(rect.left() + b as f32 * cell, rect.top() + a as f32 * cell);
            painter.rect_filled(Rect::from_min_size(at, Vec2::splat(cell - 1.0)), 0.0, fill);
        }
    }
}
