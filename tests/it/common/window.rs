//! What the window's behaviour tests share: a harness driving `App::ui_root` without a GPU,
//! and stepping until the worker's answer has arrived.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use nimscope::ui::app::App;

/// How long a test waits for the worker before it fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// A 1280×800 window with the given memory budget per job.
pub fn harness_with_budget(budget: u64) -> Harness<'static, App> {
    harness_of(App::new(budget))
}

/// A 1280×800 window around an app set up before its first frame (as `nimscope --session …
/// --view …` sets it up).
pub fn harness_of(app: App) -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        // the map's worker wakes the window with each batch of tiles it finishes: `run` may
        // take a few more frames to settle while a map fills
        .with_max_steps(32)
        .build_ui_state(
            |ui, app: &mut App| {
                app.advance(ui.ctx());
                app.ui_root(ui)
            },
            app,
        )
}

/// A 1280×800 window with a 1 GiB budget.
pub fn harness() -> Harness<'static, App> {
    harness_with_budget(1 << 30)
}

/// Steps the UI until `done` holds (the worker answers on its own threads).
pub fn step_until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs frames as eframe does when no input comes: a frame only when one is asked for (by the
/// app, or by the worker's wake from its own thread), at the time asked, until `done` holds;
/// fails if the window goes idle (nothing asked for within `idle`) before. A test of what
/// the window shows without the pointer moving (`step_until` draws a frame every 5 ms,
/// whatever was asked).
pub fn idle_until(
    h: &mut Harness<'static, App>,
    what: &str,
    idle: Duration,
    done: impl Fn(&Harness<'static, App>) -> bool,
) {
    use std::sync::{Arc, Mutex};
    let due: Arc<Mutex<Option<Instant>>> = Arc::new(Mutex::new(None));
    let set = due.clone();
    h.ctx.set_request_repaint_callback(move |info| {
        let at = Instant::now() + info.delay;
        let mut due = set.lock().unwrap();
        *due = Some(due.map_or(at, |d| d.min(at)));
    });
    // what the last frame asked for, as eframe reads it from the frame's output
    let after_frame = |h: &Harness<'static, App>| {
        let delay = h
            .output()
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map_or(Duration::MAX, |v| v.repaint_delay);
        if let Some(at) = Instant::now().checked_add(delay) {
            let mut due = due.lock().unwrap();
            *due = Some(due.map_or(at, |d| d.min(at)));
        }
    };
    after_frame(h);
    let start = Instant::now();
    let mut last_frame = Instant::now();
    while !done(h) {
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
        let now = Instant::now();
        let run = {
            let mut due = due.lock().unwrap();
            match *due {
                Some(at) if at <= now => {
                    *due = None;
                    true
                }
                _ => false,
            }
        };
        if run {
            h.step();
            after_frame(h);
            last_frame = Instant::now();
        } else {
            assert!(
                last_frame.elapsed() < idle,
                "the window went idle for {idle:?} without showing {what} (no frame was asked for)"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}
