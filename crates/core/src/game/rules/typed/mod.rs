//! Rules a user types: a small move language inside the ruleset expressions, so a researcher's
//! own game is explored like the built-in ones.
//!
//! ```text
//! rule((a, b) -> (a - k, b) for k in 1..=a; (a, b - k) for k in 1..=b; (a - k, b - k) for k in 1..=min(a, b))
//! rule(n -> [k, n - k] for k in 1..n if 2*k < n)          # Grundy's game: a heap splits
//! ```
//!
//! A rule names its heaps (`n`, `(a, b)` or `(a, b, c)`), optionally a domain (`if a >= 1 and
//! b >= 1`: the positions that exist), and after `->` its terms separated by `;`. A term is a
//! target (a position `(x, y)`; for one heap a heap `x` or a collection `[x, y]`, the sum of
//! its heaps) followed by clauses: `for v in lo..hi`, `lo..=hi` or `{1, 3, 4}`, and
//! `if`/`where` guards (`<`, `<=`, `==`, `!=`, chains like `1 <= b <= a`, `and`, `or`, `not`).
//! Expressions: `+ - * / %`, `min`, `max`, `gcd`, `isqrt`, `|x - y|`. Numbers are u64 and
//! arithmetic is checked: a value that would go below zero is an error unless a guard skips it.
//! A guard is checked as soon as the names it uses are bound (parts of an `and` separately), so
//! `(a - k*b, b) for k in 1..=a/b if b >= 1` never divides by zero.
//!
//! Files: [`ast`] (the tree and its canonical text), [`parse`], [`program`] (checked and
//! compiled once), [`run`] (options of one position, no allocation per option), [`examples`].

pub mod ast;
pub mod examples;
pub mod parse;
pub mod program;
pub mod run;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub use parse::SyntaxError;
pub use run::{RuleError, Sink};

/// The language's reference, as `nimscope rules` prints it and the window's editor shows it.
pub const REFERENCE: &str = "\
A typed rule is a ruleset: rule(HEAPS -> TERM; TERM; ...)
  HEAPS   n (one heap; a position is a collection of heaps, their sum), (a, b) or (a, b, c),
          optionally followed by 'if COND', the positions that exist, e.g. (a, b) if a >= 1 and b >= 1
  TERM    TARGET CLAUSES: the options TARGET for every binding of the clauses
  TARGET  (x, y) or (x, y, z); for one heap a heap x or a collection [x, y] (empty: [])
  CLAUSES for v in LO..HI (HI excluded), for v in LO..=HI, for v in {1, 3, 4}; if COND (or where COND)
  COND    comparisons < <= > >= == != (chains: 1 <= b <= a), and, or, not, parentheses
  EXPR    numbers (u64), names, + - * / %, min(..), max(..), gcd(..), isqrt(x), |x - y|
Arithmetic is checked: a value below zero or past 2^64 - 1 is an error naming the term, the part
and the position, unless a guard skips it. A guard is checked as soon as the names it uses are
bound (each part of an 'and' separately): '(a - k*b, b) for k in 1..=a/b if b >= 1' never
divides by zero. Comments run from # to the end of the line.
Example: nimscope seq 'rule(n -> [k, n - k] for k in 1..n if 2*k < n)' --to 30
More:    nimscope rules --examples";

/// A typed rule, parsed and compiled. Equal rules have equal canonical text (what `Display`
/// writes and a session saves); cloning shares the compiled program.
#[derive(Clone)]
pub struct TypedRule(Arc<Inner>);

struct Inner {
    text: String,
    program: program::Program,
    /// Whether a heap of 0 has no move (one-heap rules), so a collection may drop it.
    zero_terminal: bool,
}

impl TypedRule {
    /// Parses `rule(…)` starting at byte `pos` of `text` (just after the word `rule`), and
    /// returns the rule and the byte after its closing parenthesis.
    pub fn parse_at(text: &str, pos: usize) -> Result<(TypedRule, usize), SyntaxError> {
        let mut p = parse::Parser::new(text, pos);
        let ast = p.rule()?;
        let program = program::compile(&ast)?;
        let mut zero_options = 0usize;
        let zero_ok =
            program.arity != 1 || run::options(&program, &[0], &mut |_: usize, _: &[u64]| zero_options += 1).is_ok();
        let rule = TypedRule(Arc::new(Inner {
            text: ast.to_string(),
            zero_terminal: program.arity == 1 && zero_ok && zero_options == 0,
            program,
        }));
        Ok((rule, p.pos()))
    }

    /// Parses a whole text `rule(…)`.
    pub fn parse(text: &str) -> Result<TypedRule, SyntaxError> {
        let start = text.len() - text.trim_start().len();
        let rest = &text[start..];
        if !rest.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("rule")) {
            return Err(SyntaxError {
                message: "a typed rule starts with 'rule('".into(),
                at: start,
            });
        }
        let (rule, end) = Self::parse_at(text, start + 4)?;
        let tail = text[end..].trim_start();
        if !tail.is_empty() && !tail.starts_with('#') {
            return Err(SyntaxError {
                message: "unexpected text after the rule".into(),
                at: text.len() - tail.len(),
            });
        }
        Ok(rule)
    }

    /// The canonical text: `rule(…)` on one line.
    pub fn text(&self) -> &str {
        &self.0.text
    }

    /// How many heaps a position has: 1 (collections of heaps allowed), 2 or 3.
    pub fn arity(&self) -> usize {
        self.0.program.arity
    }

    /// The rule compiled, as [`run`] evaluates it.
    pub fn program(&self) -> &program::Program {
        &self.0.program
    }

    /// Whether `heaps` (one position of `arity` heaps, or one heap) is a position.
    pub fn in_domain(&self, heaps: &[u64]) -> bool {
        run::in_domain(&self.0.program, heaps)
    }

    /// Hands every option of `heaps` (a position of `arity` heaps; one heap for a one-heap
    /// rule) to `sink`, in a fixed order.
    pub fn options<S: Sink>(&self, heaps: &[u64], sink: &mut S) -> Result<(), RuleError> {
        run::options(&self.0.program, heaps, sink)
    }

    /// A collection of heaps of a one-heap rule in its one written form: sorted, with heaps of
    /// 0 dropped when they have no move (no heap at all is written `0`).
    pub fn normalise(&self, mut heaps: Vec<u64>) -> Vec<u64> {
        if self.0.zero_terminal {
            heaps.retain(|&x| x > 0);
            if heaps.is_empty() {
                heaps.push(0);
            }
        }
        heaps.sort_unstable();
        heaps
    }

    /// Which term leads from `from` to `to` (positions of this rule), with its loop values:
    /// "term 3 (a - k, b - k), k = 2".
    pub fn describe(&self, from: &[u64], to: &[u64]) -> Option<String> {
        struct Find<'a> {
            to: &'a [u64],
            make: &'a dyn Fn(&[u64]) -> Vec<u64>,
            found: Option<(usize, Vec<u64>)>,
        }
        impl Sink for Find<'_> {
            fn option(&mut self, _: usize, _: &[u64]) {}
            fn option_bound(&mut self, term: usize, heaps: &[u64], loops: &[u64]) {
                if self.found.is_none() && (self.make)(heaps) == self.to {
                    self.found = Some((term, loops.to_vec()));
                }
            }
        }
        let find = |heaps: &[u64], make: &dyn Fn(&[u64]) -> Vec<u64>| {
            let mut f = Find { to, make, found: None };
            let _ = run::explain(&self.0.program, heaps, &mut f);
            f.found
        };
        let (term, values) = if self.arity() == 1 {
            from.iter().enumerate().find_map(|(i, &n)| {
                let rest: Vec<u64> = from
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &x)| x)
                    .collect();
                find(&[n], &|parts: &[u64]| self.normalise([rest.as_slice(), parts].concat()))
            })
        } else {
            find(from, &|o: &[u64]| o.to_vec())
        }?;
        let t = &self.0.program.terms[term];
        let bindings: Vec<String> = t
            .loops
            .iter()
            .zip(&values)
            .map(|(l, v)| format!(", {} = {v}", l.var))
            .collect();
        Some(format!("term {}: {}{}", term + 1, t.target_text, bindings.concat()))
    }

    /// A short form for titles: the text cut to `max` characters with an ellipsis.
    pub fn short_text(&self, max: usize) -> String {
        let t = self.text();
        if t.chars().count() <= max {
            t.to_string()
        } else {
            let mut s: String = t.chars().take(max.saturating_sub(1)).collect();
            s.push('…');
            s
        }
    }
}

impl PartialEq for TypedRule {
    fn eq(&self, other: &Self) -> bool {
        self.0.text == other.0.text
    }
}

impl Eq for TypedRule {}

impl Hash for TypedRule {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.text.hash(state);
    }
}

impl fmt::Debug for TypedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypedRule({})", self.0.text)
    }
}

impl fmt::Display for TypedRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text)
    }
}

impl serde::Serialize for TypedRule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.text)
    }
}

impl<'de> serde::Deserialize<'de> for TypedRule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        TypedRule::parse(&text).map_err(|e| {
            serde::de::Error::custom(format!(
                "the typed rule does not parse: {} (at character {} of the rule)",
                e.message,
                text[..e.at.min(text.len())].chars().count() + 1
            ))
        })
    }
}

#[cfg(test)]
mod tests;
