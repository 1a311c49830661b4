//! Misère quotients of octal games (Plambeck and Siegel, "Misère quotients for impartial
//! games", J. Combin. Theory A 115 (2008)): for an octal game restricted to heaps of at most
//! `n`, the finite commutative monoid of its collections of heaps up to indistinguishability,
//! with its P-portion and each heap's element. The misère outcome of any collection of those
//! heaps is then a product in the monoid and a look-up.
//!
//! The quotient is grown heap by heap by the published method ([`extend`]): the quotient so far
//! with the new heap beside it as a free cyclic factor, its P-portion marked from the options
//! of each element's lightest collection, reduced, and checked for every collection of heaps
//! at once by a finite search ([`verify`]); where the check fails, some heaps of the collection
//! it fails at are freed and the candidate marked again. No collection of heaps is searched. A
//! quotient returned is therefore proved: its outcomes are right for every collection of heaps
//! up to the bound, and its elements are pairwise distinguishable, so it is the misère quotient
//! itself.

pub mod cache;
pub mod extend;
pub mod monoid;
pub mod outcomes;
pub mod shared;
pub mod verify;

use std::collections::HashSet;

use extend::Pretension;
use monoid::{Monoid, Presentation};

use crate::game::Outcome;
use crate::game::rules::one_heap::OctalCode;
use crate::solver::control::{Control, SolveError};

/// The largest heap bound a quotient is computed for.
pub const MAX_HEAPS: u16 = 1000;
/// The most elements a quotient may have before it is refused.
pub const MAX_ELEMENTS: usize = 2_048;
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
    /// Whether some elements of the previous quotient split when this heap joins (the heaps
    /// below it reach more elements than before).
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
    /// Candidates checked over all heaps.
    candidates: usize,
}

impl Quotient {
    /// The octal game the quotient is of.
    pub fn code(&self) -> &OctalCode {
        &self.code
    }

    /// The largest heap the quotient answers for.
    pub fn heaps(&self) -> u16 {
        self.heaps
    }

    /// The quotient monoid, with its P-portion.
    pub fn monoid(&self) -> &Monoid {
        &self.monoid
    }

    /// Number of elements of the quotient.
    pub fn size(&self) -> usize {
        self.monoid.size()
    }

    /// Generators, normal forms and relations of the monoid.
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

    /// The quotient after each heap was added, in heap order.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// Candidate quotients checked over all heaps.
    pub fn candidates(&self) -> usize {
        self.candidates
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
/// the number of heaps done out of `heaps`. A quotient computed before (in this process, or
/// kept in the user's cache folder: [`cache`]) is reused, and grown on from where it stopped.
pub fn compute(code: &OctalCode, heaps: u16, control: &Control) -> Result<Quotient, SolveError> {
    compute_with(code, heaps, control, &mut |_| {})
}

/// [`compute`], calling `stage_done` after each heap (for a view that shows the size grow; the
/// stages of a quotient taken from the cache are given at once).
pub fn compute_with(
    code: &OctalCode,
    heaps: u16,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
) -> Result<Quotient, SolveError> {
    match cache::exactly(code, heaps, control, stage_done)? {
        (q, None) => Ok(q),
        (_, Some(e)) => Err(e),
    }
}

/// The quotient grown heap by heap towards `heaps` as far as it goes: the quotient for heaps up
/// to the last heap added (or a larger one kept from before, which answers every collection of
/// heaps up to `heaps` as well), and why it stopped before `heaps` if it did (a map or a
/// position past its reach still gets every collection of the heaps below from it). Cancelled,
/// it is an error.
pub fn compute_as_far_as(
    code: &OctalCode,
    heaps: u16,
    control: &Control,
) -> Result<(Quotient, Option<SolveError>), SolveError> {
    cache::at_least(code, heaps, control, &mut |_| {}, &mut |_, _| {})
}

/// [`compute_as_far_as`] under `limited`, with the job's progress (`job`) naming the growth
/// and, after each heap, which heap it has done (the growth may stop well before `heaps`), or
/// the heaps another job's growth has done while this one waits for it; the stage is cleared
/// after.
pub fn compute_as_far_as_named(
    code: &OctalCode,
    heaps: u16,
    limited: &Control,
    job: &Control,
) -> Result<(Quotient, Option<SolveError>), SolveError> {
    let stage = format!("the misère quotient of octal({code}) up to heap {heaps}");
    job.set_stage(stage.clone());
    let grown = cache::at_least(
        code,
        heaps,
        limited,
        &mut |s: &Stage| job.set_stage(format!("{stage} (heap {} done, {} elements)", s.heap, s.size)),
        &mut |heap, size| {
            job.set_stage(format!(
                "{stage} (grown by another job: heap {heap} done, {size} elements)"
            ))
        },
    );
    job.set_stage("");
    grown
}

/// A growth under way: the proved quotient for the heaps added so far, as a pretension, with
/// what each heap took.
#[derive(Debug, Clone)]
pub(crate) struct Growth {
    current: Pretension,
    stages: Vec<Stage>,
    candidates: usize,
}

impl Growth {
    fn start() -> Self {
        Growth {
            current: Pretension::trivial(),
            stages: Vec::new(),
            candidates: 0,
        }
    }

    /// The heaps added.
    fn heaps(&self) -> u16 {
        self.stages.len() as u16
    }
}

/// What growing to `heaps` holds besides the quotients, known before it starts: the options
/// listed for the heaps a candidate's lightest collections hold (at most twice the largest
/// heap's kept, and one more heap's being listed) and the sums of parts' bit sets (three rows of
/// [`MAX_ELEMENTS`] bits for every heap).
pub fn growth_bytes(code: &OctalCode, heaps: u16) -> u64 {
    let listing = (1..=heaps).map(|k| listing_bytes(code, k)).max().unwrap_or(0);
    held_bytes(listing, heaps)
}

/// [`growth_bytes`] from the largest heap's listing.
fn held_bytes(listing: u64, heaps: u16) -> u64 {
    keep_bytes(listing)
        .saturating_add(listing)
        .saturating_add((u64::from(heaps) + 1) * 3 * (MAX_ELEMENTS as u64 / 8))
}

/// The bytes of the listed options of a heap of `k`.
fn listing_bytes(code: &OctalCode, k: u16) -> u64 {
    let ruleset = crate::game::Ruleset::Octal(code.clone());
    let count = crate::game::rules::paging::option_count(&ruleset, &crate::game::Position::Heaps(vec![u64::from(k)]))
        .unwrap_or(u128::MAX);
    u64::try_from(count)
        .unwrap_or(u64::MAX)
        .saturating_mul(extend::moves::OPTION_BYTES)
}

/// The listed options kept at once, for a largest heap's listing of `listing` bytes.
fn keep_bytes(listing: u64) -> u64 {
    listing.saturating_mul(2).max(1 << 20)
}

/// Refuses, before any work, a growth to `heaps` whose options cannot be held within the
/// budget (see [`growth_bytes`]).
pub fn admit_growth(code: &OctalCode, heaps: u16, control: &Control) -> Result<(), SolveError> {
    if heaps > MAX_HEAPS {
        return Err(SolveError::Unsupported(format!(
            "misère quotients are computed for heaps up to {MAX_HEAPS}, not {heaps}"
        )));
    }
    control.reserve(
        format!("the options of heaps up to {heaps} as the misère quotient grows"),
        growth_bytes(code, heaps),
    )
}

/// Grows `g` heap by heap up to `heaps` (or until a heap is past reach: the error is returned
/// beside the growth so far). What the growth holds is charged to the budget before it starts
/// ([`growth_bytes`]): where the whole growth does not fit, it goes as far as fits and says so.
fn grow_from(
    code: &OctalCode,
    mut g: Growth,
    heaps: u16,
    control: &Control,
    stage_done: &mut dyn FnMut(&Stage),
    after_heap: &mut dyn FnMut(&Growth),
) -> Result<(Growth, Option<SolveError>), SolveError> {
    if heaps > MAX_HEAPS {
        return Err(SolveError::Unsupported(format!(
            "misère quotients are computed for heaps up to {MAX_HEAPS}, not {heaps}"
        )));
    }
    control.set_total(u64::from(heaps));
    control.add_done(u64::from(g.heaps()));
    // the largest bound whose growth fits the budget (what it holds grows with the bound), and
    // the refusal of the next
    let mut reach = heaps;
    let mut stopped = None;
    let mut listing = 0;
    for k in 1..=heaps {
        let more = listing.max(listing_bytes(code, k));
        if k > g.heaps()
            && let Err(e) = control.reserve(
                format!("the options of heaps up to {k} as the misère quotient grows"),
                held_bytes(more, k),
            )
        {
            reach = k - 1;
            stopped = Some(past_reach(e, k, g.current.monoid.size()));
            break;
        }
        listing = more;
    }
    let options = extend::HeapMoves::new(code, reach, keep_bytes(listing));
    for k in g.heaps() + 1..=reach {
        control.check()?;
        let size_before = g.current.monoid.size();
        let (next, effort) = match extend::add_heap(&g.current, &options, control, MAX_ELEMENTS, MAX_STATES) {
            Ok(grown) => grown,
            Err(SolveError::Cancelled) => return Err(SolveError::Cancelled),
            Err(e) => {
                stopped = Some(past_reach(e, k, size_before));
                break;
            }
        };
        g.candidates += effort.candidates;
        // elements of the previous quotient split when the heaps below k reach more elements now
        let below: Vec<u32> = next.heap_element[..usize::from(k)].to_vec();
        let split = closure(&next.monoid, &below).len() > size_before;
        g.current = next;
        let stage = Stage {
            heap: k,
            size: g.current.monoid.size(),
            tame: g.current.monoid.is_tame(),
            states: effort.states,
            split,
        };
        stage_done(&stage);
        g.stages.push(stage);
        after_heap(&g);
        control.add_done(1);
    }
    Ok((g, stopped))
}

/// The quotient of a growth: its generators (the first heap of each new element) and its
/// presentation.
fn finish(code: &OctalCode, g: Growth) -> Result<Quotient, SolveError> {
    let heaps = g.heaps();
    let Growth {
        current: Pretension { monoid, heap_element },
        stages,
        candidates,
    } = g;
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
        candidates,
    })
}

impl Quotient {
    /// The growth this quotient ends, to grow it on.
    fn growth(&self) -> Growth {
        Growth {
            current: Pretension {
                monoid: self.monoid.clone(),
                heap_element: self.heap_element.clone(),
            },
            stages: self.stages.clone(),
            candidates: self.candidates,
        }
    }
}

/// A refusal while adding heap `k` says how far the quotient got.
fn past_reach(e: SolveError, k: u16, size: usize) -> SolveError {
    let so_far = format!("the quotient has {size} elements for heaps up to {}", k - 1);
    match e {
        SolveError::OverBudget { what, needed, budget } => SolveError::OverBudget {
            what: format!("{what} at heap {k} ({so_far})"),
            needed,
            budget,
        },
        SolveError::Unsupported(m) => SolveError::Unsupported(format!("{m} ({so_far})")),
        e => e,
    }
}

/// The refusal of a quotient past the largest size allowed.
pub fn too_large(size: usize, heaps: u16) -> SolveError {
    SolveError::Unsupported(format!(
        "at heap {heaps} the misère quotient's candidates grow past {size} elements, more than this tool keeps"
    ))
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

#[cfg(test)]
mod tests;
