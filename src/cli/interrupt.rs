//! Ctrl+C (and SIGTERM) for every command: the first one sets a flag instead of ending the process, and the
//! command's watcher ([`super::progress`]) cancels the job, which stops at its next check and
//! reports "interrupted" (a checkpointed Cram search saves first and says how to resume). A
//! second Ctrl+C ends the process at once (the handler restores the default on its first
//! call). Output that streams for long (`seq`) polls the flag between blocks.

pub use imp::{catch, interrupted};

#[cfg(target_os = "linux")]
mod imp {
    use std::sync::atomic::{AtomicBool, Ordering};

    static INTERRUPTED: AtomicBool = AtomicBool::new(false);

    extern "C" fn on_sigint(signal: libc::c_int) {
        INTERRUPTED.store(true, Ordering::Relaxed);
        // A second Ctrl+C stops at once. (signal() is async-signal-safe.)
        // SAFETY: restores the default disposition of the signal caught.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
        }
    }

    /// From now on the first Ctrl+C sets the flag instead of ending the process, and so does
    /// the first SIGTERM (a scheduler stopping a job: a checkpointed unit saves before it ends).
    pub fn catch() {
        // SAFETY: the handler only stores to an atomic and calls signal().
        unsafe {
            libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
            libc::signal(libc::SIGTERM, on_sigint as *const () as libc::sighandler_t);
        }
    }

    pub fn interrupted() -> bool {
        INTERRUPTED.load(Ordering::Relaxed)
    }
}

/// Elsewhere Ctrl+C ends the process as usual.
#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn catch() {}

    pub fn interrupted() -> bool {
        false
    }
}
