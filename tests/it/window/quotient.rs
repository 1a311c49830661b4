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

fn searched_outcome(search: &mut Search, heaps: &[u64]) -> Outcome {
    Outcome::of(search.value(&Position::Heaps(heaps.to_vec()), &Control::new()).unwrap())
}

#[test]
fn the_quotient_window_computes_on_the_worker_lane_and_cancels() {
    let mut h = harness();
    h.step();
    h.state_mut().quotient.heaps = 33; // seconds: long enough to be seen running
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
    h.state_mut().quotient.cancel();
    h.step();
    assert!(!running(h.state()));
    assert!(matches!(&h.state().quotient.result, Some(Err(e)) if e == "cancelled"));
    // started again with a smaller bound, it answers
    h.state_mut().quotient.heaps = 20;
    let code = "0.07".parse().unwrap();
    h.state_mut().quotient.start(&code);
    step_until(&mut h, "the quotient to 20", |app| {
        matches!(&app.quotient.result, Some(Ok(_)))
    });
    let Some(Ok(q)) = &h.state().quotient.result else {
        unreachable!("waited for it")
    };
    assert_eq!((q.heaps(), q.size()), (20, 24));
    // the status bar's Cancel stops it too
    h.state_mut().quotient.heaps = 33;
    h.state_mut().quotient.start(&code);
    h.step();
    assert!(running(h.state()));
    h.state_mut().cancel_jobs();
    h.step();
    assert!(!running(h.state()));
    assert!(matches!(&h.state().quotient.result, Some(Err(e)) if e == "cancelled"));
}

/// The map of collections {a, b} of misère 0.07 in the outcome mode comes from the quotient:
/// every cell's outcome is the plain search's; a P-cell's value is 0, an N-cell's unknown
/// (the quotient gives the outcome alone), and the status bar and the inspector say the same.
#[test]
fn the_map_of_misere_collections_is_the_quotients() {
    let mut h = harness();
    h.step();
    h.state_mut().panel.slice = "_,_".into();
    h.state_mut().set_ruleset("misere(octal(0.07))".parse().unwrap());
    assert_eq!(
        h.state().layout,
        Layout::parse_slice("_,_").unwrap(),
        "the panel keeps the slice"
    );
    h.state_mut().map_state.color = ColorMode::Outcome;
    h.state_mut().map_state.show_region(CellRect::new(0..24, 0..24));
    step_until(&mut h, "the map of collections", |app| app.map_complete());
    let r: Ruleset = "misere(octal(0.07))".parse().unwrap();
    let mut search = Search::plain(r.clone());
    let mut n_cell = None;
    for a in 0..24u64 {
        for b in 0..24u64 {
            let want = searched_outcome(&mut search, &[a, b]);
            let tiles = &h.state().map.tiles;
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
    let pos = h.state().map_state.screen_pos_of_cell(Cell::new(a, b)).expect("drawn");
    h.hover_at(pos);
    h.step();
    h.step();
    let words = h.state().hovered.expect("over the map").describe();
    assert_eq!(words, format!("({a}, {b}): N (its outcome alone is known, not G)"));
    assert!(h.query_all_by_label_contains(&words).count() >= 1, "in the status bar");
    // the inspector answers the same collection with the same outcome
    h.state_mut().inspector.select_text(&r, &format!("{a},{b}")).unwrap();
    let p = h.state().inspector.root().unwrap().clone();
    step_until(&mut h, "the inspector's report", |app| {
        app.inspector.report(&p).is_some()
    });
    assert_eq!(h.state().inspector.report(&p).unwrap().outcome, Outcome::N);
}

/// Misère 0.77's strip past the heaps a small search values: each heap's outcome from the
/// quotient, the misère Grundy value unknown there, and every outcome the plain search's.
#[test]
fn the_strip_of_a_misere_octal_game_takes_outcomes_from_the_quotient() {
    let mut h = harness();
    h.step();
    h.state_mut().sequence_len = 46;
    h.state_mut().set_ruleset("misere(octal(0.77))".parse().unwrap());
    step_until(&mut h, "the sequence", |app| app.sequence.is_some());
    let seq = h.state().sequence.clone().unwrap();
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
