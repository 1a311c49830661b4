//! The window's work between frames: results drained from the background worker and jobs
//! scheduled for what the view needs. eframe calls it through `App::logic` before every frame
//! and also while the window is hidden, so results and exports go on while it is minimised.

use std::sync::Arc;
use std::time::Instant;

use super::map_layer::same_job;
use super::notice::Notice;
use super::*;
use crate::ui::theme;
use crate::worker::{JobError, JobSpec, Lane, MapJob, Output, Worker};
use nimscope_core::raster::{ColorMode, CompareWith};
use nimscope_core::solver::control::human_bytes;
use nimscope_core::solver::tiles::{TILE, TileKey};

impl App {
    /// Takes the worker's results and asks for what the view still lacks. eframe calls it
    /// (through `App::logic`) before every frame and while the window is hidden; a test
    /// harness that drives `ui_root` calls it first.
    pub fn advance(&mut self, ctx: &egui::Context) {
        let worker = self.worker.get_or_insert_with(|| {
            theme::apply(ctx); // the first frame: the window's text sizes
            let ctx = ctx.clone();
            // a map's batches come many a second: their frames are a few a second at most
            Worker::new(
                Arc::new(move |last| {
                    if last {
                        // a finished job: shown at once (the status bar, the map complete)
                        crate::ui::repaint_once(&ctx);
                    } else {
                        crate::ui::wake_soon(&ctx);
                    }
                }),
                self.memory_budget,
            )
        });
        let mut exports = Vec::new();
        let mut maps = Vec::new();
        for resp in worker.drain(DRAIN_BUDGET) {
            match resp.lane {
                Lane::Cram => self.cram_editor.receive(&resp.spec, resp.result),
                Lane::Inspector => self.inspector.on_response(resp),
                Lane::Export => exports.push(resp),
                Lane::Map => maps.push(resp),
                Lane::Quotient => self.quotient.on_response(resp),
            }
        }
        for resp in maps {
            self.on_map_response(resp);
        }
        let Some(worker) = self.worker.as_mut() else { return };
        if self.central_tab == CentralTab::CramBoard {
            self.cram_editor.logic(worker);
        }
        self.inspector.logic(&self.ruleset, worker);
        self.quotient.logic(&self.ruleset, worker);
        for resp in exports {
            self.on_export_response(resp);
        }
        if let MapStatus::Cancelled { camera, color } = self.status {
            if (camera, color) == (self.map_state.camera, self.map_state.color) {
                return; // the user stopped the work: wait for the next change of view or ruleset
            }
            self.status = MapStatus::Ready;
        }
        self.schedule(ctx);
        // The map's batches wake the window themselves; other jobs report progress only
        // through their counters, read when a frame is drawn.
        if self
            .worker
            .as_ref()
            .is_some_and(|w| w.running().any(|r| r.lane != Lane::Map))
        {
            ctx.request_repaint_after(crate::ui::PROGRESS_INTERVAL);
        }
    }

    /// Takes in a map job's answer: its tiles, the view's colour scale, or why it failed.
    pub(super) fn on_map_response(&mut self, resp: crate::worker::Response) {
        if let (Some(t), Ok(Output::Tiles(batch))) = (&mut self.trace, &resp.result) {
            let event = if resp.last { "map-done" } else { "map-batch" };
            t.map_event(event, batch.tiles.len() as u64);
        }
        let layer = &mut self.map;
        if resp.last {
            layer.asked = None;
        }
        match (resp.result, &resp.spec) {
            (Ok(Output::Tiles(batch)), JobSpec::Map(job)) => {
                let store = &mut layer.tiles;
                let evicted: usize = batch.tiles.iter().map(|(k, t)| store.insert(*k, t)).sum();
                if evicted > 0 {
                    self.notice = Some(Notice::done(format!(
                        "evicted {evicted} map tiles used least recently, to keep the tiles within {}",
                        human_bytes(store.cap())
                    )));
                }
                layer.scale = Some(Scale {
                    view: job.view.clone(),
                    max: batch.max,
                    complete: resp.last,
                });
                if resp.last && job.color.needs_scale() {
                    match batch.counts {
                        Some(counts) => {
                            let region = job.scale.clone().unwrap_or_else(|| job.view.clone());
                            layer.take_counts(counts, region);
                            if std::mem::take(&mut layer.fix_to_view)
                                && let Some(top) = layer.auto_top
                            {
                                // "Rescale to this view": the view's top, fixed
                                self.sessions.figure.range = nimscope_core::raster::ColorRange::Fixed(top.top.max(1));
                            }
                        }
                        // the session's region is past the budget: the view's values give it
                        None => layer.region_too_large = true,
                    }
                }
            }
            (Ok(Output::Sequence(s)), _) => {
                self.sequence_computed = Some(s.clone());
                self.sequence = Some(s);
            }
            (Ok(_), _) => debug_assert!(false, "unexpected output on the map lane"),
            (Err(error), JobSpec::Map(job)) => {
                let far = job.view.rows.end.max(job.view.cols.end);
                match &error {
                    JobError::OverBudget { needed, budget, .. } => {
                        // the fill's memory grows as the square of its extent: ask no farther
                        // than what fits
                        let fits = far as f64 * (*budget as f64 / (*needed).max(1) as f64).sqrt() * 0.9;
                        layer.limit = layer.limit.min(far.saturating_sub(1)).min(fits as u64).max(TILE);
                        self.status = MapStatus::TooFar {
                            far: layer.limit,
                            error,
                        };
                    }
                    _ => {
                        self.status = MapStatus::Failed {
                            what: resp.spec.describe(),
                            error,
                        }
                    }
                }
            }
            (Err(error), spec) => {
                self.status = MapStatus::Failed {
                    what: spec.describe(),
                    error,
                }
            }
        }
    }

    /// Whether every cell in view has its final value and colour (the trace's map-complete).
    pub fn map_complete(&self) -> bool {
        let CentralView::Map(_) = self.central_view() else {
            return false;
        };
        let scaled = !self.map_state.color.needs_scale() || self.map.auto_top.is_some();
        self.map_progress.in_view > 0 && self.map_progress.is_complete() && scaled
    }

    /// Rows and columns below this are shown.
    pub(super) fn map_limit(&self) -> u64 {
        self.map.limit
    }

    pub(super) fn schedule(&mut self, ctx: &egui::Context) {
        let view = self.central_view();
        let compare = self.compare_with();
        let Some(worker) = self.worker.as_mut() else { return };
        let layout = match view {
            CentralView::Board => return,
            CentralView::Message(why) => {
                if !matches!(self.status, MapStatus::NoMap(_)) {
                    self.status = MapStatus::NoMap(why);
                }
                return;
            }
            CentralView::Sequence => {
                let len = self.sequence_len;
                if self.sequence_asked != Some(len)
                    && let Some(computed) = &self.sequence_computed
                    && computed.values.len() as u64 >= len
                {
                    // fewer heaps than computed (÷10): the values in memory, no job
                    worker.cancel(Lane::Map);
                    self.sequence = Some(Arc::new(computed.prefix(len as usize)));
                    self.sequence_asked = Some(len);
                    return;
                }
                if self.sequence_asked != Some(len) && self.status == MapStatus::Ready {
                    // a new length supersedes the job running (the lane keeps the latest)
                    worker.submit(
                        Lane::Map,
                        JobSpec::Sequence {
                            ruleset: self.ruleset.clone(),
                            n: len,
                        },
                    );
                    self.sequence_asked = Some(len);
                }
                return;
            }
            CentralView::Map(layout) => layout,
        };
        if matches!(self.status, MapStatus::Failed { .. } | MapStatus::NoMap(_)) {
            return; // wait for a change of ruleset
        }
        if self.map_state.fit_pending() {
            // the first frame, before the region asked for is fitted: a view filled now would
            // give the colours' automatic top of cells never shown
            ctx.request_repaint();
            return;
        }
        let color = self.map_state.color;
        let compare = match color {
            ColorMode::Difference => compare,
            _ => CompareWith::Nothing,
        };
        // the rule may depend on how far the view reaches (Wythoff's P-positions)
        let reach = self.map_state.visible_cells(self.map.limit);
        self.map.show((
            self.ruleset.clone(),
            layout.clone(),
            color.map_rule(&self.ruleset, &layout, &reach, self.sessions.figure.pooling),
            compare.clone(),
            color.has_outcome_form(&self.ruleset, &layout),
        ));
        let limit = self.map.limit;
        let view = self.map_state.visible_cells(limit);
        let level = self.map_state.level();
        let tiles = self.map_state.visible_tiles(limit);
        let store = &mut self.map.tiles;
        store.tick();
        store.touch(&tiles);
        let ancestors: Vec<TileKey> = tiles
            .iter()
            .flat_map(|k| std::iter::successors(k.parent().map(|p| p.0), |p| p.parent().map(|q| q.0)).take(5))
            .collect();
        store.touch(&ancestors);
        let missing: Vec<TileKey> = tiles
            .iter()
            .copied()
            .filter(|&k| {
                store
                    .tile(k)
                    .is_none_or(|t| t.cells_done_in(k, &view) < k.cells().intersect(&view).len())
            })
            .collect();
        // the colours' automatic top is taken once, from the first view filled: panning keeps it
        let need_scale = color.needs_scale() && self.map.auto_top.is_none();
        if missing.is_empty() && !need_scale {
            return;
        }
        let tile_bytes = TILE * TILE * 8;
        if !store.has_room_for(missing.len() as u64 * tile_bytes) {
            notice::notify(
                &mut self.notice,
                Notice::error(format!(
                    "the view needs more than {} of map tiles: zoom in to see the rest",
                    human_bytes(store.cap())
                )),
            );
            return;
        }
        let job = MapJob {
            ruleset: self.ruleset.clone(),
            layout,
            color,
            pooling: self.sessions.figure.pooling,
            compare,
            level,
            // the automatic top over the session's region, as its figure counts it
            scale: if need_scale {
                self.map.scale_region(self.sessions.region.as_ref())
            } else {
                None
            },
            view,
            tiles: missing,
        };
        match &self.map.asked {
            Some((running, _)) if same_job(running, &job) && worker.is_running(Lane::Map) => return,
            Some((_, at)) if worker.is_running(Lane::Map) && at.elapsed() < RESUBMIT_AFTER => {
                ctx.request_repaint_after(RESUBMIT_AFTER - at.elapsed());
                return;
            }
            _ => {}
        }
        let job = Box::new(job);
        if let Some(t) = &mut self.trace {
            t.map_event("map-job", job.view.len());
        }
        self.map.asked = Some((job.clone(), Instant::now()));
        worker.submit(Lane::Map, JobSpec::Map(job));
    }
}
