//! One job's state as the window shows it ([`JobState`]): queued, running with its progress,
//! held back with its reason, done, cancelled, or failed with its reason. The centre, the
//! status bar with its progress bar, and the inspector each read one value of it for a job, so
//! no two of them say different things of the same job (a failed job no longer "computing" in
//! the centre while the status bar says why in red, a cancelled fill no longer at "43 %" with
//! nothing running, a view refused for its tiles no longer "queued").

use nimscope_core::solver::control::Control;

/// What became of one job of the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobState {
    /// Wanted, not started yet (the first view not yet fitted, a moving view not yet asked).
    Queued,
    /// Under way: `done` of `total` units (`total` 0 when the size is unknown), and the part
    /// under way when it is counted apart (a misère sequence's quotient first), else empty.
    Running { done: u64, total: u64, stage: String },
    /// Not asked for, and why: what it needs is refused before it starts (a view that needs
    /// more map tiles than may be kept); it is asked again when what it needs changes (the
    /// view zoomed in).
    Held(String),
    /// Finished: its result is shown.
    Done,
    /// Stopped by Cancel: nothing more comes until the user asks again.
    Cancelled,
    /// Could not be done, and why.
    Failed(String),
}

impl JobState {
    /// Whether the job is wanted and not finished: only then does the window say it works.
    pub fn is_working(&self) -> bool {
        matches!(self, JobState::Queued | JobState::Running { .. })
    }

    /// The fraction done, for a progress bar: only for a job running with a known size.
    pub fn fraction(&self) -> Option<f32> {
        match self {
            JobState::Running { done, total, .. } if *total > 0 => Some((*done as f64 / *total as f64).min(1.0) as f32),
            _ => None,
        }
    }

    /// A job under way on the worker, its progress read from its `control`.
    pub fn of_control(control: &Control) -> JobState {
        let (done, total) = control.progress();
        JobState::Running {
            done,
            total,
            stage: control.stage(),
        }
    }

    /// The count of a running job's progress, `unit` what it counts: "1.2 k of 4.0 k heaps", or
    /// "3.1 M positions searched" when its size is unknown; nothing before its first count (a
    /// job waiting for another's growth of a shared misère quotient has none yet, and "0 of …"
    /// says a stall that is not there); the status bar and the inspector both say it.
    pub fn count_text(&self, unit: &str) -> Option<String> {
        match self {
            JobState::Running { done: 0, .. } => None,
            JobState::Running { done, total: 0, .. } => Some(format!("{} {unit} searched", count_text(*done))),
            JobState::Running { done, total, .. } => {
                Some(format!("{} of {} {unit}", count_text(*done), count_text(*total)))
            }
            _ => None,
        }
    }

    /// What the centre says of a job computing `what` (such as "G(0..600)") where its result
    /// will be shown.
    pub fn centre_text(&self, what: &str) -> String {
        match self {
            JobState::Queued => format!("{what} is queued…"),
            JobState::Running { stage, .. } if !stage.is_empty() => {
                format!("computing {what}: {stage}…")
            }
            JobState::Running { .. } => match self.fraction() {
                Some(f) => format!("computing {what}… {:.0} %", f * 100.0),
                None => format!("computing {what}…"),
            },
            JobState::Held(why) => format!("{what} held back: {why}"),
            JobState::Done => format!("{what} computed"),
            JobState::Cancelled => format!("{what}: stopped by Cancel"),
            JobState::Failed(why) => format!("Not computed: {why}"),
        }
    }
}

/// A count in a few digits: 830, 12.5 k, 16.8 M.
pub fn count_text(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", n as f64 / 1e3),
        _ => format!("{:.1} M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::JobState;

    #[test]
    fn only_a_job_wanted_and_unfinished_is_working() {
        let running = JobState::Running {
            done: 150,
            total: 600,
            stage: String::new(),
        };
        assert!(JobState::Queued.is_working() && running.is_working());
        let held = JobState::Held("the view needs more than 64 MiB of map tiles".into());
        for s in [
            JobState::Done,
            JobState::Cancelled,
            JobState::Failed("why".into()),
            held,
        ] {
            assert!(!s.is_working(), "{s:?}");
            assert_eq!(s.fraction(), None, "no progress bar for {s:?}");
            assert!(!s.centre_text("G(0..600)").starts_with("computing"), "{s:?}");
        }
        assert_eq!(running.fraction(), Some(0.25));
        assert_eq!(running.count_text("heaps").as_deref(), Some("150 of 600 heaps"));
        let unsized_ = JobState::Running {
            done: 12_500,
            total: 0,
            stage: String::new(),
        };
        assert_eq!(
            unsized_.count_text("positions").as_deref(),
            Some("12.5 k positions searched")
        );
        assert_eq!(JobState::Done.count_text("heaps"), None);
        let not_counted = JobState::Running {
            done: 0,
            total: 0,
            stage: String::new(),
        };
        assert_eq!(not_counted.count_text("positions"), None, "nothing counted yet");
        let waiting = JobState::Running {
            done: 0,
            total: 20,
            stage: String::new(),
        };
        assert_eq!(
            waiting.count_text("heaps"),
            None,
            "no '0 of 20 heaps' before the first count"
        );
        assert_eq!(running.centre_text("G(0..600)"), "computing G(0..600)… 25 %");
        assert_eq!(
            JobState::Failed("not a finite game".into()).centre_text("G(0..600)"),
            "Not computed: not a finite game"
        );
    }
}
