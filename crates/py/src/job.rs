//! How a call into the core runs: with the GIL released (other Python threads run meanwhile,
//! and two threads computing at once take about half the time), under a memory budget and a
//! number of threads, cancelled by Ctrl+C within a fraction of a second, and showing progress
//! when asked.
//!
//! On Python's main thread (where KeyboardInterrupt is raised) the work runs on the calling
//! thread with a SIGINT handler chained in front of Python's while it runs ([`sigint`]): the
//! handler cancels the job, the job stops at its next check (every few milliseconds), and
//! Python's own handler raises KeyboardInterrupt. A call of a few microseconds pays two system
//! calls, not a thread. With `progress=`, or where no handler can be chained, the work runs on
//! a thread of its own while the calling thread wakes every 50 ms to run Python's signal
//! handlers and report progress. Other threads run the work themselves (Python raises
//! KeyboardInterrupt only in the main thread).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

use nimscope_core::query::QueryError;
use nimscope_core::solver::Control;

use crate::errors::{Kind, to_py};

mod sigint;

/// The memory budget of calls that give none (`nimscope.set_memory_budget`).
static DEFAULT_BUDGET: AtomicU64 = AtomicU64::new(nimscope_core::solver::budget::DEFAULT);
/// The threads of calls that give none (0: every core).
static DEFAULT_THREADS: AtomicUsize = AtomicUsize::new(0);

/// How often the calling thread looks at signals and progress while a watched job runs.
const POLL: Duration = Duration::from_millis(50);
/// How often a progress callback is called.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// A memory budget from Python: a number of bytes, or a size such as `"512M"` or `"4G"` (as the
/// command line's `--memory-budget` takes it).
pub fn budget_arg(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(n) = value.extract::<u64>() {
        return Ok(n);
    }
    let text: String = value
        .extract()
        .map_err(|_| PyValueError::new_err("a memory budget is a number of bytes or a size such as '512M' or '4G'"))?;
    nimscope_core::solver::budget::parse_bytes(&text).map_err(|e| PyValueError::new_err(format!("memory budget: {e}")))
}

/// A number of threads from Python: 1 to 1024.
pub fn threads_arg(value: usize) -> PyResult<usize> {
    if (1..=1024).contains(&value) {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!(
            "{value} is not a number of threads from 1 to 1024"
        )))
    }
}

/// Sets the memory budget of calls that give none.
pub fn set_default_budget(bytes: u64) {
    DEFAULT_BUDGET.store(bytes, Ordering::Relaxed);
}

/// The memory budget of calls that give none.
pub fn default_budget() -> u64 {
    DEFAULT_BUDGET.load(Ordering::Relaxed)
}

/// Sets the threads of calls that give none (`None`: every core).
pub fn set_default_threads(threads: Option<usize>) {
    DEFAULT_THREADS.store(threads.unwrap_or(0), Ordering::Relaxed);
}

/// The threads of calls that give none.
pub fn default_threads() -> Option<usize> {
    Some(DEFAULT_THREADS.load(Ordering::Relaxed)).filter(|&n| n > 0)
}

/// One call's settings: its budget, threads and progress reporter.
pub struct Job {
    budget: u64,
    threads: Option<usize>,
    /// A callable `f(done, total)`, or the package's reporter (`nimscope._progress.Reporter`),
    /// which is also told the stage and closed at the end.
    progress: Option<Py<PyAny>>,
}

impl Job {
    /// A job with the given settings, the defaults where `None`; `progress` is `True`
    /// (a tqdm bar, or a line on stderr), a callable, or `None`/`False`.
    pub fn new(
        py: Python<'_>,
        budget: Option<u64>,
        threads: Option<usize>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Job> {
        let progress = match progress {
            None => None,
            Some(p) if p.is_none() => None,
            Some(p) => match p.extract::<bool>() {
                Ok(false) => None,
                Ok(true) => Some(py.import("nimscope._progress")?.getattr("Reporter")?.call0()?.unbind()),
                Err(_) if p.is_callable() => Some(p.clone().unbind()),
                Err(_) => {
                    return Err(PyValueError::new_err(
                        "progress is True, False, None or a callable f(done, total)",
                    ));
                }
            },
        };
        Ok(Job {
            budget: budget.unwrap_or_else(default_budget),
            threads: threads.or_else(default_threads),
            progress,
        })
    }

    fn control(&self, parent: Option<&Control>) -> Control {
        let c = match parent {
            // a job of its own under the handler's control: cancelled with it, counting its own progress
            Some(p) => p.apart().with_budget_at_most(self.budget),
            None => Control::with_budget(self.budget),
        };
        match self.threads {
            Some(n) => c.with_threads(n),
            None => c,
        }
    }

    /// Runs `work` with the GIL released, as the module's header says; a refusal becomes its
    /// Python exception, Ctrl+C a KeyboardInterrupt.
    pub fn run<T, F>(self, py: Python<'_>, work: F) -> PyResult<T>
    where
        T: Send,
        F: FnOnce(&Control) -> Result<T, QueryError> + Send,
    {
        let result = if self.progress.is_some() {
            self.run_watched(py, work)
        } else if is_main_thread(py) {
            match sigint::Chain::install() {
                Some(chain) => {
                    let control = self.control(Some(chain.control()));
                    let r = py.detach(|| work(&control));
                    let interrupted = chain.finish();
                    match r {
                        Err(_) if interrupted && control.is_cancelled() => Err(Stop::Interrupted),
                        r => r.map_err(Stop::Failed),
                    }
                }
                // SIGINT ignored, or the default (which ends the process): nothing to watch
                None if sigint::UNIX => {
                    let control = self.control(None);
                    py.detach(|| work(&control)).map_err(Stop::Failed)
                }
                None => self.run_watched(py, work),
            }
        } else {
            let control = self.control(None);
            py.detach(|| work(&control)).map_err(Stop::Failed)
        };
        match result {
            Ok(v) => Ok(v),
            Err(Stop::Failed(e)) => Err(to_py(&e)),
            Err(Stop::Interrupted) => {
                // Python's handler was told too: it raises KeyboardInterrupt (or whatever the
                // program's own handler raises); if it raises nothing, the job still stopped
                py.check_signals()?;
                Err(PyKeyboardInterrupt::new_err("interrupted"))
            }
            Err(Stop::Python(e)) => Err(e),
        }
    }

    /// Runs `work` on a thread of its own while this thread runs Python's signal handlers and
    /// reports progress every [`POLL`].
    fn run_watched<T, F>(&self, py: Python<'_>, work: F) -> Result<T, Stop>
    where
        T: Send,
        F: FnOnce(&Control) -> Result<T, QueryError> + Send,
    {
        let control = self.control(None);
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let worker_control = control.clone();
        let result = std::thread::scope(|s| {
            let spawned = std::thread::Builder::new()
                .name("nimscope-job".into())
                .spawn_scoped(s, move || {
                    let _ = tx.send(work(&worker_control));
                });
            if let Err(e) = spawned {
                return Err(Stop::Python(Kind::Error.err(format!("could not start a thread: {e}"))));
            }
            self.watch(py, &control, rx)
        });
        if let Some(p) = &self.progress {
            close_reporter(py, p);
        }
        result
    }

    /// Waits for the worker's answer on `rx`, running signal handlers and reporting progress.
    fn watch<T>(
        &self,
        py: Python<'_>,
        control: &Control,
        mut rx: std::sync::mpsc::Receiver<Result<T, QueryError>>,
    ) -> Result<T, Stop>
    where
        T: Send,
    {
        let mut python_error: Option<PyErr> = None;
        let mut last_report = Instant::now();
        loop {
            // the receiver travels into the wait and back (it may not be shared between threads)
            let (back, answer) = py.detach(move || {
                let answer = rx.recv_timeout(POLL);
                (rx, answer)
            });
            rx = back;
            match answer {
                Ok(Ok(v)) => return python_error.map_or(Ok(v), |e| Err(Stop::Python(e))),
                Ok(Err(e)) => return Err(python_error.map_or(Stop::Failed(e), Stop::Python)),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Stop::Python(
                        Kind::Error.err("the job's thread stopped without an answer"),
                    ));
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            if python_error.is_some() {
                continue; // cancelled: waiting for the job to stop
            }
            if let Err(e) = py.check_signals() {
                control.cancel();
                python_error = Some(e);
                continue;
            }
            if let Some(p) = &self.progress
                && last_report.elapsed() >= REPORT_EVERY
            {
                last_report = Instant::now();
                if let Err(e) = report(py, p, control) {
                    // a progress callback that raises stops the job with its exception
                    control.cancel();
                    python_error = Some(e);
                }
            }
        }
    }
}

/// Why a job gave no value.
enum Stop {
    Failed(QueryError),
    /// Cancelled by Ctrl+C.
    Interrupted,
    Python(PyErr),
}

/// Calls the progress reporter: the package's own with the stage too.
fn report(py: Python<'_>, progress: &Py<PyAny>, control: &Control) -> PyResult<()> {
    let (done, total) = control.progress();
    let p = progress.bind(py);
    if p.hasattr("nimscope_update")? {
        p.call_method1("nimscope_update", (done, total, control.stage()))?;
    } else {
        p.call1((done, total))?;
    }
    Ok(())
}

/// Closes the package's reporter (its bar or line) at the end of a job.
fn close_reporter(py: Python<'_>, progress: &Py<PyAny>) {
    let p = progress.bind(py);
    if p.hasattr("nimscope_update").unwrap_or(false) {
        let _ = p.call_method0("close");
    }
}

/// Whether this is the thread Python delivers signals to (its main thread); asked once a thread.
fn is_main_thread(py: Python<'_>) -> bool {
    thread_local! {
        static MAIN: std::cell::OnceCell<bool> = const { std::cell::OnceCell::new() };
    }
    MAIN.with(|m| {
        *m.get_or_init(|| {
            let ask = || -> PyResult<bool> {
                let threading = py.import("threading")?;
                let main = threading.call_method0("main_thread")?.getattr("ident")?;
                let here = threading.call_method0("get_ident")?;
                main.eq(here)
            };
            ask().unwrap_or(false)
        })
    })
}
