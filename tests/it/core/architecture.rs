//! The layering Cargo cannot enforce, checked on the parsed source. Cargo already keeps the
//! core free of the GUI toolkit and the command line (it is its own crate, `cargo tree` in CI),
//! and the command line free of the window (`--no-default-features` builds it without `ui`).
//! What is left: the order of the core's modules, the order inside the window, no circle of
//! files anywhere, and no module that imports its parent whole (`use super::*`) in any crate's
//! sources. Imports are read with `syn` (paths in code, `use` trees, and paths inside
//! macro calls), so comments and strings never count.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

use crate::common::TempDir;

/// The core's top-level modules from the bottom up; a module may import its own layer and
/// those below.
const CORE_LAYERS: &[&[&str]] = &[
    &["files"],
    &["game"],
    &["solver"],
    &["camera", "checks"],
    &["raster"],
    &["figure"],
    &["session"],
    &["query"],
];

/// Inside the window, the theme is the base, the canvas and panels build on it, the app on all.
const UI_LAYERS: &[&[&str]] = &[&["theme", "trace", "job"], &["canvas"], &["panels"], &["app"]];

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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

/// Every module path a file names that starts at `crate`, `super` or `self`, as segments, with
/// `use` trees expanded; test code (`#[cfg(test)]` items) is left out: a test may compare any
/// two modules.
fn module_paths(text: &str) -> Vec<Vec<String>> {
    #[derive(Default)]
    struct Paths(Vec<Vec<String>>);
    fn is_test(attrs: &[syn::Attribute]) -> bool {
        attrs
            .iter()
            .any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
    }
    fn use_tree(prefix: &mut Vec<String>, tree: &syn::UseTree, out: &mut Vec<Vec<String>>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                use_tree(prefix, &p.tree, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => out.push([prefix.clone(), vec![n.ident.to_string()]].concat()),
            syn::UseTree::Rename(r) => out.push([prefix.clone(), vec![r.ident.to_string()]].concat()),
            syn::UseTree::Glob(_) => out.push(prefix.clone()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_tree(prefix, t, out)),
        }
    }
    impl<'a> Visit<'a> for Paths {
        fn visit_item(&mut self, item: &'a syn::Item) {
            let attrs = match item {
                syn::Item::Mod(m) => &m.attrs,
                syn::Item::Fn(f) => &f.attrs,
                syn::Item::Use(u) => &u.attrs,
                syn::Item::Impl(i) => &i.attrs,
                _ => return syn::visit::visit_item(self, item),
            };
            if !is_test(attrs) {
                syn::visit::visit_item(self, item);
            }
        }
        fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
            use_tree(&mut Vec::new(), &u.tree, &mut self.0);
        }
        fn visit_path(&mut self, p: &'a syn::Path) {
            self.0.push(p.segments.iter().map(|s| s.ident.to_string()).collect());
            syn::visit::visit_path(self, p);
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            // a macro's arguments are tokens: read `crate::a::b` runs out of them
            let tokens: Vec<proc_macro2::TokenTree> = flatten(m.tokens.clone());
            let mut i = 0;
            while i < tokens.len() {
                let mut path = Vec::new();
                let mut j = i;
                while let Some(proc_macro2::TokenTree::Ident(id)) = tokens.get(j) {
                    path.push(id.to_string());
                    let colons = matches!((tokens.get(j + 1), tokens.get(j + 2)),
                        (Some(proc_macro2::TokenTree::Punct(a)), Some(proc_macro2::TokenTree::Punct(b)))
                        if a.as_char() == ':' && b.as_char() == ':');
                    if !colons {
                        break;
                    }
                    j += 3;
                }
                if path.len() > 1 {
                    self.0.push(path);
                }
                i = j + 1;
            }
        }
    }
    fn flatten(stream: proc_macro2::TokenStream) -> Vec<proc_macro2::TokenTree> {
        let mut out = Vec::new();
        for t in stream {
            match t {
                proc_macro2::TokenTree::Group(g) => out.extend(flatten(g.stream())),
                t => out.push(t),
            }
        }
        out
    }
    let file = syn::parse_file(text).unwrap_or_else(|e| panic!("the source does not parse: {e}"));
    let mut paths = Paths::default();
    paths.visit_file(&file);
    paths
        .0
        .into_iter()
        .filter(|p| matches!(p.first().map(String::as_str), Some("crate" | "super" | "self")))
        .collect()
}

/// The module path of a file: `solver/grid/mod.rs` → `solver::grid`, `lib.rs` → the root.
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

/// A path made absolute from the crate root (`super::x` in `solver::grid` → `solver::x`).
fn absolute(path: &[String], here: &[String]) -> Option<Vec<String>> {
    let mut module = here.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            module.clear();
            rest = &path[1..];
        }
        _ => {
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
    }
    module.extend(rest.iter().cloned());
    Some(module)
}

/// Each file under `root` with the absolute module paths it names.
fn imports_of(root: &Path) -> Vec<(PathBuf, Vec<String>, Vec<Vec<String>>)> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    files.retain(|f| !f.ends_with("main.rs") && !f.ends_with("tests.rs"));
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let here = module_path(&f, root);
            let text = std::fs::read_to_string(&f).unwrap();
            let paths = module_paths(&text).iter().filter_map(|p| absolute(p, &here)).collect();
            (f, here, paths)
        })
        .collect()
}

fn layer(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|l| l.contains(&module))
}

/// The imports under `root` (below `prefix`) that climb `layers`.
fn climbing(root: &Path, prefix: &[&str], layers: &[&[&str]]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (f, here, paths) in imports_of(root) {
        let Some(own) = here.strip_prefix(prefix.iter().map(|s| s.to_string()).collect::<Vec<_>>().as_slice()) else {
            continue;
        };
        let Some(own_layer) = own.first().and_then(|m| layer(layers, m)) else {
            continue;
        };
        for p in paths {
            if p.len() > prefix.len()
                && p.iter().zip(prefix).all(|(a, b)| a == b)
                && let Some(there) = layer(layers, &p[prefix.len()])
                && there > own_layer
            {
                wrong.push(format!("{} ({}) imports {}", f.display(), own[0], p.join("::")));
            }
        }
    }
    wrong
}

#[test]
fn the_cores_modules_import_only_down_their_layers() {
    let root = repository().join("crates/core/src");
    let mut unlayered = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let name = entry
            .unwrap()
            .file_name()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if name != "lib" && layer(CORE_LAYERS, &name).is_none() {
            unlayered.push(name);
        }
    }
    assert!(unlayered.is_empty(), "modules of the core in no layer: {unlayered:?}");
    let wrong = climbing(&root, &[], CORE_LAYERS);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_windows_modules_import_only_down_their_layers() {
    let wrong = climbing(&repository().join("src"), &["ui"], UI_LAYERS);
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The files each file imports from, parents' imports of their own children left out: a
/// module's file is the interface of its folder, and a parent that re-exports or dispatches to
/// its children is composition, not a dependency of the children's.
fn file_graph(root: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let imports = imports_of(root);
    let files: HashMap<Vec<String>, PathBuf> = imports.iter().map(|(f, m, _)| (m.clone(), f.clone())).collect();
    let mut graph = BTreeMap::new();
    for (f, here, paths) in &imports {
        let mut to = BTreeSet::new();
        for p in paths {
            // the deepest module the path names that is a file
            let target = (0..=p.len()).rev().find_map(|k| files.get(&p[..k]).map(|t| (k, t)));
            if let Some((k, target)) = target {
                let own_child = k > here.len() && p[..here.len()] == here[..];
                if target != f && !own_child {
                    to.insert(target.clone());
                }
            }
        }
        graph.insert(f.clone(), to);
    }
    graph
}

/// A circle of files in `graph`, if there is one (depth-first search).
fn circle(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    fn visit(
        f: &PathBuf,
        graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        state: &mut HashMap<PathBuf, u8>,
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
    let mut state = HashMap::new();
    graph.keys().find_map(|f| {
        if state.contains_key(f) {
            None
        } else {
            visit(f, graph, &mut state, &mut Vec::new())
        }
    })
}

#[test]
fn no_circle_of_files_in_either_crate() {
    for root in [repository().join("crates/core/src"), repository().join("src")] {
        let graph = file_graph(&root);
        assert!(
            graph.len() > 40,
            "the reader found {} files under {}",
            graph.len(),
            root.display()
        );
        if let Some(c) = circle(&graph) {
            let names: Vec<String> = c
                .iter()
                .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
                .collect();
            panic!("a circle of imports: {}", names.join(" → "));
        }
    }
}

/// The checks on a made-up tree: `super::` and `self::` resolve to files, use trees and macro
/// arguments count, comments, strings and test code do not, and a circle of siblings is found
/// (as `evaluate.rs ⇄ report.rs` once was).
#[test]
fn the_checks_see_what_they_claim_to_see() {
    let dir = TempDir::new("arch");
    std::fs::create_dir_all(dir.join("solver/cram")).unwrap();
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).unwrap();
    write("lib.rs", "pub mod solver; pub mod files;");
    write(
        "files.rs",
        "// crate::solver in a comment\nfn f() { let _ = \"crate::solver::x\"; }",
    );
    write(
        "solver/mod.rs",
        "pub mod evaluate;\npub mod report;\npub mod cram;\nuse self::cram::X;",
    );
    write("solver/evaluate.rs", "use super::{cram, report::option_bound};");
    write(
        "solver/report.rs",
        "// super::evaluate in a comment is not an import\nfn f() { let s = \"crate::solver::evaluate\"; }\n\
         #[cfg(test)]\nmod tests { use crate::solver::evaluate::first; }",
    );
    write("solver/cram/mod.rs", "use super::super::report::Y;");
    let layers: &[&[&str]] = &[&["files"], &["solver"]];
    assert!(climbing(&dir, &[], layers).is_empty());
    assert_eq!(circle(&file_graph(&dir)), None, "{:#?}", file_graph(&dir));
    write("files.rs", "fn f() { println!(\"{}\", crate::solver::cram::X); }");
    assert_eq!(climbing(&dir, &[], layers).len(), 1, "a path in a macro call climbs");
    write("solver/report.rs", "fn f() { crate::solver::evaluate::first(); }");
    let c = circle(&file_graph(&dir)).expect("evaluate ⇄ report");
    assert_eq!(c.len(), 3, "{c:?}");
    assert!(c.iter().any(|f| f.ends_with("report.rs")) && c.iter().any(|f| f.ends_with("evaluate.rs")));
    // a parent's use of its own child is not an edge; the child's use of its parent is
    write("solver/report.rs", "");
    write("solver/cram/mod.rs", "use crate::solver::evaluate::Z;");
    write("solver/evaluate.rs", "use super::cram::W;");
    assert!(circle(&file_graph(&dir)).is_some(), "evaluate → cram → evaluate");
}

/// How many `use super::*` a file has outside an inline `#[cfg(test)]` module: a module names
/// what it takes from its parent, so a reader sees where each name comes from. A file's own test
/// block (`#[cfg(test)] mod tests { use super::*; … }`, Rust's idiom) may take all of the file
/// it sits in; a test module in a file of its own (`tests.rs`) names its imports like any other.
fn parent_globs(text: &str) -> usize {
    #[derive(Default)]
    struct Globs(usize);
    fn is_test(attrs: &[syn::Attribute]) -> bool {
        attrs
            .iter()
            .any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
    }
    /// `super::*`, `super::super::*`, `super::{x, *}`: a glob of an ancestor itself, not of a
    /// module below it.
    fn of_a_parent(tree: &syn::UseTree) -> bool {
        match tree {
            syn::UseTree::Path(p) if p.ident == "super" => glob_here(&p.tree),
            syn::UseTree::Group(g) => g.items.iter().any(of_a_parent),
            _ => false,
        }
    }
    fn glob_here(tree: &syn::UseTree) -> bool {
        match tree {
            syn::UseTree::Glob(_) => true,
            syn::UseTree::Group(g) => g.items.iter().any(glob_here),
            syn::UseTree::Path(p) if p.ident == "super" => glob_here(&p.tree),
            _ => false,
        }
    }
    impl<'a> Visit<'a> for Globs {
        fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
            if !(is_test(&m.attrs) && m.content.is_some()) {
                syn::visit::visit_item_mod(self, m);
            }
        }
        fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
            if of_a_parent(&u.tree) {
                self.0 += 1;
            }
        }
    }
    let file = syn::parse_file(text).unwrap_or_else(|e| panic!("the source does not parse: {e}"));
    let mut globs = Globs::default();
    globs.visit_file(&file);
    globs.0
}

#[test]
fn no_module_imports_its_parent_whole() {
    let mut found = Vec::new();
    for root in ["src", "crates/core/src", "crates/py/src"] {
        let mut files = Vec::new();
        rust_files(&repository().join(root), &mut files);
        files.sort();
        for f in files {
            let globs = parent_globs(&std::fs::read_to_string(&f).unwrap());
            if globs > 0 {
                found.push(format!("{} ({globs})", f.strip_prefix(repository()).unwrap().display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "`use super::*` outside a file's own #[cfg(test)] block; name the imports: {found:#?}"
    );
    // the check itself, on made-up files
    assert_eq!(parent_globs("use super::*;\nuse super::{a, b};"), 1);
    assert_eq!(parent_globs("use super::super::*;\nuse super::spec::*;"), 1);
    assert_eq!(parent_globs("mod inner {\n    use super::{x, *};\n}"), 1);
    assert_eq!(
        parent_globs("#[cfg(test)]\nmod tests {\n    use super::*;\n}\n// use super::*;"),
        0
    );
    assert_eq!(parent_globs("#[cfg(test)]\nmod tests;\nuse super::*;"), 1);
}
