//! Value-preserving simplifications of Cram components, and the components whose value is
//! read off without search.
//!
//! Cram only sees the adjacency graph of the empty cells (a move removes two adjacent ones),
//! so anything that leaves an isomorphic graph, or a graph known to have the same value, may
//! replace a component before it is looked up or searched:
//! - of several pendant cells on one centre, one is enough, and a bridge (a cell whose every
//!   neighbour is a centre) can go ([`reduce_stars`]);
//! - the horizontal edges of a closed 2×2 block change no value ([`redundant_horizontal`]);
//! - paths and cycles are octal game 0.07 ([`path_or_cycle_value`]);
//! - a component symmetric under the half turn with no cell and no domino fixed by it is a
//!   second-player win ([`half_turn_zero`]).

use super::bits::{Bits, down, left, neighbours, right, up};
use super::octal::G007;

/// Values of the components that are too small to look up: one cell has no move (0); two or
/// three connected cells leave at most one cell after any move (1).
#[inline(always)]
pub(crate) fn small_value(cells: u32) -> Option<u32> {
    match cells {
        0 | 1 => Some(0),
        2 | 3 => Some(1),
        _ => None,
    }
}

/// Starts of horizontal dominoes that need no search (Beling's `igs`): in a 2×2 block of empty
/// cells whose two opposite corners have no neighbour outside the block, a horizontal domino
/// leaves the same graph as the vertical one beside it (the remaining pair is a cell with one
/// pendant either way), so it is the same option.
#[inline(always)]
pub(crate) fn redundant_horizontal<B: Bits>(p: B, w: usize) -> B {
    let right_n = left(p, w); // cells whose right neighbour is empty
    let left_n = right(p, w); // cells whose left neighbour is empty
    let below = up(p, w); // cells whose lower neighbour is empty
    let above = down(p, w); // cells whose upper neighbour is empty
    // Cells with an empty right (left) neighbour and a blocked left (right) one, and with an
    // empty neighbour below (above) and a blocked one above (below).
    let open_right = p & right_n & !left_n;
    let open_left = p & left_n & !right_n;
    let open_down = below & !above;
    let open_up = above & !below;
    // Bottom-left cells of the blocks: corners top-left and bottom-right closed...
    let a = down(open_right & open_down, w) & ((open_left & open_up) >> 1);
    // ... or top-right and bottom-left closed.
    let b = (open_left & open_down).shl_or_zero(w - 1) & open_right & open_up;
    let bottom = a | b;
    bottom | up(bottom, w)
}

/// Removes redundant pendant cells: when a cell has two or more neighbours that have no other
/// neighbour (pendants), all but one of those pendants can go without changing the value. A
/// domino on the centre and any pendant leaves the other pendants isolated, so the options are
/// the same positions up to isolated cells, and every other move keeps the situation
/// (induction on the number of cells). Also removes bridges, cells all of whose neighbours are
/// centres (Beling's `igs` does the same; the brute force of `crates/core/tests/it/cram_solver/` checks it
/// on every subset of 4×4). Repeats until nothing changes, since a centre that loses pendants
/// may become a pendant itself.
#[inline(always)]
pub(crate) fn reduce_stars<B: Bits>(mut p: B, w: usize) -> B {
    loop {
        let below = p & up(p, w);
        let above = p & down(p, w);
        let right_n = p & left(p, w);
        let left_n = p & right(p, w);
        // Exactly one neighbour: an odd count that is not three.
        let pendant = (below ^ above ^ right_n ^ left_n)
            & !((below | above) & (right_n | left_n))
            & !(below & above)
            & !(right_n & left_n);
        if pendant == B::ZERO {
            return p;
        }
        // Centres, one direction at a time; a pendant whose centre already has a pendant kept
        // from an earlier direction is removed.
        let mut centres = down(pendant & below, w);
        let from_right = (pendant & right_n) << 1;
        let mut drop = (from_right & centres) >> 1;
        centres |= from_right;
        let from_up = up(pendant & above, w);
        drop |= down(from_up & centres, w);
        centres |= from_up;
        let from_left = (pendant & left_n) >> 1;
        drop |= (from_left & centres) << 1;
        centres |= from_left;
        // Bridges (Beling's `igs`): a cell that is neither a pendant nor a centre and whose
        // every neighbour is a centre can go as well.
        let rest = p & !pendant & !centres;
        drop |= rest & !neighbours(rest, w);
        if drop == B::ZERO {
            return p;
        }
        p &= !drop;
    }
}

/// The value of a connected component whose cells form a path or a cycle, read off 0.07. Cram
/// only sees the adjacency graph of the empty cells, so a path of n cells, bent or not, is 0.07
/// on n cells, and a cycle of n cells, whose every move leaves a path of n - 2 cells, has value
/// mex{G(n - 2)}.
#[inline(always)]
pub(crate) fn path_or_cycle_value<B: Bits>(p: B, w: usize) -> Option<u32> {
    let below = p & up(p, w);
    let above = p & down(p, w);
    let right_n = p & left(p, w);
    let left_n = p & right(p, w);
    // Three or more neighbours: some pair of directions from different axes plus a third.
    let vertical_both = below & above;
    let horizontal_both = right_n & left_n;
    let vertical_any = below | above;
    let horizontal_any = right_n | left_n;
    let three = (vertical_both & horizontal_any) | (horizontal_both & vertical_any);
    if three != B::ZERO {
        return None;
    }
    let one = (below ^ above ^ right_n ^ left_n) & !(vertical_any & horizontal_any) & !vertical_both & !horizontal_both;
    let n = p.count_ones() as usize;
    match one.count_ones() {
        2 => Some(G007[n]),
        0 => Some((G007[n - 2] == 0) as u32),
        _ => None,
    }
}

/// Whether the component `x`, packed in its own `h × w` bounding box, is a second-player win
/// (value 0) by the mirror strategy: it is symmetric under the half turn about the box's
/// centre, the centre is not an empty cell, and no domino of empty cells is turned onto
/// itself.
///
/// Proof: the second player answers every domino `d` with its image `d'`. In a symmetric
/// position `d'` is empty because `d` was; it is disjoint from `d` because a shared cell `c`
/// would give `c' ∈ d` too, so either `c = c'` (the centre, which is not empty) or
/// `d = {c, c'}` (a domino turned onto itself, excluded). The position after both moves is
/// symmetric again, with fewer empty cells, and still has neither, so the second player never
/// runs out of answers. (The same holds for any fixed-point-free involution of the graph that
/// maps no edge onto itself; for a connected component of the grid, the mirror images and
/// the diagonal reflections always fix a cell or an edge, so the half turn is the one that
/// matters. Even × even rectangles are the classic case.) Tested against the search on every
/// subset of small grids (`crates/core/tests/it/cram_solver/`).
#[inline(always)]
pub(crate) fn half_turn_zero<B: Bits>(x: B, h: usize, w: usize) -> bool {
    let n = h * w;
    if x.reverse_bits() >> (B::BITS - n) != x {
        return false;
    }
    match (h % 2, w % 2) {
        // The centre is a corner shared by four cells: nothing is fixed.
        (0, 0) => true,
        // The centre is a cell: it must be blocked.
        (1, 1) => x >> (n / 2) & B::ONE == B::ZERO,
        // The centre is the midpoint of a horizontal pair of the middle row (w even) or of a
        // vertical pair of the middle column (h even): that pair must not be a domino.
        (1, 0) => {
            let a = (h / 2) * w + w / 2 - 1;
            x >> a & x >> (a + 1) & B::ONE == B::ZERO
        }
        _ => {
            let a = (h / 2 - 1) * w + w / 2;
            x >> a & x >> (a + w) & B::ONE == B::ZERO
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board text of `.` and `#` rows as (bits, h, w).
    fn grid(text: &str) -> (u64, usize, usize) {
        let rows: Vec<&str> = text.split('/').collect();
        let w = rows[0].len();
        let mut x = 0u64;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '.' {
                    x |= 1 << (r * w + c);
                }
            }
        }
        (x, rows.len(), w)
    }

    #[test]
    fn half_turn_symmetry() {
        let zero = |t: &str| {
            let (x, h, w) = grid(t);
            half_turn_zero(x, h, w)
        };
        assert!(zero("../.."), "2×2");
        assert!(zero("..../...."), "2×4");
        assert!(zero("...#/#..."), "no fixed cell in an even × even box");
        assert!(zero(".../.#./..."), "a ring around a blocked centre");
        assert!(!zero(".../.../..."), "3×3: the centre is empty");
        assert!(!zero("..."), "1×3: the centre is empty");
        assert!(!zero("../../.."), "3×2: the middle row is a domino onto itself");
        assert!(
            !zero("..#/#.."),
            "an S: its middle column is a domino turned onto itself"
        );
        assert!(!zero("..#/..."), "not symmetric");
        assert!(!zero("./."), "2×1: one domino, turned onto itself");
    }
}
