//! `NIMSCOPE_TRACE=FILE`: the window appends one JSON object per frame to FILE, so its speed
//! can be measured from outside (a script drives the real window and reads the file):
//! `{"t": seconds since start, "frame_ms": the app's own work in the frame (logic and ui, not
//! the GPU), "cells_done": n, "cells_in_view": n}`, and `{"t": …, "event": "map-complete",
//! "rows": [start, end], "cols": [start, end]}` each time every cell in view (those rows and
//! columns) has its final value (and colour); `{"t": …, "event": "map-job" | "map-batch" |
//! "map-done", "n": …}` when the map's worker is asked (the cells) or answers (the tiles). On
//! Linux each frame also carries `"frame_cpu_ms"`: the CPU time of the window's thread in the frame, which other
//! processes on a busy machine do not inflate (`frame_ms` is wall-clock time), and under a
//! software renderer `"renderer_cpu_ms"`: the CPU its threads spent since the last frame (mostly
//! drawing that frame, which happens after the frame's own work). A frame also
//! names why it was drawn (`"causes"`: the `file:line` of each repaint request egui saw before
//! it, and `"events"`: the kinds of input events it received) and the worker's lanes running
//! (`"lanes"`): under a software renderer every frame costs the solver its CPU, so each one has
//! to be accounted for.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::Instant;

/// The time a frame took: wall-clock, and the window thread's CPU time where it can be read.
#[derive(Debug, Clone, Copy)]
pub struct FrameTime {
    pub wall_ms: f64,
    pub cpu_ms: Option<f64>,
}

/// Measures one frame.
pub struct FrameTimer {
    wall: Instant,
    cpu: Option<f64>,
}

impl FrameTimer {
    pub fn start() -> Self {
        Self {
            wall: Instant::now(),
            cpu: thread_cpu_ms(),
        }
    }

    pub fn stop(&self) -> FrameTime {
        FrameTime {
            wall_ms: self.wall.elapsed().as_secs_f64() * 1e3,
            cpu_ms: self.cpu.zip(thread_cpu_ms()).map(|(a, b)| b - a),
        }
    }
}

/// The CPU time of the calling thread, in milliseconds.
#[cfg(target_os = "linux")]
fn thread_cpu_ms() -> Option<f64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec for the call to write; the clock id is a constant.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    ok.then(|| ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_ms() -> Option<f64> {
    None
}

/// The CPU time the software renderer's threads (Mesa's `llvmpipe-N`, which lavapipe
/// rasterizes on) have spent so far, in milliseconds; `None` where it cannot be read (no such
/// thread: a GPU, or not Linux).
#[cfg(target_os = "linux")]
fn renderer_cpu_ms() -> Option<f64> {
    let mut ns = 0u64;
    let mut found = false;
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let path = task.path();
        let is_renderer = std::fs::read_to_string(path.join("comm")).is_ok_and(|c| c.starts_with("llvmpipe"));
        // schedstat's first field: the nanoseconds the thread has run
        let ran = std::fs::read_to_string(path.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|f| f.parse::<u64>().ok()));
        if let (true, Some(ran)) = (is_renderer, ran) {
            ns += ran;
            found = true;
        }
    }
    found.then(|| ns as f64 / 1e6)
}

#[cfg(not(target_os = "linux"))]
fn renderer_cpu_ms() -> Option<f64> {
    None
}

/// The trace file and what it has said.
pub struct Trace {
    out: BufWriter<File>,
    start: Instant,
    /// Whether the view was complete at the last frame (the event is written on the change).
    complete: bool,
    /// The renderer's threads' CPU time at the last frame.
    renderer_ms: Option<f64>,
}

impl Trace {
    /// The trace `NIMSCOPE_TRACE` asks for, if any; a file that cannot be opened is an error.
    pub fn from_env() -> Result<Option<Trace>, String> {
        let Some(path) = std::env::var_os("NIMSCOPE_TRACE") else {
            return Ok(None);
        };
        let file = File::options()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("NIMSCOPE_TRACE: could not open {}: {e}", path.to_string_lossy()))?;
        Ok(Some(Trace {
            out: BufWriter::new(file),
            start: Instant::now(),
            complete: false,
            renderer_ms: None,
        }))
    }

    /// Records what draws the window (once, at the first frame), so a measurement says whether
    /// it ran on a GPU or a software renderer.
    pub fn renderer(&mut self, adapter: &str, software: bool) {
        let t = self.start.elapsed().as_secs_f64();
        let adapter = adapter.replace(['"', '\\'], "'");
        let _ = writeln!(
            self.out,
            "{{\"t\":{t:.4},\"event\":\"renderer\",\"adapter\":\"{adapter}\",\"software\":{software}}}"
        );
    }

    /// Records what the map's worker was asked or answered (`map-job`: a job submitted,
    /// `map-batch`: its tiles received, `map-done`: its last answer), with a number (cells
    /// asked for, tiles received).
    pub fn map_event(&mut self, event: &str, n: u64) {
        let t = self.start.elapsed().as_secs_f64();
        let _ = writeln!(self.out, "{{\"t\":{t:.4},\"event\":\"{event}\",\"n\":{n}}}");
    }

    /// Records one frame. Written at once (a script reads the file while the window runs); a
    /// write that fails is dropped, never a reason to stop the window.
    /// `view`: the cells in view (rows, then columns), named in the map-complete event so a
    /// script can compute the same cells with the command line.
    pub fn frame(
        &mut self,
        frame: FrameTime,
        (cells_done, cells_in_view): (u64, u64),
        complete: bool,
        view: &nimscope_core::camera::CellRect,
        (causes, lanes, events): (&[String], &[String], &[String]),
    ) {
        let t = self.start.elapsed().as_secs_f64();
        let mut cpu = frame
            .cpu_ms
            .map_or(String::new(), |c| format!(",\"frame_cpu_ms\":{c:.3}"));
        // what the software renderer spent since the last frame: drawing that frame, mostly
        let renderer = renderer_cpu_ms();
        if let Some(spent) = renderer.zip(self.renderer_ms).map(|(now, then)| now - then) {
            cpu.push_str(&format!(",\"renderer_cpu_ms\":{spent:.3}"));
        }
        self.renderer_ms = renderer;
        let list = |xs: &[String]| {
            let quoted: Vec<String> = xs
                .iter()
                .map(|x| format!("\"{}\"", x.replace(['"', '\\'], "'")))
                .collect();
            quoted.join(",")
        };
        let _ = writeln!(
            self.out,
            "{{\"t\":{t:.4},\"frame_ms\":{:.3}{cpu},\"cells_done\":{cells_done},\"cells_in_view\":{cells_in_view},\"causes\":[{}],\"lanes\":[{}],\"events\":[{}]}}",
            frame.wall_ms,
            list(causes),
            list(lanes),
            list(events)
        );
        if complete && !self.complete {
            let _ = writeln!(
                self.out,
                "{{\"t\":{t:.4},\"event\":\"map-complete\",\"rows\":[{},{}],\"cols\":[{},{}]}}",
                view.rows.start, view.rows.end, view.cols.start, view.cols.end
            );
        }
        self.complete = complete;
        let _ = self.out.flush();
    }
}
