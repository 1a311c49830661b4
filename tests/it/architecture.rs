//! The layering of `src/`, checked on the source text so it is enforced, not remembered: the
//! core never names the GUI toolkit, the command line never imports the window, and every
//! `crate::` import points down the layers (nothing imports a layer above its own).

use std::path::{Path, PathBuf};

/// The top-level modules from the bottom up; a module may import its own layer and those
/// below. `main.rs` (the chooser) stands above both faces.
const LAYERS: &[&[&str]] = &[
    &["files"],
    &["game"],
    &["solver"],
    &["camera", "checks"],
    &["raster"],
    &["figure"],
    &["session", "worker"],
    &["cli", "ui"],
];

/// Inside the window, the theme is the base, the canvas and panels build on it, the app on all.
const UI_LAYERS: &[&[&str]] = &[&["theme", "trace"], &["canvas"], &["panels"], &["app"]];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level module a file belongs to (`src/solver/grid/mod.rs` → `solver`).
fn module_of(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy()
        .to_string();
    first.trim_end_matches(".rs").to_string()
}

fn layer(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|l| l.contains(&module))
}

/// The modules named by `prefix::name` paths in the code (comments left out).
fn imported(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find(prefix) {
            rest = &rest[i + prefix.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn only_the_window_names_the_gui_toolkit() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let ui = root.join("ui");
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !f.starts_with(&ui)) {
        let text = std::fs::read_to_string(f).unwrap();
        for word in ["egui", "eframe", "egui_plot", "rfd"] {
            let named = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == word);
            if named {
                found.push(format!("{} names {word}", f.display()));
            }
        }
    }
    // main.rs opens the window through `nimscope::ui`, never through the toolkit itself
    assert!(found.is_empty(), "{found:#?}");
    assert!(!files.is_empty());
}

#[test]
fn every_import_points_down_the_layers() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut wrong = Vec::new();
    for f in &files {
        let module = module_of(f, &root);
        if module == "lib" || module == "main" {
            continue;
        }
        let here = layer(LAYERS, &module).unwrap_or_else(|| panic!("{} is in no layer", f.display()));
        let text = std::fs::read_to_string(f).unwrap();
        // upper-case names are the crate root's own items (the version constants)
        for target in imported(&text, "crate::")
            .into_iter()
            .filter(|t| t.starts_with(|c: char| c.is_lowercase()))
        {
            let there =
                layer(LAYERS, &target).unwrap_or_else(|| panic!("{}: crate::{target} is in no layer", f.display()));
            if there > here {
                wrong.push(format!("{} ({module}) imports crate::{target}", f.display()));
            }
        }
        if module == "cli" && !imported(&text, "crate::ui").is_empty() {
            wrong.push(format!("{} (the command line) imports the window", f.display()));
        }
        if module == "ui" {
            let ui_root = root.join("ui");
            let sub = module_of(f, &ui_root);
            if sub != "mod"
                && let Some(here) = layer(UI_LAYERS, &sub)
            {
                for target in imported(&text, "crate::ui::") {
                    if layer(UI_LAYERS, &target).is_some_and(|there| there > here) {
                        wrong.push(format!("{} (ui::{sub}) imports crate::ui::{target}", f.display()));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The reader of imports the checks rely on: code paths count, comments do not.
#[test]
fn the_checker_sees_imports() {
    assert_eq!(imported("use crate::game::Cell; // crate::ui", "crate::"), ["game"]);
    assert_eq!(
        imported("let x = crate::solver::grid::grid(crate::raster::View)", "crate::"),
        ["solver", "raster"]
    );
}
