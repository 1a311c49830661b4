//! What the window's parts ask the app to do when it reaches beyond their own state: open,
//! save or export the session (which gathers every part), cancel every job, write the last
//! state. The parts return an [`Action`]; [`super::App`] routes it.

use std::path::PathBuf;

/// What waits for the answer to "save the changes first?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AfterSaving {
    /// Close the window.
    Close,
    /// Open a session: this file, or the one the Open prompt gives (`None`).
    Open(Option<PathBuf>),
}

/// One thing for the app to do.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Action {
    /// Nothing.
    #[default]
    None,
    /// Stop every running job (the status bar's Cancel).
    CancelJobs,
    /// Compute again what Cancel stopped in the centre (the map or the one-heap view).
    ResumeCentre,
    /// Open a session: this file, or the one the Open prompt gives (`None`), asking first
    /// whether to save unsaved changes.
    Open(Option<PathBuf>),
    /// Open a session now (the question was asked, or there was nothing to save).
    OpenNow(Option<PathBuf>),
    /// Save to the session's file (through the Save as prompt when it has none); then what
    /// follows, if anything.
    Save(Option<AfterSaving>),
    /// Show the Save as prompt; then what follows a successful save.
    SaveAs(Option<AfterSaving>),
    /// Save to this file (the Save as prompt's answer); then what follows.
    SaveTo(PathBuf, Option<AfterSaving>),
    /// Show the Export figure window.
    ShowExport,
    /// Write the figure to this file.
    ExportTo(PathBuf),
    /// Show the prompt for the CSV file of the visible values.
    CsvPrompt,
    /// Write the visible values to this CSV file.
    CsvTo(PathBuf),
    /// Write the window's state for the next start (the autosave, closing).
    WriteState,
}

impl Action {
    /// This action, or `other` when this is nothing.
    pub fn or(self, other: Action) -> Action {
        match self {
            Action::None => other,
            a => a,
        }
    }
}
