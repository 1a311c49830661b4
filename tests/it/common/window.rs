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
