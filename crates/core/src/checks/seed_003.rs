//! Seed 003 (the push-the-button compounds): §2–3 on two-heap compounds, Table 1 and
//! Theorems 3.1.6–3.1.9, §4 on one-heap push sequences.

use crate::checks::row::Tally;
use crate::game::Layout;
use crate::game::Position;
use crate::game::theory as th;
// the theorems are checked against the fill from the origin, never against their own formulas
use super::compare::*;
use crate::solver::grid::{Grid, filled as grid};
use crate::solver::period::certify_window;
use crate::solver::search::Search;
use crate::solver::sequence::sequence;
use crate::solver::{Control, SolveError};

pub(super) fn sections_2_3(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    for name in ["grossman", "euclid0", "zeruclid", "euclid"] {
        let g = map(name, n, c)?;
        cells(
            1,
            n,
            |a, b| a <= b,
            |a, b| {
                (is_p(&g, a, b) != th::ratio_below_phi(a, b))
                    .then(|| format!("({a},{b}) is {}", if is_p(&g, a, b) { "P" } else { "N" }))
            },
        )
        .push_to(
            rows,
            "seed 003 Prop 3.0.3",
            &format!("{name}: (a,b), 1 ≤ a ≤ b, is P iff b/a < Φ"),
            format!("1 ≤ a ≤ b < {n}"),
        );
    }
    // Lemma 2.1.1: push(R,R) = R + *
    let mut t = Tally::default();
    for name in ["nim", "wythoff", "euclid0", "zeruclid", "cdn"] {
        let (g, pg) = (map(name, n, c)?, map(&format!("push({name},{name})"), n, c)?);
        t.add(cells(0, n, all, |a, b| {
            (pg.get(a, b) != g.get(a, b).map(|v| v ^ 1)).then(|| format!("{name} at ({a},{b})"))
        }));
    }
    for name in ["tag(3)", "sub(2,5)", "sub(1,3,4)"] {
        let s = sequence(&rules(name), n, c)?;
        let ps = sequence(&rules(&format!("push({name},{name})")), n, c)?;
        for i in 0..n as usize {
            t.case((ps.values[i] != s.values[i].map(|v| v ^ 1)).then(|| format!("{name} at {i}")));
        }
    }
    t.push_to(
        rows,
        "seed 003 Lemma 2.1.1",
        "G(push(R,R), g) = G(R, g) ⊕ 1",
        format!("nim, wythoff, euclid0, zeruclid, cdn < {n}²; tag(3), sub(2,5), sub(1,3,4) < {n}"),
    );
    prop_2_1_4(n, c, rows)?;
    section_3(n, c, rows)
}

/// Section 3: Theorems 3.1.6–3.1.9 and Table 1 on nim⊚euclid0, Prop 3.1.1 on Zeruclid.
fn section_3(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    // Theorem 3.1.6 on the extension seed 003 means, on zeruclid, and on Cole–Davie's Euclid
    for name in ["euclid0", "zeruclid", "euclid"] {
        let g = map(&format!("push(nim,{name})"), n, c)?;
        cells(0, n, all, |a, b| {
            (is_p(&g, a, b) != th::nim_push_euclid_p_thm316(a, b))
                .then(|| format!("({a},{b}) is {}", if is_p(&g, a, b) { "P" } else { "N" }))
        })
        .push_to(
            rows,
            "seed 003 Thm 3.1.6",
            &format!("P(nim⊚{name}) = Wythoff pairs − (u₂ₙ,u₂ₙ₊₁) + (u₂ₙ₊₁,u₂ₙ₊₂)"),
            format!("0 ≤ a, b < {n}"),
        );
    }
    let g = map("push(nim,euclid0)", n, c)?;
    let w = map("wythoff", n, c)?;
    let p_list = |g: &Grid| -> Vec<(u64, u64)> {
        (0..n)
            .flat_map(|a| (a..n).map(move |b| (a, b)))
            .filter(|&(a, b)| is_p(g, a, b))
            .collect()
    };
    let (pne, pw) = (p_list(&g), p_list(&w));
    // The table's pairs with b < n against the computed P-positions a ≤ b < n with a no larger
    // than the table's last a (both games have one P-position a ≤ b for each a).
    let compare = |got: &[(u64, u64)], table: &[(u64, u64)]| {
        let want: Vec<(u64, u64)> = table.iter().copied().filter(|&(_, b)| b < n).collect();
        let last_a = table.last().map_or(0, |p| p.0);
        let got: Vec<(u64, u64)> = got.iter().copied().filter(|&(a, _)| a <= last_a).collect();
        (want.len() as u64, (got != want).then(|| format!("computed {got:?}")))
    };
    let (kw, bad_w) = compare(&pw, &th::TABLE_1_WYTHOFF);
    let (kne, bad_ne) = compare(&pne, &th::TABLE_1_NIM_PUSH_EUCLID);
    let (all_w, all_ne) = (th::TABLE_1_WYTHOFF.len(), th::TABLE_1_NIM_PUSH_EUCLID.len());
    rows.push(row(
        "seed 003 Table 1",
        "first P-positions of Wythoff and of nim⊚euclid0",
        if kw + kne == (all_w + all_ne) as u64 {
            format!("the table's {all_w} + {all_ne} pairs")
        } else {
            format!("the table's pairs with b < {n}: {kw} + {kne} of {all_w} + {all_ne}")
        },
        kw + kne,
        bad_w.or(bad_ne),
    ));
    let pairs = th::nim_push_euclid_pairs_thm317(n);
    let in_range: Vec<(u64, u64)> = pairs.into_iter().filter(|&(_, b)| b < n).collect();
    rows.push(row(
        "seed 003 Thm 3.1.7",
        "P(nim⊚euclid0) = (Aₙ, ⌈ΦAₙ⌉), Aₙ = mex",
        format!("a ≤ b < {n}"),
        n * (n + 1) / 2,
        (pne != in_range).then(|| {
            format!(
                "recurrence {:?}… vs computed {:?}…",
                &in_range[..in_range.len().min(6)],
                &pne[..pne.len().min(6)]
            )
        }),
    ));
    let a_set: Vec<u64> = pne.iter().map(|p| p.0).collect();
    let mut t = Tally::default();
    for x in (0..n).filter(|&x| th::thm319_in_a(x) && th::thm319_partner(x) < n || a_set.contains(&x)) {
        let in_a = a_set.contains(&x);
        let partner = pne.iter().find(|p| p.0 == x).map(|p| p.1);
        t.case(
            (in_a != th::thm319_in_a(x) || (in_a && partner != Some(th::thm319_partner(x))))
                .then(|| format!("x = {x}: computed in A {in_a}, partner {partner:?}")),
        );
    }
    t.push_to(
        rows,
        "seed 003 Thm 3.1.9",
        "A and B by Fibonacci representation",
        format!("a ≤ b < {n}"),
    );
    // Prop 3.1.1: Zeruclid (1,a,b) has the outcomes of nim⊚euclid0
    let k = (n / 3).max(8).min(n);
    let z = grid(
        &rules("zeruclid"),
        &Layout::Slice(vec![Some(1), None, None]),
        0..k,
        0..k,
        c,
    )?;
    cells(0, k, all, |a, b| {
        (is_p(&z, a, b) != is_p(&g, a, b)).then(|| format!("(1,{a},{b}) is {}", if is_p(&z, a, b) { "P" } else { "N" }))
    })
    .push_to(
        rows,
        "seed 003 Prop 3.1.1",
        "zeruclid(1,a,b) has the outcome of nim⊚euclid0 at (a,b)",
        format!("0 ≤ a, b < {k}"),
    );
    zeruclid_three_heaps((n / 8).max(6).min(n), c, rows)
}

/// Props 2.1.4 (i)–(iii) on every ordered pair of two-heap rulesets played on all of N².
fn prop_2_1_4(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    let names = ["nim", "wythoff", "euclid0", "zeruclid", "cdn"];
    // Under normal play (0,0) is P for every ruleset here, so (ii) needs a second ruleset whose
    // terminal position is N: misère ones and a push compound.
    let seconds = [
        "nim",
        "wythoff",
        "euclid0",
        "zeruclid",
        "cdn",
        "misere(nim)",
        "misere(wythoff)",
        "push(nim,nim)",
    ];
    let (mut t1, mut t2, mut t3) = (Tally::default(), Tally::default(), Tally::default());
    let (mut hyp2, mut hyp3) = (0, 0);
    for r1 in names {
        let g1 = map(r1, n, c)?;
        let g1m = map(&format!("misere({r1})"), n, c)?;
        for r2 in seconds {
            let g2 = map(r2, n, c)?;
            let push = map(&format!("push({r1},{r2})"), n, c)?;
            let every = || (0..n).flat_map(|a| (0..n).map(move |b| (a, b)));
            let at = |a: u64, b: u64| format!("{r1}⊚{r2} at ({a},{b})");
            // (i): on the R₂-P-positions
            t1.add(cells(
                0,
                n,
                |a, b| is_p(&g2, a, b),
                |a, b| is_p(&push, a, b).then(|| at(a, b)),
            ));
            if !every().any(|(a, b)| is_p(&g1, a, b) && is_p(&g2, a, b)) {
                hyp2 += 1;
                t2.add(cells(0, n, all, |a, b| {
                    (is_p(&push, a, b) != is_p(&g1, a, b)).then(|| at(a, b))
                }));
            }
            let mut no_move = Vec::new();
            let r1_rules = rules(r1);
            let terminal_in_p2 = every().all(|(a, b)| {
                no_move.clear();
                r1_rules.options(&Position::heaps(&[a, b]), &mut no_move);
                !no_move.is_empty() || is_p(&g2, a, b)
            });
            if terminal_in_p2 && !every().any(|(a, b)| is_p(&g1m, a, b) && is_p(&g2, a, b)) {
                hyp3 += 1;
                t3.add(cells(0, n, all, |a, b| {
                    (is_p(&push, a, b) != is_p(&g1m, a, b)).then(|| at(a, b))
                }));
            }
        }
    }
    let range = format!(
        "{} pairs: R₁ in {}; R₂ also {}; < {n}²",
        names.len() * seconds.len(),
        names.join(", "),
        seconds[names.len()..].join(", ")
    );
    t1.push_to(
        rows,
        "seed 003 Prop 2.1.4 (i)",
        "R₂-P-positions are N in R₁⊚R₂",
        range.clone(),
    );
    t2.push_to(
        rows,
        "seed 003 Prop 2.1.4 (ii)",
        &format!("P₁ ∩ P₂ = ∅ ⇒ P(R₁⊚R₂) = P₁ ({hyp2} pairs meet it)"),
        range.clone(),
    );
    t3.push_to(
        rows,
        "seed 003 Prop 2.1.4 (iii)",
        &format!("P₁⁻ ∩ P₂ = ∅, R₁-terminal ⊂ P₂ ⇒ P(R₁⊚R₂) = P₁⁻ ({hyp3} pairs meet it)"),
        range,
    );
    Ok(())
}

/// Theorems 3.2.1 and 3.2.2 on three-heap Zeruclid.
fn zeruclid_three_heaps(k: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    let mut s = Search::new(rules("zeruclid"));
    // 3.2.1 is checked on each P-position with c ≥ b, 3.2.2 on each pair (a, b)
    let (mut t1, mut t2) = (Tally::default(), Tally::default());
    // the pairs (a, b), 1 ≤ a ≤ b < k, each a column of c
    searching(
        c,
        format!("zeruclid's three-heap positions below {k}"),
        k * k.saturating_sub(1) / 2,
    );
    for a in 1..k {
        c.add_done(k - a);
        for b in a..k {
            let top = th::ceil_phi_times(b) + a + 2;
            let mut classes = Vec::new();
            for cc in 0..top {
                if s.value(&Position::heaps(&[a, b, cc]), c)? != 0 {
                    continue;
                }
                classes.push(cc % a);
                if cc >= b {
                    let (lo, hi) = th::thm321_bounds(a, b);
                    t1.case((cc < lo || cc > hi).then(|| format!("({a},{b},{cc}) is P, bounds [{lo},{hi}]")));
                }
            }
            classes.sort_unstable();
            let distinct = classes.windows(2).all(|w| w[0] != w[1]);
            t2.case(
                (classes.len() as u64 != a || !distinct)
                    .then(|| format!("a = {a}, b = {b}: P-positions at c ≡ {classes:?} (mod {a}) for c < {top}")),
            );
        }
    }
    t1.push_to(
        rows,
        "seed 003 Thm 3.2.1",
        "P (a,b,c), c ≥ b ≥ a > 0 ⇒ ⌈Φb⌉ ≤ c ≤ ⌈Φb⌉+a−1",
        format!("1 ≤ a ≤ b < {k}, c < ⌈Φb⌉+a+2"),
    );
    t2.push_to(
        rows,
        "seed 003 Thm 3.2.2",
        "exactly a P-positions (a,b,c), one per class of c mod a",
        format!("1 ≤ a ≤ b < {k}, c < ⌈Φb⌉+a+2"),
    );
    Ok(())
}

pub(super) fn section_4(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    for (name, source, stmt, pred) in [
        (
            "push(nim,wythoff)",
            "seed 003 Prop 4.1.1",
            "P(nim⊚wythoff) = {(0,1),(1,0),(k,k): k ≥ 2}",
            th::prop411_p as fn(u64, u64) -> bool,
        ),
        (
            "push(euclid0,nim)",
            "seed 003 Prop 4.1.2",
            "P(euclid0⊚nim): b/a < Φ except F₂ᵢ₊₂/F₂ᵢ₊₁, or b/a = F₂ᵢ₊₁/F₂ᵢ",
            th::prop412_p,
        ),
        (
            "push(wythoff,nim)",
            "seed 003 Prop 4.1.3",
            "P(wythoff⊚nim) = {(aₙ−1, bₙ−1): n ≥ 1}",
            th::prop413_p,
        ),
    ] {
        let g = map(name, n, c)?;
        let lo = if name.starts_with("push(euclid0") { 1 } else { 0 };
        cells(lo, n, all, |a, b| {
            (is_p(&g, a, b) != pred(a, b)).then(|| format!("({a},{b}) is {}", if is_p(&g, a, b) { "P" } else { "N" }))
        })
        .push_to(rows, source, stmt, format!("{lo} ≤ a, b < {n}"));
    }
    let mut t = Tally::default();
    for k in 1..=8 {
        let s = sequence(&rules(&format!("tag({k})")), n, c)?;
        let m = sequence(&rules(&format!("misere(tag({k}))")), n, c)?;
        for i in 0..n {
            let (p, pm) = (s.values[i as usize] == Some(0), m.values[i as usize] == Some(0));
            t.case(
                (p != th::tag_p(k, i) || pm != th::tag_misere_p(k, i))
                    .then(|| format!("k = {k}, n = {i}: normal {p}, misère {pm}")),
            );
        }
    }
    t.push_to(
        rows,
        "seed 003 Prop 4.2.2",
        "TAG_k: P ⟺ n ≡ 0, misère P ⟺ n ≡ 1 (mod k+1)",
        format!("1 ≤ k ≤ 8, n < {n}"),
    );
    push_sequences(n, c, rows)
}

/// Theorems 4.2.3 and 4.2.4, and the values of 0.07, on push sequences of one-heap games.
fn push_sequences(n: u64, c: &Control, rows: &mut Rows) -> Result<(), SolveError> {
    // Theorems 4.2.3 and 4.2.4 on push(sub(S), tag(k2)) sequences long enough to certify
    let len = 4096u64.max(n);
    let (mut t3, mut t4) = (Tally::default(), Tally::default());
    let sets: [&[u64]; 6] = [&[1], &[2], &[1, 3], &[2, 3], &[1, 2, 4], &[1, 4]];
    for k2 in 1..=4u64 {
        for s in sets {
            let name = format!(
                "push(sub({}),tag({k2}))",
                s.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
            );
            let seq = sequence(&rules(&name), len, c)?;
            let k = k2 + 1;
            let max_s = *s.last().unwrap_or(&1);
            let outcomes: Vec<u32> = seq.values.iter().map(|v| u32::from(*v == Some(0))).collect();
            let out_per = certify_window(&outcomes, max_s, k, 0);
            let ob = th::thm423_outcome_bound(k, max_s);
            let vb = th::thm423_value_bound(k, s.len() as u64, max_s);
            t3.case(match (out_per, seq.periodicity) {
                (Some(o), Some(v)) if o.period <= ob && o.preperiod <= ob && v.period <= vb && v.preperiod <= vb => {
                    None
                }
                (o, v) => Some(format!(
                    "{name}: outcome period {o:?} (bound {ob}), values {v:?} (bound {vb})"
                )),
            });
        }
    }
    for k1 in 1..=8u64 {
        for k2 in 1..=8u64 {
            let name = format!("push(tag({k1}),tag({k2}))");
            let seq = sequence(&rules(&name), len, c)?;
            let outcomes: Vec<u32> = seq.values.iter().map(|v| u32::from(*v == Some(0))).collect();
            // A certificate proves the outcomes periodic, so on a prefix much longer than the
            // certified period the least shift that fits the whole prefix is the true period.
            let certified = certify_window(&outcomes, k1, k2 + 1, 0);
            let least = (1..len as usize / 2).find(|&d| (0..len as usize - d).all(|i| outcomes[i] == outcomes[i + d]));
            let predicted = th::thm424_period(k1, k2);
            t4.case(
                (certified.is_none() || least != Some(predicted as usize)).then(|| {
                    format!("{name}: least period {least:?} (certified {certified:?}), predicted {predicted}")
                }),
            );
        }
    }
    let dk = sequence(&rules("octal(0.07)"), 400, c)?;
    rows.push(row(
        "seed 003 §5",
        "0.07 values: period 34, pre-period 52 (as printed)",
        "n < 400, a heap of n cells".into(),
        dk.values.len() as u64,
        match dk.periodicity {
            Some(p) if p.period == 34 && p.preperiod == 52 => None,
            Some(p) => {
                let last = p.preperiod as usize - 1;
                Some(format!(
                    "computed period {}, pre-period {}: G({last}) = {} ≠ G({}) = {} (that is 52 if heaps are counted from 1)",
                    p.period,
                    p.preperiod,
                    dk.values[last].unwrap_or(0),
                    last + p.period as usize,
                    dk.values[last + p.period as usize].unwrap_or(0)
                ))
            }
            None => Some("no period certified".into()),
        },
    ));
    t3.push_to(
        rows,
        "seed 003 Thm 4.2.3",
        "push(sub(S),R₂): outcome period ≤ k·2^max S, values ≤ k(|S|+2)^max S",
        format!("6 sets S, R₂ = tag(1..4), n < {len}"),
    );
    t4.push_to(
        rows,
        "seed 003 Thm 4.2.4",
        "push(tag(k₁),tag(k₂)) P-positions have the stated period",
        format!("1 ≤ k₁, k₂ ≤ 8, n < {len}"),
    );
    Ok(())
}
