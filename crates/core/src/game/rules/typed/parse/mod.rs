//! Reads a typed rule: `rule((a, b) -> (a - k, b) for k in 1..=a; …)`, by recursive descent
//! over tokens read on demand, with every error at the byte where it was found. Nesting is
//! bounded ([`MAX_DEPTH`]), so no text can overflow the stack.

mod expr;
mod lex;

use super::ast::{Clause, Family, Part, RuleAst, Source, Span, Target, Term};
use crate::game::quote::quoted;
use lex::Tok;

/// Deepest nesting of parentheses, bars, calls and conditions.
pub const MAX_DEPTH: usize = 48;
/// Most terms in one rule and most `for` clauses in one term (its comprehensions' included).
pub const MAX_TERMS: usize = 64;
/// Most `for` clauses in one term.
pub const MAX_LOOPS: usize = 6;
/// Most heaps a position of a rule on several heaps has: `(a, b, c, d, …)`.
pub const MAX_HEAPS: usize = 16;
/// Deepest expression tree (a chain `n - 1 - 1 - …` is as deep as it is long): every pass over
/// an expression recurses, so its depth is bounded where it is read.
pub const MAX_EXPR_DEPTH: usize = 64;
/// Most heaps a collection lists one by one (a comprehension in it may give more, up to
/// [`super::MAX_COLLECTION`]).
pub const MAX_PARTS: usize = 16;

/// Why a rule does not parse: a message and the byte offset (into the whole text) it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong, one line.
    pub message: String,
    /// Byte offset into the whole text where the error is.
    pub at: usize,
}

/// A recursive-descent parser of the move language, reading from a byte offset of a text.
pub(crate) struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
    /// The depth of the expression the last expression function returned.
    last_depth: usize,
}

pub(super) type Res<T> = Result<T, SyntaxError>;

impl<'a> Parser<'a> {
    /// A parser of `text` starting at byte `pos`.
    pub fn new(text: &'a str, pos: usize) -> Self {
        Self {
            text,
            pos,
            depth: 0,
            last_depth: 0,
        }
    }

    /// Where the parser stands (after the rule, once [`Parser::rule`] returned).
    pub fn pos(&self) -> usize {
        self.pos
    }

    fn err<T>(&self, at: usize, message: impl Into<String>) -> Res<T> {
        Err(SyntaxError {
            message: message.into(),
            at,
        })
    }

    fn enter(&mut self, at: usize) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err(at, format!("the rule nests more than {MAX_DEPTH} deep"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// `( params [if domain] -> term; term; … )`, the text after the word `rule`.
    pub fn rule(&mut self) -> Res<RuleAst> {
        self.expect_sym("(", "after 'rule'")?;
        let mut params = Vec::new();
        let (t, s) = self.peek()?;
        if matches!(t, Tok::Sym("(")) {
            self.pos = s.end;
            loop {
                let (name, span) = self.ident("a heap")?;
                if params.contains(&name) {
                    return self.err(span.start, format!("the heap {} is named twice", quoted(&name)));
                }
                params.push(name);
                if self.at_sym(",")? {
                    self.next()?;
                    continue;
                }
                self.expect_sym(")", "after the heaps")?;
                break;
            }
            if !(2..=MAX_HEAPS).contains(&params.len()) {
                return self.err(
                    s.start,
                    format!(
                        "a rule is played on one heap (n -> …) or on 2 to {MAX_HEAPS} heaps ((a, b) -> …, (a, b, c, d) -> …), not {}",
                        params.len()
                    ),
                );
            }
        } else {
            params.push(self.ident("the heap")?.0);
        }
        let domain = if self.at_word("if")? || self.at_word("where")? {
            self.next()?;
            Some(self.cond()?)
        } else {
            None
        };
        self.expect_sym(
            "->",
            "after the heaps (a rule reads: rule((a, b) -> (a - k, b) for k in 1..=a))",
        )?;
        let mut terms = Vec::new();
        loop {
            if terms.len() == MAX_TERMS {
                let at = self.peek()?.1.start;
                return self.err(at, format!("a rule has at most {MAX_TERMS} terms"));
            }
            terms.push(self.term(params.len())?);
            if self.at_sym(";")? {
                self.next()?;
                if self.at_sym(")")? {
                    self.next()?;
                    break;
                }
                continue;
            }
            let (t, s) = self.peek()?;
            match t {
                Tok::Sym(")") => {
                    self.pos = s.end;
                    break;
                }
                t => {
                    return self.err(
                        s.start,
                        format!(
                            "expected ';' between terms or ')' at the end of the rule, but found {}",
                            t.describe()
                        ),
                    );
                }
            }
        }
        Ok(RuleAst { params, domain, terms })
    }

    fn term(&mut self, arity: usize) -> Res<Term> {
        let start = self.peek()?.1.start;
        let mut loops = 0;
        let target = self.target(arity, &mut loops)?;
        let clauses = self.clauses(&mut loops)?;
        let end = self.pos;
        Ok(Term {
            target,
            clauses,
            span: Span { start, end },
        })
    }

    /// `for v in … ` and `if …` clauses, as many as follow; `loops` counts the term's `for`s.
    fn clauses(&mut self, loops: &mut usize) -> Res<Vec<Clause>> {
        let mut clauses = Vec::new();
        loop {
            let (t, s) = self.peek()?;
            match t {
                Tok::Ident(w) if w == "for" => {
                    self.pos = s.end;
                    *loops += 1;
                    if *loops > MAX_LOOPS {
                        return self.err(
                            s.start,
                            format!("a term has at most {MAX_LOOPS} 'for' clauses (its collection's included)"),
                        );
                    }
                    let (var, span) = self.ident("the variable of 'for'")?;
                    match self.next()? {
                        (Tok::Ident(w), _) if w == "in" => {}
                        (t, s) => {
                            return self.err(
                                s.start,
                                format!("expected 'in' after 'for {var}' but found {}", t.describe()),
                            );
                        }
                    }
                    let source = self.source()?;
                    clauses.push(Clause::For { var, span, source });
                }
                Tok::Ident(w) if w == "if" || w == "where" => {
                    self.pos = s.end;
                    clauses.push(Clause::If(self.cond()?));
                }
                _ => return Ok(clauses),
            }
        }
    }

    fn target(&mut self, arity: usize, loops: &mut usize) -> Res<Target> {
        let (t, s) = self.peek()?;
        if arity == 1 {
            if matches!(t, Tok::Sym("[")) {
                self.pos = s.end;
                let mut parts = Vec::new();
                if !self.at_sym("]")? {
                    loop {
                        let expr = self.expr()?;
                        // a comprehension: the heaps `expr` for every binding of its clauses
                        let clauses = self.clauses(loops)?;
                        parts.push(Part { expr, clauses });
                        if self.at_sym(",")? {
                            self.next()?;
                            continue;
                        }
                        break;
                    }
                }
                let close = self.expect_sym("]", "at the end of a collection of heaps")?;
                if parts.len() > MAX_PARTS {
                    return self.err(close.start, format!("a collection holds at most {MAX_PARTS} heaps"));
                }
                return Ok(Target::Collection(parts));
            }
            return Ok(Target::Single(self.expr()?));
        }
        if !matches!(t, Tok::Sym("(")) {
            let example = match arity {
                2 => "(a - k, b)",
                3 => "(a - k, b, c)",
                _ => "(a - k, b, c, …)",
            };
            return self.err(
                s.start,
                format!(
                    "a rule on {arity} heaps gives positions such as {example}, not {}",
                    t.describe()
                ),
            );
        }
        self.pos = s.end;
        let mut parts = vec![self.expr()?];
        while self.at_sym(",")? {
            self.next()?;
            parts.push(self.expr()?);
        }
        self.expect_sym(")", "at the end of a position")?;
        if parts.len() != arity {
            return self.err(
                s.start,
                format!(
                    "this position has {} heaps, but the rule is played on {arity}",
                    parts.len()
                ),
            );
        }
        Ok(Target::Tuple(parts))
    }

    fn source(&mut self) -> Res<Source> {
        let (t, s) = self.peek()?;
        if let Tok::Ident(name) = &t
            && let Some(family) = Family::from_name(name)
        {
            self.pos = s.end;
            let (args, _) = self.arguments(name)?;
            if args.len() != family.arity() {
                return self.err(
                    s.start,
                    format!(
                        "{name} takes {} argument(s), not {}: {}",
                        family.arity(),
                        args.len(),
                        family_example(family)
                    ),
                );
            }
            return Ok(Source::Family(family, args));
        }
        if self.at_sym("{")? {
            self.next()?;
            let mut set = vec![self.expr()?];
            while self.at_sym(",")? {
                self.next()?;
                set.push(self.expr()?);
            }
            self.expect_sym("}", "at the end of a set")?;
            return Ok(Source::Set(set));
        }
        let lo = self.expr()?;
        let (t, s) = self.next()?;
        let inclusive = match t {
            Tok::Sym("..") => false,
            Tok::Sym("..=") => true,
            t => {
                return self.err(
                    s.start,
                    format!(
                        "expected a range such as 1..=a or a set such as {{1, 3, 4}}, but found {} after {}",
                        t.describe(),
                        quoted(&lo.to_string())
                    ),
                );
            }
        };
        let hi = self.expr()?;
        Ok(Source::Range { lo, hi, inclusive })
    }
}

/// How a family of values is written, for messages.
fn family_example(family: Family) -> &'static str {
    match family {
        Family::Primes => "for p in primes(n) (the primes up to n)",
        Family::Powers => "for k in powers(2, n) (1, 2, 4, … up to n)",
        Family::Fibs => "for f in fibs(n) (1, 2, 3, 5, 8, … up to n)",
    }
}
