//! The syntax tree of a typed rule and its canonical text: what [`super::parse`] reads and what
//! a session saves. Printing a parsed rule and parsing the print gives the same tree, so the
//! canonical text is the rule's identity (equality, hashing, serialisation).

use std::fmt::{self, Write};

/// Byte offsets `[start, end)` into the text the rule was parsed from (for error messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset just past the last byte.
    pub end: usize,
}

/// An arithmetic operator of the move language (on u64, checked: no wrapping, no division by zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-` (an error below zero).
    Sub,
    /// `*`.
    Mul,
    /// `/`, rounding down.
    Div,
    /// `%`, the remainder of `/`.
    Rem,
}

impl BinOp {
    /// The operator as the language writes it: `+`, `-`, `*`, `/` or `%`.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 2,
        }
    }
}

/// The built-in functions of the move language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    /// `min(x, y, …)`: the least argument.
    Min,
    /// `max(x, y, …)`: the greatest argument.
    Max,
    /// `isqrt(x)`: the integer square root, rounded down.
    Isqrt,
    /// `gcd(x, y, …)`: the greatest common divisor (`gcd(0, 0)` is 0).
    Gcd,
}

impl Func {
    /// The function's name in the language, e.g. `isqrt`.
    pub fn name(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Isqrt => "isqrt",
            Func::Gcd => "gcd",
        }
    }

    /// The function called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Func> {
        Some(match name {
            "min" => Func::Min,
            "max" => Func::Max,
            "isqrt" => Func::Isqrt,
            "gcd" => Func::Gcd,
            _ => return None,
        })
    }

    /// The numbers of arguments the function takes: `(least, most)`.
    pub fn arity(self) -> (usize, usize) {
        match self {
            Func::Min | Func::Max | Func::Gcd => (2, 8),
            Func::Isqrt => (1, 1),
        }
    }
}

/// An integer expression (values are u64; arithmetic is checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// A number literal.
    Num(u64, Span),
    /// A name: a heap parameter or a `for` variable.
    Var(String, Span),
    /// `left op right`.
    Bin(BinOp, Box<Expr>, Box<Expr>, Span),
    /// A call of a built-in function with its arguments.
    Call(Func, Vec<Expr>, Span),
    /// `|x - y|`: the distance between two numbers, never below zero.
    AbsDiff(Box<Expr>, Box<Expr>, Span),
}

impl Expr {
    /// Where the expression is in the rule's text.
    pub fn span(&self) -> Span {
        match self {
            Expr::Num(_, s) | Expr::Var(_, s) | Expr::Bin(.., s) | Expr::Call(_, _, s) | Expr::AbsDiff(_, _, s) => *s,
        }
    }

    /// Every variable the expression names, in order, with repeats.
    pub fn variables<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Expr::Num(..) => {}
            Expr::Var(v, _) => out.push(v),
            Expr::Bin(_, a, b, _) | Expr::AbsDiff(a, b, _) => {
                a.variables(out);
                b.variables(out);
            }
            Expr::Call(_, args, _) => args.iter().for_each(|a| a.variables(out)),
        }
    }
}

/// A comparison operator of a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
}

impl CmpOp {
    /// The operator as the language writes it, e.g. `<=`.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }

    /// Whether `a op b`.
    pub fn holds(self, a: u64, b: u64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}

/// A condition: a chain of comparisons (`1 <= b <= a`), or `and`, `or`, `not` of conditions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    /// `operands[0] ops[0] operands[1] ops[1] operands[2] …`, every comparison holding.
    Compare(Vec<Expr>, Vec<CmpOp>),
    /// Every condition holds.
    And(Vec<Cond>),
    /// At least one condition holds.
    Or(Vec<Cond>),
    /// The condition does not hold.
    Not(Box<Cond>),
}

impl Cond {
    /// Every variable the condition names, in order, with repeats.
    pub fn variables<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Cond::Compare(es, _) => es.iter().for_each(|e| e.variables(out)),
            Cond::And(cs) | Cond::Or(cs) => cs.iter().for_each(|c| c.variables(out)),
            Cond::Not(c) => c.variables(out),
        }
    }
}

/// The values a `for` variable runs through, in this order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `lo..hi` (hi excluded) or `lo..=hi`.
    Range {
        /// The first value.
        lo: Expr,
        /// The end of the range.
        hi: Expr,
        /// Whether `hi` itself is included (`..=`).
        inclusive: bool,
    },
    /// `{1, 3, 4}`.
    Set(Vec<Expr>),
}

/// A clause of a term: a loop binding a variable, or a guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clause {
    /// `for var in source`: the clauses after it run once for each value, in order.
    For {
        /// The variable bound.
        var: String,
        /// Where the clause is in the rule's text.
        span: Span,
        /// The values it runs through.
        source: Source,
    },
    /// `if COND`: the term produces a move only where the condition holds.
    If(Cond),
}

/// What a term produces: a position of two or three heaps, or (for a one-heap rule) one heap or
/// a collection of heaps, which is their disjunctive sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `(x, y)` or `(x, y, z)`: a position of two or three heaps.
    Tuple(Vec<Expr>),
    /// `[x, y, …]` (one-heap rules): the heap is split into these heaps (`[]` removes it).
    Collection(Vec<Expr>),
    /// `x` (one-heap rules): the heap becomes `x`.
    Single(Expr),
}

impl Target {
    /// The target's expressions, in order.
    pub fn parts(&self) -> &[Expr] {
        match self {
            Target::Tuple(es) | Target::Collection(es) => es,
            Target::Single(e) => std::slice::from_ref(e),
        }
    }
}

/// One line of a rule: a target and the clauses that bind and filter it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// The position (or heaps) the term produces.
    pub target: Target,
    /// Its `for` loops and `if` guards, in order (a loop's variable is bound for the clauses after it).
    pub clauses: Vec<Clause>,
    /// Where the term is in the rule's text.
    pub span: Span,
}

/// A whole rule: `rule((a, b) if <domain> -> term; term; …)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleAst {
    /// The heap names of the rule's head: one (`n`), two (`a`, `b`) or three.
    pub params: Vec<String>,
    /// The head's `if COND`: which positions exist; `None`: all of them.
    pub domain: Option<Cond>,
    /// The terms, separated by `;` in the text; a position's options are every term's targets.
    pub terms: Vec<Term>,
}

// ---- canonical text ----

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self, 0)
    }
}

/// Writes `e`, parenthesised when its operator binds less tightly than `min` requires.
fn write_expr(f: &mut impl Write, e: &Expr, min: u8) -> fmt::Result {
    match e {
        Expr::Num(n, _) => write!(f, "{n}"),
        Expr::Var(v, _) => f.write_str(v),
        Expr::Bin(op, a, b, _) => {
            let p = op.precedence();
            if p < min {
                f.write_char('(')?;
            }
            write_expr(f, a, p)?;
            write!(f, " {} ", op.symbol())?;
            // a right operand of the same precedence needs parentheses: a - (b - c)
            write_expr(f, b, p + 1)?;
            if p < min {
                f.write_char(')')?;
            }
            Ok(())
        }
        Expr::Call(func, args, _) => {
            write!(f, "{}(", func.name())?;
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_expr(f, a, 0)?;
            }
            f.write_char(')')
        }
        Expr::AbsDiff(a, b, _) => {
            f.write_char('|')?;
            write_expr(f, a, 1)?;
            f.write_str(" - ")?;
            write_expr(f, b, 2)?;
            f.write_char('|')
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_cond(f, self, 0)
    }
}

/// Levels: 0 `or`, 1 `and`, 2 `not` and comparisons.
fn write_cond(f: &mut impl Write, c: &Cond, min: u8) -> fmt::Result {
    match c {
        Cond::Compare(es, ops) => {
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    write!(f, " {} ", ops[i - 1].symbol())?;
                }
                write_expr(f, e, 0)?;
            }
            Ok(())
        }
        Cond::And(cs) | Cond::Or(cs) => {
            let (level, word) = if matches!(c, Cond::And(_)) {
                (1, " and ")
            } else {
                (0, " or ")
            };
            if level < min {
                f.write_char('(')?;
            }
            for (i, c) in cs.iter().enumerate() {
                if i > 0 {
                    f.write_str(word)?;
                }
                write_cond(f, c, level + 1)?;
            }
            if level < min {
                f.write_char(')')?;
            }
            Ok(())
        }
        Cond::Not(c) => {
            f.write_str("not ")?;
            write_cond(f, c, 2)
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, es: &[Expr]| -> fmt::Result {
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{e}")?;
            }
            Ok(())
        };
        match &self.target {
            Target::Tuple(es) => {
                f.write_char('(')?;
                list(f, es)?;
                f.write_char(')')?;
            }
            Target::Collection(es) => {
                f.write_char('[')?;
                list(f, es)?;
                f.write_char(']')?;
            }
            Target::Single(e) => write!(f, "{e}")?,
        }
        for c in &self.clauses {
            match c {
                Clause::For { var, source, .. } => {
                    write!(f, " for {var} in ")?;
                    match source {
                        Source::Range { lo, hi, inclusive } => {
                            write_expr(f, lo, 1)?;
                            f.write_str(if *inclusive { "..=" } else { ".." })?;
                            write_expr(f, hi, 1)?;
                        }
                        Source::Set(es) => {
                            f.write_char('{')?;
                            list(f, es)?;
                            f.write_char('}')?;
                        }
                    }
                }
                Clause::If(c) => write!(f, " if {c}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for RuleAst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("rule(")?;
        if self.params.len() == 1 {
            f.write_str(&self.params[0])?;
        } else {
            write!(f, "({})", self.params.join(", "))?;
        }
        if let Some(d) = &self.domain {
            write!(f, " if {d}")?;
        }
        f.write_str(" -> ")?;
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{t}")?;
        }
        f.write_char(')')
    }
}
