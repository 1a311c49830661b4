//! The window's own state between runs (recent files, my rules, the last session): read and
//! checked like a session, and a damaged one set aside under another name, never lost.

use std::path::{Path, PathBuf};

use super::file::SessionFile;
use super::{Session, limits, locate};
use crate::game::quote::{escape, one_line};

/// Where the window keeps its own state between runs (the last session and the recent files):
/// `$XDG_STATE_HOME/nimscope`, else `~/.local/state/nimscope`.
pub fn state_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("state")))?;
    Some(base.join("nimscope"))
}

/// The window's state between runs: the last session (restored on start) and recent files.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WindowState {
    /// The session shown when the window last closed (or autosaved).
    pub last: Option<Session>,
    /// The file the last session came from or was saved to.
    pub last_path: Option<PathBuf>,
    /// Most recent first.
    pub recent: Vec<PathBuf>,
    /// The user's own typed rules, kept by the rule editor between runs.
    pub my_rules: Vec<SavedRule>,
    /// How the window looks (UI scale, theme, side panels).
    pub prefs: WindowPrefs,
}

/// [`WindowState`] as its file writes it: the last session in its file form, parsed into the
/// typed one after reading ([`WindowState::restore`]).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default, rename = "WindowState")]
struct WindowStateFile {
    last: Option<SessionFile>,
    last_path: Option<PathBuf>,
    recent: Vec<PathBuf>,
    my_rules: Vec<SavedRule>,
    prefs: WindowPrefs,
}

/// How the window looks, kept between runs: preferences, not part of any session.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct WindowPrefs {
    /// The UI scale (Ctrl+plus, Ctrl+minus, Ctrl+0), separate from the map's zoom.
    pub ui_scale: f32,
    /// The light theme (slides, projectors) instead of the dark one.
    pub light_theme: bool,
    /// Show the rulesets panel.
    pub show_rulesets: bool,
    /// Show the inspector panel.
    pub show_inspector: bool,
}

impl Default for WindowPrefs {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            light_theme: false,
            show_rulesets: true,
            show_inspector: true,
        }
    }
}

/// A typed rule the user kept, under a name of their choice.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SavedRule {
    /// The name the user gave it.
    pub name: String,
    /// The rule as typed (it may hold comments and line breaks).
    pub text: String,
}

/// How many recent files the File menu lists.
pub const RECENT_LEN: usize = 8;

impl WindowState {
    /// Reads `dir/window.ron` (see [`WindowState::restore`]), without the message.
    pub fn load(dir: &Path) -> WindowState {
        Self::restore(dir).0
    }

    /// Reads `dir/window.ron` and checks its last session. A missing file gives the default. A
    /// damaged one (unreadable, not a state, or a last session that does not validate) must
    /// never stop the window from opening, nor be overwritten by the next autosave: it is set
    /// aside ([`WindowState::set_aside`]) and the window starts afresh, keeping the recent files
    /// when they could be read; the message says what happened, for the window to show.
    pub fn restore(dir: &Path) -> (WindowState, Option<String>) {
        let path = dir.join("window.ron");
        let why = match crate::files::read_bounded(&path, limits::MAX_FILE_BYTES, "the window's state") {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (WindowState::default(), None),
            Err(e) => e.to_string(),
            Ok(bytes) => match String::from_utf8(bytes) {
                Err(_) => "it is not UTF-8 text".to_string(),
                Ok(text) => match ron::from_str::<WindowStateFile>(&text) {
                    Err(e) => format!("line {}, column {}: {}", e.span.start.line, e.span.start.col, e.code),
                    Ok(file) => match file.last.map(SessionFile::into_session).transpose() {
                        Ok(last) => {
                            let state = WindowState {
                                last,
                                last_path: file.last_path,
                                recent: file.recent,
                                my_rules: file.my_rules,
                                prefs: file.prefs,
                            };
                            return (state, None);
                        }
                        Err(bad) => {
                            let mut field = vec!["last"];
                            field.extend(&bad.field);
                            let at =
                                locate(&text, &field).map_or(String::new(), |(l, c)| format!("line {l}, column {c}: "));
                            let message = format!("{at}{}", bad.message);
                            let kept = WindowState {
                                recent: file.recent,
                                ..WindowState::default()
                            };
                            return (kept, Some(Self::set_aside_saying(dir, &message)));
                        }
                    },
                },
            },
        };
        (WindowState::default(), Some(Self::set_aside_saying(dir, &why)))
    }

    /// Sets `dir/window.ron` aside and says so, with `why`.
    fn set_aside_saying(dir: &Path, why: &str) -> String {
        let shown = escape(&dir.join("window.ron").display().to_string());
        one_line(&match Self::set_aside(dir) {
            Ok(kept) => format!(
                "the last state in {shown} could not be restored ({why}); it is kept as {} and the window starts afresh",
                escape(&kept.display().to_string())
            ),
            Err(e) => format!(
                "the last state in {shown} could not be restored ({why}) nor set aside ({e}); the window starts afresh"
            ),
        })
    }

    /// Renames `dir/window.ron` to `window.ron.damaged-N`, the first N not in use (never
    /// replacing an earlier one), and returns the new path: the user's last state is kept for
    /// them to look at, where the autosave cannot overwrite it.
    pub fn set_aside(dir: &Path) -> std::io::Result<PathBuf> {
        let from = dir.join("window.ron");
        for n in 1..10_000 {
            let to = dir.join(format!("window.ron.damaged-{n}"));
            if std::fs::symlink_metadata(&to).is_err() {
                std::fs::rename(&from, &to)?;
                return Ok(to);
            }
        }
        Err(std::io::Error::other("every name window.ron.damaged-N is taken"))
    }

    /// Writes the state to `dir/window.ron` (creating `dir`), atomically.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let file = WindowStateFile {
            last: self.last.as_ref().map(SessionFile::from),
            last_path: self.last_path.clone(),
            recent: self.recent.clone(),
            my_rules: self.my_rules.clone(),
            prefs: self.prefs.clone(),
        };
        let text = ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::new()).map_err(std::io::Error::other)?;
        crate::files::write_atomic(&dir.join("window.ron"), text.as_bytes())
    }

    /// Puts `path` first in the recent list.
    pub fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT_LEN);
    }
}
