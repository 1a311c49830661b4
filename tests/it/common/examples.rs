//! The example sessions shipped in `sessions/`, read from there (a new example is picked up
//! by every test that goes through them).

use std::path::{Path, PathBuf};

/// The folder of the example sessions.
pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sessions")
}

/// The example session `name` (such as `euclid-winning-pairs.ron`).
pub fn example(name: &str) -> PathBuf {
    examples_dir().join(name)
}

/// Every example session (`*.ron` in `sessions/`), by name.
pub fn examples() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(examples_dir())
        .expect("the sessions folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    out.sort();
    assert!(out.len() >= 6, "the examples of sessions/: {out:?}");
    out
}
