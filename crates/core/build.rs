//! Embeds the git commit (and whether the tree was dirty) so `nimscope --version` and every
//! saved file name the exact source they came from.

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    let dirty = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some_and(|o| !o.stdout.is_empty());
    let commit = if dirty { format!("{commit}-dirty") } else { commit };
    println!("cargo:rustc-env=NIMSCOPE_GIT_COMMIT={commit}");
    // Rebuild when HEAD moves (a commit or a checkout), not on every source change. Git says
    // where its HEAD and index are: `.git/` in a clone, a folder of the main repository's in a
    // worktree (where `.git` is a file).
    let git_dir = Command::new("git")
        .args(["rev-parse", "--absolute-git-dir"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| std::path::PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    for path in git_dir.iter().flat_map(|d| [d.join("HEAD"), d.join("index")]) {
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
