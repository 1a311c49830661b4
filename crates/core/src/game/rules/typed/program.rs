//! A parsed rule checked and compiled once into the form [`super::run`] evaluates: names
//! resolved to slots of a fixed array, every guard placed at the first loop where all its names
//! are bound, and each term's innermost loop analysed for the fast path (targets and guards
//! that are affine in the loop variable: the loop's range is narrowed by the guards and the
//! options are emitted by adding a step, with no evaluation per option).

use super::ast::{BinOp, Clause, CmpOp, Cond, Expr, Func, RuleAst, Source, Span, Target};
use super::parse::SyntaxError;
use crate::game::quote::quoted;

/// Slots of the environment: up to three heaps, then the loop variables.
pub const SLOTS: usize = 3 + super::parse::MAX_LOOPS;

/// An expression with names resolved to slots. `Bin` nodes keep the index of their text in
/// [`Program::texts`], so a failure can say which part of the rule failed.
#[derive(Debug, Clone)]
pub enum CExpr {
    /// A number literal.
    Num(u64),
    /// The value in a slot of the environment (see [`SLOTS`]).
    Slot(u8),
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
}

/// A guard that narrows the innermost loop's range: `lhs op rhs` with both sides affine in the
/// loop variable (`|x - y| < e` is stored as two such constraints).
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
    /// The target's parts, one expression each.
    pub target: Vec<CExpr>,
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
    /// The text of every `Bin` and `Call` node, by index.
    pub texts: Vec<String>,
}

struct Compiler<'a> {
    params: &'a [String],
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

impl Compiler<'_> {
    fn expr(&mut self, e: &Expr, bound: &[&str]) -> Result<CExpr, SyntaxError> {
        Ok(match e {
            Expr::Num(n, _) => CExpr::Num(*n),
            Expr::Var(v, span) => {
                let slot = bound
                    .iter()
                    .position(|b| b == v)
                    .ok_or_else(|| unknown_name(v, *span, bound))?;
                CExpr::Slot(slot_of(slot, self.params.len()))
            }
            Expr::Bin(op, a, b, _) => {
                let id = self.texts.len() as u32;
                self.texts.push(e.to_string());
                CExpr::Bin(*op, Box::new(self.expr(a, bound)?), Box::new(self.expr(b, bound)?), id)
            }
            Expr::Call(f, args, _) => {
                let id = self.texts.len() as u32;
                self.texts.push(e.to_string());
                let args = args.iter().map(|a| self.expr(a, bound)).collect::<Result<_, _>>()?;
                CExpr::Call(*f, args, id)
            }
            Expr::AbsDiff(a, b, _) => CExpr::AbsDiff(Box::new(self.expr(a, bound)?), Box::new(self.expr(b, bound)?)),
        })
    }

    fn cond(&mut self, c: &Cond, bound: &[&str]) -> Result<CCond, SyntaxError> {
        Ok(match c {
            Cond::Compare(es, ops) => CCond::Compare(
                es.iter().map(|e| self.expr(e, bound)).collect::<Result<_, _>>()?,
                ops.clone(),
            ),
            Cond::And(cs) => CCond::And(cs.iter().map(|c| self.cond(c, bound)).collect::<Result<_, _>>()?),
            Cond::Or(cs) => CCond::Or(cs.iter().map(|c| self.cond(c, bound)).collect::<Result<_, _>>()?),
            Cond::Not(c) => CCond::Not(Box::new(self.cond(c, bound)?)),
        })
    }
}

/// Names are bound in order: the heaps, then each `for` variable; slot `i` of that list.
fn slot_of(index: usize, arity: usize) -> u8 {
    if index < arity {
        index as u8
    } else {
        (3 + index - arity) as u8
    }
}

/// The parts of a guard (an `and` splits), each with the loop level where its names are all
/// bound (0: the parameters alone), so it is checked as early as its names allow.
fn guard_levels<'a>(
    cond: &'a Cond,
    loop_vars: &[(&str, Span)],
    params: &[&str],
    bound: &[&str],
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
            match loop_vars.iter().position(|(v, _)| *v == n) {
                Some(i) => level = level.max(i + 1),
                None if params.contains(&n) => {}
                None => {
                    let at = find_var_span(part, n).unwrap_or_default();
                    return Err(unknown_name(n, at, bound));
                }
            }
        }
        out.push((level, part));
    }
    Ok(out)
}

/// A term's target as typed: the text before its first clause (a target holds neither word).
fn target_text_of(term: &impl std::fmt::Display) -> String {
    let whole = term.to_string();
    let cut = [" for ", " if "]
        .iter()
        .filter_map(|w| whole.find(w))
        .min()
        .unwrap_or(whole.len());
    whole[..cut].to_string()
}

/// Checks and compiles a parsed rule.
pub fn compile(ast: &RuleAst) -> Result<Program, SyntaxError> {
    let mut c = Compiler {
        params: &ast.params,
        texts: Vec::new(),
    };
    let params: Vec<&str> = ast.params.iter().map(String::as_str).collect();
    let domain = ast.domain.as_ref().map(|d| c.cond(d, &params)).transpose()?;
    let mut terms = Vec::new();
    for term in &ast.terms {
        // every name the term binds, in order
        let mut bound = params.clone();
        let mut loop_vars: Vec<(&str, Span)> = Vec::new();
        for clause in &term.clauses {
            if let Clause::For { var, span, .. } = clause {
                if bound.contains(&var.as_str()) {
                    return Err(SyntaxError {
                        message: format!(
                            "{} is already a name here; give the loop variable another name",
                            quoted(var)
                        ),
                        at: span.start,
                    });
                }
                bound.push(var);
                loop_vars.push((var, *span));
            }
        }
        let mut loops: Vec<CLoop> = Vec::new();
        let mut guards = Vec::new();
        let mut guard_list: Vec<(usize, &Cond)> = Vec::new();
        let mut seen = params.len();
        for clause in &term.clauses {
            match clause {
                Clause::For { var, source, .. } => {
                    let visible = &bound[..seen];
                    let check_bound = |e: &Expr| -> Result<(), SyntaxError> {
                        let mut names = Vec::new();
                        e.variables(&mut names);
                        match names.iter().find(|n| !visible.contains(n)) {
                            Some(n) if bound.contains(n) => Err(SyntaxError {
                                message: format!(
                                    "{} is not bound yet where this range is read; bind it in an earlier 'for'",
                                    quoted(n)
                                ),
                                at: e.span().start,
                            }),
                            Some(n) => Err(unknown_name(n, e.span(), &bound)),
                            None => Ok(()),
                        }
                    };
                    let source = match source {
                        Source::Range { lo, hi, inclusive } => {
                            check_bound(lo)?;
                            check_bound(hi)?;
                            CSource::Range {
                                lo: c.expr(lo, &bound)?,
                                hi: c.expr(hi, &bound)?,
                                inclusive: *inclusive,
                            }
                        }
                        Source::Set(es) => {
                            es.iter().try_for_each(check_bound)?;
                            CSource::Set(es.iter().map(|e| c.expr(e, &bound)).collect::<Result<_, _>>()?)
                        }
                    };
                    loops.push(CLoop {
                        slot: slot_of(seen, params.len()),
                        var: var.clone(),
                        source,
                        guards: Vec::new(),
                    });
                    seen += 1;
                }
                Clause::If(cond) => guard_list.extend(guard_levels(cond, &loop_vars, &params, &bound)?),
            }
        }
        for (level, cond) in guard_list {
            let compiled = c.cond(cond, &bound)?;
            if level == 0 {
                guards.push(compiled);
            } else {
                loops[level - 1].guards.push(compiled);
            }
        }
        let (kind, parts) = match &term.target {
            Target::Tuple(es) => (TargetKind::Tuple, es),
            Target::Collection(es) => (TargetKind::Collection, es),
            Target::Single(e) => (TargetKind::Single, &vec![e.clone()]),
        };
        let target = parts.iter().map(|e| c.expr(e, &bound)).collect::<Result<Vec<_>, _>>()?;
        let fast = loops.last().and_then(|l| fast_loop(l, &target));
        let target_text = target_text_of(term);
        terms.push(CTerm {
            text: term.to_string(),
            target_text,
            guards,
            loops,
            kind,
            target,
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
            Expr::Bin(_, a, b, _) | Expr::AbsDiff(a, b, _) => in_expr(a, name).or_else(|| in_expr(b, name)),
            Expr::Call(_, args, _) => args.iter().find_map(|a| in_expr(a, name)),
        }
    }
    match c {
        Cond::Compare(es, _) => es.iter().find_map(|e| in_expr(e, name)),
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
    match e {
        CExpr::Num(_) => Constant,
        CExpr::Slot(s) => {
            if *s == slot {
                Affine
            } else {
                Constant
            }
        }
        CExpr::Bin(op, a, b, _) => {
            let (da, db) = (dependence(a, slot), dependence(b, slot));
            match op {
                BinOp::Add | BinOp::Sub => da.max(db),
                BinOp::Mul => match (da, db) {
                    (Constant, d) | (d, Constant) => d,
                    _ => Other,
                },
                BinOp::Div | BinOp::Rem => {
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
            if dependence(a, slot) == Constant && dependence(b, slot) == Constant {
                Constant
            } else {
                Other
            }
        }
    }
}

/// The fast plan of a term's innermost loop: a range whose every guard folds into it.
fn fast_loop(l: &CLoop, target: &[CExpr]) -> Option<FastLoop> {
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
                        lhs: sum(x, e, false),
                        op,
                        rhs: sum(y, e, true),
                    });
                    constraints.push(Constraint {
                        lhs: sum(y, e, false),
                        op,
                        rhs: sum(x, e, true),
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
    Some(FastLoop {
        constraints,
        affine: target.iter().map(affine).collect(),
    })
}

/// For |x − y| op e: `x` on one side and `y + e` on the other (`with_e`), kept as the affine
/// pair (x, y + e); evaluated without checks by the fast path's integer arithmetic.
fn sum(x: &CExpr, e: &CExpr, with_e: bool) -> CExpr {
    if with_e {
        CExpr::Bin(BinOp::Add, Box::new(x.clone()), Box::new(e.clone()), u32::MAX)
    } else {
        x.clone()
    }
}
