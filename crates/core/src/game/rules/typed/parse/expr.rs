//! Conditions and expressions of the move language: precedence by levels (`or` < `and` <
//! `not` < comparisons; `+ -` < `* / %` < unary `-` < `^`), nesting bounded by the parser's
//! depth, every error at the byte where it was found.

use super::super::ast::{BinOp, CmpOp, Cond, Expr, Family, Func, Pred, Span};
use super::lex::{KEYWORDS, Tok};
use super::{MAX_EXPR_DEPTH, Parser, Res, family_example};
use crate::game::quote::quoted;

impl Parser<'_> {
    // ---- conditions ----

    pub(super) fn cond(&mut self) -> Res<Cond> {
        let at = self.peek()?.1.start;
        self.enter(at)?;
        let mut parts = vec![self.and()?];
        while self.at_word("or")? {
            self.next()?;
            parts.push(self.and()?);
        }
        self.leave();
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Cond::Or(parts)
        })
    }

    fn and(&mut self) -> Res<Cond> {
        let mut parts = vec![self.unary_cond()?];
        while self.at_word("and")? {
            self.next()?;
            parts.push(self.unary_cond()?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Cond::And(parts)
        })
    }

    fn unary_cond(&mut self) -> Res<Cond> {
        let (t, s) = self.peek()?;
        if let Tok::Ident(name) = &t
            && let Some(pred) = Pred::from_name(name)
        {
            self.pos = s.end;
            let (args, _) = self.arguments(name)?;
            let (least, most) = pred.arity();
            if args.len() < least || args.len() > most {
                return self.err(
                    s.start,
                    format!("{name} takes {}, not {}", count_text(least, most), args.len()),
                );
            }
            return Ok(Cond::Pred(pred, args));
        }
        if matches!(t, Tok::Ident(ref w) if w == "not") {
            self.pos = s.end;
            self.enter(s.start)?;
            let c = self.unary_cond()?;
            self.leave();
            return Ok(Cond::Not(Box::new(c)));
        }
        if matches!(t, Tok::Sym("(")) {
            // a parenthesised condition, unless the parentheses hold an expression: try it
            let saved = (self.pos, self.depth);
            self.pos = s.end;
            if let Ok(c) = self.cond()
                && self.at_sym(")")?
            {
                self.next()?;
                let (after, _) = self.peek()?;
                let continues = matches!(after, Tok::Sym(x) if ["<", "<=", ">", ">=", "==", "!=", "+", "-", "*", "/", "%", "^"].contains(&x));
                if !continues {
                    return Ok(c);
                }
            }
            (self.pos, self.depth) = saved;
        }
        self.compare()
    }

    fn compare(&mut self) -> Res<Cond> {
        let first = self.expr()?;
        let mut operands = vec![first];
        let mut ops = Vec::new();
        loop {
            let (t, s) = self.peek()?;
            let op = match t {
                Tok::Sym("<") => CmpOp::Lt,
                Tok::Sym("<=") => CmpOp::Le,
                Tok::Sym(">") => CmpOp::Gt,
                Tok::Sym(">=") => CmpOp::Ge,
                Tok::Sym("==") => CmpOp::Eq,
                Tok::Sym("!=") => CmpOp::Ne,
                t if ops.is_empty() => {
                    return self.err(
                        s.start,
                        format!(
                            "expected a comparison (<, <=, >, >=, ==, !=) after {} but found {}",
                            quoted(&operands[0].to_string()),
                            t.describe()
                        ),
                    );
                }
                _ => break,
            };
            self.pos = s.end;
            ops.push(op);
            operands.push(self.expr()?);
        }
        Ok(Cond::Compare(operands, ops))
    }

    // ---- expressions ----

    /// Parses an expression at the current offset (lowest precedence first).
    pub fn expr(&mut self) -> Res<Expr> {
        let at = self.peek()?.1.start;
        self.enter(at)?;
        let e = self.level(&[("+", BinOp::Add), ("-", BinOp::Sub)], Self::product)?;
        self.leave();
        Ok(e)
    }

    fn product(&mut self) -> Res<Expr> {
        self.level(&[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)], Self::unary)
    }

    /// `-x` (binding less tightly than a power: `-2 ^ 2 = -4`), or a power.
    fn unary(&mut self) -> Res<Expr> {
        let (t, s) = self.peek()?;
        if matches!(t, Tok::Sym("-")) {
            self.pos = s.end;
            self.enter(s.start)?;
            let e = self.unary()?;
            self.leave();
            self.last_depth = self.deeper(self.last_depth, s.start)?;
            let span = Span {
                start: s.start,
                end: e.span().end,
            };
            return Ok(Expr::Neg(Box::new(e), span));
        }
        self.power()
    }

    /// `base ^ exponent`, grouping to the right (`2 ^ 3 ^ 2 = 2 ^ 9`).
    fn power(&mut self) -> Res<Expr> {
        let base = self.atom()?;
        let depth = self.last_depth;
        if !self.at_sym("^")? {
            return Ok(base);
        }
        let (_, s) = self.next()?;
        self.enter(s.start)?;
        let exponent = self.unary()?;
        self.leave();
        self.last_depth = self.deeper(depth, s.start)?;
        let span = Span {
            start: base.span().start,
            end: exponent.span().end,
        };
        Ok(Expr::Bin(BinOp::Pow, Box::new(base), Box::new(exponent), span))
    }

    /// `( expr, expr, … )` after a function's name, with the span of the closing parenthesis.
    pub(super) fn arguments(&mut self, name: &str) -> Res<(Vec<Expr>, Span)> {
        self.expect_sym("(", &format!("after {}", quoted(name)))?;
        let mut args = vec![self.expr()?];
        let mut depth = self.last_depth;
        while self.at_sym(",")? {
            self.next()?;
            args.push(self.expr()?);
            depth = depth.max(self.last_depth);
        }
        self.last_depth = depth;
        let close = self.expect_sym(")", &format!("at the end of {name}(…)"))?;
        Ok((args, close))
    }

    /// One level of left-associative operators `ops` over operands read by `operand`.
    fn level(&mut self, ops: &[(&str, BinOp)], operand: fn(&mut Self) -> Res<Expr>) -> Res<Expr> {
        let mut e = operand(self)?;
        let mut depth = self.last_depth;
        while let Tok::Sym(sym) = self.peek()?.0
            && let Some(&(_, op)) = ops.iter().find(|(s, _)| *s == sym)
        {
            let (_, s) = self.next()?;
            let rhs = operand(self)?;
            depth = self.deeper(depth, s.start)?;
            let span = Span {
                start: e.span().start,
                end: rhs.span().end,
            };
            e = Expr::Bin(op, Box::new(e), Box::new(rhs), span);
        }
        self.last_depth = depth;
        Ok(e)
    }

    /// The depth of a node over operands of depth `depth` and `self.last_depth`, refused past
    /// [`MAX_EXPR_DEPTH`].
    fn deeper(&mut self, depth: usize, at: usize) -> Res<usize> {
        let d = depth.max(self.last_depth) + 1;
        if d > MAX_EXPR_DEPTH {
            return self.err(
                at,
                format!("an expression nests more than {MAX_EXPR_DEPTH} operations deep"),
            );
        }
        Ok(d)
    }

    fn atom(&mut self) -> Res<Expr> {
        let (t, s) = self.next()?;
        self.last_depth = 1;
        match t {
            Tok::Num(n) => Ok(Expr::Num(n, s)),
            Tok::Ident(name) => {
                if let Some(func) = Func::from_name(&name) {
                    let (args, close) = self.arguments(&name)?;
                    self.last_depth = self.deeper(self.last_depth, s.start)?;
                    let (least, most) = func.arity();
                    if args.len() < least || args.len() > most {
                        return self.err(
                            s.start,
                            format!("{name} takes {}, not {}", count_text(least, most), args.len()),
                        );
                    }
                    return Ok(Expr::Call(
                        func,
                        args,
                        Span {
                            start: s.start,
                            end: close.end,
                        },
                    ));
                }
                if KEYWORDS.contains(&name.as_str()) {
                    return self.err(
                        s.start,
                        format!("expected a number or a name but found the word {}", quoted(&name)),
                    );
                }
                if let Some(family) = Family::from_name(&name) {
                    return self.err(
                        s.start,
                        format!(
                            "{} is a source of values for 'for', not a number: {}",
                            quoted(&name),
                            family_example(family)
                        ),
                    );
                }
                if Pred::from_name(&name).is_some() {
                    return self.err(
                        s.start,
                        format!(
                            "{} is a condition (true or false), not a number: write 'if {name}(…)'",
                            quoted(&name)
                        ),
                    );
                }
                if self.at_sym("(")? {
                    return self.err(
                        s.start,
                        format!(
                            "unknown function {}; the functions are {}, and the conditions prime(x) and distinct(a, b, …)",
                            quoted(&name),
                            Func::ALL.map(Func::name).join(", ")
                        ),
                    );
                }
                Ok(Expr::Var(name, s))
            }
            Tok::Sym("(") => {
                let e = self.expr()?;
                self.expect_sym(")", "to close '('")?;
                Ok(e)
            }
            Tok::Sym("|") => {
                let e = self.expr()?;
                let close = self.expect_sym("|", "to close '|'")?;
                self.last_depth += 1;
                match e {
                    Expr::Bin(BinOp::Sub, a, b, _) => Ok(Expr::AbsDiff(
                        a,
                        b,
                        Span {
                            start: s.start,
                            end: close.end,
                        },
                    )),
                    _ => self.err(s.start, "|…| is the distance between two numbers: write |x - y|"),
                }
            }
            t => self.err(
                s.start,
                format!("expected a number, a name or '(' but found {}", t.describe()),
            ),
        }
    }
}

/// "1 argument", "2 to 8 arguments".
fn count_text(least: usize, most: usize) -> String {
    match (least, most) {
        (1, 1) => "1 argument".into(),
        (l, m) if l == m => format!("{l} arguments"),
        (l, m) => format!("{l} to {m} arguments"),
    }
}
