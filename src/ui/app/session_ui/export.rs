//! Export from the window: the region a figure or CSV covers, the Export figure dialog, and
//! the export jobs' results.

use std::path::Path;

use super::*;
use crate::ui::app::App;
use crate::ui::app::file_prompt::{FileAction, FilePrompt, path_row_ui};
use crate::ui::app::notice::Notice;
use crate::worker::{JobSpec, Lane, Output, Response};
use nimscope_core::camera::CellRect;
use nimscope_core::figure::{Background, MAX_SIDE};
use nimscope_core::session::Session;
use nimscope_core::solver::tiles::PooledRegion;

impl App {
    /// The whole cells the map shows now (at least one).
    pub fn visible_region(&self) -> CellRect {
        let visible = self.map_state.visible_cells(u64::MAX);
        let at_least_one = |r: std::ops::Range<u64>| r.start..r.end.max(r.start + 1);
        CellRect {
            rows: at_least_one(visible.rows),
            cols: at_least_one(visible.cols),
        }
    }

    /// The region a map figure exported now shows, as the export window says.
    pub fn export_region(&self) -> CellRect {
        match (self.sessions.export_region, &self.sessions.region) {
            (ExportRegion::Session, Some(r)) => r.clone(),
            _ => self.visible_region(),
        }
    }

    /// Starts writing the current view's figure to `path` in the background; a map shows the
    /// region the export window chose (the session's region is never changed by it). The file's
    /// extension chooses the format: `.png` or `.svg`.
    pub fn export_figure(&mut self, path: &Path) -> Result<(), String> {
        nimscope_core::figure::Format::of_path(path).map_err(|e| e.to_string())?;
        let spec = self.export_spec()?;
        let known = self.export_known(&spec);
        let worker = self.worker.as_mut().ok_or("the solver is not running yet")?;
        worker.submit(
            Lane::Export,
            JobSpec::Export {
                spec: Box::new(spec),
                path: path.to_path_buf(),
                known,
            },
        );
        self.notice = None;
        Ok(())
    }

    /// What a figure exported now shows: the session with the export window's region, in the
    /// window's colours (the top of the Grundy colours the map is drawn with, not one the
    /// figure's region would give: the window and its figure agree).
    pub fn export_spec(&self) -> Result<nimscope_core::figure::FigureSpec, String> {
        let region = self.export_region();
        let session = Session {
            rows: region.rows,
            cols: region.cols,
            ..self.session()
        };
        let mut style = self.sessions.figure.clone();
        if self.map_state.color.needs_scale() {
            let figure_region = CellRect::new(session.rows.clone(), session.cols.clone());
            match (style.range, self.map.counted_over(&figure_region)) {
                // counted over the figure's own region: the top and the legend's note a figure
                // counting its cells draws (and `nimscope export` of the saved session)
                (nimscope_core::raster::ColorRange::Auto, Some(top)) => style.counted = Some(top),
                // another region (the visible one): the window's top, as a fixed one
                _ if self.map.auto_top.is_some() => {
                    style.range = nimscope_core::raster::ColorRange::Fixed(self.color_top().top);
                }
                _ => {}
            }
        }
        session.figure_spec(style, None)
    }

    /// The blocks of a map figure's region as the map's tiles hold them (the finest level
    /// holding every block, else the level drawn if it holds some), for the figure to draw
    /// from instead of computing every cell again; `None` when the figure is not of the map
    /// shown, the tiles hold none of it, or the export window says to compute every cell.
    pub fn export_known(&self, spec: &nimscope_core::figure::FigureSpec) -> Option<std::sync::Arc<PooledRegion>> {
        let nimscope_core::figure::Subject::Map { layout, rows, cols, .. } = &spec.subject else {
            return None;
        };
        if !self.sessions.export_from_map || !self.map.shows(&spec.ruleset, layout) {
            return None;
        }
        let region = CellRect::new(rows.clone(), cols.clone());
        self.map
            .tiles
            .best_pooled_region(&region, self.map_state.level())
            .map(std::sync::Arc::new)
    }

    /// What a map figure drawn from the map is made of, when the map's blocks are coarser than
    /// the figure's pixels: its resolution is then the window's, and the export window says so.
    fn blocks_note(&self) -> Option<String> {
        if !self.sessions.export_from_map || self.map_state.level() == 0 {
            return None;
        }
        let s = nimscope_core::solver::tiles::TileKey::block_of(self.map_state.level());
        let region = self.export_region();
        // the map takes about four fifths of the figure's width
        let px_per_cell = f64::from(self.sessions.figure.width) * 0.8 / (region.cols.end - region.cols.start) as f64;
        let px = s as f64 * px_per_cell;
        (px > 1.5).then(|| {
            format!(
                "The map's blocks are {s} × {s} cells, about {px:.0} pixels wide in this figure: untick for every cell."
            )
        })
    }

    /// Starts writing the values of the map's visible cells to `path` as CSV, the format of
    /// `nimscope grid` (one line per row a, the columns b comma-separated), in the background.
    pub fn export_csv(&mut self, path: &Path) -> Result<(), String> {
        let layout = match self.presentation() {
            nimscope_core::game::Presentation::Map(layout) => layout,
            _ => return Err("values are written as CSV for a map of two heaps: this ruleset shows no map".into()),
        };
        let region = self.visible_region();
        // the values the map holds are written as they are: one truth, and no second fill
        let known = if self.map.shows(&self.ruleset, &layout) {
            self.map.tiles.known_cells(&region)
        } else {
            None
        };
        if let Some(k) = known.as_ref().filter(|k| k.missing() == 0) {
            let written = k
                .csv(&self.ruleset, &layout, &nimscope_core::solver::Control::new())
                .map_err(|e| e.to_string())
                .and_then(|(bytes, _)| nimscope_core::files::write_atomic(path, &bytes).map_err(|e| e.to_string()));
            self.notice = Some(match written {
                Ok(()) => Notice::done(format!(
                    "wrote the values of {} rows × {} columns to {} (from the map)",
                    region.rows.end - region.rows.start,
                    region.cols.end - region.cols.start,
                    path.display()
                )),
                // said as the worker's export says it
                Err(e) => Notice::error(format!("CSV export failed: could not write {}: {e}", path.display())),
            });
            return Ok(());
        }
        let worker = self.worker.as_mut().ok_or("the solver is not running yet")?;
        if worker.is_running(Lane::Export) {
            return Err("a file is being written: wait for it (or Cancel it) first".into());
        }
        worker.submit(
            Lane::Export,
            JobSpec::Csv {
                ruleset: self.ruleset.clone(),
                layout,
                rows: region.rows,
                cols: region.cols,
                path: path.to_path_buf(),
                // the cells the map holds are written from it, only the rest computed
                known: known.map(std::sync::Arc::new),
            },
        );
        self.notice = None;
        Ok(())
    }

    /// Takes a finished export.
    pub(in crate::ui::app) fn on_export_response(&mut self, resp: Response) {
        let csv = matches!(resp.spec, JobSpec::Csv { .. });
        self.notice = Some(match resp.result {
            Ok(Output::Exported {
                path,
                width,
                height,
                from_map,
            }) => Notice::done(format!(
                "exported {} ({width}×{height} pixels{})",
                path.display(),
                from_map.map_or(String::new(), |s| format!(", from the map: blocks of {s} × {s} cells"))
            )),
            Ok(Output::CsvWritten {
                path,
                rows,
                cols,
                computed,
            }) => Notice::done(format!(
                "wrote the values of {rows} rows × {cols} columns to {}{}",
                path.display(),
                if computed < rows.saturating_mul(cols) {
                    format!(" ({computed} cells computed, the rest from the map)")
                } else {
                    String::new()
                }
            )),
            Err(e) if csv => Notice::error(format!("CSV export failed: {e}")),
            Ok(_) => return,
            Err(e) => Notice::error(format!("export failed: {e}")),
        });
    }

    pub(super) fn export_window_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.sessions.show_export;
        let mut chosen = None;
        let default_export = self.default_path("png");
        let visible = self.visible_region();
        let blocks_note = self.blocks_note();
        egui::Window::new("Export figure").open(&mut open).show(ctx, |ui| {
            let f = &mut self.sessions.figure;
            ui.label("The figure shows what the window shows: the map (of the region chosen below), the sequence, or the Cram board.");
            ui.horizontal(|ui| {
                let label = ui.label("Width (pixels)");
                ui.add(egui::DragValue::new(&mut f.width).range(256..=MAX_SIDE))
                    .labelled_by(label.id);
            });
            ui.checkbox(&mut f.axes, "Axes and tick labels");
            ui.checkbox(&mut f.legend, "Legend");
            ui.horizontal(|ui| {
                let label = ui.label("Title");
                ui.text_edit_singleline(&mut f.title).labelled_by(label.id);
            });
            ui.small("Empty: the ruleset; '-': no title.");
            ui.horizontal(|ui| {
                ui.radio_value(&mut f.background, Background::White, "White background");
                ui.radio_value(&mut f.background, Background::Transparent, "Transparent");
            });
            ui.separator();
            region_choice_ui(ui, &mut self.sessions.export_region, self.sessions.region.as_ref(), &visible);
            ui.checkbox(
                &mut self.sessions.export_from_map,
                "Draw what the map has filled (no second fill)",
            )
            .on_hover_text(
                "The figure takes the map's pooled blocks, as the window shows them, and computes only the blocks \
                 the map lacks. Untick to compute every cell again, each pixel pooling exactly its own cells.",
            );
            if let Some(note) = &blocks_note {
                ui.small(note);
            }
            ui.separator();
            let default = default_export;
            let prompt = self
                .sessions
                .export_path
                .get_or_insert_with(|| FilePrompt::new(FileAction::Export, &default));
            let enter = path_row_ui(ui, prompt);
            ui.small("The file's extension chooses the format: .png (pixels) or .svg (vector, for a paper).");
            if ui.button("Export").clicked() || enter {
                match prompt.chosen() {
                    Some(p) => chosen = Some(p),
                    None => prompt.message = Some("type the file's path first".into()),
                }
            }
            if let Some(w) = &self.worker
                && w.is_running(Lane::Export)
            {
                ui.horizontal(|ui| {
                    crate::ui::busy_ui(ui);
                    ui.label("exporting…");
                });
            }
        });
        self.sessions.show_export = open;
        if let Some(path) = chosen
            && let Err(e) = self.export_figure(&path)
        {
            let message = format!("export: {e}");
            if let Some(p) = &mut self.sessions.export_path {
                p.message = Some(message.clone());
            }
            self.notice = Some(Notice::error(message));
        }
    }
}

/// `[a, b)` as the figures write a range.
fn range_text(r: &std::ops::Range<u64>) -> String {
    format!("[{}, {})", r.start, r.end)
}

/// The export window's choice of cells for a map figure, saying which cells each choice is.
fn region_choice_ui(ui: &mut egui::Ui, choice: &mut ExportRegion, session: Option<&CellRect>, visible: &CellRect) {
    let cells = |r: &CellRect| {
        format!(
            "rows a in {}, columns b in {}",
            range_text(&r.rows),
            range_text(&r.cols)
        )
    };
    ui.label("A map figure shows");
    match session {
        Some(r) => {
            ui.radio_value(
                choice,
                ExportRegion::Session,
                format!("the session's region: {}", cells(r)),
            );
        }
        None => {
            ui.add_enabled(
                false,
                egui::RadioButton::new(
                    false,
                    "the session's region (none yet: it is set when the session is saved)",
                ),
            );
        }
    }
    let visible_label = format!("the visible region: {}", cells(visible));
    if session.is_none() {
        let _ = ui.radio(true, visible_label);
    } else {
        ui.radio_value(choice, ExportRegion::Visible, visible_label);
    }
}
