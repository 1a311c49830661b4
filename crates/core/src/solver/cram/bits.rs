//! Bit grids: a set of cells packed row-major with stride `w` into one machine word, and the
//! word operations the Cram solver builds on (neighbours, components, masks of columns).
//!
//! The same code runs on `u64` when the grid of a search has at most 64 cells (all boards up to
//! 8×8, 5×12, 3×21, ...), where shifts and bit tricks are several times cheaper, and on `u128`
//! otherwise ([`Bits`] is implemented for both; every function here is generic over it and
//! monomorphised, so neither pays for the other). Keys are always stored as `u128`.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A machine word used as a bit grid: `u64` or `u128`.
pub(crate) trait Bits:
    Copy
    + Eq
    + Ord
    + std::hash::Hash
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const BITS: usize;
    const ZERO: Self;
    const ONE: Self;
    const MAX: Self;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
    fn reverse_bits(self) -> Self;
    fn wrapping_neg(self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
    /// `self >> n`, 0 when `n >= BITS` (a 1-row grid of 128 columns has stride 128).
    fn shr_or_zero(self, n: usize) -> Self;
    /// `self << n`, 0 when `n >= BITS`.
    fn shl_or_zero(self, n: usize) -> Self;
    /// The low bits of a `u128` (the caller knows the rest are zero).
    fn from_u128(x: u128) -> Self;
    fn to_u128(self) -> u128;
    /// Column masks for stride `w`: cells not in the last column, cells not in the first.
    fn not_last(w: usize) -> Self;
    fn not_first(w: usize) -> Self;
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = <$t>::MAX;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn reverse_bits(self) -> Self {
                <$t>::reverse_bits(self)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn shr_or_zero(self, n: usize) -> Self {
                self.checked_shr(n as u32).unwrap_or(0)
            }
            #[inline(always)]
            fn shl_or_zero(self, n: usize) -> Self {
                self.checked_shl(n as u32).unwrap_or(0)
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn not_last(w: usize) -> Self {
                NOT_LAST[w] as $t
            }
            #[inline(always)]
            fn not_first(w: usize) -> Self {
                NOT_FIRST[w] as $t
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

const fn build_masks(first: bool) -> [u128; 129] {
    let mut out = [0u128; 129];
    let mut w = 1;
    while w <= 128 {
        let mut m = 0u128;
        let mut i = 0;
        while i < 128 {
            let c = i % w;
            if (first && c != 0) || (!first && c != w - 1) {
                m |= 1u128 << i;
            }
            i += 1;
        }
        out[w] = m;
        w += 1;
    }
    out
}

/// `ROW[w][i]` = `i / w` for a bit `i < 128`: the searches divide bit indices by the stride
/// all the time, and a division takes dozens of cycles where a look-up in this 16 KiB table
/// takes a few.
static ROW: [[u8; 128]; 129] = {
    let mut t = [[0u8; 128]; 129];
    let mut w = 1;
    while w <= 128 {
        let mut i = 0;
        while i < 128 {
            t[w][i] = (i / w) as u8;
            i += 1;
        }
        w += 1;
    }
    t
};

/// The row of bit `i < 128` in a grid of stride `w`.
#[inline(always)]
pub(crate) fn row_of(i: usize, w: usize) -> usize {
    ROW[w][i] as usize
}

/// The row and column of bit `i < 128` in a grid of stride `w`.
#[inline(always)]
pub(crate) fn row_col(i: usize, w: usize) -> (usize, usize) {
    let r = row_of(i, w);
    (r, i - r * w)
}

/// Rows of the grid holding the non-empty `cells` (stride `w`): up to the last occupied one.
#[inline(always)]
pub(crate) fn rows_used<B: Bits>(cells: B, w: usize) -> usize {
    row_of(B::BITS - 1 - cells.leading_zeros() as usize, w) + 1
}

/// `NOT_LAST[w]`: bits whose column (stride `w`) is not the last one.
pub(crate) static NOT_LAST: [u128; 129] = build_masks(false);
/// `NOT_FIRST[w]`: bits whose column (stride `w`) is not the first one.
static NOT_FIRST: [u128; 129] = build_masks(true);

/// Mask of the low `n` bits.
#[inline(always)]
pub(crate) fn low<B: Bits>(n: usize) -> B {
    if n >= B::BITS {
        B::MAX
    } else {
        (B::ONE << n).wrapping_sub(B::ONE)
    }
}

/// The single bit `i`.
#[inline(always)]
pub(crate) fn bit<B: Bits>(i: usize) -> B {
    B::ONE << i
}

/// The cells of `x` (stride `w`) moved one row up, one row down, one column left, one right
/// (cells that fall off the grid go).
#[inline(always)]
pub(crate) fn up<B: Bits>(x: B, w: usize) -> B {
    x.shr_or_zero(w)
}

#[inline(always)]
pub(crate) fn down<B: Bits>(x: B, w: usize) -> B {
    x.shl_or_zero(w)
}

#[inline(always)]
pub(crate) fn left<B: Bits>(x: B, w: usize) -> B {
    (x >> 1) & B::not_last(w)
}

#[inline(always)]
pub(crate) fn right<B: Bits>(x: B, w: usize) -> B {
    (x << 1) & B::not_first(w)
}

/// Cells with a neighbour in `x` (stride `w`).
#[inline(always)]
pub(crate) fn neighbours<B: Bits>(x: B, w: usize) -> B {
    right(x, w) | left(x, w) | down(x, w) | up(x, w)
}

/// Starts of the horizontal dominoes of `x` (the left cell) and of the vertical ones (the top
/// cell).
#[inline(always)]
pub(crate) fn horizontal_starts<B: Bits>(x: B, w: usize) -> B {
    x & (x >> 1) & B::not_last(w)
}

#[inline(always)]
pub(crate) fn vertical_starts<B: Bits>(x: B, w: usize) -> B {
    x & x.shr_or_zero(w)
}

/// Legal moves of a set of cells.
#[inline(always)]
pub(crate) fn move_count<B: Bits>(x: B, w: usize) -> u32 {
    horizontal_starts(x, w).count_ones() + vertical_starts(x, w).count_ones()
}

/// The cells reached from the cells of `x` by going right along the runs of `links` (cells
/// whose right neighbour is linked to them), each run with the cell past its end (which the
/// caller keeps only if it is a cell). One addition carries through a whole run: adding the
/// lowest seed of a run clears it up to its end and sets the bit past it, and a seed higher in
/// the run only sets its own bit again (`x` is OR-ed back by the caller).
#[inline(always)]
fn run_right<B: Bits>(x: B, links: B) -> B {
    links.wrapping_add(x & links) ^ links
}

/// The connected component of `cells` containing its lowest cell. It grows one cell at a time
/// up, down and left but along a whole run to the right: the lowest cell is the left end of
/// the top row, so most of a component is to its right and below (4×9 and 3×13 take about
/// half the rounds).
#[inline(always)]
pub(crate) fn first_component<B: Bits>(cells: B, w: usize) -> B {
    first_component_cut(cells, w, B::ZERO)
}

/// The component of `cells` containing its lowest cell when the horizontal edges from the
/// cells of `cut` to their right neighbours are deleted.
#[inline(always)]
pub(crate) fn first_component_cut<B: Bits>(cells: B, w: usize, cut: B) -> B {
    // No cell of the last column links right, so no carry crosses into the next row (nor out
    // of the word: its top bit, if a cell, is in the last column).
    let links = cells & B::not_last(w) & !cut;
    let mut comp = cells & cells.wrapping_neg();
    loop {
        let x = comp;
        let next = (x | run_right(x, links) | (left(x, w) & !cut) | down(x, w) | up(x, w)) & cells;
        if next == comp {
            return comp;
        }
        comp = next;
    }
}

/// Whether the grid holding `cells` (rows up to the last occupied one, stride `w`) has at most
/// 64 cells, so that it and everything cut from it fit a `u64`.
#[inline]
pub(crate) fn fits_u64(cells: u128, w: usize) -> bool {
    cells == 0 || rows_used(cells, w) * w <= 64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_in_their_rows() {
        // 3 columns: cell 2 (end of row 0) has no right neighbour, cell 3 no left one.
        let x: u64 = 1 << 2;
        assert_eq!(right(x, 3), 0);
        assert_eq!(left(x, 3), 1 << 1);
        assert_eq!(down(x, 3), 1 << 5);
        assert_eq!(up(x, 3), 0);
        // 128 columns in one row: the shifts by the stride give nothing.
        assert_eq!(up(u128::MAX, 128), 0);
        assert_eq!(down(1u128, 128), 0);
        assert_eq!(move_count(low::<u64>(6), 3), 7, "2×3: 4 horizontal, 3 vertical");
    }

    #[test]
    fn components() {
        // ..#
        // #..
        // A staircase: one component; with the edge (1,1)-(1,2) cut, (1,2) stays connected
        // through nothing else, so it falls off.
        let cells: u64 = 0b110_011;
        assert_eq!(first_component(cells, 3), cells);
        assert_eq!(first_component_cut(cells, 3, 1 << 4), 0b010_011);
        assert!(fits_u64(u128::MAX >> 64, 8));
        assert!(!fits_u64(1 << 64, 8));
    }
}
