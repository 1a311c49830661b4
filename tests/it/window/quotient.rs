//! Misère play in the window: the quotient window's job on the worker's quotient lane (its
//! progress in the status bar, Cancel from the window and from the status bar), the map of
//! collections {a, b} of a misère octal game by its quotient (one truth per cell: the map, the
//! status bar's readout and the inspector), and the one-heap strip past the small search.

use egui_kittest::kittest::Queryable;

use nimscope::worker::Lane;
use nimscope_core::game::{Cell, Layout, Outcome, Position, Ruleset};
use nimscope_core::raster::ColorMode;
use nimscope_core::solver::Control;
use nimscope_core::solver::search::Search;
use nimscope_core::solver::tiles::CellRect;

use crate::common::{harness, step_until};

/// The tests of misère 0.07 one at a time: its quotient is kept (in this process and in the
/// cache folder), so one test's quotient would answer another's at once.
static MISERE_0_07: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    MISERE_0_07.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Forgets the quotient of 0.07 kept in this process and in the cache folder: the next job
/// computes it (and can be seen running).
fn forget_the_quotient_of_0_07() {
    nimscope_core::solver::misere_quotient::cache::forget_in_memory();
    if let Some(dir) = nimscope_core::solver::misere_quotient::cache::folder() {
        let _ = std::fs::remove_file(dir.join("0.07.mquot"));
    }
}

fn searched_outcome(search: &mut Search, heaps: &[u64]) -> Outcome {
    Outcome::of(search.value(&Position::Heaps(heaps.to_vec()), &Control::new()).unwrap())
}

#[test]
fn the_quotient_window_computes_on_the_worker_lane_and_cancels() {
    let _one = one_at_a_time();
    // nothing kept, so the quotient is computed (and can be seen running and cancelled)
    forget_the_quotient_of_0_07();
    let mut h = harness();
    h.step();
    h.state_mut().quotient_mut().heaps = 33; // seconds: long enough to be seen running
    h.state_mut().set_ruleset("misere(octal(0.07))".parse().unwrap());
    h.step();
    h.step();
    let running = |app: &nimscope::ui::app::App| app.worker().is_some_and(|w| w.is_running(Lane::Quotient));
    assert!(
        running(h.state()),
        "the quotient is a job of the worker's quotient lane"
    );
    // the status bar names it with the other jobs
    assert!(
        h.query_all_by_label_contains("misère quotient of octal(0.07) for heaps up to 33")
            .count()
            >= 1
    );
    // the window's Cancel stops it
    h.state_mut().quotient_mut().cancel();
    h.step();
    assert!(!running(h.state()));
    assert!(matches!(&h.state().quotient().result, Some(Err(e)) if e == "cancelled"));
    // started again with a smaller bound, it answers
    h.state_mut().quotient_mut().heaps = 20;
    let code = "0.07".parse().unwrap();
    h.state_mut().quotient_mut().start(&code);
    step_until(&mut h, "the quotient to 20", |app| {
        matches!(&app.quotient().result, Some(Ok(_)))
    });
    let Some(Ok(q)) = &h.state().quotient().result else {
        unreachable!("waited for it")
    };
    assert_eq!((q.heaps(), q.size()), (20, 24));
    // the status bar's Cancel stops it too
    h.state_mut().quotient_mut().heaps = 33;
    h.state_mut().quotient_mut().start(&code);
    h.step();
    assert!(running(h.state()));
    h.state_mut().cancel_jobs();
    h.step();
    assert!(!running(h.state()));
    assert!(matches!(&h.state().quotient().result, Some(Err(e)) if e == "cancelled"));
}

/// The map of collections {a, b} of misère 0.07 in the outcome mode comes from the quotient:
/// every cell's outcome is the plain search's; a P-cell's value is 0, an N-cell's unknown
/// (the quotient gives the outcome alone), and the status bar and the inspector say the same.
#[test]
fn the_map_of_misere_collections_is_the_quotients() {
    let _one = one_at_a_time();
    let mut h = harness();
    h.step();
    h.state_mut().ruleset_panel_mut().set_slice("_,_");
    h.state_mut().set_ruleset("misere(octal(0.07))".parse().unwrap());
    assert_eq!(
        *h.state().layout(),
        Layout::parse_slice("_,_").unwrap(),
        "the panel keeps the slice"
    );
    h.state_mut().map_state_mut().color = ColorMode::Outcome;
    // a view taller than wide, as the map is (24 × 24 grew to rows 0..35): heaps up to 23,
    // which the quotient answers in a moment (0.07's to heap 33, where it fails at 34, takes
    // seconds of processor and its failing heap's cells a search)
    h.state_mut().map_state_mut().show_region(CellRect::new(0..24, 0..16));
    step_until(&mut h, "the map of collections", |app| app.map_complete());
    let region = h.state().visible_region();
    assert!(
        region.rows.end <= 24 && region.cols.end <= 24,
        "the map stays below heap 24: {region:?}"
    );
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    let mut search = Search::plain(r.clone());
    let mut n_cell = None;
    for a in 0..24u64 {
        for b in 0..16u64 {
            let want = searched_outcome(&mut search, &[a, b]);
            let tiles = &h.state().map().tiles();
            let key = tiles.key(0, a, b).expect("computed");
            assert_eq!(key == 0, want == Outcome::P, "({a}, {b})");
            match want {
                Outcome::P => assert_eq!(tiles.get(a, b), Some(Some(0)), "({a}, {b})"),
                Outcome::N => {
                    assert_eq!(tiles.get(a, b), None, "({a}, {b}): the outcome alone");
                    n_cell.get_or_insert((a, b));
                }
                Outcome::D => unreachable!("a finite game has no draws"),
            }
        }
    }
    let (a, b) = n_cell.expect("N-positions in view");
    // the status bar's readout of an N-cell says N, not "not computed"
    h.step();
    let pos = h
        .state()
        .map_state()
        .screen_pos_of_cell(Cell::new(a, b))
        .expect("drawn");
    h.hover_at(pos);
    h.step();
    h.step();
    let words = h.state().map().hovered().expect("over the map").describe();
    assert_eq!(words, format!("({a}, {b}): N (its outcome alone is known, not G)"));
    assert!(h.query_all_by_label_contains(&words).count() >= 1, "in the status bar");
    // the inspector answers the same collection with the same outcome
    h.state_mut()
        .inspector_mut()
        .select_text(&r, &format!("{a},{b}"))
        .unwrap();
    let p = h.state().inspector().root().unwrap().clone();
    step_until(&mut h, "the inspector's report", |app| {
        app.inspector().report(&p).is_some()
    });
    assert_eq!(h.state().inspector().report(&p).unwrap().outcome, Outcome::N);
}

/// Misère 0.77's strip past the heaps a small search values: each heap's outcome from the
/// quotient, the misère Grundy value unknown there, and every outcome the plain search's.
#[test]
fn the_strip_of_a_misere_octal_game_takes_outcomes_from_the_quotient() {
    let mut h = harness();
    h.step();
    h.state_mut().map_mut().sequence_mut().set_length(46);
    h.state_mut().set_ruleset("misere(octal(0.77))".parse().unwrap());
    step_until(&mut h, "the sequence", |app| app.map().sequence().sequence().is_some());
    let seq = h.state().map().sequence().sequence().cloned().unwrap();
    let part = seq
        .outcomes_only
        .clone()
        .expect("heaps past the small search, by the quotient");
    assert!(part.from < 46 && part.by.contains("misère quotient of octal(0.77)"));
    let r: Ruleset = "misere(octal(0.77))".parse().unwrap();
    let mut search = Search::plain(r);
    for n in 0..46u64 {
        let want = searched_outcome(&mut search, &[n]);
        assert_eq!(seq.outcome(n), Some(want), "heap {n}");
        assert_eq!(seq.values[n as usize].is_none(), n >= part.from, "heap {n}");
    }
    h.step();
    assert!(
        h.query_all_by_label_contains("the outcome alone (strip by outcome, G(n) unknown)")
            .count()
            >= 1
    );
}

#[test]
fn a_misere_octal_game_opens_its_quotient_window() {
    let _one = one_at_a_time();
    let mut h = harness();
    h.step();
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    h.state_mut().set_ruleset(r);
    step_until(&mut h, "the quotient of 0.07", |app| {
        matches!(&app.quotient().result, Some(Ok(_)))
    });
    h.step();
    let Some(Ok(q)) = &h.state().quotient().result else {
        unreachable!("waited for it")
    };
    assert_eq!((q.heaps(), q.size()), (20, 24));
    assert!(h.query_all_by_label_contains("24 elements for heaps up to 20").count() >= 1);
    // the two-heap map by the quotient has as many P-cells as the plain search finds (the CLI
    // test compares cell by cell)
    let search_p = {
        let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
        let mut s = nimscope_core::solver::search::Search::plain(r);
        let c = nimscope_core::solver::Control::new();
        (0..=20u64)
            .flat_map(|a| (0..=20u64).map(move |b| (a, b)))
            .filter(|&(a, b)| s.value(&nimscope_core::game::Position::Heaps(vec![a, b]), &c).unwrap() == 0)
            .count()
    };
    let label = format!("21×21 collections by the quotient: {search_p} P-positions");
    assert!(h.query_all_by_label_contains(&label).count() >= 1, "{label}");
    // the typed collection 3,5,7 is answered by its product: a · 1 · a = 1, an N-position
    assert!(h.query_all_by_label_contains("a · 1 · a = 1").count() >= 1);
    assert!(h.query_all_by_label_contains("misère outcome N").count() >= 1);
    // another ruleset closes it
    h.state_mut().set_ruleset("nim".parse().unwrap());
    h.step();
    assert!(!h.state().quotient().open);
}

/// While a misère sequence's job computes the quotient first (its heaps counted apart), the
/// status bar names that part instead of "G(0..600) 0 %, 0 heaps/s", the quotient window open
/// beside it (issue 41).
#[test]
fn a_misere_sequence_says_it_computes_its_quotient_first() {
    let _one = one_at_a_time();
    forget_the_quotient_of_0_07();
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset("misere(octal(0.07))".parse().unwrap());
    h.step();
    assert!(
        h.state().quotient().open,
        "the quotient window opens for a misère octal game"
    );
    let in_quotient = |app: &nimscope::ui::app::App| {
        app.worker().is_some_and(|w| {
            w.running()
                .any(|r| r.lane == Lane::Map && r.control.stage().contains("misère quotient"))
        })
    };
    step_until(&mut h, "the sequence's quotient part", in_quotient);
    h.step();
    let stalled = h.query_all_by_label_contains(" 0 heaps/s").count();
    let named = h
        .query_all_by_label_contains("computing the misère quotient of octal(0.07) up to heap 599")
        .count();
    let still = in_quotient(h.state());
    h.state_mut().cancel_jobs();
    h.step();
    // the quotient of 600 heaps takes seconds: still in that part a frame later
    assert!(still, "the quotient part ended within a frame");
    assert_eq!(stalled, 0, "a rate of 0 heaps/s for a job counting its quotient apart");
    assert!(named >= 1, "the status bar names the part running");
}
