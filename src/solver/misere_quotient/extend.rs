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
use super::verify::{self, HeapImage, Verdict};
use crate::game::rules::one_heap::{OctalCode, OctalOption};
use crate::solver::control::{Control, SolveError};

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
    let mut single = Vec::new();
    (0..=bound)
        .map(|h| {
            single.clear();
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
        })
        .collect()
}

/// A monoid with an element for each heap `0..heap_element.len()` (the identity `0` for heap
/// 0 and for heaps without a move).
#[derive(Debug, Clone)]
pub struct Pretension {
    pub monoid: Monoid,
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

    pub fn element_of(&self, heaps: &[u16]) -> u32 {
        heaps
            .iter()
            .fold(0, |x, &h| self.monoid.mul(x, self.heap_element[usize::from(h)]))
    }

    /// Each heap's element and its options' elements, for the check.
    pub fn images(&self, options: &[Vec<Heaps>]) -> Vec<HeapImage> {
        (0..self.heap_element.len())
            .map(|h| {
                let mut o: Vec<u32> = options[h].iter().map(|o| self.element_of(o)).collect();
                o.sort_unstable();
                o.dedup();
                HeapImage {
                    element: self.heap_element[h],
                    options: o,
                }
            })
            .collect()
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
    options: &[Vec<Heaps>],
    control: &Control,
    max_elements: usize,
    max_states: usize,
) -> Result<(Pretension, Effort), SolveError> {
    let n = prev.heap_element.len() as u16;
    let mut effort = Effort::default();
    if options[usize::from(n)].is_empty() {
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
        let images = current.images(options);
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
    options: &[Vec<Heaps>],
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

/// A collection with the fewest tokens reaching `target` (the first found among equals).
fn lightest_word(p: &Pretension, options: &[Vec<Heaps>], target: u32) -> Heaps {
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
            if options[usize::from(h)].is_empty() {
                continue;
            }
            let y = p.monoid.mul(x, p.heap_element[usize::from(h)]);
            let nd = d + u32::from(h);
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

/// A heap taken out of the quotient and counted in the cyclic monoid `x^(index+period) =
/// x^index`.
#[derive(Debug, Clone, Copy)]
struct Freed {
    heap: u16,
    index: u32,
    period: u32,
}

impl Freed {
    fn new(heap: u16, index: u32, period: u32) -> Self {
        Self {
            heap,
            index,
            period: period.max(1),
        }
    }

    fn len(&self) -> u32 {
        self.index + self.period
    }

    fn next(&self, c: u32) -> u32 {
        if c + 1 == self.len() { self.index } else { c + 1 }
    }
}

/// A base monoid times one cyclic monoid for each freed heap; an element is the base element
/// plus `base size ×` the freed counters in mixed radix.
struct Product<'a> {
    base: &'a Monoid,
    /// Each heap's base element (the identity for a freed heap).
    base_map: Vec<u32>,
    freed: Vec<Freed>,
    /// `stride[j]`: the place value of freed counter `j`.
    stride: Vec<usize>,
    size: usize,
}

/// A candidate marked and reduced, with the class of each product element it reached.
struct Marked {
    pretension: Pretension,
    /// The class of each product element (`u32::MAX` where not reached).
    class: Vec<u32>,
}

impl Marked {
    fn is_p(&self, product: &Product, g: &[u16]) -> bool {
        let e = g.iter().fold(0, |e, &h| product.act(e, h));
        let c = self.class[e as usize];
        c != u32::MAX && self.pretension.monoid.is_p(c)
    }
}

impl<'a> Product<'a> {
    fn new(base: &'a Monoid, base_map: Vec<u32>, freed: Vec<Freed>) -> Self {
        let mut stride = Vec::with_capacity(freed.len());
        let mut size = base.size();
        for f in &freed {
            stride.push(size);
            size = size.saturating_mul(f.len() as usize);
        }
        Self {
            base,
            base_map,
            freed,
            stride,
            size,
        }
    }

    fn size(&self) -> usize {
        self.size
    }

    /// The element `e` plus a heap of `h`.
    fn act(&self, e: u32, h: u16) -> u32 {
        let e = e as usize;
        if let Some(j) = self.freed.iter().position(|f| f.heap == h) {
            let f = &self.freed[j];
            let c = (e / self.stride[j]) % f.len() as usize;
            let d = f.next(c as u32) as usize;
            return (e - c * self.stride[j] + d * self.stride[j]) as u32;
        }
        let nb = self.base.size();
        let b = e % nb;
        (e - b + self.base.mul(b as u32, self.base_map[usize::from(h)]) as usize) as u32
    }

    /// One heap per distinct action (the lightest), skipping heaps that act as the identity:
    /// the heaps acting, and each heap's action (its index among them).
    fn distinct_actions(&self, options: &[Vec<Heaps>]) -> (Vec<u16>, Vec<Option<usize>>) {
        let heaps = self.base_map.len() as u16;
        let mut actions: Vec<u16> = Vec::new();
        let mut action_of: Vec<Option<usize>> = vec![None; usize::from(heaps)];
        let mut by_base: HashMap<u32, usize> = HashMap::new();
        for h in 1..heaps {
            if options[usize::from(h)].is_empty() {
                continue;
            }
            let a = if self.freed.iter().any(|f| f.heap == h) {
                actions.push(h);
                actions.len() - 1
            } else {
                let b = self.base_map[usize::from(h)];
                if b == 0 {
                    continue;
                }
                *by_base.entry(b).or_insert_with(|| {
                    actions.push(h);
                    actions.len() - 1
                })
            };
            action_of[usize::from(h)] = Some(a);
        }
        (actions, action_of)
    }

    /// The candidate's elements in the order of their lightest collections (Dijkstra by tokens
    /// from the identity): each element's parent and last heap, its place in the order, and
    /// the order.
    #[expect(clippy::type_complexity, reason = "three parallel tables of one search")]
    fn lightest_collections(
        &self,
        actions: &[u16],
        control: &Control,
    ) -> Result<(Vec<(u32, u16)>, Vec<u32>, Vec<u32>), SolveError> {
        let mut dist = vec![u32::MAX; self.size];
        let mut parent: Vec<(u32, u16)> = vec![(u32::MAX, 0); self.size];
        let mut local = vec![u32::MAX; self.size];
        let mut order: Vec<u32> = Vec::new();
        let mut queue = BinaryHeap::new();
        dist[0] = 0;
        queue.push(Reverse((0u32, 0u32)));
        while let Some(Reverse((d, e))) = queue.pop() {
            if d > dist[e as usize] || local[e as usize] != u32::MAX {
                continue;
            }
            local[e as usize] = order.len() as u32;
            order.push(e);
            if order.len().is_multiple_of(4096) {
                control.check()?;
            }
            for &h in actions {
                let f = self.act(e, h);
                let nd = d + u32::from(h);
                if nd < dist[f as usize] {
                    dist[f as usize] = nd;
                    parent[f as usize] = (e, h);
                    queue.push(Reverse((nd, f)));
                }
            }
        }
        Ok((parent, local, order))
    }

    /// Marks the P-portion by lightest collections and reduces; `None` when the reduced
    /// candidate has more than `max_elements` elements.
    fn mark(
        &self,
        options: &[Vec<Heaps>],
        control: &Control,
        max_elements: usize,
    ) -> Result<Option<Marked>, SolveError> {
        let heaps = self.base_map.len() as u16;
        let (actions, action_of) = self.distinct_actions(options);
        control.reserve(
            "the candidate misère quotient",
            self.size as u64 * 16 + self.size as u64 * 4 * actions.len() as u64,
        )?;
        let (parent, local, order) = self.lightest_collections(&actions, control)?;
        let word = |mut e: u32| -> Heaps {
            let mut w = Vec::new();
            while e != 0 {
                let (from, h) = parent[e as usize];
                w.push(h);
                e = from;
            }
            w.reverse();
            w
        };
        // mark: a lightest collection is P when it has a move and no option is P
        let mut p = vec![false; order.len()];
        for (i, &e) in order.iter().enumerate() {
            if i % 1024 == 0 {
                control.check()?;
            }
            let w = word(e);
            if w.is_empty() {
                continue;
            }
            let mut is_p = true;
            let mut last = 0;
            'heaps: for (k, &h) in w.iter().enumerate() {
                if h == last {
                    continue;
                }
                last = h;
                let rest = w
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .fold(0, |x, (_, &y)| self.act(x, y));
                for o in &options[usize::from(h)] {
                    let x = o.iter().fold(rest, |x, &y| self.act(x, y));
                    let l = local[x as usize];
                    if l == u32::MAX || l as usize >= i {
                        return Err(SolveError::Unsupported(
                            "internal: an option is not lighter than its collection".into(),
                        ));
                    }
                    if p[l as usize] {
                        is_p = false;
                        break 'heaps;
                    }
                }
            }
            p[i] = is_p;
        }
        // reduce: Moore's refinement over the actions
        let trans: Vec<u32> = order
            .iter()
            .flat_map(|&e| actions.iter().map(move |&h| (e, h)))
            .map(|(e, h)| local[self.act(e, h) as usize])
            .collect();
        let a = actions.len();
        let Some((class, classes)) = moore_refinement(&p, &trans, a, max_elements, control)? else {
            return Ok(None);
        };
        if classes > max_elements {
            return Ok(None);
        }
        // the reduced monoid: x · y runs y's lightest collection from x
        let mut first = vec![usize::MAX; classes];
        for (i, &c) in class.iter().enumerate() {
            let c = c as usize;
            if first[c] == usize::MAX {
                first[c] = i;
            }
        }
        let act_class = |c: u32, ai: usize| class[trans[first[c as usize] * a + ai] as usize];
        let words: Vec<Vec<usize>> = first
            .iter()
            .map(|&i| {
                word(order[i])
                    .iter()
                    .filter_map(|&h| action_of[usize::from(h)])
                    .collect()
            })
            .collect();
        control.reserve("the misère quotient's table", (classes * classes * 4) as u64)?;
        let mut mul = vec![0u32; classes * classes];
        for x in 0..classes {
            for (y, w) in words.iter().enumerate() {
                mul[x * classes + y] = w.iter().fold(x as u32, |c, &ai| act_class(c, ai));
            }
        }
        let p_class: Vec<bool> = first.iter().map(|&i| p[i]).collect();
        let heap_element: Vec<u32> = (0..heaps)
            .map(|h| match action_of[usize::from(h)] {
                Some(ai) => act_class(0, ai),
                None => 0,
            })
            .collect();
        let mut class_of = vec![u32::MAX; self.size];
        for (i, &e) in order.iter().enumerate() {
            class_of[e as usize] = class[i];
        }
        Ok(Some(Marked {
            pretension: Pretension {
                monoid: Monoid::new(classes, mul, p_class),
                heap_element,
            },
            class: class_of,
        }))
    }
}

/// Moore's refinement: the coarsest classes of the `p.len()` states that keep P apart from N
/// and are kept by each of the `a` actions (`trans[i * a + k]`: state `i` under action `k`),
/// numbered by first appearance (the identity's is 0), and their number; `None` past
/// `max_elements`.
fn moore_refinement(
    p: &[bool],
    trans: &[u32],
    a: usize,
    max_elements: usize,
    control: &Control,
) -> Result<Option<(Vec<u32>, usize)>, SolveError> {
    let count = p.len();
    let mut class: Vec<u32> = p.iter().map(|&b| u32::from(b)).collect();
    // number classes by first appearance, so the identity's is 0
    let mut classes = renumber(&mut class);
    loop {
        control.check()?;
        let mut index: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut next = Vec::with_capacity(count);
        for i in 0..count {
            let mut sig = Vec::with_capacity(a + 1);
            sig.push(class[i]);
            sig.extend(trans[i * a..(i + 1) * a].iter().map(|&t| class[t as usize]));
            let n = index.len() as u32;
            next.push(*index.entry(sig).or_insert(n));
        }
        let n = index.len();
        class = next;
        if n > max_elements {
            return Ok(None);
        }
        if n == classes {
            break;
        }
        classes = n;
    }
    Ok(Some((class, classes)))
}

/// Renumbers classes by first appearance; returns their number.
fn renumber(class: &mut [u32]) -> usize {
    let mut index: HashMap<u32, u32> = HashMap::new();
    for c in class.iter_mut() {
        let n = index.len() as u32;
        *c = *index.entry(*c).or_insert(n);
    }
    index.len()
}
