//! The watcher of a running command, on a thread of its own: it cancels the job on Ctrl+C
//! ([`super::interrupt`]), and on a terminal shows the job's progress on stderr after a second,
//! five times a second: the share done and an estimate of the time left when the job knows its
//! total (a sequence, a map, the check table's maps), else the steps taken (a Cram search,
//! whose size is not known before it ends), with the time spent. Scripts reading a pipe see
//! nothing extra. The line is erased when the command ends.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nimscope_core::solver::Control;

/// The watcher; [`Watcher::stop`] ends it and erases its line.
pub struct Watcher {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Watcher {
    /// Starts watching `control` (Ctrl+C is caught from now on).
    pub fn start(control: &Control) -> Watcher {
        super::interrupt::catch();
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, control) = (stop.clone(), control.clone());
        let show = std::io::stderr().is_terminal();
        let handle = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || watch(&flag, &control, show))
            .ok();
        Watcher { stop, handle }
    }

    pub fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn watch(stop: &AtomicBool, control: &Control, show: bool) {
    let start = Instant::now();
    // the estimate of the time left is the running part's, from when it started
    let (mut stage, mut stage_start) = (String::new(), start);
    let mut shown = 0usize;
    let mut tick = 0u64;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if super::interrupt::interrupted() {
            control.cancel();
        }
        tick += 1;
        if show && tick.is_multiple_of(4) && start.elapsed() >= Duration::from_secs(1) {
            let (done, total) = control.progress();
            let now = control.stage();
            if now != stage {
                (stage, stage_start) = (now, Instant::now());
            }
            let line = progress_line(&stage, done, total, start.elapsed(), stage_start.elapsed());
            eprint!("\r{line}{}", " ".repeat(shown.saturating_sub(line.chars().count())));
            shown = line.chars().count();
        }
    }
    if shown > 0 {
        eprint!("\r{}\r", " ".repeat(shown));
    }
}

/// `  working: 45%, 12 s, about 15 s left (Ctrl+C stops)`, or the steps when the total is not
/// known (only the time when nothing is counted); a job of several parts names the one running (`working on …:`), whose share done
/// and time spent on it (`on_stage`) give the estimate.
pub fn progress_line(stage: &str, done: u64, total: u64, spent: Duration, on_stage: Duration) -> String {
    let secs = spent.as_secs_f64();
    let how = if total > 0 {
        let share = done.min(total) as f64 / total as f64;
        // a linear estimate, once there is something to go by
        let left = if (0.01..1.0).contains(&share) {
            let part = on_stage.as_secs_f64();
            format!(", about {} left", duration_text(part * (1.0 - share) / share))
        } else {
            String::new()
        };
        format!("{:.0}%, {}{left}", 100.0 * share, duration_text(secs))
    } else if done > 0 {
        format!("{done} steps, {}", duration_text(secs))
    } else {
        // a part that counts nothing of its own (a misère quotient's growth): "0 steps" would
        // read as stuck
        duration_text(secs)
    };
    let on = if stage.is_empty() {
        String::new()
    } else {
        format!(" on {stage}")
    };
    format!("  working{on}: {how} (Ctrl+C stops)")
}

fn duration_text(secs: f64) -> String {
    match secs {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::progress_line;

    #[test]
    fn the_line_says_share_time_and_estimate() {
        assert_eq!(
            progress_line("", 25, 100, Duration::from_secs(10), Duration::from_secs(10)),
            "  working: 25%, 10 s, about 30 s left (Ctrl+C stops)"
        );
        assert_eq!(
            progress_line(
                "seed 003 Prop 5.0.2 (i), board 2×30",
                7,
                0,
                Duration::from_secs(300),
                Duration::from_secs(3)
            ),
            "  working on seed 003 Prop 5.0.2 (i), board 2×30: 7 steps, 5 min (Ctrl+C stops)"
        );
        // too early for an estimate
        assert_eq!(
            progress_line("", 0, 100, Duration::from_secs(2), Duration::from_secs(2)),
            "  working: 0%, 2 s (Ctrl+C stops)"
        );
        // a part that counts nothing: its time only
        assert_eq!(
            progress_line(
                "the misère quotient of octal(0.07) up to heap 100",
                0,
                0,
                Duration::from_secs(6),
                Duration::from_secs(6)
            ),
            "  working on the misère quotient of octal(0.07) up to heap 100: 6 s (Ctrl+C stops)"
        );
    }
}
