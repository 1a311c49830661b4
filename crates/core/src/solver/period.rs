//! Periods of value sequences and their certificates: a period seen in a computed prefix is
//! reported only when an argument proves it continues (a bounded memory of the rule, or the
//! Guy–Smith argument for splitting games). A leaf of `solver/`: the sequences and the octal
//! engine both use it, and it uses neither.

/// A sequence value that is not a position's (an index that is not a position).
pub(super) const NONE: u32 = u32::MAX;

/// Period and pre-period of a sequence, with the certificate's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Periodicity {
    /// G(n + period) = G(n) for all n ≥ preperiod.
    pub period: u64,
    /// The first n from which the period holds (0: purely periodic).
    pub preperiod: u64,
}

/// How the value at n depends on earlier values, for certification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Memory {
    /// G(n) is a function of G(n-1..n-M) and n mod (pushes' periods) for n ≥ M.
    Window(u64),
    /// No certificate (Nim, the divisor game, …).
    Unbounded,
}

/// The least certified (period, pre-period) of a prefix of a sequence whose value at n is a
/// function of the previous `window` values and of `n mod step` for `n ≥ min_pre` (for
/// example the outcome sequence of `push(sub(S), R2)`, with `step` the period of `R2`).
pub fn certify_window(values: &[u32], window: u64, step: u64, min_pre: u64) -> Option<Periodicity> {
    certify(values, Memory::Window(window), step, min_pre)
}

/// The least period certified by the Guy–Smith argument for a splitting game whose moves leave
/// at most `parts` heaps (2 or 3) and take at most `take` tokens: `G(n + p) = G(n)` for
/// `n0 ≤ n` with `n + p < len` and `len ≥ parts·(max(n0, 1) + p) + take`.
///
/// Why: for `N` past that bound every option of `N` has a part `x ≥ n0 + p` and every option of
/// `N − p` a part `y ≥ n0`; moving that part by `p` matches the options' values one to one. The
/// moved part must stay a heap (`x − p ≥ 1`), hence `max(n0, 1)`: with `n0 = 0` a split of `N`
/// into parts of `p` tokens would have no partner (0.8's first values are 0,0,0,0,1: no period
/// of 1 from 0, although the first four agree).
pub fn certify_splits(values: &[u32], parts: u64, take: u64) -> Option<Periodicity> {
    certify_by(values, 1, 0, |n0, p, len| {
        parts
            .checked_mul(n0.max(1))
            .and_then(|x| x.checked_add(parts * p))
            .and_then(|x| x.checked_add(take))
            .is_some_and(|need| need <= len)
    })
}

/// The least certified (period, pre-period) of the computed prefix, if any.
pub(super) fn certify(values: &[u32], memory: Memory, step: u64, min_pre: u64) -> Option<Periodicity> {
    match memory {
        Memory::Window(m) => certify_by(values, step, min_pre, |n0, p, len| n0 + m + p <= len && n0 + p >= m),
        Memory::Unbounded => None,
    }
}

pub(super) fn certify_by(
    values: &[u32],
    step: u64,
    min_pre: u64,
    certified: impl Fn(u64, u64, u64) -> bool,
) -> Option<Periodicity> {
    let len = values.len() as u64;
    let mut p = step;
    while p < len {
        // the last i where the shift by p disagrees
        let last_bad = (0..len - p)
            .rev()
            .find(|&i| values[i as usize] != values[(i + p) as usize]);
        let n0 = last_bad.map_or(0, |i| i + 1).max(min_pre);
        if certified(n0, p, len) && !values[n0 as usize..].contains(&NONE) {
            // The least pre-period for this period is n0; the period is the least one that
            // certifies within the prefix (a smaller true period would certify as well).
            return Some(Periodicity {
                period: p,
                preperiod: n0,
            });
        }
        p += step;
    }
    None
}

pub(super) fn lcm(a: u64, b: u64) -> u64 {
    a / crate::game::rules::heaps::gcd(a, b) * b
}
