//! One-heap games: subtraction games `sub(S)` (and `tag(k)`), seed 004's divisor game, and
//! octal games given by their code.

use std::fmt;
use std::str::FromStr;

/// Options of `sub(S)` from a heap of `n`: remove `s ∈ S` tokens, `s ≤ n`.
pub fn subtraction_options(set: &[u64], n: u64, out: &mut Vec<u64>) {
    out.extend(set.iter().filter(|&&s| s <= n).map(|&s| n - s));
}

/// Options of the divisor game (seed 004) from `n ≥ 1`: subtract a positive proper divisor
/// `d < n` (1 is allowed); `n = 1` is terminal: the player who makes 1 wins.
pub fn divisor_options(n: u64, out: &mut Vec<u64>) {
    if n <= 1 {
        return;
    }
    let mut d = 1;
    let mut large = Vec::new();
    while d * d <= n {
        if n.is_multiple_of(d) {
            out.push(n - d);
            let e = n / d;
            if e != d && e != n {
                large.push(n - e);
            }
        }
        d += 1;
    }
    out.extend(large.into_iter().rev());
}

/// An octal code `0.d1d2…dk`: digit `dk` says whether removing `k` tokens from a heap may leave
/// no heap (bit 1), one heap (bit 2) or two non-empty heaps (bit 4).
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
}

impl OctalCode {
    /// The largest number of tokens a move removes.
    pub fn max_take(&self) -> u64 {
        self.digits.len() as u64
    }

    /// Whether some move splits a heap in two (such games are not subtraction games).
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    /// Appends the options of one heap of `n` tokens, in a fixed order.
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
            .ok_or_else(|| format!("octal code '{t}' must start with '0.' (for example 0.07)"))?;
        let mut digits = Vec::new();
        for c in frac.chars() {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => return Err(format!("octal code '{t}' has '{c}', which is not an octal digit 0-7")),
            }
        }
        while digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.is_empty() {
            return Err(format!("octal code '{t}' allows no move"));
        }
        Ok(OctalCode { digits })
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("0.")?;
        for d in &self.digits {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octal_parse() {
        assert_eq!("0.07".parse::<OctalCode>().unwrap().to_string(), "0.07");
        assert_eq!("0.770".parse::<OctalCode>().unwrap().to_string(), "0.77");
        assert!("0.08".parse::<OctalCode>().is_err());
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
