//! The one-heap view: the session's length honoured, and lengths from a few heaps to 10⁶ asked
//! for from the view itself.

use egui_kittest::kittest::{NodeT, Queryable};

use nimscope_core::game::Ruleset;
use nimscope_core::session::Session;

use std::time::Duration;

use crate::common::{harness, idle_until, step_until};

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

/// The accessible names of the plot and the strip (which say the heaps they show).
fn plot_and_strip_names(
    h: &egui_kittest::Harness<'static, nimscope::ui::app::App>,
) -> (Option<String>, Option<String>) {
    let name = |prefix: &str| {
        h.query_all_by_label_contains(prefix)
            .find_map(|n| n.accesskit_node().label().filter(|l| l.starts_with(prefix)))
    };
    (name("plot of G(n)"), name("strip of G(n)"))
}

/// A one-heap view of `rules` with G(0..600) shown.
fn showing(rules: &str) -> egui_kittest::Harness<'static, nimscope::ui::app::App> {
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset(rules.parse::<Ruleset>().unwrap());
    step_until(&mut h, "the first sequence", |app| {
        app.map().sequence().sequence().is_some_and(|s| s.values.len() == 600)
    });
    h.step();
    h
}

/// After ×10 the header said n < 600000 and the axis ran to 600,000, but the series stopped at
/// the old length until the pointer moved (no frame when the result arrived), and the plot kept
/// its old range while the strip showed the new one. Frames run here only when the window asks
/// for one, as eframe runs them with no input.
#[test]
fn a_finished_sequence_is_shown_whole_without_input() {
    let mut h = showing("octal(0.6)");
    assert_eq!(
        plot_and_strip_names(&h),
        (
            Some("plot of G(n): heaps 0 to 599 of 600".into()),
            Some("strip of G(n) by colour: heaps 0 to 599 of 600".into())
        )
    );
    h.get_by_label("×10").click();
    h.step();
    h.step();
    let want = (
        Some("plot of G(n): heaps 0 to 5999 of 6000".to_string()),
        Some("strip of G(n) by colour: heaps 0 to 5999 of 6000".to_string()),
    );
    idle_until(
        &mut h,
        "the 6000 heaps in the plot and the strip",
        Duration::from_secs(30),
        |h| plot_and_strip_names(h) == want,
    );
    // and the frame that showed it asked for no other: what is drawn is what the window keeps
    assert_eq!(h.state().map().sequence().sequence().unwrap().values.len(), 6000);
}

/// The strip lay under the whole plot, axis labels included: up to 43 px off the plot's n
/// axis. Its ends are now the plot's first and last heap: pointing there reads them out.
#[test]
fn the_strip_lies_under_the_plots_axis() {
    let mut h = showing("octal(0.07)");
    let strip = h.get_by_label_contains("strip of G(n)").rect();
    let plot = h.get_by_label_contains("plot of G(n)").rect();
    let y = plot.center().y;
    // (the strip's ends are on whole pixels, within half a pixel of the plot's)
    for (x, heap) in [(strip.left() + 0.6, 0), (strip.right() - 0.6, 599)] {
        h.hover_at(egui::pos2(x, y));
        h.step();
        h.step();
        let want = format!("n = {heap}: G(n) = ");
        assert!(
            h.query_by_label_contains(&want).is_some(),
            "the pointer over the plot at the strip's edge x = {x:.1} reads heap {heap}"
        );
    }
}

/// ÷10 computed again the values it had: the shorter sequence is now the prefix of the longer,
/// shown at once, with no job.
#[test]
fn fewer_heaps_reuse_the_values_computed() {
    let mut h = showing("octal(0.6)");
    h.get_by_label("×10").click();
    step_until(&mut h, "G(0..6000)", |app| {
        app.map().sequence().sequence().is_some_and(|s| s.values.len() == 6000)
    });
    let long = h.state().map().sequence().sequence().cloned().unwrap();
    h.step();
    h.get_by_label("÷10").click();
    h.step();
    h.step();
    let app = h.state();
    assert!(
        !app.worker().unwrap().is_running(nimscope::worker::Lane::Map),
        "no job for values in memory"
    );
    let short = app.map().sequence().sequence().cloned().unwrap();
    assert_eq!(short.values[..], long.values[..600]);
    assert_eq!(
        plot_and_strip_names(&h).0.as_deref(),
        Some("plot of G(n): heaps 0 to 599 of 600")
    );
}

/// The ÷10 and ×10 buttons moved as the length field widened with its digits.
#[test]
fn the_length_buttons_stay_still() {
    let mut h = showing("octal(0.07)");
    let at = |h: &egui_kittest::Harness<'static, nimscope::ui::app::App>| {
        ["÷10", "×10"].map(|b| h.get_by_label(b).rect().left())
    };
    let before = at(&h);
    h.state_mut().map_mut().sequence_mut().set_length(1_000_000);
    h.step();
    h.step();
    assert_eq!(at(&h), before);
}

/// The strip had thin dark seams (every ~64 heaps at 10⁴) that read as P-positions where
/// octal(0.6) has none past n = 408: it was drawn as many rectangles with fractional edges,
/// the background showing between them. It is one texture of a texel a pixel: each texel is
/// P-coloured exactly when one of its heaps is P.
#[test]
fn the_strip_has_no_seam_without_a_p_position() {
    let mut h = harness();
    h.step();
    let s = Session {
        ruleset: "octal(0.6)".parse().unwrap(),
        sequence_len: 10_000,
        color: nimscope_core::raster::ColorMode::Grundy(nimscope_core::raster::Palette::Viridis),
        ..Session::default()
    };
    h.state_mut().apply_session(s).unwrap();
    step_until(&mut h, "G(0..10000)", |app| {
        app.map()
            .sequence()
            .sequence()
            .is_some_and(|s| s.values.len() == 10_000)
    });
    h.step();
    h.step();
    let strip = h.get_by_label_contains("strip of G(n)").rect();
    // painted as one image over the strip: a mesh of one texture, a texel a pixel, its colours
    // those of `strip_colors` (checked against the rule below)
    let meshes: Vec<_> = h
        .output()
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            egui::Shape::Mesh(m) if m.texture_id != egui::TextureId::default() => Some(m.clone()),
            _ => None,
        })
        .filter(|m| m.calc_bounds() == strip)
        .collect();
    assert_eq!(meshes.len(), 1, "the strip is one image");
    let size = h.ctx.tex_manager().read().meta(meshes[0].texture_id).map(|m| m.size);
    let width = strip.width().round() as usize;
    assert_eq!(size, Some([width, 1]), "a texel a pixel");
    let seq = h.state().map().sequence().sequence().cloned().unwrap();
    let max = seq.values.iter().flatten().copied().max().unwrap();
    let last_p = (0..10_000).rev().find(|&n| seq.values[n] == Some(0)).unwrap();
    assert_eq!(last_p, 408, "octal(0.6)'s last P-position below 10⁴");
    for color in [
        nimscope_core::raster::ColorMode::Grundy(nimscope_core::raster::Palette::Viridis),
        nimscope_core::raster::ColorMode::Outcome,
    ] {
        let top = if color == nimscope_core::raster::ColorMode::Outcome {
            1
        } else {
            max
        };
        let texture = nimscope::ui::canvas::sequence_view::strip_colors(&seq, color, top, -0.5, 9999.5, width);
        let p_colour = color.color(Some(0), top, None);
        // brute force: pixel i holds the heaps whose centre lies in it (heap n centred at n,
        // the plot showing -0.5..10000-0.5)
        for (i, texel) in texture.iter().enumerate() {
            let x0 = -0.5 + 10_000.0 * i as f64 / width as f64;
            let x1 = -0.5 + 10_000.0 * (i + 1) as f64 / width as f64;
            let heaps = (x0.ceil().max(0.0) as usize)..(x1.ceil().max(0.0) as usize).min(10_000);
            assert!(!heaps.is_empty(), "pixel {i} holds a heap");
            let any_p = heaps.clone().any(|n| seq.values[n] == Some(0));
            let least = heaps.clone().filter_map(|n| seq.values[n]).min();
            // the pixel's colour is its least value's, and (by outcome) P exactly when one is
            assert_eq!(
                *texel,
                color.color(least, top, None),
                "{color:?}: pixel {i} (heaps {heaps:?})"
            );
            if color == nimscope_core::raster::ColorMode::Outcome {
                assert_eq!(*texel == p_colour, any_p, "pixel {i} (heaps {heaps:?})");
            }
        }
    }
}

/// The one-heap view says "certified" with the evidence `seq --certificate` writes for the same
/// values (pre-period, period, the values checked, what the theorem needs), and claims no
/// certificate where the command line writes none (issue 42, the window's part).
#[test]
fn the_certified_period_is_the_command_lines_certificate() {
    let dir = crate::common::temp_dir("window-certificate");
    for (rules, octal) in [("sub(1,3,4)", false), ("octal(0.07)", true)] {
        let mut h = harness();
        h.step();
        h.state_mut().set_ruleset(rules.parse().unwrap());
        step_until(&mut h, "the sequence", |app| app.map().sequence().sequence().is_some());
        h.step();
        let n = h.state().map().sequence().length().to_string();
        let file = dir.join(format!("{}.json", if octal { "octal" } else { "sub" }));
        let out = crate::common::nimscope(&["seq", rules, "--to", &n, "--certificate", file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let cli: nimscope_core::solver::sequence::Certificate =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let seq = h.state().map().sequence().sequence().unwrap().clone();
        assert_eq!(seq.certificate.as_ref(), Some(&cli), "{rules}: the window's evidence");
        let words = format!(
            "period {}, pre-period {}: certified (G(n + {}) = G(n) checked for {} ≤ n < {}, {} ≥ the {} the theorem needs",
            cli.period,
            cli.preperiod,
            cli.period,
            cli.preperiod,
            cli.checked - cli.period,
            cli.checked,
            cli.needed
        );
        assert!(h.query_by_label_contains(&words).is_some(), "{rules}: {words}");
    }
    // a period the command line writes no certificate for is not called certified
    let mut h = harness();
    h.step();
    h.state_mut().set_ruleset("misere(sub(1,3,4))".parse().unwrap());
    step_until(&mut h, "the sequence", |app| app.map().sequence().sequence().is_some());
    h.step();
    let n = h.state().map().sequence().length().to_string();
    let file = dir.join("misere.json");
    let out = crate::common::nimscope(&[
        "seq",
        "misere(sub(1,3,4))",
        "--to",
        &n,
        "--certificate",
        file.to_str().unwrap(),
    ]);
    assert!(
        !out.status.success(),
        "the command line writes no certificate of a misère game"
    );
    assert!(h.state().map().sequence().sequence().unwrap().certificate.is_none());
    assert!(h.query_by_label_contains("certified (").is_none());
}

/// The misère one-heap view's header (its outcomes given by the quotient, a long line) widened
/// the centre: the plot ran under the inspector, its axis cut at about n = 350 of 600. The plot
/// and the strip now end left of the inspector, at 1280 × 800 and at 800 × 600.
#[test]
fn the_misere_plot_stays_left_of_the_inspector() {
    for (w, hgt) in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = crate::common::harness_sized(w, hgt);
        h.step();
        // past the heaps a small search values, the outcomes come from the quotient (46
        // heaps: a quotient of seconds, as the one of 600 heaps is not)
        h.state_mut().map_mut().sequence_mut().set_length(46);
        h.state_mut().set_ruleset("misere(octal(0.77))".parse().unwrap());
        step_until(&mut h, "the misère sequence", |app| {
            app.map()
                .sequence()
                .sequence()
                .is_some_and(|s| s.outcomes_only.is_some())
        });
        h.step();
        h.step();
        let plot = h.get_by_label_contains("plot of G(n)").rect();
        let strip = h.get_by_label_contains("strip of G(n)").rect();
        // (at 800 × 600 the inspector is folded away: the window's edge bounds them)
        let right = h.query_by_label("Inspect").map_or(w, |n| n.rect().left());
        if w > 1000.0 {
            assert!(right < w, "the inspector is shown at {w}");
        }
        assert!(
            plot.right() <= right && strip.right() <= right,
            "{w}×{hgt}: the plot ends at {} and the strip at {}, the inspector starts at {right}",
            plot.right(),
            strip.right()
        );
        assert!(
            h.query_by_label_contains("by the misère quotient of octal(0.07)")
                .is_some()
                || h.query_by_label_contains("the outcome alone").is_some()
        );
    }
}
