//! Heap games on any number of heaps: Nim, Wythoff (two heaps), Zeruclid and Common Divisor Nim.

/// Nim: lower one heap by any positive amount. Appends every option of `h`.
pub fn nim_options(h: &[u64], out: &mut Vec<Vec<u64>>) {
    for i in 0..h.len() {
        for v in 0..h[i] {
            let mut o = h.to_vec();
            o[i] = v;
            out.push(o);
        }
    }
}

/// Wythoff (two heaps): lower one heap by any positive amount, or both by the same amount.
pub fn wythoff_options(a: u64, b: u64, out: &mut Vec<(u64, u64)>) {
    out.extend((0..a).map(|x| (x, b)));
    out.extend((0..b).map(|y| (a, y)));
    out.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
}

/// Zeruclid (seed 003 Def 3.0.1): remove from any heap a positive multiple of the smallest
/// non-zero heap; heaps stay ≥ 0. All heaps zero is terminal.
pub fn zeruclid_options(h: &[u64], out: &mut Vec<Vec<u64>>) {
    let Some(m) = h.iter().copied().filter(|&x| x > 0).min() else {
        return;
    };
    for i in 0..h.len() {
        let mut v = h[i];
        while v >= m {
            v -= m;
            let mut o = h.to_vec();
            o[i] = v;
            out.push(o);
        }
    }
}

/// Greatest common divisor with gcd(0, b) = b.
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The positive divisors of `n` in increasing order (empty for 0), from the factorisation of
/// `n` (Miller–Rabin and Pollard's rho in `num-prime`), so heaps near 2^64 cost microseconds.
pub fn divisors(n: u64) -> Vec<u64> {
    if n == 0 {
        return Vec::new();
    }
    let mut out = vec![1u64];
    for (p, e) in num_prime::nt_funcs::factorize64(n) {
        let len = out.len();
        let mut power = 1u64;
        for _ in 0..e {
            power *= p;
            out.extend_from_within(..len);
            let start = out.len() - len;
            for d in &mut out[start..] {
                *d *= power;
            }
        }
    }
    out.sort_unstable();
    out
}

/// The number of divisors of `n` (0 for 0), from its factorisation.
pub fn divisor_count(n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    num_prime::nt_funcs::factorize64(n)
        .values()
        .map(|&e| e as u64 + 1)
        .product()
}

/// Common Divisor Nim (seed 001): subtract from one heap a positive common divisor of all the
/// heaps (gcd(0, b) = b); heaps stay ≥ 0; all heaps zero is terminal.
pub fn cdn_options(h: &[u64], out: &mut Vec<Vec<u64>>) {
    let g = h.iter().fold(0, |g, &x| gcd(g, x));
    if g == 0 {
        return;
    }
    let ds = divisors(g);
    for i in 0..h.len() {
        for &d in &ds {
            if d <= h[i] {
                let mut o = h.to_vec();
                o[i] -= d;
                out.push(o);
            }
        }
    }
}

/// Two-heap Common Divisor Nim with divisors of gcd(a, b) taken from `divs` (a table built once
/// for a whole grid).
pub fn cdn2_options(a: u64, b: u64, divs: &[u64], out: &mut Vec<(u64, u64)>) {
    for &d in divs {
        if d <= a {
            out.push((a - d, b));
        }
        if d <= b {
            out.push((a, b - d));
        }
    }
}

/// Two-heap Zeruclid options.
pub fn zeruclid2_options(a: u64, b: u64, out: &mut Vec<(u64, u64)>) {
    let m = match (a, b) {
        (0, 0) => return,
        (0, y) => y,
        (x, 0) => x,
        (x, y) => x.min(y),
    };
    let mut v = a;
    while v >= m {
        v -= m;
        out.push((v, b));
    }
    let mut v = b;
    while v >= m {
        v -= m;
        out.push((a, v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeruclid_figure_1() {
        // seed 003 Figure 1: the options of (2,3,5)
        let mut out = Vec::new();
        zeruclid_options(&[2, 3, 5], &mut out);
        out.sort();
        assert_eq!(out, vec![vec![0, 3, 5], vec![2, 1, 5], vec![2, 3, 1], vec![2, 3, 3]]);
    }

    #[test]
    fn cdn_example() {
        // seed 001 Example 1.2 style: (4, 6) has common divisors 1 and 2
        let mut out = Vec::new();
        cdn_options(&[4, 6], &mut out);
        out.sort();
        assert_eq!(out, vec![vec![2, 6], vec![3, 6], vec![4, 4], vec![4, 5]]);
        assert_eq!(divisors(12), vec![1, 2, 3, 4, 6, 12]);
    }

    #[test]
    fn divisors_agree_with_trial_division() {
        for n in 0..2000u64 {
            let trial: Vec<u64> = (1..=n).filter(|d| n.is_multiple_of(*d)).collect();
            assert_eq!(divisors(n), trial, "{n}");
            assert_eq!(divisor_count(n), trial.len() as u64);
        }
        // 10^18 = 2^18·5^18 has 19² divisors; a prime near 2^64 has two
        assert_eq!(divisor_count(1_000_000_000_000_000_000), 361);
        assert_eq!(
            divisors(18_446_744_073_709_551_557),
            vec![1, 18_446_744_073_709_551_557]
        );
    }
}
