//! Push Cram positions as the outcome search and its table see them: components cropped to
//! their empty cells and reduced under the symmetries that keep rows as rows and columns as
//! columns (the left-right and top-bottom mirrors and the half turn; transposition would swap
//! the two rule sets, so it is not a symmetry here), the components without a vertical domino
//! folded into one number `t` (their post-push values), equal components cancelled in pairs,
//! and the rest packed side by side into one board that keys the table.

use super::bits::{first_component, up};
use super::octal::row_runs_value;
use crate::game::rules::cram_board::low_bits;

/// Crops `cells` (stride `w`) to its bounding box and returns the smallest of its images under
/// the left-right mirror, top-bottom mirror and half turn, with the cropped width.
pub(super) fn push_key(cells: u128, w: usize) -> (u128, usize) {
    if cells == 0 {
        return (0, 1);
    }
    let r0 = cells.trailing_zeros() as usize / w;
    let r1 = (127 - cells.leading_zeros() as usize) / w;
    let h = r1 - r0 + 1;
    let b = cells >> (r0 * w);
    let row_mask = low_bits(w);
    let mut occ = 0u128;
    for r in 0..h {
        occ |= (b >> (r * w)) & row_mask;
    }
    let c0 = occ.trailing_zeros() as usize;
    let nw = 128 - occ.leading_zeros() as usize - c0;
    let m = low_bits(nw);
    let mut x = 0u128;
    let mut mirrored = 0u128;
    for r in 0..h {
        // (r * w + c0) < 128: the last row of the box holds a cell at column >= c0.
        let row = (b >> (r * w + c0)) & m;
        x |= row << (r * nw);
        mirrored |= (row.reverse_bits() >> (128 - nw)) << (r * nw);
    }
    let n = h * nw;
    let rev = |y: u128| y.reverse_bits() >> (128 - n);
    (x.min(mirrored).min(rev(x)).min(rev(mirrored)), nw)
}

/// A position reduced for the table: the packed board of its components that have a
/// vertical domino (stride `w`) and the XOR `t` of the post-push values of the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reduced {
    pub(super) bits: u128,
    pub(super) w: usize,
    pub(super) t: u32,
}

/// Splits `cells` (stride `w`) into components, folds the static ones into `t`, cancels equal
/// pairs and packs the rest (see [`pack`]).
pub(super) fn reduce(cells: u128, w: usize, t: u32, parts: &mut Vec<(usize, u128, usize)>) -> Reduced {
    let mut found = Vec::new();
    let fixed = split_parts(cells, w, &mut found);
    parts.clear();
    parts.extend(found.iter().map(|p| (p.kw, p.k, p.kh)));
    // The live cells (those of components with a vertical domino), only for a key that does
    // not pack.
    let live = || {
        let mut live = 0;
        let mut rest = cells;
        while rest != 0 {
            let comp = first_component(rest, w);
            rest &= !comp;
            if comp & up(comp, w) != 0 {
                live |= comp;
            }
        }
        live
    };
    pack(parts, t ^ fixed, live, w)
}

/// Cancels equal pairs among the keys of the live components (`parts`) and packs the rest
/// (canonical, sorted, left to right with a blocked column between them, top-aligned). When
/// the packing would not fit 128 cells, keys the live cells `live` (stride `w`) where they are
/// instead (a valid but less shared key).
pub(super) fn pack(parts: &mut Vec<(usize, u128, usize)>, t: u32, live: impl FnOnce() -> u128, w: usize) -> Reduced {
    if parts.is_empty() {
        return Reduced { bits: 0, w: 1, t };
    }
    let n = cancel_pairs(parts);
    parts.truncate(n);
    let kept = &parts[..];
    if kept.is_empty() {
        return Reduced { bits: 0, w: 1, t };
    }
    if kept.len() == 1 {
        return Reduced {
            bits: kept[0].1,
            w: kept[0].0,
            t,
        };
    }
    let height = kept.iter().map(|p| p.2).max().unwrap_or(1);
    let width = kept.iter().map(|p| p.0).sum::<usize>() + kept.len() - 1;
    if height * width > 128 {
        let (bits, kw) = push_key(live(), w);
        return Reduced { bits, w: kw, t };
    }
    let mut bits = 0u128;
    let mut col = 0;
    for &(kw, k, kh) in kept {
        let m = low_bits(kw);
        for r in 0..kh {
            bits |= ((k >> (r * kw)) & m) << (r * width + col);
        }
        col += kw + 1;
    }
    Reduced { bits, w: width, t }
}

/// A component with a vertical domino, by its key: the outcome search works on lists of
/// parts and packs them only to key the table. Ordered by `(kw, k)`, as [`pack`] orders them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Part {
    pub(super) kw: usize,
    pub(super) k: u128,
    pub(super) kh: usize,
    /// Its post-push value.
    pub(super) post: u32,
}

/// A position of the outcome search: parts `first..first + len` of the arena and its key
/// (`key.w == 0`: too large to pack, not kept in the table), which holds `t`, plus a nim heap
/// of size `heap` beside the board (playable before and after the push), so that
/// "is the value v?" is "is the position plus *v a P-position?".
#[derive(Debug, Clone, Copy)]
pub(super) struct Node {
    pub(super) first: u32,
    pub(super) len: u32,
    pub(super) heap: u32,
    pub(super) key: Reduced,
}

/// Heaps beside the board are below this (they share the table's tag with the width and `t`).
pub(super) const HEAP_LIMIT: u32 = 32;

/// The table tag of a key with a heap: width (at most 128), `t` (below 8: values of 0.07 on
/// at most 128 cells are below 8) and the heap.
#[inline]
pub(super) fn tag(key: &Reduced, heap: u32) -> usize {
    key.w | (key.t as usize) << 8 | (heap as usize) << 11
}

/// Splits `cells` (stride `w`) into components: pushes the parts of those with a vertical
/// domino and returns the XOR of the post-push values of the others.
pub(super) fn split_parts(cells: u128, w: usize, out: &mut Vec<Part>) -> u32 {
    let mut t = 0;
    let mut rest = cells;
    while rest != 0 {
        let comp = first_component(rest, w);
        rest &= !comp;
        let post = row_runs_value(comp, w);
        if comp & up(comp, w) == 0 {
            t ^= post;
            continue;
        }
        let (k, kw) = push_key(comp, w);
        let kh = (127 - k.leading_zeros() as usize) / kw + 1;
        out.push(Part { kw, k, kh, post });
    }
    t
}

/// Sorts `parts` and drops equal pairs (they cancel); returns how many are left at the front.
pub(super) fn cancel_pairs<T: Ord + Copy>(parts: &mut [T]) -> usize {
    parts.sort_unstable();
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        if i + 1 < parts.len() && parts[i] == parts[i + 1] {
            i += 2;
        } else {
            parts[n] = parts[i];
            n += 1;
            i += 1;
        }
    }
    n
}

/// The key of sorted, cancelled parts with `t`, packed as [`pack`] packs them; `w == 0` when
/// they do not fit 128 cells.
pub(super) fn pack_parts(parts: &[Part], t: u32) -> Reduced {
    match parts {
        [] => Reduced { bits: 0, w: 1, t },
        [p] => Reduced { bits: p.k, w: p.kw, t },
        _ => {
            let height = parts.iter().map(|p| p.kh).max().unwrap_or(1);
            let width = parts.iter().map(|p| p.kw).sum::<usize>() + parts.len() - 1;
            if height * width > 128 {
                return Reduced { bits: 0, w: 0, t };
            }
            let mut bits = 0u128;
            let mut col = 0;
            for p in parts {
                let m = low_bits(p.kw);
                for r in 0..p.kh {
                    bits |= ((p.k >> (r * p.kw)) & m) << (r * width + col);
                }
                col += p.kw + 1;
            }
            Reduced { bits, w: width, t }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::cram_board::Board;

    #[test]
    fn keys_keep_rows() {
        let k = |t: &str| {
            let b: Board = t.parse().unwrap();
            push_key(b.empty_mask(), b.cols())
        };
        // Mirrors and the half turn.
        assert_eq!(k("..#/.../..."), k("#../.../..."));
        assert_eq!(k("..#/.../..."), k(".../.../..#"));
        assert_eq!(k("..#/.../..."), k(".../.../#.."));
        // Blocked borders are cropped.
        assert_eq!(k("###/#../#.."), k("../.."));
        // A column is not a row: transposition is not a symmetry of Push Cram.
        assert_ne!(k("..."), k("././."));
        assert_ne!(k("../.#/.#"), k(".../.##"));
    }
}
