//! The ruleset expression language: `nim`, `sub(1,3,4)`, `octal(0.07)`, `push(nim,euclid0)`,
//! `sum(R1,R2)`, `misere(R)`, nested freely; parsed by recursive descent into a [`Ruleset`],
//! with errors that name the character where they occur. [`Ruleset`]'s `Display` writes the
//! same language back.

use std::str::FromStr;

use super::catalog::{Ruleset, Shape};
use super::families::{Family, syntaxes};
use super::position::parse_number;
use super::rules::one_heap::{OctalCode, SubtractionSet};
use super::rules::typed::TypedRule;
use crate::game::quote::quoted;

/// Why a ruleset expression does not parse. The expression is quoted escaped and shortened
/// ([`super::quote::quoted`]): it may be a megabyte long or hold a newline.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at character {at} of {})", super::quote::quoted(.text))]
pub struct ParseError {
    /// What is wrong, one line.
    pub message: String,
    /// Where the error is: its byte offset into `text` plus 1 (its character number when the text is ASCII).
    pub at: usize,
    /// The whole expression given.
    pub text: String,
}

impl ParseError {
    /// The 1-based line and column (in characters) of the error in its text: where a rule
    /// typed on several lines, in a file or the window's editor, fails.
    pub fn line_and_column(&self) -> (usize, usize) {
        let mut at = self.at.saturating_sub(1).min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    }
}

impl FromStr for Ruleset {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        super::parse_count::count_ruleset_parse();
        let mut p = Parser { text, pos: 0 };
        let r = p.ruleset()?;
        p.skip_ws();
        if p.pos < text.len() {
            return Err(p.error(format!("unexpected {} after the ruleset", quoted(&text[p.pos..]))));
        }
        Ok(r)
    }
}

/// A recursive-descent parser over the expression; nesting depth is bounded by `MAX_DEPTH`
/// so a hostile expression cannot overflow the stack.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

const MAX_DEPTH: usize = 32;

impl Parser<'_> {
    fn error(&self, message: String) -> ParseError {
        ParseError {
            message,
            at: self.pos + 1,
            text: self.text.to_string(),
        }
    }

    /// Skips white space and `#` comments (a rule file may explain itself).
    fn skip_ws(&mut self) {
        loop {
            let rest = &self.text[self.pos..];
            // a byte-order mark (some editors start a file with one) is white space here
            if rest.starts_with(|c: char| c.is_whitespace() || c == '\u{feff}') {
                self.pos += rest.chars().next().map_or(1, char::len_utf8);
            } else if rest.starts_with('#') {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else {
                return;
            }
        }
    }

    fn eat(&mut self, c: char) -> Result<(), ParseError> {
        self.skip_ws();
        if self.text[self.pos..].starts_with(c) {
            self.pos += 1;
            Ok(())
        } else {
            let found = self.text[self.pos..]
                .chars()
                .next()
                .map_or("the end".to_string(), |f| quoted(&f.to_string()));
            Err(self.error(format!("expected '{c}' but found {found}")))
        }
    }

    fn word(&mut self) -> String {
        self.skip_ws();
        let start = self.pos;
        let rest = &self.text[start..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        self.pos += len;
        self.text[start..start + len].to_ascii_lowercase()
    }

    /// The raw text up to the matching ')' (for number lists and octal codes).
    fn args_text(&mut self) -> Result<String, ParseError> {
        self.eat('(')?;
        let start = self.pos;
        let Some(len) = self.text[start..].find(')') else {
            return Err(self.error("missing ')'".into()));
        };
        self.pos = start + len + 1;
        Ok(self.text[start..start + len].to_string())
    }

    fn ruleset(&mut self) -> Result<Ruleset, ParseError> {
        self.ruleset_at(0)
    }

    /// The set of `sub(…)`: positive numbers, sorted and without repeats ([`SubtractionSet`]).
    fn subtraction_set(&mut self) -> Result<Ruleset, ParseError> {
        let args = self.args_text()?;
        let mut set = Vec::new();
        for part in args.split(',') {
            let n = parse_number(part).map_err(|e| self.error(format!("subtraction set: {e}")))?;
            set.push(n);
        }
        SubtractionSet::new(set)
            .map(Ruleset::Subtraction)
            .map_err(|e| self.error(e))
    }

    fn ruleset_at(&mut self, depth: usize) -> Result<Ruleset, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("rulesets nest at most {MAX_DEPTH} deep")));
        }
        let at = self.pos;
        let name = self.word();
        let Some(family) = Family::of_keyword(&name) else {
            if name.is_empty() {
                return Err(
                    self.error("expected a ruleset name such as nim, wythoff, sub(1,2) or push(nim,euclid0)".into())
                );
            }
            let known: Vec<&str> = syntaxes().collect();
            return Err(ParseError {
                message: format!("unknown ruleset {}; known: {}", quoted(&name), known.join(", ")),
                at: at + 1,
                text: self.text.into(),
            });
        };
        if let Some(make) = family.row().leaf {
            return Ok(make());
        }
        match family {
            Family::Typed => {
                let (rule, end) = TypedRule::parse_at(self.text, self.pos).map_err(|e| ParseError {
                    message: e.message,
                    at: e.at + 1,
                    text: self.text.into(),
                })?;
                self.pos = end;
                Ok(Ruleset::Typed(rule))
            }
            Family::Subtraction => self.subtraction_set(),
            Family::Tag => {
                let args = self.args_text()?;
                let k = parse_number(&args).map_err(|e| self.error(format!("tag(k): {e}")))?;
                if k == 0 {
                    return Err(self.error("tag(k) needs k ≥ 1".into()));
                }
                Ok(Ruleset::Tag(k))
            }
            Family::Octal => {
                let args = self.args_text()?;
                args.parse::<OctalCode>().map(Ruleset::Octal).map_err(|e| self.error(e))
            }
            Family::Push | Family::Sum => {
                self.eat('(')?;
                let a = self.ruleset_at(depth + 1)?;
                self.eat(',')?;
                let b_at = self.pos;
                let b = self.ruleset_at(depth + 1)?;
                self.eat(')')?;
                if family == Family::Push {
                    if matches!(a, Ruleset::Misere(_)) {
                        return Err(ParseError { message: "misère has no effect on the first ruleset of push (the game never ends before the push); write push(R1,misere(R2)) or misere(push(R1,R2))".into(), at: at + 1, text: self.text.into() });
                    }
                    if a.min_heap() < b.min_heap() {
                        return Err(ParseError {
                            message: format!(
                                "push({a},{b}): {a} can empty a heap, but {b} has no positions with an empty heap"
                            ),
                            at: b_at + 1,
                            text: self.text.into(),
                        });
                    }
                    if !compatible(&a, &b) {
                        return Err(ParseError {
                            message: format!("push({a},{b}): {a} and {b} are not played on the same positions"),
                            at: b_at + 1,
                            text: self.text.into(),
                        });
                    }
                    Ok(Ruleset::Push(Box::new(a), Box::new(b)))
                } else {
                    if a.has_misere() || b.has_misere() {
                        return Err(ParseError {
                            message:
                                "misère applies to a whole game, not to a component of a sum: write misere(sum(R1,R2))"
                                    .into(),
                            at: at + 1,
                            text: self.text.into(),
                        });
                    }
                    Ok(Ruleset::Sum(Box::new(a), Box::new(b)))
                }
            }
            Family::Misere => {
                self.eat('(')?;
                let r = self.ruleset_at(depth + 1)?;
                self.eat(')')?;
                if r.has_misere() {
                    return Err(ParseError {
                        message: format!("{r} already has misère play"),
                        at: at + 1,
                        text: self.text.into(),
                    });
                }
                Ok(Ruleset::Misere(Box::new(r)))
            }
            // the families without parameters were made from their rows above
            _ => Err(self.error(format!("{} takes no parameters", family.row().name))),
        }
    }
}

/// Whether two rulesets are played on the same kind of board, so a push can hand the board
/// from one to the other (individual positions are checked again when they are given).
fn compatible(a: &Ruleset, b: &Ruleset) -> bool {
    use Shape::*;
    match (a.shape(), b.shape()) {
        (Sum, _) | (_, Sum) => false,
        (Board, Board) => true,
        (Board, _) | (_, Board) => false,
        (Fibonacci, Fibonacci) => true,
        (Fibonacci, _) | (_, Fibonacci) => false,
        (x, y) if x == y => true,
        (AnyHeaps, _) | (_, AnyHeaps) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_round_trip() {
        for text in [
            "nim",
            "wythoff",
            "euclid",
            "grossman",
            "euclid0",
            "m-euclid",
            "zeruclid",
            "euclid3",
            "cdn",
            "sub(1,3,4)",
            "tag(5)",
            "divisor",
            "fibonacci-nim",
            "octal(0.07)",
            "push(nim,euclid0)",
            "sum(nim,sub(1,2))",
            "misere(push(tag(2),tag(3)))",
            "push(push(nim,wythoff),euclid)",
        ] {
            let r: Ruleset = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(r.to_string(), text);
        }
        assert_eq!(
            " push ( nim , sub(3,1,3) ) ".parse::<Ruleset>().unwrap().to_string(),
            "push(nim,sub(1,3))"
        );
    }

    #[test]
    fn bad_expressions_say_why() {
        let err = |t: &str| t.parse::<Ruleset>().unwrap_err().to_string();
        assert!(err("nimm").contains("unknown ruleset 'nimm'"));
        assert!(err("sub()").contains("subtraction set"));
        assert!(err("sub(0,2)").contains("0 is not allowed"));
        assert!(err("sub(1,99999999999999999999)").contains("does not fit in 64 bits"));
        assert!(err("push(nim").contains("expected ','"));
        assert!(err("push(wythoff,sub(1,2))").contains("not played on the same positions"));
        assert!(err("sum(misere(nim),nim)").contains("misère"));
        assert!(err("nim)").contains("unexpected ')'"));
        assert!(err("octal(0.g)").contains("not an octal digit"));
        assert!(err(&"push(".repeat(100)).contains("nest"));
    }
}
