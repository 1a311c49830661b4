//! Units at work: a unit that starts a search writes `DIR/running/unit-K.json` (its host,
//! process, job, round and question), refreshes the file's time while it searches, and
//! removes it when it ends, whatever the end, short of being killed outright. `--status` reads
//! these to tell running units from pending ones; a marker whose process is gone (on this
//! host) or that has not been refreshed for a while (on another) is reported as stale: that
//! unit was killed, and its round's combine step will see it unanswered.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::PlanError;

/// What a running unit says about itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    /// The unit, numbered from 0.
    pub unit: usize,
    /// The round it answers, when a scheduler records rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Its question, as [`super::rounds::ask_to_json`] writes it.
    pub asked: serde_json::Value,
    /// The machine it runs on.
    pub host: String,
    /// Its process id on that machine.
    pub pid: u32,
    /// The Slurm job (array job and task) when run by Slurm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
    /// Seconds since 1970 when it started.
    pub started: u64,
    /// Seconds between two refreshes of the file.
    pub refresh: u64,
}

/// How a marker looks to a reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Liveness {
    /// Its process is alive (this host) or it was refreshed lately (another host).
    Running,
    /// Its process is gone, or it has not been refreshed for three of its periods.
    Stale,
}

/// The folder of the markers, and unit `k`'s in it.
pub fn running_dir(dir: &Path) -> PathBuf {
    dir.join("running")
}

/// Unit `k`'s marker in the plan's folder `dir`.
pub fn marker_path(dir: &Path, k: usize) -> PathBuf {
    running_dir(dir).join(format!("unit-{k}.json"))
}

/// This machine's name.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".into())
}

/// Seconds since 1970 (0 on a clock before it).
pub fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// A marker written; removed when dropped.
pub struct Guard {
    path: PathBuf,
}

impl Guard {
    /// Writes `marker` into the plan's folder `dir`.
    pub fn start(dir: &Path, marker: &Marker) -> Result<Guard, PlanError> {
        let path = marker_path(dir, marker.unit);
        super::write_json(&path, marker)?;
        Ok(Guard { path })
    }
}

/// Refreshes the time of unit `k`'s marker (a reader on another host sees that it still runs).
pub fn refresh(dir: &Path, k: usize) {
    if let Ok(f) = std::fs::OpenOptions::new().append(true).open(marker_path(dir, k)) {
        let _ = f.set_modified(SystemTime::now());
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The markers in `dir`, each with how it looks now (files that are not markers are left
/// out).
pub fn list(dir: &Path) -> Vec<(Marker, Liveness)> {
    let Ok(listing) = std::fs::read_dir(running_dir(dir)) else {
        return Vec::new();
    };
    let here = host_name();
    let mut out: Vec<(Marker, Liveness)> = listing
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let bytes = crate::files::read_bounded(&e.path(), 64 << 10, "a marker").ok()?;
            let marker: Marker = serde_json::from_slice(&bytes).ok()?;
            let age = e
                .metadata()
                .ok()?
                .modified()
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .unwrap_or(Duration::ZERO);
            let alive = if marker.host == here {
                process_alive(marker.pid)
            } else {
                age.as_secs() <= 3 * marker.refresh.max(1) + 60
            };
            Some((marker, if alive { Liveness::Running } else { Liveness::Stale }))
        })
        .collect();
    out.sort_by_key(|(m, _)| m.unit);
    out
}

/// Whether a process of this host is alive (where that cannot be told: yes).
fn process_alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}
