//! One state per job (issue 41): a job is queued, running, done, stopped by Cancel or failed,
//! and the centre, the status bar with its progress bar, and the inspector say the same of it.
//! The failed cases the issue names are in `regression.rs` (a failed sequence, a failed map,
//! Play on a game that is not finite, the editor's hint) and `quotient.rs` (a misère sequence
//! counting its quotient); these are the cancelled ones, which still said "computing" or showed
//! a progress bar with nothing running, and a view held back by the tile budget, which said
//! "queued" with nothing to come.

use egui_kittest::kittest::{NodeT, Queryable};

use nimscope::ui::job::JobState;
use nimscope_core::game::{Position, Ruleset};
use nimscope_core::solver::tiles::CellRect;

use crate::common::{harness, harness_with_budget, has_label, has_report, step_until};

/// Whether the window shows a progress bar.
fn progress_bar_shown(h: &egui_kittest::Harness<'static, nimscope::ui::app::App>) -> bool {
    h.query_by_role(egui::accesskit::Role::ProgressIndicator).is_some()
}

/// Cancel stopped a one-heap sequence before it came: the centre kept "computing G(0..600)…"
/// for ever. It says the job was stopped, with a button that computes it again.
#[test]
fn a_cancelled_sequence_says_so_in_place_of_computing() {
    let mut h = harness();
    h.step();
    let r: Ruleset = "octal(0.137)".parse().unwrap();
    h.state_mut().set_ruleset(r);
    h.step(); // the sequence's job is asked for
    assert!(h.state().worker().is_some_and(|w| w.running().next().is_some()));
    h.state_mut().cancel_jobs(); // before its answer is taken
    h.step();
    h.step();
    assert!(h.state().map().sequence().sequence().is_none());
    assert!(
        !has_label(&h, "computing G(0.."),
        "a cancelled job still says it is working"
    );
    assert!(!progress_bar_shown(&h), "no progress bar: nothing runs");
    assert!(
        h.query_all_by_label_contains("G(0..600): stopped by Cancel").count() >= 2,
        "the centre and the status bar say it was stopped"
    );
    // Compute again brings the sequence: the centre's button (the status bar's, drawn
    // first, does the same)
    let again = h.query_all_by_label("Compute G(0..600) again").last().unwrap();
    again.click();
    step_until(&mut h, "the sequence computed again", |app| {
        app.map().sequence().sequence().is_some()
    });
    h.step();
    assert!(!has_label(&h, "stopped by Cancel"));
}

/// Cancel stopped a map's fill: the status bar kept its progress bar ("12 %, map: 2.1 k of
/// 16.8 M cells") with nothing running. It says the fill was stopped, and offers to go on.
#[test]
fn a_cancelled_map_shows_no_progress_bar() {
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset(Ruleset::Wythoff);
    // a view that takes seconds to fill
    h.state_mut()
        .map_state_mut()
        .show_region(CellRect::new(0..4000, 0..4000));
    step_until(&mut h, "the fill under way", |app| {
        app.worker().is_some_and(|w| w.running().next().is_some()) && app.map().progress().in_view > 0
    });
    assert!(!h.state().map_complete());
    h.state_mut().cancel_jobs();
    h.step();
    h.step();
    assert!(h.state().worker().is_some_and(|w| w.running().next().is_none()));
    assert!(!progress_bar_shown(&h), "a progress bar with nothing running");
    assert!(has_label(&h, "the map: stopped by Cancel"));
    h.get_by_label("Compute the map again").click();
    step_until(&mut h, "the map filled after Compute again", |app| app.map_complete());
    h.step();
    assert!(!has_label(&h, "stopped by Cancel"));
}

/// Cancel stopped the selected position's report: the inspector said so, but still offered
/// "Play from here", whose options would never come. Play is disabled with a tooltip until
/// the value is computed again.
#[test]
fn no_play_from_a_position_whose_value_cancel_stopped() {
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset(Ruleset::Nim);
    h.step();
    h.state_mut()
        .inspector_mut()
        .select_text(&Ruleset::Nim, "3,5,7")
        .unwrap();
    h.state_mut().cancel_jobs(); // before the report is asked for
    h.step();
    h.step();
    assert!(has_label(&h, "3,5,7: stopped by Cancel"));
    let play = h.get_by_label("Play from here");
    assert!(
        play.accesskit_node().is_disabled(),
        "Play is offered for a position whose value will not come"
    );
    // the inspector's (the status bar's says what it computes: "Compute the map again")
    h.get_by_label("Compute again").click();
    let p = Position::heaps(&[3, 5, 7]);
    step_until(&mut h, "the report of 3,5,7", |app| has_report(app, &p));
    h.step();
    assert!(!h.get_by_label("Play from here").accesskit_node().is_disabled());
}

/// A view that needs more map tiles than may be kept is refused before its job starts: the
/// status bar said "the map: queued" beside the red refusal, though nothing would run. Its
/// state is "held back" with the reason, said by the centre (over the map) and the status bar,
/// with nothing running; zoomed in, the view is asked for and fills.
#[test]
fn a_view_past_the_tile_budget_is_held_back_not_queued() {
    // 4 MiB: the tiles may take 1 MiB, two tiles of 256 × 256 cells; rows and columns 0..300
    // at two pixels a cell lie on four
    let mut h = harness_with_budget(4 << 20);
    h.step();
    h.state_mut().set_ruleset(Ruleset::Nim);
    h.state_mut().map_state_mut().show_region(CellRect::new(0..300, 0..300));
    for _ in 0..4 {
        h.step();
    }
    let held = "the map held back: the view needs more than 1.0 MiB of map tiles";
    assert!(
        !has_label(&h, "the map: queued"),
        "queued, though nothing will be asked"
    );
    assert_eq!(
        h.query_all_by_label_contains(held).count(),
        2,
        "the centre and the status bar say it is held back, and why"
    );
    let map_runs =
        |app: &nimscope::ui::app::App| app.worker().is_some_and(|w| w.is_running(nimscope::worker::Lane::Map));
    assert!(!map_runs(h.state()), "a held view asks nothing of the worker");
    assert!(!progress_bar_shown(&h), "no progress bar: nothing runs");
    // a view of one tile fits: it is asked for and fills
    h.state_mut().map_state_mut().show_region(CellRect::new(0..100, 0..100));
    step_until(&mut h, "the map filled once zoomed in", |app| app.map_complete());
    h.step();
    assert!(!has_label(&h, "held back"));
}

/// The inspector's running job showed no count ("computing 3000000…") while the status bar
/// showed its progress. Both read the job's one state: the inspector says the same "… of
/// 1.0 M positions" as the status bar's "… of 1.0 M positions, 150.0 k positions/s".
#[test]
fn the_inspector_counts_its_running_job_as_the_status_bar_does() {
    let mut h = harness();
    h.step();
    let r: Ruleset = "octal(0.6)".parse().unwrap();
    h.state_mut().set_ruleset(r.clone());
    h.step();
    // a heap the inspector needs seconds for (the values up to it, counted)
    h.state_mut().inspector_mut().select_text(&r, "3000000").unwrap();
    let p = Position::heaps(&[3_000_000]);
    let counted = |app: &nimscope::ui::app::App| matches!(app.inspector().job_state(&p), JobState::Running { done, total, .. } if done > 0 && total > 0);
    step_until(&mut h, "the inspector's job counting", counted);
    h.step();
    let texts: Vec<String> = h
        .query_all(egui_kittest::kittest::by().predicate(|_| true))
        .map(|n| text_of(&n))
        .collect();
    let bar = texts
        .iter()
        .find(|t| t.contains(" positions, ") && t.ends_with(" positions/s"))
        .expect("the status bar counts the inspector's job");
    // " of 1.0 M positions"
    let of_total = &bar[bar.find(" of ").unwrap()..bar.find(", ").unwrap()];
    assert!(
        texts.iter().any(|t| t.ends_with(of_total) && !t.contains("/s")),
        "the inspector counts its job as the status bar does ({bar:?}): {texts:?}"
    );
}

/// A typed rule whose guard overflows (n^30 passes 2^127 from heap 19 on) fails by arithmetic,
/// not by growing without bound: the centre, the status bar and the inspector each say it
/// failed and why (the overflow, as `nimscope seq` says it: "term 1 of the rule, …, at heap
/// 19 (n = 19): n ^ 30 is past the integers of 128 bits"), and nothing says it computes.
#[test]
fn a_rule_that_overflows_says_why_everywhere() {
    let mut h = harness();
    h.step();
    let text = "rule(n -> n - 1 if n^30 > 0)";
    let r: Ruleset = text.parse().unwrap();
    h.state_mut().ruleset_panel_mut().set_expression(text);
    h.state_mut().set_ruleset(r.clone());
    step_until(&mut h, "the sequence's failure", |app| app.map().failure().is_some());
    h.state_mut().inspector_mut().select_text(&r, "25").unwrap();
    let p = Position::heaps(&[25]);
    step_until(&mut h, "the inspector's failure", |app| {
        app.inspector().job_state(&p) != JobState::Queued && !app.inspector().job_state(&p).is_working()
    });
    h.step();
    h.step();
    let overflow = "n ^ 30 is past the integers of 128 bits";
    let why = h.state().map().failure().unwrap();
    assert!(
        why.contains("at heap 19 (n = 19): n ^ 30 is past the integers"),
        "{why}"
    );
    assert!(!has_label(&h, "computing"), "a failed job still says it is working");
    assert!(has_label(&h, "Not computed: "), "the centre says the job failed");
    let said: Vec<String> = h.query_all_by_label_contains(overflow).map(|n| text_of(&n)).collect();
    let saying = |start: &str| said.iter().any(|l| l.starts_with(start));
    let failed = "G(0..600): term 1 of the rule, 'n - 1 if n ^ 30 > 0', at heap 19 (n = 19)";
    assert!(saying(&format!("Not computed: {r}: {failed}")), "the centre: {said:?}");
    assert!(saying(&format!("{r}: {failed}")), "the status bar: {said:?}");
    assert!(saying("25: term 1 of the rule"), "the inspector: {said:?}");
    assert!(h.get_by_label("Play from here").accesskit_node().is_disabled());
}

/// What a node says: a label's text (AccessKit keeps it as the value), else its name.
fn text_of(n: &egui_kittest::Node<'_>) -> String {
    let a = n.accesskit_node();
    match a.role() {
        egui::accesskit::Role::Label => a.value(),
        _ => a.label(),
    }
    .unwrap_or_default()
}
