//! The ruleset panel: every ruleset of the catalog with its parameters, the compound builder
//! (push, sum, misère), the slice of games on more heaps, and the expression itself as
//! editable text with its parse error shown inline.

use crate::app::theme;
use crate::game::Ruleset;
use crate::game::prediction::Prediction;

/// The panel's editable state (the expression may be invalid while being typed).
#[derive(Debug, Clone)]
pub struct RulesetPanel {
    pub expression: String,
    pub error: Option<String>,
    /// Parameters of the parameterised leaves.
    pub sub_set: String,
    pub tag_k: String,
    pub octal_code: String,
    /// Second ruleset of the compound builder.
    pub second: String,
    /// Fixed heaps of a slice (e.g. `1,_,_`); empty for two-heap games.
    pub slice: String,
    /// Ruleset compared with the main one in the difference colour mode.
    pub compare: String,
    /// A theorem's prediction to compare with instead of a ruleset.
    pub compare_theorem: Option<Prediction>,
}

impl Default for RulesetPanel {
    fn default() -> Self {
        Self {
            expression: "wythoff".into(),
            error: None,
            sub_set: "1,3,4".into(),
            tag_k: "5".into(),
            octal_code: "0.07".into(),
            second: "euclid0".into(),
            slice: String::new(),
            compare: "push(nim,euclid0)".into(),
            compare_theorem: None,
        }
    }
}

/// What the user asked for this frame.
pub enum PanelAction {
    /// A new ruleset expression was chosen (already parsed).
    Apply(Ruleset),
    None,
}

const LEAVES: &[&str] = &[
    "nim",
    "wythoff",
    "euclid",
    "grossman",
    "euclid0",
    "m-euclid",
    "zeruclid",
    "cdn",
    "divisor",
    "fibonacci-nim",
    "cram",
    "push-cram",
];

/// Draws the panel; returns the ruleset to switch to, if any.
pub fn ruleset_panel_ui(ui: &mut egui::Ui, panel: &mut RulesetPanel) -> PanelAction {
    let mut chosen: Option<String> = None;
    ui.heading("Ruleset");
    let label = ui.label("Expression");
    let edit = ui.text_edit_singleline(&mut panel.expression).labelled_by(label.id);
    if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) || ui.button("Apply expression").clicked() {
        chosen = Some(panel.expression.clone());
    }
    if let Some(e) = &panel.error {
        ui.colored_label(theme::ERROR_TEXT, e);
    }
    ui.separator();
    ui.label("Catalog");
    ui.horizontal_wrapped(|ui| {
        for name in LEAVES {
            if ui.button(*name).clicked() {
                chosen = Some((*name).to_string());
            }
        }
    });
    let mut param = |ui: &mut egui::Ui, name: &str, value: &mut String, make: &dyn Fn(&str) -> String| {
        ui.horizontal(|ui| {
            let l = ui.label(format!("{name}:"));
            ui.add(egui::TextEdit::singleline(value).desired_width(70.0))
                .labelled_by(l.id);
            if ui.button(format!("use {name}")).clicked() {
                chosen = Some(make(value));
            }
        });
    };
    param(ui, "sub", &mut panel.sub_set, &|v| format!("sub({v})"));
    param(ui, "tag", &mut panel.tag_k, &|v| format!("tag({v})"));
    param(ui, "octal", &mut panel.octal_code, &|v| format!("octal({v})"));
    ui.separator();
    ui.label("Compound builder");
    ui.horizontal(|ui| {
        let l = ui.label("second:");
        ui.add(egui::TextEdit::singleline(&mut panel.second).desired_width(110.0))
            .labelled_by(l.id);
    });
    ui.horizontal(|ui| {
        let current = panel.expression.clone();
        if ui.button("push(current, second)").clicked() {
            chosen = Some(format!("push({current},{})", panel.second));
        }
        if ui.button("sum").clicked() {
            chosen = Some(format!("sum({current},{})", panel.second));
        }
    });
    let misere = panel.expression.starts_with("misere(");
    let mut toggle = misere;
    if ui.checkbox(&mut toggle, "misère play").changed() {
        chosen = Some(if misere {
            panel
                .expression
                .trim_start_matches("misere(")
                .strip_suffix(')')
                .unwrap_or(&panel.expression)
                .to_string()
        } else {
            format!("misere({})", panel.expression)
        });
    }
    ui.separator();
    ui.horizontal(|ui| {
        let l = ui.label("slice:");
        ui.add(
            egui::TextEdit::singleline(&mut panel.slice)
                .desired_width(80.0)
                .hint_text("1,_,_"),
        )
        .labelled_by(l.id);
    });
    ui.small("For games on three heaps, e.g. zeruclid with slice 1,_,_ (seed 003 Figure 2).");
    ui.separator();
    ui.label("Difference mode compares with");
    ui.radio_value(&mut panel.compare_theorem, None, "the ruleset:");
    let l = ui.label("compared ruleset");
    ui.add(egui::TextEdit::singleline(&mut panel.compare).desired_width(160.0))
        .labelled_by(l.id);
    for p in Prediction::ALL {
        ui.radio_value(&mut panel.compare_theorem, Some(p), p.label());
    }

    match chosen {
        Some(text) => match text.parse::<Ruleset>() {
            Ok(r) => {
                panel.expression = r.to_string();
                panel.error = None;
                PanelAction::Apply(r)
            }
            Err(e) => {
                panel.expression = text;
                panel.error = Some(e.to_string());
                PanelAction::None
            }
        },
        None => PanelAction::None,
    }
}
