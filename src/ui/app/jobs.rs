//! Each frame's traffic with the worker: the results taken in (`advance`, before every frame
//! and while the window is hidden), the jobs the centre lacks asked for (`schedule`), and the
//! eframe entry points that call them.

use std::sync::Arc;
use std::time::Duration;

use super::{App, CentralView, export::export_notice};
use crate::ui::theme;
use crate::ui::trace::FrameTimer;
use crate::worker::{Lane, Output, Worker};
use nimscope_core::game::CentralTab;

/// Time a frame may spend taking results from the worker.
const DRAIN_BUDGET: Duration = Duration::from_millis(10);

impl App {
    /// Takes the worker's results and asks for what the view still lacks. eframe calls it
    /// (through `logic`) before every frame and while the window is hidden, so results and
    /// exports go on while it is minimised; a test harness that drives `ui_root` calls it first.
    pub fn advance(&mut self, ctx: &egui::Context) {
        let worker = self.worker.get_or_insert_with(|| {
            theme::apply(ctx); // the first frame: the window's text sizes
            let ctx = ctx.clone();
            // a map's batches come many a second: their frames are a few a second at most; a
            // finished job is shown at once (the status bar, the map complete, the sequence)
            let wake = move |last: bool| {
                if last {
                    crate::ui::repaint_once(&ctx);
                } else {
                    crate::ui::wake_soon(&ctx);
                }
            };
            Worker::new(Arc::new(wake), self.memory_budget)
        });
        let (mut exports, mut maps) = (Vec::new(), Vec::new());
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
            if let (Some(t), Ok(Output::Tiles(batch))) = (&mut self.trace, &resp.result) {
                let event = if resp.last { "map-done" } else { "map-batch" };
                t.map_event(event, batch.tiles.len() as u64);
            }
            if let Some(n) = self.map.on_response(resp, &mut self.figure) {
                self.notice = Some(n);
            }
        }
        for resp in exports {
            if let Some(n) = export_notice(resp) {
                self.notice = Some(n);
            }
        }
        let Some(worker) = self.worker.as_mut() else { return };
        if self.tab == CentralTab::CramBoard {
            self.cram_editor.logic(worker);
        }
        self.inspector.logic(&self.ruleset, worker);
        self.quotient.logic(&self.ruleset, worker);
        if self.map.still_cancelled() {
            return; // the user stopped the work: wait for the next change of view or ruleset
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

    /// Asks the worker for what the centre shows and lacks.
    fn schedule(&mut self, ctx: &egui::Context) {
        let view = self.central_view();
        let compare = self.compare_with();
        let Some(worker) = self.worker.as_mut() else { return };
        match view {
            CentralView::Board => {}
            CentralView::Message(why) => self.map.no_picture(why),
            CentralView::Sequence => self.map.schedule_sequence(worker, &self.ruleset),
            CentralView::Map(layout) => {
                let rules = (&self.ruleset, &layout);
                let figure = (self.figure.pooling, self.region.as_ref());
                let asked = self.map.schedule_map(ctx, worker, rules, &compare, figure);
                if let (Some(t), Some(cells)) = (&mut self.trace, asked.submitted) {
                    t.map_event("map-job", cells);
                }
            }
        }
    }
}

impl eframe::App for App {
    /// Before every frame, and while the window is hidden when a result wakes it: results
    /// and exports go on while the window is minimised.
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.advance(ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let timer = FrameTimer::start();
        // A map's batches wake the window at most every forty frames' worth of the last
        // frame's cost (its ui as this thread sees it): a quarter of a second with a GPU. A
        // software renderer's own threads spend far more than the ui (measured under Xvfb at
        // 1280 × 800: 0.035–0.1 s of CPU a frame), which this thread does not see: there the
        // batches wake the window every second and a half, so a fill keeps the CPU.
        let software = *self.software_renderer.get_or_insert_with(|| {
            let info = frame.wgpu_render_state().map(|r| r.adapter.get_info());
            let software = info
                .as_ref()
                .is_some_and(|i| i.device_type == eframe::wgpu::DeviceType::Cpu);
            if let Some(t) = &mut self.trace {
                let adapter = info.map_or("unknown".into(), |i| {
                    format!("{} ({:?}, {:?})", i.name, i.backend, i.device_type)
                });
                t.renderer(&adapter, software);
            }
            software
        });
        self.map.set_software_renderer(software);
        if let (Some(cost), Some(w)) = (frame.info().cpu_usage, &self.worker) {
            let least = if software { 1.5 } else { 0.25 };
            let every = Duration::from_secs_f32((cost * 40.0).clamp(least, 3.0));
            w.set_wake_every(every);
        }
        let waiting_for_fit = self.map.state().fit_pending();
        self.ui_root(ui);
        if waiting_for_fit && !self.map.state().fit_pending() {
            // the region asked for on start was just fitted to the map drawn in this frame: its
            // fill starts now, not a frame later (under a software renderer, a frame is 0.1 s
            // and more)
            self.schedule(ui.ctx());
        }
        if self.trace.is_some() {
            let time = timer.stop();
            let complete = self.map_complete();
            let p = self.map.progress();
            let view = self.map.state().visible_cells(self.map.limit());
            let causes: Vec<String> = ui
                .ctx()
                .repaint_causes()
                .iter()
                .map(|c| format!("{}:{}", c.file, c.line))
                .collect();
            let lanes: Vec<String> = self
                .worker
                .as_ref()
                .map(|w| w.running().map(|r| format!("{:?}", r.lane)).collect())
                .unwrap_or_default();
            // the kinds of the frame's input events (a window-system event draws a frame)
            let events: Vec<String> = ui.input(|i| {
                i.raw
                    .events
                    .iter()
                    .map(|e| {
                        let name = format!("{e:?}");
                        name.split(['(', ' ', '{']).next().unwrap_or_default().to_string()
                    })
                    .collect()
            });
            if let Some(t) = &mut self.trace {
                t.frame(time, (p.done, p.in_view), complete, &view, (&causes, &lanes, &events));
            }
        }
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        theme::panel_background(visuals).to_normalized_gamma_f32()
    }

    fn on_exit(&mut self) {
        self.write_window_state();
    }
}
