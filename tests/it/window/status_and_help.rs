//! The status bar and Help: a running job wakes the window only a few times a second, Help has
//! a quick start and every key, and a window started without a desktop says in plain words what
//! works instead.

use std::process::Command;

use egui_kittest::kittest::Queryable;

use crate::common::harness;

/// While a job runs and nothing else happens, the window asks to be redrawn a few times a
/// second at most: every repaint it requests (counted through egui's repaint callback, as the
/// real window's event loop receives them) is a tenth of a second away or more: no spinner
/// and no continuous repaint.
#[test]
fn quiet_while_a_job_runs() {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    let mut h = crate::common::harness();
    let r: nimscope_core::game::Ruleset = "octal(0.6)".parse().unwrap();
    h.state_mut().ruleset_panel_mut().set_expression("octal(0.6)");
    h.state_mut().set_ruleset(r);
    h.step();
    // a heap the inspector needs many seconds for
    h.state_mut().inspector_mut().doc.typed = "3000000".into();
    h.step();
    h.get_by_label("Inspect").click();
    h.step();
    let inspecting = |app: &nimscope::ui::app::App| {
        app.worker()
            .is_some_and(|w| w.is_running(nimscope::worker::Lane::Inspector))
    };
    crate::common::step_until(&mut h, "the inspector's job", inspecting);
    let delays = Arc::new(Mutex::new(Vec::new()));
    let seen = delays.clone();
    h.ctx
        .set_request_repaint_callback(move |info| seen.lock().unwrap().push(info.delay));
    // the frame egui adds after the click's (it lets things settle) is not the job's
    h.step();
    h.step();
    delays.lock().unwrap().clear();
    let mut frames = 0;
    while frames < 20 && inspecting(h.state()) {
        h.step();
        frames += 1;
        std::thread::sleep(Duration::from_millis(40));
    }
    assert!(
        inspecting(h.state()),
        "the job ended within {frames} frames: too short to tell"
    );
    let delays = delays.lock().unwrap().clone();
    assert!(!delays.is_empty(), "the progress is redrawn");
    assert!(
        delays.iter().all(|d| *d >= Duration::from_millis(100)),
        "repaints asked for sooner than a tenth of a second: {delays:?}"
    );
    h.state_mut().cancel_jobs();
}

#[test]
fn help_has_a_quick_start_and_the_keys() {
    let mut h = harness();
    h.step();
    h.get_by_label("Help").click();
    h.step();
    h.step();
    h.get_by_label("Quick start").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(h.query_by_label("1. Pick a ruleset").is_some());
    h.get_by_label("Keys and gestures").click();
    h.step();
    h.step();
    assert!(h.query_by_label("right click a node").is_some());
    assert!(h.query_by_label("Ctrl+V").is_some());
    // the keyboard's way through the window (issue 41: documented in Help ▸ Keys)
    assert!(h.query_by_label("Tab, Shift+Tab").is_some());
}

/// Without a display, winit's error named a path inside the cargo registry.
#[test]
fn without_a_desktop_the_window_says_what_works() {
    let state = std::env::temp_dir().join(format!("nimscope-nodisplay-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_STATE_HOME", &state)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&state);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: nimscope's window needs a desktop"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line, as every error: {err}");
    for command in ["nimscope value", "grid", "seq", "export", "check"] {
        assert!(err.contains(command), "{command}: {err}");
    }
    assert!(!err.contains(".cargo/registry"), "{err}");
}
