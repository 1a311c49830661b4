//! Growing the quotient by one heap without searching collections of heaps (the method of
//! Plambeck and Siegel, "Misère quotients for impartial games", written from its description).
//!
//! A *candidate* for heaps up to `n` is a finite commutative monoid `M` with an element for
//! each heap: the quotient so far, where some heaps are *freed* (taken out of it and counted
//! in a cyclic monoid of their own, `x^(i+p) = x^i`, as a direct factor). Its P-portion is not
//! guessed but *marked*: the elements of `M` are visited in order of the fewest tokens of a
//! collection reaching them, and each is a P-position exactly when that lightest collection
//! has a move and none of its options (fewer tokens, so marked already) is. Merging the
//! elements no collection tells apart (Moore's partition refinement over the heaps' actions)
//! gives a reduced candidate, which [`super::verify`] checks for every collection at once.
//! Where the check fails, it fails first (fewest tokens) at a collection `G` all of whose
//! lighter collections the candidate gets right, so `G`'s true outcome is the one its options
//! say: the candidate identified `G` with a lighter collection it must not. Freeing some of
//! `G`'s heaps (the first set, most heaps first, that makes the new candidate give `G` and the
//! earlier failures right; then heaps of the lighter collection, then longer cycles) gives the
//! next candidate. A candidate that passes the check is the
//! quotient itself: right for every collection, and reduced.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::monoid::Monoid;
use super::verify::{self, Verdict};
use crate::game::rules::one_heap::{OctalCode, OctalOption};
use crate::solver::control::{Control, SolveError};

mod candidate;
pub mod moves;
use candidate::{Freed, Product};
pub use moves::HeapMoves;

/// A collection of heaps, as heap sizes.
pub type Heaps = Vec<u16>;

/// The most elements of a product monoid a candidate may enumerate.
pub const MAX_PRODUCT: usize = 1 << 17;
/// The most candidates tried for one heap.
pub const MAX_ROUNDS: usize = 500;
/// The most product elements marked for one heap, over all its candidates (a bound on the work
/// spent looking for a heap's relations; the quotient of 0.07 up to heap 33 needs under 2^18).
pub const MAX_MARKED: usize = 1 << 21;

/// Each heap's options, as the heaps each leaves (`options[h]`, sorted, for `h ≤ bound`).
pub fn heap_options(code: &OctalCode, bound: u16) -> Vec<Vec<Heaps>> {
    (0..=bound).map(|h| heap_options_of(code, h)).collect()
}

/// The options of a heap of `h`, as the heaps each leaves (sorted).
pub fn heap_options_of(code: &OctalCode, h: u16) -> Vec<Heaps> {
    let mut single = Vec::new();
    code.options(u64::from(h), &mut single);
    single
        .iter()
        .map(|o| {
            let mut left: Heaps = match *o {
                OctalOption::Gone => vec![],
                OctalOption::One(x) => vec![x as u16],
                OctalOption::Two(x, y) => vec![x as u16, y as u16],
                OctalOption::Three(x, y, z) => vec![x as u16, y as u16, z as u16],
            };
            left.retain(|&x| x > 0);
            left.sort_unstable();
            left
        })
        .collect()
}

/// A monoid with an element for each heap `0..heap_element.len()` (the identity `0` for heap
/// 0 and for heaps without a move).
#[derive(Debug, Clone)]
pub struct Pretension {
    /// The candidate monoid, with its P-portion.
    pub monoid: Monoid,
    /// `heap_element[h]`: the element of a heap of `h` tokens.
    pub heap_element: Vec<u32>,
}

impl Pretension {
    /// The quotient of no heap with a move: the identity alone, an N-position.
    pub fn trivial() -> Self {
        Pretension {
            monoid: Monoid::new(1, vec![0], vec![false]),
            heap_element: vec![0],
        }
    }

    /// The element of a collection of heaps: the product of the heaps' elements.
    pub fn element_of(&self, heaps: &[u16]) -> u32 {
        heaps
            .iter()
            .fold(0, |x, &h| self.monoid.mul(x, self.heap_element[usize::from(h)]))
    }
}

/// What growing by one heap took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Effort {
    /// Candidates checked.
    pub candidates: usize,
    /// States the last (passing) check visited.
    pub states: usize,
}

/// The quotient for heaps up to `n = prev.heap_element.len()`, from the proved quotient `prev`
/// for the heaps below it.
pub fn add_heap(
    prev: &Pretension,
    options: &HeapMoves,
    control: &Control,
    max_elements: usize,
    max_states: usize,
) -> Result<(Pretension, Effort), SolveError> {
    let n = prev.heap_element.len() as u16;
    let mut effort = Effort::default();
    if !options.has_move(n) {
        let mut next = prev.clone();
        next.heap_element.push(0);
        return Ok((next, effort));
    }
    // the new heap free, with x^4 = x^2, beside the quotient so far
    let mut base_map = prev.heap_element.clone();
    base_map.push(0);
    let mut current = Product::new(&prev.monoid, base_map, vec![Freed::new(n, 2, 2)])
        .mark(options, control, max_elements)?
        .ok_or_else(|| super::too_large(max_elements, n))?
        .pretension;
    // collections a candidate failed on, with their true outcomes (P when `true`)
    let mut known: Vec<(Heaps, bool)> = Vec::new();
    let marked = std::cell::Cell::new(0usize);
    loop {
        control.check()?;
        effort.candidates += 1;
        if current.monoid.size() > max_elements {
            return Err(super::too_large(current.monoid.size(), n));
        }
        let images = options.images(&current, control)?;
        match verify::check(&current.monoid, &images, control, max_states)? {
            Verdict::Holds { states } => {
                if !current.monoid.is_reduced() {
                    return Err(SolveError::Unsupported(
                        "internal: a marked candidate of the misère quotient is not reduced".into(),
                    ));
                }
                effort.states = states;
                return Ok((current, effort));
            }
            Verdict::Fails(g) => {
                if effort.candidates >= MAX_ROUNDS {
                    return Err(SolveError::Unsupported(format!(
                        "the misère quotient's relations at heap {n} were not found in {MAX_ROUNDS} candidates"
                    )));
                }
                let truth = !current.monoid.is_p(current.element_of(&g));
                known.push((g.clone(), truth));
                current = recalibrate(&current, &g, &known, options, control, max_elements, &marked)?.ok_or_else(|| {
                    SolveError::Unsupported(format!(
                        "the misère quotient's relations at heap {n} were not found (no candidate gives {g:?} right)"
                    ))
                })?;
            }
        }
    }
}

/// The next candidate after `current` errs on `g`: the first, by most of `g`'s heaps freed
/// (fewer candidates follow than from the fewest), that gives `g` and every collection `known`
/// (with its true outcome, P when `true`; `g` among them) right; then sets with heaps of the
/// lighter collection `g` was taken for; then all of `g`'s heaps freed with longer cycles.
fn recalibrate(
    current: &Pretension,
    g: &[u16],
    known: &[(Heaps, bool)],
    options: &HeapMoves,
    control: &Control,
    max_elements: usize,
    marked: &std::cell::Cell<usize>,
) -> Result<Option<Pretension>, SolveError> {
    let mut heaps: Vec<u16> = g.to_vec();
    heaps.sort_unstable();
    heaps.dedup();
    let lighter = lightest_word(current, options, current.element_of(g));
    let exponent = |h: u16| g.iter().filter(|&&x| x == h).count() as u32;
    let freed_for = |h: u16, stretch: u32| {
        let (index, _) = cyclic(&current.monoid, current.heap_element[usize::from(h)]);
        let index = index.max(exponent(h).saturating_sub(1)) + 2 * stretch;
        let period = 2u32.max(2 * (index.saturating_sub(4) / 2)) << stretch;
        Freed::new(h, index, period)
    };
    let too_large = std::cell::Cell::new(false);
    let attempt = |subset: &[u16], stretch: u32| -> Result<Option<Pretension>, SolveError> {
        let mut base_map = current.heap_element.clone();
        for &h in subset {
            base_map[usize::from(h)] = 0;
        }
        let freed = subset.iter().map(|&h| freed_for(h, stretch)).collect();
        let product = Product::new(&current.monoid, base_map, freed);
        if product.size() > MAX_PRODUCT {
            too_large.set(true);
            return Ok(None);
        }
        marked.set(marked.get() + product.size());
        if marked.get() > MAX_MARKED {
            return Err(SolveError::Unsupported(format!(
                "the misère quotient's relations at heap {} were not found within {MAX_MARKED} marked elements",
                current.heap_element.len() - 1
            )));
        }
        let Some(marked) = product.mark(options, control, max_elements)? else {
            too_large.set(true);
            return Ok(None);
        };
        let right = known.iter().all(|(k, truth)| marked.is_p(&product, k) == *truth);
        Ok(right.then_some(marked.pretension))
    };
    for size in (1..=heaps.len()).rev() {
        for subset in combinations(&heaps, size) {
            if let Some(p) = attempt(&subset, 0)? {
                return Ok(Some(p));
            }
        }
    }
    // the lighter collection `g` was taken for: free its heaps too
    let mut both: Vec<u16> = heaps.iter().chain(&lighter).copied().collect();
    both.sort_unstable();
    both.dedup();
    if both.len() > heaps.len() {
        for size in 1..=both.len() {
            for subset in combinations(&both, size) {
                if subset.iter().any(|h| !heaps.contains(h))
                    && let Some(p) = attempt(&subset, 0)?
                {
                    return Ok(Some(p));
                }
            }
        }
    }
    for stretch in 1..=3 {
        if let Some(p) = attempt(&heaps, stretch)? {
            return Ok(Some(p));
        }
    }
    if too_large.get() {
        // some candidate that might have given `g` right was too large to try
        return Err(super::too_large(max_elements, (current.heap_element.len() - 1) as u16));
    }
    Ok(None)
}

/// A lightest collection ([`HeapMoves::weight`]: the fewest tokens, for a code whose moves all
/// take some) reaching `target` (the first found among equals).
fn lightest_word(p: &Pretension, options: &HeapMoves, target: u32) -> Heaps {
    let n = p.monoid.size();
    let mut dist = vec![u32::MAX; n];
    let mut parent: Vec<(u32, u16)> = vec![(0, 0); n];
    let mut queue = BinaryHeap::new();
    dist[0] = 0;
    queue.push(Reverse((0u32, 0u32)));
    while let Some(Reverse((d, x))) = queue.pop() {
        if d > dist[x as usize] {
            continue;
        }
        if x == target {
            break;
        }
        for h in 1..p.heap_element.len() as u16 {
            if !options.has_move(h) {
                continue;
            }
            let y = p.monoid.mul(x, p.heap_element[usize::from(h)]);
            let nd = d + options.weight(h);
            if nd < dist[y as usize] {
                dist[y as usize] = nd;
                parent[y as usize] = (x, h);
                queue.push(Reverse((nd, y)));
            }
        }
    }
    let mut w = Vec::new();
    let mut x = target;
    while x != 0 && dist[x as usize] != u32::MAX {
        let (from, h) = parent[x as usize];
        w.push(h);
        x = from;
    }
    w.sort_unstable();
    w
}

/// The index and period of `x`'s powers: `x^(index + period) = x^index`, both least.
fn cyclic(m: &Monoid, x: u32) -> (u32, u32) {
    let mut seen: HashMap<u32, u32> = HashMap::new();
    let mut y = 0;
    for k in 0.. {
        if let Some(&i) = seen.get(&y) {
            return (i, k - i);
        }
        seen.insert(y, k);
        y = m.mul(y, x);
    }
    unreachable!("a finite monoid's powers repeat")
}

/// The subsets of `items` of `size` elements, in lexicographic order.
fn combinations(items: &[u16], size: usize) -> Vec<Vec<u16>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..size).collect();
    if size > items.len() {
        return out;
    }
    loop {
        out.push(pick.iter().map(|&i| items[i]).collect());
        let Some(i) = (0..size).rev().find(|&i| pick[i] < items.len() - size + i) else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..size {
            pick[j] = pick[j - 1] + 1;
        }
    }
}
