//! A session as its file writes it: the RON document's fields, the ruleset, the slice and the
//! compared ruleset as the texts the command line takes ([`SessionFile`]). Read here and parsed
//! once, at the border, into the typed [`Session`] (a text that does not parse is refused with
//! its field's path, for [`super::locate`] to find its line); written from the typed session
//! field by field, so the format stays what version 1 wrote.

use std::ops::Range;

use super::{CentralTab, Comparison, FORMAT_VERSION, InspectorDocument, Invalid, Session};
use crate::camera::Camera;
use crate::figure::FigureStyle;
use crate::game::cram_setup::CramDocument;
use crate::game::prediction::Prediction;
use crate::game::quote::quoted;
use crate::game::{Layout, Ruleset};
use crate::raster::{ColorMode, Overlays};

/// The fields of a session file, in the order it writes them (the same session, the same
/// bytes). A field left out takes the default session's value.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename = "Session")]
pub(super) struct SessionFile {
    pub format_version: u32,
    /// The ruleset expression, as the command line takes it.
    pub ruleset: String,
    /// Fixed heaps of a slice such as `1,_,_`; empty for the plain map.
    pub slice: String,
    pub tab: CentralTab,
    pub view: Camera,
    pub rows: Range<u64>,
    pub cols: Range<u64>,
    pub sequence_len: u64,
    pub color: ColorMode,
    pub overlays: Overlays,
    /// Ruleset compared with in the difference colour mode (empty: none).
    pub compare: String,
    pub compare_theorem: Option<Prediction>,
    pub inspector: InspectorDocument,
    pub board: Option<CramDocument>,
    pub figure: FigureStyle,
    pub notes: String,
}

impl Default for SessionFile {
    fn default() -> Self {
        SessionFile::from(&Session::default())
    }
}

impl From<&Session> for SessionFile {
    fn from(s: &Session) -> SessionFile {
        SessionFile {
            format_version: s.format_version,
            ruleset: s.ruleset.to_string(),
            slice: s.layout.slice_text(),
            tab: s.tab,
            view: s.view,
            rows: s.rows.clone(),
            cols: s.cols.clone(),
            sequence_len: s.sequence_len,
            color: s.color,
            overlays: s.overlays,
            compare: s.compare.ruleset.as_ref().map_or_else(String::new, Ruleset::to_string),
            compare_theorem: s.compare.theorem,
            inspector: s.inspector.clone(),
            board: s.board.clone(),
            figure: s.figure.clone(),
            notes: s.notes.clone(),
        }
    }
}

impl SessionFile {
    /// The typed session: each text parsed once, then every field checked
    /// ([`Session::validate`]); the first field that fails, and why.
    pub fn into_session(self) -> Result<Session, Invalid> {
        if self.format_version > FORMAT_VERSION {
            return Err(Invalid::new(
                &["format_version"],
                format!(
                    "written by a newer nimscope (format {}; this one reads up to {FORMAT_VERSION})",
                    self.format_version
                ),
            ));
        }
        let ruleset: Ruleset = self
            .ruleset
            .parse()
            .map_err(|e| Invalid::new(&["ruleset"], format!("ruleset {}: {e}", quoted(&self.ruleset))))?;
        let layout = Layout::from_slice_text(&self.slice)
            .map_err(|e| Invalid::new(&["slice"], format!("slice {}: {e}", quoted(&self.slice))))?;
        let compared = match self.compare.trim() {
            "" => None,
            text => Some(
                text.parse::<Ruleset>()
                    .map_err(|e| Invalid::new(&["compare"], format!("compare {}: {e}", quoted(text))))?,
            ),
        };
        let session = Session {
            format_version: self.format_version,
            ruleset,
            layout,
            tab: self.tab,
            view: self.view,
            rows: self.rows,
            cols: self.cols,
            sequence_len: self.sequence_len,
            color: self.color,
            overlays: self.overlays,
            compare: Comparison {
                ruleset: compared,
                theorem: self.compare_theorem,
            },
            inspector: self.inspector,
            board: self.board,
            figure: self.figure,
            notes: self.notes,
        };
        session.validate()?;
        Ok(session)
    }
}
