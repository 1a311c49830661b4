//! The exact misère outcome of a collection of heaps of an octal game, by a memoised search over
//! collections: the ground truth the quotient is learned from and checked against.
//!
//! A collection is a sorted list of heap sizes; heaps without a move are dropped (a game with no
//! options is 0, and adding 0 changes nothing), so the empty list is the end of the game, which
//! the player to move wins under misère play.

use std::collections::HashMap;

use super::monoid::Monoid;
use crate::game::rules::one_heap::{OctalCode, OctalOption};
use crate::solver::control::{Control, SolveError};

/// A collection of heaps, sorted ascending (heap sizes fit in 16 bits: quotients are computed for
/// heaps far below that).
pub type Heaps = Vec<u16>;

/// Rough memory of one memo entry besides its heaps (box, flag, table overhead).
const BYTES_PER_ENTRY: u64 = 64;

/// A proved quotient the oracle answers small collections by.
#[derive(Debug)]
struct Known {
    bound: u16,
    monoid: Monoid,
    /// `heap_element[h]` for `h ≤ bound`.
    heap_element: Vec<u32>,
    /// A collection of heaps up to `bound` for each element (movable heaps, sorted).
    reps: Vec<Heaps>,
}

/// The misère outcomes of the collections of heaps of one octal game up to a heap bound.
#[derive(Debug)]
pub struct Oracle {
    /// `parts[h]`: each option of one heap of `h` tokens as the heaps it leaves.
    parts: Vec<Vec<Heaps>>,
    /// Whether `true`: the collection is a P-position (the previous player wins).
    memo: HashMap<Box<[u16]>, bool>,
    memo_bytes: u64,
    /// A quotient proved for heaps up to its bound: collections of those heaps are answered by
    /// it (a product and a look-up) instead of a search.
    known: Option<Known>,
    /// Whether the heaps up to the known bound are replaced by their element's collection
    /// before a search (see [`Oracle::set_canonical`]).
    canonical: bool,
    /// Positions searched, for polling the cancel flag now and then.
    steps: u64,
}

impl Oracle {
    /// The oracle for heaps of at most `bound` tokens.
    pub fn new(code: &OctalCode, bound: u16) -> Self {
        let mut parts = Vec::with_capacity(usize::from(bound) + 1);
        let mut single = Vec::new();
        for h in 0..=bound {
            single.clear();
            code.options(u64::from(h), &mut single);
            let options: Vec<Heaps> = single
                .iter()
                .map(|o| {
                    let mut left: Heaps = match *o {
                        OctalOption::Gone => vec![],
                        OctalOption::One(x) => vec![x as u16],
                        OctalOption::Two(x, y) => vec![x as u16, y as u16],
                        OctalOption::Three(x, y, z) => vec![x as u16, y as u16, z as u16],
                    };
                    left.sort_unstable();
                    left
                })
                .collect();
            parts.push(options);
        }
        Self {
            parts,
            memo: HashMap::new(),
            memo_bytes: 0,
            known: None,
            canonical: false,
            steps: 0,
        }
    }

    /// The largest heap this oracle knows the moves of.
    pub fn bound(&self) -> u16 {
        (self.parts.len() - 1) as u16
    }

    /// The options of one heap of `h` tokens, as the heaps each leaves (sorted).
    pub fn heap_options(&self, h: u16) -> &[Heaps] {
        &self.parts[usize::from(h)]
    }

    /// Whether a heap of `h` tokens has a move.
    pub fn movable(&self, h: u16) -> bool {
        !self.parts[usize::from(h)].is_empty()
    }

    /// Answers collections of heaps up to `bound` by a quotient proved for them (its outcomes
    /// are exact), and forgets the searched outcomes (each is now a look-up).
    pub fn set_known(&mut self, bound: u16, monoid: Monoid, heap_element: Vec<u32>) {
        self.memo.clear();
        self.memo_bytes = 0;
        let reps = self.lightest_collections(bound, &monoid, &heap_element);
        self.known = Some(Known {
            bound,
            monoid,
            heap_element,
            reps,
        });
    }

    /// For each element, a collection of heaps up to `bound` with the fewest tokens reaching it
    /// (Dijkstra over the monoid, a heap of `h` costing `h`): replacing a part of a collection by
    /// it never adds tokens, so the search with replacements still only goes down.
    fn lightest_collections(&self, bound: u16, monoid: &Monoid, heap_element: &[u32]) -> Vec<Heaps> {
        let n = monoid.size();
        let mut best: Vec<Option<(u64, Heaps)>> = vec![None; n];
        best[0] = Some((0, Vec::new()));
        let mut queue = std::collections::BinaryHeap::new();
        queue.push(std::cmp::Reverse((0u64, Vec::<u16>::new(), 0u32)));
        while let Some(std::cmp::Reverse((d, heaps, x))) = queue.pop() {
            if best[x as usize]
                .as_ref()
                .is_some_and(|(bd, bh)| (*bd, bh) < (d, &heaps))
            {
                continue;
            }
            for h in 1..=bound {
                if !self.movable(h) {
                    continue;
                }
                let y = monoid.mul(x, heap_element[usize::from(h)]);
                let mut next = heaps.clone();
                next.push(h);
                next.sort_unstable();
                let nd = d + u64::from(h);
                let better = best[y as usize].as_ref().is_none_or(|(bd, bh)| (nd, &next) < (*bd, bh));
                if better {
                    best[y as usize] = Some((nd, next.clone()));
                    queue.push(std::cmp::Reverse((nd, next, y)));
                }
            }
        }
        best.into_iter()
            .map(|b| b.map(|(_, h)| h).unwrap_or_default())
            .collect()
    }

    /// With `true`, a collection's heaps up to the known bound are replaced by one collection of
    /// their element before it is searched: exact when the known quotient embeds in the next
    /// one (elements it identifies stay identified with the new heaps), and then the search
    /// meets only a few collections per element. Nothing relies on that assumption: the
    /// quotient learned this way is proved (or refused) by [`super::verify`] and
    /// [`Monoid::is_reduced`], and where it fails the learning starts over with `false`, the
    /// plain search.
    pub fn set_canonical(&mut self, canonical: bool) {
        if self.canonical != canonical {
            self.memo.clear();
            self.memo_bytes = 0;
            self.canonical = canonical;
        }
    }

    pub fn canonical(&self) -> bool {
        self.canonical
    }

    /// Memory held by the memo.
    pub fn bytes(&self) -> u64 {
        self.memo_bytes
    }

    /// The collection without its heaps that have no move, sorted: the memo's key.
    pub fn key(&self, heaps: &[u16]) -> Heaps {
        let mut k: Heaps = heaps.iter().copied().filter(|&h| self.movable(h)).collect();
        k.sort_unstable();
        k
    }

    /// Whether the collection `heaps` (any order, every heap within the bound) is a misère
    /// P-position.
    pub fn is_p(&mut self, heaps: &[u16], control: &Control) -> Result<bool, SolveError> {
        let key = self.key(heaps);
        self.is_p_key(key, control)
    }

    fn is_p_key(&mut self, key: Heaps, control: &Control) -> Result<bool, SolveError> {
        if key.is_empty() {
            // no move: the player to move has won
            return Ok(false);
        }
        if let Some(k) = &self.known
            && key.last().is_some_and(|&h| h <= k.bound)
        {
            let x = key
                .iter()
                .fold(0, |x, &h| k.monoid.mul(x, k.heap_element[usize::from(h)]));
            return Ok(k.monoid.is_p(x));
        }
        if self.canonical
            && let Some(k) = &self.known
        {
            let split = key.partition_point(|&h| h <= k.bound);
            if split > 0 {
                let y = key[..split]
                    .iter()
                    .fold(0, |x, &h| k.monoid.mul(x, k.heap_element[usize::from(h)]));
                let rep = &k.reps[y as usize];
                if rep.as_slice() != &key[..split] {
                    let mut c: Heaps = rep.iter().chain(&key[split..]).copied().collect();
                    c.sort_unstable();
                    return self.is_p_key(c, control);
                }
            }
        }
        if let Some(&p) = self.memo.get(key.as_slice()) {
            return Ok(p);
        }
        self.steps += 1;
        if self.steps.is_multiple_of(4096) {
            control.check()?;
        }
        // depth is at most the number of tokens (each move removes one or more)
        let mut p = true;
        let mut i = 0;
        'moves: while i < key.len() {
            let h = key[i];
            for o in 0..self.parts[usize::from(h)].len() {
                let mut child: Heaps = Vec::with_capacity(key.len() + 2);
                child.extend_from_slice(&key[..i]);
                child.extend_from_slice(&key[i + 1..]);
                child.extend(
                    self.parts[usize::from(h)][o]
                        .iter()
                        .copied()
                        .filter(|&x| self.movable(x)),
                );
                child.sort_unstable();
                if self.is_p_key(child, control)? {
                    p = false;
                    break 'moves;
                }
            }
            // equal heaps give the same options
            while i < key.len() && key[i] == h {
                i += 1;
            }
        }
        self.memo_bytes += BYTES_PER_ENTRY + 2 * key.len() as u64;
        if self.memo_bytes > control.memory_budget() {
            return Err(SolveError::OverBudget {
                what: "the misère outcomes searched to learn the quotient".into(),
                needed: self.memo_bytes,
                budget: control.memory_budget(),
            });
        }
        self.memo.insert(key.into_boxed_slice(), p);
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misere_nim_outcomes() {
        // Nim on heaps up to 7 is the octal game with seven 3s; misère Nim (Bouton): P iff the
        // heaps are all 0 or 1 and their count is odd, or some heap is 2 or more and the nim-sum is 0
        let code: OctalCode = "0.3333333".parse().unwrap();
        let mut o = Oracle::new(&code, 7);
        let c = Control::new();
        for a in 0..=7u16 {
            for b in 0..=7u16 {
                for d in 0..=3u16 {
                    let hs = [a, b, d];
                    let big = hs.iter().any(|&x| x >= 2);
                    let expect = if big {
                        a ^ b ^ d == 0
                    } else {
                        hs.iter().filter(|&&x| x == 1).count() % 2 == 1
                    };
                    assert_eq!(o.is_p(&hs, &c).unwrap(), expect, "{hs:?}");
                }
            }
        }
    }
}
