//! Ctrl+C (and SIGTERM) for every command: the first one sets a flag instead of ending the process, and the
//! command's watcher ([`super::progress`]) cancels the job, which stops at its next check and
//! reports "interrupted" (a checkpointed Cram search saves first and says how to resume). A
//! second Ctrl+C ends the process at once (the handler restores the default on its first
//! call). Output that streams for long (`seq`) polls the flag between blocks. The message and
//! the exit status say which signal it was: "interrupted (Ctrl+C)" and 130, or "terminated
//! (SIGTERM)" and 143.

pub use imp::{catch, interrupted, signal_name, status};

#[cfg(target_os = "linux")]
mod imp {
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    /// The signal that stopped the command (SIGINT or SIGTERM), 0 before one came.
    static SIGNAL: AtomicI32 = AtomicI32::new(0);

    extern "C" fn on_sigint(signal: libc::c_int) {
        INTERRUPTED.store(true, Ordering::Relaxed);
        SIGNAL.store(signal, Ordering::Relaxed);
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

    /// How the stop is said: "interrupted (Ctrl+C)" or "terminated (SIGTERM)".
    pub fn signal_name() -> &'static str {
        if SIGNAL.load(Ordering::Relaxed) == libc::SIGTERM {
            "terminated (SIGTERM)"
        } else {
            "interrupted (Ctrl+C)"
        }
    }

    /// The exit status after the signal: 128 + its number, as shells report it.
    pub fn status() -> u8 {
        if SIGNAL.load(Ordering::Relaxed) == libc::SIGTERM {
            143
        } else {
            130
        }
    }
}

/// Elsewhere Ctrl+C ends the process as usual.
#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn catch() {}

    pub fn interrupted() -> bool {
        false
    }

    pub fn signal_name() -> &'static str {
        "interrupted (Ctrl+C)"
    }

    pub fn status() -> u8 {
        130
    }
}
