//! A lane's thread: it takes the newest request (superseded ones are cancelled unread), runs
//! it within the memory budget with the lane's caches, turns a panic into an error answer, and
//! sends the job's parts and last answer, waking the owner (parts at most every
//! [`WAKE_EVERY`] unless the owner says otherwise).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};

use super::jobs::run;
use super::lane_budget::{self, Keeper, LaneState};
use super::protocol::{JobError, Output, Response};
use super::{LaneMessage, Request, Wake};

/// How often a job's partial answers wake the window at most, after the first, unless the
/// owner says otherwise ([`Worker::set_wake_every`]).
pub(super) const WAKE_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

pub(super) fn lane_loop(
    requests: Receiver<LaneMessage>,
    responses: Sender<Response>,
    wake: Wake,
    wake_every: Arc<AtomicU64>,
    budget: u64,
    held: &AtomicU64,
) {
    let mut state = LaneState::new(budget);
    while let Ok(message) = requests.recv() {
        let mut job = None;
        // Only the newest request matters: skip those already superseded.
        for message in std::iter::once(message).chain(std::iter::from_fn(|| requests.try_recv().ok())) {
            match message {
                LaneMessage::Job(req) => {
                    if let Some(old) = job.replace(*req) {
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
            run_and_send(req, &mut state, &responses, &wake, &wake_every, held);
        }
    }
}

fn run_and_send(
    req: Request,
    state: &mut LaneState,
    responses: &Sender<Response>,
    wake: &Wake,
    wake_every: &AtomicU64,
    held: &AtomicU64,
) {
    if req.control.is_cancelled() {
        return;
    }
    let spec = req.spec.clone();
    let control = req.control.clone();
    // A map job's batches go out as they come, but after the first they wake the window at
    // most every `wake_every` (the window takes them all at its next frame): on a software
    // renderer each frame costs CPU the solver needs. The last answer always wakes it.
    let mut woken: Option<std::time::Instant> = None;
    let mut emit = |output: Output| {
        if !control.is_cancelled() {
            let _ = responses.send(Response {
                job: req.job,
                lane: req.lane,
                spec: req.spec.clone(),
                result: Ok(output),
                last: false,
            });
            let every = std::time::Duration::from_millis(wake_every.load(Ordering::Relaxed));
            if woken.is_none_or(|t| t.elapsed() >= every) {
                woken = Some(std::time::Instant::now());
                wake(false);
            }
        }
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lane_budget::run_within_budget(state, Keeper::of(&spec), &control, |state, control| {
            run(&spec, state, control, &mut emit)
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
        last: true,
    });
    wake(true);
}
