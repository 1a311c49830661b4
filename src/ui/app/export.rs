//! Export from the window ([`ExportWindow`]): the Export figure window (the figure's style, the
//! region a map figure shows, drawing from the map's blocks or every cell, the file's path), and
//! what a figure or a CSV of the values is made of: the session's figure spec in the window's
//! colours, the map's blocks it may draw from, the finished jobs in words.

use std::path::Path;
use std::sync::Arc;

use crate::ui::app::action::Action;
use crate::ui::app::file_prompt::{FileAction, FilePrompt, path_row_ui};
use crate::ui::app::map_view::MapView;
use crate::ui::app::notice::Notice;
use crate::worker::{JobSpec, Lane, Output, Response, Worker};
use nimscope_core::camera::CellRect;
use nimscope_core::figure::{Background, FigureSpec, FigureStyle, MAX_SIDE, Subject};
use nimscope_core::files::write_atomic;
use nimscope_core::game::{Layout, Ruleset};
use nimscope_core::raster::ColorRange;
use nimscope_core::session::Session;
use nimscope_core::solver::Control;
use nimscope_core::solver::tiles::{PooledRegion, TileKey};

/// Which cells a map figure exported from the window shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExportRegion {
    /// The session's own region (as opened or saved); the visible cells for a new session.
    #[default]
    Session,
    /// The cells the map shows now.
    Visible,
}

/// The Export figure window's state.
pub struct ExportWindow {
    open: bool,
    /// The file's path (kept between openings).
    path: Option<FilePrompt>,
    /// The cells a map figure shows.
    region: ExportRegion,
    /// Whether a map figure draws what the map has filled (its blocks) rather than computing
    /// every cell again.
    from_map: bool,
}

impl Default for ExportWindow {
    fn default() -> Self {
        ExportWindow {
            open: false,
            path: None,
            region: ExportRegion::default(),
            from_map: true,
        }
    }
}

/// What the export window shows besides its own state.
pub struct ExportContext<'a> {
    /// The session's own region, if it has one.
    pub session_region: Option<&'a CellRect>,
    /// The cells the map shows now.
    pub visible: CellRect,
    /// The map's level drawn (its blocks' size).
    pub level: u8,
    /// The file a figure goes to unless the user types another.
    pub default_path: std::path::PathBuf,
    /// Whether a file is being written.
    pub exporting: bool,
}

impl ExportWindow {
    /// Whether the window is open.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Opens or closes the window.
    pub fn show(&mut self, open: bool) {
        if open
            && !self.open
            && let Some(prompt) = &mut self.path
        {
            prompt.focus_again(); // the path field takes the keys, as in a new prompt
        }
        self.open = open;
    }

    /// The cells a map figure shows.
    pub fn region_choice(&self) -> ExportRegion {
        self.region
    }

    /// Chooses the cells a map figure shows.
    pub fn set_region_choice(&mut self, region: ExportRegion) {
        self.region = region;
    }

    /// Whether a map figure draws from the map's blocks.
    pub fn from_map(&self) -> bool {
        self.from_map
    }

    /// Chooses whether a map figure draws from the map's blocks.
    pub fn set_from_map(&mut self, from_map: bool) {
        self.from_map = from_map;
    }

    /// The region a map figure exported now shows: the session's, unless the window says the
    /// visible one (or the session has none).
    pub fn region(&self, session: Option<&CellRect>, visible: CellRect) -> CellRect {
        match (self.region, session) {
            (ExportRegion::Session, Some(r)) => r.clone(),
            _ => visible,
        }
    }

    /// Types `path` into the window's file field.
    pub fn set_path(&mut self, path: &Path) {
        self.path = Some(FilePrompt::new(FileAction::Export, path));
    }

    /// Says why the export did not start, in the window.
    pub fn failed(&mut self, message: String) {
        if let Some(p) = &mut self.path {
            p.message = Some(message);
        }
    }

    /// Draws the window while open; returns [`Action::ExportTo`] when Export is pressed.
    pub fn ui(&mut self, ctx: &egui::Context, figure: &mut FigureStyle, c: &ExportContext) -> Action {
        let mut open = self.open;
        let mut action = Action::None;
        let region = self.region(c.session_region, c.visible.clone());
        let blocks_note = self.blocks_note(c.level, figure.width, &region);
        egui::Window::new("Export figure").open(&mut open).show(ctx, |ui| {
            style_ui(ui, figure);
            ui.separator();
            region_choice_ui(ui, &mut self.region, c.session_region, &c.visible);
            ui.checkbox(&mut self.from_map, "Draw what the map has filled (no second fill)")
                .on_hover_text(
                    "The figure takes the map's pooled blocks, as the window shows them, and computes only the blocks \
                     the map lacks. Untick to compute every cell again, each pixel pooling exactly its own cells.",
                );
            if let Some(note) = &blocks_note {
                ui.small(note);
            }
            ui.separator();
            let prompt = self
                .path
                .get_or_insert_with(|| FilePrompt::new(FileAction::Export, &c.default_path));
            let enter = path_row_ui(ui, prompt);
            ui.small("The file's extension chooses the format: .png (pixels) or .svg (vector, for a paper).");
            if ui.button("Export").clicked() || enter {
                match prompt.chosen() {
                    Some(p) => action = Action::ExportTo(p),
                    None => prompt.message = Some("type the file's path first".into()),
                }
            }
            if c.exporting {
                ui.horizontal(|ui| {
                    crate::ui::busy_ui(ui);
                    ui.label("exporting…");
                });
            }
        });
        self.open = open;
        action
    }

    /// What a map figure drawn from the map is made of, when the map's blocks are coarser than
    /// the figure's pixels: its resolution is then the window's, and the export window says so.
    fn blocks_note(&self, level: u8, width: u32, region: &CellRect) -> Option<String> {
        if !self.from_map || level == 0 {
            return None;
        }
        let s = TileKey::block_of(level);
        // the map takes about four fifths of the figure's width
        let px_per_cell = f64::from(width) * 0.8 / (region.cols.end - region.cols.start) as f64;
        let px = s as f64 * px_per_cell;
        (px > 1.5).then(|| {
            format!(
                "The map's blocks are {s} × {s} cells, about {px:.0} pixels wide in this figure: untick for every cell."
            )
        })
    }

    /// The blocks of a map figure's region as the map's tiles hold them (the finest level
    /// holding every block, else the level drawn if it holds some), for the figure to draw
    /// from instead of computing every cell again; `None` when the figure is not of the map
    /// shown, the tiles hold none of it, or the export window says to compute every cell.
    pub fn known(&self, spec: &FigureSpec, map: &MapView) -> Option<Arc<PooledRegion>> {
        let Subject::Map { layout, rows, cols, .. } = &spec.subject else {
            return None;
        };
        if !self.from_map || !map.layer().shows(&spec.ruleset, layout) {
            return None;
        }
        let region = CellRect::new(rows.clone(), cols.clone());
        map.tiles()
            .best_pooled_region(&region, map.state().level())
            .map(Arc::new)
    }
}

/// What a figure exported now shows: `session` with the export window's `region`, in the
/// window's colours: a figure of the region the automatic top was counted over takes that
/// count (its top and the legend's note on the values above it, as `nimscope export` of the
/// saved session counts them); a figure of another region takes the window's top as a fixed
/// one. The window and its figure agree.
pub fn figure_spec(session: Session, region: CellRect, map: &MapView) -> Result<FigureSpec, String> {
    let session = Session {
        rows: region.rows.clone(),
        cols: region.cols.clone(),
        ..session
    };
    let mut style = session.figure.clone();
    if map.state().color.needs_scale() {
        match (style.range, map.layer().counted_over(&region)) {
            (ColorRange::Auto, Some(top)) => style.counted = Some(top),
            _ if map.layer().auto_top().is_some() => {
                style.range = ColorRange::Fixed(map.color_top(style.range).top);
            }
            _ => {}
        }
    }
    session.figure_spec(style, None)
}

/// A finished export (a figure or a CSV file) in words.
pub fn export_notice(resp: Response) -> Option<Notice> {
    let csv = matches!(resp.spec, JobSpec::Csv { .. });
    Some(match resp.result {
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
        Ok(_) => return None,
        Err(e) => Notice::error(format!("export failed: {e}")),
    })
}

/// Writes the values of `region` of the map of `ruleset` with `layout` to `path` as CSV, the
/// format of `nimscope grid` (one line per row a, the columns b comma-separated): at once from
/// the map when it holds them all (the notice says so), else on the worker's export lane,
/// computing only the cells the map lacks (no notice until it is done).
pub fn write_csv(
    map: &MapView,
    (ruleset, layout): (&Ruleset, &Layout),
    region: &CellRect,
    path: &Path,
    worker: Option<&mut Worker>,
) -> Result<Option<Notice>, String> {
    // the values the map holds are written as they are: one truth, and no second fill
    let known = if map.layer().shows(ruleset, layout) {
        map.tiles().known_cells(region)
    } else {
        None
    };
    if let Some(k) = known.as_ref().filter(|k| k.missing() == 0) {
        let written = k
            .csv(ruleset, layout, &Control::new())
            .map_err(|e| e.to_string())
            .and_then(|(bytes, _)| write_atomic(path, &bytes).map_err(|e| e.to_string()));
        return Ok(Some(match written {
            Ok(()) => Notice::done(format!(
                "wrote the values of {} rows × {} columns to {} (from the map)",
                region.rows.end - region.rows.start,
                region.cols.end - region.cols.start,
                path.display()
            )),
            // said as the worker's export says it
            Err(e) => Notice::error(format!("CSV export failed: could not write {}: {e}", path.display())),
        }));
    }
    let worker = worker.ok_or("the solver is not running yet")?;
    if worker.is_running(Lane::Export) {
        return Err("a file is being written: wait for it (or Cancel it) first".into());
    }
    worker.submit(
        Lane::Export,
        JobSpec::Csv {
            ruleset: ruleset.clone(),
            layout: layout.clone(),
            rows: region.rows.clone(),
            cols: region.cols.clone(),
            path: path.to_path_buf(),
            // the cells the map holds are written from it, only the rest computed
            known: known.map(Arc::new),
        },
    );
    Ok(None)
}

/// The figure's own settings: width, axes, legend, title, background.
fn style_ui(ui: &mut egui::Ui, f: &mut FigureStyle) {
    ui.label(
        "The figure shows what the window shows: the map (of the region chosen below), the sequence, or the Cram board.",
    );
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
