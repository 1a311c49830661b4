//! A fixed pseudo-random sequence for the tests that stop a search at random points or damage
//! a file at random bytes (the checkpoint's and the plan's): the same seed, the same run.

/// A linear congruential generator (Knuth's MMIX constants), its state the seed.
pub(crate) struct Lcg(pub(crate) u64);

impl Lcg {
    /// The next number below `n` (`n` > 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}
