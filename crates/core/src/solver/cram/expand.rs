//! Turning cells into table keys: the split of a set of cells into reduced, canonical
//! components (values known at once are XOR-ed away), and the generation of a component's
//! options, each keyed and looked up as soon as it is made.
//!
//! Both work on a bit grid of the width the position needs ([`Bits`]: `u64` up to 64 cells),
//! chosen per call by [`CramSolver::push_components`] and [`CramSolver::push_options`].

use super::bits::{Bits, bit, first_component, first_component_cut, fits_u64, move_count, rows_used};
use super::keys::{Images, centre_order, component_key};
use super::reduce::{half_turn_zero, path_or_cycle_value, reduce_stars, redundant_horizontal, small_value};
use super::solver::{CramSolver, Opt};

/// The value of a reduced component known without a look-up: small ones, paths and cycles.
#[inline(always)]
fn closed_form_value<B: Bits>(comp: B, w: usize) -> Option<u32> {
    small_value(comp.count_ones()).or_else(|| path_or_cycle_value(comp, w))
}

/// Whether a canonical key (packed in its own box, stride `w`) is a second-player win by the
/// mirror strategy (see [`half_turn_zero`]).
#[inline(always)]
fn symmetric_zero<B: Bits>(key: B, w: usize) -> bool {
    half_turn_zero(key, rows_used(key, w), w)
}

/// The component of `cells` containing its lowest cell, without the horizontal edges that
/// start on the cells of `cut`.
#[inline(always)]
fn first_piece<B: Bits>(cells: B, w: usize, cut: B) -> B {
    if cut == B::ZERO {
        first_component(cells, w)
    } else {
        first_component_cut(cells, w, cut)
    }
}

/// Splits `cells` (stride `w`) into components: returns the XOR of the known values, the
/// number of unknown components pushed on `s.comps` (largest last) and their cells.
fn push_components_in<B: Bits>(s: &mut CramSolver, cells: B, w: usize) -> (u32, u32, u32) {
    // Horizontal edges of closed 2×2 blocks can be deleted without changing the value (see
    // `redundant_horizontal`; by induction: a move touching the block from outside leaves a
    // cell with two pendants, one of which goes), so components are taken without them. Each
    // component is evaluated on its own cells, where those edges it still holds change nothing
    // (its blocks are closed in it too).
    let cut = redundant_horizontal(cells, w);
    push_components_from(s, cells, w, cut, first_piece(cells, w, cut))
}

/// [`push_components_in`] when the cut edges and the first piece are known already.
#[inline(always)]
fn push_components_from<B: Bits>(s: &mut CramSolver, mut cells: B, w: usize, mut cut: B, piece: B) -> (u32, u32, u32) {
    let first = s.comps.len();
    let mut xor = 0;
    let mut unknown_cells = 0;
    let mut known_piece = Some(piece);
    // Components whose reduction changed them: split again on their own.
    let mut again = [B::ZERO; 8];
    let mut pending = 0;
    loop {
        if cells == B::ZERO {
            if pending == 0 {
                break;
            }
            pending -= 1;
            cells = again[pending];
            cut = redundant_horizontal(cells, w);
            continue;
        }
        let mut comp = match known_piece.take() {
            Some(piece) => piece,
            None => {
                // What is left is often one piece whose value is known: then it needs no fill.
                if cells.count_ones() > 3
                    && let Some(v) = s.pieces.get(cells.to_u128(), w)
                {
                    xor ^= v;
                    cells = B::ZERO;
                    continue;
                }
                first_piece(cells, w, cut)
            }
        };
        cells &= !comp;
        if let Some(v) = small_value(comp.count_ones()) {
            xor ^= v;
            continue;
        }
        // The cells as found, before any reduction: what the cache is keyed by.
        let raw = comp.to_u128();
        if let Some(v) = s.pieces.get(raw, w) {
            xor ^= v;
            continue;
        }
        let reduced = reduce_stars(comp, w);
        if reduced != comp && pending < again.len() {
            // Removing a bridge may have split it.
            again[pending] = reduced;
            pending += 1;
            continue;
        }
        comp = reduced;
        let known = match closed_form_value(comp, w) {
            Some(v) => Some(v),
            None => {
                let (k, kw) = component_key(comp, w);
                if symmetric_zero(k, kw) {
                    Some(0)
                } else {
                    match s.lookup(k.to_u128(), kw) {
                        Some(v) => Some(v),
                        None => {
                            s.comps.push((k.to_u128(), kw));
                            unknown_cells += comp.count_ones();
                            None
                        }
                    }
                }
            }
        };
        if let Some(v) = known {
            xor ^= v;
            s.pieces.put(raw, w, v);
        }
    }
    let part = &mut s.comps[first..];
    if part.len() > 1 {
        insertion_sort_by(part, |&(ka, wa), &(kb, wb)| {
            (ka.count_ones(), wa, ka) < (kb.count_ones(), wb, kb)
        });
        // Equal components cancel (G + G = 0): drop them in pairs.
        let mut kept = 0;
        let mut i = 0;
        while i < part.len() {
            if i + 1 < part.len() && part[i] == part[i + 1] {
                unknown_cells -= 2 * part[i].0.count_ones();
                i += 2;
            } else {
                part[kept] = part[i];
                kept += 1;
                i += 1;
            }
        }
        s.comps.truncate(first + kept);
    }
    (xor, (s.comps.len() - first) as u32, unknown_cells)
}

/// Cells whose moves are listed at a time.
const CHUNK: usize = 16;

/// Generates the options of a component on top of the stacks. Returns the set of option
/// values already known (bit v for v < 256) and the number of options; `Err` with the known
/// option values below 128 as soon as they cover the non-empty `stop` set (the component's
/// value is then none of them), leaving the stacks for the caller to truncate.
#[inline(always)]
fn push_options_in<B: Bits>(s: &mut CramSolver, key: B, w: usize, stop: u128) -> Result<([u64; 4], u32), u128> {
    let covered = |known: &[u64; 4]| stop != 0 && stop & !(known[0] as u128 | (known[1] as u128) << 64) == 0;
    s.expanded += 1;
    let mut known = [0u64; 4];
    let mut count = 0;
    let hs = key & (key >> 1) & B::not_last(w) & !redundant_horizontal(key, w);
    let vs = key & key.shr_or_zero(w);
    let base_o = s.opts.len();
    let images = Images::new(key, w);
    // One pass, centre first, each option looked up as soon as it is keyed: most searches
    // with a stop set end here (Beling's enhanced transposition cutoff), and a move near the
    // centre is the likeliest to split the component into pieces whose values are all known.
    // The legal moves in centre order (`2 * cell` horizontal, `2 * cell + 1` vertical), listed
    // without a branch per cell, `CHUNK` cells at a time: which cells hold a move is not
    // predictable (listing them all first: 4×9 0.182 → 0.175 s, 5×7 0.391 → 0.370), and a
    // cut-off early in the order skips the later chunks (0.174 → 0.171 s). A chunk has at
    // most two moves a cell, so each write stays in the list.
    for chunk in centre_order(images.h, w).chunks(CHUNK) {
        let mut list = [0u8; 2 * CHUNK];
        let mut n = 0;
        for &cell in chunk {
            let b = bit::<B>(cell as usize);
            list[n] = 2 * cell;
            n += (hs & b != B::ZERO) as usize;
            list[n] = 2 * cell + 1;
            n += (vs & b != B::ZERO) as usize;
        }
        for &m in &list[..n] {
            let i = (m / 2) as usize;
            let (a, c) = if m % 2 == 0 { (i, i + 1) } else { (i, i + w) };
            count += 1;
            let first = s.comps.len();
            let x = key & !(bit::<B>(a) | bit::<B>(c));
            let cut = redundant_horizontal(x, w);
            let piece = first_piece(x, w, cut);
            // Still one component in the same box and nothing to reduce: keyed from the
            // component's images; else split and keyed from scratch.
            let (xor, len, cells) = if piece == x && cut == B::ZERO && images.keeps_box(x) && reduce_stars(x, w) == x {
                let (k, kw) = images.option_key(a, c);
                match path_or_cycle_value(k, kw) {
                    Some(v) => (v, 0, 0),
                    None if symmetric_zero(k, kw) => (0, 0, 0),
                    None => match s.lookup(k.to_u128(), kw) {
                        Some(v) => (v, 0, 0),
                        None => {
                            s.comps.push((k.to_u128(), kw));
                            (0, 1, k.count_ones())
                        }
                    },
                }
            } else {
                push_components_from(s, x, w, cut, piece)
            };
            if len == 0 {
                if xor < 256 {
                    known[(xor / 64) as usize] |= 1 << (xor % 64);
                }
                if covered(&known) {
                    return Err(known[0] as u128 | (known[1] as u128) << 64);
                }
            } else {
                let mut moves = 0;
                for &(k, kw) in &s.comps[first..] {
                    moves += move_count(k, kw);
                }
                // The largest component will be asked about a set of values first, which
                // reads what it is known not to be: start loading that entry now.
                if let Some((k, kw)) = s.comps.last().copied() {
                    s.prefetch_bounds(k, kw);
                }
                s.opts.push(Opt {
                    first: first as u32,
                    len,
                    xor,
                    cells,
                    moves,
                });
            }
        }
    }
    let opts = &mut s.opts[base_o..];
    // Symmetric positions have many equal options; an option has one value, so keep one copy
    // of each single-component option. Then try options with fewer moves first (Beling's
    // "less moves first"): they are cheaper to settle. On 5×6 this searched 2.3 times fewer
    // positions than ordering by cell count, and the sum of squared cell counts of the
    // components (`igs`'s order) 2.3 times more on 5×6 and 5×7; squared move counts or the
    // largest component's moves did no better.
    let comps = &s.comps;
    // By (moves, cells, components, xor), then by the first component, packed so that most
    // comparisons are one of integers.
    let rank = |o: &Opt| (o.moves as u64) << 40 | (o.cells as u64) << 32 | (o.len as u64) << 24 | o.xor as u64;
    insertion_sort_by(opts, |a, b| {
        let (ra, rb) = (rank(a), rank(b));
        ra < rb
            || ra == rb && {
                let ((ka, wa), (kb, wb)) = (comps[a.first as usize], comps[b.first as usize]);
                (wa, ka) < (wb, kb)
            }
    });
    let mut kept = 0;
    for i in 0..opts.len() {
        let same = kept > 0 && {
            let (a, b) = (opts[kept - 1], opts[i]);
            a.len == 1 && b.len == 1 && a.xor == b.xor && comps[a.first as usize] == comps[b.first as usize]
        };
        if !same {
            opts[kept] = opts[i];
            kept += 1;
        }
    }
    s.opts.truncate(base_o + kept);
    Ok((known, count))
}

impl CramSolver {
    /// Splits `cells` (stride `w`) into components: returns the XOR of the known values, the
    /// number of unknown components pushed on `self.comps` (largest last) and their cells.
    pub(super) fn push_components(&mut self, cells: u128, w: usize) -> (u32, u32, u32) {
        if fits_u64(cells, w) {
            push_components_in(self, cells as u64, w)
        } else {
            push_components_in(self, cells, w)
        }
    }

    /// Generates the options of a component on top of the stacks (see `push_options_in`).
    pub(super) fn push_options(&mut self, key: u128, w: usize, stop: u128) -> Result<([u64; 4], u32), u128> {
        if fits_u64(key, w) {
            #[cfg(target_arch = "x86_64")]
            if *BIT_INSTRUCTIONS {
                // SAFETY: the processor has the instructions `push_options_u64_bmi` is compiled
                // for (asked at run time).
                return unsafe { push_options_u64_bmi(self, key as u64, w, stop) };
            }
            push_options_in(self, key as u64, w, stop)
        } else {
            push_options_in(self, key, w, stop)
        }
    }
}

/// Whether the processor counts bits and finds the lowest and highest set bit in one
/// instruction each (x86-64 from about 2013 on): the bit grids of the search count cells all
/// the time, and without `popcnt` a count takes a dozen instructions.
#[cfg(target_arch = "x86_64")]
static BIT_INSTRUCTIONS: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
});

/// [`push_options_in`] on `u64` grids compiled for those instructions (the default build
/// targets the first x86-64 processors; every helper it calls is inlined into it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn push_options_u64_bmi(s: &mut CramSolver, key: u64, w: usize, stop: u128) -> Result<([u64; 4], u32), u128> {
    push_options_in(s, key, w, stop)
}

/// Sorts `v` by `less`, keeping equal elements in order: the lists sorted here are short (a
/// component's options, an option's components), where inserting each element in turn takes
/// fewer comparisons and moves than a general sort.
#[inline(always)]
fn insertion_sort_by<T: Copy>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && less(&x, &v[j - 1]) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}
