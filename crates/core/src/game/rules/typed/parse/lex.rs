//! The tokens of a typed rule, read on demand: names, numbers and symbols (Unicode spellings
//! mapped to ASCII), with `#` comments and white space skipped.

use super::{Parser, Res};
use crate::game::quote::quoted;
use crate::game::rules::typed::ast::{Family, Func, Pred, Span};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Ident(String),
    Num(u64),
    Sym(&'static str),
    End,
}

impl Tok {
    pub(super) fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => quoted(s),
            Tok::Num(n) => format!("'{n}'"),
            Tok::Sym(s) => format!("'{s}'"),
            Tok::End => "the end of the text".into(),
        }
    }
}

/// Symbols, longest first so `..=` wins over `..`; Unicode spellings map to ASCII ones.
const SYMBOLS: &[(&str, &str)] = &[
    ("..=", "..="),
    ("..", ".."),
    ("->", "->"),
    ("→", "->"),
    ("<=", "<="),
    ("≤", "<="),
    (">=", ">="),
    ("≥", ">="),
    ("==", "=="),
    ("!=", "!="),
    ("≠", "!="),
    ("<", "<"),
    (">", ">"),
    ("(", "("),
    (")", ")"),
    ("[", "["),
    ("]", "]"),
    ("{", "{"),
    ("}", "}"),
    (",", ","),
    (";", ";"),
    ("+", "+"),
    ("-", "-"),
    ("−", "-"),
    ("**", "^"),
    ("^", "^"),
    ("*", "*"),
    ("×", "*"),
    ("/", "/"),
    ("%", "%"),
    ("|", "|"),
];

pub(super) const KEYWORDS: &[&str] = &["for", "in", "if", "where", "and", "or", "not", "rule"];

impl Parser<'_> {
    pub(super) fn skip_ws(&mut self) {
        loop {
            let rest = &self.text[self.pos..];
            if let Some(c) = rest.chars().next().filter(|c| c.is_whitespace()) {
                self.pos += c.len_utf8();
            } else if rest.starts_with('#') {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else {
                return;
            }
        }
    }

    /// The next token and its span, without consuming it.
    pub(super) fn peek(&mut self) -> Res<(Tok, Span)> {
        self.skip_ws();
        let start = self.pos;
        let rest = &self.text[start..];
        let Some(c) = rest.chars().next() else {
            return Ok((Tok::End, Span { start, end: start }));
        };
        if c.is_ascii_alphabetic() || c == '_' {
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let span = Span {
                start,
                end: start + len,
            };
            return Ok((Tok::Ident(rest[..len].to_string()), span));
        }
        if c.is_ascii_digit() {
            let len = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '_'))
                .unwrap_or(rest.len());
            let digits: String = rest[..len].chars().filter(|&c| c != '_').collect();
            let span = Span {
                start,
                end: start + len,
            };
            return match digits.parse::<u64>() {
                Ok(n) => Ok((Tok::Num(n), span)),
                Err(_) => self.err(
                    start,
                    format!("the number {} does not fit in 64 bits", &rest[..len.min(40)]),
                ),
            };
        }
        for (spelling, sym) in SYMBOLS {
            if rest.starts_with(spelling) {
                let span = Span {
                    start,
                    end: start + spelling.len(),
                };
                return Ok((Tok::Sym(sym), span));
            }
        }
        self.err(start, format!("unexpected character '{}'", c.escape_debug()))
    }

    pub(super) fn next(&mut self) -> Res<(Tok, Span)> {
        let (t, s) = self.peek()?;
        self.pos = s.end;
        Ok((t, s))
    }

    pub(super) fn at_sym(&mut self, sym: &str) -> Res<bool> {
        Ok(matches!(self.peek()?.0, Tok::Sym(s) if s == sym))
    }

    pub(super) fn at_word(&mut self, word: &str) -> Res<bool> {
        Ok(matches!(self.peek()?.0, Tok::Ident(ref s) if s == word))
    }

    pub(super) fn expect_sym(&mut self, sym: &str, context: &str) -> Res<Span> {
        let (t, s) = self.peek()?;
        if matches!(t, Tok::Sym(x) if x == sym) {
            self.pos = s.end;
            Ok(s)
        } else {
            self.err(
                s.start,
                format!("expected '{sym}' {context} but found {}", t.describe()),
            )
        }
    }

    pub(super) fn ident(&mut self, what: &str) -> Res<(String, Span)> {
        match self.next()? {
            (Tok::Ident(name), s)
                if !KEYWORDS.contains(&name.as_str())
                    && Func::from_name(&name).is_none()
                    && Pred::from_name(&name).is_none()
                    && Family::from_name(&name).is_none() =>
            {
                Ok((name, s))
            }
            (Tok::Ident(name), s) => self.err(
                s.start,
                format!("{} is a word of the language, not a name for {what}", quoted(&name)),
            ),
            (t, s) => self.err(
                s.start,
                format!("expected a name for {what} but found {}", t.describe()),
            ),
        }
    }
}
