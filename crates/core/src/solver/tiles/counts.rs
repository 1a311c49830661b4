//! How many cells have each value, in buckets: exact below [`EXACT`], then 256 buckets per
//! power of two (values within 1/256 of each other share one). The colour range's automatic
//! top is a high quantile of these counts (see [`crate::raster::range`]), taken alike over a
//! window's view (counted while its tiles are pooled) and over a figure's grid.

/// Values below this have a bucket each.
pub const EXACT: u32 = 1024;
/// Buckets per power of two above [`EXACT`].
const SUB: u32 = 256;
const FIRST_POWER: u32 = EXACT.trailing_zeros();
const BUCKETS: usize = (EXACT + (32 - FIRST_POWER) * SUB) as usize;

/// Counts of values, bucketed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueCounts {
    counts: Vec<u64>,
    total: u64,
    /// Infinite values of a game that loops ([`crate::game::loopy::cells`]): not on the scale
    /// of the Grundy colours, counted apart.
    infinite: u64,
}

impl Default for ValueCounts {
    fn default() -> Self {
        Self {
            counts: vec![0; BUCKETS],
            total: 0,
            infinite: 0,
        }
    }
}

/// The bucket of `v`.
#[inline]
fn bucket(v: u32) -> usize {
    if v < EXACT {
        return v as usize;
    }
    let e = 31 - v.leading_zeros(); // ≥ FIRST_POWER
    (EXACT + (e - FIRST_POWER) * SUB + ((v >> (e - 8)) & (SUB - 1))) as usize
}

/// The largest value of bucket `i`.
fn bucket_top(i: usize) -> u32 {
    let i = i as u32;
    if i < EXACT {
        return i;
    }
    let e = (i - EXACT) / SUB + FIRST_POWER;
    let sub = (i - EXACT) % SUB;
    let low = (1u64 << e) | (u64::from(sub) << (e - 8));
    (low + (1u64 << (e - 8)) - 1).min(u64::from(u32::MAX)) as u32
}

impl ValueCounts {
    /// Counts one value.
    #[inline]
    pub fn add(&mut self, v: u32) {
        if crate::game::loopy::cells::is_infinite(v) {
            self.infinite += 1;
            return;
        }
        self.counts[bucket(v)] += 1;
        self.total += 1;
    }

    /// How many infinite values (of a game that loops) were met: not counted on the scale.
    pub fn infinite(&self) -> u64 {
        self.infinite
    }

    /// Counts every value of `values`.
    pub fn of(values: impl IntoIterator<Item = u32>) -> Self {
        let mut c = Self::default();
        for v in values {
            c.add(v);
        }
        c
    }

    /// Adds the values `other` counted (the counts of two parts of a region).
    pub fn merge(&mut self, other: &ValueCounts) {
        for (n, m) in self.counts.iter_mut().zip(&other.counts) {
            *n += m;
        }
        self.total += other.total;
    }

    /// Values counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The least value `t` (to the bucket's precision, rounded up) with at least a fraction
    /// `q` of the values at most `t`; `None` when nothing was counted.
    pub fn quantile(&self, q: f64) -> Option<u32> {
        if self.total == 0 {
            return None;
        }
        let want = ((self.total as f64) * q.clamp(0.0, 1.0)).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &n) in self.counts.iter().enumerate() {
            seen += n;
            if seen >= want {
                return Some(bucket_top(i));
            }
        }
        self.max()
    }

    /// The largest value counted (to the bucket's precision, rounded up).
    pub fn max(&self) -> Option<u32> {
        self.counts.iter().rposition(|&n| n > 0).map(bucket_top)
    }

    /// How many values are above `t`.
    pub fn above(&self, t: u32) -> u64 {
        let b = bucket(t);
        // values in t's own bucket above t cannot be told apart: they count as at most t
        self.counts[b + 1..].iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hold_their_values_in_order() {
        let mut last = 0;
        for v in (0..5000).chain([65_535, 65_536, 1 << 30, u32::MAX - 1, u32::MAX]) {
            let b = bucket(v);
            assert!(b < BUCKETS, "{v}");
            assert!(b >= last, "{v}");
            last = b;
            assert!(bucket_top(b) >= v, "{v}: top {}", bucket_top(b));
            assert_eq!(bucket(bucket_top(b)), b, "{v}");
        }
        assert_eq!(bucket_top(bucket(u32::MAX)), u32::MAX);
    }

    #[test]
    fn quantiles_of_small_values_are_exact() {
        // 0..100 once each, and one outlier
        let c = ValueCounts::of((0..100).chain([50_000]));
        assert_eq!(c.total(), 101);
        assert_eq!(c.quantile(0.5), Some(50));
        assert_eq!(c.quantile(0.99), Some(99));
        assert_eq!(c.quantile(1.0), Some(c.max().unwrap()));
        assert!(c.max().unwrap() >= 50_000 && c.max().unwrap() < 50_000 + 50_000 / 256 + 1);
        assert_eq!(c.above(99), 1);
        assert_eq!(ValueCounts::default().quantile(0.99), None);
    }
}
