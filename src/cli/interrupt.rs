//! Ctrl+C (and SIGTERM) for every command: the first one sets a flag instead of ending the process, and the
//! command's watcher ([`super::progress`]) cancels the job, which stops at its next check and
//! reports "interrupted" (a checkpointed Cram search saves first and says how to resume). A
//! second Ctrl+C ends the process at once (the handler restores the default on its first
//! call). Output that streams for long (`seq`) polls the flag between blocks. The message and
//! the exit status say which signal it was: "interrupted (Ctrl+C)" and 130, or "terminated
//! (SIGTERM)" and 143. SIGXCPU (the soft processor-time limit of `ulimit -S -t`, as the record
//! sweeps use it) stops the same way, so a checkpointed run saves before the hard limit ends it:
//! "stopped at the processor-time limit (SIGXCPU)" and 152.

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
        // A second Ctrl+C stops at once. SIGXCPU comes again every second of processor time
        // past the soft limit: those are ignored, the hard limit ends the process if the save
        // does not. (signal() is async-signal-safe.)
        let then = if signal == libc::SIGXCPU {
            libc::SIG_IGN
        } else {
            libc::SIG_DFL
        };
        // SAFETY: sets the disposition of the signal caught to a constant one.
        unsafe {
            libc::signal(signal, then);
        }
    }

    /// From now on the first Ctrl+C sets the flag instead of ending the process, and so does
    /// the first SIGTERM (a scheduler stopping a job: a checkpointed unit saves before it ends).
    pub fn catch() {
        // SAFETY: the handler only stores to an atomic and calls signal().
        unsafe {
            libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
            libc::signal(libc::SIGTERM, on_sigint as *const () as libc::sighandler_t);
            libc::signal(libc::SIGXCPU, on_sigint as *const () as libc::sighandler_t);
        }
    }

    pub fn interrupted() -> bool {
        INTERRUPTED.load(Ordering::Relaxed)
    }

    /// How the stop is said: "interrupted (Ctrl+C)", "terminated (SIGTERM)" or "stopped at the
    /// processor-time limit (SIGXCPU)".
    pub fn signal_name() -> &'static str {
        match SIGNAL.load(Ordering::Relaxed) {
            libc::SIGTERM => "terminated (SIGTERM)",
            libc::SIGXCPU => "stopped at the processor-time limit (SIGXCPU)",
            _ => "interrupted (Ctrl+C)",
        }
    }

    /// The exit status after the signal: 128 + its number, as shells report it.
    pub fn status() -> u8 {
        match SIGNAL.load(Ordering::Relaxed) {
            libc::SIGTERM => 143,
            libc::SIGXCPU => 152,
            _ => 130,
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
