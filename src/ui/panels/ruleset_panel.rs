//! The ruleset panel: every ruleset of the catalog with its parameters, the compound builder
//! (push, sum, misère), the slice of games on more heaps, the expression itself as editable
//! text with its parse error shown inline, and the editor of a rule the user types
//! ([`super::rule_editor`]). The panel keeps what its texts parse to and parses a text again
//! only when it changes; a ruleset shown from elsewhere (a session, the command line) is
//! written into the panel with its parse, never parsed again.

use crate::ui::panels::parsed::Parsed;
use crate::ui::panels::rule_editor::RuleEditor;
use crate::ui::theme;
use nimscope_core::game::families::{FAMILIES, Family};
use nimscope_core::game::prediction::Prediction;
use nimscope_core::game::quote::{one_line, quoted};
use nimscope_core::game::{Layout, Ruleset, Shape};
use nimscope_core::session::{Comparison, SavedRule};

/// The panel's editable state (the expression may be invalid while being typed).
#[derive(Debug, Clone)]
pub struct RulesetPanel {
    expression: String,
    /// What the expression parses to (parsed again only when it changes).
    parsed: Parsed<Ruleset>,
    error: Option<String>,
    /// Parameters of the parameterised leaves.
    sub_set: String,
    tag_k: String,
    octal_code: String,
    /// Second ruleset of the compound builder.
    second: String,
    /// Fixed heaps of a slice (e.g. `1,_,_`); empty for two-heap games. Kept in step with
    /// `heaps`, `axes` and `fixed` (editing either side updates the other).
    slice: String,
    /// Number of heaps of a ruleset on any number of heaps (2: the plain map).
    heaps: usize,
    /// The heaps (0-based, increasing) that are the map's rows and columns.
    axes: [usize; 2],
    /// The sizes of the other heaps, by heap (entries of axes are ignored).
    fixed: Vec<u64>,
    /// Ruleset compared with the main one in the difference colour mode, and its parse.
    compare: String,
    compare_parsed: Parsed<Ruleset>,
    /// A theorem's prediction to compare with instead of a ruleset.
    compare_theorem: Option<Prediction>,
    /// The editor of typed rules.
    editor: RuleEditor,
    /// The ruleset the window shows (the editor's hint says whether its rule is it).
    shown: Option<Ruleset>,
}

impl Default for RulesetPanel {
    fn default() -> Self {
        let compare = "push(nim,euclid0)";
        let mut compare_parsed = Parsed::default();
        compare_parsed.of(compare, parse_ruleset);
        let mut parsed = Parsed::default();
        parsed.set("wythoff".into(), Ruleset::Wythoff);
        Self {
            expression: "wythoff".into(),
            parsed,
            error: None,
            sub_set: "1,3,4".into(),
            tag_k: "5".into(),
            octal_code: "0.07".into(),
            second: "euclid0".into(),
            slice: String::new(),
            heaps: 2,
            axes: [0, 1],
            fixed: vec![1; MAX_HEAPS],
            compare: compare.into(),
            compare_parsed,
            compare_theorem: None,
            editor: RuleEditor::default(),
            shown: Some(Ruleset::Wythoff),
        }
    }
}

/// A ruleset expression parsed, its error in one line as the command line prints it.
fn parse_ruleset(text: &str) -> Result<Ruleset, String> {
    text.parse::<Ruleset>().map_err(|e| one_line(&e.to_string()))
}

/// What the user asked for this frame.
pub enum PanelAction {
    /// A new ruleset expression was chosen (already parsed).
    Apply(Ruleset),
    None,
}

/// Most heaps the panel offers for rulesets on any number of heaps.
pub const MAX_HEAPS: usize = 6;

/// The catalog's buttons: the families of [`FAMILIES`] without parameters (those with
/// parameters, `sub(S)` and the like, have their own fields and the compound builder below),
/// and without `cram-v` and `cram-h`, which the board editor plays only inside `push-cram`.
fn catalog_buttons() -> impl Iterator<Item = &'static str> {
    FAMILIES
        .iter()
        .filter(|row| row.leaf.is_some() && !matches!(row.family, Family::CramV | Family::CramH))
        .map(|row| row.name)
}

impl RulesetPanel {
    /// The expression as typed.
    pub fn expression(&self) -> &str {
        &self.expression
    }

    /// Types `text` as the expression (applied with the panel's Apply, or Enter).
    pub fn set_expression(&mut self, text: &str) {
        self.expression = text.to_string();
    }

    /// Why the last expression or slice applied was refused, if it was.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The slice as typed (`1,_,_`; empty for the plain map).
    pub fn slice(&self) -> &str {
        &self.slice
    }

    /// The user's typed rules kept between runs.
    pub fn my_rules(&self) -> &[SavedRule] {
        self.editor.my_rules()
    }

    /// Takes the user's typed rules kept between runs.
    pub fn set_my_rules(&mut self, rules: Vec<SavedRule>) {
        self.editor.set_my_rules(rules);
    }

    /// What the difference mode compares with, as the panel says (a compared ruleset that does
    /// not parse is none; the panel shows why).
    pub fn comparison(&self) -> Comparison {
        Comparison {
            ruleset: match self.compare_parsed.cached(self.compare.trim()) {
                Some(Ok(r)) => Some(r.clone()),
                _ => None,
            },
            theorem: self.compare_theorem,
        }
    }

    /// Shows a saved comparison (its ruleset written as its text, not parsed again).
    pub fn set_comparison(&mut self, c: &Comparison) {
        match &c.ruleset {
            Some(r) => {
                self.compare = r.to_string();
                self.compare_parsed.set(self.compare.clone(), r.clone());
            }
            None => self.compare.clear(),
        }
        self.compare_theorem = c.theorem;
    }

    /// Shows `r` as the panel's ruleset, its text written from it (not parsed again), and fits
    /// the heap widgets and the slice to it; returns the layout of the map, plain when the slice
    /// does not read (its error is shown here, where it can be mended).
    pub fn show(&mut self, r: &Ruleset) -> Layout {
        self.expression = r.to_string();
        self.parsed.set(self.expression.clone(), r.clone());
        self.shown = Some(r.clone());
        self.error = None;
        self.fit_to(r);
        match Layout::from_slice_text(&self.slice) {
            Ok(l) => l,
            Err(e) => {
                self.error = Some(e);
                Layout::Plain
            }
        }
    }

    /// The slice text of the heap widgets: empty for the plain two-heap map.
    pub fn slice_text(&self) -> String {
        if self.heaps <= 2 {
            return String::new();
        }
        (0..self.heaps)
            .map(|i| {
                if self.axes.contains(&i) {
                    "_".to_string()
                } else {
                    self.fixed[i].to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Shows a saved slice (empty: the plain two-heap map) in the text and the heap widgets.
    pub fn set_slice(&mut self, text: &str) {
        self.slice = text.trim().to_string();
        if self.slice.is_empty() {
            self.set_heaps(2);
        } else {
            self.read_slice(text);
        }
    }

    /// Sets the heap widgets from a slice text such as `1,_,_`; false if it is not one.
    fn read_slice(&mut self, text: &str) -> bool {
        let Ok(nimscope_core::game::Layout::Slice(parts)) = nimscope_core::game::Layout::parse_slice(text) else {
            return false;
        };
        if parts.len() > MAX_HEAPS {
            return false;
        }
        let free: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].is_none()).collect();
        self.heaps = parts.len();
        self.axes = [free[0], free[1]];
        for (i, p) in parts.iter().enumerate() {
            if let Some(v) = p {
                self.fixed[i] = *v;
            }
        }
        true
    }

    /// Makes the heap widgets and the slice fit a ruleset about to be shown: three-heap games
    /// get three heaps (the first fixed, 1 unless chosen: seed 003's Figure 2 for zeruclid),
    /// rulesets on any number of heaps keep the chosen count, the others need no slice.
    fn fit_to(&mut self, r: &Ruleset) {
        if nimscope_core::game::presentation::is_misere_collection(r) {
            // the strip of one heap, or the map of the slice of collections chosen
            if nimscope_core::game::Layout::parse_slice(&self.slice).is_err() {
                self.slice.clear();
            }
            return;
        }
        match r.shape() {
            Shape::ThreeHeaps if self.heaps != 3 => self.set_heaps(3),
            Shape::ThreeHeaps | Shape::AnyHeaps => {}
            _ => self.set_heaps(2),
        }
        self.slice = self.slice_text();
    }

    /// Changes the number of heaps; the last two become the map's axes.
    fn set_heaps(&mut self, n: usize) {
        self.heaps = n.clamp(2, MAX_HEAPS);
        self.axes = [self.heaps - 2, self.heaps - 1];
    }
}

/// The number of heaps, which two are the map's axes and the sizes of the others, for rulesets
/// on any number of heaps; returns true when the slice changed.
fn heaps_ui(ui: &mut egui::Ui, panel: &mut RulesetPanel, shape: Shape) -> bool {
    let before = (panel.heaps, panel.axes, panel.fixed.clone());
    super::row(ui, |ui| {
        let l = ui.label("heaps");
        if shape == Shape::ThreeHeaps {
            ui.label("3 (this game is played on three heaps)");
        } else {
            let mut n = panel.heaps;
            ui.add(egui::DragValue::new(&mut n).range(2..=MAX_HEAPS))
                .labelled_by(l.id);
            if n != panel.heaps {
                panel.set_heaps(n);
            }
        }
    });
    if panel.heaps >= 3 {
        let name = |[i, j]: [usize; 2]| format!("heaps {} and {}", i + 1, j + 1);
        egui::ComboBox::from_label("map axes (rows, columns)")
            .selected_text(name(panel.axes))
            .show_ui(ui, |ui| {
                for i in 0..panel.heaps {
                    for j in i + 1..panel.heaps {
                        ui.selectable_value(&mut panel.axes, [i, j], name([i, j]));
                    }
                }
            });
        for i in (0..panel.heaps).filter(|i| !panel.axes.contains(i)) {
            super::row(ui, |ui| {
                let l = ui.label(format!("heap {}", i + 1));
                ui.add(egui::DragValue::new(&mut panel.fixed[i]).range(0..=1_000_000))
                    .labelled_by(l.id);
            });
        }
    }
    before != (panel.heaps, panel.axes, panel.fixed.clone())
}

/// What the user picked this frame: a text to parse, or a ruleset the rule editor parsed.
enum Chosen {
    Text(String),
    Parsed(Ruleset),
}

impl RulesetPanel {
    /// Draws the panel; returns the ruleset to switch to, if any. `compare`: the difference
    /// mode is on, so the panel shows what it compares with. A text is parsed here only when
    /// it changed since the last frame.
    pub fn ui(&mut self, ui: &mut egui::Ui, compare: bool) -> PanelAction {
        let mut chosen: Option<Chosen> = None;
        ui.heading("Ruleset");
        let label = ui.label("Expression");
        let edit = ui.text_edit_singleline(&mut self.expression).labelled_by(label.id);
        if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) || ui.button("Apply expression").clicked()
        {
            chosen = Some(Chosen::Text(self.expression.clone()));
        }
        if let Some(e) = &self.error {
            ui.colored_label(theme::error_text(ui.visuals()), e);
        }
        ui.separator();
        if self.editor.text().trim().is_empty() && self.expression.trim_start().starts_with("rule") {
            match self.parsed.cached(&self.expression) {
                Some(Ok(r)) => self.editor.show(&self.expression, r.clone()),
                _ => self.editor.set_text(&self.expression),
            }
        }
        egui::CollapsingHeader::new("Your own rule")
            .default_open(true)
            .show(ui, |ui| {
                if let Some(r) = self.editor.ui(ui, self.shown.as_ref()) {
                    chosen = Some(Chosen::Parsed(r));
                }
            });
        ui.separator();
        let text = |t: Option<String>| t.map(Chosen::Text);
        chosen = text(catalog_ui(ui, self)).or(chosen);
        ui.separator();
        chosen = text(compound_ui(ui, self)).or(chosen);
        let expression = self.expression.clone();
        let parsed = self.parsed.of(&expression, parse_ruleset).as_ref().ok();
        let shape = parsed.map(Ruleset::shape);
        let collections = parsed.is_some_and(nimscope_core::game::presentation::is_misere_collection);
        if let Some(shape @ (Shape::AnyHeaps | Shape::ThreeHeaps)) = shape {
            ui.separator();
            chosen = text(slice_ui(ui, self, shape)).or(chosen);
        } else if collections {
            ui.separator();
            chosen = text(collections_ui(ui, self)).or(chosen);
        }
        if compare {
            ui.separator();
            compare_ui(ui, self);
        }
        match chosen {
            Some(Chosen::Text(text)) => self.apply_text(text),
            Some(Chosen::Parsed(r)) => PanelAction::Apply(r),
            None => PanelAction::None,
        }
    }

    /// The chosen text's ruleset (parsed unless it is the expression already parsed), or the
    /// error shown in the panel.
    fn apply_text(&mut self, text: String) -> PanelAction {
        match self.parsed.of(&text, parse_ruleset).clone() {
            Ok(r) => PanelAction::Apply(r),
            Err(e) => {
                self.expression = text;
                // one line, its control characters escaped and long input shortened, as the
                // command line prints it
                self.error = Some(e);
                PanelAction::None
            }
        }
    }
}

/// The rule of a catalog game in one line, and where it comes from (the catalog buttons'
/// tooltips), from its row of the family table.
pub fn catalog_tooltip(name: &str) -> String {
    nimscope_core::game::families::tooltip(name).unwrap_or_else(|| "A ruleset of the catalog.".to_string())
}

/// The catalog's buttons and the parameterised families (sub, tag, octal).
fn catalog_ui(ui: &mut egui::Ui, panel: &mut RulesetPanel) -> Option<String> {
    let mut chosen = None;
    ui.label("Catalog");
    super::row(ui, |ui| {
        for name in catalog_buttons() {
            if ui.button(name).on_hover_text(catalog_tooltip(name)).clicked() {
                chosen = Some(name.to_string());
            }
        }
    });
    let mut param = |ui: &mut egui::Ui, name: &str, value: &mut String, make: &dyn Fn(&str) -> String, tip: &str| {
        super::row(ui, |ui| {
            let l = ui.label(format!("{name}:"));
            ui.add(egui::TextEdit::singleline(value).desired_width(70.0))
                .labelled_by(l.id);
            if ui.button(format!("use {name}")).on_hover_text(tip).clicked() {
                chosen = Some(make(value));
            }
        });
    };
    param(
        ui,
        "sub",
        &mut panel.sub_set,
        &|v| format!("sub({v})"),
        "sub(S): one heap, remove s tokens for an s in S.",
    );
    param(
        ui,
        "tag",
        &mut panel.tag_k,
        &|v| format!("tag({v})"),
        "tag(k): one heap, remove 1 to k tokens (TAG_k, seed 004).",
    );
    param(
        ui,
        "octal",
        &mut panel.octal_code,
        &|v| format!("octal({v})"),
        "octal(d0.d1d2…): digit dk says whether removing k tokens may leave 0, 1 or 2 heaps; 0.07 is Dawson's Kayles.",
    );
    chosen
}

/// The compound builder: the second game (picked from the catalog or typed), push, sum and
/// misère play.
fn compound_ui(ui: &mut egui::Ui, panel: &mut RulesetPanel) -> Option<String> {
    let mut chosen = None;
    ui.label("Compound builder");
    super::row(ui, |ui| {
        let l = ui.label("second:");
        ui.add(egui::TextEdit::singleline(&mut panel.second).desired_width(90.0))
            .labelled_by(l.id);
        ui.menu_button("pick", |ui| {
            for name in catalog_buttons().filter(|n| !n.contains("cram")) {
                if ui.button(name).on_hover_text(catalog_tooltip(name)).clicked() {
                    panel.second = name.to_string();
                    ui.close();
                }
            }
        })
        .response
        .on_hover_text("the second game from the catalog (or type it)");
    });
    super::row(ui, |ui| {
        let current = panel.expression.clone();
        if ui
            .button("push(current, second)")
            .on_hover_text("play the current game, push the button once, then play the second (seed 003)")
            .clicked()
        {
            chosen = Some(format!("push({current},{})", panel.second));
        }
        if ui
            .button("sum")
            .on_hover_text("the disjunctive sum: move in either game")
            .clicked()
        {
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
    chosen
}

/// More than two heaps: the heaps on the axes and the slice of the others.
fn slice_ui(ui: &mut egui::Ui, panel: &mut RulesetPanel, shape: Shape) -> Option<String> {
    let mut chosen = None;
    if heaps_ui(ui, panel, shape) {
        panel.slice = panel.slice_text();
        chosen = Some(panel.expression.clone());
    }
    super::row(ui, |ui| {
        let l = ui.label("slice:");
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut panel.slice)
                    .desired_width(80.0)
                    .hint_text("1,_,_"),
            )
            .labelled_by(l.id);
        if edit.changed() {
            let text = panel.slice.clone();
            if text.trim().is_empty() {
                panel.set_heaps(2);
            } else {
                panel.read_slice(&text);
            }
        }
        if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            // a slice that does not read is said here, where it can be mended; applying would
            // replace it by the heap widgets' slice without a word
            match nimscope_core::game::Layout::from_slice_text(&panel.slice) {
                Err(e) => panel.error = Some(one_line(&e)),
                Ok(_) if !panel.slice.trim().is_empty() && !panel.read_slice(&panel.slice.clone()) => {
                    panel.error = Some(format!("slice {}: too many heaps", quoted(&panel.slice)));
                }
                Ok(_) => chosen = Some(panel.expression.clone()),
            }
        }
    });
    ui.small("More than two heaps: the map is the slice of the fixed heaps, e.g. zeruclid (1,a,b), seed 003 Figure 2.");
    chosen
}

/// A one-heap game under misère play: the strip of one heap, or the map of its collections
/// of heaps (a slice: `_,_` for {a, b}, `3,_,_` for {3, a, b}).
fn collections_ui(ui: &mut egui::Ui, panel: &mut RulesetPanel) -> Option<String> {
    let mut chosen = None;
    let mut map = !panel.slice.trim().is_empty();
    if ui
        .checkbox(&mut map, "map of collections {a, b}")
        .on_hover_text("under misère play heaps do not add: the map shows the collection of both heaps")
        .changed()
    {
        panel.slice = if map { "_,_".into() } else { String::new() };
        chosen = Some(panel.expression.clone());
    }
    if map {
        super::row(ui, |ui| {
            let l = ui.label("collection:");
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut panel.slice)
                        .desired_width(80.0)
                        .hint_text("3,_,_"),
                )
                .labelled_by(l.id);
            if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                match nimscope_core::game::Layout::parse_slice(&panel.slice) {
                    Err(e) => panel.error = Some(one_line(&e)),
                    Ok(_) => chosen = Some(panel.expression.clone()),
                }
            }
        });
    }
    chosen
}

/// What the difference mode compares with: a ruleset or a theorem. The compared ruleset is
/// parsed when its text changes; one that does not parse is said here.
fn compare_ui(ui: &mut egui::Ui, panel: &mut RulesetPanel) {
    ui.label("Difference mode compares with");
    ui.radio_value(&mut panel.compare_theorem, None, "the ruleset:");
    let l = ui.label("compared ruleset");
    ui.add(egui::TextEdit::singleline(&mut panel.compare).desired_width(160.0))
        .labelled_by(l.id);
    let text = panel.compare.trim().to_string();
    if !text.is_empty()
        && let Err(e) = panel.compare_parsed.of(&text, parse_ruleset)
    {
        ui.colored_label(
            theme::error_text(ui.visuals()),
            format!("compare {}: {e}", quoted(&text)),
        );
    }
    for p in Prediction::ALL {
        ui.radio_value(&mut panel.compare_theorem, Some(p), p.label());
    }
}
