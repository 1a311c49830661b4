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

    /// Draws the editor; returns the ruleset to apply, if the user asked for one. `shown`: the
    /// ruleset the window shows (the hint says whether the rule typed is it).
    pub fn ui(&mut self, ui: &mut egui::Ui, shown: Option<&Ruleset>) -> Option<Ruleset> {
        let mut apply = self.menus_ui(ui);
        if self.show_reference {
            // laid out as written (its continuation lines are indented under their heading:
            // wrapped mid-line in the narrow panel they read as new entries), scrolled sideways
            egui::ScrollArea::horizontal()
                .id_salt("syntax reference")
                .show(ui, |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(REFERENCE).small().monospace()).extend());
                });
        }
        let label = ui.label("Rule (Ctrl+Enter applies)");
        // taken before the text sees it, or the editor would keep the key
        let ctrl_enter = self.had_focus && ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Enter));
        // the code is not wrapped (a "column 40" is found by eye, the editor scrolls
        // sideways), and the character a syntax error names is underlined
        let error_at = self.problem().and_then(error_position);
        let red = theme::error_text(ui.visuals());
        let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
            ui.fonts_mut(|f| f.layout_job(code_job(ui, buf.as_str(), error_at, red)))
        };
        // no wider than the panel shows: the code scrolls sideways inside it
        let width = ui
            .available_width()
            .min(ui.clip_rect().right() - ui.cursor().left() - 8.0);
        let edit = egui::ScrollArea::horizontal()
            .id_salt("rule editor")
            .show(ui, |ui| {
                ui.add(
                    egui::TextEdit::multiline(&mut self.text)
                        .code_editor()
                        // Tab leaves the editor for the next field, as everywhere in the window
                        // (the rule language needs no tab characters)
                        .lock_focus(false)
                        .desired_rows(4)
                        .desired_width(width)
                        .hint_text("rule(n -> [k, n - k] for k in 1..n if 2*k < n)")
                        .layouter(&mut layouter),
                )
            })
            .inner
            .labelled_by(label.id);
        self.had_focus = edit.has_focus();
        let ok = match self.check() {
            Some(Err(p)) => {
                ui.colored_label(theme::error_text(ui.visuals()), p);
                false
            }
            Some(Ok(r)) if Some(r) == shown => {
                ui.small("applied: the window shows this rule");
                true
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
        super::row(ui, |ui| {
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
        super::row(ui, |ui| {
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
                        ui.horizontal_wrapped(|ui| {
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

/// The line and column (both from 1, the column in characters) a syntax error names, as
/// [`RuleEditor::check`] writes them ("line 2, column 14: …").
fn error_position(problem: &str) -> Option<(usize, usize)> {
    let rest = problem.strip_prefix("line ")?;
    let (line, rest) = rest.split_once(", column ")?;
    let (column, _) = rest.split_once(':')?;
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// The byte range of the character at `line`, `column` of `text` (both from 1), if there is
/// one (an error at the end of the text names none).
fn char_at(text: &str, (line, column): (usize, usize)) -> Option<std::ops::Range<usize>> {
    let start = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum::<usize>();
    let (i, c) = text.get(start..)?.char_indices().nth(column.checked_sub(1)?)?;
    (c != '\n').then(|| start + i..start + i + c.len_utf8())
}

/// The editor's text in the monospace font, not wrapped, the character at `error_at`
/// underlined in `red`.
fn code_job(ui: &egui::Ui, text: &str, error_at: Option<(usize, usize)>, red: egui::Color32) -> egui::text::LayoutJob {
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let plain = egui::TextFormat::simple(font, ui.visuals().text_color());
    let mut job = egui::text::LayoutJob::default();
    job.wrap.max_width = f32::INFINITY;
    match error_at.and_then(|at| char_at(text, at)) {
        Some(r) => {
            let marked = egui::TextFormat {
                color: red,
                underline: egui::Stroke::new(2.0, red),
                ..plain.clone()
            };
            job.append(&text[..r.start], 0.0, plain.clone());
            job.append(&text[r.clone()], 0.0, marked);
            job.append(&text[r.end..], 0.0, plain);
        }
        None => job.append(text, 0.0, plain),
    }
    job
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

    /// The character a syntax error names, found by its line and column (in characters).
    #[test]
    fn an_error_names_a_character_of_the_text() {
        use super::{char_at, error_position};
        let text = "rule(n ->\n  [é, n - k] for k in 1..m)";
        assert_eq!(error_position("line 2, column 4: unknown"), Some((2, 4)));
        assert_eq!(error_position("no position"), None);
        let r = char_at(text, (2, 4)).unwrap();
        assert_eq!(&text[r], "é");
        let r = char_at(text, (2, 26)).unwrap();
        assert_eq!(&text[r], "m");
        assert_eq!(char_at(text, (1, 10)), None, "the line's end: no character");
        assert_eq!(char_at(text, (3, 1)), None);
    }
}
