//! Boards the parser refuses, with the place named.

use super::*;

#[test]
fn board_errors_name_the_place() {
    let e = "../.x/..".parse::<Board>().unwrap_err();
    assert_eq!(
        e,
        BoardError::BadChar {
            row: 2,
            col: 2,
            ch: 'x'
        }
    );
    assert_eq!(
        e.to_string(),
        "row 2, column 2: unexpected 'x' (use '.' for empty, '#' for blocked)"
    );
    let e = ".../..".parse::<Board>().unwrap_err();
    assert_eq!(e.to_string(), "row 2 has 2 cells but row 1 has 3");
    let e = "12x12".parse::<Board>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "board of 12×12 = 144 cells is over the limit of 128 cells"
    );
    assert_eq!("".parse::<Board>().unwrap_err(), BoardError::Empty);
    let b = Board::rectangle(2, 2).unwrap();
    let d = Domino {
        row: 1,
        col: 1,
        orientation: Orientation::Horizontal,
    };
    assert!(matches!(b.place(d), Err(BoardError::IllegalMove { .. })));
}
