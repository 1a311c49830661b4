//! The small things of issue 27: Escape closes every dialog; one question over unsaved
//! changes; an example stays as shipped (Save asks for a path outside it); a window started
//! without a desktop says so in plain words.

use std::path::Path;
use std::process::Command;

use egui_kittest::kittest::Queryable;

use crate::common::{harness, step_until};
use nimscope::ui::app::help::HelpPage;

fn example(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions").join(name)
}

#[test]
fn escape_closes_help_export_and_notes() {
    let mut h = harness();
    h.step();
    for title in ["Help", "Export figure", "Session notes"] {
        let app = h.state_mut();
        match title {
            "Help" => app.help_mut().open(HelpPage::QuickStart),
            "Export figure" => app.export_window_mut().show(true),
            _ => app.files_mut().show_notes(true),
        }
        h.step();
        h.step();
        assert!(h.query_all_by_label(title).count() > 0, "{title} is open");
        h.key_press(egui::Key::Escape);
        h.step();
        h.step();
        let app = h.state();
        assert!(
            !(app.help().is_open() || app.export_window().is_open() || app.files().notes_shown()),
            "Escape closes {title}"
        );
    }
}

/// Open over unsaved changes asked "Unsaved changes" twice: before the Open prompt and again
/// once the path was chosen.
#[test]
fn opening_through_the_prompt_asks_once() {
    let mut h = harness();
    h.step();
    h.state_mut()
        .open_session(&example("euclid-winning-pairs.ron"))
        .unwrap();
    h.state_mut().files_mut().notes_mut().push_str("\nnot saved yet");
    h.step();
    step_until(&mut h, "the jobs to finish", |app| {
        app.worker().is_some_and(|w| w.running().next().is_none())
    });
    h.state_mut().request_open(None);
    h.step();
    h.step();
    assert!(h.query_by_label("Unsaved changes").is_some());
    h.get_by_label("Open without saving").click();
    h.step();
    h.step();
    // the prompt, with the example's path typed
    let path = example("zeruclid-figure2.ron");
    h.state_mut()
        .files_mut()
        .pending_mut()
        .expect("the Open prompt")
        .prompt
        .path = path.display().to_string();
    h.step();
    h.get_by_label("Open").click();
    h.step();
    h.step();
    assert!(h.state().files().confirm().is_none(), "no second question");
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert_eq!(h.state().session().ruleset.to_string(), "zeruclid");
}

/// After opening an example, Save and Export defaulted to paths inside the repository's
/// `sessions/`: an example is opened as shipped, and Save asks where to keep a copy.
#[test]
fn an_example_stays_as_shipped() {
    let mut h = harness();
    h.step();
    let path = example("zeruclid-figure2.ron");
    let before = std::fs::read(&path).unwrap();
    h.state_mut().open_session(&path).unwrap();
    h.step();
    assert_eq!(h.state().files().path(), None, "Save goes to Save as");
    assert!(h.state().window_title().starts_with("zeruclid-figure2"));
    let examples = std::fs::canonicalize(example("")).unwrap();
    for ext in ["ron", "png", "csv"] {
        let p = h.state().default_path(ext);
        let dir = std::fs::canonicalize(p.parent().unwrap()).unwrap();
        assert_ne!(dir, examples, "{ext}: {p:?}");
        assert!(p.ends_with(format!("zeruclid-figure2.{ext}")), "{p:?}");
    }
    // Save (Ctrl+S) opens the Save as prompt; saving onto the example is refused
    h.state_mut().files_mut().notes_mut().push_str("\nmine");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.step();
    h.step();
    assert!(h.state().files().pending().is_some(), "Save as asks where");
    assert!(h.state_mut().save_session(&path).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before, "the example is untouched");
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
