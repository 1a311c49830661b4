//! The catalog's families, one row each: the keyword the expression language uses, its rule in
//! one line, where it comes from, the kind of position it is played on, and example rulesets
//! with positions. The row is the one place a family is described: the parser's keywords
//! ([`super::expr`]), `Display`, the list of names in error messages, the window's catalog
//! buttons and tooltips, and the tests' lists of "every family" all read it. Adding a ruleset
//! is a row here, its moves in [`super::rules`], and its tests.
//!
//! The exact statement of each game is `docs/games.md` (a test ties its tables to these rows).

use super::catalog::{Dominoes, Ruleset, Shape};
use super::rules::euclid::EuclidVariant;

/// A family of the catalog: a leaf ruleset, a parameterised family (`sub(S)`) or a compound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// `nim`.
    Nim,
    /// `wythoff`.
    Wythoff,
    /// `euclid` (Cole–Davie).
    Euclid,
    /// `grossman`.
    Grossman,
    /// `euclid0`: Grossman's game extended to N².
    Euclid0,
    /// `m-euclid`.
    MEuclid,
    /// `zeruclid`.
    Zeruclid,
    /// `euclid3`.
    Euclid3,
    /// `cdn`: Common Divisor Nim.
    Cdn,
    /// `sub(S)`.
    Subtraction,
    /// `tag(k)`.
    Tag,
    /// `divisor`.
    Divisor,
    /// `fibonacci-nim`.
    FibonacciNim,
    /// `octal(C)`.
    Octal,
    /// `cram`.
    Cram,
    /// `cram-v`: vertical dominoes only.
    CramV,
    /// `cram-h`: horizontal dominoes only.
    CramH,
    /// `push-cram` = `push(cram-v,cram-h)`.
    PushCram,
    /// `push(R1,R2)`.
    Push,
    /// `sum(R1,R2)`.
    Sum,
    /// `misere(R)`.
    Misere,
    /// `rule(…)`: a rule typed in the move language.
    Typed,
}

/// A ruleset of a family with positions to try it on (and a slice of its map, when it needs
/// one to be drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// The ruleset expression.
    pub ruleset: &'static str,
    /// Positions of it, as the command line writes them.
    pub positions: &'static [&'static str],
    /// A slice of its map (`1,_,_`), or "" for the plain map.
    pub slice: &'static str,
}

/// Everything said about one family.
#[derive(Debug, Clone, Copy)]
pub struct FamilyRow {
    /// Which family.
    pub family: Family,
    /// The keyword of the expression language; `Display` writes it (but `push-cram`, written as
    /// what it is, `push(cram-v,cram-h)`).
    pub name: &'static str,
    /// Other spellings the parser accepts.
    pub aliases: &'static [&'static str],
    /// How it is written with its parameters named (`sub(S)`); the name alone for a leaf.
    pub syntax: &'static str,
    /// The rule in one line.
    pub rule: &'static str,
    /// Where it comes from: authors and year, and the seed paper that uses it.
    pub source: &'static str,
    /// The positions it is played on; `None` where it depends on the parts (compounds, typed
    /// rules).
    pub shape: Option<Shape>,
    /// The ruleset itself, for a family without parameters (a button of the catalog).
    pub leaf: Option<fn() -> Ruleset>,
    /// Rulesets of the family with positions: what the tests try every family on.
    pub examples: &'static [Example],
}

const fn example(ruleset: &'static str, positions: &'static [&'static str]) -> Example {
    Example {
        ruleset,
        positions,
        slice: "",
    }
}

const fn sliced(ruleset: &'static str, positions: &'static [&'static str], slice: &'static str) -> Example {
    Example {
        ruleset,
        positions,
        slice,
    }
}

/// The catalog, in the order the window's buttons and the help texts list it.
pub const FAMILIES: &[FamilyRow] = &[
    FamilyRow {
        family: Family::Nim,
        name: "nim",
        aliases: &[],
        syntax: "nim",
        rule: "Lower one heap by any positive amount (any number of heaps).",
        source: "Bouton (1901); seed 004.",
        shape: Some(Shape::AnyHeaps),
        leaf: Some(|| Ruleset::Nim),
        examples: &[example("nim", &["3,5", "7", "1,2,3"])],
    },
    FamilyRow {
        family: Family::Wythoff,
        name: "wythoff",
        aliases: &[],
        syntax: "wythoff",
        rule: "Lower one heap by any amount, or both by the same amount.",
        source: "Wythoff (1907); seed 003.",
        shape: Some(Shape::TwoHeaps),
        leaf: Some(|| Ruleset::Wythoff),
        examples: &[example("wythoff", &["3,5", "8,13", "0,0"])],
    },
    FamilyRow {
        family: Family::Euclid,
        name: "euclid",
        aliases: &[],
        syntax: "euclid",
        rule: "Subtract a positive multiple of the smaller heap from the larger, leaving ≥ 0; a zero ends the game.",
        source: "Cole and Davie (1969); seeds 000, 002, 004.",
        shape: Some(Shape::TwoHeaps),
        leaf: Some(|| Ruleset::Euclid(EuclidVariant::ColeDavie)),
        examples: &[example("euclid", &["27,5", "8,13", "4,4"])],
    },
    FamilyRow {
        family: Family::Grossman,
        name: "grossman",
        aliases: &[],
        syntax: "grossman",
        rule: "As euclid, but the result stays ≥ 1: the game stops at equal heaps.",
        source: "Grossman, as described in seed 000.",
        shape: Some(Shape::TwoHeaps),
        leaf: Some(|| Ruleset::Euclid(EuclidVariant::Grossman)),
        examples: &[example("grossman", &["27,5", "8,13", "4,4"])],
    },
    FamilyRow {
        family: Family::Euclid0,
        name: "euclid0",
        aliases: &[],
        syntax: "euclid0",
        rule: "Grossman's game on all of N², with (0, i) → (0, 0).",
        source: "Seed 003, Section 3.",
        shape: Some(Shape::TwoHeaps),
        leaf: Some(|| Ruleset::Euclid(EuclidVariant::Zero)),
        examples: &[example("euclid0", &["27,5", "0,4", "4,4"])],
    },
    FamilyRow {
        family: Family::MEuclid,
        name: "m-euclid",
        aliases: &["meuclid"],
        syntax: "m-euclid",
        rule: "As grossman; every position where one heap divides the other is terminal.",
        source: "Seed 000.",
        shape: Some(Shape::TwoHeaps),
        leaf: Some(|| Ruleset::Euclid(EuclidVariant::Multiple)),
        examples: &[example("m-euclid", &["27,5", "8,13", "3,9"])],
    },
    FamilyRow {
        family: Family::Zeruclid,
        name: "zeruclid",
        aliases: &[],
        syntax: "zeruclid",
        rule: "From any heap remove a positive multiple of the smallest non-zero heap (any number of heaps).",
        source: "Seed 003.",
        shape: Some(Shape::AnyHeaps),
        leaf: Some(|| Ruleset::Zeruclid),
        examples: &[
            example("zeruclid", &["3,5", "2,7,9", "0,4"]),
            sliced("zeruclid", &["1,3,5"], "1,_,_"),
        ],
    },
    FamilyRow {
        family: Family::Euclid3,
        name: "euclid3",
        aliases: &["3-euclid"],
        syntax: "euclid3",
        rule: "Subtract a positive multiple of one entry from another, leaving ≥ 0 (triples).",
        source: "Seed 002.",
        shape: Some(Shape::ThreeHeaps),
        leaf: Some(|| Ruleset::Euclid3),
        examples: &[
            example("euclid3", &["2,3,5", "4,6,9"]),
            sliced("euclid3", &["3,4,7"], "_,4,_"),
        ],
    },
    FamilyRow {
        family: Family::Cdn,
        name: "cdn",
        aliases: &[],
        syntax: "cdn",
        rule: "Common Divisor Nim: subtract from one heap a positive common divisor of all heaps.",
        source: "Seed 001.",
        shape: Some(Shape::AnyHeaps),
        leaf: Some(|| Ruleset::Cdn),
        examples: &[example("cdn", &["6,10", "4,6,9", "12"])],
    },
    FamilyRow {
        family: Family::Subtraction,
        name: "sub",
        aliases: &["subtraction"],
        syntax: "sub(S)",
        rule: "One heap: remove s tokens for an s in the set S.",
        source: "Subtraction games (Berlekamp, Conway and Guy, Winning Ways).",
        shape: Some(Shape::OneHeap),
        leaf: None,
        examples: &[
            example("sub(1,3,4)", &["7", "30", "3,5"]),
            example("sub(1,2,4)", &["9"]),
        ],
    },
    FamilyRow {
        family: Family::Tag,
        name: "tag",
        aliases: &[],
        syntax: "tag(k)",
        rule: "One heap: remove 1 to k tokens (sub({1..k})).",
        source: "Seed 004 (TAG_k).",
        shape: Some(Shape::OneHeap),
        leaf: None,
        examples: &[example("tag(3)", &["7", "12"])],
    },
    FamilyRow {
        family: Family::Divisor,
        name: "divisor",
        aliases: &[],
        syntax: "divisor",
        rule: "One heap n ≥ 1: subtract a proper divisor of n; 1 is terminal.",
        source: "Seed 004.",
        shape: Some(Shape::OneHeap),
        leaf: Some(|| Ruleset::Divisor),
        examples: &[example("divisor", &["12", "1", "30"])],
    },
    FamilyRow {
        family: Family::FibonacciNim,
        name: "fibonacci-nim",
        aliases: &["fibonacci", "fib"],
        syntax: "fibonacci-nim",
        rule: "Take k chips, 1 ≤ k ≤ q, then the opponent may take up to 2k.",
        source: "Whinihan (1963); seed 004.",
        shape: Some(Shape::Fibonacci),
        leaf: Some(|| Ruleset::FibonacciNim),
        examples: &[example("fibonacci-nim", &["20", "20:5", "13"])],
    },
    FamilyRow {
        family: Family::Octal,
        name: "octal",
        aliases: &[],
        syntax: "octal(0.d1d2...)",
        rule: "One heap: digit k of the code says whether taking k tokens may leave 0, 1 or 2 heaps.",
        source: "Guy and Smith (1956); 0.07 is Dawson's Kayles, Cram on a strip (seed 003).",
        shape: Some(Shape::OneHeap),
        leaf: None,
        examples: &[example("octal(0.07)", &["9", "4,7"]), example("octal(0.77)", &["10"])],
    },
    FamilyRow {
        family: Family::Cram,
        name: "cram",
        aliases: &[],
        syntax: "cram",
        rule: "Place a 1×2 domino on two empty adjacent cells of a board.",
        source: "Gardner (1974); seed 003, Section 5.",
        shape: Some(Shape::Board),
        leaf: Some(|| Ruleset::Cram(Dominoes::Both)),
        examples: &[example("cram", &["3x4", "..../.##./...."])],
    },
    FamilyRow {
        family: Family::CramV,
        name: "cram-v",
        aliases: &[],
        syntax: "cram-v",
        rule: "Cram with vertical dominoes only.",
        source: "Seed 003, Section 5 (the first part of Push Cram).",
        shape: Some(Shape::Board),
        leaf: Some(|| Ruleset::Cram(Dominoes::Vertical)),
        examples: &[example("cram-v", &["3x4"])],
    },
    FamilyRow {
        family: Family::CramH,
        name: "cram-h",
        aliases: &[],
        syntax: "cram-h",
        rule: "Cram with horizontal dominoes only: a sum of 0.07 games on the rows' runs.",
        source: "Seed 003, Section 5 (the second part of Push Cram).",
        shape: Some(Shape::Board),
        leaf: Some(|| Ruleset::Cram(Dominoes::Horizontal)),
        examples: &[example("cram-h", &["3x4"])],
    },
    FamilyRow {
        family: Family::PushCram,
        name: "push-cram",
        aliases: &[],
        syntax: "push-cram",
        rule: "Vertical dominoes before the push, horizontal ones after it; the push is one move.",
        source: "Seed 003, Section 5.",
        shape: Some(Shape::Board),
        leaf: Some(|| {
            Ruleset::Push(
                Box::new(Ruleset::Cram(Dominoes::Vertical)),
                Box::new(Ruleset::Cram(Dominoes::Horizontal)),
            )
        }),
        examples: &[example("push-cram", &["3x4"])],
    },
    FamilyRow {
        family: Family::Push,
        name: "push",
        aliases: &[],
        syntax: "push(R1,R2)",
        rule: "Play R1; once, a player may push the button instead of moving, and R2 is played on.",
        source: "Seed 003, Definition 2.0.1.",
        shape: None,
        leaf: None,
        examples: &[
            example("push(nim,wythoff)", &["3,5"]),
            example("push(nim,euclid0)", &["2,4", "3,5"]),
            example("push(wythoff,nim)", &["3,5"]),
            example("push(nim,zeruclid)", &["3,5"]),
            example("push(grossman,m-euclid)", &["6,9"]),
        ],
    },
    FamilyRow {
        family: Family::Sum,
        name: "sum",
        aliases: &[],
        syntax: "sum(R1,R2)",
        rule: "The disjunctive sum: move in one component; its value is the nim-sum.",
        source: "Sprague (1935), Grundy (1939).",
        shape: None,
        leaf: None,
        examples: &[
            example("sum(tag(3),wythoff)", &["5+3,4"]),
            example("sum(nim,sub(1,2))", &["3+4"]),
            example("sum(wythoff,nim)", &["3,5+2,2"]),
        ],
    },
    FamilyRow {
        family: Family::Misere,
        name: "misere",
        aliases: &["misère"],
        syntax: "misere(R)",
        rule: "R under the misère convention: the player who cannot move wins.",
        source: "Plambeck and Siegel (2008) for the quotients.",
        shape: None,
        leaf: None,
        examples: &[
            example("misere(wythoff)", &["3,5"]),
            example("misere(nim)", &["1,1", "2,2,3"]),
            example("misere(octal(0.77))", &["3,5,9"]),
        ],
    },
    FamilyRow {
        family: Family::Typed,
        name: "rule",
        aliases: &[],
        syntax: "rule(…)",
        rule: "A rule typed in the move language (nimscope rules).",
        source: "The literature's rules in it: nimscope rules --examples.",
        shape: None,
        leaf: None,
        examples: &[
            example("rule(n -> [k, n - k] for k in 1..n if 2*k < n)", &["9", "4,6"]),
            example(
                "rule((a, b) -> (a - k, b) for k in 1..=a; (a - k, b - k) for k in 1..=min(a, b))",
                &["3,5"],
            ),
        ],
    },
];

impl Family {
    /// This family's row of [`FAMILIES`].
    pub fn row(self) -> &'static FamilyRow {
        // every family has its row (a test checks it); the first row is never reached
        FAMILIES.iter().find(|r| r.family == self).unwrap_or(&FAMILIES[0])
    }

    /// The family a keyword of the expression language names (its name or an alias, any case
    /// already lowered).
    pub fn of_keyword(word: &str) -> Option<Family> {
        FAMILIES
            .iter()
            .find(|r| r.name == word || r.aliases.contains(&word))
            .map(|r| r.family)
    }
}

/// The families as they are written (`nim`, `sub(S)`, `push(R1,R2)`, ...), for help texts and
/// error messages.
pub fn syntaxes() -> impl Iterator<Item = &'static str> {
    FAMILIES.iter().map(|r| r.syntax)
}

/// Every example of every family, in the table's order: what the tests try "every family" on.
pub fn examples() -> impl Iterator<Item = &'static Example> {
    FAMILIES.iter().flat_map(|r| r.examples.iter())
}

/// The rule in one line and its source, for a catalog button's tooltip: "Lower one heap …
/// Bouton (1901); seed 004."
pub fn tooltip(name: &str) -> Option<String> {
    let row = FAMILIES.iter().find(|r| r.name == name || r.syntax == name)?;
    Some(format!("{} {}", row.rule, row.source))
}

impl Ruleset {
    /// The family this ruleset belongs to (its outermost one for a compound).
    pub fn family(&self) -> Family {
        match self {
            Ruleset::Nim => Family::Nim,
            Ruleset::Wythoff => Family::Wythoff,
            Ruleset::Euclid(EuclidVariant::ColeDavie) => Family::Euclid,
            Ruleset::Euclid(EuclidVariant::Grossman) => Family::Grossman,
            Ruleset::Euclid(EuclidVariant::Zero) => Family::Euclid0,
            Ruleset::Euclid(EuclidVariant::Multiple) => Family::MEuclid,
            Ruleset::Zeruclid => Family::Zeruclid,
            Ruleset::Euclid3 => Family::Euclid3,
            Ruleset::Cdn => Family::Cdn,
            Ruleset::Subtraction(_) => Family::Subtraction,
            Ruleset::Tag(_) => Family::Tag,
            Ruleset::Divisor => Family::Divisor,
            Ruleset::FibonacciNim => Family::FibonacciNim,
            Ruleset::Octal(_) => Family::Octal,
            Ruleset::Cram(Dominoes::Both) => Family::Cram,
            Ruleset::Cram(Dominoes::Vertical) => Family::CramV,
            Ruleset::Cram(Dominoes::Horizontal) => Family::CramH,
            Ruleset::Push(..) if self.cram_game().is_some() => Family::PushCram,
            Ruleset::Push(..) => Family::Push,
            Ruleset::Sum(..) => Family::Sum,
            Ruleset::Misere(_) => Family::Misere,
            Ruleset::Typed(_) => Family::Typed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_one_row_and_its_examples_are_of_it() {
        let mut seen = std::collections::HashSet::new();
        for row in FAMILIES {
            assert!(seen.insert(row.family), "{:?} twice", row.family);
            assert_eq!(row.family.row().family, row.family);
            assert_eq!(Family::of_keyword(row.name), Some(row.family));
            for alias in row.aliases {
                assert_eq!(Family::of_keyword(alias), Some(row.family), "{alias}");
            }
            assert!(!row.examples.is_empty(), "{}: no example", row.name);
            for e in row.examples {
                let r: Ruleset = e.ruleset.parse().unwrap_or_else(|err| panic!("{}: {err}", e.ruleset));
                assert_eq!(r.family(), row.family, "{}", e.ruleset);
                if let Some(shape) = row.shape {
                    assert_eq!(r.shape(), shape, "{}", e.ruleset);
                }
                for p in e.positions {
                    r.parse_position(p)
                        .unwrap_or_else(|err| panic!("{} at {p}: {err}", e.ruleset));
                }
            }
            if let Some(make) = row.leaf {
                assert_eq!(make().family(), row.family);
                assert_eq!(row.name.parse::<Ruleset>().unwrap(), make());
                assert_eq!(row.syntax, row.name);
            } else {
                assert!(row.syntax.starts_with(&format!("{}(", row.name)), "{}", row.syntax);
            }
        }
    }

    #[test]
    fn the_tooltip_is_the_rows_rule_and_source() {
        assert_eq!(
            tooltip("nim").as_deref(),
            Some("Lower one heap by any positive amount (any number of heaps). Bouton (1901); seed 004.")
        );
        assert!(tooltip("sub(S)").is_some_and(|t| t.starts_with("One heap")));
        assert_eq!(tooltip("nimm"), None);
    }
}
