//! The rule editor of the ruleset panel: a rule typed in the move language (multi-line, checked
//! as it is typed, its error shown under it with line and column), the Examples menu of the
//! literature's rules, and the user's own rules kept between runs (in the window's state).

use crate::ui::theme;
use nimscope_core::game::Ruleset;
use nimscope_core::game::quote::one_line;
use nimscope_core::game::rules::typed::REFERENCE;
use nimscope_core::game::rules::typed::examples::EXAMPLES;
use nimscope_core::session::SavedRule;

/// The editor's state: its text (possibly not a rule while being typed) and what the last
/// check of it found.
#[derive(Debug, Clone, Default)]
pub struct RuleEditor {
    pub text: String,
    /// Why the text is not a ruleset ("line 2, column 14: …"), as of the last check.
    pub problem: Option<String>,
    /// The text the last check read (checked again only when it changes).
    checked: Option<String>,
    /// The name the rule is kept under.
    pub name: String,
    /// The user's rules, most recent first.
    pub my_rules: Vec<SavedRule>,
    /// Whether the syntax reference is shown.
    pub show_reference: bool,
    /// Whether the text had the keyboard focus in the last frame (Ctrl+Enter applies then).
    had_focus: bool,
}

impl RuleEditor {
    /// Checks the text again if it changed since the last check.
    pub fn check(&mut self) {
        if self.checked.as_deref() == Some(self.text.as_str()) {
            return;
        }
        self.problem = if self.text.trim().is_empty() {
            None
        } else {
            self.text.parse::<Ruleset>().err().map(|e| {
                let (line, column) = e.line_and_column();
                one_line(&format!("line {line}, column {column}: {}", e.message))
            })
        };
        self.checked = Some(self.text.clone());
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
}

/// Draws the editor; returns the rule text to apply, if the user asked for one.
pub fn rule_editor_ui(ui: &mut egui::Ui, editor: &mut RuleEditor) -> Option<String> {
    let mut apply = None;
    ui.horizontal(|ui| {
        ui.menu_button("Examples", |ui| {
            for e in EXAMPLES {
                let label = match e.equals {
                    Some(b) => format!("{}: {} (= {b})", e.name, e.about),
                    None => format!("{}: {}", e.name, e.about),
                };
                if ui.button(label).on_hover_text(e.text).clicked() {
                    editor.text = e.text.to_string();
                    editor.name = e.name.to_string();
                    apply = Some(editor.text.clone());
                    ui.close();
                }
            }
        })
        .response
        .on_hover_text("The rules of the literature, written in the move language");
        ui.add_enabled_ui(!editor.my_rules.is_empty(), |ui| {
            ui.menu_button("My rules", |ui| {
                let mut forget = None;
                for (i, r) in editor.my_rules.iter().enumerate() {
                    ui.horizontal(|ui| {
                        if ui.button(&r.name).on_hover_text(&r.text).clicked() {
                            apply = Some(r.text.clone());
                            ui.close();
                        }
                        if ui.small_button("forget").clicked() {
                            forget = Some(i);
                        }
                    });
                }
                if let Some(i) = forget {
                    editor.my_rules.remove(i);
                }
            })
        });
        ui.toggle_value(&mut editor.show_reference, "Syntax");
    });
    if let Some(text) = &apply {
        editor.text.clone_from(text);
    }
    if editor.show_reference {
        ui.add(egui::Label::new(egui::RichText::new(REFERENCE).small().monospace()).wrap());
    }
    let label = ui.label("Rule (Ctrl+Enter applies)");
    // taken before the text sees it, or the editor would keep the key
    let ctrl_enter = editor.had_focus && ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Enter));
    let edit = ui
        .add(
            egui::TextEdit::multiline(&mut editor.text)
                .code_editor()
                .desired_rows(4)
                .desired_width(ui.available_width())
                .hint_text("rule(n -> [k, n - k] for k in 1..n if 2*k < n)"),
        )
        .labelled_by(label.id);
    editor.had_focus = edit.has_focus();
    editor.check();
    match &editor.problem {
        Some(p) => {
            ui.colored_label(theme::error_text(ui.visuals()), p);
        }
        None if !editor.text.trim().is_empty() => {
            ui.small("parses: Apply to explore it");
        }
        None => {}
    }
    let ok = editor.problem.is_none() && !editor.text.trim().is_empty();
    if ui.add_enabled(ok, egui::Button::new("Apply rule")).clicked() || ok && ctrl_enter {
        apply = Some(editor.text.clone());
    }
    // a row of its own: the panel keeps its width
    ui.horizontal(|ui| {
        let l = ui.label("name:");
        ui.add(egui::TextEdit::singleline(&mut editor.name).desired_width(100.0))
            .labelled_by(l.id);
        if ui
            .add_enabled(ok && !editor.name.trim().is_empty(), egui::Button::new("Keep"))
            .on_hover_text("Keep this rule under its name in My rules (kept between runs)")
            .clicked()
        {
            let name = editor.name.clone();
            editor.keep(&name);
        }
    });
    apply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_line_and_column() {
        let mut e = RuleEditor {
            text: "rule(n ->\n  n - k for k in 1..=m)".into(),
            ..RuleEditor::default()
        };
        e.check();
        let p = e.problem.clone().unwrap();
        assert!(
            p.starts_with("line 2, column 22:") && p.contains("unknown name 'm'"),
            "{p}"
        );
        e.text = "rule(n -> n - 1 if n >= 1)".into();
        e.check();
        assert_eq!(e.problem, None);
        e.name = "one".into();
        e.keep("one");
        e.keep("one");
        assert_eq!(e.my_rules.len(), 1);
    }
}
