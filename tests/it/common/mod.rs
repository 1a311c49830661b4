//! What the integration tests share: running the binary, temporary folders, and (with the
//! window) a harness driving the app without a GPU.

use std::path::PathBuf;
use std::process::{Command, Output};

#[cfg(feature = "gui")]
mod window;
#[cfg(feature = "gui")]
pub use window::{harness, harness_of, harness_with_budget, step_until};

/// Runs the binary with `args`.
pub fn nimscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The standard output of a command that must succeed.
pub fn stdout(args: &[&str]) -> String {
    let out = nimscope(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh, empty folder for test `name`, named after the calling test file too, so two files'
/// tests of one name never share it.
#[track_caller]
pub fn temp_dir(name: &str) -> PathBuf {
    let file = std::path::Path::new(std::panic::Location::caller().file())
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().to_string());
    let d = std::env::temp_dir().join(format!("nimscope-{file}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
