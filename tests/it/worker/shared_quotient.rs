//! One misère quotient for the jobs that ask for it at once: the window's quotient view and
//! its one-heap sequence both need the quotient of the same code; one growth answers both
//! (the second job waits for the first's, or is handed its quotient at its bound), counted by
//! the heaps the process's growths added.

use std::time::{Duration, Instant};

use nimscope::worker::{JobSpec, Lane, Output, Response, Worker, no_wake};
use nimscope_core::game::rules::one_heap::OctalCode;
use nimscope_core::game::{Outcome, Position, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::misere_quotient::{cache, shared};
use nimscope_core::solver::search::Search;

/// The last answers of the jobs on `lanes`, within `patience`.
fn last_answers(w: &mut Worker, lanes: &[Lane], patience: Duration) -> Vec<Response> {
    let start = Instant::now();
    let mut out: Vec<Response> = Vec::new();
    while start.elapsed() < patience {
        out.extend(w.drain(Duration::from_millis(5)).into_iter().filter(|r| r.last));
        if lanes.iter().all(|l| out.iter().any(|r| r.lane == *l)) {
            return out;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no answers within {patience:?}");
}

#[test]
fn a_quotient_asked_for_by_two_jobs_at_once_is_grown_once() {
    // misère 0.75: no other test asks for it; its quotient to heap 599 takes a fraction of a
    // second, so the two jobs overlap
    let code: OctalCode = "0.75".parse().unwrap();
    let ruleset: Ruleset = "misere(octal(0.75))".parse().unwrap();
    cache::forget(&code);
    let before = shared::heaps_added(&code);
    let mut w = Worker::new(no_wake(), 1 << 30);
    // the quotient view's bound and the sequence's G(0..600) (the quotient to heap 599)
    w.submit(
        Lane::Quotient,
        JobSpec::Quotient {
            code: code.clone(),
            heaps: 599,
        },
    );
    w.submit(
        Lane::Map,
        JobSpec::Sequence {
            ruleset: ruleset.clone(),
            n: 600,
        },
    );
    let answers = last_answers(&mut w, &[Lane::Quotient, Lane::Map], Duration::from_secs(120));
    let added = shared::heaps_added(&code) - before;
    assert_eq!(added, 599, "each heap added once for both jobs (twice: {})", 2 * 599);
    let q = answers
        .iter()
        .find_map(|r| match &r.result {
            Ok(Output::Quotient(q)) => Some(q.clone()),
            _ => None,
        })
        .expect("the quotient view's answer");
    let s = answers
        .iter()
        .find_map(|r| match &r.result {
            Ok(Output::Sequence(s)) => Some(s.clone()),
            _ => None,
        })
        .expect("the sequence's answer");
    assert_eq!(q.heaps(), 599);
    // the sequence's outcomes are the quotient's, and the quotient's outcomes of one and two
    // heaps are those of a search from the rules
    let mut search = Search::plain(ruleset);
    let mut searched =
        |heaps: &[u64]| Outcome::of(search.value(&Position::Heaps(heaps.to_vec()), &Control::new()).unwrap());
    for h in 0..600u64 {
        assert_eq!(s.outcome(h), q.outcome(&[h]), "heap {h}: the sequence and the quotient");
    }
    for a in 0..14u64 {
        for b in 0..=a {
            assert_eq!(q.outcome(&[a, b]), Some(searched(&[a, b])), "{{{a}, {b}}}");
        }
    }
}
