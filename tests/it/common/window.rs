//! What the window's behaviour tests share: a harness driving `App::ui_root` without a GPU (of
//! any size), stepping until the worker's answer has arrived, a click, a label looked for.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use nimscope::ui::app::App;
use nimscope_core::game::{Position, Ruleset};

/// How long a test waits for the worker before it fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// A 1280×800 window with the given memory budget per job.
pub fn harness_with_budget(budget: u64) -> Harness<'static, App> {
    harness_of(App::new(budget))
}

/// A 1280×800 window around an app set up before its first frame (as `nimscope --session …
/// --view …` sets it up).
pub fn harness_of(app: App) -> Harness<'static, App> {
    sized_harness_of(app, 1280.0, 800.0)
}

/// A window `w` × `h` points with a 1 GiB budget.
pub fn harness_sized(w: f32, h: f32) -> Harness<'static, App> {
    sized_harness_of(App::new(1 << 30), w, h)
}

/// A window `w` × `h` points around an app set up before its first frame.
pub fn sized_harness_of(app: App, w: f32, h: f32) -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(w, h))
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

/// A few frames: a new window sizes itself before it shows, a menu opens over one.
pub fn settle(h: &mut Harness<'static, App>) {
    for _ in 0..3 {
        h.step();
    }
}

/// A click of the primary button at `pos`: the pointer moves there, presses and releases.
pub fn click_at(h: &mut Harness<'static, App>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
}

/// Whether some widget's label holds `text`.
pub fn has_label(h: &Harness<'static, App>, text: &str) -> bool {
    h.query_all_by_label_contains(text).count() > 0
}

/// Whether the inspector holds the report of `p`.
pub fn has_report(app: &App, p: &Position) -> bool {
    app.inspector().report(p).is_some()
}

/// Shows `ruleset` and inspects `position` typed into the inspector's field, until its report
/// has come.
pub fn select_typed(h: &mut Harness<'static, App>, ruleset: &str, position: &str) -> Position {
    let r: Ruleset = ruleset.parse().unwrap();
    h.state_mut().ruleset_panel_mut().set_expression(ruleset);
    h.state_mut().set_ruleset(r.clone());
    h.step();
    h.state_mut().inspector_mut().doc.typed = position.into();
    h.step();
    h.get_by_label("Inspect").click();
    h.step();
    let p = r.parse_position(position).unwrap();
    assert_eq!(h.state().inspector().root(), Some(&p));
    step_until(h, "the report", |app| has_report(app, &p));
    h.step();
    p
}
