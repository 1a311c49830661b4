//! The inspector: selecting a cell by clicking the map, expanding a node of the move tree,
//! making a move and undoing it, the computer's reply, a click on the map in a game, a typed
//! illegal position, a position valued only in part, Cancel, and a long position that does not
//! widen the panel. Expected values come from closed forms (Wythoff's P-positions, Bouton's
//! nim-sum), not from the code under test.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use nimscope::ui::app::App;
use nimscope_core::game::{Cell, Position, Ruleset, theory};
use nimscope_core::solver::play::Opponent;

use crate::common::{click_at, harness, has_report, select_typed, step_until};

#[test]
fn clicking_a_cell_selects_it_and_shows_value_and_winning_moves() {
    let mut h = harness();
    step_until(&mut h, "the wythoff map", |app| app.map().tiles().get(4, 6).is_some());
    h.step();
    let pos = h
        .state()
        .map_state()
        .screen_pos_of_cell(Cell::new(4, 6))
        .expect("the map was drawn");
    click_at(&mut h, pos);
    let p = Position::heaps(&[4, 6]);
    assert_eq!(h.state().inspector().root(), Some(&p));
    step_until(&mut h, "the report of (4,6)", |app| has_report(app, &p));
    h.step();
    let report = h.state().inspector().report(&p).unwrap().clone();
    // Wythoff: P exactly on the pairs (⌊nφ⌋, ⌊nφ²⌋); (4,6) is not one, (3,5) is
    assert!(!theory::is_wythoff_p(4, 6));
    assert_ne!(report.value, 0);
    for o in &report.options {
        let Position::Heaps(x) = &o.position else { panic!() };
        assert_eq!(o.winning, theory::is_wythoff_p(x[0], x[1]), "{}", o.to);
    }
    assert!(h.query_by_label_contains("outcome N").is_some());
    assert!(h.query_by_label_contains("the smallest missing value is").is_some());
    // the boxes of a complete report draw its mex: every option's value below it is present
    let values: std::collections::BTreeSet<u32> = report.options.iter().map(|o| o.grundy).collect();
    let mex = (0..).find(|v| !values.contains(v)).unwrap();
    assert!(
        h.query_by_label_contains(&format!("the first missing is {mex}"))
            .is_some()
    );
    assert_eq!(
        mex_boxes_painted(&h),
        values.last().map_or(mex, |&top| top.max(mex)) as usize + 1
    );
    // the map marks the selected cell and the cells of its options
    let marks = h.state().inspector().map_marks(h.state().layout(), h.state().ruleset());
    assert_eq!(marks.selected, Some(Cell::new(4, 6)));
    assert!(marks.options.contains(&(Cell::new(3, 5), true)));
    assert_eq!(marks.options.len(), 4 + 6 + 4);
}

#[test]
fn expanding_a_node_shows_its_options() {
    let mut h = harness();
    let root = select_typed(&mut h, "wythoff", "4,6");
    // a new selection shows its options at once: the 14 options of (4,6); a click collapses
    let key = root.to_string();
    assert!(h.state().inspector().doc.expanded.contains(&key));
    h.step();
    assert!(h.query_by_label_contains("G = 0 winning  3,5  (").is_some());
    h.get_by_label_contains("4,6   G =").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("G = 0 winning  3,5  (").is_none());
    h.get_by_label_contains("4,6   G =").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("G = 0 winning  3,5  (").is_some());
    // expand the winning child: (3,5) is P, so every one of its options is N
    h.get_by_label_contains("G = 0 winning  3,5  (").click();
    h.step();
    let child = Position::heaps(&[3, 5]);
    step_until(&mut h, "the report of (3,5)", |app| has_report(app, &child));
    h.step();
    let rows = h.state().inspector().rows().len();
    assert_eq!(rows, 1 + 14 + (3 + 5 + 3));
    assert!(h.query_by_label_contains("  3,4  (take").is_some());
    assert!(h.query_by_label_contains(" winning  ").is_some());
}

#[test]
fn making_a_move_and_undoing_it() {
    let mut h = harness();
    let start = select_typed(&mut h, "euclid", "11,27");
    h.get_by_label("Play from here").click();
    h.step();
    h.step();
    // seed 002's sample game, both sides by hand
    for (button, text) in [
        ("play: subtract 2×11 from 27 -> 11,5", "(11,27)→(11,5)"),
        ("play: subtract 2×5 from 11 -> 1,5", "(11,27)→(11,5)→(1,5)"),
        ("play: subtract 2×1 from 5 -> 1,3", "(11,27)→(11,5)→(1,5)→(1,3)"),
        ("play: subtract 3×1 from 3 -> 1,0", "(11,27)→(11,5)→(1,5)→(1,3)→(1,0)"),
    ] {
        step_until(&mut h, button, |app| {
            app.inspector()
                .doc
                .play
                .as_ref()
                .and_then(|g| g.current())
                .is_some_and(|p| has_report(app, p))
        });
        h.step();
        h.get_by_label(button).click();
        h.step();
        h.step();
        assert_eq!(h.state().inspector().doc.play.as_ref().unwrap().text(), text);
        assert!(h.query_by_label_contains(&text.replace('→', "->")).is_some());
    }
    step_until(&mut h, "the end", |app| has_report(app, &Position::heaps(&[1, 0])));
    h.step();
    assert!(
        h.query_by_label_contains("game over after 4 move(s): player 2 wins")
            .is_some()
    );
    h.get_by_label("Undo").click();
    h.step();
    h.step();
    assert_eq!(
        h.state().inspector().doc.play.as_ref().unwrap().text(),
        "(11,27)→(11,5)→(1,5)→(1,3)"
    );
    assert_eq!(h.state().inspector().root(), Some(&start));
}

#[test]
fn the_computer_replies_with_a_winning_move_and_undo_takes_both_back() {
    let mut h = harness();
    let start = select_typed(&mut h, "nim", "1,3,5,6");
    h.state_mut().inspector_mut().doc.opponent = Opponent::ComputerSecond;
    h.get_by_label("Play from here").click();
    h.step();
    step_until(&mut h, "the options", |app| has_report(app, &start));
    h.step();
    // 1⊕3⊕5⊕6 = 1: take 1 from the first heap wins; play a losing move instead
    h.get_by_label("Hint").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("hint: take 1 from heap 1 (1 -> 0)").is_some());
    h.get_by_label("play: take 2 from heap 3 (5 -> 3) -> 1,3,3,6").click();
    step_until(&mut h, "the computer's reply", |app| {
        app.inspector().doc.play.as_ref().is_some_and(|g| g.moves() == 2)
    });
    let after = h
        .state()
        .inspector()
        .doc
        .play
        .as_ref()
        .unwrap()
        .current()
        .unwrap()
        .clone();
    let Position::Heaps(heaps) = &after else { panic!() };
    assert_eq!(theory::nim_sum(heaps), 0, "the computer balanced the heaps: {after}");
    h.step();
    h.get_by_label("Undo").click();
    h.step();
    assert_eq!(h.state().inspector().doc.play.as_ref().unwrap().positions, vec![start]);
}

#[test]
fn a_typed_illegal_position_shows_its_error_and_changes_nothing() {
    let mut h = harness();
    let p = select_typed(&mut h, "wythoff", "3,5");
    h.state_mut().inspector_mut().doc.typed = "3,5,7".into();
    h.step();
    h.get_by_label("Inspect").click();
    h.step();
    assert!(h.query_by_label_contains("is played on two heaps").is_some());
    assert_eq!(h.state().inspector().root(), Some(&p));
    assert_eq!(*h.state().ruleset(), Ruleset::Wythoff);
    h.state_mut().inspector_mut().doc.typed = "3,x".into();
    h.step();
    h.get_by_label("Inspect").click();
    h.step();
    assert!(h.query_by_label_contains("'x' is not a non-negative integer").is_some());
    assert_eq!(h.state().inspector().root(), Some(&p));
}

/// A one-heap position typed for one ruleset is not kept in the field after a switch to a
/// ruleset of two heaps (Inspect would refuse it); a position of both is kept.
#[test]
fn the_position_field_forgets_a_position_the_new_ruleset_has_not() {
    let mut h = harness();
    select_typed(&mut h, "sub(1,3,4)", "10");
    assert_eq!(h.state().inspector().doc.typed, "10");
    h.state_mut().set_ruleset(Ruleset::Wythoff);
    h.step();
    assert!(Ruleset::Wythoff.parse_position("10").is_err());
    assert_eq!(
        h.state().inspector().doc.typed,
        "",
        "the one-heap value stayed in the field"
    );
    assert_eq!(h.state().inspector().root(), None);
    select_typed(&mut h, "wythoff", "4,6");
    h.state_mut().set_ruleset(Ruleset::Nim);
    h.step();
    assert_eq!(h.state().inspector().doc.typed, "4,6");
}

#[test]
fn one_heap_rulesets_and_fibonacci_nim() {
    let mut h = harness();
    select_typed(&mut h, "fibonacci-nim", "20");
    // 20 = 13 + 5 + 2; the smallest term 2 ≤ q = 19: taking 2 wins
    assert!(h.query_by_label_contains("Zeckendorf: 20 = 13 + 5 + 2").is_some());
    assert!(h.query_by_label_contains("taking 2 wins").is_some());
    let p = select_typed(&mut h, "nim", "1,3,5,7");
    assert!(
        h.query_by_label_contains("1 xor 3 xor 5 xor 7 = 0: balanced (P)")
            .is_some()
    );
    assert_eq!(h.state().inspector().report(&p).unwrap().value, 0);
    // a one-heap ruleset: the heap and its options are marked on the strip; sub(1,3,4) has
    // period 7 with P-positions n ≡ 0, 2 (mod 7)
    select_typed(&mut h, "sub(1,3,4)", "10");
    let (selected, options) = h.state().inspector().strip_marks();
    assert_eq!(selected, Some(10));
    let expected: Vec<(u64, bool)> = [9u64, 7, 6].iter().map(|&n| (n, [0, 2].contains(&(n % 7)))).collect();
    assert_eq!(options, expected);
    step_until(&mut h, "the sequence", |app| app.map().sequence().sequence().is_some());
    h.step();
}

#[test]
fn cancel_stops_the_inspector_and_it_stays_stopped() {
    use nimscope::worker::Lane;
    let mut h = harness();
    h.step();
    // a misère collection is searched, not nim-summed, and 0.6's quotient stops at heap 17:
    // 33,33 is a search of 3 million collections, long enough to be cancelled whatever the
    // quotient cache holds (0.77 at 40,41,43 answered from a cached quotient at once)
    h.state_mut().ruleset_panel_mut().set_expression("misere(octal(0.6))");
    h.state_mut().set_ruleset("misere(octal(0.6))".parse().unwrap());
    h.step();
    let r = h.state().ruleset().clone();
    h.state_mut().inspector_mut().select_text(&r, "33,33").unwrap();
    step_until(&mut h, "the inspector's job", |app| {
        app.worker().is_some_and(|w| w.is_running(Lane::Inspector))
    });
    h.state_mut().cancel_jobs();
    for _ in 0..10 {
        h.step();
    }
    assert!(
        !h.state().worker().unwrap().is_running(Lane::Inspector),
        "the job stays stopped"
    );
    assert!(h.query_by_label_contains("33,33: stopped by Cancel").is_some());
    // asking again computes again
    h.get_by_label("Compute again").click();
    h.step();
    h.step();
    assert!(h.state().worker().unwrap().is_running(Lane::Inspector));
    h.state_mut().cancel_jobs();
}

#[test]
fn a_partly_valued_position_claims_no_mex() {
    let mut h = harness();
    h.step();
    h.state_mut().ruleset_panel_mut().set_expression("nim");
    h.state_mut().set_ruleset("nim".parse().unwrap());
    h.step();
    let r = h.state().ruleset().clone();
    // 6000 + 5 options, more than one report values
    h.state_mut().inspector_mut().select_text(&r, "6000,5").unwrap();
    step_until(&mut h, "the report", |app| {
        app.inspector()
            .root()
            .is_some_and(|p| app.inspector().report(p).is_some())
    });
    h.step();
    assert!(h.query_by_label_contains("the smallest missing value").is_none());
    assert!(h.query_by_label_contains("the others are not valued here").is_some());
    // and no box is drawn: the first grey box would be a mex the text says is not drawn
    assert!(h.query_by_label_contains("mex boxes").is_none());
    assert_eq!(mex_boxes_painted(&h), 0, "boxes drawn under \"no mex is drawn\"");
    let g = 6000 ^ 5; // Bouton
    assert!(
        h.query_by_label_contains(&format!("G = {g} (from the solver)"))
            .is_some()
    );
}

#[test]
fn in_a_game_a_click_on_the_map_plays_the_move_and_the_header_follows() {
    use nimscope_core::game::{Cell, Position};
    let mut h = harness();
    step_until(&mut h, "the map", |app| app.map().tiles().get(5, 5).is_some());
    let r = h.state().ruleset().clone();
    h.state_mut().inspector_mut().select_text(&r, "3,5").unwrap();
    h.state_mut().inspector_mut().start_play(Position::heaps(&[3, 5]));
    step_until(&mut h, "the report of (3,5)", |app| {
        app.inspector().report(&Position::heaps(&[3, 5])).is_some()
    });
    // (4,4) is not a move from (3,5); (1,3) is (2 from both heaps)
    let click = |h: &mut Harness<'static, App>, cell: Cell| {
        let p = h.state().map_state().screen_pos_of_cell(cell).unwrap();
        h.hover_at(p);
        h.step();
        h.drag_at(p);
        h.step();
        h.drop_at(p);
        h.step();
        h.step();
    };
    click(&mut h, Cell::new(4, 4));
    let game = h.state().inspector().doc.play.clone().expect("still playing");
    assert_eq!(game.moves(), 0, "not a move: nothing played");
    assert!(h.state().notice().is_some_and(|n| n.text.contains("not a move")));
    click(&mut h, Cell::new(1, 3));
    let game = h.state().inspector().doc.play.clone().expect("still playing");
    assert_eq!(
        game.current(),
        Some(&Position::heaps(&[1, 3])),
        "the click played (3,5) -> (1,3)"
    );
    step_until(&mut h, "the report of (1,3)", |app| {
        app.inspector().report(&Position::heaps(&[1, 3])).is_some()
    });
    h.step();
    assert!(
        h.query_by_label("position 1,3").is_some(),
        "the header shows the game's position"
    );
}

#[test]
fn the_inspector_does_not_widen_with_a_long_position() {
    let mut h = harness();
    step_until(&mut h, "the map", |app| app.map().tiles().get(3, 5).is_some());
    let before = h.state().map_state().last_rect.unwrap().width();
    h.state_mut().ruleset_panel_mut().set_expression("nim");
    h.state_mut().set_ruleset("nim".parse().unwrap());
    h.step();
    let long: Vec<String> = (1..=60).map(|k| (1000 + k).to_string()).collect();
    let r = h.state().ruleset().clone();
    h.state_mut().inspector_mut().select_text(&r, &long.join(",")).unwrap();
    for _ in 0..20 {
        h.step();
    }
    let after = h.state().map_state().last_rect.unwrap().width();
    assert!(
        (after - before).abs() < 1.0,
        "the map went from {before} to {after} points wide"
    );
}

/// The boxes of the mex strip painted in the last frame (filled rectangles in its two colours).
fn mex_boxes_painted(h: &Harness<'static, App>) -> usize {
    fn count(shape: &egui::Shape) -> usize {
        let colours = [nimscope::ui::theme::VALUE_PRESENT, nimscope::ui::theme::VALUE_ABSENT];
        match shape {
            egui::Shape::Vec(v) => v.iter().map(count).sum(),
            egui::Shape::Rect(r) => usize::from(colours.contains(&r.fill)),
            _ => 0,
        }
    }
    h.output().shapes.iter().map(|c| count(&c.shape)).sum()
}
