//! Saving a checkpoint every few minutes on a thread of its own while a search runs, and
//! noticing an interrupt (Ctrl+C) in the meantime.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Checkpoint, CheckpointError};
use crate::solver::control::Control;

/// Saves a checkpoint every `every` on a thread of its own while a search runs.
pub struct Saver {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<Option<CheckpointError>>>,
}

impl Saver {
    /// Starts saving `checkpoint` every `every`; `interrupted()` is asked every 100 ms, and
    /// when it says yes the job's `control` is cancelled and the saver stops (the caller then
    /// saves once more, after the search has stopped).
    pub fn spawn(
        checkpoint: Arc<Checkpoint>,
        every: Duration,
        control: Control,
        interrupted: impl Fn() -> bool + Send + 'static,
    ) -> std::io::Result<Saver> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new().name("checkpoint".into()).spawn(move || {
            let mut last = Instant::now();
            let mut error = None;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100).min(every));
                if interrupted() {
                    control.cancel();
                    break;
                }
                if last.elapsed() >= every {
                    error = checkpoint.save().err();
                    last = Instant::now();
                }
            }
            error
        })?;
        Ok(Saver {
            stop,
            thread: Some(thread),
        })
    }

    /// Stops the thread; the last save's error, if it failed.
    pub fn stop(mut self) -> Option<CheckpointError> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.take().and_then(|t| t.join().ok().flatten())
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
