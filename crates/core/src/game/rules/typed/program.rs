//! A parsed rule checked and compiled once into the form [`super::run`] evaluates: names
//! resolved to slots of a fixed array, every guard placed at the first loop where all its names
//! are bound, and each term's innermost loop analysed for the fast path (targets and guards
//! that are affine in the loop variable: the loop's range is narrowed by the guards and the
//! options are emitted by adding a step, with no evaluation per option).

use super::ast::{BinOp, Clause, CmpOp, Cond, Expr, Family, Func, Pred, RuleAst, Source, Span, Target};
use super::parse::{MAX_HEAPS, MAX_LOOPS, SyntaxError};
use crate::game::quote::quoted;

/// Slots of the environment: the heaps, then the loop variables (a term's, then its
/// collection's comprehensions').
pub const SLOTS: usize = MAX_HEAPS + MAX_LOOPS;

/// An expression with names resolved to slots. `Bin` and `Call` nodes keep the index of their
/// text in [`Program::texts`], so a failure can say which part of the rule failed.
#[derive(Debug, Clone)]
pub enum CExpr {
    /// A number literal.
    Num(i128),
    /// The value in a slot of the environment (see [`SLOTS`]).
    Slot(u8),
    /// `-x`.
    Neg(Box<CExpr>),
    /// `left op right`; the `u32` indexes its text in [`Program::texts`].
    Bin(BinOp, Box<CExpr>, Box<CExpr>, u32),
    /// A built-in function call; the `u32` indexes its text in [`Program::texts`].
    Call(Func, Vec<CExpr>, u32),
    /// `|left - right|`.
    AbsDiff(Box<CExpr>, Box<CExpr>),
}

/// A condition with names resolved to slots (the compiled [`Cond`]).
#[derive(Debug, Clone)]
pub enum CCond {
    /// `operands[0] ops[0] operands[1] …`, every comparison holding.
    Compare(Vec<CExpr>, Vec<CmpOp>),
    /// A predicate, with the index of its text.
    Pred(Pred, Vec<CExpr>, u32),
    /// Every condition holds.
    And(Vec<CCond>),
    /// At least one condition holds.
    Or(Vec<CCond>),
    /// The condition does not hold.
    Not(Box<CCond>),
}

/// The values a compiled `for` loop runs through, in order.
#[derive(Debug, Clone)]
pub enum CSource {
    /// `lo..hi` or `lo..=hi`.
    Range {
        /// The first value.
        lo: CExpr,
        /// The end of the range.
        hi: CExpr,
        /// Whether `hi` itself is included (`..=`).
        inclusive: bool,
    },
    /// `{x, y, …}`: these values, in the order written.
    Set(Vec<CExpr>),
    /// `primes(n)`, `powers(b, n)`, `fibs(n)`, with the index of its text.
    Family(Family, Vec<CExpr>, u32),
}

/// A guard that narrows a loop's range: `lhs op rhs` with both sides affine in the loop
/// variable (`|x - y| < e` is stored as two such constraints).
#[derive(Debug, Clone)]
pub struct Constraint {
    /// The left side, affine in the loop variable.
    pub lhs: CExpr,
    /// The comparison.
    pub op: CmpOp,
    /// The right side, affine in the loop variable.
    pub rhs: CExpr,
}

/// The innermost loop of a term, when every guard on it folds into its range.
#[derive(Debug, Clone)]
pub struct FastLoop {
    /// The guards folded into the loop's range.
    pub constraints: Vec<Constraint>,
    /// For each part of the target: whether it is affine in the loop variable.
    pub affine: Vec<bool>,
}

/// A compiled `for` loop.
#[derive(Debug, Clone)]
pub struct CLoop {
    /// The slot its variable is bound to (heaps take slots 0..3, loop variables from 3 on).
    pub slot: u8,
    /// The variable's name, for messages.
    pub var: String,
    /// The values it runs through.
    pub source: CSource,
    /// Guards checked once this variable is bound.
    pub guards: Vec<CCond>,
    /// The guards as constraints on the range, when every one of them folds into it (what
    /// the cost estimate narrows the range by).
    pub constraints: Option<Vec<Constraint>>,
}

/// The shape of a term's target (see [`super::ast::Target`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// `(x, y)` or `(x, y, z)`: a position of two or three heaps.
    Tuple,
    /// `[x, y, …]`: the heap is split into these heaps.
    Collection,
    /// `x`: the heap becomes one heap.
    Single,
}

/// One part of a target: a heap, or (in a collection) a comprehension giving a heap for each
/// binding of its loops.
#[derive(Debug, Clone)]
pub struct CPart {
    /// The heap (a comprehension's element).
    pub expr: CExpr,
    /// The index of the part's text (a heap below zero names it).
    pub text: u32,
    /// Guards on the part before its loops (names of the term alone).
    pub guards: Vec<CCond>,
    /// A comprehension's loops (none for a plain heap).
    pub loops: Vec<CLoop>,
}

/// A compiled term: its guards placed at the loops where their names are bound.
#[derive(Debug, Clone)]
pub struct CTerm {
    /// The term's canonical text, for messages.
    pub text: String,
    /// Its target's text (`(a - k, b)`), naming the term in move descriptions.
    pub target_text: String,
    /// Guards on the heaps alone, checked before any loop.
    pub guards: Vec<CCond>,
    /// Its `for` loops, outermost first.
    pub loops: Vec<CLoop>,
    /// The shape of its target.
    pub kind: TargetKind,
    /// The target's parts: heaps, or in a collection comprehensions.
    pub target: Vec<CPart>,
    /// Whether some part is a comprehension (the number of heaps varies).
    pub comprehension: bool,
    /// The innermost loop's fast path; `None`: evaluated option by option.
    pub fast: Option<FastLoop>,
}

/// A rule checked and compiled, ready for [`super::run`].
#[derive(Debug, Clone)]
pub struct Program {
    /// Number of heaps of a position: 1, 2 or 3.
    pub arity: usize,
    /// The heap names, in order (slots 0, 1, 2).
    pub params: Vec<String>,
    /// Which positions exist; `None`: all of them.
    pub domain: Option<CCond>,
    /// The terms, in order.
    pub terms: Vec<CTerm>,
    /// The text of every `Bin`, `Call`, predicate, family and target part, by index.
    pub texts: Vec<String>,
}

struct Compiler {
    texts: Vec<String>,
}

fn unknown_name(name: &str, span: Span, bound: &[&str]) -> SyntaxError {
    SyntaxError {
        message: format!(
            "unknown name {}; the names bound here are {}",
            quoted(name),
            bound.join(", ")
        ),
        at: span.start,
    }
}

/// The names bound where a part of a term is read: each with its slot.
#[derive(Clone)]
struct Scope<'a> {
    names: Vec<(&'a str, u8)>,
}

impl<'a> Scope<'a> {
    fn slot(&self, name: &str) -> Option<u8> {
        self.names.iter().rev().find(|(n, _)| *n == name).map(|&(_, s)| s)
    }

    fn list(&self) -> Vec<&'a str> {
        self.names.iter().map(|&(n, _)| n).collect()
    }
}

impl Compiler {
    fn text(&mut self, t: String) -> u32 {
        self.texts.push(t);
        (self.texts.len() - 1) as u32
    }

    fn expr(&mut self, e: &Expr, scope: &Scope) -> Result<CExpr, SyntaxError> {
        Ok(match e {
            Expr::Num(n, _) => CExpr::Num(i128::from(*n)),
            Expr::Var(v, span) => CExpr::Slot(scope.slot(v).ok_or_else(|| unknown_name(v, *span, &scope.list()))?),
            Expr::Neg(a, _) => CExpr::Neg(Box::new(self.expr(a, scope)?)),
            Expr::Bin(op, a, b, _) => {
                let id = self.text(e.to_string());
                CExpr::Bin(*op, Box::new(self.expr(a, scope)?), Box::new(self.expr(b, scope)?), id)
            }
            Expr::Call(f, args, _) => {
                let id = self.text(e.to_string());
                let args = args.iter().map(|a| self.expr(a, scope)).collect::<Result<_, _>>()?;
                CExpr::Call(*f, args, id)
            }
            Expr::AbsDiff(a, b, _) => CExpr::AbsDiff(Box::new(self.expr(a, scope)?), Box::new(self.expr(b, scope)?)),
        })
    }

    fn cond(&mut self, c: &Cond, scope: &Scope) -> Result<CCond, SyntaxError> {
        Ok(match c {
            Cond::Compare(es, ops) => CCond::Compare(
                es.iter().map(|e| self.expr(e, scope)).collect::<Result<_, _>>()?,
                ops.clone(),
            ),
            Cond::Pred(p, args) => {
                let id = self.text(c.to_string());
                CCond::Pred(
                    *p,
                    args.iter().map(|e| self.expr(e, scope)).collect::<Result<_, _>>()?,
                    id,
                )
            }
            Cond::And(cs) => CCond::And(cs.iter().map(|c| self.cond(c, scope)).collect::<Result<_, _>>()?),
            Cond::Or(cs) => CCond::Or(cs.iter().map(|c| self.cond(c, scope)).collect::<Result<_, _>>()?),
            Cond::Not(c) => CCond::Not(Box::new(self.cond(c, scope)?)),
        })
    }

    fn source(&mut self, source: &Source, scope: &Scope) -> Result<CSource, SyntaxError> {
        Ok(match source {
            Source::Range { lo, hi, inclusive } => CSource::Range {
                lo: self.expr(lo, scope)?,
                hi: self.expr(hi, scope)?,
                inclusive: *inclusive,
            },
            Source::Set(es) => CSource::Set(es.iter().map(|e| self.expr(e, scope)).collect::<Result<_, _>>()?),
            Source::Family(f, args) => {
                let mut t = String::new();
                let _ = super::ast::write_source(&mut t, source);
                let id = self.text(t);
                CSource::Family(
                    *f,
                    args.iter().map(|e| self.expr(e, scope)).collect::<Result<_, _>>()?,
                    id,
                )
            }
        })
    }

    /// Compiles `clauses` (a term's or a comprehension's) in `outer` (the names bound before
    /// them), their loop variables taking the slots from `first_slot`: the guards checked
    /// before the first loop, the loops with their guards, and the scope inside them.
    fn clauses<'s>(
        &mut self,
        clauses: &'s [Clause],
        outer: &Scope<'s>,
        first_slot: u8,
    ) -> Result<(Vec<CCond>, Vec<CLoop>, Scope<'s>), SyntaxError> {
        // every name the clauses bind, in order (a guard may name a later loop's variable: it
        // is checked where that variable is bound)
        let mut inner = outer.clone();
        let mut loop_vars: Vec<&str> = Vec::new();
        for clause in clauses {
            if let Clause::For { var, span, .. } = clause {
                if inner.slot(var).is_some() {
                    return Err(SyntaxError {
                        message: format!(
                            "{} is already a name here; give the loop variable another name",
                            quoted(var)
                        ),
                        at: span.start,
                    });
                }
                inner.names.push((var, first_slot + loop_vars.len() as u8));
                loop_vars.push(var);
            }
        }
        let all = inner.list();
        let mut loops: Vec<CLoop> = Vec::new();
        let mut guard_list: Vec<(usize, &Cond)> = Vec::new();
        for clause in clauses {
            match clause {
                Clause::For { var, source, .. } => {
                    let seen = loops.len();
                    let visible = Scope {
                        names: inner.names[..outer.names.len() + seen].to_vec(),
                    };
                    check_bound(source, &visible, &all)?;
                    loops.push(CLoop {
                        slot: first_slot + seen as u8,
                        var: var.clone(),
                        source: self.source(source, &visible)?,
                        guards: Vec::new(),
                        constraints: None,
                    });
                }
                Clause::If(cond) => guard_list.extend(guard_levels(cond, &loop_vars, outer, &all)?),
            }
        }
        let mut guards = Vec::new();
        for (level, cond) in guard_list {
            let compiled = self.cond(cond, &inner)?;
            if level == 0 {
                guards.push(compiled);
            } else {
                loops[level - 1].guards.push(compiled);
            }
        }
        for l in &mut loops {
            l.constraints = constraints_of(l);
        }
        Ok((guards, loops, inner))
    }
}

/// Refuses a range or set that names a variable bound only by a later clause.
fn check_bound(source: &Source, visible: &Scope, all: &[&str]) -> Result<(), SyntaxError> {
    let exprs: Vec<&Expr> = match source {
        Source::Range { lo, hi, .. } => vec![lo, hi],
        Source::Set(es) | Source::Family(_, es) => es.iter().collect(),
    };
    for e in exprs {
        let mut names = Vec::new();
        e.variables(&mut names);
        match names.iter().find(|n| visible.slot(n).is_none()) {
            Some(n) if all.contains(n) => {
                return Err(SyntaxError {
                    message: format!(
                        "{} is not bound yet where this range is read; bind it in an earlier 'for'",
                        quoted(n)
                    ),
                    at: e.span().start,
                });
            }
            Some(n) => return Err(unknown_name(n, e.span(), all)),
            None => {}
        }
    }
    Ok(())
}

/// The parts of a guard (an `and` splits), each with the loop level where its names are all
/// bound (0: the names of `outer` alone), so it is checked as early as its names allow.
fn guard_levels<'a>(
    cond: &'a Cond,
    loop_vars: &[&str],
    outer: &Scope,
    all: &[&str],
) -> Result<Vec<(usize, &'a Cond)>, SyntaxError> {
    let parts: Vec<&Cond> = match cond {
        Cond::And(cs) => cs.iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for part in parts {
        let mut names = Vec::new();
        part.variables(&mut names);
        let mut level = 0;
        for n in names {
            match loop_vars.iter().position(|v| *v == n) {
                Some(i) => level = level.max(i + 1),
                None if outer.slot(n).is_some() => {}
                None => {
                    let at = find_var_span(part, n).unwrap_or_default();
                    return Err(unknown_name(n, at, all));
                }
            }
        }
        out.push((level, part));
    }
    Ok(out)
}

/// A term's target as typed: the text before its first clause (a target holds neither word,
/// except inside a collection's brackets).
fn target_text_of(term: &super::ast::Term) -> String {
    let whole = term.to_string();
    let start = match &term.target {
        Target::Collection(_) => whole.find(']').unwrap_or(0),
        _ => 0,
    };
    let cut = [" for ", " if "]
        .iter()
        .filter_map(|w| whole[start..].find(w).map(|i| i + start))
        .min()
        .unwrap_or(whole.len());
    whole[..cut].to_string()
}

/// Checks and compiles a parsed rule.
pub fn compile(ast: &RuleAst) -> Result<Program, SyntaxError> {
    let mut c = Compiler { texts: Vec::new() };
    let params = Scope {
        names: ast
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i as u8))
            .collect(),
    };
    let domain = ast.domain.as_ref().map(|d| c.cond(d, &params)).transpose()?;
    let mut terms = Vec::new();
    for term in &ast.terms {
        let (guards, loops, scope) = c.clauses(&term.clauses, &params, MAX_HEAPS as u8)?;
        let (kind, parts): (TargetKind, Vec<(&Expr, &[Clause])>) = match &term.target {
            Target::Tuple(es) => (TargetKind::Tuple, es.iter().map(|e| (e, &[][..])).collect()),
            Target::Collection(ps) => (
                TargetKind::Collection,
                ps.iter().map(|p| (&p.expr, p.clauses.as_slice())).collect(),
            ),
            Target::Single(e) => (TargetKind::Single, vec![(e, &[][..])]),
        };
        let mut next_slot = MAX_HEAPS as u8 + loops.len() as u8;
        let mut target = Vec::new();
        for (e, clauses) in parts {
            let (guards, part_loops, inner) = c.clauses(clauses, &scope, next_slot)?;
            next_slot += part_loops.len() as u8;
            let text = c.text(e.to_string());
            target.push(CPart {
                expr: c.expr(e, &inner)?,
                text,
                guards,
                loops: part_loops,
            });
        }
        let comprehension = target.iter().any(|p| !p.loops.is_empty() || !p.guards.is_empty());
        let exprs: Vec<&CExpr> = target.iter().map(|p| &p.expr).collect();
        let fast = if comprehension {
            None
        } else {
            loops.last().and_then(|l| fast_loop(l, &exprs))
        };
        terms.push(CTerm {
            text: term.to_string(),
            target_text: target_text_of(term),
            guards,
            loops,
            kind,
            target,
            comprehension,
            fast,
        });
    }
    Ok(Program {
        arity: ast.params.len(),
        params: ast.params.clone(),
        domain,
        terms,
        texts: c.texts,
    })
}

fn find_var_span(c: &Cond, name: &str) -> Option<Span> {
    fn in_expr(e: &Expr, name: &str) -> Option<Span> {
        match e {
            Expr::Var(v, s) if v == name => Some(*s),
            Expr::Num(..) | Expr::Var(..) => None,
            Expr::Neg(a, _) => in_expr(a, name),
            Expr::Bin(_, a, b, _) | Expr::AbsDiff(a, b, _) => in_expr(a, name).or_else(|| in_expr(b, name)),
            Expr::Call(_, args, _) => args.iter().find_map(|a| in_expr(a, name)),
        }
    }
    match c {
        Cond::Compare(es, _) | Cond::Pred(_, es) => es.iter().find_map(|e| in_expr(e, name)),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().find_map(|c| find_var_span(c, name)),
        Cond::Not(c) => find_var_span(c, name),
    }
}

/// How an expression depends on one slot: not at all, affinely (`c0 + c1·v`, every node of it
/// affine, so monotone on any range), or otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dependence {
    /// The expression does not use the slot.
    Constant,
    /// The expression is `c0 + c1·v` in the slot's value `v`, built of `+`, `-` and multiplication by constants.
    Affine,
    /// Any other dependence (division, functions, `|x - y|` of the slot).
    Other,
}

/// How `e` depends on the value in `slot` (see [`Dependence`]).
pub fn dependence(e: &CExpr, slot: u8) -> Dependence {
    use Dependence::*;
    let all_constant = |es: &[&CExpr]| es.iter().all(|e| dependence(e, slot) == Constant);
    match e {
        CExpr::Num(_) => Constant,
        CExpr::Slot(s) => {
            if *s == slot {
                Affine
            } else {
                Constant
            }
        }
        CExpr::Neg(a) => dependence(a, slot),
        CExpr::Bin(op, a, b, _) => {
            let (da, db) = (dependence(a, slot), dependence(b, slot));
            match op {
                BinOp::Add | BinOp::Sub => da.max(db),
                BinOp::Mul => match (da, db) {
                    (Constant, d) | (d, Constant) => d,
                    _ => Other,
                },
                BinOp::Div | BinOp::Rem | BinOp::Pow => {
                    if da == Constant && db == Constant {
                        Constant
                    } else {
                        Other
                    }
                }
            }
        }
        CExpr::Call(_, args, _) => {
            if args.iter().all(|a| dependence(a, slot) == Constant) {
                Constant
            } else {
                Other
            }
        }
        CExpr::AbsDiff(a, b) => {
            if all_constant(&[a, b]) {
                Constant
            } else {
                Other
            }
        }
    }
}

/// The guards of a range loop as constraints on its variable, when each is a comparison of
/// two affine sides (`|x - y| < e` as two); `None` otherwise.
fn constraints_of(l: &CLoop) -> Option<Vec<Constraint>> {
    if !matches!(l.source, CSource::Range { .. }) {
        return None;
    }
    let affine = |e: &CExpr| dependence(e, l.slot) <= Dependence::Affine;
    let mut constraints = Vec::new();
    for g in &l.guards {
        let CCond::Compare(es, ops) = g else { return None };
        for (i, &op) in ops.iter().enumerate() {
            let (lhs, rhs) = (&es[i], &es[i + 1]);
            if op == CmpOp::Ne {
                return None;
            }
            match (lhs, rhs) {
                // |x - y| < e  ⇔  x < y + e and y < x + e, as x - y and y - x against e
                (CExpr::AbsDiff(x, y), e) if matches!(op, CmpOp::Lt | CmpOp::Le) => {
                    if !(affine(x) && affine(y) && affine(e)) {
                        return None;
                    }
                    constraints.push(Constraint {
                        lhs: (**x).clone(),
                        op,
                        rhs: sum(y, e),
                    });
                    constraints.push(Constraint {
                        lhs: (**y).clone(),
                        op,
                        rhs: sum(x, e),
                    });
                }
                _ if affine(lhs) && affine(rhs) => constraints.push(Constraint {
                    lhs: lhs.clone(),
                    op,
                    rhs: rhs.clone(),
                }),
                _ => return None,
            }
        }
    }
    Some(constraints)
}

/// The fast plan of a term's innermost loop: a range whose every guard folds into it.
fn fast_loop(l: &CLoop, target: &[&CExpr]) -> Option<FastLoop> {
    let constraints = l.constraints.clone()?;
    Some(FastLoop {
        constraints,
        affine: target
            .iter()
            .map(|e| dependence(e, l.slot) <= Dependence::Affine)
            .collect(),
    })
}

/// `x + e`, for the constraints of |x − y| op e (evaluated by the fast path's arithmetic; the
/// node has no text, as it cannot fail where the guard itself evaluated).
fn sum(x: &CExpr, e: &CExpr) -> CExpr {
    CExpr::Bin(BinOp::Add, Box::new(x.clone()), Box::new(e.clone()), u32::MAX)
}
