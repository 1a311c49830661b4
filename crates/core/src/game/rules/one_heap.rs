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

/// An octal code `0.d1d2…dk`: digit `dk` says whether removing `k` tokens from a heap may leave
/// no heap (bit 1), one heap (bit 2) or two non-empty heaps (bit 4). Hexadecimal digits (up to
/// `f`) add bit 8: three non-empty heaps.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct OctalCode {
    /// `digits[k - 1]` is `dk`; no trailing zeros; never empty.
    digits: Vec<u8>,
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

impl OctalCode {
    /// The largest number of tokens a move removes.
    pub fn max_take(&self) -> u64 {
        self.digits.len() as u64
    }

    /// The digits `d1, d2, …` (`digits()[k - 1]` is `dk`).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// Whether some move splits a heap in two or three (such games are not subtraction games).
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 12 != 0)
    }

    /// Whether some move leaves three heaps (a hexadecimal digit 8 to f).
    pub fn splits_in_three(&self) -> bool {
        self.digits.iter().any(|d| d & 8 != 0)
    }

    /// The most heaps one move leaves (0, 1, 2 or 3).
    pub fn max_parts(&self) -> u64 {
        self.digits
            .iter()
            .map(|&d| {
                [(8, 3), (4, 2), (2, 1)]
                    .iter()
                    .find(|(bit, _)| d & bit != 0)
                    .map_or(0, |&(_, k)| k)
            })
            .max()
            .unwrap_or(0)
    }

    /// Appends the options of one heap of `n` tokens, in a fixed order: by the number taken,
    /// then no heap, one heap, two heaps (smaller part ascending), three heaps (ascending).
    pub fn options(&self, n: u64, out: &mut Vec<OctalOption>) {
        for (i, &d) in self.digits.iter().enumerate() {
            let k = i as u64 + 1;
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
                out.extend((1..=rest / 2).map(|x| OctalOption::Two(x, rest - x)));
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
        let frac = t
            .strip_prefix("0.")
            .or_else(|| t.strip_prefix('.'))
            .ok_or_else(|| format!("octal code {} must start with '0.' (for example 0.07)", quoted(t)))?;
        let mut digits = Vec::new();
        for c in frac.chars() {
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => {
                    return Err(format!(
                        "octal code {} has {}, which is not an octal digit 0-7 (or a hexadecimal one, 8-f, for moves that may leave three heaps)",
                        quoted(t),
                        quoted(&c.to_string())
                    ));
                }
            }
        }
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            return Err(format!("octal code {} allows no move", quoted(t)));
        }
        if digits.len() > MAX_DIGITS {
            return Err(format!("octal code {} has more than {MAX_DIGITS} digits", quoted(t)));
        }
        Ok(OctalCode { digits })
    }
}

/// The longest code accepted (a move takes at most this many tokens).
pub const MAX_DIGITS: usize = 64;

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("0.")?;
        for d in &self.digits {
            write!(f, "{d:x}")?;
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
