//! The inspector's state: the selected position and its document part (saved in sessions),
//! the reports the worker sent, the tree rows drawn last and the schedule of reports still
//! needed. The views ([`super::view`], [`super::move_tree`], [`super::play`]) draw it and record
//! what the user asked for; nothing here draws.
//!
//! Reports come from the worker's inspector lane, one position at a time: the game being
//! played first, then the selected position, then the expanded tree nodes in the order they
//! are shown.

use std::collections::HashMap;
use std::sync::Arc;

use egui::Rect;

use crate::ui::job::JobState;
use crate::worker::{JobError, JobSpec, Lane, Output, Response, Worker};
use nimscope_core::game::quote::quoted;
use nimscope_core::game::{Cell, Layout, Position, Ruleset};
use nimscope_core::session::InspectorDocument;
use nimscope_core::solver::control::Control;
use nimscope_core::solver::play::{self, GameRecord};
use nimscope_core::solver::report::{self, PositionReport};

/// Options valued per report (the tree shows them in pages, see [`TREE_PAGE`]).
pub const OPTION_LIMIT: usize = report::DEFAULT_OPTION_LIMIT;
/// Children a tree node shows before "show more".
pub const TREE_PAGE: usize = 25;
/// Reports kept in memory before the cache is emptied.
const CACHE_LIMIT: usize = 4000;

/// The inspector. The serialised fields are the user's document (saved in sessions with the
/// ruleset); everything else is a cache rebuilt from them.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct InspectorState {
    /// The ruleset expression the selection belongs to; a different ruleset clears it.
    pub ruleset: String,
    /// The selected position, the open nodes of the move tree, the game being played.
    #[serde(flatten)]
    pub doc: InspectorDocument,
    #[serde(skip)]
    pub(crate) cache: Cache,
}

impl InspectorState {
    /// The saved part, for session files.
    pub fn document(&self) -> InspectorDocument {
        self.doc.clone()
    }

    /// An inspector showing a saved document of `ruleset` (checked against the ruleset on the
    /// next frame, see [`InspectorState::sync`]).
    pub fn from_document(ruleset: &str, doc: InspectorDocument) -> InspectorState {
        InspectorState {
            ruleset: ruleset.to_string(),
            doc,
            cache: Cache::default(),
        }
    }
}

/// One row of the tree as drawn in the last frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeRow {
    /// The path of position texts from the root, joined by [`PATH_SEPARATOR`].
    pub key: String,
    pub position: Position,
    /// The row index of the parent node.
    pub parent: Option<usize>,
    /// Whether the node may have options (unknown counts as yes).
    pub expandable: bool,
    pub expanded: bool,
}

/// Separates the positions of a tree path (never part of a position's text).
pub const PATH_SEPARATOR: &str = " > ";

/// What the inspector computed or saw; never saved.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    /// The ruleset the caches belong to.
    ruleset: Option<Ruleset>,
    /// `selected`, parsed.
    pub(crate) root: Option<Position>,
    pub(crate) reports: HashMap<Position, Arc<PositionReport>>,
    pub(crate) errors: HashMap<Position, JobError>,
    /// The position of the job running on the inspector lane.
    requested: Option<Position>,
    /// The job the worker runs for a position, as of this frame: its position, its progress
    /// (the control's counters, read when drawn) and what they count.
    running: Option<(Position, Control, &'static str)>,
    /// Why the typed position was refused.
    pub(crate) input_error: Option<String>,
    /// The tree row the keyboard is on (its path key).
    pub(crate) cursor: Option<String>,
    /// The rows drawn in the last frame, in order (for the keyboard).
    pub(crate) rows: Vec<TreeRow>,
    /// Expanded nodes without a report, in the order drawn (for the schedule).
    pub(crate) wanted: Vec<Position>,
    /// The inspector's rectangle in the last frame.
    pub(super) rect: Option<Rect>,
    /// The keyboard belongs to the tree (set by a click inside the inspector).
    pub(super) focused: bool,
    /// The hint shown in play mode.
    pub(crate) hint: Option<String>,
}

/// Where to draw the inspector's marks on the map: the cell of the position in focus and the
/// cells of its options (winning or not).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapMarks {
    pub selected: Option<Cell>,
    pub options: Vec<(Cell, bool)>,
}

impl InspectorState {
    /// Selects `p`, a position of the current ruleset, as the root of the tree (leaves play mode).
    pub fn select(&mut self, p: Position) {
        self.resume(&p);
        let text = p.to_string();
        self.doc.typed = text.clone();
        self.cache.input_error = None;
        if self.doc.selected.as_deref() == Some(text.as_str()) && self.cache.root.as_ref() == Some(&p) {
            return;
        }
        self.doc.selected = Some(text.clone());
        self.cache.root = Some(p);
        self.cache.cursor = Some(text.clone());
        self.doc.expanded.clear();
        self.doc.expanded.insert(text); // the options of a new selection are shown at once
        self.doc.shown.clear();
        self.doc.play = None;
        self.cache.hint = None;
    }

    /// Parses and selects the typed position; an illegal one gets a message and changes nothing.
    pub fn select_typed(&mut self, ruleset: &Ruleset) {
        self.sync(ruleset);
        match ruleset.parse_position(&self.doc.typed) {
            Ok(p) => self.select(p),
            Err(e) => {
                self.cache.input_error = Some(format!(
                    "{} is not a position of {ruleset}: {e}",
                    quoted(self.doc.typed.trim())
                ))
            }
        }
    }

    /// Selects position text (`--select` on the command line, a session): parsed and checked
    /// against `ruleset`.
    pub fn select_text(&mut self, ruleset: &Ruleset, text: &str) -> Result<(), String> {
        self.doc.typed = text.to_string();
        self.select_typed(ruleset);
        match &self.cache.input_error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// The selected position, parsed.
    pub fn root(&self) -> Option<&Position> {
        self.cache.root.as_ref()
    }

    /// The report of `p`, if computed.
    pub fn report(&self, p: &Position) -> Option<&Arc<PositionReport>> {
        self.cache.reports.get(p)
    }

    /// Why the typed position was refused, if it was.
    pub fn input_error(&self) -> Option<&str> {
        self.cache.input_error.as_deref()
    }

    /// The tree rows drawn in the last frame.
    pub fn rows(&self) -> &[TreeRow] {
        &self.cache.rows
    }

    /// The path key of the row the keyboard is on.
    pub fn cursor(&self) -> Option<&str> {
        self.cache.cursor.as_deref()
    }

    /// Keeps the state consistent with the window's ruleset: a new ruleset empties the caches,
    /// and clears the selection unless it was saved for that ruleset (a restored session).
    pub fn sync(&mut self, ruleset: &Ruleset) {
        if self.cache.ruleset.as_ref() == Some(ruleset) {
            return;
        }
        let name = ruleset.to_string();
        self.cache = Cache {
            ruleset: Some(ruleset.clone()),
            ..Cache::default()
        };
        if self.ruleset != name {
            self.ruleset = name;
            self.doc.selected = None;
            self.doc.expanded.clear();
            self.doc.shown.clear();
            self.doc.play = None;
            // a position typed for the previous ruleset (one heap, where this one takes two)
            // would be refused by Inspect: the field is emptied rather than kept
            if ruleset.parse_position(&self.doc.typed).is_err() {
                self.doc.typed.clear();
            }
        }
        // a restored (or kept) selection must still be a position of the ruleset
        if let Some(text) = self.doc.selected.clone() {
            match ruleset.parse_position(&text) {
                Ok(p) => {
                    self.cache.cursor = Some(p.to_string());
                    self.cache.root = Some(p);
                }
                Err(e) => {
                    self.doc.selected = None;
                    self.doc.play = None;
                    self.cache.input_error = Some(format!(
                        "the saved position {} is not a position of {ruleset}: {e}",
                        quoted(&text)
                    ));
                }
            }
        }
        // and a saved game must still be a game of it: dropped with a word, never silently
        if let Some(g) = &self.doc.play
            && let Err(e) = g.check(ruleset)
        {
            self.cache.input_error = Some(format!("the saved game was not restored: {e}"));
            self.doc.play = None;
        }
    }

    /// Takes a response of the inspector lane.
    pub fn on_response(&mut self, resp: Response) {
        let JobSpec::Position { ruleset, position, .. } = resp.spec else {
            return;
        };
        if self.cache.requested.as_ref() == Some(&position) {
            self.cache.requested = None;
        }
        if self.cache.ruleset.as_ref() != Some(&ruleset) {
            return; // for a ruleset no longer shown
        }
        if self.cache.reports.len() >= CACHE_LIMIT {
            self.cache.reports.clear();
        }
        match resp.result {
            Ok(Output::Position(r)) => {
                self.cache.errors.remove(&position);
                self.cache.reports.insert(position, r);
            }
            Ok(_) => {}
            Err(e) => {
                self.cache.errors.insert(position, e);
            }
        }
    }

    /// The positions whose reports the inspector needs now, most urgent first.
    fn needed(&self) -> Vec<Position> {
        let mut out = Vec::new();
        if let Some(p) = self.doc.play.as_ref().and_then(GameRecord::current) {
            out.push(p.clone());
        }
        out.extend(self.cache.root.iter().cloned());
        if let Some(p) = self.focus_position() {
            out.push(p);
        }
        out.extend(self.cache.wanted.iter().cloned());
        out
    }

    /// Asks the worker for the first needed report, plays the computer's move when it is its
    /// turn. Call once a frame after taking the lane's responses.
    pub fn logic(&mut self, ruleset: &Ruleset, worker: &mut Worker) {
        self.cache.running = worker
            .running()
            .find(|r| r.lane == Lane::Inspector)
            .and_then(|r| match &r.spec {
                JobSpec::Position { position, .. } => Some((position.clone(), r.control.clone(), r.spec.unit())),
                _ => None,
            });
        self.sync(ruleset);
        self.computer_move();
        let needed = self.needed();
        if worker.is_running(Lane::Inspector) && self.cache.requested.as_ref().is_some_and(|r| needed.contains(r)) {
            return;
        }
        if !worker.is_running(Lane::Inspector) {
            self.cache.requested = None;
        }
        let next = needed
            .into_iter()
            .find(|p| !self.cache.reports.contains_key(p) && !self.cache.errors.contains_key(p));
        match next {
            Some(p) => {
                worker.submit(
                    Lane::Inspector,
                    JobSpec::Position {
                        ruleset: ruleset.clone(),
                        position: p.clone(),
                        limit: OPTION_LIMIT,
                    },
                );
                self.cache.requested = Some(p);
            }
            None if self.cache.requested.is_some() => {
                worker.cancel(Lane::Inspector); // nobody needs it any more
                self.cache.requested = None;
            }
            None => {}
        }
    }

    /// Plays the computer's move if it is to move and the current position's report is known.
    fn computer_move(&mut self) {
        let Some(g) = &mut self.doc.play else { return };
        if !g.computer_to_move() {
            return;
        }
        let Some(r) = g.current().and_then(|p| self.cache.reports.get(p)) else {
            return;
        };
        if let Some(i) = play::computer_choice(&r.options) {
            let to = r.options[i].position.clone();
            g.play(to);
            self.cache.hint = None;
        }
    }

    /// The position whose options are marked on the map: the game's current position in play
    /// mode, else the tree row under the keyboard cursor, else the selected position.
    pub fn focus_position(&self) -> Option<Position> {
        if let Some(p) = self.doc.play.as_ref().and_then(GameRecord::current) {
            return Some(p.clone());
        }
        if let Some(c) = &self.cache.cursor
            && let Some(row) = self.cache.rows.iter().find(|r| &r.key == c)
        {
            return Some(row.position.clone());
        }
        self.cache.root.clone()
    }

    /// The marks of the focus position on a map drawn with `layout`.
    pub fn map_marks(&self, layout: &Layout, ruleset: &Ruleset) -> MapMarks {
        let Some(p) = self.focus_position() else {
            return MapMarks::default();
        };
        let options = self.cache.reports.get(&p).map_or_else(Vec::new, |r| {
            r.options
                .iter()
                .filter_map(|o| layout.cell_of(ruleset, &o.position).map(|c| (c, o.winning)))
                .collect()
        });
        MapMarks {
            selected: layout.cell_of(ruleset, &p),
            options,
        }
    }

    /// Heaps marked on the strip of a one-heap ruleset: the focus heap and the heaps its
    /// options lead to (winning or not).
    pub fn strip_marks(&self) -> (Option<u64>, Vec<(u64, bool)>) {
        let one = |p: &Position| match p {
            Position::Heaps(h) if h.len() == 1 => Some(h[0]),
            _ => None,
        };
        let Some(p) = self.focus_position() else {
            return (None, Vec::new());
        };
        let opts = self.cache.reports.get(&p).map_or_else(Vec::new, |r| {
            r.options
                .iter()
                .filter_map(|o| one(&o.position).map(|n| (n, o.winning)))
                .collect()
        });
        (one(&p), opts)
    }

    /// The status bar's Cancel: the job running for the inspector stops, and the positions it
    /// still needed are marked as stopped, so nothing starts again until the user asks
    /// (selecting, expanding, or "compute again").
    pub fn cancel(&mut self, worker: &mut Worker) {
        worker.cancel_and_free(Lane::Inspector);
        self.cache.requested = None;
        for p in self.needed() {
            if !self.cache.reports.contains_key(&p) {
                self.cache.errors.entry(p).or_insert(JobError::Cancelled);
            }
        }
    }

    /// The one state of the job of `p`'s report, which the summary and Play both read: done
    /// (the report came), stopped by Cancel, failed (why), running (asked of the worker) or
    /// queued (still to be asked).
    pub fn job_state(&self, p: &Position) -> JobState {
        match (self.cache.reports.contains_key(p), self.cache.errors.get(p)) {
            (true, _) => JobState::Done,
            (false, Some(JobError::Cancelled)) => JobState::Cancelled,
            (false, Some(e)) => JobState::Failed(e.to_string()),
            (false, None) if self.cache.requested.as_ref() == Some(p) => match &self.cache.running {
                // the worker's counters, as the status bar reads them
                Some((q, control, _)) if q == p => JobState::of_control(control),
                _ => JobState::Running {
                    done: 0,
                    total: 0,
                    stage: String::new(),
                },
            },
            (false, None) => JobState::Queued,
        }
    }

    /// The count of the progress of `p`'s job while it runs ("1.2 M of 3.0 M positions"), in
    /// the status bar's words.
    pub fn job_count(&self, p: &Position) -> Option<String> {
        let unit = self.cache.running.as_ref().map_or("positions", |r| r.2);
        self.job_state(p).count_text(unit)
    }

    /// Forgets that `p`'s computation was stopped, so it is computed again.
    pub fn resume(&mut self, p: &Position) {
        if self.cache.errors.get(p) == Some(&JobError::Cancelled) {
            self.cache.errors.remove(p);
        }
    }

    /// In play mode, plays the move to `to` (a cell clicked on the map): it must be a move
    /// from the game's current position, and the person's turn. Returns why not, otherwise.
    pub fn play_to(&mut self, to: &Position) -> Result<(), String> {
        let Some(game) = &self.doc.play else {
            return Err("no game is being played".into());
        };
        let Some(current) = game.current().cloned() else {
            return Err("the game has no position".into());
        };
        if game.computer_to_move() {
            return Err("the computer is to move".into());
        }
        let Some(report) = self.cache.reports.get(&current) else {
            return Err("the moves are still being computed".into());
        };
        let legal = report.options.iter().any(|o| &o.position == to) || {
            let mut all = Vec::new();
            report.ruleset.options(&current, &mut all);
            all.contains(to)
        };
        if !legal {
            return Err(format!("{to} is not a move from {current}"));
        }
        if let Some(g) = &mut self.doc.play {
            g.play(to.clone());
        }
        self.cache.hint = None;
        Ok(())
    }

    /// Whether a game is being played.
    pub fn playing(&self) -> bool {
        self.doc.play.is_some()
    }

    /// Starts a game from `start` against the chosen opponent.
    pub fn start_play(&mut self, start: Position) {
        self.doc.play = Some(GameRecord::new(start, self.doc.opponent));
        self.cache.hint = None;
    }
}

#[cfg(test)]
mod tests {
    use super::{Cache, InspectorState};
    use nimscope_core::game::{Position, Ruleset};
    use nimscope_core::solver::play::GameRecord;

    #[test]
    fn a_new_ruleset_clears_the_selection_but_a_restored_one_survives() {
        let wythoff: Ruleset = "wythoff".parse().unwrap();
        let mut s = InspectorState::default();
        s.sync(&wythoff);
        s.select_text(&wythoff, "3,5").unwrap();
        s.doc.expanded.insert("3,5".into());
        let saved = serde_json::to_string(&s).unwrap();
        let mut restored: InspectorState = serde_json::from_str(&saved).unwrap();
        restored.sync(&wythoff);
        assert_eq!(restored.root(), Some(&Position::heaps(&[3, 5])));
        assert!(restored.doc.expanded.contains("3,5"));
        restored.sync(&"euclid".parse().unwrap());
        assert_eq!(restored.root(), None);
        assert!(restored.doc.expanded.is_empty());
        // an illegal typed position changes nothing
        let mut s = InspectorState::default();
        s.sync(&wythoff);
        s.select_text(&wythoff, "3,5").unwrap();
        assert!(s.select_text(&wythoff, "3,5,7").is_err());
        assert_eq!(s.root(), Some(&Position::heaps(&[3, 5])));
        assert!(s.input_error().unwrap().contains("two heaps"));
    }

    #[test]
    fn a_saved_game_that_no_longer_fits_is_dropped_with_a_word() {
        let wythoff: Ruleset = "wythoff".parse().unwrap();
        let restore = |positions: &[&[u64]]| {
            let mut s = InspectorState::default();
            s.sync(&wythoff);
            s.doc.play = Some(GameRecord {
                positions: positions.iter().map(|h| Position::heaps(h)).collect(),
                ..GameRecord::default()
            });
            s.cache = Cache::default(); // as freshly loaded from a file
            s.sync(&wythoff);
            s
        };
        // a real game survives: (3,5) -> (1,3) (2 from both) -> (0,3)
        let s = restore(&[&[3, 5], &[1, 3], &[0, 3]]);
        assert!(s.doc.play.is_some());
        assert_eq!(s.input_error(), None);
        let s = restore(&[&[3, 5], &[1, 2, 3]]);
        assert!(s.doc.play.is_none());
        assert!(
            s.input_error()
                .unwrap()
                .contains("'1,2,3' is not a position of wythoff")
        );
        // (3,5) -> (2,2) removes 1 and 3: not a move
        let s = restore(&[&[3, 5], &[2, 2]]);
        assert!(s.doc.play.is_none());
        assert_eq!(
            s.input_error(),
            Some("the saved game was not restored: '2,2' is not a move from '3,5' in wythoff")
        );
        // a step from a position of 2·10^18 options is refused at once, not looked for among
        // them (the test would not end otherwise)
        let big = 1_000_000_000_000_000_000;
        let s = restore(&[&[big, big], &[big - 1, big - 1]]);
        assert!(s.doc.play.is_none());
        assert!(s.input_error().unwrap().contains("too many options to check"));
    }
}
