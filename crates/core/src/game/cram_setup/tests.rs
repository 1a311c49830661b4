//! Tests of `cram_setup`.
use super::{CramDocument, CramModel, EditError, Setup, SetupError, domino_between};
use crate::game::rules::cram_board::{BoardError, Domino, Orientation};
use crate::solver::cram::checkpoint::CramGame;

fn h(row: usize, col: usize) -> Domino {
    Domino {
        row,
        col,
        orientation: Orientation::Horizontal,
    }
}

fn v(row: usize, col: usize) -> Domino {
    Domino {
        row,
        col,
        orientation: Orientation::Vertical,
    }
}

#[test]
fn edits_make_the_expected_board() {
    let mut s = Setup::empty(3, 4);
    s.toggle_cell(1, 1).unwrap();
    s.place(h(0, 0)).unwrap();
    s.place(v(1, 3)).unwrap();
    assert_eq!(s.cells_text(), "..../.#../....");
    assert_eq!(s.position_text(), "##../.#.#/...#");
    let board = s.to_board().unwrap();
    assert_eq!(board, "##../.#.#/...#".parse().unwrap());
    // dominoes need free cells; a refused edit changes nothing
    let before = s.clone();
    assert_eq!(s.place(h(1, 0)), Err(EditError::NotEmpty(h(1, 0))));
    assert_eq!(s.place(h(0, 1)), Err(EditError::NotEmpty(h(0, 1))));
    assert_eq!(s.place(h(2, 3)), Err(EditError::NotEmpty(h(2, 3))));
    assert_eq!(s, before);
    // toggling a covered cell does nothing; removing frees both cells
    s.toggle_cell(0, 1).unwrap();
    assert_eq!(s, before);
    assert!(s.remove_at(0, 1));
    assert!(!s.remove_at(0, 1));
    assert_eq!(s.position_text(), "..../.#.#/...#");
}

#[test]
fn to_board_lists_every_reason() {
    let mut s = Setup::empty(16, 16);
    s.dominoes = vec![h(0, 15), v(0, 0), h(0, 0)];
    s.blocked[0] = true;
    let errors = s.to_board().unwrap_err();
    assert_eq!(
        errors,
        vec![
            SetupError::TooLarge {
                rows: 16,
                cols: 16,
                cells: 256
            },
            SetupError::DominoOutside(h(0, 15)),
            SetupError::DominoOnBlocked(v(0, 0)),
            SetupError::DominoOnBlocked(h(0, 0)),
            SetupError::Overlap(v(0, 0), h(0, 0)),
        ]
    );
    assert!(errors[0].to_string().contains("at most 128"));
    // 8 × 16 = 128 cells is fine
    assert!(Setup::empty(8, 16).to_board().is_ok());
}

#[test]
fn resize_keeps_what_fits() {
    let mut s = Setup::empty(4, 4);
    s.toggle_cell(3, 3).unwrap();
    s.toggle_cell(0, 1).unwrap();
    s.place(v(2, 0)).unwrap();
    s.place(h(0, 2)).unwrap();
    s.resize(3, 3).unwrap();
    assert_eq!(s.cells_text(), ".#./.../...");
    assert_eq!(s.dominoes(), &[]);
    assert_eq!(s.resize(0, 3), Err(EditError::BadSize(0, 3)));
    assert_eq!(s.resize(3, 17), Err(EditError::BadSize(3, 17)));
    s.resize(3, 5).unwrap();
    assert_eq!(s.cells_text(), ".#.../...../.....");
}

#[test]
fn undo_and_redo_walk_the_history() {
    let mut m = CramModel::default();
    let start = m.setup().clone();
    assert!(m.edit(|s| s.toggle_cell(0, 0)).unwrap());
    let blocked = m.setup().clone();
    assert!(m.edit(|s| s.place(h(1, 0))).unwrap());
    // a refused edit and an edit that changes nothing leave the history alone
    assert!(m.edit(|s| s.place(h(1, 0))).is_err());
    assert!(!m.edit(|s| s.resize(3, 4)).unwrap());
    assert!(m.undo());
    assert_eq!(m.setup(), &blocked);
    assert!(m.undo());
    assert_eq!(m.setup(), &start);
    assert!(!m.undo());
    assert!(m.redo());
    assert_eq!(m.setup(), &blocked);
    // a new edit forgets the redo stack
    m.edit(|s| s.toggle_cell(2, 2)).unwrap();
    assert!(!m.can_redo());
    assert!(!m.redo());
}

#[test]
fn switching_the_rules_is_a_step_of_the_history() {
    let mut m = CramModel::default();
    assert_eq!(m.rules(), CramGame::Cram);
    m.edit(|s| s.toggle_cell(0, 0)).unwrap();
    let blocked = m.setup().clone();
    assert!(m.set_rules(CramGame::PushCram));
    assert!(!m.set_rules(CramGame::PushCram), "no change, no step");
    m.edit(|s| s.place(h(1, 0))).unwrap();
    assert!(m.undo());
    assert_eq!((m.setup(), m.rules()), (&blocked, CramGame::PushCram));
    assert!(m.undo());
    assert_eq!((m.setup(), m.rules()), (&blocked, CramGame::Cram));
    assert!(m.undo());
    assert!(!m.setup().is_blocked(0, 0));
    assert!(m.redo() && m.redo());
    assert_eq!((m.setup(), m.rules()), (&blocked, CramGame::PushCram));
    // switching forgets the redo stack, as an edit does
    assert!(m.set_rules(CramGame::Cram));
    assert!(!m.can_redo());
}

#[test]
fn paste_parses_or_changes_nothing() {
    let mut m = CramModel::default();
    m.paste("..#/.../#..").unwrap();
    assert_eq!((m.setup().rows(), m.setup().cols()), (3, 3));
    assert!(m.setup().is_blocked(0, 2) && m.setup().is_blocked(2, 0));
    let before = m.setup().clone();
    let e = m.paste("..#/.x./#..").unwrap_err();
    assert_eq!(
        e.to_string(),
        "row 2, column 2: unexpected 'x' (use '.' for empty, '#' for blocked)"
    );
    assert_eq!(
        m.paste("../..."),
        Err(BoardError::Ragged {
            row: 2,
            len: 3,
            first: 2
        }
        .into())
    );
    assert_eq!(m.paste("17x2"), Err(EditError::TextTooLarge(17, 2)));
    assert!(m.paste("").is_err());
    assert!(m.paste("0x3").is_err());
    assert_eq!(m.setup(), &before);
    m.paste("2x5").unwrap();
    assert_eq!(m.setup(), &Setup::empty(2, 5));
    assert!(m.undo());
    assert_eq!(m.setup(), &before);
    // a 12 × 12 drawing parses (it is too large to solve, which to_board says)
    m.paste(&vec![".".repeat(12); 12].join("/")).unwrap();
    assert!(m.setup().to_board().is_err());
}

#[test]
fn documents_round_trip() {
    let mut m = CramModel {
        rules: CramGame::PushCram,
        ..CramModel::default()
    };
    m.edit(|s| {
        s.toggle_cell(2, 3)?;
        s.place(v(0, 0))?;
        s.pushed = true;
        Ok(())
    })
    .unwrap();
    let doc = m.document();
    assert_eq!(doc.board, "..../..../...#");
    let back = CramModel::from_document(&doc).unwrap();
    assert_eq!(back.setup(), m.setup());
    assert_eq!(back.rules, CramGame::PushCram);
    let json = serde_json::to_string(&doc).unwrap();
    let again: CramDocument = serde_json::from_str(&json).unwrap();
    assert_eq!(again, doc);
    // missing fields take their defaults
    let partial: CramDocument = serde_json::from_str(r#"{"board":"2x2"}"#).unwrap();
    assert_eq!(CramModel::from_document(&partial).unwrap().setup(), &Setup::empty(2, 2));
}

#[test]
fn dominoes_between_adjacent_cells() {
    assert_eq!(domino_between((1, 2), (1, 1)), Some(h(1, 1)));
    assert_eq!(domino_between((0, 2), (1, 2)), Some(v(0, 2)));
    assert_eq!(domino_between((0, 0), (1, 1)), None);
    assert_eq!(domino_between((0, 0), (0, 0)), None);
}
