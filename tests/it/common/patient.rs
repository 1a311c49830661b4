//! Runs of the binary that may hang (the inputs of an attack, long positions stopped by a
//! signal): the output drained while the child runs, and a child past [`PATIENCE`] killed and
//! reported, so a hang fails its test instead of stalling the suite. Nothing here times a
//! command.

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

/// A run that takes longer has hung.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Starts the binary with `args`, its output piped.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_nimscope"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The output of `child` (started with `args`), or a panic once it ran past [`PATIENCE`].
pub fn wait(child: Child, args: &[&str]) -> Output {
    let pid = child.id() as libc::pid_t;
    // the output is drained while the child runs (a full pipe would stop it)
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("patient-output".into())
        .spawn(move || tx.send(child.wait_with_output()))
        .unwrap();
    match rx.recv_timeout(PATIENCE) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SAFETY: kill(2) on the child this test started and has not reaped
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("{args:?} ran past {PATIENCE:?}");
        }
    }
}

/// Runs the binary with `args` to its end.
pub fn run(args: &[&str]) -> Output {
    wait(spawn(args), args)
}

/// The one `error:` line of a refusal (exit 2).
pub fn refused(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.starts_with("error: ") && err.lines().count() == 1,
        "{args:?}: {err:?}"
    );
    err
}

/// The standard output of a run that must succeed.
pub fn answered(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}
