//! One-heap games: subtraction games `sub(S)` (and `tag(k)`), seed 004's divisor game, and
//! octal games given by their code (hexadecimal digits too: a move may leave three heaps).
//! A position of any of them may hold several heaps: a disjunctive sum of single heaps.

use crate::game::quote::quoted;
use std::fmt;
use std::str::FromStr;

/// The set S of `sub(S)`: positive, sorted and without repeats by construction, so the
/// solvers may take its last element as the largest move and its length as the number of moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Vec<u64>", into = "Vec<u64>")]
pub struct SubtractionSet(Vec<u64>);

impl SubtractionSet {
    /// The set of `values` (in any order, repeats allowed); refused if one is 0 or none is given.
    pub fn new(values: impl IntoIterator<Item = u64>) -> Result<SubtractionSet, String> {
        let mut set: Vec<u64> = values.into_iter().collect();
        if set.contains(&0) {
            return Err("a subtraction set holds positive numbers; 0 is not allowed".into());
        }
        if set.is_empty() {
            return Err("a subtraction set holds at least one number".into());
        }
        set.sort_unstable();
        set.dedup();
        Ok(SubtractionSet(set))
    }

    /// The largest number of the set: the longest move.
    pub fn largest(&self) -> u64 {
        // never empty, by construction
        self.0.last().copied().unwrap_or(1)
    }
}

impl std::ops::Deref for SubtractionSet {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.0
    }
}

impl TryFrom<Vec<u64>> for SubtractionSet {
    type Error = String;
    fn try_from(values: Vec<u64>) -> Result<Self, String> {
        SubtractionSet::new(values)
    }
}

impl From<SubtractionSet> for Vec<u64> {
    fn from(set: SubtractionSet) -> Vec<u64> {
        set.0
    }
}

/// Options of `sub(S)` from a heap of `n`: remove `s ∈ S` tokens, `s ≤ n`.
pub fn subtraction_options(set: &[u64], n: u64, out: &mut Vec<u64>) {
    out.extend(set.iter().filter(|&&s| s <= n).map(|&s| n - s));
}

/// Options of the divisor game (seed 004) from `n ≥ 1`: subtract a positive proper divisor
/// `d < n` (1 is allowed), smallest divisor first; `n = 1` is terminal: the player who makes 1
/// wins.
pub fn divisor_options(n: u64, out: &mut Vec<u64>) {
    if n <= 1 {
        return;
    }
    let ds = super::heaps::divisors(n);
    out.extend(ds[..ds.len() - 1].iter().map(|&d| n - d));
}

/// A take-and-break code `d0.d1d2…dk`: digit `dk` says whether removing `k` tokens from a heap
/// may leave no heap (bit 1), one heap (bit 2) or two non-empty heaps (bit 4); hexadecimal
/// digits (up to `f`) add bit 8: three non-empty heaps. The digit before the point, `d0`, is a
/// move that takes nothing and splits a heap in two (4) or three (8): `0` for octal games,
/// `4.007` splits without taking. A `u` after a digit with bit 4 asks its two heaps to be
/// unequal: Grundy's game is `4u.0` (split a heap into two unequal heaps).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct OctalCode {
    /// `digits[k - 1]` is `dk`; no trailing zeros; empty only when `d0` is not 0.
    digits: Vec<u8>,
    /// `d0`: 0, 4, 8 or c.
    #[serde(default, skip_serializing_if = "is_zero")]
    zero: u8,
    /// Bit `k`: the two heaps left by taking `k` tokens must differ.
    #[serde(default, skip_serializing_if = "is_zero")]
    unequal: u128,
}

fn is_zero<T: Default + PartialEq>(x: &T) -> bool {
    *x == T::default()
}

/// One option of an octal move from a single heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OctalOption {
    /// Remove all `k = n` tokens, leaving no heap.
    Gone,
    /// Leave one heap of this size (≥ 1).
    One(u64),
    /// Leave two heaps `x ≤ y`, both ≥ 1.
    Two(u64, u64),
    /// Leave three heaps `x ≤ y ≤ z`, all ≥ 1 (hexadecimal digits 8 to f).
    Three(u64, u64, u64),
}

/// One kind of move of a code: take `take` tokens, then what the digit allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OctalMove {
    /// Tokens taken (0 for `d0`).
    pub take: u64,
    /// The digit `d_take`, not 0.
    pub digit: u8,
    /// Whether its two heaps must differ (`u`).
    pub unequal: bool,
}

impl OctalCode {
    /// Grundy's game: split one heap into two unequal heaps (`4u.0`).
    pub fn grundy() -> Self {
        OctalCode {
            digits: Vec::new(),
            zero: 4,
            unequal: 1,
        }
    }

    /// Whether this is Grundy's game (`grundy`).
    pub fn is_grundy(&self) -> bool {
        *self == Self::grundy()
    }

    /// The largest number of tokens a move removes (0 when every move only splits).
    pub fn max_take(&self) -> u64 {
        self.digits.len() as u64
    }

    /// The digits `d1, d2, …` (`digits()[k - 1]` is `dk`); `d0` is [`OctalCode::zero_digit`].
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// `d0`: the moves that take no token (0, 4, 8 or c).
    pub fn zero_digit(&self) -> u8 {
        self.zero
    }

    /// Whether the two heaps left by taking `k` tokens must differ.
    pub fn unequal(&self, k: u64) -> bool {
        k < 128 && self.unequal & (1 << k) != 0
    }

    /// The kinds of move, by the number taken (from 0), digits 0 left out.
    pub fn moves(&self) -> impl Iterator<Item = OctalMove> + '_ {
        std::iter::once(self.zero)
            .chain(self.digits.iter().copied())
            .enumerate()
            .filter(|&(_, d)| d != 0)
            .map(|(k, digit)| OctalMove {
                take: k as u64,
                digit,
                unequal: self.unequal(k as u64),
            })
    }

    /// Whether some move splits a heap in two or three (such games are not subtraction games).
    pub fn splits(&self) -> bool {
        self.moves().any(|m| m.digit & 12 != 0)
    }

    /// Whether some move leaves three heaps (a hexadecimal digit 8 to f).
    pub fn splits_in_three(&self) -> bool {
        self.moves().any(|m| m.digit & 8 != 0)
    }

    /// The most heaps one move leaves (0, 1, 2 or 3).
    pub fn max_parts(&self) -> u64 {
        self.moves()
            .map(|m| {
                [(8, 3), (4, 2), (2, 1)]
                    .iter()
                    .find(|(bit, _)| m.digit & bit != 0)
                    .map_or(0, |&(_, k)| k)
            })
            .max()
            .unwrap_or(0)
    }

    /// The length of a computed prefix G(0..len) past which `G(n + p) = G(n)` for
    /// `n0 ≤ n < len − p` proves the period for every `n ≥ n0` (the Guy–Smith periodicity
    /// theorem, and its analogues): `len ≥ parts·(max(n0, 1) + p) + t`, with `t` the most tokens
    /// taken and `parts` the most heaps a move leaves (2 or 3); codes with unequal splits need
    /// `parts·max(n0, 1) + 3p + t`, codes that never split `max(n0, 1) + p + t` (see
    /// `solver/period.rs`). `None` on overflow.
    pub fn periodicity_bound(&self, n0: u64, p: u64) -> Option<u64> {
        let (parts, t, n0) = (self.max_parts(), self.max_take(), n0.max(1));
        let (parts, p_times) = match parts {
            0 | 1 => (1, 1),
            _ if self.unequal != 0 => (parts, 3.max(parts)),
            _ => (parts, parts),
        };
        parts
            .checked_mul(n0)?
            .checked_add(p.checked_mul(p_times)?)?
            .checked_add(t)
    }

    /// Appends the options of one heap of `n` tokens, in a fixed order: by the number taken,
    /// then no heap, one heap, two heaps (smaller part ascending), three heaps (ascending).
    pub fn options(&self, n: u64, out: &mut Vec<OctalOption>) {
        for m in self.moves() {
            let (k, d) = (m.take, m.digit);
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                out.push(OctalOption::Gone);
            }
            if d & 2 != 0 && rest >= 1 {
                out.push(OctalOption::One(rest));
            }
            if d & 4 != 0 && rest >= 2 {
                out.extend((1..=two_part_top(rest, m.unequal)).map(|x| OctalOption::Two(x, rest - x)));
            }
            if d & 8 != 0 && rest >= 3 {
                for x in 1..=rest / 3 {
                    out.extend((x..=(rest - x) / 2).map(|y| OctalOption::Three(x, y, rest - x - y)));
                }
            }
        }
    }

    /// The options of a collection of heaps, each normalised (heaps sorted, empty heaps dropped,
    /// `[0]` for no heap at all) so equal collections are equal positions. A move in a heap of
    /// the same size as an earlier one gives the same collections, so it is listed once.
    pub fn collection_options(&self, h: &[u64], out: &mut Vec<Vec<u64>>) {
        let mut single = Vec::new();
        for (i, &n) in h.iter().enumerate() {
            if h[..i].contains(&n) {
                continue;
            }
            single.clear();
            self.options(n, &mut single);
            for &o in &single {
                out.push(collection_after(h, i, o));
            }
        }
    }
}

/// The largest smaller part of a split of `rest` tokens into two heaps: `rest / 2`, or below
/// half when the heaps must differ.
pub fn two_part_top(rest: u64, unequal: bool) -> u64 {
    if unequal { rest.saturating_sub(1) / 2 } else { rest / 2 }
}

/// The collection `h` after the move `o` in its heap number `i`, normalised.
pub fn collection_after(h: &[u64], i: usize, o: OctalOption) -> Vec<u64> {
    let mut rest: Vec<u64> = Vec::with_capacity(h.len() + 2);
    rest.extend(h.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &x)| x));
    match o {
        OctalOption::Gone => {}
        OctalOption::One(x) => rest.push(x),
        OctalOption::Two(x, y) => rest.extend([x, y]),
        OctalOption::Three(x, y, z) => rest.extend([x, y, z]),
    }
    normalise_collection(rest)
}

/// Sorts a collection of heaps and drops empty ones; no heap at all is written `[0]`.
pub fn normalise_collection(mut heaps: Vec<u64>) -> Vec<u64> {
    heaps.retain(|&x| x > 0);
    heaps.sort_unstable();
    if heaps.is_empty() {
        heaps.push(0);
    }
    heaps
}

/// "take 3 from a heap, leaving 2,5": an octal move between two collections.
pub fn describe_octal_move(from: &[u64], to: &[u64]) -> String {
    // heaps near 2^64 overflow a u64 sum
    let total = |h: &[u64]| h.iter().map(|&x| u128::from(x)).sum::<u128>();
    let removed = total(from).saturating_sub(total(to));
    format!(
        "take {removed} from a heap, leaving {}",
        to.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
    )
}

/// Applies a one-heap move generator to every heap of a collection: the options change one
/// heap each, heap by heap, in the generator's order.
pub fn each_heap_options(h: &[u64], mut one: impl FnMut(u64, &mut Vec<u64>), out: &mut Vec<Vec<u64>>) {
    let mut ones = Vec::new();
    for (i, &n) in h.iter().enumerate() {
        ones.clear();
        one(n, &mut ones);
        for &x in &ones {
            let mut o = h.to_vec();
            o[i] = x;
            out.push(o);
        }
    }
}

impl FromStr for OctalCode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let not_a_digit = |c: char| {
            format!(
                "octal code {} has {}, which is not an octal digit 0-7 (or a hexadecimal one, 8-f, for moves that may leave three heaps, or `u` after a digit that splits, for unequal heaps)",
                quoted(t),
                quoted(&c.to_string())
            )
        };
        let (before, after) = match t.split_once('.') {
            Some((b, a)) => (if b.is_empty() { "0" } else { b }, a),
            None => (t, ""),
        };
        // every digit with its `u`, d0 first
        let mut all: Vec<(u8, bool)> = Vec::new();
        for (part, at_most) in [(before, Some(1)), (after, None)] {
            let first = all.len();
            for c in part.chars() {
                match (c, c.to_digit(16)) {
                    (_, Some(d)) => all.push((d as u8, false)),
                    ('u' | 'U', None) if all.len() > first && !all[all.len() - 1].1 => {
                        if let Some(last) = all.last_mut() {
                            last.1 = true;
                        }
                    }
                    _ => return Err(not_a_digit(c)),
                }
            }
            if at_most.is_some_and(|m| all.len() - first != m) {
                return Err(format!(
                    "octal code {} must be one digit before the point, then the digits d1 d2 … (for example 0.07, or 4.007 to split a heap without taking)",
                    quoted(t)
                ));
            }
        }
        let (zero, _) = all[0];
        if zero & 3 != 0 {
            return Err(format!(
                "octal code {} starts with {zero:x}: a move that takes no token may only split a heap (4: into two, 8: into three)",
                quoted(t)
            ));
        }
        let mut unequal = 0u128;
        for (k, &(d, u)) in all.iter().enumerate() {
            if u && d & 4 == 0 {
                return Err(format!(
                    "octal code {}: `u` (unequal heaps) follows digit {d:x}, which does not split a heap in two",
                    quoted(t)
                ));
            }
            if u && k < 128 {
                unequal |= 1 << k;
            }
        }
        let mut digits: Vec<u8> = all[1..].iter().map(|&(d, _)| d).collect();
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() > MAX_DIGITS {
            return Err(format!("octal code {} has more than {MAX_DIGITS} digits", quoted(t)));
        }
        if digits.is_empty() && zero == 0 {
            return Err(format!("octal code {} allows no move", quoted(t)));
        }
        Ok(OctalCode { digits, zero, unequal })
    }
}

/// The longest code accepted (a move takes at most this many tokens).
pub const MAX_DIGITS: usize = 64;

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = |k: u64| if self.unequal(k) { "u" } else { "" };
        write!(f, "{:x}{}.", self.zero, u(0))?;
        if self.digits.is_empty() {
            f.write_str("0")?;
        }
        for (i, d) in self.digits.iter().enumerate() {
            write!(f, "{d:x}{}", u(i as u64 + 1))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subtraction_set_is_positive_sorted_and_without_repeats_however_it_is_made() {
        let s = SubtractionSet::new([4, 1, 3, 4]).unwrap();
        assert_eq!((&s[..], s.largest()), (&[1, 3, 4][..], 4));
        assert!(SubtractionSet::new([2, 0]).is_err());
        assert!(SubtractionSet::new([]).is_err());
        // a file cannot smuggle one in either
        let from_file: Result<SubtractionSet, _> = ron::from_str("[3, 0]");
        assert!(from_file.is_err());
        let from_file: SubtractionSet = ron::from_str("[3, 1, 3]").unwrap();
        assert_eq!(from_file, SubtractionSet::new([1, 3]).unwrap());
        assert_eq!(ron::to_string(&from_file).unwrap(), "[1,3]");
    }

    #[test]
    fn octal_parse() {
        assert_eq!("0.07".parse::<OctalCode>().unwrap().to_string(), "0.07");
        assert_eq!("0.770".parse::<OctalCode>().unwrap().to_string(), "0.77");
        assert!("0.0g".parse::<OctalCode>().is_err());
        assert_eq!("0.0F".parse::<OctalCode>().unwrap().to_string(), "0.0f");
        assert!("0.0".parse::<OctalCode>().is_err());
        assert!("7".parse::<OctalCode>().is_err());
        // a digit before the point: splits without taking
        assert_eq!("4.007".parse::<OctalCode>().unwrap().to_string(), "4.007");
        assert_eq!("4u".parse::<OctalCode>().unwrap(), OctalCode::grundy());
        assert_eq!("4u.0".parse::<OctalCode>().unwrap().to_string(), "4u.0");
        assert_eq!(".6".parse::<OctalCode>().unwrap().to_string(), "0.6");
        assert_eq!("0.4u4".parse::<OctalCode>().unwrap().to_string(), "0.4u4");
        for bad in ["3.07", "2.0", "44.07", "0.u7", "0.3u", "0.4uu", "u.7", "0"] {
            assert!(bad.parse::<OctalCode>().is_err(), "{bad}");
        }
    }

    #[test]
    fn grundys_game_splits_into_unequal_heaps() {
        let code = OctalCode::grundy();
        assert!(code.splits() && !code.splits_in_three() && code.max_take() == 0 && code.max_parts() == 2);
        let mut out = Vec::new();
        code.options(7, &mut out);
        assert_eq!(
            out,
            vec![OctalOption::Two(1, 6), OctalOption::Two(2, 5), OctalOption::Two(3, 4)]
        );
        out.clear();
        code.options(6, &mut out);
        assert_eq!(out, vec![OctalOption::Two(1, 5), OctalOption::Two(2, 4)]);
        out.clear();
        code.options(2, &mut out);
        assert!(out.is_empty());
        // 4.007: split without taking, or take 3 (leaving no heap, one, or two)
        let code: OctalCode = "4.007".parse().unwrap();
        out.clear();
        code.options(4, &mut out);
        assert_eq!(
            out,
            vec![OctalOption::Two(1, 3), OctalOption::Two(2, 2), OctalOption::One(1)]
        );
    }

    #[test]
    fn dawson_kayles_moves() {
        let code: OctalCode = "0.07".parse().unwrap();
        let mut out = Vec::new();
        code.options(6, &mut out);
        assert_eq!(
            out,
            vec![OctalOption::One(4), OctalOption::Two(1, 3), OctalOption::Two(2, 2)]
        );
        out.clear();
        code.options(2, &mut out);
        assert_eq!(out, vec![OctalOption::Gone]);
    }

    #[test]
    fn hexadecimal_digits_leave_three_heaps() {
        // 0.8: take one token, leaving exactly three heaps
        let code: OctalCode = "0.8".parse().unwrap();
        assert!(code.splits_in_three() && code.splits());
        assert_eq!(code.max_parts(), 3);
        let mut out = Vec::new();
        code.options(7, &mut out);
        assert_eq!(
            out,
            vec![
                OctalOption::Three(1, 1, 4),
                OctalOption::Three(1, 2, 3),
                OctalOption::Three(2, 2, 2)
            ]
        );
        // the number of partitions of 6 into three parts
        let mut out = Vec::new();
        code.options(3, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn divisor_moves() {
        let mut out = Vec::new();
        divisor_options(12, &mut out);
        out.sort();
        assert_eq!(out, vec![6, 8, 9, 10, 11]);
        out.clear();
        divisor_options(1, &mut out);
        assert!(out.is_empty());
    }
}
