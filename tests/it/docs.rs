//! The documents stay true to the code: every path they name exists, `docs/games.md` states
//! exactly the families of the catalog's table, and the README carries no dated figures.

use std::path::{Path, PathBuf};

use nimscope_core::game::families::FAMILIES;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folders a path in the repository starts with.
const TOP: &[&str] = &[
    "src/",
    "crates/",
    "tests/",
    "docs/",
    "scripts/",
    "sessions/",
    "examples/",
    "benches/",
    "assets/",
    ".ci/",
];

/// The documents and comments whose paths are checked: the READMEs, RECORDS.md, docs/*.md,
/// and the comments of every Rust file of the workspace.
fn documents(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            let name = rel.to_string_lossy().to_string();
            if name.starts_with("target") || name.starts_with('.') || name.contains("/target") {
                continue;
            }
            if path.is_dir() {
                walk(&path, root, out);
            } else if name.ends_with(".rs")
                || name.ends_with("README.md")
                || name.starts_with("docs/") && name.ends_with(".md")
            {
                out.push(rel);
            }
        }
    }
    let mut out = vec![PathBuf::from("RECORDS.md")];
    walk(root, root, &mut out);
    out.sort();
    out
}

/// The repository paths a line names: markdown link targets, and words that start with a
/// top folder or are a bare markdown file name; placeholders (`DIR/…`, `*`, `{}`) are not paths.
fn named_paths(line: &str, markdown: bool) -> Vec<String> {
    let mut out = Vec::new();
    if markdown {
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let target = rest.split(')').next().unwrap_or("");
            if !(target.starts_with("http") || target.starts_with('#') || target.starts_with("mailto:")) {
                out.push(target.to_string());
            }
        }
    }
    for word in line.split(|c: char| c.is_whitespace() || "`()[],;\"'<>|".contains(c)) {
        let word = word.trim_end_matches(['.', ':']);
        // `file.rs:120`: a line number is not part of the path
        let word = match word.rsplit_once(':') {
            Some((path, line)) if line.chars().all(|c| c.is_ascii_digit()) => path,
            _ => word,
        };
        if TOP.iter().any(|t| word.starts_with(t)) || (word.ends_with(".md") && !word.contains('/')) {
            out.push(word.to_string());
        }
    }
    let mut paths: Vec<String> = out
        .into_iter()
        .map(|p| p.split('#').next().unwrap_or("").to_string())
        .filter(|p| !p.is_empty() && !p.contains(['*', '{', '}', '$', '…', '<']) && !p.contains("..."))
        .collect();
    // a link's target may also be read as a word
    let mut seen = std::collections::HashSet::new();
    paths.retain(|p| seen.insert(p.clone()));
    paths
}

#[test]
fn every_path_the_documents_name_exists() {
    let root = repository();
    let mut missing = Vec::new();
    let mut seen = 0;
    for doc in documents(&root) {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap();
        let rust = doc.extension().is_some_and(|e| e == "rs");
        // where a relative path may start: the document's folder, its crate, the root, docs/
        let here = doc.parent().unwrap_or(Path::new(""));
        let krate = doc
            .components()
            .take(2)
            .collect::<PathBuf>()
            .to_string_lossy()
            .starts_with("crates/")
            .then(|| doc.components().take(2).collect::<PathBuf>());
        for line in text.lines().filter(|l| !rust || l.trim_start().starts_with("//")) {
            for path in named_paths(line, !rust) {
                seen += 1;
                let bases = [
                    Some(here.to_path_buf()),
                    krate.clone(),
                    Some(PathBuf::new()),
                    Some(PathBuf::from("docs")),
                ];
                if !bases.iter().flatten().any(|b| root.join(b).join(&path).exists()) {
                    missing.push(format!("{}: {path}", doc.display()));
                }
            }
        }
    }
    assert!(seen > 100, "the checker read only {seen} paths");
    assert!(
        missing.is_empty(),
        "paths named but not in the repository:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_path_reader_sees_links_paths_and_line_numbers_but_not_placeholders() {
    assert_eq!(
        named_paths(
            "see [the games](games.md) and `src/cli/mod.rs:12`, then README.md.",
            true
        ),
        ["games.md", "src/cli/mod.rs", "README.md"]
    );
    assert!(named_paths("DIR/failed, docs/{a,b}.md, tests/…, https://x.org/docs/a.md", true).is_empty());
}

/// docs/games.md states every family of the table ([`FAMILIES`]) and nothing else: each of its
/// table rows and bullets opens with a family's name in backticks.
#[test]
fn docs_games_states_exactly_the_catalogs_families() {
    let text = std::fs::read_to_string(repository().join("docs/games.md")).unwrap();
    let stated: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("| `").or_else(|| l.strip_prefix("- `")))
        .map(|l| {
            let name = l.split('`').next().unwrap_or("");
            name.split('(').next().unwrap_or(name).to_string()
        })
        .collect();
    for row in FAMILIES {
        assert!(
            stated.iter().any(|s| s == row.name),
            "docs/games.md does not state {}",
            row.name
        );
    }
    for name in &stated {
        assert!(
            FAMILIES.iter().any(|r| r.name == name),
            "docs/games.md states {name}, not in the catalog"
        );
    }
}

/// The README states what nimscope does and links the figures; dated measurements live in
/// docs/performance.md and the subsystems' docs, where each is kept with its command.
#[test]
fn the_readme_holds_no_dated_figures() {
    let text = std::fs::read_to_string(repository().join("README.md")).unwrap();
    let dated: Vec<&str> = text
        .lines()
        .filter(|l| {
            let b = l.as_bytes();
            // an ISO date: 20YY-MM-DD
            (0..b.len().saturating_sub(9)).any(|i| {
                b[i..i + 2] == *b"20"
                    && b[i + 2..i + 4].iter().all(u8::is_ascii_digit)
                    && b[i + 4] == b'-'
                    && b[i + 5..i + 7].iter().all(u8::is_ascii_digit)
                    && b[i + 7] == b'-'
                    && b[i + 8..i + 10].iter().all(u8::is_ascii_digit)
            })
        })
        .collect();
    assert!(dated.is_empty(), "dated lines in the README:\n{}", dated.join("\n"));
}
