//! The root's search on every core: the question "is your value v?" goes to the root's
//! options on all threads at once; each thread takes the next option in order and the first
//! option of value v stops the others (`mex_parallel`). The threads share the tables, so what
//! one learns the others use. When no option is left to take, a thread helps one still being
//! searched: it asks the same question with the options below taken from the other end, so
//! the two meet in the middle, each reading what the other has stored; whichever finishes
//! first answers and stops the other. So both cores work to the end of each round. Values
//! never depend on the number of threads, only the time does.

use super::solver::{CramSolver, Opt, PARALLEL_MIN_CELLS, Res, single};
use crate::game::rules::cram_board::low_bits;
use crate::solver::control::{Control, SolveError};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// An option of the root, handed to the threads of `mex_parallel`.
#[derive(Debug, Clone)]
struct RootTask {
    /// Its components whose values are not known.
    comps: Vec<(u128, usize)>,
    /// XOR of the values of the others.
    xor: u32,
    cells: u32,
}

impl CramSolver {
    /// Whether the value of a set of cells (stride `w`) is 0, searching the largest
    /// component's options on every thread.
    pub(super) fn sum_is_zero_parallel(&mut self, cells: u128, w: usize, control: &Control) -> Res<bool> {
        let base = self.comps.len();
        let (mut xor, n, _) = self.push_components(cells, w);
        let result = (|| {
            let Some(last) = (n as usize).checked_sub(1) else {
                return Ok(xor == 0);
            };
            for i in 0..last {
                let (k, kw) = self.comps[base + i];
                xor ^= self.root_nimber(k, kw, control)?;
            }
            let (k, kw) = self.comps[base + last];
            Ok(self.root_search(k, kw, xor, control)? == Some(xor))
        })();
        self.comps.truncate(base);
        result
    }

    /// Exact value of a component at the root of a request: its options are searched on
    /// every thread.
    pub(super) fn root_nimber(&mut self, key: u128, w: usize, control: &Control) -> Res<u32> {
        if self.threads <= 1 || key.count_ones() < PARALLEL_MIN_CELLS {
            return self.nimber(key, w, control);
        }
        match self.root_search(key, w, u32::MAX, control)? {
            Some(v) => Ok(v),
            None => Err(SolveError::Unsupported(
                "internal: unbounded root search gave no value".into(),
            )),
        }
    }

    /// The value of a component if it is at most `limit` (`None`: it is larger), found by the
    /// mex search of `mex_by_search` with the options of each round spread over the threads.
    pub(super) fn root_search(&mut self, key: u128, w: usize, limit: u32, control: &Control) -> Res<Option<u32>> {
        if self.threads <= 1 || key.count_ones() < PARALLEL_MIN_CELLS {
            // Not worth a thread: the one-thread search, asking about `0..=limit` at once.
            let found = if limit < 127 {
                self.nimber_in_set(key, w, low_bits(limit as usize + 1), control)?
            } else {
                Some(self.nimber(key, w, control)?)
            };
            return Ok(found.filter(|&v| v <= limit));
        }
        let info = self.info(key, w);
        if let Some(v) = info.exact {
            self.hits += 1;
            return Ok((v <= limit).then_some(v));
        }
        let answer = self.in_frame(|s| {
            let base = s.opts.len();
            match s.push_options(key, w, 0) {
                Ok((known, count)) => s.mex_parallel(base, known, count, limit, control),
                Err(_) => Err(SolveError::Unsupported("internal: option generation stopped".into())),
            }
        })?;
        Ok(self.record(key, w, answer, low_bits(limit as usize + 1)))
    }

    /// `mex_by_search` on several threads, up to `limit`: for v = 0, 1, ..., the options not
    /// settled yet are asked "is your value v?" by all threads at once, each taking the next
    /// option in order; the first option of value v stops the round. The table is shared, so
    /// what one thread learns the others use.
    fn mex_parallel(
        &mut self,
        base: usize,
        known: [u64; 4],
        count: u32,
        limit: u32,
        control: &Control,
    ) -> Res<Option<u32>> {
        let tasks: Vec<RootTask> = self.opts[base..]
            .iter()
            .map(|o| RootTask {
                comps: self.comps[o.first as usize..(o.first + o.len) as usize].to_vec(),
                xor: o.xor,
                cells: o.cells,
            })
            .collect();
        while self.helpers.len() + 1 < self.threads {
            let helper = CramSolver::with_table_bytes(self.table_bytes).with_threads(1);
            self.helpers.push(helper);
        }
        for h in &mut self.helpers {
            h.table = self.table.clone();
            h.opts.clear();
            h.comps.clear();
        }
        let mut known = known;
        let mut live: Vec<usize> = (0..tasks.len()).collect();
        let mut v = 0;
        while v <= count {
            if v > limit {
                return Ok(None);
            }
            if v < 256 && known[(v / 64) as usize] >> (v % 64) & 1 == 1 {
                v += 1;
                continue;
            }
            let round = Round::new(control, live.len());
            let mut helpers = std::mem::take(&mut self.helpers);
            let mut answers = Vec::new();
            std::thread::scope(|scope| {
                let (tasks, live, round) = (&tasks, &live, &round);
                // Options are taken from a shared counter, so a helper the system refuses a
                // thread for only leaves its share to the others.
                let handles: Vec<_> = helpers
                    .iter_mut()
                    .enumerate()
                    .filter_map(|(i, h)| {
                        std::thread::Builder::new()
                            .name(format!("cram-search-{}", i + 1))
                            .spawn_scoped(scope, move || h.answer_round(tasks, live, v, round))
                            .ok()
                    })
                    .collect();
                answers = self.answer_round(tasks, live, v, round);
                for h in handles {
                    match h.join() {
                        Ok(more) => answers.extend(more),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
            });
            self.helpers = helpers;
            control.check()?;
            let mut found = false;
            let mut answered = 0;
            for (i, answer) in answers {
                match answer {
                    Ok(Some(x)) => {
                        live.retain(|&j| j != i);
                        if x == v {
                            found = true;
                        } else if x < 256 {
                            known[(x / 64) as usize] |= 1 << (x % 64);
                        }
                    }
                    Ok(None) => answered += 1,
                    // Stopped because another option had value v.
                    Err(SolveError::Cancelled) => {}
                    Err(e) => return Err(e),
                }
            }
            if found {
                v += 1;
            } else if answered == live.len() {
                // No option has value v.
                return Ok(Some(v));
            }
            // Otherwise a round ended early without finding v (it cannot happen, as only
            // finding v stops a round): ask again.
        }
        // The mex of `count` values is at most `count`.
        Ok((count <= limit).then_some(count))
    }

    /// One thread's share of a round of `mex_parallel`: takes the next option of `live` until
    /// none is left or the round is stopped, and asks it whether its value is `v`; then helps
    /// with the options other threads are still searching. Returns the answers it gave first.
    fn answer_round(
        &mut self,
        tasks: &[RootTask],
        live: &[usize],
        v: u32,
        round: &Round,
    ) -> Vec<(usize, Res<Option<u32>>)> {
        let mut out = Vec::new();
        while !round.all.is_cancelled() {
            let taken = round.next.fetch_add(1, Ordering::Relaxed);
            let (j, helping) = if taken < live.len() {
                (taken, false)
            } else {
                // Nothing left to take: help the first option still being searched.
                match (0..live.len()).find(|&j| round.state[j].load(Ordering::Relaxed) == SEARCHING) {
                    Some(j) => (j, true),
                    None => break,
                }
            };
            let task = &tasks[live[j]];
            let base = self.comps.len();
            self.comps.extend_from_slice(&task.comps);
            let mut opt = Opt {
                first: base as u32,
                len: task.comps.len() as u32,
                xor: task.xor,
                cells: task.cells,
                moves: 0,
            };
            self.reverse_next = helping;
            let answer = self.option_value_in_set(&mut opt, v, single(v), &round.task[j]);
            self.reverse_next = false;
            self.comps.truncate(base);
            if answer == Err(SolveError::Cancelled) && !round.all.is_cancelled() {
                // Another thread answered this option first.
                continue;
            }
            let first = round.state[j]
                .compare_exchange(SEARCHING, DONE, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
            if !first {
                continue;
            }
            // Stops whoever else is searching it.
            round.task[j].cancel();
            if answer == Ok(Some(v)) {
                round.all.cancel();
            }
            let failed = answer.is_err();
            out.push((live[j], answer));
            if failed {
                break;
            }
        }
        self.steps.flush(&round.all);
        self.report_filled();
        out
    }
}

/// State of an option in a round: being searched (by one thread or more), or answered.
const SEARCHING: u8 = 0;
const DONE: u8 = 1;

/// One round of `mex_parallel`: the options of `live` asked "is your value v?".
struct Round {
    /// Stops the whole round (an option of value v was found, or the job was cancelled).
    all: Control,
    /// The next option to take.
    next: AtomicUsize,
    /// Per option of `live`: its state, and a control that stops its searches once one
    /// thread has answered it.
    state: Vec<AtomicU8>,
    task: Vec<Control>,
}

impl Round {
    fn new(control: &Control, options: usize) -> Round {
        let all = control.child();
        Round {
            next: AtomicUsize::new(0),
            state: (0..options).map(|_| AtomicU8::new(SEARCHING)).collect(),
            task: (0..options).map(|_| all.child()).collect(),
            all,
        }
    }
}
