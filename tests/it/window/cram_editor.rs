//! Behaviour of the Cram board editor through egui_kittest (no GPU, no display): blocking a
//! cell, placing and removing dominoes, reading the value, undo and redo (buttons and keys),
//! pasting good and bad board text, Push Cram's push and row values, the memory budget and the
//! 128-cell limit, cancelling, the value shown before the placements. Values are checked
//! against a brute force written here.

use std::collections::HashMap;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use nimscope::ui::app::App;
use nimscope::ui::panels::cram_editor::SolveState;
use nimscope_core::game::cram_setup::{CramGame, Setup};
use nimscope_core::game::rules::cram_board::{Board, Domino, Orientation};
use nimscope_core::session::CentralTab;

use crate::common::{click_at, harness_with_budget, step_until};

/// Opens the editor tab on the board `text`, typed into the board text field.
fn open_on(h: &mut Harness<'static, App>, text: &str) {
    h.step();
    h.get_by_label("Cram board").click();
    h.step();
    h.get_by_label("Board text").focus();
    h.step();
    h.get_by_label("Board text").type_text(text);
    h.step();
    h.get_by_label("Use board text").click();
    h.step();
    assert_eq!(h.state().central_tab(), CentralTab::CramBoard);
}

fn solved(app: &App) -> bool {
    app.cram_editor().report().is_some()
}

/// The plain mex recursion over whole boards: the oracle of these tests.
fn brute(b: &Board, memo: &mut HashMap<Board, u32>) -> u32 {
    if let Some(&v) = memo.get(b) {
        return v;
    }
    let opts: Vec<u32> = b
        .legal_moves()
        .into_iter()
        .map(|d| brute(&b.place(d).unwrap(), memo))
        .collect();
    let v = (0..).find(|v| !opts.contains(v)).unwrap();
    memo.insert(*b, v);
    v
}

fn value_label(v: u32) -> String {
    if v == 0 {
        "Value: G = 0, P (the previous player wins)".into()
    } else {
        format!("Value: G = {v}, N (the player to move wins)")
    }
}

/// Solves, then checks the shown value against the brute force of the editor's board.
fn check_shown_value(h: &mut Harness<'static, App>) -> u32 {
    step_until(h, "the report", solved);
    h.step();
    let board = h.state().cram_editor().setup().to_board().unwrap();
    let v = brute(&board, &mut HashMap::new());
    assert!(
        h.query_by_label(&value_label(v)).is_some(),
        "expected '{}' for {board}",
        value_label(v)
    );
    v
}

#[test]
fn block_a_cell_place_a_domino_read_the_value_undo_and_redo() {
    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "2x4");
    assert_eq!(check_shown_value(&mut h), 0); // both sides even: a second-player win

    // block cell (0,0) with a click on its centre
    let p = h.state().cram_editor().view.screen_pos_of_cell(0, 0).unwrap();
    click_at(&mut h, p);
    assert!(h.state().cram_editor().setup().is_blocked(0, 0));
    let blocked = check_shown_value(&mut h);

    // place a vertical domino by dragging from (0,3) to (1,3)
    let a = h.state().cram_editor().view.screen_pos_of_cell(0, 3).unwrap();
    let b = h.state().cram_editor().view.screen_pos_of_cell(1, 3).unwrap();
    h.hover_at(a);
    h.step();
    h.drag_at(a);
    h.step();
    h.hover_at(egui::pos2(a.x, (a.y + b.y) / 2.0));
    h.step();
    h.hover_at(b);
    h.step();
    h.drop_at(b);
    h.step();
    h.step();
    let v3 = Domino {
        row: 0,
        col: 3,
        orientation: Orientation::Vertical,
    };
    assert_eq!(h.state().cram_editor().setup().dominoes(), &[v3]);
    assert_eq!(h.state().cram_editor().setup().position_text(), "#..#/...#");
    let placed = check_shown_value(&mut h);

    // place a horizontal domino by clicking the edge between (1,0) and (1,1)
    let h10 = Domino {
        row: 1,
        col: 0,
        orientation: Orientation::Horizontal,
    };
    let p = h.state().cram_editor().view.screen_pos_of_edge(h10).unwrap();
    click_at(&mut h, p);
    assert_eq!(h.state().cram_editor().setup().dominoes(), &[v3, h10]);
    check_shown_value(&mut h);

    // undo (button), undo (Ctrl+Z), redo (Ctrl+Shift+Z), redo (Ctrl+Y)
    h.get_by_label("Undo").click();
    h.step();
    assert_eq!(h.state().cram_editor().setup().dominoes(), &[v3]);
    assert_eq!(check_shown_value(&mut h), placed);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
    assert!(h.state().cram_editor().setup().dominoes().is_empty());
    assert_eq!(check_shown_value(&mut h), blocked);
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.step();
    assert_eq!(h.state().cram_editor().setup().dominoes(), &[v3]);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    h.step();
    assert_eq!(h.state().cram_editor().setup().dominoes(), &[v3, h10]);

    // click a domino to remove it
    let p = h.state().cram_editor().view.screen_pos_of_cell(0, 3).unwrap();
    click_at(&mut h, p);
    assert_eq!(h.state().cram_editor().setup().dominoes(), &[h10]);
    check_shown_value(&mut h);
}

#[test]
fn playing_from_the_move_list_follows_the_values() {
    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "..../..#./....");
    let v = check_shown_value(&mut h);
    // every listed move's value is the brute-force value after it; winning ones lead to 0
    let report = h.state().cram_editor().report().unwrap().clone();
    let mut memo = HashMap::new();
    let mut winning = None;
    for m in &report.moves {
        let nimscope_core::solver::cram::push::PushMove::Place(d) = m.mv else {
            panic!("Cram has no push")
        };
        let after = brute(&report.board.place(d).unwrap(), &mut memo);
        assert_eq!(m.value, Some(after));
        assert_eq!(m.winning, after == 0);
        if m.winning {
            winning.get_or_insert(d);
        }
    }
    // the value is the mex of the options
    let opts: Vec<u32> = report.moves.iter().map(|m| m.value.unwrap()).collect();
    assert_eq!(v, (0..).find(|x| !opts.contains(x)).unwrap());
    let d = winning.expect("the position is an N-position with a winning move");
    h.get_by_label(&format!("place {d}")).click();
    h.step();
    assert_eq!(check_shown_value(&mut h), 0);
}

#[test]
fn components_are_listed_and_nim_sum_to_the_whole() {
    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "...#..../...#..../...#....");
    let total = check_shown_value(&mut h);
    let report = h.state().cram_editor().report().unwrap().clone();
    assert_eq!(report.components.len(), 2);
    let mut memo = HashMap::new();
    let mut xor = 0;
    for (i, comp) in report.components.iter().enumerate() {
        let part = Board::from_mask(3, 8, comp.cells).unwrap();
        let v = brute(&part, &mut memo);
        assert_eq!(comp.value, Some(v));
        let cells = comp.cells.count_ones();
        assert!(
            h.query_by_label(&format!("component {}: {cells} cells, G = {v}", i + 1))
                .is_some()
        );
        xor ^= v;
    }
    assert_eq!(xor, total);
}

#[test]
fn bad_pasted_text_names_row_and_column_and_changes_nothing() {
    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "3x3");
    let before = h.state().cram_editor().setup().clone();
    h.state_mut().cram_editor_mut().paste_text.clear();
    h.get_by_label("Board text").focus();
    h.step();
    h.get_by_label("Board text").type_text("..../..x./....");
    h.step();
    h.get_by_label("Use board text").click();
    h.step();
    assert_eq!(h.state().cram_editor().setup(), &before);
    assert!(
        h.query_by_label_contains("row 2, column 3: unexpected 'x'").is_some(),
        "the message names the row and the column"
    );
    // Ctrl+V over the board pastes too
    h.event(egui::Event::Paste("../..".into()));
    h.step();
    h.step();
    assert_eq!(h.state().cram_editor().setup(), &Setup::parse("2x2").unwrap());
}

#[test]
fn push_cram_shows_the_phase_the_push_and_the_row_values() {
    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "..#./....");
    h.get_by_label("Push Cram").click();
    h.step();
    assert_eq!(h.state().cram_editor().model.rules(), CramGame::PushCram);
    step_until(&mut h, "the Push Cram report", solved);
    h.step();
    assert!(h.query_by_label_contains("Phase: before the push").is_some());
    // row 0: runs of 2 and 1 (0.07 values 1, 0); row 1: a run of 4 (value 2)
    assert!(h.query_by_label("row 0: 1").is_some());
    assert!(h.query_by_label("row 1: 2").is_some());
    assert!(
        h.query_by_label("After the push: G = 3, N (the player to move wins)")
            .is_some()
    );
    let report = h.state().cram_editor().report().unwrap().clone();
    // vertical dominoes fit at columns 0, 1 and 3; the push comes last and does not win
    assert_eq!(report.moves.len(), 4);
    assert!(!report.moves[3].winning);
    assert!(!report.bluff);
    assert!(h.query_by_label("Bluff position: no").is_some());
    h.get_by_label("push the button").click();
    h.step();
    step_until(&mut h, "the pushed report", solved);
    h.step();
    assert!(h.query_by_label_contains("Phase: after the push").is_some());
    assert!(h.query_by_label(&value_label(3)).is_some());
    // only horizontal dominoes now
    let report = h.state().cram_editor().report().unwrap().clone();
    assert_eq!(report.moves.len(), 1 + 3);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
    assert!(!h.state().cram_editor().setup().pushed);
    // switching to Push Cram is undone like an edit
    h.get_by_label("Undo").click();
    h.step();
    assert_eq!(h.state().cram_editor().model.rules(), CramGame::Cram);
    assert_eq!(h.state().cram_editor().setup(), &Setup::parse("..#./....").unwrap());
}

#[test]
fn too_large_for_the_budget_or_the_solver_says_so_and_stays_editable() {
    let mut h = harness_with_budget(64 << 10); // 64 KiB: not even the smallest transposition table fits
    open_on(&mut h, "2x3");
    step_until(&mut h, "the refusal", |app| {
        matches!(app.cram_editor().state(), SolveState::Failed(_))
    });
    h.step();
    assert!(h.query_by_label_contains("memory budget").is_some());
    let p = h.state().cram_editor().view.screen_pos_of_cell(1, 1).unwrap();
    click_at(&mut h, p);
    assert!(h.state().cram_editor().setup().is_blocked(1, 1));

    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "12x12");
    h.step();
    assert!(h.query_by_label_contains("the solver takes at most 128").is_some());
    let p = h.state().cram_editor().view.screen_pos_of_cell(11, 11).unwrap();
    click_at(&mut h, p);
    assert!(h.state().cram_editor().setup().is_blocked(11, 11));
    assert_eq!(h.state().cram_editor().state(), SolveState::Idle);
}

#[test]
fn cancel_stops_solving_and_solve_again_restarts() {
    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "8x16");
    step_until(&mut h, "a running job", |app| {
        app.cram_editor().state() == SolveState::Running
    });
    h.step();
    h.get_by_label("Cancel solving").click();
    h.step();
    h.step();
    assert_eq!(h.state().cram_editor().state(), SolveState::Cancelled);
    assert!(!h.state().worker().unwrap().is_running(nimscope::worker::Lane::Cram));
    // the status bar's Cancel stops the Cram lane too
    h.get_by_label("Solve again").click();
    h.step();
    h.step();
    assert_eq!(h.state().cram_editor().state(), SolveState::Running);
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    assert_eq!(h.state().cram_editor().state(), SolveState::Cancelled);
}

#[test]
fn choosing_a_cram_ruleset_opens_the_editor() {
    let mut h = harness_with_budget(1 << 30);
    h.step();
    h.get_by_label("push-cram").click();
    h.step();
    h.step();
    assert_eq!(h.state().central_tab(), CentralTab::CramBoard);
    assert_eq!(h.state().cram_editor().model.rules(), CramGame::PushCram);
    step_until(&mut h, "the default board's report", solved);
}

#[test]
fn the_value_shows_first_and_the_placements_fill_in_after_it() {
    // 8×8 is 0 at once (the mirror strategy) while each of its 112 placements needs a long
    // search: the value and the progress show while the job runs, and stay after a cancel.
    let mut h = harness_with_budget(1 << 30);
    open_on(&mut h, "8x8");
    step_until(&mut h, "the value", |app| app.cram_editor().report().is_some());
    h.step();
    assert_eq!(h.state().cram_editor().state(), SolveState::Running);
    let report = h.state().cram_editor().report().unwrap().clone();
    assert_eq!((report.value, report.moves_total), (0, 112));
    assert!(!report.is_complete());
    assert!(h.query_by_label_contains("Value: G = 0, P").is_some());
    assert!(h.query_by_label_contains("valuing the placements").is_some());
    assert!(
        h.query_by_label_contains("known once every placement is valued")
            .is_some()
    );
    h.get_by_label("Cancel solving").click();
    h.step();
    h.step();
    assert_eq!(h.state().cram_editor().state(), SolveState::Cancelled);
    assert!(h.query_by_label_contains("Value: G = 0, P").is_some());
    // an edit drops the partial report: the new board is solved from the start
    let p = h.state().cram_editor().view.screen_pos_of_cell(0, 0).unwrap();
    click_at(&mut h, p);
    assert!(h.state().cram_editor().report().is_none_or(|r| r.board != report.board));
}

#[test]
fn the_board_tab_gives_the_board_the_room_of_the_side_panels() {
    let mut h = harness_with_budget(1 << 30);
    h.step();
    assert!(h.query_by_label("Inspector").is_some());
    h.get_by_label("Cram board").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Inspector").is_none());
    assert!(h.query_by_label("Catalog").is_none());
    h.get_by_label("Show the rulesets").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Catalog").is_some());
}
