//! One job's state as the window shows it ([`JobState`]): queued, running with its progress,
//! held back (with its reason), done, cancelled, or failed with its reason. The centre, the status bar with its progress
//! bar, and the inspector each read one value of it for a job, so no two of them say different
//! things of the same job (a failed job no longer "computing" in the centre while the status
//! bar says why in red, a cancelled fill no longer at "43 %" with nothing running).

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
        assert_eq!(running.centre_text("G(0..600)"), "computing G(0..600)… 25 %");
        assert_eq!(
            JobState::Failed("not a finite game".into()).centre_text("G(0..600)"),
            "Not computed: not a finite game"
        );
    }
}
