//! A candidate quotient: the quotient so far times the cyclic monoids of the freed heaps,
//! its P-portion marked collection by collection in order of tokens, and reduced by Moore's
//! partition refinement over the heaps' actions.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::{HeapMoves, Heaps, Pretension};
use crate::solver::control::{Control, SolveError};
use crate::solver::misere_quotient::monoid::Monoid;
/// A heap taken out of the quotient and counted in the cyclic monoid `x^(index+period) =
/// x^index`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Freed {
    heap: u16,
    index: u32,
    period: u32,
}

impl Freed {
    pub(super) fn new(heap: u16, index: u32, period: u32) -> Self {
        Self {
            heap,
            index,
            period: period.max(1),
        }
    }

    pub(super) fn len(&self) -> u32 {
        self.index + self.period
    }

    pub(super) fn next(&self, c: u32) -> u32 {
        if c + 1 == self.len() { self.index } else { c + 1 }
    }
}

/// A base monoid times one cyclic monoid for each freed heap; an element is the base element
/// plus `base size ×` the freed counters in mixed radix.
pub(super) struct Product<'a> {
    base: &'a Monoid,
    /// Each heap's base element (the identity for a freed heap).
    base_map: Vec<u32>,
    freed: Vec<Freed>,
    /// `stride[j]`: the place value of freed counter `j`.
    stride: Vec<usize>,
    size: usize,
}

/// A candidate marked and reduced, with the class of each product element it reached.
pub(super) struct Marked {
    pub(super) pretension: Pretension,
    /// The class of each product element (`u32::MAX` where not reached).
    class: Vec<u32>,
}

impl Marked {
    pub(super) fn is_p(&self, product: &Product, g: &[u16]) -> bool {
        let e = g.iter().fold(0, |e, &h| product.act(e, h));
        let c = self.class[e as usize];
        c != u32::MAX && self.pretension.monoid.is_p(c)
    }
}

impl<'a> Product<'a> {
    pub(super) fn new(base: &'a Monoid, base_map: Vec<u32>, freed: Vec<Freed>) -> Self {
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

    pub(super) fn size(&self) -> usize {
        self.size
    }

    /// The element `e` plus a heap of `h`.
    pub(super) fn act(&self, e: u32, h: u16) -> u32 {
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
    pub(super) fn distinct_actions(&self, options: &HeapMoves) -> (Vec<u16>, Vec<Option<usize>>) {
        let heaps = self.base_map.len() as u16;
        let mut actions: Vec<u16> = Vec::new();
        let mut action_of: Vec<Option<usize>> = vec![None; usize::from(heaps)];
        let mut by_base: HashMap<u32, usize> = HashMap::new();
        for h in 1..heaps {
            if !options.has_move(h) {
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

    /// The candidate's elements in the order of their lightest collections (Dijkstra by
    /// [`HeapMoves::weight`] from the identity: tokens, or more where a move keeps them): each
    /// element's parent and last heap, its place in the order, and the order.
    #[expect(clippy::type_complexity, reason = "three parallel tables of one search")]
    pub(super) fn lightest_collections(
        &self,
        actions: &[u16],
        options: &HeapMoves,
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
                let nd = d + options.weight(h);
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
    pub(super) fn mark(
        &self,
        options: &HeapMoves,
        control: &Control,
        max_elements: usize,
    ) -> Result<Option<Marked>, SolveError> {
        let heaps = self.base_map.len() as u16;
        let (actions, action_of) = self.distinct_actions(options);
        control.reserve(
            "the candidate misère quotient",
            self.size as u64 * 16 + self.size as u64 * 4 * actions.len() as u64,
        )?;
        let (parent, local, order) = self.lightest_collections(&actions, options, control)?;
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
                for o in options.options(h).iter() {
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
