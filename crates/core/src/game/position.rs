//! Positions of every ruleset of the catalog, with the text form used by the command line,
//! sessions and tests: `3,5` (heaps), `60` (one heap), `20:5` (Fibonacci Nim: 20 chips, at most 5
//! may be taken), `3,5+7` (a disjunctive sum), `pushed(3,5)` (a push compound after the push).

use crate::game::quote::quoted;
use std::fmt;

/// A position of some ruleset. Which variants a ruleset accepts is checked by
/// [`crate::game::Ruleset::check_position`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Position {
    /// Heaps of tokens; a one-heap ruleset uses a single entry.
    Heaps(Vec<u64>),
    /// Fibonacci Nim: `n` chips, at most `q` may be taken now.
    Fib {
        /// Chips left.
        n: u64,
        /// Most chips the next move may take.
        q: u64,
    },
    /// A position of `sum(R1,R2)`: one position of each component.
    Sum(Box<Position>, Box<Position>),
    /// A position of a push compound after a push: `inner` is a position of the compound's
    /// push successor number `choice` (see [`crate::game::Ruleset::push_successors`]; for
    /// `push(R1,R2)` with a plain `R1` the only successor, 0, is `R2`). Before any push a
    /// position of a push compound is a plain board.
    Pushed {
        /// Which push successor of the compound is played now.
        choice: u8,
        /// The position of that successor.
        inner: Box<Position>,
    },
    /// A Cram board (cells empty or blocked).
    Board(crate::game::rules::cram_board::Board),
}

/// Why a text is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The text is empty.
    #[error("empty position")]
    Empty,
    /// A number of the position that is not a non-negative integer (the text given).
    #[error("{} is not a non-negative integer", super::quote::quoted(.0))]
    NotANumber(String),
    /// A number over `u64::MAX` (the text given).
    #[error("number {} does not fit in 64 bits", super::quote::shorten(.0, super::quote::QUOTE_MAX))]
    Overflow(String),
    /// A position the ruleset does not accept; the message says why.
    #[error("{0}")]
    Illegal(String),
}

impl Position {
    /// Heaps of the given sizes.
    pub fn heaps(h: &[u64]) -> Self {
        Position::Heaps(h.to_vec())
    }

    /// A fresh Fibonacci Nim pile of `n` chips: the first move may not take everything.
    pub fn fresh_fib(n: u64) -> Self {
        Position::Fib {
            n,
            q: n.saturating_sub(1),
        }
    }

    /// The underlying board of a position, without phase markers: what a push hands over to
    /// the second ruleset (seed 003's compatibility map is the identity on boards).
    pub fn board(&self) -> &Position {
        match self {
            Position::Pushed { inner, .. } => inner.board(),
            other => other,
        }
    }

    /// Parses the text form; `fib` selects Fibonacci Nim's `n` / `n:q` reading of a plain
    /// number (decided by the ruleset, see [`crate::game::Ruleset::parse_position`]).
    pub fn parse_plain(text: &str, fib: bool) -> Result<Self, PositionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(PositionError::Empty);
        }
        if let Some((choice, inner)) = split_pushed(text)? {
            return Ok(Position::Pushed {
                choice,
                inner: Box::new(Self::parse_plain(inner, fib)?),
            });
        }
        if fib {
            return match text.split_once(':') {
                Some((n, q)) => Ok(Position::Fib {
                    n: parse_number(n)?,
                    q: parse_number(q)?,
                }),
                None => Ok(Position::fresh_fib(parse_number(text)?)),
            };
        }
        let heaps = strip_one_pair_of_parentheses(text)?
            .split(',')
            .map(parse_number)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Position::Heaps(heaps))
    }
}

/// `(3,4)` reads as `3,4`: one pair of parentheses around the whole list is allowed, and no
/// other parenthesis anywhere (`3,4)` and `((3,4` are not positions).
fn strip_one_pair_of_parentheses(text: &str) -> Result<&str, PositionError> {
    let inner = match text.strip_prefix('(') {
        Some(rest) => rest
            .strip_suffix(')')
            .ok_or_else(|| PositionError::Illegal(format!("{} lacks its closing ')'", quoted(text))))?,
        None => text,
    };
    match inner.find(['(', ')']) {
        Some(i) => Err(PositionError::Illegal(format!(
            "unexpected {} in {} (a position is heaps such as 3,5 or (3,5))",
            quoted(&inner[i..i + 1]),
            quoted(text)
        ))),
        None => Ok(inner),
    }
}

/// Splits `pushed(…)` / `pushedK(…)` into the successor number and the inner text.
pub fn split_pushed(text: &str) -> Result<Option<(u8, &str)>, PositionError> {
    let Some(rest) = text.trim().strip_prefix("pushed") else {
        return Ok(None);
    };
    let Some(open) = rest.find('(') else { return Ok(None) };
    let Some(inner) = rest[open + 1..].strip_suffix(')') else {
        return Err(PositionError::Illegal(format!(
            "{} lacks its closing ')'",
            quoted(text)
        )));
    };
    let choice = if open == 0 {
        0
    } else {
        rest[..open]
            .parse::<u8>()
            .map_err(|_| PositionError::NotANumber(rest[..open].to_string()))?
    };
    Ok(Some((choice, inner)))
}

/// Parses one non-negative integer, telling overflow apart from garbage.
pub fn parse_number(text: &str) -> Result<u64, PositionError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(PositionError::NotANumber(t.to_string()));
    }
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::NotANumber(t.to_string()));
    }
    t.parse::<u64>().map_err(|_| PositionError::Overflow(t.to_string()))
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Heaps(h) => {
                for (i, x) in h.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{x}")?;
                }
                Ok(())
            }
            Position::Fib { n, q } => write!(f, "{n}:{q}"),
            Position::Sum(a, b) => write!(f, "{a}+{b}"),
            Position::Pushed { choice: 0, inner } => write!(f, "pushed({inner})"),
            Position::Pushed { choice, inner } => write!(f, "pushed{choice}({inner})"),
            Position::Board(b) => write!(f, "{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for text in ["3,5", "60", "1,4,7", "pushed(3,5)", "pushed2(pushed(1))"] {
            assert_eq!(Position::parse_plain(text, false).unwrap().to_string(), text);
        }
        assert_eq!(
            Position::parse_plain("20", true).unwrap(),
            Position::Fib { n: 20, q: 19 }
        );
        assert_eq!(
            Position::parse_plain("20:5", true).unwrap(),
            Position::Fib { n: 20, q: 5 }
        );
    }

    #[test]
    fn bad_numbers_are_named() {
        assert_eq!(
            Position::parse_plain("3,x", false),
            Err(PositionError::NotANumber("x".into()))
        );
        assert_eq!(
            Position::parse_plain("99999999999999999999", false),
            Err(PositionError::Overflow("99999999999999999999".into()))
        );
        assert_eq!(
            Position::parse_plain("-3", false),
            Err(PositionError::NotANumber("-3".into()))
        );
        assert_eq!(Position::parse_plain(" ", false), Err(PositionError::Empty));
    }

    #[test]
    fn parentheses_must_balance() {
        assert_eq!(Position::parse_plain("(3,4)", false), Ok(Position::Heaps(vec![3, 4])));
        assert_eq!(
            Position::parse_plain(" ( 3, 4 ) ", false),
            Ok(Position::Heaps(vec![3, 4]))
        );
        for bad in [
            "3,4)",
            "((3,4",
            "(3,4",
            "((3,4))",
            "3,(4)",
            "pushed(3,4))",
            "pushed((3,4)",
            "()",
        ] {
            assert!(Position::parse_plain(bad, false).is_err(), "{bad}");
        }
    }
}
