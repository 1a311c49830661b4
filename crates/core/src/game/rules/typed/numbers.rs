//! The number theory of the move language: primality (`prime(x)`), the primes up to a bound
//! (`primes(n)`, from one sieve kept for the whole process and grown on demand, so a loop over
//! them costs what listing them costs), Fibonacci numbers (`fib(k)`, `fibs(n)`) and powers.

use std::sync::{Arc, OnceLock, RwLock};

/// The largest bound `primes(n)` lists up to: 2^28 (14.6 million primes, 59 MB once sieved;
/// more than a position may have as options).
pub const MAX_PRIME_BOUND: u64 = 1 << 28;

/// The largest `k` with F(k) below 2^127.
pub const MAX_FIB_INDEX: u32 = 184;

/// Whether `n` is prime (`num-prime`'s deterministic test for 64-bit numbers); `None` past
/// 2^64.
pub fn is_prime(n: i128) -> Option<bool> {
    let n = u64::try_from(n.max(0)).ok()?;
    Some(num_prime::nt_funcs::is_prime64(n))
}

/// The primes sieved so far, and the bound they cover.
struct Sieve {
    bound: u64,
    primes: Arc<Vec<u32>>,
}

fn sieve_cell() -> &'static RwLock<Sieve> {
    static SIEVE: OnceLock<RwLock<Sieve>> = OnceLock::new();
    SIEVE.get_or_init(|| {
        RwLock::new(Sieve {
            bound: 0,
            primes: Arc::new(Vec::new()),
        })
    })
}

/// The primes up to at least `bound` (at most [`MAX_PRIME_BOUND`]), ascending: a snapshot of
/// the shared sieve, grown (doubling) when it does not reach `bound` yet.
pub fn primes_up_to(bound: u64) -> Arc<Vec<u32>> {
    let bound = bound.min(MAX_PRIME_BOUND);
    if let Ok(s) = sieve_cell().read()
        && s.bound >= bound
    {
        return s.primes.clone();
    }
    let Ok(mut s) = sieve_cell().write() else {
        return Arc::new(sieve(bound));
    };
    if s.bound < bound {
        let target = bound.max(s.bound.saturating_mul(2)).clamp(1 << 16, MAX_PRIME_BOUND);
        s.primes = Arc::new(sieve(target));
        s.bound = target;
    }
    s.primes.clone()
}

/// The primes up to `n` by the sieve of Eratosthenes over odd numbers.
fn sieve(n: u64) -> Vec<u32> {
    let n = n as usize;
    if n < 2 {
        return Vec::new();
    }
    // bit i stands for 2i + 1
    let half = n / 2 + 1;
    let mut composite = vec![0u64; half.div_ceil(64)];
    let mut i = 1;
    while (2 * i + 1) * (2 * i + 1) <= n {
        if composite[i / 64] >> (i % 64) & 1 == 0 {
            let p = 2 * i + 1;
            let mut j = p * p / 2;
            while j < half {
                composite[j / 64] |= 1 << (j % 64);
                j += p;
            }
        }
        i += 1;
    }
    let mut out = vec![2u32];
    out.extend(
        (1..half)
            .filter(|&i| composite[i / 64] >> (i % 64) & 1 == 0 && 2 * i < n)
            .map(|i| (2 * i + 1) as u32),
    );
    out
}

/// An upper bound on the number of primes up to `n` (Rosser–Schoenfeld: π(x) < 1.26 x / ln x
/// for x > 1), for the cost estimates.
pub fn prime_count_bound(n: i128) -> u128 {
    if n < 2 {
        return 0;
    }
    let x = n as f64;
    (1.26 * x / x.ln()).ceil() as u128 + 1
}

fn fib_table() -> &'static [i128] {
    static TABLE: OnceLock<Vec<i128>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0i128, 1];
        while t.len() <= MAX_FIB_INDEX as usize {
            let n = t.len();
            t.push(t[n - 1] + t[n - 2]);
        }
        t
    })
}

/// F(k), for 0 ≤ k ≤ [`MAX_FIB_INDEX`].
pub fn fib(k: i128) -> Option<i128> {
    let k = usize::try_from(k).ok()?;
    fib_table().get(k).copied()
}

/// The distinct Fibonacci numbers 1, 2, 3, 5, 8, … (F(2), F(3), …) up to `n`.
pub fn fibs_up_to(n: i128) -> impl Iterator<Item = i128> {
    fib_table()[2..].iter().copied().take_while(move |&f| f <= n)
}

/// Floor division (`-7 / 2 = -4`); `None` on a zero divisor or an overflow.
#[inline]
pub fn floor_div(a: i128, b: i128) -> Option<i128> {
    // most numbers fit 64 bits, whose division is several times quicker than 128 bits'
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b))
        && let Some(q) = x.checked_div(y)
    {
        return Some(i128::from(if x % y != 0 && (x < 0) != (y < 0) { q - 1 } else { q }));
    }
    let q = a.checked_div(b)?;
    Some(if a % b != 0 && (a < 0) != (b < 0) { q - 1 } else { q })
}

/// The remainder of floor division: the sign of the divisor (`-1 % 5 = 4`).
#[inline]
pub fn floor_rem(a: i128, b: i128) -> Option<i128> {
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b))
        && let Some(r) = x.checked_rem(y)
    {
        return Some(i128::from(if r != 0 && (r < 0) != (y < 0) { r + y } else { r }));
    }
    let r = a.checked_rem(b)?;
    Some(if r != 0 && (r < 0) != (b < 0) { r + b } else { r })
}

/// `base ^ exp` (exp ≥ 0), `None` when it leaves the 128-bit integers.
pub fn pow(base: i128, exp: i128) -> Option<i128> {
    if exp < 0 {
        return None;
    }
    match base {
        0 => Some(i128::from(exp == 0)),
        1 => Some(1),
        -1 => Some(if exp % 2 == 0 { 1 } else { -1 }),
        _ => base.checked_pow(u32::try_from(exp).ok()?),
    }
}

/// 1, b, b², … up to `n` (b ≥ 2).
pub fn powers_up_to(base: i128, n: i128) -> impl Iterator<Item = i128> {
    std::iter::successors(Some(1i128), move |&p| p.checked_mul(base)).take_while(move |&p| p <= n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_against_trial_division() {
        let by_trial = |n: u64| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
        let listed = primes_up_to(5000);
        for n in 0..5000u64 {
            assert_eq!(is_prime(n as i128), Some(by_trial(n)), "{n}");
            assert_eq!(listed.binary_search(&(n as u32)).is_ok(), by_trial(n), "{n}");
        }
        // large primes and pseudoprimes: 2^61 - 1 is prime, the Carmichael number 561 and
        // the strong pseudoprime 3215031751 (to bases 2, 3, 5, 7) are not
        assert_eq!(is_prime((1i128 << 61) - 1), Some(true));
        assert_eq!(is_prime(561), Some(false));
        assert_eq!(is_prime(3_215_031_751), Some(false));
        assert_eq!(is_prime(18_446_744_073_709_551_557), Some(true));
        assert_eq!(is_prime(1i128 << 70), None);
        assert_eq!(listed.partition_point(|&p| p <= 5000), 669);
        assert!(prime_count_bound(5000) >= 669);
    }

    #[test]
    fn floor_division_of_both_widths() {
        for (a, b) in [
            (7i128, 2i128),
            (-7, 2),
            (7, -2),
            (-7, -2),
            (6, 3),
            (-6, 3),
            (i128::MAX, 3),
            (-(1 << 100), 7),
        ] {
            let (q, r) = (floor_div(a, b).unwrap(), floor_rem(a, b).unwrap());
            assert_eq!(q * b + r, a, "{a} / {b}");
            assert!(
                if b > 0 {
                    (0..b).contains(&r)
                } else {
                    (b + 1..=0).contains(&r)
                },
                "{a} % {b} = {r}"
            );
        }
        assert_eq!(floor_div(i64::MIN as i128, -1), Some(-(i64::MIN as i128)));
        assert_eq!(floor_div(1, 0), None);
    }

    #[test]
    fn fibonacci_and_powers() {
        assert_eq!(fib(10), Some(55));
        assert_eq!(fib(MAX_FIB_INDEX as i128 + 1), None);
        assert_eq!(fibs_up_to(20).collect::<Vec<_>>(), [1, 2, 3, 5, 8, 13]);
        assert_eq!(powers_up_to(2, 20).collect::<Vec<_>>(), [1, 2, 4, 8, 16]);
        assert_eq!(pow(-2, 3), Some(-8));
        assert_eq!(pow(2, 127), None);
        assert_eq!(pow(1, 1 << 100), Some(1));
    }
}
