//! The rule editor of the ruleset panel: a rule typed in the move language (multi-line, parsed
//! once each time its text changes, its error shown under it with line and column), the
//! Examples menu of the literature's rules, and the user's own rules kept between runs (in the
//! window's state). Applying hands on the ruleset already parsed: the text is never parsed
//! again on its way to the map.

use crate::ui::panels::parsed::Parsed;
use crate::ui::theme;
use nimscope_core::game::Ruleset;
use nimscope_core::game::quote::one_line;
use nimscope_core::game::rules::typed::REFERENCE;
use nimscope_core::game::rules::typed::examples::EXAMPLES;
use nimscope_core::session::SavedRule;

/// The editor's state: its text (possibly not a rule while being typed) and what it parses to.
#[derive(Debug, Clone, Default)]
pub struct RuleEditor {
    text: String,
    /// The text's ruleset, or why it is not one ("line 2, column 14: …").
    parsed: Parsed<Ruleset>,
    /// The name the rule is kept under.
    name: String,
    /// The user's rules, most recent first.
    my_rules: Vec<SavedRule>,
    /// Whether the syntax reference is shown.
    show_reference: bool,
    /// Whether the text had the keyboard focus in the last frame (Ctrl+Enter applies then).
    had_focus: bool,
}

impl RuleEditor {
    /// The text in the editor.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Puts `text` in the editor (checked on the next frame).
    pub fn set_text(&mut self, text: &str) {
        self.text = text.to_string();
    }

    /// Puts the text of `r`, a ruleset parsed elsewhere, in the editor (not parsed again).
    pub fn show(&mut self, text: &str, r: Ruleset) {
        self.text = text.to_string();
        self.parsed.set(self.text.clone(), r);
    }

    /// The ruleset the text is, or why it is not one; parsed when the text changed since the
    /// last call, else the last result. `None` for an empty editor.
    fn check(&mut self) -> Option<&Result<Ruleset, String>> {
        if self.text.trim().is_empty() {
            return None;
        }
        Some(self.parsed.of(&self.text, |text| {
            text.parse::<Ruleset>().map_err(|e| {
                let (line, column) = e.line_and_column();
                one_line(&format!("line {line}, column {column}: {}", e.message))
            })
        }))
    }

    /// Why the text is not a ruleset, as of the last check.
    pub fn problem(&self) -> Option<&str> {
        match self.parsed.cached(&self.text) {
            Some(Err(e)) if !self.text.trim().is_empty() => Some(e),
            _ => None,
        }
    }

    /// The user's rules, most recent first.
    pub fn my_rules(&self) -> &[SavedRule] {
        &self.my_rules
    }

    /// Takes the user's rules kept between runs.
    pub fn set_my_rules(&mut self, rules: Vec<SavedRule>) {
        self.my_rules = rules;
    }

    /// Keeps the text under `name` (replacing a rule of that name), most recent first.
    pub fn keep(&mut self, name: &str) {
        let name = name.trim().to_string();
        self.my_rules.retain(|r| r.name != name);
        self.my_rules.insert(
            0,
            SavedRule {
                name,
                text: self.text.clone(),
            },
        );
    }

    /// The ruleset of the text, if it is one (parsed only if the text changed).
    fn ruleset(&mut self) -> Option<Ruleset> {
        self.check()?.as_ref().ok().cloned()
    }

    /// Draws the editor; returns the ruleset to apply, if the user asked for one.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Ruleset> {
        let mut apply = self.menus_ui(ui);
        if self.show_reference {
            ui.add(egui::Label::new(egui::RichText::new(REFERENCE).small().monospace()).wrap());
        }
        let label = ui.label("Rule (Ctrl+Enter applies)");
        // taken before the text sees it, or the editor would keep the key
        let ctrl_enter = self.had_focus && ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Enter));
        let edit = ui
            .add(
                egui::TextEdit::multiline(&mut self.text)
                    .code_editor()
                    .desired_rows(4)
                    .desired_width(ui.available_width())
                    .hint_text("rule(n -> [k, n - k] for k in 1..n if 2*k < n)"),
            )
            .labelled_by(label.id);
        self.had_focus = edit.has_focus();
        let ok = match self.check() {
            Some(Err(p)) => {
                ui.colored_label(theme::error_text(ui.visuals()), p);
                false
            }
            Some(Ok(_)) => {
                ui.small("parses: Apply to explore it");
                true
            }
            None => false,
        };
        if ui.add_enabled(ok, egui::Button::new("Apply rule")).clicked() || ok && ctrl_enter {
            apply = self.ruleset();
        }
        // a row of its own: the panel keeps its width
        ui.horizontal(|ui| {
            let l = ui.label("name:");
            ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(100.0))
                .labelled_by(l.id);
            if ui
                .add_enabled(ok && !self.name.trim().is_empty(), egui::Button::new("Keep"))
                .on_hover_text("Keep this rule under its name in My rules (kept between runs)")
                .clicked()
            {
                let name = self.name.clone();
                self.keep(&name);
            }
        });
        apply
    }

    /// The Examples and My rules menus and the Syntax toggle; returns the ruleset of a rule
    /// picked from a menu (its text is in the editor).
    fn menus_ui(&mut self, ui: &mut egui::Ui) -> Option<Ruleset> {
        let mut picked: Option<(String, Option<String>)> = None;
        ui.horizontal(|ui| {
            ui.menu_button("Examples", |ui| {
                for e in EXAMPLES {
                    let label = match e.equals {
                        Some(b) => format!("{}: {} (= {b})", e.name, e.about),
                        None => format!("{}: {}", e.name, e.about),
                    };
                    if ui.button(label).on_hover_text(e.text).clicked() {
                        picked = Some((e.text.to_string(), Some(e.name.to_string())));
                        ui.close();
                    }
                }
            })
            .response
            .on_hover_text("The rules of the literature, written in the move language");
            ui.add_enabled_ui(!self.my_rules.is_empty(), |ui| {
                ui.menu_button("My rules", |ui| {
                    let mut forget = None;
                    for (i, r) in self.my_rules.iter().enumerate() {
                        ui.horizontal(|ui| {
                            if ui.button(&r.name).on_hover_text(&r.text).clicked() {
                                picked = Some((r.text.clone(), None));
                                ui.close();
                            }
                            if ui.small_button("forget").clicked() {
                                forget = Some(i);
                            }
                        });
                    }
                    if let Some(i) = forget {
                        self.my_rules.remove(i);
                    }
                })
            });
            ui.toggle_value(&mut self.show_reference, "Syntax");
        });
        let (text, name) = picked?;
        self.text = text;
        if let Some(name) = name {
            self.name = name;
        }
        self.ruleset()
    }
}

#[cfg(test)]
mod tests {
    use super::RuleEditor;
    use nimscope_core::game::parse_count::rulesets_parsed;

    #[test]
    fn errors_say_line_and_column_and_a_text_is_parsed_once() {
        let mut e = RuleEditor::default();
        e.set_text("rule(n ->\n  n - k for k in 1..=m)");
        let before = rulesets_parsed();
        for _ in 0..3 {
            assert!(e.check().is_some_and(|r| r.is_err()));
        }
        assert_eq!(rulesets_parsed() - before, 1, "checked three times, parsed once");
        let p = e.problem().unwrap().to_string();
        assert!(
            p.starts_with("line 2, column 22:") && p.contains("unknown name 'm'"),
            "{p}"
        );
        e.set_text("rule(n -> n - 1 if n >= 1)");
        assert!(e.ruleset().is_some());
        assert!(e.ruleset().is_some());
        assert_eq!(rulesets_parsed() - before, 2);
        assert_eq!(e.problem(), None);
        e.keep("one");
        e.keep("one");
        assert_eq!(e.my_rules().len(), 1);
    }
}
