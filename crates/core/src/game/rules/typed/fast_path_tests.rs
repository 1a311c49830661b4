//! Generated rules: a rule's options from the fast path equal the value-by-value definition,
//! errors included (the fast path and the compiled program are the crate's own: this test
//! lives beside them).

use proptest::prelude::*;

use super::TypedRule;
use super::tests::all_options as options;

fn atom(vars: &'static [&'static str], huge: bool) -> impl Strategy<Value = String> {
    let top = if huge { "18446744073709551615" } else { "7" };
    prop_oneof![
        (0u64..6).prop_map(|n| n.to_string()),
        Just(top.to_string()),
        proptest::sample::select(vars).prop_map(str::to_string),
    ]
}

/// An expression; `huge` lets it name 2^64 − 1 (not in range bounds, which the value-by-value
/// definition would walk).
fn expr_of(vars: &'static [&'static str], huge: bool) -> impl Strategy<Value = String> {
    atom(vars, huge).prop_recursive(3, 12, 2, move |inner| {
        prop_oneof![
            (
                inner.clone(),
                proptest::sample::select(&["+", "-", "*", "/", "%"][..]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("|{a} - {b}|")),
            inner.prop_map(|a| format!("isqrt({a})")),
        ]
    })
}

fn expr(vars: &'static [&'static str]) -> impl Strategy<Value = String> {
    expr_of(vars, true)
}

fn bound(vars: &'static [&'static str]) -> impl Strategy<Value = String> {
    expr_of(vars, false)
}

fn guard(vars: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        expr(vars),
        proptest::sample::select(&["<", "<=", ">", ">=", "==", "!="][..]),
        expr(vars),
    )
        .prop_map(|(a, op, b)| format!("{a} {op} {b}"))
}

/// A two-heap rule with one or two loops and guards.
fn rule() -> impl Strategy<Value = String> {
    const OUTER: &[&str] = &["a", "b"];
    const INNER: &[&str] = &["a", "b", "k"];
    const ALL: &[&str] = &["a", "b", "k", "l"];
    (
        bound(OUTER),
        bound(OUTER),
        bound(INNER),
        proptest::collection::vec(guard(ALL), 0..3),
        expr(ALL),
        expr(ALL),
        any::<bool>(),
    )
        .prop_map(|(lo, hi, hi2, guards, x, y, inclusive)| {
            let dots = if inclusive { "..=" } else { ".." };
            let guards: String = guards.iter().map(|g| format!(" if {g}")).collect();
            format!("rule((a, b) -> ({x}, {y}) for k in {lo}{dots}{hi} for l in 0..={hi2}{guards})")
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn the_fast_path_is_the_definition(text in rule()) {
        let r = TypedRule::parse(&text);
        prop_assert!(r.is_ok(), "{} does not parse: {:?}", text, r.err());
        let Ok(r) = r else { return Ok(()) };
        let mut slow = r.program().clone();
        slow.terms.iter_mut().for_each(|t| t.fast = None);
        for a in 0..6u64 {
            for b in [0u64, 1, 3, 8] {
                let (fast, def) = (options(r.program(), &[a, b]), options(&slow, &[a, b]));
                prop_assert_eq!(fast, def, "{} at ({}, {})", text, a, b);
            }
        }
    }
}
