//! A finite commutative monoid with a marked subset (a bipartite monoid, as Plambeck and Siegel
//! call it): the multiplication table, the P-portion, and what is said about it: whether it is
//! misère Nim's quotient (tame), and a presentation by generators and relations.

use std::collections::{HashMap, HashSet};

/// Elements are numbered `0..size`; `0` is the identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monoid {
    size: usize,
    /// `mul[x * size + y]`.
    mul: Vec<u32>,
    /// Whether each element is in the P-portion.
    p: Vec<bool>,
}

impl Monoid {
    /// The monoid with this table (`mul[x * size + y]`) and P-portion; the caller vouches that
    /// the table is commutative and associative with identity `0`.
    pub fn new(size: usize, mul: Vec<u32>, p: Vec<bool>) -> Self {
        Self { size, mul, p }
    }

    /// Number of elements; they are `0..size`, `0` the identity.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The product `x · y` (both below [`Monoid::size`]).
    #[inline]
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.mul[x as usize * self.size + y as usize]
    }

    /// `x · y` for every `y`, in order.
    pub fn row(&self, x: u32) -> &[u32] {
        &self.mul[x as usize * self.size..(x as usize + 1) * self.size]
    }

    /// Whether `x` is in the P-portion (a sum mapping to `x` is a misère P-position).
    pub fn is_p(&self, x: u32) -> bool {
        self.p[x as usize]
    }

    /// The P-portion, in element order.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.size as u32).filter(|&x| self.is_p(x)).collect()
    }

    /// Whether every two elements are told apart by the P-portion: `x ≠ y` have some `z` with
    /// exactly one of `x·z`, `y·z` in P (a quotient that gives every outcome right and is
    /// reduced is the misère quotient itself).
    pub fn is_reduced(&self) -> bool {
        let n = self.size;
        let mut seen = HashSet::with_capacity(n);
        (0..n as u32).all(|x| {
            let sig: Vec<bool> = (0..n as u32).map(|z| self.is_p(self.mul(x, z))).collect();
            seen.insert(sig)
        })
    }

    /// Whether this is misère Nim's quotient for some number of binary digits (Plambeck and
    /// Siegel's tame quotients): either `{1, a}` with `a² = 1`, `P = {a}`; or `1`, `a` and a group
    /// `C` of exponent two (so of order `2^k`, `k ≥ 1`) with identity `e`, where `a² = 1`,
    /// `a·c = (a·e)·c` lies in `C` for `c ∈ C`, `a·e ≠ e`, and `P = {a, e}`. Such a monoid is
    /// isomorphic to misère Nim's quotient of its order (heaps below `2^k`: `a` is a heap of
    /// one, `C` the collections with a heap of two or more, by nim-sum).
    pub fn is_tame(&self) -> bool {
        let n = self.size as u32;
        if n == 1 {
            // no heap with a move: the quotient of the empty game
            return true;
        }
        let p = self.p_portion();
        if n == 2 {
            let a = 1;
            return self.mul(a, a) == 0 && p == vec![a];
        }
        if p.len() != 2 {
            return false;
        }
        p.iter().any(|&a| {
            let e = p[0] + p[1] - a;
            a != 0 && self.mul(a, a) == 0 && self.tame_with(a, e)
        })
    }

    fn tame_with(&self, a: u32, e: u32) -> bool {
        let n = self.size as u32;
        let c: Vec<u32> = (0..n).filter(|&x| x != 0 && x != a).collect();
        let in_c = |x: u32| x != 0 && x != a;
        let ae = self.mul(a, e);
        if !in_c(e) || !in_c(ae) || ae == e || !(c.len().is_power_of_two()) {
            return false;
        }
        c.iter().all(|&x| {
            self.mul(x, x) == e
                && self.mul(e, x) == x
                && self.mul(a, x) == self.mul(ae, x)
                && c.iter().all(|&y| in_c(self.mul(x, y)))
        })
    }

    /// A presentation on the given generators (elements, named `a`, `b`, … in order): every
    /// element's normal form (the least word reaching it, by degree then exponents), and the
    /// relations `w = v` whose left side is a least word that is not a normal form while every
    /// word below it by one generator is (together they rewrite any word to its normal form).
    /// `None` when the generators do not generate the monoid.
    pub fn presentation(&self, generators: &[u32]) -> Option<Presentation> {
        let g = generators.len();
        let mut normal: Vec<Option<Vec<u32>>> = vec![None; self.size];
        normal[0] = Some(vec![0; g]);
        let mut normal_words: HashSet<Vec<u32>> = HashSet::new();
        normal_words.insert(vec![0; g]);
        let mut layer: Vec<(Vec<u32>, u32)> = vec![(vec![0; g], 0)];
        let mut relations = Vec::new();
        let mut found = 1;
        while !layer.is_empty() {
            let mut candidates: HashMap<Vec<u32>, u32> = HashMap::new();
            for (w, x) in &layer {
                for (i, &gen_elem) in generators.iter().enumerate() {
                    let mut v = w.clone();
                    v[i] += 1;
                    candidates.entry(v).or_insert(self.mul(*x, gen_elem));
                }
            }
            let mut sorted: Vec<(Vec<u32>, u32)> = candidates.into_iter().collect();
            // among words of one degree, more of the earlier generators is larger
            sorted.sort();
            let mut next = Vec::new();
            for (w, x) in sorted {
                if normal[x as usize].is_none() {
                    normal[x as usize] = Some(w.clone());
                    normal_words.insert(w.clone());
                    next.push((w, x));
                    found += 1;
                } else {
                    let minimal = (0..g).filter(|&i| w[i] > 0).all(|i| {
                        let mut below = w.clone();
                        below[i] -= 1;
                        normal_words.contains(&below)
                    });
                    if minimal {
                        relations.push((w, x));
                    }
                }
            }
            layer = next;
        }
        if found < self.size {
            return None;
        }
        let normal: Vec<Vec<u32>> = normal.into_iter().map(Option::unwrap_or_default).collect();
        let relations = relations
            .into_iter()
            .map(|(w, x)| (w, normal[x as usize].clone()))
            .collect();
        Some(Presentation {
            generators: generators.to_vec(),
            normal,
            relations,
        })
    }
}

/// Generators, normal forms and relations of a [`Monoid`]; words are exponent vectors over the
/// generators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    /// The generators, as elements of the monoid.
    pub generators: Vec<u32>,
    /// `normal[x]`: the normal form of element `x`.
    pub normal: Vec<Vec<u32>>,
    /// `(left, right)`: the word `left` equals the normal form `right`.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
}

impl Presentation {
    /// The name of generator number `i`: `a`, `b`, …, `z`, then `g27`, `g28`, ….
    pub fn generator_name(i: usize) -> String {
        if i < 26 {
            char::from(b'a' + i as u8).to_string()
        } else {
            format!("g{}", i + 1)
        }
    }

    /// A word as text: `1`, `a`, `a^2b`, `b^3c^2`.
    pub fn word(w: &[u32]) -> String {
        let mut s = String::new();
        for (i, &e) in w.iter().enumerate() {
            if e == 0 {
                continue;
            }
            let name = Self::generator_name(i);
            if name.len() > 1 && !s.is_empty() {
                s.push('·');
            }
            s.push_str(&name);
            if e > 1 {
                s.push_str(&format!("^{e}"));
            }
        }
        if s.is_empty() { "1".into() } else { s }
    }

    /// The normal form of element `x` as text.
    pub fn element(&self, x: u32) -> String {
        Self::word(&self.normal[x as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Misère Nim's quotient for heaps below `2^k` (`k ≥ 1`): 1, a, and c_v for v < 2^k.
    pub fn misere_nim(k: u32) -> Monoid {
        let nv = 1u32 << k;
        let size = (nv + 2) as usize;
        // 0 = 1, 1 = a, 2 + v = c_v
        let kind = |x: u32| -> (bool, u32) {
            // (big, value)
            if x < 2 { (false, x) } else { (true, x - 2) }
        };
        let mut mul = vec![0; size * size];
        for x in 0..size as u32 {
            for y in 0..size as u32 {
                let (bx, vx) = kind(x);
                let (by, vy) = kind(y);
                mul[x as usize * size + y as usize] = if bx || by { 2 + (vx ^ vy) } else { vx ^ vy };
            }
        }
        let p = (0..size as u32).map(|x| x == 1 || x == 2).collect();
        Monoid::new(size, mul, p)
    }

    #[test]
    fn misere_nim_is_tame_and_presented() {
        // (k = 1 would hold elements c_v no heap below 2 reaches)
        for k in 2..=4 {
            let m = misere_nim(k);
            assert!(m.is_tame(), "k = {k}");
            // generators: heaps 1, 2, 4, …
            let gens: Vec<u32> = std::iter::once(1).chain((1..k).map(|i| 2 + (1 << i))).collect();
            let pres = m.presentation(&gens).unwrap();
            assert_eq!(pres.normal.iter().collect::<HashSet<_>>().len(), m.size());
        }
        // T_2 = <a, b | a^2 = 1, b^3 = b>
        let pres = misere_nim(2).presentation(&[1, 4]).unwrap();
        let text: Vec<String> = pres
            .relations
            .iter()
            .map(|(l, r)| format!("{} = {}", Presentation::word(l), Presentation::word(r)))
            .collect();
        assert_eq!(text, ["a^2 = 1", "b^3 = b"]);
    }

    #[test]
    fn a_changed_p_portion_is_wild() {
        let mut m = misere_nim(2);
        m.p[3] = true;
        assert!(!m.is_tame());
    }
}
