//! Cancellation and progress for long solver jobs, shared between the job and its owner.
//!
//! A job polls [`Control::check`] in its inner loop (at least every few milliseconds of work);
//! the owner (the command line, a worker thread, a test) flips the cancel flag from another
//! thread and reads progress from the atomics every frame, so progress never queues up.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Default memory budget for one job ([`super::budget::DEFAULT`]).
pub const DEFAULT_MEMORY_BUDGET: u64 = super::budget::DEFAULT;

/// Why a solver job did not produce an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The owner cancelled the job.
    #[error("cancelled")]
    Cancelled,
    /// The job would exceed the memory budget; refused before or while it runs.
    #[error("{}", over_budget_message(what, *needed, *budget))]
    OverBudget {
        /// The job, in words (e.g. `the search of '3,5' in nim`).
        what: String,
        /// Bytes it would need (or has reached, when refused as it grew).
        needed: u64,
        /// The memory budget, in bytes.
        budget: u64,
    },
    /// The job cannot be done (a question the ruleset or solver cannot answer); the message says why.
    #[error("{0}")]
    Unsupported(String),
    /// A typed rule failed at a position (arithmetic, too many options) or its game is not
    /// finite (it grows without bound).
    #[error("{0}")]
    Rule(String),
    /// A position leads back to itself (the message shows the cycle found): a solver for
    /// finite games stops here, and the game is valued as a game that loops
    /// ([`super::loopy`]) where the caller can.
    #[error("{0}")]
    Loops(String),
    /// Heaps whose search is refused (`search`: its size, said for what was asked) and which
    /// the misère quotient, asked to grow to heap `reach`, does not reach either (`quotient`:
    /// the limit it stopped at): both reasons in one line.
    #[error("{search}; nor does the misère quotient reach heap {reach}: {quotient}")]
    PastQuotient {
        /// Why the search is refused.
        search: Box<SolveError>,
        /// The heap the quotient was asked to reach.
        reach: u64,
        /// Why the quotient stopped before it.
        quotient: Box<SolveError>,
    },
}

impl SolveError {
    /// The error of a typed rule computed as the built-in ruleset it equals
    /// ([`super::equivalent`]): the message names the built-in, so it says why.
    pub fn computed_as(self, builtin: &crate::game::Ruleset) -> SolveError {
        let note = format!(" (the typed rule is computed as {builtin}, which it equals)");
        match self {
            SolveError::OverBudget { what, needed, budget } => SolveError::OverBudget {
                what: format!("{what}{note}"),
                needed,
                budget,
            },
            SolveError::Unsupported(m) => SolveError::Unsupported(m + &note),
            SolveError::Rule(m) => SolveError::Rule(m + &note),
            // said once, at the end of the line
            SolveError::PastQuotient {
                search,
                reach,
                quotient,
            } => SolveError::PastQuotient {
                search,
                reach,
                quotient: Box::new(quotient.computed_as(builtin)),
            },
            e @ (SolveError::Cancelled | SolveError::Loops(_)) => e,
        }
    }
}

impl From<crate::game::rules::typed::RuleError> for SolveError {
    fn from(e: crate::game::rules::typed::RuleError) -> Self {
        match e {
            // the caller's stop flag, polled inside a long position
            crate::game::rules::typed::RuleError::Stopped => SolveError::Cancelled,
            e => SolveError::Rule(e.to_string()),
        }
    }
}

/// Why a job over the memory budget was refused: what it would need and what the budget is.
pub fn over_budget_message(what: &str, needed: u64, budget: u64) -> String {
    // a job refused as it grows knows only that it went past the budget: "would need 16.0 MiB
    // but the budget is 16.0 MiB" would read as a contradiction
    if needed <= budget.saturating_add(budget / 8) {
        return format!(
            "{what} outgrew the memory budget of {} as it ran; ask for less, or raise the budget",
            human_bytes(budget)
        );
    }
    format!(
        "{what} would need about {}, over the memory budget of {}; ask for less, or raise the budget",
        human_bytes(needed),
        human_bytes(budget)
    )
}

/// Formats a byte count as `1.5 GiB`, `12 MiB`, ...
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Cancel flag, progress counters and memory budget of one job. Cheap to clone: clones share
/// the same flag and counters.
#[derive(Debug, Clone)]
pub struct Control {
    cancelled: Arc<AtomicBool>,
    /// The cancel flags of the controls this one was made from ([`Control::child`]).
    parents: Vec<Arc<AtomicBool>>,
    done: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
    memory_budget: u64,
    /// Threads the job may use (`None`: the solver's own choice, by default every core).
    threads: Option<usize>,
    /// What part of a job of several parts runs now (`check`: the row and board), for the
    /// progress line; empty for a job of one part.
    stage: Arc<std::sync::Mutex<String>>,
}

impl Default for Control {
    fn default() -> Self {
        Self::new()
    }
}

impl Control {
    /// A control with the default memory budget, [`DEFAULT_MEMORY_BUDGET`].
    pub fn new() -> Self {
        Self::with_budget(DEFAULT_MEMORY_BUDGET)
    }

    /// A control allowing the job `memory_budget` bytes.
    pub fn with_budget(memory_budget: u64) -> Self {
        Self {
            cancelled: Arc::new(AtomicBool::new(false)),
            parents: Vec::new(),
            done: Arc::new(AtomicU64::new(0)),
            total: Arc::new(AtomicU64::new(0)),
            memory_budget,
            threads: None,
            stage: Arc::default(),
        }
    }

    /// The same control with a number of threads for the job (the command line's
    /// `--threads`; at least 1).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads.max(1));
        self
    }

    /// Threads the job may use, if the owner chose (`None`: every core).
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// Bytes of memory the job may use.
    pub fn memory_budget(&self) -> u64 {
        self.memory_budget
    }

    /// The same job (its cancel flag and progress) with at most `budget` bytes of memory: for
    /// a job that must leave room for what its owner already holds (a worker lane's caches).
    pub fn with_budget_at_most(&self, budget: u64) -> Control {
        Control {
            memory_budget: self.memory_budget.min(budget),
            ..self.clone()
        }
    }

    /// Asks the job to stop; it returns [`SolveError::Cancelled`] at its next check.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether this control, or one it was made from, was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed) || self.parents.iter().any(|p| p.load(Ordering::Relaxed))
    }

    /// A control for one part of this job (one branch of a parallel search): it shares the
    /// progress counters and the budget, is cancelled with this control, and can also be
    /// cancelled on its own without stopping the rest of the job.
    pub fn child(&self) -> Control {
        let mut parents = self.parents.clone();
        parents.push(self.cancelled.clone());
        Control {
            cancelled: Arc::new(AtomicBool::new(false)),
            parents,
            done: self.done.clone(),
            total: self.total.clone(),
            memory_budget: self.memory_budget,
            threads: self.threads,
            stage: self.stage.clone(),
        }
    }

    /// A control for a computation inside this job that counts its own progress (a misère
    /// quotient computed to answer a map or a sequence, whose heaps are not the job's
    /// units): cancelled with this control, within its budget.
    pub fn apart(&self) -> Control {
        let mut c = self.child();
        c.done = Arc::new(AtomicU64::new(0));
        c.total = Arc::new(AtomicU64::new(0));
        c
    }

    /// `Err(Cancelled)` once [`Control::cancel`] has been called.
    #[inline]
    pub fn check(&self) -> Result<(), SolveError> {
        if self.is_cancelled() {
            Err(SolveError::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Refuses a job whose estimated memory exceeds the budget, before it allocates.
    pub fn reserve(&self, what: impl Into<String>, needed: u64) -> Result<(), SolveError> {
        if needed > self.memory_budget {
            Err(SolveError::OverBudget {
                what: what.into(),
                needed,
                budget: self.memory_budget,
            })
        } else {
            Ok(())
        }
    }

    /// Runs `f` with this job's stop flag and memory budget in force for every typed rule it
    /// evaluates on this thread: a position with many loop steps stops within milliseconds
    /// of a cancel, and its options are bounded by what the budget can hold.
    pub fn rules_within<R>(&self, f: impl FnOnce() -> R) -> R {
        // an option held costs about its heaps and its place in a list: 128 bytes
        self.rules_within_options(self.memory_budget / 128, f)
    }

    /// [`Control::rules_within`] with at most `max_options` options a position (a listing
    /// that holds them all takes fewer than a fill that folds them into a mex).
    pub fn rules_within_options<R>(&self, max_options: u64, f: impl FnOnce() -> R) -> R {
        use crate::game::rules::typed::run;
        let me = self.clone();
        let limits = run::Limits {
            stop: std::rc::Rc::new(move || me.is_cancelled()),
            max_options: max_options.clamp(1024, run::MAX_OPTIONS),
        };
        run::with_limits(limits, f)
    }

    /// Starts a part of a job of several parts: names it for the progress line and counts
    /// its progress from zero (so one part's total is not compared with all parts' steps).
    pub fn set_stage(&self, stage: impl Into<String>) {
        if let Ok(mut s) = self.stage.lock() {
            *s = stage.into();
        }
        self.done.store(0, Ordering::Relaxed);
        self.total.store(0, Ordering::Relaxed);
    }

    /// The part of the job running now (empty: the job has one part).
    pub fn stage(&self) -> String {
        self.stage.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Sets the units of work the job will do (0: unknown).
    pub fn set_total(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
    }

    /// Records `n` more units of work done.
    pub fn add_done(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// `(done, total)` units of work; `total` is 0 when unknown.
    pub fn progress(&self) -> (u64, u64) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }
}

/// Counts the steps of a hot search loop and polls a [`Control`] once every `EVERY` of them:
/// checking for cancellation and adding to the progress on every step would cost more than the
/// step itself.
#[derive(Debug, Default, Clone, Copy)]
pub struct StepCounter<const EVERY: u64> {
    pending: u64,
}

impl<const EVERY: u64> StepCounter<EVERY> {
    /// One more step; every `EVERY` steps, stops on cancellation and reports the progress.
    #[inline]
    pub fn step(&mut self, control: &Control) -> Result<(), SolveError> {
        self.pending += 1;
        if self.pending >= EVERY {
            control.check()?;
            control.add_done(self.pending);
            self.pending = 0;
        }
        Ok(())
    }

    /// Reports the steps not yet reported (at the end of a search).
    pub fn flush(&mut self, control: &Control) {
        control.add_done(std::mem::take(&mut self.pending));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_share_progress_and_follow_their_parents() {
        let job = Control::new();
        let branch = job.child();
        let leaf = branch.child();
        leaf.add_done(3);
        assert_eq!(job.progress().0, 3);
        branch.cancel();
        assert!(leaf.is_cancelled() && branch.is_cancelled());
        assert!(!job.is_cancelled(), "a branch stops without stopping the job");
        let other = job.child();
        job.cancel();
        assert!(other.check().is_err());
    }
}
