//! The one-heap view: the session's length honoured, and lengths from a few heaps to 10⁶ asked
//! for from the view itself.

use egui_kittest::kittest::Queryable;

use nimscope_core::game::Ruleset;
use nimscope_core::session::Session;

use crate::common::{harness, step_until};

/// A session's `sequence_len` was ignored (G(0..600) only), so octal(0.6) to 10⁵ could not be
/// seen; it is computed and saved back as it was.
#[test]
fn a_sessions_sequence_length_is_honoured() {
    let mut h = harness();
    h.step();
    let s = Session {
        ruleset: "octal(0.6)".parse().unwrap(),
        sequence_len: 100_000,
        ..Session::default()
    };
    h.state_mut().apply_session(s).unwrap();
    step_until(&mut h, "G(0..100000) of octal(0.6)", |app| {
        app.map()
            .sequence()
            .sequence()
            .is_some_and(|s| s.values.len() == 100_000)
    });
    h.step();
    assert_eq!(h.state().session().sequence_len, 100_000);
    // the values are those of the plain rule: from n, remove 1 token leaving 0 or 1 heap
    // (digit 6 = 2 + 4: leave one heap, or two): checked by mex on the first heaps
    let seq = h.state().map().sequence().sequence().cloned().unwrap();
    let mut g: Vec<u32> = Vec::new();
    for n in 0..300usize {
        let mut seen = std::collections::HashSet::new();
        if n >= 1 {
            if n >= 2 {
                seen.insert(g[n - 1]); // one heap of n-1 (n-1 ≥ 1)
            }
            for a in 1..n - 1 {
                let b = n - 1 - a; // two heaps a + b = n - 1, both ≥ 1
                if b >= 1 {
                    seen.insert(g[a] ^ g[b]);
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    for (n, &want) in g.iter().enumerate() {
        assert_eq!(seq.values[n], Some(want), "G({n})");
    }
}

/// The view's own control asks for ten times as many heaps.
#[test]
fn the_length_control_asks_for_more_heaps() {
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset("octal(0.07)".parse::<Ruleset>().unwrap());
    step_until(&mut h, "the first sequence", |app| {
        app.map().sequence().sequence().is_some_and(|s| s.values.len() == 600)
    });
    h.step();
    h.get_by_label("×10").click();
    h.step();
    assert_eq!(h.state().map().sequence().length(), 6000);
    step_until(&mut h, "G(0..6000)", |app| {
        app.map().sequence().sequence().is_some_and(|s| s.values.len() == 6000)
    });
    h.step();
    h.step();
    assert!(h.query_by_label_contains("period 34").is_some(), "0.07's period is 34");
}
