//! The worker's lanes without a window: what a lane keeps between jobs (maps, sequences, search
//! memos, Cram tables) stays within the memory budget while the answers stay those of a fresh
//! evaluator, a job that needs the budget gets it back from the caches, and Cancel stops the
//! lane's job and gives its caches back.

use std::time::{Duration, Instant};

use nimscope::worker::{JobSpec, Lane, Output, Response, Worker, no_wake};
use nimscope_core::game::{Position, Ruleset};
use nimscope_core::solver::Control;
use nimscope_core::solver::evaluate::Evaluator;

fn position_job(rules: &str, position: &str) -> (JobSpec, Ruleset, Position) {
    let ruleset: Ruleset = rules.parse().unwrap();
    let position = ruleset.parse_position(position).unwrap();
    let spec = JobSpec::Position {
        ruleset: ruleset.clone(),
        position: position.clone(),
        limit: 8,
    };
    (spec, ruleset, position)
}

/// The next response of the lane, within `patience`.
fn response(w: &mut Worker, patience: Duration) -> Response {
    let start = Instant::now();
    while start.elapsed() < patience {
        // a job's last answer (a Cram job sends partial reports before it)
        if let Some(r) = w.drain(Duration::from_millis(5)).into_iter().find(|r| r.last) {
            return r;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no response within {patience:?}");
}

#[test]
fn the_inspectors_caches_stay_within_the_budget_and_answer_as_a_fresh_evaluator() {
    const BUDGET: u64 = 24 << 20;
    let mut w = Worker::new(no_wake(), BUDGET);
    // Each map of 2400 × 2400 cells is reserved at up to 23 MB and holds about 6 MB: seven of
    // them (and a sequence, and a search) hold more than the budget together.
    let jobs = [
        ("wythoff", "2400,2399"),
        ("zeruclid", "2400,2399"),
        ("octal(0.6)", "100000"),
        ("octal(0.07)", "209"),
        ("push(nim,euclid0)", "2400,2399"),
        ("misere(wythoff)", "2400,2399"),
        ("push(wythoff,nim)", "2400,2399"),
        ("misere(zeruclid)", "2400,2399"),
        ("zeruclid", "9,10,11"),
        ("sum(tag(3),wythoff)", "5+1200,1100"),
        ("wythoff", "2400,2399"),
    ];
    let mut peak = 0;
    for (rules, position) in jobs {
        let (spec, ruleset, p) = position_job(rules, position);
        w.submit(Lane::Inspector, spec);
        let r = response(&mut w, Duration::from_secs(60));
        let Ok(Output::Position(report)) = &r.result else {
            panic!("{rules} at {position}: {:?}", r.result)
        };
        let fresh = Evaluator::new().value(&ruleset, &p, &Control::new()).unwrap();
        assert_eq!(report.value, fresh, "{rules} at {position}");
        let held = w.cached_bytes(Lane::Inspector);
        assert!(held <= BUDGET, "{rules} at {position}: the caches hold {held} bytes");
        peak = peak.max(held);
    }
    assert!(peak > 0, "the lane keeps its caches between jobs");
}

#[test]
fn the_board_editors_tables_are_sized_to_the_budget() {
    use nimscope_core::game::rules::cram_board::Board;
    use nimscope_core::solver::cram::report::CramPhase;
    // a 64 MiB budget: the solvers' default tables (256 MiB each) would not fit at all
    const BUDGET: u64 = 64 << 20;
    let mut w = Worker::new(no_wake(), BUDGET);
    for (rows, cols, variant, value) in [
        (4, 5, CramPhase::Cram, 2),
        (5, 5, CramPhase::Cram, 0),
        (3, 15, CramPhase::PushBefore, 1),
    ] {
        let board = Board::rectangle(rows, cols).unwrap();
        w.submit(Lane::Cram, JobSpec::CramBoard { board, variant });
        let r = response(&mut w, Duration::from_secs(60));
        let Ok(Output::Cram(report)) = &r.result else {
            panic!("{rows}×{cols} {variant:?}: {:?}", r.result)
        };
        assert_eq!(report.value, value, "{rows}×{cols} {variant:?}");
        let held = w.cached_bytes(Lane::Cram);
        assert!(
            held > 0 && held <= BUDGET,
            "{rows}×{cols}: the tables hold {held} bytes"
        );
    }
}

/// The map of the 64×64 cells below (n, n) at one cell a pooled cell, in the difference mode
/// against `compared` if given.
fn map_job(rules: &str, n: u64, compared: Option<&str>) -> JobSpec {
    use nimscope::worker::MapJob;
    use nimscope_core::game::Layout;
    use nimscope_core::raster::{ColorMode, CompareWith};
    use nimscope_core::solver::tiles::{CellRect, TileKey};
    let view = CellRect::new(n - 64..n, n - 64..n);
    let (color, compare) = match compared {
        Some(c) => (ColorMode::Difference, CompareWith::Ruleset(c.parse().unwrap())),
        None => (ColorMode::Outcome, CompareWith::Nothing),
    };
    JobSpec::Map(Box::new(MapJob {
        ruleset: rules.parse().unwrap(),
        layout: Layout::Plain,
        color,
        pooling: nimscope_core::raster::Pooling::Least,
        compare,
        level: 0,
        tiles: TileKey::covering(0, &view, (0.0, 0.0)),
        view,
        scale: None,
    }))
}

/// The last response of the lane's current job.
fn last_response(w: &mut Worker) -> Response {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if let Some(r) = w.drain(Duration::from_millis(5)).into_iter().find(|r| r.last) {
            return r;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no last response within a minute");
}

#[test]
fn a_map_and_its_compared_map_share_the_budget() {
    use nimscope::worker::JobError;
    const BUDGET: u64 = 16 << 20;
    let mut w = Worker::new(no_wake(), BUDGET);
    // each filled map up to row 3000 takes about 10 MB: one fits, the two together do not
    for rules in ["wythoff", "zeruclid"] {
        w.submit(Lane::Map, map_job(rules, 3000, None));
        let r = last_response(&mut w);
        assert!(r.result.is_ok(), "{rules}: {:?}", r.result);
        let held = w.cached_bytes(Lane::Map);
        assert!(
            held > BUDGET / 2 && held <= BUDGET,
            "{rules}: the map holds {held} bytes"
        );
    }
    // Euclid's map comes from its closed form: it holds the view's cells, not a fill
    w.submit(Lane::Map, map_job("euclid", 3000, None));
    assert!(last_response(&mut w).result.is_ok());
    assert!(w.cached_bytes(Lane::Map) < 1 << 20);
    w.submit(Lane::Map, map_job("wythoff", 3000, Some("zeruclid")));
    let r = last_response(&mut w);
    assert!(
        matches!(&r.result, Err(JobError::OverBudget { .. })),
        "both maps would hold more than the budget: {:?}",
        r.result
    );
    assert!(w.cached_bytes(Lane::Map) <= BUDGET);
    // smaller, both fit
    w.submit(Lane::Map, map_job("wythoff", 1500, Some("zeruclid")));
    assert!(last_response(&mut w).result.is_ok());
    assert!(w.cached_bytes(Lane::Map) <= BUDGET);
}

#[test]
fn cancel_stops_the_inspectors_job_and_gives_its_caches_back() {
    let mut w = Worker::new(no_wake(), 1 << 30);
    let (spec, ..) = position_job("wythoff", "1000,999");
    w.submit(Lane::Inspector, spec);
    assert!(response(&mut w, Duration::from_secs(30)).result.is_ok());
    assert!(w.cached_bytes(Lane::Inspector) > 0, "a map is cached");
    // a sum with a heap of 0.064 near 10^6: minutes of rare/common work
    let (spec, ..) = position_job("octal(0.064)", "900000,3");
    w.submit(Lane::Inspector, spec);
    std::thread::sleep(Duration::from_millis(300));
    assert!(w.is_running(Lane::Inspector));
    let cancelled = Instant::now();
    w.cancel_and_free(Lane::Inspector);
    assert!(!w.is_running(Lane::Inspector));
    // the lane's thread stops the job at its next check and drops its caches
    while w.cached_bytes(Lane::Inspector) > 0 {
        assert!(
            cancelled.elapsed() < Duration::from_secs(5),
            "the lane still holds its caches {:?} after Cancel",
            cancelled.elapsed()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // and answers the next job, the cancelled one's result dropped
    let (spec, ..) = position_job("nim", "3,5");
    let next = w.submit(Lane::Inspector, spec);
    let r = response(&mut w, Duration::from_secs(5));
    assert_eq!(r.job, next);
    assert!(matches!(&r.result, Ok(Output::Position(p)) if p.value == 6));
}
