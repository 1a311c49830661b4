//! Texts are parsed once, at the border, into types: a rule typed in the editor once per change
//! of its text, and never again on its way to the map nor on any frame after; the expression
//! of the ruleset panel when it changes, not each frame; a session's texts once, on opening.
//! The core counts the ruleset expressions each thread parses
//! (`nimscope_core::game::parse_count`); the window runs on the test's thread.

use egui_kittest::kittest::Queryable;

use nimscope_core::game::Ruleset;
use nimscope_core::game::parse_count::rulesets_parsed;

use crate::common::{example, harness, settle, step_until, temp_dir};

/// Grundy's game typed in the rule editor: one parse for the one change of its text; applying
/// it, computing its sequence and drawing it for frames parse nothing more (the editor hands
/// the ruleset it parsed to the map).
#[test]
fn a_typed_rule_is_parsed_once_per_change_and_never_per_frame() {
    let mut h = harness();
    settle(&mut h);
    let editor = "Rule (Ctrl+Enter applies)";
    h.get_by_label(editor).focus();
    h.step();
    let before = rulesets_parsed();
    let text = "rule(n -> [k, n - k] for k in 1..n if 2*k < n)";
    h.get_by_label(editor).type_text(text);
    h.step();
    assert_eq!(rulesets_parsed() - before, 1, "one change of the text, one parse");
    settle(&mut h);
    assert_eq!(rulesets_parsed() - before, 1, "frames without a change parse nothing");
    h.get_by_label("Apply rule").click();
    step_until(&mut h, "the typed rule's sequence", |app| {
        app.map().sequence().sequence().is_some()
    });
    for _ in 0..10 {
        h.step();
    }
    let parsed = rulesets_parsed() - before;
    assert_eq!(parsed, 1, "applied, computed and drawn: still the one parse");
    assert_eq!(*h.state().ruleset(), text.parse::<Ruleset>().unwrap());
    assert!(h.state().ruleset_panel().expression().starts_with("rule("));
}

/// The expression typed in the ruleset panel is parsed when it changes: a frame with the same
/// text parses nothing, and Apply takes the ruleset already parsed.
#[test]
fn the_expression_is_parsed_when_it_changes_not_each_frame() {
    let mut h = harness();
    settle(&mut h);
    let before = rulesets_parsed();
    settle(&mut h);
    assert_eq!(rulesets_parsed(), before, "a frame parses nothing");
    h.state_mut().ruleset_panel_mut().set_expression("zeruclid");
    settle(&mut h);
    assert_eq!(rulesets_parsed() - before, 1, "the new text, once");
    h.get_by_label("Apply expression").click();
    settle(&mut h);
    assert_eq!(*h.state().ruleset(), Ruleset::Zeruclid);
    assert_eq!(rulesets_parsed() - before, 1, "applied without parsing again");
}

/// A session's ruleset and compared ruleset are parsed once each on opening; showing, saving
/// and exporting it parse nothing.
#[test]
fn a_session_is_parsed_once_on_opening_and_never_again() {
    let dir = temp_dir("parses");
    let mut h = harness();
    settle(&mut h);
    let before = rulesets_parsed();
    h.state_mut()
        .open_session(&example("wythoff2-typed-vs-wythoff.ron"))
        .unwrap();
    assert_eq!(rulesets_parsed() - before, 2, "the typed rule and the compared wythoff");
    for _ in 0..10 {
        h.step();
    }
    h.state_mut().save_session(&dir.join("again.ron")).unwrap();
    h.state().export_spec().unwrap();
    settle(&mut h);
    assert_eq!(
        rulesets_parsed() - before,
        2,
        "shown, saved and exported: no parse more"
    );
}
