//! Tests of `color`.
use super::{OUTCOME_FORM_FROM, Ruleset, legend};
use crate::raster::{
    COLOR_MODES, ColorMode, CompareWith, Legend, LegendItem, LegendSpec, MarksShown, Palette, Pooling, colors,
};
use crate::solver::tiles::{CellRect, KeyRule, NO_POSITION, NOT_COMPUTED};

#[test]
fn palettes_run_from_dark_to_light_and_difference_stands_out() {
    let lum = |c: [u8; 4]| c[0] as u32 * 3 + c[1] as u32 * 6 + c[2] as u32;
    for p in [Palette::Viridis, Palette::Cividis] {
        assert!(lum(p.at(0.0)) < lum(p.at(0.5)) && lum(p.at(0.5)) < lum(p.at(1.0)));
    }
    assert_eq!(ColorMode::Difference.color(Some(0), 0, Some(3)), colors::DIFFER);
    assert_eq!(ColorMode::Difference.color(Some(0), 0, Some(0)), colors::BOTH_P);
    assert_eq!(ColorMode::Outcome.color(None, 0, None), colors::NOT_A_POSITION);
    // the colour table of every mode of the menu agrees with the colours it caches, and holds
    // every value up to the top of a Grundy scale (the log mode's too: the window once cut it to
    // four entries and computed the rest)
    for mode in COLOR_MODES.iter().map(|c| c.mode) {
        let t = mode.color_table(37);
        if mode.needs_scale() {
            assert_eq!(t.colors().len(), 38, "{mode:?}");
        }
        for key in (0..60).chain([NO_POSITION, NOT_COMPUTED]) {
            assert_eq!(t.get(key), mode.key_color(key, 37), "{mode:?} {key}");
        }
    }
}

#[test]
fn the_legend_has_an_entry_for_everything_drawn() {
    let compare = CompareWith::Nothing;
    let spec = LegendSpec {
        mode: ColorMode::Grundy(Palette::Viridis),
        max: 1234,
        clipped: None,
        pooled: true,
        pooling: Pooling::Greatest,
        not_computed: true,
        not_a_position: false,
        loopy: false,
        compare: &compare,
        overlays: crate::raster::Overlays {
            phi_lines: true,
            ..crate::raster::Overlays::NONE
        },
        overlays_hidden: false,
        marks: MarksShown {
            options: true,
            ..MarksShown::default()
        },
    };
    let l = Legend::of_map(&spec);
    let Some(LegendItem::Bar { ticks, max, .. }) = l.items.first() else {
        panic!("a colour bar first: {l:?}")
    };
    assert_eq!((*max, ticks.first(), ticks.last()), (1234, Some(&0), Some(&1234)));
    assert!(ticks.windows(2).all(|w| w[0] < w[1]));
    let texts = l.texts().join("|");
    for want in ["the greatest G of its cells", "not computed yet", "φ", "its options"] {
        assert!(texts.contains(want), "{want} in {texts}");
    }
    assert_eq!(legend::bar_ticks(0, 0, 5), vec![0]);
    assert_eq!(legend::bar_ticks(0, 10, 5), vec![0, 2, 4, 6, 8, 10]);
    assert_eq!(legend::bar_ticks(0, 101, 5), vec![0, 20, 40, 60, 80, 101]);
}

/// Wythoff's P-positions come from their closed form in a view reaching past
/// OUTCOME_FORM_FROM, from the filled values nearer (the readout has them) and in every
/// other mode; a ruleset whose values have a closed form keeps them.
#[test]
fn wythoff_outcomes_take_their_closed_form_far_out() {
    use crate::game::Layout;
    let w = Ruleset::Wythoff;
    let near = CellRect::new(0..100, 0..OUTCOME_FORM_FROM);
    let far = CellRect::new(1_000_000_000_000..1_000_000_000_100, 0..100);
    assert_eq!(
        ColorMode::Outcome.map_rule(&w, &Layout::Plain, &near, Pooling::Least),
        KeyRule::Value
    );
    assert_eq!(
        ColorMode::Outcome.map_rule(&w, &Layout::Plain, &far, Pooling::Least),
        KeyRule::Outcome
    );
    assert!(ColorMode::Outcome.has_outcome_form(&w, &Layout::Plain));
    let grundy = ColorMode::Grundy(Palette::Viridis);
    assert_eq!(
        grundy.map_rule(&w, &Layout::Plain, &far, Pooling::Least),
        KeyRule::Value
    );
    assert!(!grundy.has_outcome_form(&w, &Layout::Plain));
    let e: Ruleset = "euclid".parse().unwrap();
    assert_eq!(
        ColorMode::Outcome.map_rule(&e, &Layout::Plain, &far, Pooling::Least),
        KeyRule::Value
    );
    let m: Ruleset = "misere(wythoff)".parse().unwrap();
    assert!(!ColorMode::Outcome.has_outcome_form(&m, &Layout::Plain));
}
