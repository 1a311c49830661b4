//! Typed rules computed as the built-in rulesets they provably equal
//! ([`crate::game::rules::typed::analysis`]): typed Nim and Wythoff take the line bitsets and
//! closed forms, typed subtraction and octal games the sequence fills, the octal engine and
//! their certified periods. The entry points of the solvers ([`super::evaluate`], [`super::grid`],
//! [`super::sequence`], the map's tiles) compute [`computed`] in place of the ruleset asked for;
//! what is printed (move descriptions, the ruleset's name) stays the typed rule's.

use crate::game::Ruleset;
use crate::game::rules::typed::analysis::Equivalent;

/// The built-in ruleset a typed rule equals.
fn builtin(e: &Equivalent) -> Ruleset {
    match e {
        Equivalent::Nim => Ruleset::Nim,
        Equivalent::Wythoff => Ruleset::Wythoff,
        Equivalent::Subtraction(s) => Ruleset::Subtraction(s.clone()),
        Equivalent::Octal(code) => Ruleset::Octal(code.clone()),
    }
}

/// `ruleset` with every typed rule that equals a built-in ruleset replaced by it (through
/// pushes, sums and misère play); `None` when nothing is replaced.
pub fn computed(ruleset: &Ruleset) -> Option<Ruleset> {
    if !ruleset.has_typed() {
        return None;
    }
    match ruleset {
        Ruleset::Typed(rule) => rule.equivalent().map(builtin),
        Ruleset::Push(a, b) | Ruleset::Sum(a, b) => {
            let (x, y) = (computed(a), computed(b));
            if x.is_none() && y.is_none() {
                return None;
            }
            let x = Box::new(x.unwrap_or_else(|| (**a).clone()));
            let y = Box::new(y.unwrap_or_else(|| (**b).clone()));
            Some(match ruleset {
                Ruleset::Push(..) => Ruleset::Push(x, y),
                _ => Ruleset::Sum(x, y),
            })
        }
        Ruleset::Misere(r) => computed(r).map(|r| Ruleset::Misere(Box::new(r))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compounds_are_replaced_inside() {
        let r: Ruleset = "misere(push(rule(n -> n - s for s in {1, 3, 4} if s <= n),nim))"
            .parse()
            .unwrap();
        assert_eq!(computed(&r).unwrap().to_string(), "misere(push(sub(1,3,4),nim))");
        // Grundy's game typed: the built-in `grundy` (`4u.0`, the rare/common engine)
        let g: Ruleset = "misere(rule(n -> [k, n - k] for k in 1..n if 2*k < n))"
            .parse()
            .unwrap();
        assert_eq!(computed(&g).unwrap().to_string(), "misere(grundy)");
        assert_eq!(computed(&"wythoff".parse().unwrap()), None);
    }

    #[test]
    fn a_refusal_of_a_typed_rule_computed_as_a_built_in_says_so() {
        use crate::game::Layout;
        use crate::game::Position;
        use crate::solver::{Control, Evaluator, grid};
        let g: Ruleset = "misere(rule(n -> [k, n - k] for k in 1..n if 2*k < n))"
            .parse()
            .unwrap();
        let control = Control::with_budget(1 << 20);
        let err = Evaluator::default()
            .answer(&g, &Position::Heaps(vec![40, 40]), &control)
            .unwrap_err()
            .to_string();
        assert!(err.contains("in misere(grundy)"), "{err}");
        assert!(
            err.ends_with("(the typed rule is computed as misere(grundy), which it equals)"),
            "{err}"
        );
        let err = grid::grid(&g, &Layout::Plain, 0..200, 0..200, &control)
            .unwrap_err()
            .to_string();
        assert!(err.contains("the typed rule is computed as misere(grundy)"), "{err}");
    }
}
