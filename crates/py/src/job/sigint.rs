//! Ctrl+C while a job runs on Python's main thread: a SIGINT handler chained in front of
//! Python's own (installed by the first job, and again by a job that finds Python's put back
//! by `signal.signal`). It cancels the running job (an atomic store) and calls Python's handler,
//! which notes the signal as it always does; after the job the caller runs Python's handlers
//! (`check_signals`), which raise KeyboardInterrupt. Between jobs it only adds a cancel that no
//! job sees to what Python does.
//!
//! The handler reaches the job through [`ROOT`], a control every main-thread job is made from
//! ([`Control::apart`]: cancelled with it). A root that was cancelled is replaced by a new one
//! and never freed, so a handler running late on another thread never touches freed memory (a
//! few bytes lost per Ctrl+C). Only Python's main thread installs the handler, one job at a
//! time (it is busy in the job meanwhile), so [`PREVIOUS`] has one writer.

#[cfg(unix)]
pub use imp::Chain;

/// Whether a handler can be chained here: where none is, a job on the main thread is watched
/// from the calling thread instead.
pub const UNIX: bool = cfg!(unix);

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

    use nimscope_core::solver::Control;

    /// The control main-thread jobs are made from (leaked: see the module's header).
    static ROOT: AtomicPtr<Control> = AtomicPtr::new(std::ptr::null_mut());
    /// Whether the handler ran since the last install.
    static FIRED: AtomicBool = AtomicBool::new(false);

    /// The handler that was installed before ours (Python's), which ours calls: its address,
    /// with the lowest bit set when it takes `siginfo` (SA_SIGINFO; a function's address is
    /// even). One word, so a handler running on another thread never reads half of it.
    static PREVIOUS: AtomicUsize = AtomicUsize::new(0);

    fn root() -> &'static Control {
        let p = ROOT.load(Ordering::Acquire);
        if !p.is_null() {
            // SAFETY: every pointer stored in ROOT comes from Box::leak and is never freed.
            return unsafe { &*p };
        }
        renew_root();
        // SAFETY: as above
        unsafe { &*ROOT.load(Ordering::Acquire) }
    }

    extern "C" fn on_sigint(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
        FIRED.store(true, Ordering::Relaxed);
        let p = ROOT.load(Ordering::Acquire);
        if !p.is_null() {
            // SAFETY: leaked, never freed; `cancel` is one atomic store (async-signal-safe).
            unsafe { (*p).cancel() };
        }
        let previous = PREVIOUS.load(Ordering::Acquire);
        let handler = previous & !1;
        if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
            return;
        }
        // SAFETY: the previous handler was installed for this signal, taking siginfo or not as
        // the low bit says: call it as the kernel would have.
        unsafe {
            if previous & 1 != 0 {
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(handler);
                f(signal, info, context);
            } else {
                let f: extern "C" fn(libc::c_int) = std::mem::transmute(handler);
                f(signal);
            }
        }
    }

    /// A job on the main thread under our handler.
    pub struct Chain {
        root: &'static Control,
    }

    impl Chain {
        /// Makes sure our handler is in front of the current one (one system call when it
        /// already is), unless the current one ignores SIGINT or is the default, which ends
        /// the process anyway: then `None`.
        pub fn install() -> Option<Chain> {
            // SAFETY: a zeroed sigaction is a valid value to be filled by the kernel.
            let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
            // SAFETY: reads the current disposition into `current`.
            if unsafe { libc::sigaction(libc::SIGINT, std::ptr::null(), &mut current) } != 0 {
                return None;
            }
            let ours = on_sigint as *const () as libc::sighandler_t;
            if current.sa_sigaction == libc::SIG_DFL || current.sa_sigaction == libc::SIG_IGN {
                return None;
            }
            if current.sa_sigaction != ours {
                let siginfo = usize::from(current.sa_flags & libc::SA_SIGINFO != 0);
                PREVIOUS.store(current.sa_sigaction | siginfo, Ordering::Release);
                let mut chained = current;
                chained.sa_sigaction = ours;
                chained.sa_flags = (current.sa_flags | libc::SA_SIGINFO) & !libc::SA_RESETHAND;
                // SAFETY: installs a handler that only stores atomics and calls the previous one.
                if unsafe { libc::sigaction(libc::SIGINT, &chained, std::ptr::null_mut()) } != 0 {
                    return None;
                }
            }
            // a Ctrl+C between two jobs was Python's to handle, not this job's
            FIRED.store(false, Ordering::Relaxed);
            if root().is_cancelled() {
                renew_root();
            }
            Some(Chain { root: root() })
        }

        /// The control a job under this handler is made from.
        pub fn control(&self) -> &'static Control {
            self.root
        }

        /// Whether Ctrl+C was pressed while the job ran (then a new root replaces the cancelled
        /// one). The handler stays: it only adds the cancel to what Python's does, and the next
        /// job then pays one system call instead of two.
        pub fn finish(self) -> bool {
            let fired = FIRED.swap(false, Ordering::Relaxed);
            if self.root.is_cancelled() {
                renew_root();
            }
            fired
        }
    }

    fn renew_root() {
        let fresh: &'static Control = Box::leak(Box::new(Control::with_budget(u64::MAX)));
        ROOT.store((fresh as *const Control).cast_mut(), Ordering::Release);
    }
}

/// Elsewhere no handler is chained: jobs on the main thread are watched from the calling thread.
#[cfg(not(unix))]
pub struct Chain;

#[cfg(not(unix))]
impl Chain {
    pub fn install() -> Option<Chain> {
        None
    }

    pub fn control(&self) -> &'static nimscope_core::solver::Control {
        unreachable!("no chain is installed on this platform")
    }

    pub fn finish(self) -> bool {
        false
    }
}
