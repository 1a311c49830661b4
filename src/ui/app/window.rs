//! Starting the window: what the command line asks it to open with, set up on an [`App`]
//! before its first frame, then eframe's loop.

use crate::ui::app::App;
use crate::ui::trace::Trace;
use nimscope_core::camera::CellRect;
use nimscope_core::game::{CentralTab, Ruleset};

/// What the command line asks the window to open with.
#[derive(Debug, Default)]
pub struct WindowOptions {
    pub memory_budget: u64,
    /// A session file to open (`nimscope --session FILE`).
    pub session: Option<std::path::PathBuf>,
    /// The ruleset to show (`--ruleset R`).
    pub ruleset: Option<Ruleset>,
    /// The Cram board tab's position (`--board 3x7 [--push]`).
    pub board: Option<nimscope_core::game::cram_setup::CramDocument>,
    /// The position the inspector opens on (`--select 3,5`).
    pub select: Option<String>,
    /// Start afresh instead of restoring the last state (`--fresh`).
    pub fresh: bool,
    /// The map's region to show (`--view A..B,C..D`: rows a in A..B, columns b in C..D).
    pub view: Option<CellRect>,
    /// The window's size in points (`--window-size WxH`; else 1280 × 800).
    pub window_size: Option<(u32, u32)>,
}

/// Opens the window (the binary without a subcommand): the last state first, then what the
/// command line asks for on top of it.
pub fn run_window(opts: WindowOptions) -> Result<(), String> {
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("nimscope")
        .with_app_id("nimscope")
        .with_inner_size(opts.window_size.map_or([1280.0, 800.0], |(w, h)| [w as f32, h as f32]));
    if let Some(icon) = icon() {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions {
        viewport,
        ..Default::default()
    };
    let mut app = App::new(opts.memory_budget);
    if let Some(dir) = nimscope_core::session::state_dir() {
        if opts.fresh || opts.session.is_some() || opts.ruleset.is_some() || opts.board.is_some() {
            app.keep_state_in(dir); // the command line says what to show
        } else {
            app.use_state_dir(dir);
        }
    }
    if let Some(path) = &opts.session {
        app.open_session(path)?;
    }
    if let Some(r) = opts.ruleset {
        app.set_ruleset(r);
    }
    if let Some(doc) = opts.board {
        app.cram_editor_mut()
            .load_document(&doc)
            .map_err(|e| format!("board: {e}"))?;
        app.set_central_tab(CentralTab::CramBoard);
    }
    if let Some(text) = opts.select {
        let ruleset = app.ruleset().clone();
        app.inspector_mut().select_text(&ruleset, &text)?;
    }
    if let Some(region) = opts.view {
        // the region "Fit" comes back to, and the figure's
        app.set_region(region.clone());
        app.map_state_mut().show_region(region);
    }
    app.set_trace(Trace::from_env()?);
    if opts.session.is_none() && app.files().path().is_none() {
        // what the command line asked to show is not a change to save
        app.mark_clean();
    }
    // checked once what the command line asks for is known good: a mistake there is said
    // first, in its one line
    if let Some(why) = no_display() {
        return Err(why);
    }
    eframe::run_native("nimscope", options, Box::new(move |_cc| Ok(Box::new(app))))
        .map_err(|e| format!("could not open the window: {e}"))
}

/// The window's icon (`assets/nimscope.png`: Wythoff's Grundy values, as nimscope draws them).
fn icon() -> Option<egui::IconData> {
    let image = image::load_from_memory(include_bytes!("../../../assets/nimscope.png"))
        .ok()?
        .into_rgba8();
    let (width, height) = image.dimensions();
    Some(egui::IconData {
        rgba: image.into_raw(),
        width,
        height,
    })
}

/// Why no window can open here, in plain words, when there is no display to open it on (a
/// server, an SSH session): said before winit would fail with its own message.
fn no_display() -> Option<String> {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return None;
    }
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") {
        return None;
    }
    Some(NO_DISPLAY.to_string())
}

/// What `nimscope` says when started without a desktop (one line, as every error it prints).
pub const NO_DISPLAY: &str = "nimscope's window needs a desktop (an X11 or Wayland display) and there is none here \
(DISPLAY and WAYLAND_DISPLAY are not set: a server, an SSH session?); everything else works without one: \
nimscope value, moves, grid, seq, cram, export, check, quotient and rules (nimscope --help says how)";
