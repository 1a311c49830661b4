//! What the integration tests share: running the binary (and, [`patient`], runs that may hang),
//! temporary folders, the example
//! sessions of `sessions/`, and (with the window) a harness driving the app without a GPU.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod examples;
#[cfg(target_os = "linux")]
pub mod patient;
#[cfg(feature = "gui")]
mod window;
pub use examples::{example, examples};
#[cfg(feature = "gui")]
pub use window::{
    click_at, harness, harness_of, harness_sized, harness_with_budget, has_label, has_report, idle_until, select_typed,
    settle, sized_harness_of, step_until,
};

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

/// Makes a FIFO (a named pipe) at `path`, which the test owns.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path; it only creates a file
    let made = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo {}", path.display());
}

/// A fresh, empty folder for one test, removed when it is dropped (also when the test fails),
/// named after the calling test file too, so two files' tests of one name never share it.
pub struct TempDir(PathBuf);

impl TempDir {
    #[track_caller]
    pub fn new(name: &str) -> TempDir {
        let file = Path::new(std::panic::Location::caller().file())
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().to_string());
        let d = std::env::temp_dir().join(format!("nimscope-{file}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

/// [`TempDir::new`], the name most tests use.
#[track_caller]
pub fn temp_dir(name: &str) -> TempDir {
    TempDir::new(name)
}
