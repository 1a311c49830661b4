//! A code's heaps as the growth needs them, without listing every option of every heap: a heap
//! of `n` tokens of a code with a hexadecimal digit has about n²/12 options leaving three heaps
//! (0.123456789 to heap 1000: 55 million over all heaps, 3 GB listed), while the elements those
//! options reach in a candidate are few. So the elements of each heap's options are found by
//! sums of parts ([`HeapMoves::images`]: the elements of two heaps of `r` tokens for every `r`,
//! then of three heaps from those), in about n² steps for all heaps at once, and the options
//! themselves are listed only for the heaps a candidate's lightest collections hold, a few at a
//! time ([`HeapMoves::options`]).

use std::cell::RefCell;
use std::collections::HashMap;

/// A table hashed by foldhash, quicker than the standard SipHash on small keys.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
use std::rc::Rc;

use super::{Heaps, Pretension, heap_options_of};
use crate::game::rules::one_heap::{OctalCode, OctalMove, two_part_top};
use crate::solver::control::{Control, SolveError};
use crate::solver::misere_quotient::verify::HeapImage;

/// Bytes a listed option takes (a vector of up to three heap sizes and its place in the list).
pub const OPTION_BYTES: u64 = 56;

/// The heaps `0..=bound` of a code: which have a move, their options' elements under a
/// candidate, and the options of the heaps asked for, kept while they fit a bound in bytes.
pub struct HeapMoves {
    code: OctalCode,
    moves: Vec<OctalMove>,
    has_move: Vec<bool>,
    listed: RefCell<Listed>,
    /// The most bytes of listed options kept at once.
    keep_bytes: u64,
}

#[derive(Default)]
struct Listed {
    heaps: HashMap<u16, Rc<[Heaps]>>,
    bytes: u64,
}

impl HeapMoves {
    /// The heaps up to `bound` of `code`; listed options are kept up to `keep_bytes` (at least
    /// one heap's are always kept: the caller charges the largest heap's to the budget).
    pub fn new(code: &OctalCode, bound: u16, keep_bytes: u64) -> Self {
        let moves: Vec<OctalMove> = code.moves().collect();
        let has_move = (0..=bound).map(|h| moves_from(&moves, u64::from(h))).collect();
        HeapMoves {
            code: code.clone(),
            moves,
            has_move,
            listed: RefCell::new(Listed::default()),
            keep_bytes,
        }
    }

    /// The weight of a heap of `h` tokens in the order of lightest collections: every move
    /// makes a collection strictly lighter, so each collection comes after all its options.
    /// Its tokens, when every move takes one; `2h − 1` for a code with a digit before the
    /// point (a split without taking keeps the tokens but adds a heap, and the parts' weights
    /// `2a − 1 + 2b − 1` fall short of `2(a + b) − 1`).
    pub fn weight(&self, h: u16) -> u32 {
        let h = u32::from(h);
        if self.moves.first().is_some_and(|m| m.take == 0) {
            (2 * h).saturating_sub(1)
        } else {
            h
        }
    }

    /// Whether a heap of `h` tokens has a move.
    pub fn has_move(&self, h: u16) -> bool {
        self.has_move.get(usize::from(h)).copied().unwrap_or(false)
    }

    /// The options of a heap of `h`, as the heaps each leaves (sorted), listed once and kept
    /// while the lists kept fit their bound.
    pub fn options(&self, h: u16) -> Rc<[Heaps]> {
        let mut listed = self.listed.borrow_mut();
        if let Some(o) = listed.heaps.get(&h) {
            return o.clone();
        }
        let o: Rc<[Heaps]> = heap_options_of(&self.code, h).into();
        let bytes = o.len() as u64 * OPTION_BYTES;
        if listed.bytes + bytes > self.keep_bytes {
            *listed = Listed::default();
        }
        listed.bytes += bytes;
        listed.heaps.insert(h, o.clone());
        o
    }

    /// Each heap's element of `p` and the elements of its options (sorted, distinct), for the
    /// check: the options' elements are unions of the elements of one, two or three heaps of
    /// the tokens a move leaves, and those are found for every number of tokens at once.
    pub fn images(&self, p: &Pretension, control: &Control) -> Result<Vec<HeapImage>, SolveError> {
        let e = &p.heap_element;
        let sums = PartSums::new(p, &self.moves, control)?;
        let mut bits = Bits::new(p.monoid.size(), 1);
        let mut out = Vec::with_capacity(e.len());
        for h in 0..e.len() {
            bits.clear(0);
            let mut any = false;
            for m in &self.moves {
                let Some(rest) = (h as u64).checked_sub(m.take) else {
                    break;
                };
                let rest = rest as usize;
                let d = m.digit;
                if d & 1 != 0 && rest == 0 {
                    bits.set(0, 0);
                    any = true;
                }
                if d & 2 != 0 && rest >= 1 {
                    bits.set(0, e[rest]);
                    any = true;
                }
                if d & 4 != 0 && two_part_top(rest as u64, m.unequal) >= 1 {
                    let two = if m.unequal { &sums.two_unequal } else { &sums.two };
                    bits.or_from(0, two, rest);
                    any = true;
                }
                if d & 8 != 0 && rest >= 3 {
                    bits.or_from(0, &sums.three, rest);
                    any = true;
                }
            }
            let options = if any { bits.members(0) } else { Vec::new() };
            out.push(HeapImage { element: e[h], options });
        }
        Ok(out)
    }
}

/// Whether a heap of `n` has a move: [`OctalCode::options`] is not empty.
fn moves_from(moves: &[OctalMove], n: u64) -> bool {
    moves.iter().any(|m| {
        let Some(rest) = n.checked_sub(m.take) else {
            return false;
        };
        let d = m.digit;
        (d & 1 != 0 && rest == 0)
            || (d & 2 != 0 && rest >= 1)
            || (d & 4 != 0 && two_part_top(rest, m.unequal) >= 1)
            || (d & 8 != 0 && rest >= 3)
    })
}

/// Rows of bit sets over a monoid's elements.
struct Bits {
    words: usize,
    data: Vec<u64>,
}

impl Bits {
    fn new(size: usize, rows: usize) -> Self {
        let words = size.div_ceil(64).max(1);
        Bits {
            words,
            data: vec![0; words * rows],
        }
    }

    fn row(&self, r: usize) -> &[u64] {
        &self.data[r * self.words..(r + 1) * self.words]
    }

    fn clear(&mut self, r: usize) {
        let w = self.words;
        self.data[r * w..(r + 1) * w].fill(0);
    }

    fn set(&mut self, r: usize, x: u32) {
        let x = x as usize;
        self.data[r * self.words + x / 64] |= 1 << (x % 64);
    }

    /// Row `r` |= row `s` of `other`.
    fn or_from(&mut self, r: usize, other: &Bits, s: usize) {
        let w = self.words;
        for (a, b) in self.data[r * w..(r + 1) * w].iter_mut().zip(other.row(s)) {
            *a |= b;
        }
    }

    /// The elements of row `r`, ascending.
    fn members(&self, r: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for (i, &w) in self.row(r).iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push((i * 64) as u32 + w.trailing_zeros());
                w &= w - 1;
            }
        }
        out
    }
}

/// For every number of tokens `r`: the elements of two heaps of `r` tokens in all (`two`; with
/// the two heaps unequal, `two_unequal`) and of three (`three`), each heap at least 1.
struct PartSums {
    two: Bits,
    two_unequal: Bits,
    three: Bits,
}

impl PartSums {
    fn new(p: &Pretension, moves: &[OctalMove], control: &Control) -> Result<Self, SolveError> {
        let e = &p.heap_element;
        let m = &p.monoid;
        let n = e.len();
        let splits = moves.iter().any(|mv| mv.digit & 12 != 0);
        let threes = moves.iter().any(|mv| mv.digit & 8 != 0);
        let rows = |on: bool| if on { n } else { 0 };
        let mut two = Bits::new(m.size(), rows(splits));
        let mut two_unequal = Bits::new(m.size(), rows(splits));
        let mut three = Bits::new(m.size(), rows(threes));
        if !splits {
            return Ok(PartSums {
                two,
                two_unequal,
                three,
            });
        }
        for r in 2..n {
            for x in 1..=(r - 1) / 2 {
                two_unequal.set(r, m.mul(e[x], e[r - x]));
            }
            two.or_from(r, &two_unequal, r);
            if r % 2 == 0 {
                two.set(r, m.mul(e[r / 2], e[r / 2]));
            }
        }
        if threes {
            // three heaps of r: a heap of x beside two of r − x; the products of an element
            // with a set of two heaps' elements are found once for each pair met
            // (foldhash: these maps take a few pairs for every heap and part, and SipHash was
            // half of a growth of 0.f)
            let mut set_id: FastMap<&[u64], u32> = FastMap::default();
            let ids: Vec<u32> = (0..n)
                .map(|r| {
                    let k = set_id.len() as u32;
                    *set_id.entry(two.row(r)).or_insert(k)
                })
                .collect();
            let mut products = Bits::new(m.size(), 0);
            let mut product_of: FastMap<(u32, u32), usize> = FastMap::default();
            let mut met: FastMap<(u32, u32), usize> = FastMap::default();
            for r in 3..n {
                control.check()?;
                for x in 1..=r - 2 {
                    let key = (e[x], ids[r - x]);
                    if met.insert(key, r) == Some(r) {
                        continue;
                    }
                    let at = *product_of.entry(key).or_insert_with(|| {
                        let row = products.data.len() / products.words;
                        products.data.extend(std::iter::repeat_n(0, products.words));
                        for z in two.members(r - x) {
                            products.set(row, m.mul(e[x], z));
                        }
                        row
                    });
                    three.or_from(r, &products, at);
                }
            }
        }
        Ok(PartSums {
            two,
            two_unequal,
            three,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::misere_quotient::extend::heap_options;

    /// The images by sums of parts are those of every option listed, for codes of every kind
    /// of digit (one heap, two, two unequal, three, a digit before the point), under a
    /// quotient grown by the listing itself.
    #[test]
    fn images_by_sums_of_parts_are_those_of_the_options_listed() {
        for code in [
            "0.77",
            "0.07",
            "0.123456789",
            "0.abc",
            "4.007",
            "4u.0",
            "0.4u5",
            "0.f",
            "0.8",
            "0.6",
        ] {
            let c: OctalCode = code.parse().unwrap();
            // as far as the quotient goes (a wild one may stop before heap 24)
            let (q, _) = crate::solver::misere_quotient::compute_as_far_as(&c, 24, &Control::new()).unwrap();
            let top = q.heaps();
            assert!(top >= 8, "{code}: {top}");
            let p = Pretension {
                monoid: q.monoid().clone(),
                heap_element: (0..=top).map(|h| q.heap_element(h)).collect(),
            };
            let listed = heap_options(&c, top);
            let moves = HeapMoves::new(&c, top, 1 << 20);
            let by_sums = moves.images(&p, &Control::new()).unwrap();
            for (h, img) in by_sums.iter().enumerate() {
                let mut o: Vec<u32> = listed[h].iter().map(|o| p.element_of(o)).collect();
                o.sort_unstable();
                o.dedup();
                assert_eq!(img.options, o, "{code}, heap {h}");
                assert_eq!(img.element, p.heap_element[h]);
                assert_eq!(moves.has_move(h as u16), !listed[h].is_empty(), "{code}, heap {h}");
            }
        }
    }
}
