//! Misère quotients of octal games (Plambeck and Siegel, "Misère quotients for impartial
//! games", J. Combin. Theory A 115 (2008)): for an octal game restricted to heaps of at most
//! `n`, the finite commutative monoid of its collections of heaps up to indistinguishability,
//! with its P-portion and each heap's element. The misère outcome of any collection of those
//! heaps is then a product in the monoid and a look-up.
//!
//! The quotient is grown heap by heap. At each heap it is learned from exact outcomes
//! ([`oracle`]) by an observation table ([`learn`]): collections whose outcomes differ with some
//! test collection added are distinct elements, so the table never holds more elements than the
//! true quotient. Each candidate is then checked for every collection of heaps at once by a
//! finite search ([`verify`]); a failure yields a collection the candidate gets wrong, which
//! splits an element, until the check passes. A quotient returned is therefore proved: its
//! outcomes are right for every collection of heaps up to the bound, and its elements are
//! pairwise distinguishable, so it is the misère quotient itself.

pub mod learn;
pub mod monoid;
pub mod oracle;
pub mod verify;

use std::collections::HashSet;

use learn::Table;
use monoid::{Monoid, Presentation};
use oracle::Oracle;
use verify::{HeapImage, Verdict};

use crate::game::Outcome;
use crate::game::rules::one_heap::OctalCode;
use crate::solver::control::{Control, SolveError};

/// The largest heap bound a quotient is computed for.
pub const MAX_HEAPS: u16 = 1000;
/// The most elements a quotient may have before it is refused.
pub const MAX_ELEMENTS: usize = 20_000;
/// The most states one check may visit.
pub const MAX_STATES: usize = 4_000_000;

/// The quotient after each heap was added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    /// The heap bound of this stage.
    pub heap: u16,
    /// The number of elements of the quotient of heaps up to `heap`.
    pub size: usize,
    /// Whether that quotient is misère Nim's (tame).
    pub tame: bool,
    /// States the check of this stage's quotient visited.
    pub states: usize,
    /// Whether this heap needed the plain search (the previous quotient does not embed in
    /// this one: some of its elements split when this heap joins).
    pub split: bool,
}

/// The misère quotient of an octal game for heaps up to a bound.
#[derive(Debug, Clone)]
pub struct Quotient {
    code: OctalCode,
    heaps: u16,
    monoid: Monoid,
    /// `heap_element[h]` for `h` in `0..=heaps` (heap 0 is the identity).
    heap_element: Vec<u32>,
    presentation: Presentation,
    /// The heap whose element is each generator.
    generator_heaps: Vec<u16>,
    stages: Vec<Stage>,
    /// Test collections the learning needed.
    tests: usize,
}

impl Quotient {
    pub fn code(&self) -> &OctalCode {
        &self.code
    }

    /// The largest heap the quotient answers for.
    pub fn heaps(&self) -> u16 {
        self.heaps
    }

    pub fn monoid(&self) -> &Monoid {
        &self.monoid
    }

    pub fn size(&self) -> usize {
        self.monoid.size()
    }

    pub fn presentation(&self) -> &Presentation {
        &self.presentation
    }

    /// The heap whose element is each generator (`a`, `b`, … in order).
    pub fn generator_heaps(&self) -> &[u16] {
        &self.generator_heaps
    }

    /// The element of a heap of `h` tokens (`h ≤ heaps`).
    pub fn heap_element(&self, h: u16) -> u32 {
        self.heap_element[usize::from(h)]
    }

    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    pub fn tests(&self) -> usize {
        self.tests
    }

    /// Whether the quotient is misère Nim's.
    pub fn is_tame(&self) -> bool {
        self.stages.last().is_none_or(|s| s.tame)
    }

    /// The first heap whose quotient is not misère Nim's.
    pub fn first_wild_heap(&self) -> Option<u16> {
        self.stages.iter().find(|s| !s.tame).map(|s| s.heap)
    }

    /// The heaps at which the quotient grew (its size after the heap is larger than before).
    pub fn grew_at(&self) -> Vec<u16> {
        let mut last = 1;
        let mut out = Vec::new();
        for s in &self.stages {
            if s.size > last {
                out.push(s.heap);
            }
            last = s.size;
        }
        out
    }

    /// The element of a collection of heaps, or `None` when a heap is past the bound.
    pub fn element_of(&self, heaps: &[u64]) -> Option<u32> {
        heaps.iter().try_fold(0u32, |x, &h| {
            let h = u16::try_from(h).ok().filter(|&h| h <= self.heaps)?;
            Some(self.monoid.mul(x, self.heap_element(h)))
        })
    }

    /// The misère outcome of a collection of heaps, or `None` when a heap is past the bound.
    pub fn outcome(&self, heaps: &[u64]) -> Option<Outcome> {
        self.element_of(heaps)
            .map(|x| if self.monoid.is_p(x) { Outcome::P } else { Outcome::N })
    }

    /// The P-portion by normal forms, shortest first (an order that does not depend on how
    /// the elements were found).
    pub fn p_portion_names(&self) -> Vec<String> {
        let mut p: Vec<(u32, &Vec<u32>, u32)> = self
            .monoid
            .p_portion()
            .into_iter()
            .map(|x| {
                let w = &self.presentation.normal[x as usize];
                (w.iter().sum(), w, x)
            })
            .collect();
        p.sort();
        p.into_iter().map(|(_, _, x)| self.name(x)).collect()
    }

    /// An element by its normal form, e.g. `a^2b`.
    pub fn name(&self, x: u32) -> String {
        self.presentation.element(x)
    }
}

/// Computes the misère quotient of `code` for heaps up to `heaps`, heap by heap; progress is
/// the number of heaps done out of `heaps`.
pub fn compute(code: &OctalCode, heaps: u16, control: &Control) -> Result<Quotient, SolveError> {
    compute_with(code, heaps, control, &mut |_| {})
}

/// [`compute`], calling `stage_done` after each heap (for a view that shows the size grow).
pub fn compute_with(
    code: &OctalCode,
    heaps: u16,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
) -> Result<Quotient, SolveError> {
    if heaps > MAX_HEAPS {
        return Err(SolveError::Unsupported(format!(
            "misère quotients are computed for heaps up to {MAX_HEAPS}, not {heaps}"
        )));
    }
    control.set_total(u64::from(heaps));
    let mut oracle = Oracle::new(code, heaps);
    let mut table = Table::new(&mut oracle, control)?;
    let mut stages = Vec::new();
    let mut monoid = monoid_of(&table);
    for k in 1..=heaps {
        let size_before = table.elements();
        let at_heap = |e: SolveError| past_reach(e, k, size_before);
        // the fast oracle first; the plain one where the fast one's assumption fails
        oracle.set_canonical(true);
        table.add_heap(k, &mut oracle, control, MAX_ELEMENTS).map_err(at_heap)?;
        let states = loop {
            control.check()?;
            let progressed = match stage_step(&mut table, &mut oracle, control).map_err(at_heap)? {
                Step::Proved(states) => break states,
                Step::Learned => true,
                Step::Stuck => false,
            };
            if !progressed {
                if !oracle.canonical() {
                    return Err(SolveError::Unsupported(
                        "internal: the plain misère search contradicts the check of the quotient".into(),
                    ));
                }
                oracle.set_canonical(false);
                table = Table::with_tests(table.tests().to_vec(), k, &mut oracle, control, MAX_ELEMENTS)
                    .map_err(at_heap)?;
            }
        };
        monoid = monoid_of(&table);
        let elements: Vec<u32> = (0..=k).map(|h| table.run(0, &[h])).collect();
        oracle.set_known(k, monoid.clone(), elements);
        let stage = Stage {
            heap: k,
            size: table.elements(),
            tame: monoid.is_tame(),
            states,
            split: !oracle.canonical(),
        };
        stage_done(&stage);
        stages.push(stage);
        control.add_done(1);
    }
    let heap_element: Vec<u32> = (0..=heaps).map(|h| table.run(0, &[h])).collect();
    let mut generators = Vec::new();
    let mut generator_heaps = Vec::new();
    let mut generated: HashSet<u32> = HashSet::from([0]);
    for h in 1..=heaps {
        let e = heap_element[usize::from(h)];
        if !generated.contains(&e) {
            generators.push(e);
            generator_heaps.push(h);
            generated = closure(&monoid, &generators);
        }
    }
    let presentation = monoid
        .presentation(&generators)
        .ok_or_else(|| SolveError::Unsupported("internal: the heaps do not generate the quotient".into()))?;
    Ok(Quotient {
        code: code.clone(),
        heaps,
        monoid,
        heap_element,
        presentation,
        generator_heaps,
        stages,
        tests: table.tests().len(),
    })
}

/// A refusal while adding heap `k` says how far the quotient got.
fn past_reach(e: SolveError, k: u16, size: usize) -> SolveError {
    match e {
        SolveError::OverBudget { what, needed, budget } => SolveError::OverBudget {
            what: format!(
                "{what} at heap {k} (the quotient has {size} elements for heaps up to {})",
                k - 1
            ),
            needed,
            budget,
        },
        e => e,
    }
}

/// What one round of learning did.
enum Step {
    /// The candidate gives every outcome right and its elements are distinct: this many states
    /// were checked.
    Proved(usize),
    /// The table grew.
    Learned,
    /// The oracle contradicted itself (its assumption failed).
    Stuck,
}

/// One round: makes the table commutative, checks the candidate, and learns from a failure.
fn stage_step(table: &mut Table, oracle: &mut Oracle, control: &Control) -> Result<Step, SolveError> {
    if let Some((x, h, j)) = table.non_commuting() {
        let grew = table.fix_commutativity(x, h, j, oracle, control, MAX_ELEMENTS)?;
        return Ok(if grew { Step::Learned } else { Step::Stuck });
    }
    let monoid = monoid_of(table);
    let images = heap_images(table, oracle);
    match verify::check(&monoid, &images, control, MAX_STATES)? {
        Verdict::Holds { states } => Ok(if monoid.is_reduced() {
            Step::Proved(states)
        } else {
            Step::Stuck
        }),
        Verdict::Fails(g) => {
            let Some(wrong) = counterexample(table, oracle, &g, control)? else {
                return Ok(Step::Stuck);
            };
            let grew = table.learn_from(&wrong, oracle, control, MAX_ELEMENTS)?;
            Ok(if grew { Step::Learned } else { Step::Stuck })
        }
    }
}

/// The submonoid generated by `generators`.
fn closure(m: &Monoid, generators: &[u32]) -> HashSet<u32> {
    let mut seen: HashSet<u32> = HashSet::from([0]);
    let mut todo = vec![0u32];
    while let Some(x) = todo.pop() {
        for &g in generators {
            let y = m.mul(x, g);
            if seen.insert(y) {
                todo.push(y);
            }
        }
    }
    seen
}

/// The candidate monoid of a commutative table: `x·y` is `x` plus the collection of `y`.
fn monoid_of(table: &Table) -> Monoid {
    let n = table.elements();
    let mut mul = vec![0u32; n * n];
    for x in 0..n {
        for (y, rep) in table.reps().iter().enumerate() {
            mul[x * n + y] = table.run(x as u32, rep);
        }
    }
    let p = (0..n as u32).map(|x| table.is_p(x)).collect();
    Monoid::new(n, mul, p)
}

/// Each heap's element and its options' elements in the candidate.
fn heap_images(table: &Table, oracle: &Oracle) -> Vec<HeapImage> {
    (0..=table.heaps())
        .map(|h| {
            let mut options: Vec<u32> = oracle.heap_options(h).iter().map(|o| table.run(0, o)).collect();
            options.sort_unstable();
            options.dedup();
            HeapImage {
                element: table.run(0, &[h]),
                options,
            }
        })
        .collect()
}

/// Where the check failed at `g`, the candidate errs on `g` or on one of its options: the first
/// of them whose predicted outcome the oracle calls wrong (`None` if it calls none wrong: the
/// oracle's assumption failed).
fn counterexample(
    table: &Table,
    oracle: &mut Oracle,
    g: &[u16],
    control: &Control,
) -> Result<Option<Vec<u16>>, SolveError> {
    let wrong = |c: &[u16], oracle: &mut Oracle| -> Result<bool, SolveError> {
        Ok(table.is_p(table.run(0, c)) != oracle.is_p(c, control)?)
    };
    if wrong(g, oracle)? {
        return Ok(Some(g.to_vec()));
    }
    for i in 0..g.len() {
        let options = oracle.heap_options(g[i]).to_vec();
        for o in options {
            let mut c: Vec<u16> = g[..i].iter().chain(&g[i + 1..]).chain(&o).copied().collect();
            c.sort_unstable();
            if wrong(&c, oracle)? {
                return Ok(Some(c));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
