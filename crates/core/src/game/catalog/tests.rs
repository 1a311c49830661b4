//! Tests of `catalog`.
use crate::game::Ruleset;

#[test]
fn positions_are_checked() {
    let r: Ruleset = "grossman".parse().unwrap();
    assert!(r.parse_position("0,5").is_err());
    assert!(r.parse_position("3,5,7").is_err());
    assert!(
        "push(nim,grossman)"
            .parse::<Ruleset>()
            .unwrap_err()
            .to_string()
            .contains("can empty a heap")
    );
    let r: Ruleset = "push(grossman,nim)".parse().unwrap();
    assert!(r.parse_position("0,5").is_err());
    assert!(r.parse_position("2,5").is_ok());
    let r: Ruleset = "sum(nim,fibonacci-nim)".parse().unwrap();
    assert_eq!(r.parse_position("3,4+20:5").unwrap().to_string(), "3,4+20:5");
    assert!(r.parse_position("3,4").is_err());
    let r: Ruleset = "divisor".parse().unwrap();
    assert!(r.parse_position("0").is_err());
}

#[test]
fn push_successors_follow_nesting() {
    let r: Ruleset = "push(push(push(nim,wythoff),euclid),zeruclid)".parse().unwrap();
    let s: Vec<String> = r.push_successors().iter().map(|s| s.to_string()).collect();
    assert_eq!(
        s,
        [
            "zeruclid",
            "push(euclid,zeruclid)",
            "push(push(wythoff,euclid),zeruclid)"
        ]
    );
}

#[test]
fn move_descriptions() {
    let r: Ruleset = "euclid".parse().unwrap();
    let from = r.parse_position("27,5").unwrap();
    let to = r.parse_position("17,5").unwrap();
    assert_eq!(r.describe_move(&from, &to), "subtract 2×5 from 27");
    let r: Ruleset = "push(nim,euclid0)".parse().unwrap();
    let p = r.parse_position("3,5").unwrap();
    let mut out = Vec::new();
    r.options(&p, &mut out);
    assert_eq!(r.describe_move(&p, out.last().unwrap()), "push the button");
    assert_eq!(r.describe_move(&p, &out[0]), "take 3 from heap 1 (3 → 0)");
}
