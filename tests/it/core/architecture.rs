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

/// Source text without comments, string and character literals (a path written in a message
/// or a doc comment is not an import).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !is_word(b[i - 1])) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                i = text[start..].find(&close).map_or(b.len(), |k| start + k + close.len());
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            // a character literal, not a lifetime: 'x', '\n', '\u{..}'
            b'\'' if b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\') => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("' '");
            }
            c => {
                out.push(c as char);
                i += 1;
            }
        }
    }
    out
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Every module path in `code` that starts at `crate`, `super` or `self`, with `use` trees
/// expanded (`use super::{a, b::{c, d}}` gives `super::a`, `super::b::c`, `super::b::d`).
fn module_paths(code: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let mut path = prefix.to_vec();
            path.extend(segments(&tree[..open]));
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let (mut depth, mut start) = (0, 0);
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&path, &inner[start..k], out);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            expand(&path, &inner[start..], out);
        } else {
            let mut path = prefix.to_vec();
            path.extend(segments(tree.split(" as ").next().unwrap_or("")));
            if !path.is_empty() {
                out.push(path);
            }
        }
    }
    fn segments(text: &str) -> Vec<String> {
        text.split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty() && s != "*" && s.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .collect()
    }
    let mut out = Vec::new();
    let mut rest = code;
    // `use` trees first (they may hold braces), then the paths written in the code
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest.find(';').unwrap_or(rest.len());
        expand(&[], &rest[..end], &mut out);
        rest = &rest[end..];
    }
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .collect();
    for w in words {
        if w.starts_with("crate::") || w.starts_with("super::") || w.starts_with("self::") {
            out.push(segments(w));
        }
    }
    out.retain(|p| matches!(p.first().map(String::as_str), Some("crate" | "super" | "self")));
    out
}

/// The module path of a file: `src/solver/grid/mod.rs` → `solver::grid`, `src/lib.rs` → root.
fn module_path(file: &Path, root: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().to_string()).collect();
    let last = parts.pop().unwrap();
    match last.as_str() {
        "mod.rs" | "lib.rs" | "main.rs" => {}
        name => parts.push(name.trim_end_matches(".rs").to_string()),
    }
    parts
}

/// The file of the deepest module a path names (`crate::solver::grid::Grid` → the file of
/// `solver::grid`), relative to the module `here`.
fn file_of(
    path: &[String],
    here: &[String],
    files: &std::collections::HashMap<Vec<String>, PathBuf>,
) -> Option<PathBuf> {
    let mut module: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self" | "super") => {
            module = here.to_vec();
            while let Some(s) = rest
                .first()
                .map(String::as_str)
                .filter(|s| *s == "self" || *s == "super")
            {
                if s == "super" {
                    module.pop()?;
                }
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut found = files.get(&module).cloned();
    for s in rest {
        module.push(s.clone());
        match files.get(&module) {
            Some(f) => found = Some(f.clone()),
            None => break,
        }
    }
    found
}

/// The files each file imports from, parents' imports of their own children left out: a
/// module's file is the interface of its folder, and a parent that re-exports or dispatches to
/// its children is composition, not a dependency of the children's. Test code (a `tests.rs`
/// file, an inline `#[cfg(test)] mod tests`) is left out: a test may compare any two modules.
fn file_imports(root: &Path) -> std::collections::BTreeMap<PathBuf, std::collections::BTreeSet<PathBuf>> {
    let mut list = Vec::new();
    rust_files(root, &mut list);
    list.retain(|f| !f.ends_with("main.rs") && !f.ends_with("tests.rs"));
    let files: std::collections::HashMap<Vec<String>, PathBuf> =
        list.iter().map(|f| (module_path(f, root), f.clone())).collect();
    let mut graph = std::collections::BTreeMap::new();
    for f in &list {
        let here = module_path(f, root);
        let text = std::fs::read_to_string(f).unwrap();
        let code = code_only(text.split("#[cfg(test)]\nmod tests {").next().unwrap_or(""));
        let mut to = std::collections::BTreeSet::new();
        for p in module_paths(&code) {
            if let Some(target) = file_of(&p, &here, &files) {
                let target_module = module_path(&target, root);
                let own_child = target_module.len() > here.len() && target_module[..here.len()] == here[..];
                if &target != f && !own_child {
                    to.insert(target);
                }
            }
        }
        graph.insert(f.clone(), to);
    }
    graph
}

/// A circle of files in `graph`, if there is one (depth-first search).
fn circle(graph: &std::collections::BTreeMap<PathBuf, std::collections::BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    fn visit(
        f: &PathBuf,
        graph: &std::collections::BTreeMap<PathBuf, std::collections::BTreeSet<PathBuf>>,
        state: &mut std::collections::HashMap<PathBuf, u8>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        state.insert(f.clone(), 1);
        stack.push(f.clone());
        for g in graph.get(f).into_iter().flatten() {
            match state.get(g) {
                Some(1) => {
                    let from = stack.iter().position(|x| x == g).unwrap();
                    let mut c = stack[from..].to_vec();
                    c.push(g.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(g, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(f.clone(), 2);
        None
    }
    let mut state = std::collections::HashMap::new();
    for f in graph.keys() {
        if !state.contains_key(f)
            && let Some(c) = visit(f, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn no_circle_of_files() {
    let root = src();
    let graph = file_imports(&root);
    assert!(graph.len() > 100, "the reader found {} files", graph.len());
    if let Some(c) = circle(&graph) {
        let names: Vec<String> = c
            .iter()
            .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        panic!("a circle of imports: {}", names.join(" → "));
    }
}

/// The circle check on a made-up tree: it resolves `super::` and `self::` to files, sees
/// braces, and finds a circle of siblings (as `evaluate.rs ⇄ report.rs` was).
#[test]
fn the_circle_check_sees_relative_paths() {
    let dir = std::env::temp_dir().join(format!("nimscope-arch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("solver/cram")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write("lib.rs", "pub mod solver;");
    write(
        "solver/mod.rs",
        "pub mod evaluate;\npub mod report;\npub mod cram;\nuse self::cram::X;",
    );
    write("solver/evaluate.rs", "use super::{cram, report::option_bound};");
    write(
        "solver/report.rs",
        "// super::evaluate in a comment is not an import\nfn f() { let s = \"crate::solver::evaluate\"; }",
    );
    write("solver/cram/mod.rs", "use super::super::report::Y;");
    assert_eq!(circle(&file_imports(&dir)), None, "{:#?}", file_imports(&dir));
    write("solver/report.rs", "fn f() { crate::solver::evaluate::first(); }");
    let c = circle(&file_imports(&dir)).expect("evaluate ⇄ report");
    assert_eq!(c.len(), 3, "{c:?}");
    assert!(c.iter().any(|f| f.ends_with("report.rs")) && c.iter().any(|f| f.ends_with("evaluate.rs")));
    // a parent's use of its own child is not an edge; the child's use of its parent is
    write("solver/report.rs", "");
    write("solver/cram/mod.rs", "use crate::solver::evaluate::Z;");
    write("solver/evaluate.rs", "use super::cram::W;");
    assert!(circle(&file_imports(&dir)).is_some(), "evaluate → cram → evaluate");
    let _ = std::fs::remove_dir_all(&dir);
}
