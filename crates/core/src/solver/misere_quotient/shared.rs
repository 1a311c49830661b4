//! Growths under way, shared between the jobs of one process: at most one thread grows a
//! code's quotient at a time. The window asks for one code's quotient from several jobs at
//! once (the quotient view for its bound, the one-heap sequence and the map for the heaps they
//! show); another job asking while a growth is under way waits for it instead of growing the
//! same heaps again: the growth hands over its quotient when it reaches the heaps the waiting
//! job asked for (the growth's quotient there is the quotient for exactly those heaps), or the
//! waiting job goes on, once the growth ends, from what the cache then keeps
//! ([`super::cache`]).
//!
//! The heaps each code's growths added are counted ([`heaps_added`]): one growth shared shows
//! as each heap added once.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use super::Quotient;
use crate::game::rules::one_heap::OctalCode;
use crate::solver::control::{Control, SolveError};

/// How often a waiting job looks whether it was cancelled.
const POLL: Duration = Duration::from_millis(50);

/// One code's growth under way, and what it has handed over.
#[derive(Default)]
struct Flight {
    /// Whether a thread grows the code now, the bound it asked for, and the heaps its growth
    /// has reached.
    growing: bool,
    target: u16,
    reached: u16,
    /// The elements of the growth's quotient at `reached`.
    reached_size: usize,
    /// The exact bounds waiting jobs ask for, with how many jobs wait for each.
    wanted: BTreeMap<u16, usize>,
    /// Quotients for exact bounds, grown for waiting jobs not all of which took them yet.
    ready: HashMap<u16, Arc<Quotient>>,
}

impl Flight {
    /// One job waiting for exactly `heaps` stops waiting.
    fn unwant(&mut self, heaps: u16) {
        if let Some(n) = self.wanted.get_mut(&heaps) {
            *n -= 1;
            if *n == 0 {
                self.wanted.remove(&heaps);
                self.ready.remove(&heaps);
            }
        }
    }

    fn is_idle(&self) -> bool {
        !self.growing && self.wanted.is_empty() && self.ready.is_empty()
    }
}

#[derive(Default)]
struct Flights {
    by_code: HashMap<OctalCode, Flight>,
    heaps_added: HashMap<OctalCode, u64>,
}

fn flights() -> &'static (Mutex<Flights>, Condvar) {
    static FLIGHTS: OnceLock<(Mutex<Flights>, Condvar)> = OnceLock::new();
    FLIGHTS.get_or_init(Default::default)
}

fn lock() -> MutexGuard<'static, Flights> {
    // the table stays consistent through a panic elsewhere: each change is one statement
    flights().0.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The right to grow a code's quotient; dropping it lets the next waiting job go on.
pub(super) struct Claim {
    code: OctalCode,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut f = lock();
        if let Some(flight) = f.by_code.get_mut(&self.code) {
            flight.growing = false;
            flight.reached = 0;
            flight.reached_size = 0;
            if flight.is_idle() {
                f.by_code.remove(&self.code);
            }
        }
        flights().1.notify_all();
    }
}

/// What a job asking for a code's quotient gets: the right to grow it, or the quotient for
/// the exact bound it asked for, grown by another job meanwhile, or the word to grow it alone
/// (an exact bound below the heaps the growth under way has already passed, which it will not
/// hand over: that job grows its smaller quotient afresh, keeping nothing, as the cache does).
pub(super) enum Turn {
    Mine(Claim),
    Handed(Arc<Quotient>),
    Alone,
}

/// Waits until no other job grows `code`'s quotient, then claims it to grow it towards
/// `heaps` (exactly, if `exactly`). While it waits, the growth under way hands over its
/// quotient when it reaches `heaps` (or, for a job that takes any quotient for these heaps or
/// more, the next heap it reaches past them); a job asking exactly for heaps the growth has
/// passed is told at once to grow alone. A cancelled job stops waiting; a waiting one is told
/// (`waited`) each heap the growth under way reaches, with its quotient's elements.
pub(super) fn claim(
    code: &OctalCode,
    heaps: u16,
    exactly: bool,
    control: &Control,
    waited: &mut dyn FnMut(u16, usize),
) -> Result<Turn, SolveError> {
    let mut f = lock();
    // the bound this job waits to be handed, once it waits, and the heap it was last told of
    let mut waiting = None;
    let mut told = 0;
    loop {
        let flight = f.by_code.entry(code.clone()).or_default();
        if waiting.is_some() && flight.growing && flight.reached > told {
            told = flight.reached;
            waited(told, flight.reached_size);
        }
        if let Some(w) = waiting
            && let Some(q) = flight.ready.get(&w).cloned()
        {
            flight.unwant(w);
            if flight.is_idle() {
                f.by_code.remove(code);
            }
            return Ok(Turn::Handed(q));
        }
        if !flight.growing {
            if let Some(w) = waiting {
                flight.unwant(w);
            }
            flight.growing = true;
            flight.target = heaps;
            flight.reached = 0;
            flight.reached_size = 0;
            return Ok(Turn::Mine(Claim { code: code.clone() }));
        }
        if waiting.is_none() {
            let w = if exactly {
                // past it, the growth will not hand it over (at it and stopping there, it keeps it)
                if flight.reached > heaps || (flight.reached == heaps && flight.target > heaps) {
                    return Ok(Turn::Alone);
                }
                heaps
            } else {
                // any quotient for these heaps or more: the growth's next, if it has passed them
                heaps.max(flight.reached.saturating_add(1))
            };
            *flight.wanted.entry(w).or_default() += 1;
            waiting = Some(w);
        }
        if let Err(e) = control.check() {
            if let Some(w) = waiting {
                flight.unwant(w);
            }
            return Err(e);
        }
        f = flights()
            .1
            .wait_timeout(f, POLL)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

/// Whether a waiting job asks for `code`'s quotient for exactly `heaps`.
pub(super) fn is_wanted(code: &OctalCode, heaps: u16) -> bool {
    lock()
        .by_code
        .get(code)
        .is_some_and(|f| f.wanted.contains_key(&heaps) && !f.ready.contains_key(&heaps))
}

/// Hands `q` (for exactly `heaps`) to the jobs waiting for it.
pub(super) fn hand_over(code: &OctalCode, heaps: u16, q: Arc<Quotient>) {
    let mut f = lock();
    if let Some(flight) = f.by_code.get_mut(code) {
        flight.ready.insert(heaps, q);
    }
    flights().1.notify_all();
}

/// Counts one heap added to `code`'s quotient by a growth, which now reaches `heaps` with
/// `size` elements.
pub(super) fn count_heap(code: &OctalCode, heaps: u16, size: usize) {
    let mut f = lock();
    *f.heaps_added.entry(code.clone()).or_default() += 1;
    if let Some(flight) = f.by_code.get_mut(code)
        && flight.growing
    {
        flight.reached = heaps;
        flight.reached_size = size;
    }
    drop(f);
    flights().1.notify_all();
}

/// The heaps this process's growths have added to `code`'s quotients, over all of them (a
/// quotient taken from the cache or handed over adds none): the work done, for tests that
/// check a quotient asked for by several jobs at once is grown once.
pub fn heaps_added(code: &OctalCode) -> u64 {
    lock().heaps_added.get(code).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_waiting_job_is_told_each_heap_the_growth_under_way_reaches() {
        // a code no other test grows: its flight is this test's alone
        let code: OctalCode = "0.5404".parse().unwrap();
        let Ok(Turn::Mine(first)) = claim(&code, 10, false, &Control::new(), &mut |_, _| {}) else {
            panic!("the first job claims the growth");
        };
        let (told_tx, told_rx) = mpsc::channel();
        let waiter = {
            let code = code.clone();
            std::thread::Builder::new().name("waiting job".into()).spawn(move || {
                let mut told = Vec::new();
                let turn = claim(&code, 10, false, &Control::new(), &mut |heap, size| {
                    told.push((heap, size));
                    told_tx.send(()).unwrap();
                });
                (matches!(turn, Ok(Turn::Mine(_))), told)
            })
        }
        .unwrap();
        count_heap(&code, 3, 7);
        told_rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the waiting job is told");
        drop(first);
        let (claimed, told) = waiter.join().unwrap();
        assert!(
            claimed,
            "the growth ended without handing over: the waiting job grows next"
        );
        assert_eq!(told, vec![(3, 7)]);
    }
}
