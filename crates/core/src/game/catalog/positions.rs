//! Which positions a ruleset has: reading a position's text and checking a position (heaps,
//! boards, pushed and summed positions) against the ruleset's own limits.

use crate::game::Ruleset;
use crate::game::position::{Position, PositionError};
use crate::game::quote::quoted;

impl Ruleset {
    /// Reads a position written in this ruleset's text form and checks it is legal.
    pub fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        let p = self.parse_position_unchecked(text)?;
        self.check_position(&p)?;
        Ok(p)
    }

    pub(super) fn parse_position_unchecked(&self, text: &str) -> Result<Position, PositionError> {
        match self {
            Ruleset::Sum(a, b) => {
                let parts: Vec<&str> = text.split('+').collect();
                let na = a.sum_components();
                let nb = b.sum_components();
                if parts.len() != na + nb {
                    return Err(PositionError::Illegal(format!(
                        "a position of {self} has {} components separated by '+', not {}",
                        na + nb,
                        parts.len()
                    )));
                }
                let left = a.parse_position_unchecked(&parts[..na].join("+"))?;
                let right = b.parse_position_unchecked(&parts[na..].join("+"))?;
                Ok(Position::Sum(Box::new(left), Box::new(right)))
            }
            Ruleset::Push(..) | Ruleset::Misere(_) if text.trim().starts_with("pushed") => {
                let Some((choice, inner)) = crate::game::position::split_pushed(text)? else {
                    return Err(PositionError::Illegal(format!("{} is not a position", quoted(text))));
                };
                let succ = self.push_successors();
                let s = succ.get(choice as usize).ok_or_else(|| {
                    PositionError::Illegal(format!(
                        "{self} has {} way(s) to push, so {} does not exist",
                        succ.len(),
                        quoted(text)
                    ))
                })?;
                Ok(Position::Pushed {
                    choice,
                    inner: Box::new(s.parse_position_unchecked(inner)?),
                })
            }
            Ruleset::Push(..) => self.base().0.parse_position_unchecked(text),
            Ruleset::Misere(r) => r.parse_position_unchecked(text),
            Ruleset::FibonacciNim => Position::parse_plain(text, true),
            Ruleset::Cram(_) => text
                .parse()
                .map(Position::Board)
                .map_err(|e: crate::game::rules::cram_board::BoardError| PositionError::Illegal(e.to_string())),
            _ => Position::parse_plain(text, false),
        }
    }

    pub(super) fn sum_components(&self) -> usize {
        match self {
            Ruleset::Sum(a, b) => a.sum_components() + b.sum_components(),
            _ => 1,
        }
    }

    /// Checks a position of a push compound (not pushed yet): every ruleset of the compound
    /// plays on it, each checked once (walking the push successors instead visits nested
    /// compounds exponentially often).
    fn check_push_position(&self, p: &Position) -> Result<(), PositionError> {
        let base = self.base().0;
        base.check_position(p)?;
        let mut leaves = Vec::new();
        self.push_leaves(&mut leaves);
        for s in leaves.into_iter().filter(|s| *s != base) {
            s.check_position(p).map_err(|e| {
                PositionError::Illegal(format!(
                    "{} is a position of {base} but not of {s}, so the button could not be pushed there: {e}",
                    quoted(&p.to_string())
                ))
            })?;
        }
        Ok(())
    }

    /// Checks that `p` is a position of this ruleset; the error names what is wrong.
    pub fn check_position(&self, p: &Position) -> Result<(), PositionError> {
        let illegal = |msg: String| Err(PositionError::Illegal(msg));
        // the position as messages quote it, made only for a message
        let q = || quoted(&p.to_string());
        let heap_count = |h: &Vec<u64>, n: usize, what: &str| {
            if h.len() == n {
                Ok(())
            } else {
                illegal(format!(
                    "{self} is played on {what}, but {} has {} heap(s)",
                    q(),
                    h.len()
                ))
            }
        };
        match (self, p) {
            (Ruleset::Push(..) | Ruleset::Misere(_), Position::Pushed { choice, inner }) => {
                match self.push_successors().get(*choice as usize) {
                    Some(s) => s.check_position(inner),
                    None => illegal(format!("{self} has no push number {choice}")),
                }
            }
            (Ruleset::Push(..), p) => self.check_push_position(p),
            (Ruleset::Misere(r), p) => r.check_position(p),
            (Ruleset::Sum(a, b), Position::Sum(pa, pb)) => {
                a.check_position(pa)?;
                b.check_position(pb)
            }
            (Ruleset::Sum(..), _) => illegal(format!(
                "a position of {self} is written 'p1+p2', one position per component"
            )),
            (Ruleset::FibonacciNim, Position::Fib { .. }) => Ok(()),
            (Ruleset::Cram(_), Position::Board(_)) => Ok(()),
            (Ruleset::Cram(_), _) => illegal(format!(
                "a Cram position is a board such as 3x7 or ..../.##./...., not {}",
                q()
            )),
            (_, Position::Board(_)) => illegal(format!("{} is a Cram board, not a position of {self}", q())),
            (_, Position::Pushed { .. }) => {
                illegal(format!("{self} is not a push compound, so {} cannot be pushed", q()))
            }
            (_, Position::Sum(..)) => illegal(format!("{self} is not a sum, so {} has too many components", q())),
            (_, Position::Fib { .. }) => illegal(format!("{} is a Fibonacci Nim position, not one of {self}", q())),
            (Ruleset::FibonacciNim, _) => illegal(format!("a Fibonacci Nim position is 'n' or 'n:q', not {}", q())),
            (Ruleset::Nim | Ruleset::Zeruclid | Ruleset::Cdn, Position::Heaps(h)) => {
                if h.is_empty() {
                    illegal(format!("{self} needs at least one heap"))
                } else {
                    Ok(())
                }
            }
            (Ruleset::Wythoff, Position::Heaps(h)) => heap_count(h, 2, "two heaps"),
            (Ruleset::Euclid(v), Position::Heaps(h)) => {
                heap_count(h, 2, "two heaps")?;
                if v.is_position(h[0], h[1]) {
                    Ok(())
                } else {
                    illegal(format!("{self} positions have both entries ≥ 1, not {}", q()))
                }
            }
            (Ruleset::Euclid3, Position::Heaps(h)) => heap_count(h, 3, "three heaps"),
            (Ruleset::Subtraction(_) | Ruleset::Tag(_), Position::Heaps(h)) => {
                if h.is_empty() {
                    illegal(format!("{self} needs at least one heap"))
                } else {
                    Ok(())
                }
            }
            (Ruleset::Divisor, Position::Heaps(h)) => {
                if h.is_empty() {
                    illegal("the divisor game needs at least one heap".into())
                } else if h.contains(&0) {
                    illegal("the divisor game's heaps start from n ≥ 1; 0 is not a position".into())
                } else {
                    Ok(())
                }
            }
            (Ruleset::Octal(_), Position::Heaps(h)) => {
                if h.is_empty() {
                    illegal("an octal position needs at least one heap".into())
                } else {
                    Ok(())
                }
            }
            (Ruleset::Typed(rule), Position::Heaps(h)) => {
                if rule.arity() == 1 {
                    if h.is_empty() {
                        return illegal("a position of a one-heap rule needs at least one heap".into());
                    }
                    match h.iter().find(|&&x| !rule.in_domain(&[x])) {
                        Some(x) => illegal(format!(
                            "heap {x} is not a position of the rule (its 'if' after the heap says so)"
                        )),
                        None => Ok(()),
                    }
                } else {
                    let what = match rule.arity() {
                        2 => "two heaps".to_string(),
                        3 => "three heaps".to_string(),
                        n => format!("{n} heaps"),
                    };
                    heap_count(h, rule.arity(), &what)?;
                    if rule.in_domain(h) {
                        Ok(())
                    } else {
                        illegal(format!(
                            "{} is not a position of the rule (its 'if' after the heaps says so)",
                            q()
                        ))
                    }
                }
            }
        }
    }
}
