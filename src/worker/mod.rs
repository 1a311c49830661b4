//! The background solver: one named thread per lane, started on first use, so a long map job
//! never delays the inspector or the board editor. The UI submits a job on a lane (superseding
//! that lane's previous job, which stops at its next cancellation check), reads progress from
//! shared atomics every frame, and drains finished results. A job that panics becomes an error
//! response; the worker and the window stay alive. Each lane's thread keeps a [`LaneState`]
//! between jobs, so its caches (regions, sequences, Cram tables) serve the next request; they
//! count against the memory budget ([`lane_budget`]). A job may answer in parts before its
//! last answer (`Response::last`): the map's tile batches, and the Cram lane's partial
//! reports (the value first, then the placements as they are valued), and the quotient
//! window's misère quotient its stages.
//!
//! No GUI toolkit here: the owner passes a `wake` callback (the window's `request_repaint`).
//! A lane's thread is in `lane.rs`; what each kind of job computes, in `jobs.rs`.

mod jobs;
mod lane;
pub mod lane_budget;
pub mod protocol;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

pub use lane_budget::{Keeper, LaneState};
pub use protocol::{JobError, JobId, JobSpec, Lane, MapJob, Output, Response, TileBatch};

use nimscope_core::solver::Control;

use lane::{WAKE_EVERY, lane_loop};

/// What a lane's thread is sent: a job, or the word to forget its caches.
enum LaneMessage {
    /// Boxed: a request is large, and the word to forget carries nothing.
    Job(Box<Request>),
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
    /// How often partial answers may wake the owner, in milliseconds (shared with the lanes).
    wake_every: Arc<AtomicU64>,
}

/// Called after each response is sent, to wake the UI: with `true` for a job's last answer
/// (the window draws it at once), `false` for a part of one (the window may gather several).
pub type Wake = Arc<dyn Fn(bool) + Send + Sync>;

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
            wake_every: Arc::new(AtomicU64::new(WAKE_EVERY.as_millis() as u64)),
        }
    }

    /// Lets partial answers (a map's batches) wake the owner at most every `every`: a window
    /// whose frames are costly (a software renderer) asks to be woken less often, so the
    /// solver keeps the CPU.
    pub fn set_wake_every(&self, every: std::time::Duration) {
        self.wake_every.store(every.as_millis() as u64, Ordering::Relaxed);
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
            let every = self.wake_every.clone();
            let held = Arc::new(AtomicU64::new(0));
            let (budget, lane_held) = (self.memory_budget, held.clone());
            let thread = std::thread::Builder::new()
                .name(format!("nimscope-{lane:?}").to_lowercase())
                .spawn(move || lane_loop(rx, responses, wake, every, budget, &lane_held))
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
        if let Err(mpsc::SendError(LaneMessage::Job(request))) = self
            .lane_thread(lane)
            .requests
            .send(LaneMessage::Job(Box::new(request)))
        {
            // The lane's thread could not start: answer at once so the window shows why.
            self.running.remove(&lane);
            let _ = self.response_sender.send(Response {
                job: request.job,
                lane,
                spec: request.spec,
                result: Err(JobError::Failed("could not start a solver thread".into())),
                last: true,
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
                if resp.last {
                    self.running.remove(&resp.lane);
                }
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

/// A wake callback that does nothing (tests, the command line).
pub fn no_wake() -> Wake {
    Arc::new(|_| {})
}

/// Counts wake-ups (tests).
pub fn counting_wake() -> (Wake, Arc<Mutex<u64>>) {
    let n = Arc::new(Mutex::new(0));
    let m = n.clone();
    (Arc::new(move |_| *m.lock().unwrap_or_else(|e| e.into_inner()) += 1), n)
}

#[cfg(test)]
mod tests {
    use super::{JobError, JobSpec, Lane, MapJob, Output, Response, Worker, counting_wake, no_wake};
    use nimscope_core::game::Layout;
    use nimscope_core::raster::ColorMode;
    use nimscope_core::raster::CompareWith;
    use nimscope_core::solver::tiles::{CellRect, TileKey};
    use std::time::Duration;

    /// The map of the 64×64 cells below (n, n), at one cell a pooled cell.
    fn map_up_to(rules: &str, n: u64) -> JobSpec {
        let view = CellRect::new(n.saturating_sub(64)..n, n.saturating_sub(64)..n);
        JobSpec::Map(Box::new(MapJob {
            ruleset: rules.parse().unwrap(),
            layout: Layout::Plain,
            color: ColorMode::Outcome,
            pooling: nimscope_core::raster::Pooling::Least,
            compare: CompareWith::Nothing,
            level: 0,
            tiles: TileKey::covering(0, &view, (0.0, 0.0)),
            view,
            scale: None,
        }))
    }

    /// The responses of the lane's current job, up to its last.
    fn wait(w: &mut Worker) -> Vec<Response> {
        let mut out = Vec::new();
        for _ in 0..2000 {
            out.extend(w.drain(Duration::from_millis(5)));
            if out.last().is_some_and(|r| r.last) {
                return out;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("no last response within 10 s");
    }

    #[test]
    fn newer_job_supersedes_older_and_errors_are_reported() {
        let (wake, count) = counting_wake();
        let mut w = Worker::new(wake, 1 << 30);
        // (misère Wythoff: filled from the origin; far out, Wythoff's outcomes are a closed form)
        w.submit(Lane::Map, map_up_to("misere(wythoff)", 9000));
        let second = w.submit(Lane::Map, map_up_to("nim", 64));
        let r = wait(&mut w);
        assert!(r.iter().all(|r| r.job == second), "only the newer job answers");
        let tiles: Vec<_> = r
            .iter()
            .flat_map(|r| match &r.result {
                Ok(Output::Tiles(b)) => b.tiles.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        let t = &tiles.iter().find(|(k, _)| *k == TileKey::of_cell(0, 0)).unwrap().1;
        assert_eq!(t.key(3, 5), 6, "nim: 3 xor 5");
        assert!(matches!(&r.last().unwrap().result, Ok(Output::Tiles(b)) if b.max == Some(63)));
        assert!(*count.lock().unwrap() >= 1);
        // over the budget: a typed error, and the worker lives on
        w.submit(Lane::Map, map_up_to("misere(wythoff)", 1 << 20));
        let r = wait(&mut w);
        assert!(
            matches!(&r[0].result, Err(JobError::OverBudget { .. })),
            "{:?}",
            r[0].result
        );
        w.submit(Lane::Map, map_up_to("euclid", 16));
        assert!(wait(&mut w).iter().all(|r| r.result.is_ok()));
        // a ruleset without a map is refused as such
        w.submit(Lane::Map, map_up_to("octal(0.07)", 16));
        assert!(matches!(&wait(&mut w)[0].result, Err(JobError::Unsupported(_))));
    }

    #[test]
    fn cram_job_sends_the_value_first_then_the_report() {
        use nimscope_core::solver::cram::report::CramPhase;
        let mut w = Worker::new(no_wake(), 1 << 30);
        let board = "4x5".parse().unwrap();
        let job = w.submit(
            Lane::Cram,
            JobSpec::CramBoard {
                board,
                variant: CramPhase::Cram,
            },
        );
        let mut partial = Vec::new();
        let full = loop {
            let mut done = None;
            for r in wait(&mut w) {
                assert_eq!(r.job, job);
                match r.result {
                    Ok(Output::CramProgress(p)) => partial.push(p),
                    Ok(Output::Cram(full)) => done = Some(full),
                    other => panic!("{other:?}"),
                }
            }
            if let Some(full) = done {
                break full;
            }
            assert!(w.is_running(Lane::Cram), "a partial report leaves the job running");
        };
        assert!(!w.is_running(Lane::Cram));
        assert!(full.is_complete() && full.moves_total == 31);
        // 4×5 is a first-player win (Cram table); the value came before any placement
        assert_ne!(full.value, 0);
        assert!(partial[0].moves.is_empty() && partial[0].value == full.value);
        assert!(partial.iter().all(|p| !p.is_complete() && p.value == full.value));
    }

    #[test]
    fn cancel_drops_the_result() {
        let mut w = Worker::new(no_wake(), 1 << 30);
        w.submit(Lane::Map, map_up_to("wythoff", 6000));
        w.cancel(Lane::Map);
        assert!(!w.is_running(Lane::Map));
        std::thread::sleep(Duration::from_millis(50));
        assert!(w.drain(Duration::from_millis(5)).is_empty());
    }
}
