use super::maps::{MapAnswer, map, sequence};
use super::{QueryError, cram, octal_code, position, ruleset};
use crate::solver::{Control, Evaluator};

#[test]
fn each_part_of_a_question_is_named_in_its_refusal() {
    let e = ruleset("wythof").unwrap_err();
    assert!(matches!(e, QueryError::Ruleset(_)));
    assert!(e.to_string().starts_with("ruleset: "), "{e}");
    let r = ruleset("wythoff").unwrap();
    let e = position(&r, "3,x").unwrap_err();
    assert!(e.to_string().starts_with("position '3,x' of wythoff: "), "{e}");
    assert_eq!(
        sequence(&r, 10, &Control::new()).unwrap_err().to_string(),
        "wythoff is not played on one heap: use grid for its map"
    );
    let e = map(&r, 0..0, 0..4, None, false, &Control::new()).unwrap_err();
    assert!(e.to_string().contains("hold no cell"), "{e}");
    let e = cram::board("3x", false).unwrap_err();
    assert!(e.to_string().starts_with("board '3x': "), "{e}");
    assert!(octal_code(&r).is_err());
}

#[test]
fn a_misere_octal_map_is_the_searched_outcome_of_each_pair() {
    let r = ruleset("misere(octal(0.07))").unwrap();
    let Ok(MapAnswer::MisereOutcomes(m)) = map(&r, 0..6, 0..7, None, false, &Control::new()) else {
        panic!("a misère octal map is answered by its quotient");
    };
    let mut eval = Evaluator::new();
    for a in 0..6 {
        for b in 0..7 {
            let p = position(&r, &format!("{a},{b}")).unwrap();
            let searched = eval.answer(&r, &p, &Control::new()).unwrap().outcome;
            assert_eq!(m.row(a)[b as usize], searched, "{{{a}, {b}}}");
        }
    }
}

#[test]
fn the_mirror_strategy_lists_the_moves_of_large_symmetric_boards_only() {
    let (r, p) = cram::board("6x6", false).unwrap();
    let page = cram::mirror_options(&r, &p).unwrap();
    assert_eq!(page.options.len(), 60);
    assert!(page.options.iter().all(|o| o.answer.outcome == crate::game::Outcome::N));
    let (r, p) = cram::board("4x4", false).unwrap();
    assert!(cram::mirror_options(&r, &p).is_none(), "16 cells are searched");
    let (r, p) = cram::board("3x3", false).unwrap();
    let a = cram::solve(&mut Evaluator::new(), &r, &p, true, &Control::new()).unwrap();
    assert_eq!(a.options.map(|o| o.len()), Some(a.summary.moves));
}
