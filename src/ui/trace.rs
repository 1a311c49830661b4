//! `NIMSCOPE_TRACE=FILE`: the window appends one JSON object per frame to FILE, so its speed
//! can be measured from outside (a script drives the real window and reads the file):
//! `{"t": seconds since start, "frame_ms": the app's own work in the frame (logic and ui, not
//! the GPU), "cells_done": n, "cells_in_view": n}`, and `{"t": …, "event": "map-complete"}`
//! each time every cell in view has its final value (and colour).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::Instant;

/// The trace file and what it has said.
pub struct Trace {
    out: BufWriter<File>,
    start: Instant,
    /// Whether the view was complete at the last frame (the event is written on the change).
    complete: bool,
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
        }))
    }

    /// Records one frame. Written at once (a script reads the file while the window runs); a
    /// write that fails is dropped, never a reason to stop the window.
    pub fn frame(&mut self, frame_ms: f64, cells_done: u64, cells_in_view: u64, complete: bool) {
        let t = self.start.elapsed().as_secs_f64();
        let _ = writeln!(
            self.out,
            "{{\"t\":{t:.4},\"frame_ms\":{frame_ms:.3},\"cells_done\":{cells_done},\"cells_in_view\":{cells_in_view}}}"
        );
        if complete && !self.complete {
            let _ = writeln!(self.out, "{{\"t\":{t:.4},\"event\":\"map-complete\"}}");
        }
        self.complete = complete;
        let _ = self.out.flush();
    }
}
