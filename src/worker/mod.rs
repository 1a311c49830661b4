//! The background solver: one named thread per lane, started on first use, so a long map job
//! never delays the inspector or the board editor. The UI submits a job on a lane (superseding
//! that lane's previous job, which stops at its next cancellation check), reads progress from
//! shared atomics every frame, and drains finished results. A job that panics becomes an error
//! response; the worker and the window stay alive. Each lane's thread keeps a [`LaneState`]
//! between jobs, so its caches (regions, sequences, Cram tables) serve the next request; they
//! count against the memory budget ([`lane_budget`]).
//!
//! No GUI toolkit here: the owner passes a `wake` callback (the window's `request_repaint`).

pub mod lane_budget;
pub mod protocol;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub use lane_budget::{Keeper, LaneState};
pub use protocol::{JobError, JobId, JobSpec, Lane, Output, Response};

use crate::figure::{make_figure, write_figure};
use crate::solver::cram_report::cram_report;
use crate::solver::sequence::sequence;
use crate::solver::tiles::TileSource;
use crate::solver::{Control, SolveError};

/// What a lane's thread is sent: a job, or the word to forget its caches.
enum LaneMessage {
    Job(Request),
    /// Drop what the lane keeps between jobs (the user's Cancel gives the memory back).
    Free,
}

struct Request {
    job: JobId,
    lane: Lane,
    spec: JobSpec,
    control: Control,
}

/// A job that has been submitted and not yet answered.
#[derive(Debug, Clone)]
pub struct Running {
    pub job: JobId,
    pub lane: Lane,
    pub spec: JobSpec,
    pub control: Control,
    pub started: std::time::Instant,
}

/// One lane's thread and the channel feeding it.
struct LaneThread {
    requests: Sender<LaneMessage>,
    thread: Option<JoinHandle<()>>,
    /// What the lane's caches hold, as of its last job or `Free`.
    held: Arc<AtomicU64>,
}

/// Handle to the worker threads; dropping it stops and joins them.
pub struct Worker {
    lanes: HashMap<Lane, LaneThread>,
    responses: Receiver<Response>,
    /// Cloned into each lane's thread.
    response_sender: Sender<Response>,
    wake: Wake,
    running: HashMap<Lane, Running>,
    next_id: u64,
    memory_budget: u64,
}

/// Called after each response is sent, to wake the UI.
pub type Wake = Arc<dyn Fn() + Send + Sync>;

impl Worker {
    pub fn new(wake: Wake, memory_budget: u64) -> Self {
        let (response_sender, responses) = mpsc::channel::<Response>();
        Self {
            lanes: HashMap::new(),
            responses,
            response_sender,
            wake,
            running: HashMap::new(),
            next_id: 0,
            memory_budget,
        }
    }

    /// The memory budget every job gets.
    pub fn memory_budget(&self) -> u64 {
        self.memory_budget
    }

    fn lane_thread(&mut self, lane: Lane) -> &LaneThread {
        self.lanes.entry(lane).or_insert_with(|| {
            let (requests, rx) = mpsc::channel::<LaneMessage>();
            let responses = self.response_sender.clone();
            let wake = self.wake.clone();
            let held = Arc::new(AtomicU64::new(0));
            let (budget, lane_held) = (self.memory_budget, held.clone());
            let thread = std::thread::Builder::new()
                .name(format!("nimscope-{lane:?}").to_lowercase())
                .spawn(move || lane_loop(rx, responses, wake, budget, &lane_held))
                .ok();
            LaneThread { requests, thread, held }
        })
    }

    /// Starts `spec` on `lane`, cancelling the lane's previous job.
    pub fn submit(&mut self, lane: Lane, spec: JobSpec) -> JobId {
        self.cancel(lane);
        self.next_id += 1;
        let job = JobId(self.next_id);
        let control = Control::with_budget(self.memory_budget);
        control.set_total(spec.size());
        let running = Running {
            job,
            lane,
            spec: spec.clone(),
            control: control.clone(),
            started: std::time::Instant::now(),
        };
        self.running.insert(lane, running);
        let request = Request {
            job,
            lane,
            spec,
            control,
        };
        if let Err(mpsc::SendError(LaneMessage::Job(request))) =
            self.lane_thread(lane).requests.send(LaneMessage::Job(request))
        {
            // The lane's thread could not start: answer at once so the window shows why.
            self.running.remove(&lane);
            let _ = self.response_sender.send(Response {
                job: request.job,
                lane,
                spec: request.spec,
                result: Err(JobError::Failed("could not start a solver thread".into())),
            });
        }
        job
    }

    /// Stops the lane's job, if any; its result will be dropped.
    pub fn cancel(&mut self, lane: Lane) {
        if let Some(r) = self.running.remove(&lane) {
            r.control.cancel();
        }
    }

    /// Stops the lane's job and has its thread drop what it keeps between jobs (caches,
    /// tables), so the memory is given back: the status bar's Cancel. The next job on the
    /// lane starts from nothing.
    pub fn cancel_and_free(&mut self, lane: Lane) {
        self.cancel(lane);
        if let Some(t) = self.lanes.get(&lane) {
            let _ = t.requests.send(LaneMessage::Free);
        }
    }

    /// What `lane`'s caches hold between jobs (at most the memory budget), as of its last job
    /// or [`Worker::cancel_and_free`].
    pub fn cached_bytes(&self, lane: Lane) -> u64 {
        self.lanes.get(&lane).map_or(0, |t| t.held.load(Ordering::Relaxed))
    }

    /// The jobs still running, for the status bar.
    pub fn running(&self) -> impl Iterator<Item = &Running> {
        self.running.values()
    }

    pub fn is_running(&self, lane: Lane) -> bool {
        self.running.contains_key(&lane)
    }

    /// Finished results of current jobs (superseded ones are dropped), within a time budget so a
    /// burst of results never stalls a frame.
    pub fn drain(&mut self, budget: std::time::Duration) -> Vec<Response> {
        let start = std::time::Instant::now();
        let mut out = Vec::new();
        while start.elapsed() < budget {
            let Ok(resp) = self.responses.try_recv() else { break };
            if self.running.get(&resp.lane).is_some_and(|r| r.job == resp.job) {
                self.running.remove(&resp.lane);
                out.push(resp);
            }
        }
        out
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        for r in self.running.values() {
            r.control.cancel();
        }
        // Dropping each sender closes its channel: the lane's loop ends.
        for (_, lane) in self.lanes.drain() {
            let LaneThread { requests, thread, .. } = lane;
            drop(requests);
            if let Some(t) = thread {
                let _ = t.join();
            }
        }
    }
}

/// How long a tile job goes on past its first tile before answering.
const TILE_BATCH: std::time::Duration = std::time::Duration::from_millis(100);

fn lane_loop(requests: Receiver<LaneMessage>, responses: Sender<Response>, wake: Wake, budget: u64, held: &AtomicU64) {
    let mut state = LaneState::new(budget);
    while let Ok(message) = requests.recv() {
        let mut job = None;
        // Only the newest request matters: skip those already superseded.
        for message in std::iter::once(message).chain(std::iter::from_fn(|| requests.try_recv().ok())) {
            match message {
                LaneMessage::Job(req) => {
                    if let Some(old) = job.replace(req) {
                        old.control.cancel();
                    }
                }
                LaneMessage::Free => {
                    state = LaneState::new(budget);
                    lane_budget::return_freed_memory();
                }
            }
        }
        held.store(state.bytes(), Ordering::Relaxed);
        if let Some(req) = job {
            run_and_send(req, &mut state, &responses, &wake, held);
        }
    }
}

fn run_and_send(req: Request, state: &mut LaneState, responses: &Sender<Response>, wake: &Wake, held: &AtomicU64) {
    if req.control.is_cancelled() {
        return;
    }
    let spec = req.spec.clone();
    let control = req.control.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lane_budget::run_within_budget(state, Keeper::of(&spec), &control, |state, control| {
            run(&spec, state, control)
        })
    }));
    if result.is_err() {
        // a panic may have left the caches half-updated
        *state = LaneState::new(control.memory_budget());
    }
    // what the caches hold is known before the answer is
    held.store(state.bytes(), Ordering::Relaxed);
    let result = match result {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(JobError::Cancelled)) => return,
        Ok(Err(e)) => Err(e),
        Err(panic) => Err(JobError::Failed(format!(
            "the solver failed unexpectedly ({}); the window keeps running",
            panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or(panic.downcast_ref::<&str>().copied())
                .unwrap_or("panic")
        ))),
    };
    let _ = responses.send(Response {
        job: req.job,
        lane: req.lane,
        spec: req.spec,
        result,
    });
    wake();
}

fn run(spec: &JobSpec, state: &mut LaneState, control: &Control) -> Result<Output, JobError> {
    Ok(match spec {
        JobSpec::Tiles { ruleset, layout, tiles } => {
            let source = match &mut state.tiles {
                Some(s) if s.serves(ruleset, layout) => s,
                slot => slot.insert(TileSource::new(ruleset, layout)),
            };
            control.set_total(tiles.iter().map(|&k| source.work(k)).sum());
            let start = std::time::Instant::now();
            let mut out = Vec::new();
            for &key in tiles {
                if !out.is_empty() && start.elapsed() > TILE_BATCH {
                    break;
                }
                match source.tile(key, control) {
                    Ok(t) => out.push((key, Arc::new(t))),
                    // the tiles finished so far are good; the next job meets the error again
                    Err(e) if out.is_empty() || e == SolveError::Cancelled => return Err(e.into()),
                    Err(_) => break,
                }
            }
            Output::Tiles(out)
        }
        JobSpec::Sequence { ruleset, n } => Output::Sequence(Arc::new(sequence(ruleset, *n, control)?)),
        JobSpec::CramBoard { board, variant } => {
            Output::Cram(Arc::new(cram_report(board, *variant, &mut state.cram, control)?))
        }
        JobSpec::Position {
            ruleset,
            position,
            limit,
        } => Output::Position(Arc::new(crate::solver::report::report(
            &mut state.evaluator,
            ruleset,
            position,
            *limit,
            control,
        )?)),
        JobSpec::Export { spec, path } => {
            let figure = make_figure(spec, control)?;
            control.check()?;
            write_figure(&figure, path)?;
            Output::Exported {
                path: path.clone(),
                width: figure.image.width(),
                height: figure.image.height(),
            }
        }
    })
}

/// A wake callback that does nothing (tests, the command line).
pub fn no_wake() -> Wake {
    Arc::new(|| {})
}

/// Counts wake-ups (tests).
pub fn counting_wake() -> (Wake, Arc<Mutex<u64>>) {
    let n = Arc::new(Mutex::new(0));
    let m = n.clone();
    (Arc::new(move || *m.lock().unwrap_or_else(|e| e.into_inner()) += 1), n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Layout;
    use crate::solver::tiles::{TILE, TileKey};
    use std::time::Duration;

    /// The map tile holding cell (n - 1, n - 1): filling it fills the map up to row n.
    fn tile_at(rules: &str, n: u64) -> JobSpec {
        let k = (n - 1) / TILE;
        JobSpec::Tiles {
            ruleset: rules.parse().unwrap(),
            layout: Layout::Plain,
            tiles: vec![TileKey { row: k, col: k }],
        }
    }

    fn wait(w: &mut Worker) -> Vec<Response> {
        for _ in 0..2000 {
            let r = w.drain(Duration::from_millis(5));
            if !r.is_empty() {
                return r;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("no response within 10 s");
    }

    #[test]
    fn newer_job_supersedes_older_and_errors_are_reported() {
        let (wake, count) = counting_wake();
        let mut w = Worker::new(wake, 1 << 30);
        w.submit(Lane::Map, tile_at("wythoff", 9000));
        let second = w.submit(Lane::Map, tile_at("nim", 64));
        let r = wait(&mut w);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].job, second);
        assert!(matches!(&r[0].result, Ok(Output::Tiles(t)) if t[0].1.get(3, 5) == Some(6)));
        assert!(*count.lock().unwrap() >= 1);
        // over the budget: a typed error, and the worker lives on
        w.submit(Lane::Map, tile_at("wythoff", 1 << 20));
        let r = wait(&mut w);
        assert!(
            matches!(&r[0].result, Err(JobError::OverBudget { .. })),
            "{:?}",
            r[0].result
        );
        w.submit(Lane::Compare, tile_at("euclid", 16));
        assert!(wait(&mut w)[0].result.is_ok());
        // a ruleset without a map is refused as such
        w.submit(Lane::Map, tile_at("octal(0.07)", 16));
        assert!(matches!(&wait(&mut w)[0].result, Err(JobError::Unsupported(_))));
    }

    #[test]
    fn cancel_drops_the_result() {
        let mut w = Worker::new(no_wake(), 1 << 30);
        w.submit(Lane::Map, tile_at("wythoff", 6000));
        w.cancel(Lane::Map);
        assert!(!w.is_running(Lane::Map));
        std::thread::sleep(Duration::from_millis(50));
        assert!(w.drain(Duration::from_millis(5)).is_empty());
    }
}
