//! The check that a candidate quotient gives every collection's outcome right, by a finite
//! search instead of a test on finitely many collections.
//!
//! For a collection G write x = Φ(G) (its element) and S(G) the set of its options' elements.
//! Misère play says G is a P-position exactly when G has a move and no option is a P-position.
//! So the candidate is right for every collection (by induction on the collection) exactly when
//! every collection satisfies "x ∈ P ⇔ G has a move and S(G) ∩ P = ∅". Adding a heap h to G
//! gives S(G + h) = S(G)·Φ(h) ∪ x·Φ(options of h), so the triple (x, has a move,
//! D(G) = {z : S(G)·z meets P}) of G + h is a function of G's triple and h, and the condition
//! reads "x ∈ P ⇔ has a move and 1 ∉ D". A breadth-first search over the triples reachable from
//! the empty collection visits every collection's triple: the condition holds at all of them, or
//! the search returns a collection where it fails, one with the fewest tokens.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use super::monoid::Monoid;
use crate::solver::control::{Control, SolveError};

/// The result of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The candidate is right for every collection; this many triples were visited.
    Holds {
        /// Number of distinct triples (element, has a move, D) the search visited.
        states: usize,
    },
    /// At this collection (heap sizes) the condition fails: the candidate errs on it or on one
    /// of its options.
    Fails(Vec<u16>),
}

/// One heap as the search sees it: its element and its options' elements.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeapImage {
    /// The heap's element of the candidate monoid.
    pub element: u32,
    /// The elements of the heap's options.
    pub options: Vec<u32>,
}

type Bits = Vec<u64>;

/// The most steps one check may take (states visited times what visiting one costs: a
/// pull-back and the options' rows of each distinct heap), a bound on one heap's check of about
/// a second of processor time in a release build. The quotients the tests grow take at most
/// 3.4·10^7 (0.abc to heap 100); misère Nim's quotient of 2^9 + 2 elements, which
/// 0.123456789 reaches at heap 257, takes 3.6·10^8 from that heap on, 10^10 by heap 1000, so
/// its growth stops there (in about 15 s) instead of running for hours.
pub const MAX_WORK: u64 = 1 << 28;

/// Checks the candidate `m` where heap `h` (for `h` in `1..heaps.len()`, `heaps[0]` unused) has
/// the image `heaps[h]`; at most `max_states` triples are visited.
pub fn check(m: &Monoid, heaps: &[HeapImage], control: &Control, max_states: usize) -> Result<Verdict, SolveError> {
    let n = m.size();
    let words = n.div_ceil(64);
    // dp[y]: the z with y·z in P
    let dp: Vec<Bits> = (0..n as u32)
        .map(|y| {
            let mut b = vec![0u64; words];
            for z in 0..n as u32 {
                if m.is_p(m.mul(y, z)) {
                    b[z as usize / 64] |= 1 << (z % 64);
                }
            }
            b
        })
        .collect();
    // heaps with the same image move the search the same way: one of each
    let mut distinct: Vec<(u16, &HeapImage)> = Vec::new();
    for (h, img) in heaps.iter().enumerate().skip(1) {
        let moves = !img.options.is_empty();
        if !moves && img.element == 0 {
            continue; // a heap without a move is the empty game
        }
        if !distinct.iter().any(|(_, d)| *d == img) {
            distinct.push((h as u16, img));
        }
    }
    // what visiting one state costs: a pull-back and the options' rows for each distinct heap
    let state_cost = distinct
        .iter()
        .map(|(_, img)| (words * (1 + img.options.len())) as u64)
        .sum::<u64>()
        + n as u64;
    let max_states = max_states.min(usize::try_from(MAX_WORK / state_cost.max(1)).unwrap_or(usize::MAX));
    type State = (u32, bool, Bits);
    // Dijkstra by tokens (a heap of h costs h), so the first failure met has the fewest tokens:
    // every lighter collection then satisfies the condition, so the candidate is right on it
    let mut seen: HashMap<State, usize, BuildHasherDefault<WordHasher>> = HashMap::default();
    let mut states: Vec<State> = Vec::new();
    let mut tokens: Vec<u64> = Vec::new();
    let mut done: Vec<bool> = Vec::new();
    let mut parent: Vec<(usize, u16)> = Vec::new();
    let mut queue: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let start: State = (0, false, vec![0; words]);
    seen.insert(start.clone(), 0);
    states.push(start);
    tokens.push(0);
    done.push(false);
    parent.push((usize::MAX, 0));
    queue.push(Reverse((0, 0)));
    let state_bytes = (words as u64) * 8 * 2 + 96;
    while let Some(Reverse((t, id))) = queue.pop() {
        if done[id] || t > tokens[id] {
            continue;
        }
        done[id] = true;
        control.check()?;
        let (x, moves, d) = states[id].clone();
        let ok = m.is_p(x) == (moves && d[0] & 1 == 0);
        if !ok {
            let mut heaps_of = Vec::new();
            let mut at = id;
            while parent[at].0 != usize::MAX {
                heaps_of.push(parent[at].1);
                at = parent[at].0;
            }
            heaps_of.reverse();
            return Ok(Verdict::Fails(heaps_of));
        }
        // heaps of one element pull D back the same way: once per element
        let mut pulled: Vec<(u32, Bits)> = Vec::new();
        // D as one byte an element, for the gathers below
        let mut unpacked: Vec<u8> = Vec::new();
        for &(h, img) in &distinct {
            let e = img.element;
            let mut nd = match pulled.iter().find(|(x, _)| *x == e) {
                Some((_, b)) => b.clone(),
                None => {
                    if unpacked.is_empty() {
                        unpacked = (0..n).map(|t| (d[t / 64] >> (t % 64) & 1) as u8).collect();
                    }
                    // the monoid commutes: e's row holds z·e for every z, read in order
                    let b: Bits = m
                        .row(e)
                        .chunks(64)
                        .map(|ts| {
                            ts.iter()
                                .enumerate()
                                .fold(0u64, |w, (i, &t)| w | u64::from(unpacked[t as usize]) << i)
                        })
                        .collect();
                    pulled.push((e, b.clone()));
                    b
                }
            };
            for &o in &img.options {
                for (w, b) in nd.iter_mut().zip(&dp[m.mul(x, o) as usize]) {
                    *w |= b;
                }
            }
            let next: State = (m.mul(x, e), moves || !img.options.is_empty(), nd);
            let nt = t + u64::from(h);
            match seen.get(&next) {
                Some(&nid) => {
                    if !done[nid] && nt < tokens[nid] {
                        tokens[nid] = nt;
                        parent[nid] = (id, h);
                        queue.push(Reverse((nt, nid)));
                    }
                }
                None => {
                    if seen.len() >= max_states {
                        return Err(SolveError::Unsupported(format!(
                            "checking the misère quotient of {n} elements visits more than {max_states} states ({state_cost} steps each, {MAX_WORK} steps in all at most)"
                        )));
                    }
                    control.reserve("the check of the misère quotient", seen.len() as u64 * state_bytes)?;
                    let nid = states.len();
                    seen.insert(next.clone(), nid);
                    states.push(next);
                    tokens.push(nt);
                    done.push(false);
                    parent.push((id, h));
                    queue.push(Reverse((nt, nid)));
                }
            }
        }
    }
    Ok(Verdict::Holds { states: seen.len() })
}

/// A fast hash for the states' words (multiply and rotate; the keys are not adversarial).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}
