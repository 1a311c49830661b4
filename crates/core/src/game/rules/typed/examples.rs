//! The rules of the literature written in the move language: the Examples menu of the window's
//! rule editor and `nimscope rules --examples`. Each text is exactly what a user types as the
//! RULESET argument; `equals` names the built-in ruleset it must agree with, where there is one
//! (tests check every example against it or against an independent brute force).

/// A named example rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Example {
    /// Its name in the Examples menu, e.g. `nim`.
    pub name: &'static str,
    /// What the rule is, in a few words.
    pub about: &'static str,
    /// The rule, exactly as a user types it as the RULESET argument.
    pub text: &'static str,
    /// The built-in ruleset with the same values, if the catalog has one.
    pub equals: Option<&'static str>,
}

/// Every example, in the order of the Examples menu.
pub const EXAMPLES: &[Example] = &[
    Example {
        name: "nim",
        about: "Nim on two heaps: take any number from one heap",
        text: "rule((a, b) -> (a - k, b) for k in 1..=a;\n               (a, b - k) for k in 1..=b)",
        equals: Some("nim"),
    },
    Example {
        name: "wythoff",
        about: "Wythoff: take from one heap, or the same from both",
        text: "rule((a, b) -> (a - k, b) for k in 1..=a;\n               (a, b - k) for k in 1..=b;\n               (a - k, b - k) for k in 1..=min(a, b))",
        equals: Some("wythoff"),
    },
    Example {
        name: "euclid",
        about: "Cole–Davie Euclid: subtract a positive multiple of the smaller heap from the larger",
        text: "rule((a, b) -> (a - k*b, b) for k in 1..=a/b if 1 <= b <= a;\n               (a, b - k*a) for k in 1..=b/a if 1 <= a <= b)",
        equals: Some("euclid"),
    },
    Example {
        name: "grossman",
        about: "Grossman's game: as Euclid, but both heaps stay at least 1",
        text: "rule((a, b) if a >= 1 and b >= 1 ->\n     (a - k*b, b) for k in 1..=(a - 1)/b if b < a;\n     (a, b - k*a) for k in 1..=(b - 1)/a if a < b)",
        equals: Some("grossman"),
    },
    Example {
        name: "sub134",
        about: "the subtraction game sub(1,3,4)",
        text: "rule(n -> n - s for s in {1, 3, 4} if s <= n)",
        equals: Some("sub(1,3,4)"),
    },
    Example {
        name: "subtract-square",
        about: "subtract-a-square: remove any positive square",
        text: "rule(n -> n - k*k for k in 1..=isqrt(n))",
        equals: None,
    },
    Example {
        name: "grundy",
        about: "Grundy's game: split a heap into two unequal non-empty heaps",
        text: "rule(n -> [k, n - k] for k in 1..n if 2*k < n)",
        equals: Some("grundy"),
    },
    Example {
        name: "kayles",
        about: "Kayles (0.77): knock down one pin or two adjacent pins of a row",
        text: "rule(n -> [k, n - 1 - k] for k in 0..n;\n          [k, n - 2 - k] for k in 0..n - 1 if n >= 2)",
        equals: Some("octal(0.77)"),
    },
    Example {
        name: "dawson-kayles",
        about: "Dawson's Kayles (0.07): knock down two adjacent pins",
        text: "rule(n -> [k, n - 2 - k] for k in 0..n - 1 if n >= 2)",
        equals: Some("octal(0.07)"),
    },
    Example {
        name: "wythoff2",
        about: "generalized Wythoff, a = 2: lower one heap, or both by k, l ≥ 1 with |k − l| < 2",
        text: "rule((a, b) -> (a - k, b) for k in 1..=a; (a, b - k) for k in 1..=b;\n               (a - k, b - l) for k in 1..=a for l in 1..=b if |k - l| < 2)",
        equals: None,
    },
    Example {
        name: "three-heaps",
        about: "three-heap Wythoff: take from one heap, or the same from all three",
        text: "rule((a, b, c) -> (a - k, b, c) for k in 1..=a; (a, b - k, c) for k in 1..=b;\n     (a, b, c - k) for k in 1..=c; (a - k, b - k, c - k) for k in 1..=min(a, b, c))",
        equals: None,
    },
    Example {
        name: "subtract-prime",
        about: "subtract a prime",
        text: "rule(n -> n - p for p in primes(n))",
        equals: None,
    },
    Example {
        name: "subtract-power",
        about: "subtract a power of two (G(n) = n mod 3)",
        text: "rule(n -> n - k for k in powers(2, n))",
        equals: None,
    },
    Example {
        name: "ruler",
        about: "the Ruler game: turn a run of coins ending at a head (heads at n - j + 1 … n - 1 after)",
        text: "rule(n -> [k for k in n - j + 1..n] for j in 1..=n)",
        equals: None,
    },
    Example {
        name: "moore3",
        about: "Moore's Nim_3 on four heaps: take from any one, two or three heaps",
        text: "rule((a, b, c, d) -> (a - i, b - j, c - k, d - l) for i in 0..=a for j in 0..=b for k in 0..=c\n     for l in 0..=d if i + j + k + l > 0 and i * j * k * l == 0)",
        equals: None,
    },
    Example {
        name: "welter",
        about: "Welter's game on four heaps: lower a heap to a size no other heap has",
        text: "rule((a, b, c, d) if distinct(a, b, c, d) -> (x, b, c, d) for x in 0..a if distinct(x, b, c, d);\n  (a, x, c, d) for x in 0..b if distinct(a, x, c, d); (a, b, x, d) for x in 0..c if distinct(a, b, x, d);\n  (a, b, c, x) for x in 0..d if distinct(a, b, c, x))",
        equals: None,
    },
    Example {
        name: "nim-pass",
        about: "Nim on three heaps with one pass (p = 1 until it is used; not at the end of the game)",
        text: "rule((a, b, c, p) if p <= 1 -> (a - k, b, c, p) for k in 1..=a; (a, b - k, c, p) for k in 1..=b;\n  (a, b, c - k, p) for k in 1..=c; (a, b, c, p - 1) if p == 1 and a + b + c > 0)",
        equals: None,
    },
    Example {
        name: "clock",
        about: "a game that loops: sub(1,3,4) round a clock of 12, a move may wrap past 0, the game ends at 0",
        text: "rule(x if x < 12 -> (x - s) % 12 for s in {1, 3, 4} if x > 0)",
        equals: None,
    },
    Example {
        name: "nim-shift",
        about: "a game that loops: Nim on two heaps where a move may instead shift a token to the other heap",
        text: "rule((a, b) -> (a - k, b) for k in 1..=a; (a, b - k) for k in 1..=b;\n               (a - 1, b + 1) if a >= 1; (a + 1, b - 1) if b >= 1)",
        equals: None,
    },
    Example {
        name: "swap",
        about: "a game that only loops: (a, b) and (b, a) lead to each other, every position a draw",
        text: "rule((a, b) -> (b, a))",
        equals: None,
    },
];

/// The example named `name`.
pub fn example(name: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.name == name)
}
