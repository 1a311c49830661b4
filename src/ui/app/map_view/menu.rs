//! The View menu's map entries: zoom, the colour mode, the Grundy colours' range and
//! pooling (saved with the session's figure style), overlays.

use super::MapView;
use crate::ui::canvas::MapKey;
use nimscope_core::camera::CellRect;
use nimscope_core::figure::FigureStyle;
use nimscope_core::raster::{COLOR_MODES, ColorRange, Pooling};

impl MapView {
    /// The View menu's map entries: zoom, colours (their range and pooling, saved with the
    /// session's figure style), overlays.
    pub fn menu_ui(&mut self, ui: &mut egui::Ui, figure: &mut FigureStyle, region: Option<&CellRect>) {
        for (label, key) in [
            ("Zoom in  (+)", MapKey::ZoomIn),
            ("Zoom out  (-)", MapKey::ZoomOut),
            ("Fit the region  (0)", MapKey::Fit),
        ] {
            if ui.button(label).clicked() {
                self.state.apply(key);
            }
        }
        ui.separator();
        self.color_mode_ui(ui);
        ui.separator();
        self.color_range_ui(ui, figure, region);
        pooling_ui(ui, &mut figure.pooling);
        ui.separator();
        let o = &mut self.state.overlays;
        ui.checkbox(&mut o.grid_lines, "Grid lines");
        ui.checkbox(&mut o.phi_lines, "Lines b = φa and a = φb");
        ui.checkbox(&mut o.wythoff_pairs, "Wythoff pairs");
        ui.checkbox(&mut o.theorem_316, "Thm 3.1.6 P-positions of push(nim,euclid0)");
    }

    /// The colour mode choices.
    fn color_mode_ui(&mut self, ui: &mut egui::Ui) {
        let c = &mut self.state.color;
        for choice in COLOR_MODES {
            ui.radio_value(c, choice.mode, choice.label);
        }
    }

    /// The range of the Grundy colours: automatic (counted over the session's `region`, kept
    /// while panning), or a fixed top the user types ("Rescale" fixes the view's). Figures
    /// exported take the same.
    fn color_range_ui(&mut self, ui: &mut egui::Ui, figure: &mut FigureStyle, region: Option<&CellRect>) {
        let range = figure.range;
        let shown = self.layer.range_top(range);
        ui.label("Colour range of Grundy values");
        let mut fixed = matches!(range, ColorRange::Fixed(_));
        ui.horizontal(|ui| {
            if ui
                .radio(!fixed, "Automatic")
                .on_hover_text(
                    "the top colour at the 99th percentile of the values of the session's region (of the first view filled, until the session is saved); kept while panning",
                )
                .clicked()
            {
                if fixed && self.layer.auto_region.as_ref() != region {
                    // the top kept may be a view's (Rescale to this view): the region's again
                    self.layer.rescale();
                }
                fixed = false;
            }
            if ui
                .radio(fixed, "Fixed top")
                .on_hover_text("values above the top share its colour")
                .clicked()
            {
                fixed = true;
            }
        });
        let mut top = match range {
            ColorRange::Fixed(t) => t,
            ColorRange::Auto => shown.top,
        };
        ui.horizontal(|ui| {
            let label = ui.label("Top");
            ui.add_enabled(fixed, egui::DragValue::new(&mut top).range(1..=u32::MAX - 2))
                .labelled_by(label.id);
            if ui
                .button("Rescale to this view")
                .on_hover_text("fix the top at the 99th percentile of the values in view now")
                .clicked()
            {
                // counted over the view, then fixed (the automatic top is the session's region's)
                self.layer.rescale();
                self.layer.fix_to_view = true;
            }
        });
        figure.range = if fixed {
            ColorRange::Fixed(top.max(1))
        } else {
            ColorRange::Auto
        };
        if let Some(note) = shown.clipped_note() {
            ui.small(note);
        }
    }
}

/// What a pixel of the Grundy colours shows when it covers several cells: the least value
/// (a P-position is never hidden), the most common, or the greatest. Saved with the
/// session's figure settings, so its figures pool the same way.
fn pooling_ui(ui: &mut egui::Ui, pooling: &mut Pooling) {
    ui.label("A pixel of many cells shows");
    // one under the other: side by side they ran past the menu's edge
    ui.vertical(|ui| {
        for (choice, label, tip) in [
            (Pooling::Least, "least G", "a P-position (G = 0) is never hidden"),
            (
                Pooling::MostCommon,
                "most common G",
                "the value most of its cells have (ties: the least)",
            ),
            (Pooling::Greatest, "greatest G", "the largest values stand out"),
        ] {
            ui.radio_value(pooling, choice, label).on_hover_text(tip);
        }
    });
}
