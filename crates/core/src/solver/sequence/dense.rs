//! A sequence as one vector of G(0..N), for a face that hands it over as an array (Python's
//! numpy arrays take the vector itself, without a copy).

use super::Computed;

/// Marks a heap that is not a position, or whose outcome alone is known.
pub const UNKNOWN: u32 = u32::MAX;

impl Computed {
    /// G(0..N) as one vector, [`UNKNOWN`] where a heap is not a position or only its outcome
    /// is known: the computed prefix itself (moved, not copied), extended by the certified
    /// period or computed from the closed form. The caller reserves the N values first.
    pub fn into_values(self) -> Vec<u32> {
        let n = usize::try_from(self.n).unwrap_or(usize::MAX);
        if let Some(f) = self.formula {
            return (0..self.n).map(|i| f(i).unwrap_or(UNKNOWN)).collect();
        }
        let mut values = self.values;
        values.truncate(n);
        if let Some(p) = self.periodicity
            && values.len() < n
        {
            // the computed prefix holds the pre-period and a whole period
            let period = usize::try_from(p.period).unwrap_or(usize::MAX);
            values.reserve(n - values.len());
            while values.len() < n && period <= values.len() {
                values.push(values[values.len() - period]);
            }
        }
        values.resize(n, UNKNOWN);
        values
    }
}

#[cfg(test)]
mod tests {
    use crate::solver::Control;
    use crate::solver::sequence::compute;

    #[test]
    fn the_vector_is_every_value_the_computation_gives() {
        for (rules, n) in [
            ("sub(1,3,4)", 1000),
            ("octal(0.07)", 2000),
            ("nim", 50),
            ("divisor", 40),
        ] {
            let r = rules.parse().unwrap();
            let c = compute(&r, n, &Control::new()).unwrap();
            let expected: Vec<u32> = (0..n).map(|i| c.get(i).unwrap_or(super::UNKNOWN)).collect();
            assert_eq!(c.into_values(), expected, "{rules}");
        }
    }
}
