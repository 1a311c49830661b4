//! Keys of Cram components for the transposition table: a component is translated to the
//! top-left corner of its bounding box and reduced to a canonical form under the 8 symmetries
//! of the square (Cram allows both orientations, so transposition is a symmetry even for
//! non-square boxes). [`Images`] keys the options of a component that stay connected and keep
//! the box without canonicalising them from scratch.

use super::bits::{Bits, bit, low, row_col, row_of, rows_used};

/// Largest grid height for which transposition uses the spread table.
const SPREAD_MAX_H: usize = 16;

/// `SPREAD[h][b]`: the byte `b` with its bit `c` moved to bit `c * h`.
static SPREAD: [[u128; 256]; SPREAD_MAX_H + 1] = {
    let mut t = [[0u128; 256]; SPREAD_MAX_H + 1];
    let mut h = 1;
    while h <= SPREAD_MAX_H {
        let mut b = 0;
        while b < 256 {
            let mut v = 0u128;
            let mut c = 0;
            while c < 8 {
                if b >> c & 1 == 1 {
                    v |= 1u128 << (c * h);
                }
                c += 1;
            }
            t[h][b] = v;
            b += 1;
        }
        h += 1;
    }
    t
};

/// Translates `bits` (stride `w`) to the top-left corner and crops the width to its bounding
/// box. Returns `(packed, h, new_w)` with the packed grid using stride `new_w`.
#[inline(always)]
pub(crate) fn normalize<B: Bits>(bits: B, w: usize) -> (B, usize, usize) {
    let r0 = row_of(bits.trailing_zeros() as usize, w);
    let h = rows_used(bits, w) - r0;
    let b = bits >> (r0 * w);
    let row_mask = low::<B>(w);
    let mut occ = B::ZERO;
    for r in 0..h {
        occ |= (b >> (r * w)) & row_mask;
    }
    let c0 = occ.trailing_zeros() as usize;
    let nw = B::BITS - occ.leading_zeros() as usize - c0;
    if nw == w {
        return (b, h, w);
    }
    let m = low::<B>(nw);
    let mut out = B::ZERO;
    for r in 0..h {
        // (r * w + c0) stays below the word size: every row of the box holds a cell at a
        // column >= c0.
        out |= ((b >> (r * w + c0)) & m) << (r * nw);
    }
    (out, h, nw)
}

/// Reverses the low `n` bits: the half turn of a packed `h × w` grid with `n = h * w`.
#[inline(always)]
pub(crate) fn reverse<B: Bits>(x: B, n: usize) -> B {
    x.reverse_bits() >> (B::BITS - n)
}

/// Reverses the order of the rows of a packed `h × w` grid (top-bottom reflection).
#[inline(always)]
fn flip_rows<B: Bits>(x: B, h: usize, w: usize) -> B {
    let m = low::<B>(w);
    let mut out = B::ZERO;
    for r in 0..h {
        out |= ((x >> (r * w)) & m) << ((h - 1 - r) * w);
    }
    out
}

/// Mirrors each row of a packed `h × w` grid (left-right reflection): the half turn followed by
/// the top-bottom reflection, which is cheaper than reversing each row.
#[inline(always)]
fn mirror_rows<B: Bits>(x: B, h: usize, w: usize) -> B {
    flip_rows(reverse(x, h * w), h, w)
}

/// Transposes a packed `h × w` grid into a packed `w × h` grid: cell `(r, c)` goes to bit
/// `c * h + r`.
#[inline(always)]
fn transpose<B: Bits>(x: B, h: usize, w: usize) -> B {
    let m = low::<B>(w);
    let mut out = B::ZERO;
    if h <= SPREAD_MAX_H {
        let table = &SPREAD[h];
        for r in 0..h {
            let mut row = ((x >> (r * w)) & m).to_u128();
            let mut chunk = 0;
            while row != 0 {
                // Byte `chunk` of the row holds columns 8 * chunk.., which land at
                // 8 * chunk * h.. (below h * w, since those columns exist).
                out |= (B::from_u128(table[(row & 0xff) as usize]) << (8 * chunk * h)) << r;
                row >>= 8;
                chunk += 1;
            }
        }
        return out;
    }
    for r in 0..h {
        let mut row = (x >> (r * w)) & m;
        while row != B::ZERO {
            let c = row.trailing_zeros() as usize;
            row &= row.wrapping_sub(B::ONE);
            out |= bit::<B>(c * h + r);
        }
    }
    out
}

/// The smallest of the images of a packed `h × w` grid under the mirrors and the half turn.
#[inline(always)]
fn smallest_of_four<B: Bits>(x: B, h: usize, w: usize) -> B {
    let n = h * w;
    let fh = mirror_rows(x, h, w);
    x.min(fh).min(reverse(x, n)).min(reverse(fh, n))
}

/// Canonical key of a packed `h × w` component under the 8 symmetries of the square: the
/// orientation at least as wide as high (both for a square box), and in it the smallest bits.
/// Preferring the wide orientation leaves the transposes (the dear part) to tall components,
/// and once keyed, a component and its options stay wide (one thread, against the narrow
/// orientation: 4×9 0.45 s against 0.55, 3×13 0.70 against 0.77, 5×7 0.98 against 1.00).
#[inline(always)]
fn canonical<B: Bits>(x: B, h: usize, w: usize) -> (B, usize) {
    if w < h {
        return (smallest_of_four(transpose(x, h, w), w, h), h);
    }
    let a = smallest_of_four(x, h, w);
    if w > h {
        return (a, w);
    }
    (a.min(smallest_of_four(transpose(x, h, w), w, h)), w)
}

/// Key of a component given in a grid of stride `w`: `(canonical bits, width)`.
#[inline(always)]
pub(crate) fn component_key<B: Bits>(bits: B, w: usize) -> (B, usize) {
    let (p, h, nw) = normalize(bits, w);
    canonical(p, h, nw)
}

/// The symmetric images of a canonical component, used to key the options that stay
/// connected and keep the bounding box without canonicalising them from scratch: such an
/// option's images are the component's images minus the images of the two covered cells.
/// A canonical key is at least as wide as it is high; unless its box is square, the transposed
/// images are narrower and never win, so only the mirrors and the half turn are kept.
pub(crate) struct Images<B> {
    img: [B; 8],
    /// Images in use: 8 for a square box, else 4.
    count: usize,
    pub(crate) h: usize,
    pub(crate) w: usize,
}

impl<B: Bits> Images<B> {
    #[inline(always)]
    pub(crate) fn new(x: B, w: usize) -> Images<B> {
        let h = rows_used(x, w);
        let n = h * w;
        let fh = mirror_rows(x, h, w);
        let mut img = [x, fh, reverse(x, n), reverse(fh, n), B::ZERO, B::ZERO, B::ZERO, B::ZERO];
        let count = if h == w {
            let t = transpose(x, h, w);
            let tf = mirror_rows(t, w, h);
            img[4..].copy_from_slice(&[t, tf, reverse(t, n), reverse(tf, n)]);
            8
        } else {
            4
        };
        Images { img, count, h, w }
    }

    /// Bits of cell `i` (of the identity image) in image `t`.
    #[inline(always)]
    fn cell(&self, t: usize, i: usize) -> B {
        let (h, w) = (self.h, self.w);
        let last = h * w - 1;
        let (r, c) = row_col(i, w);
        bit::<B>(match t {
            0 => r * w + c,
            1 => r * w + (w - 1 - c),
            2 => last - (r * w + c),
            3 => last - (r * w + (w - 1 - c)),
            4 => c * h + r,
            5 => c * h + (h - 1 - r),
            6 => last - (c * h + r),
            _ => last - (c * h + (h - 1 - r)),
        })
    }

    /// Whether `x` (cells of the component's box) touches all four sides of the box.
    #[inline(always)]
    pub(crate) fn keeps_box(&self, x: B) -> bool {
        let (h, w) = (self.h, self.w);
        x & low::<B>(w) != B::ZERO
            && x >> ((h - 1) * w) != B::ZERO
            && x & !B::not_first(w) != B::ZERO
            && x & !B::not_last(w) != B::ZERO
    }

    /// Canonical key of the option covering cells `a` and `b`, which the caller found
    /// connected, reduced and keeping the bounding box: the same images win, minus the images
    /// of the two cells.
    #[inline(always)]
    pub(crate) fn option_key(&self, a: usize, b: usize) -> (B, usize) {
        let mut best = B::MAX;
        for t in 0..self.count {
            best = best.min(self.img[t] & !(self.cell(t, a) | self.cell(t, b)));
        }
        (best, self.w)
    }
}

/// The cells of an `h × w` box (`h * w <= 128`) ordered by their distance from its centre,
/// nearest first, ties by index. Built once for every box, for all solvers.
pub(crate) fn centre_order(h: usize, w: usize) -> &'static [u8] {
    static ORDERS: std::sync::OnceLock<Vec<Box<[u8]>>> = std::sync::OnceLock::new();
    let orders = ORDERS.get_or_init(|| {
        let mut all = vec![Box::<[u8]>::default(); 129 * 129];
        for h in 1..=128usize {
            for w in 1..=128 / h {
                let mut cells: Vec<u8> = (0..(h * w) as u8).collect();
                // Twice the distance of the cell from the centre, in each axis.
                cells.sort_by_key(|&i| {
                    let (r, c) = ((i as usize / w) as i64, (i as usize % w) as i64);
                    ((2 * r - (h as i64 - 1)).abs() + (2 * c - (w as i64 - 1)).abs(), i)
                });
                all[h * 129 + w] = cells.into_boxed_slice();
            }
        }
        all
    });
    &orders[h * 129 + w]
}
