//! Behaviour of the inspector through egui_kittest: selecting a cell by clicking the map,
//! expanding a node of the move tree (by mouse and by keyboard), making a move and undoing it,
//! the computer's reply, and a typed illegal position. Expected values come from closed forms
//! (Wythoff's P-positions, Bouton's nim-sum), not from the code under test.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nimscope::ui::app::App;
use nimscope_core::game::{Cell, Position, Ruleset, theory};
use nimscope_core::solver::play::Opponent;

use crate::common::{harness, step_until};

fn click_at(h: &mut Harness<'static, App>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
}

fn has_report(app: &App, p: &Position) -> bool {
    app.inspector().report(p).is_some()
}

fn select_typed(h: &mut Harness<'static, App>, ruleset: &str, position: &str) -> Position {
    let r: Ruleset = ruleset.parse().unwrap();
    h.state_mut().ruleset_panel_mut().set_expression(ruleset);
    h.state_mut().set_ruleset(r.clone());
    h.step();
    h.state_mut().inspector_mut().doc.typed = position.into();
    h.step();
    h.get_by_label("Inspect").click();
    h.step();
    let p = r.parse_position(position).unwrap();
    assert_eq!(h.state().inspector().root(), Some(&p));
    step_until(h, "the report", |app| has_report(app, &p));
    h.step();
    p
}

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
fn the_keyboard_walks_the_tree_when_the_pointer_is_over_the_inspector() {
    let mut h = harness();
    select_typed(&mut h, "nim", "1,2");
    let inspector = h.get_by_label_contains("1,2   G =").rect().center();
    h.hover_at(inspector);
    h.step();
    let camera = h.state().map_state().camera;
    h.key_press(egui::Key::ArrowLeft); // collapse the root
    h.step();
    h.step();
    assert!(h.state().inspector().doc.expanded.is_empty());
    h.key_press(egui::Key::ArrowRight); // expand it again
    h.step();
    h.step();
    assert!(h.state().inspector().doc.expanded.contains("1,2"));
    h.key_press(egui::Key::ArrowDown); // to the first option
    h.step();
    h.step();
    assert_eq!(h.state().inspector().cursor(), Some("1,2 > 0,2"));
    h.key_press(egui::Key::ArrowLeft); // a leaf: back to the parent
    h.step();
    h.key_press(egui::Key::ArrowLeft); // collapse
    h.step();
    h.step();
    assert!(h.state().inspector().doc.expanded.is_empty());
    // the map did not pan while the inspector had the arrows
    assert_eq!(h.state().map_state().camera.center_a, camera.center_a);
    assert_eq!(h.state().map_state().camera.center_b, camera.center_b);
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
