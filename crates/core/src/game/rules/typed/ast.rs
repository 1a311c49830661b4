//! The syntax tree of a typed rule and its canonical text: what [`super::parse`] reads and what
//! a session saves. Printing a parsed rule and parsing the print gives the same tree, so the
//! canonical text is the rule's identity (equality, hashing, serialisation).
//!
//! Numbers are signed integers (`i128`): a guard or a bound may go below zero as written; only
//! the heaps of a target must be natural numbers (checked where they are made, see
//! `super::run`).

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
    /// Floor division (`7 / 2 = 3`, `-7 / 2 = -4`).
    Div,
    /// The remainder of floor division by a positive number: `(x - s) % n` is in `0..n`.
    Rem,
    /// `a ^ b`, `b ≥ 0` (right-associative: `2 ^ 3 ^ 2 = 2 ^ 9`).
    Pow,
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
            BinOp::Pow => "^",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 2,
            BinOp::Pow => 4,
        }
    }
}

/// Precedence of a unary minus: between the products and the powers (`-2 ^ 2 = -(2 ^ 2)`).
const NEG_PRECEDENCE: u8 = 3;

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
    /// `abs(x)`.
    Abs,
    /// The bitwise exclusive or (the nim-sum) of its arguments.
    Xor,
    /// `bitand(x, y)`.
    BitAnd,
    /// `bitor(x, y)`.
    BitOr,
    /// The number of 1 bits of a number ≥ 0.
    Popcount,
    /// The Fibonacci number F(k), F(0) = 0, F(1) = 1.
    Fib,
}

impl Func {
    /// Every function, in the order the reference lists them.
    pub const ALL: [Func; 10] = [
        Func::Min,
        Func::Max,
        Func::Isqrt,
        Func::Gcd,
        Func::Abs,
        Func::Xor,
        Func::BitAnd,
        Func::BitOr,
        Func::Popcount,
        Func::Fib,
    ];

    /// The function's name in the language, e.g. `isqrt`.
    pub fn name(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::Isqrt => "isqrt",
            Func::Gcd => "gcd",
            Func::Abs => "abs",
            Func::Xor => "xor",
            Func::BitAnd => "bitand",
            Func::BitOr => "bitor",
            Func::Popcount => "popcount",
            Func::Fib => "fib",
        }
    }

    /// The function called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The numbers of arguments the function takes: `(least, most)`.
    pub fn arity(self) -> (usize, usize) {
        match self {
            Func::Min | Func::Max | Func::Gcd | Func::Xor | Func::BitAnd | Func::BitOr => (2, 8),
            Func::Isqrt | Func::Abs | Func::Popcount | Func::Fib => (1, 1),
        }
    }
}

/// The predicates of conditions: `prime(x)`, `distinct(a, b, c)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pred {
    /// Whether a number is prime.
    Prime,
    /// Whether its arguments are pairwise different.
    Distinct,
}

impl Pred {
    /// Every predicate, in the order the reference lists them.
    pub const ALL: [Pred; 2] = [Pred::Prime, Pred::Distinct];

    /// The predicate's name in the language, e.g. `prime`.
    pub fn name(self) -> &'static str {
        match self {
            Pred::Prime => "prime",
            Pred::Distinct => "distinct",
        }
    }

    /// The predicate named `name`.
    pub fn from_name(name: &str) -> Option<Pred> {
        Pred::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The numbers of arguments the predicate takes: `(least, most)`.
    pub fn arity(self) -> (usize, usize) {
        match self {
            Pred::Prime => (1, 1),
            Pred::Distinct => (2, 16),
        }
    }
}

/// The named sources of a `for`: `primes(n)`, `powers(b, n)`, `fibs(n)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// The primes up to the bound, ascending.
    Primes,
    /// 1, b, b², … up to the bound (b ≥ 2).
    Powers,
    /// The distinct Fibonacci numbers 1, 2, 3, 5, 8, … up to the bound.
    Fibs,
}

impl Family {
    /// Every family of numbers, in the order the reference lists them.
    pub const ALL: [Family; 3] = [Family::Primes, Family::Powers, Family::Fibs];

    /// The family's name in the language, e.g. `primes`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Primes => "primes",
            Family::Powers => "powers",
            Family::Fibs => "fibs",
        }
    }

    /// The family named `name`.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// How many arguments it takes (the bound last).
    pub fn arity(self) -> usize {
        match self {
            Family::Powers => 2,
            Family::Primes | Family::Fibs => 1,
        }
    }
}

/// An integer expression (signed integers; arithmetic is checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// A number literal.
    Num(u64, Span),
    /// A name: a heap parameter or a `for` variable.
    Var(String, Span),
    /// `-x`.
    Neg(Box<Expr>, Span),
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
            Expr::Num(_, s)
            | Expr::Var(_, s)
            | Expr::Neg(_, s)
            | Expr::Bin(.., s)
            | Expr::Call(_, _, s)
            | Expr::AbsDiff(_, _, s) => *s,
        }
    }

    /// Every variable the expression names, in order, with repeats.
    pub fn variables<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Expr::Num(..) => {}
            Expr::Var(v, _) => out.push(v),
            Expr::Neg(a, _) => a.variables(out),
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
    pub fn holds(self, a: i128, b: i128) -> bool {
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
    /// `prime(x)`, `distinct(a, b, c)`.
    Pred(Pred, Vec<Expr>),
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
            Cond::Compare(es, _) | Cond::Pred(_, es) => es.iter().for_each(|e| e.variables(out)),
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
    /// `primes(n)`, `powers(2, n)`, `fibs(n)`.
    Family(Family, Vec<Expr>),
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

/// One element of a collection: a heap `x`, or a comprehension `x for k in lo..hi if …`, which
/// gives a heap for every binding of its clauses (a variable number of heaps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The heap (a comprehension's element).
    pub expr: Expr,
    /// A comprehension's clauses (none for a plain heap).
    pub clauses: Vec<Clause>,
}

/// What a term produces: a position of a fixed number of heaps, or (for a one-heap rule) one
/// heap or a collection of heaps, which is their disjunctive sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `(x, y, …)`: a position of a fixed number of heaps (2 to 16).
    Tuple(Vec<Expr>),
    /// `[x, y, …]` (one-heap rules): the heap is split into these heaps, each a heap or a
    /// comprehension (`[]` removes it).
    Collection(Vec<Part>),
    /// `x` (one-heap rules): the heap becomes `x`.
    Single(Expr),
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
        Expr::Neg(a, _) => {
            if NEG_PRECEDENCE < min {
                f.write_char('(')?;
            }
            f.write_char('-')?;
            // --x would read as one token's worth of signs: -(-x)
            write_expr(f, a, NEG_PRECEDENCE + 1)?;
            if NEG_PRECEDENCE < min {
                f.write_char(')')?;
            }
            Ok(())
        }
        Expr::Bin(op, a, b, _) => {
            let p = op.precedence();
            if p < min {
                f.write_char('(')?;
            }
            // a power groups to the right: (a ^ b) ^ c needs parentheses, a ^ (b ^ c) does
            // not; the other operators group to the left: a - (b - c)
            let (left, right) = if *op == BinOp::Pow { (p + 1, p) } else { (p, p + 1) };
            write_expr(f, a, left)?;
            write!(f, " {} ", op.symbol())?;
            write_expr(f, b, right)?;
            if p < min {
                f.write_char(')')?;
            }
            Ok(())
        }
        Expr::Call(func, args, _) => write_call(f, func.name(), args),
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

/// Writes `name(a, b, …)`.
fn write_call(f: &mut impl Write, name: &str, args: &[Expr]) -> fmt::Result {
    write!(f, "{name}(")?;
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_expr(f, a, 0)?;
    }
    f.write_char(')')
}

/// Levels: 0 `or`, 1 `and`, 2 `not` and comparisons.
fn write_cond(f: &mut impl Write, c: &Cond, min: u8) -> fmt::Result {
    match c {
        Cond::Pred(p, args) => write_call(f, p.name(), args),
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

fn write_list(f: &mut impl Write, es: &[Expr]) -> fmt::Result {
    for (i, e) in es.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_expr(f, e, 0)?;
    }
    Ok(())
}

/// Writes the values of a `for`: `lo..hi`, `lo..=hi`, `{1, 3, 4}`, `primes(n)`.
pub(crate) fn write_source(f: &mut impl Write, source: &Source) -> fmt::Result {
    match source {
        Source::Range { lo, hi, inclusive } => {
            write_expr(f, lo, 1)?;
            f.write_str(if *inclusive { "..=" } else { ".." })?;
            write_expr(f, hi, 1)
        }
        Source::Set(es) => {
            f.write_char('{')?;
            write_list(f, es)?;
            f.write_char('}')
        }
        Source::Family(family, args) => write_call(f, family.name(), args),
    }
}

/// Writes ` for v in … if …`, each clause after a space.
fn write_clauses(f: &mut impl Write, clauses: &[Clause]) -> fmt::Result {
    for c in clauses {
        match c {
            Clause::For { var, source, .. } => {
                write!(f, " for {var} in ")?;
                write_source(f, source)?;
            }
            Clause::If(c) => {
                f.write_str(" if ")?;
                write_cond(f, c, 0)?;
            }
        }
    }
    Ok(())
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.target {
            Target::Tuple(es) => {
                f.write_char('(')?;
                write_list(f, es)?;
                f.write_char(')')?;
            }
            Target::Collection(parts) => {
                f.write_char('[')?;
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_expr(f, &p.expr, 0)?;
                    write_clauses(f, &p.clauses)?;
                }
                f.write_char(']')?;
            }
            Target::Single(e) => write!(f, "{e}")?,
        }
        write_clauses(f, &self.clauses)
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
