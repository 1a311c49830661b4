//! Play mode in the inspector: play from the selected position against the computer (which
//! plays a winning move whenever one exists) or step through both sides by hand, with the game
//! record, undo and a hint.

use super::state::InspectorState;
use crate::ui::job::JobState;
use crate::ui::theme::{self, shown};
use nimscope_core::game::Position;
use nimscope_core::solver::play::{self, Opponent};

/// Height of the list of moves, in points.
const MOVES_HEIGHT: f32 = 320.0;

/// Draws play mode for the selected position `root`.
pub fn play_ui(ui: &mut egui::Ui, state: &mut InspectorState, root: &Position) {
    ui.strong("Play");
    let Some(game) = state.doc.play.clone() else {
        start_ui(ui, state, root);
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("game: {}", shown(&game.text())));
        if ui.small_button("Copy record").clicked() {
            ui.ctx().copy_text(game.text());
        }
    });
    let against = game.opponent != Opponent::ByHand;
    let mover = |moves: usize| {
        if against {
            if game.opponent.computer_to_move(moves) {
                "the computer"
            } else {
                "you"
            }
        } else if moves.is_multiple_of(2) {
            "player 1"
        } else {
            "player 2"
        }
    };
    let report = game.current().and_then(|p| state.cache.reports.get(p)).cloned();
    let mut chosen: Option<Position> = None;
    ui.horizontal(|ui| {
        let undo = ui.add_enabled(game.moves() > 0, egui::Button::new("Undo"));
        if undo.clicked()
            && let Some(g) = &mut state.doc.play
        {
            g.undo();
            state.cache.hint = None;
        }
        if ui.button("Hint").clicked() {
            state.cache.hint = Some(match &report {
                None => "the options are still being computed".into(),
                Some(r) => match play::hint(&r.options) {
                    Some(i) => shown(&format!(
                        "hint: {} -> {} wins",
                        r.options[i].description, r.options[i].to
                    )),
                    None if r.is_terminal() => "the game is over".into(),
                    None => "no winning move: every move loses against best play".into(),
                },
            });
        }
        if ui.button("Stop playing").clicked() {
            state.doc.play = None;
            state.cache.hint = None;
        }
    });
    if let Some(h) = &state.cache.hint {
        ui.label(h);
    }
    match &report {
        None => {
            ui.horizontal(|ui| {
                crate::ui::busy_ui(ui);
                ui.label("computing the options…");
            });
        }
        Some(r) if r.is_terminal() => {
            let m = game.moves();
            // value 0 at the end: the player to move has lost (normal play)
            let winner = if r.value == 0 { mover(m + 1) } else { mover(m) };
            let verb = if winner == "you" { "win" } else { "wins" };
            // green for the person's own win, red when the computer won, plain between people
            let text = format!("game over after {m} move(s): {winner} {verb}");
            match winner {
                "you" => ui.colored_label(theme::WINNING_TEXT, text),
                "the computer" => ui.colored_label(theme::error_text(ui.visuals()), text),
                _ => ui.strong(text),
            };
        }
        Some(_) if game.computer_to_move() => {
            ui.label("the computer is to move…");
        }
        Some(r) => {
            ui.label(match mover(game.moves()) {
                "you" => "Your move".to_string(),
                who => format!("{} to move", capitalised(who)),
            });
            // only the rows in view are laid out, so thousands of moves cost nothing
            let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
            egui::ScrollArea::vertical()
                .id_salt("play-moves")
                .max_height(MOVES_HEIGHT)
                .show_rows(ui, row, r.options.len(), |ui, range| {
                    for o in &r.options[range] {
                        if ui
                            .button(shown(&format!("play: {} -> {}", o.description, o.to)))
                            .clicked()
                        {
                            chosen = Some(o.position.clone());
                        }
                    }
                });
            if let Some(total) = r.total_options
                && total > r.options.len() as u64
            {
                ui.small(format!(
                    "{} further moves are not listed",
                    total - r.options.len() as u64
                ));
            }
            if r.total_options.is_none() {
                ui.small("too many moves to list here");
            }
        }
    }
    if let (Some(to), Some(g)) = (chosen, &mut state.doc.play) {
        g.play(to);
        state.cache.hint = None;
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// Before a game: the opponent's choice and "Play from here" (disabled, saying why, for a
/// position without a value).
fn start_ui(ui: &mut egui::Ui, state: &mut InspectorState, root: &Position) {
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut state.doc.opponent, Opponent::ByHand, "both sides by hand");
        ui.radio_value(&mut state.doc.opponent, Opponent::ComputerSecond, "computer second");
        ui.radio_value(&mut state.doc.opponent, Opponent::ComputerFirst, "computer first");
    });
    // play needs the position's value (the computer's moves, the hint): a position whose
    // value could not be computed (a game that is not finite, a rule that failed) offers none,
    // nor one whose computation Cancel stopped (its options would never come)
    let failed = match state.job_state(root) {
        JobState::Failed(e) | JobState::Held(e) => Some(format!("no play from {root}: {e}")),
        JobState::Cancelled => Some(format!(
            "no play from {root}: its value was stopped by Cancel (Compute again first)"
        )),
        JobState::Queued | JobState::Running { .. } | JobState::Done => None,
    };
    let button = ui.add_enabled(failed.is_none(), egui::Button::new("Play from here"));
    if button.clicked() {
        state.start_play(root.clone());
    }
    if let Some(why) = failed {
        button.on_disabled_hover_text(shown(&why));
    }
}
