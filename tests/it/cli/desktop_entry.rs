//! The menu entry (`assets/nimscope.desktop`) as a launcher runs it: its `Exec` line expanded by
//! the Desktop Entry specification's rules, with no file (from a menu) and with one (a file
//! manager opening a session), must be a command line nimscope accepts and that opens the window
//! on that session. `scripts/test-desktop.sh` launches the installed entry under Xvfb.

use clap::Parser;
use nimscope::cli::{Cli, file_argument_error};

/// The entry's `KEY=value` lines of the `[Desktop Entry]` group.
fn entry() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/nimscope.desktop")).unwrap();
    text.lines()
        .skip_while(|l| l.trim() != "[Desktop Entry]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn key(name: &str) -> String {
    entry()
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
        .unwrap_or_else(|| panic!("no {name}="))
}

/// The launcher's expansion of `Exec` (no quoting in ours): `%f`/`%F`/`%u`/`%U` become the
/// files given (none from a menu), the deprecated and the other codes are dropped.
fn expand(exec: &str, files: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for word in exec.split_whitespace() {
        match word {
            "%f" | "%u" => out.extend(files.first().map(|f| f.to_string())),
            "%F" | "%U" => out.extend(files.iter().map(|f| f.to_string())),
            w if w.starts_with('%') => {}
            w => out.push(w.to_string()),
        }
    }
    out
}

#[test]
fn the_menu_entry_starts_the_window_with_and_without_a_session() {
    let exec = key("Exec");
    let session = concat!(env!("CARGO_MANIFEST_DIR"), "/sessions/zeruclid-figure2.ron");
    // from a menu: no file, the window opens on its last state
    let bare = Cli::try_parse_from(expand(&exec, &[])).unwrap_or_else(|e| panic!("{exec} with no file: {e}"));
    assert!(bare.command.is_none() && bare.session.is_none() && bare.file.is_none());
    assert!(file_argument_error(&bare).is_none());
    // from a file manager: the session given
    let opened = Cli::try_parse_from(expand(&exec, &[session])).unwrap_or_else(|e| panic!("{exec} {session}: {e}"));
    assert!(opened.command.is_none());
    assert!(file_argument_error(&opened).is_none());
    let path = opened.session.or(opened.file).expect("the session reaches the window");
    assert_eq!(path, std::path::Path::new(session));
}

#[test]
fn the_menu_entry_has_one_main_category_and_the_session_type() {
    // main categories of the Desktop Menu specification: an entry with two shows twice
    const MAIN: [&str; 13] = [
        "AudioVideo",
        "Audio",
        "Video",
        "Development",
        "Education",
        "Game",
        "Graphics",
        "Network",
        "Office",
        "Science",
        "Settings",
        "System",
        "Utility",
    ];
    let categories = key("Categories");
    let main: Vec<&str> = categories.split(';').filter(|c| MAIN.contains(c)).collect();
    assert_eq!(main.len(), 1, "Categories={categories}");
    assert_eq!(key("MimeType"), "application/x-nimscope-session;");
    let mime = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/nimscope-session.xml")).unwrap();
    assert!(mime.contains(r#"type="application/x-nimscope-session""#) && mime.contains(r#"pattern="*.ron""#));
}
