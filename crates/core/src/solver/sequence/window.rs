//! The mex fill: each heap's value is the mex over its options' values, found from the values
//! before it (subtraction, tag, non-splitting octal codes, and one-heap rulesets with pushes or
//! misère play), the period certified by the window argument as the values grow.

use std::rc::Rc;

use super::fill::{check_growth, too_long};
use super::{Computed, SequenceMethod, Sink};
use crate::game::rules::one_heap::OctalOption;
use crate::game::{MexSet, Ruleset};
use crate::solver::control::{Control, SolveError};
use crate::solver::period::{Memory, NONE, certify, lcm};

/// The mex fill over each heap's options (subtraction, tag, non-splitting octal codes, and any
/// one-heap ruleset with pushes or misère play), certified by the window argument.
#[expect(clippy::too_many_arguments, reason = "the fill's inputs, each used once")]
pub(super) fn fill_window(
    ruleset: &Ruleset,
    base: &Ruleset,
    misere: bool,
    memory: Memory,
    extras: &[Rc<Computed>],
    n: u64,
    control: &Control,
    mut sink: Option<Sink<'_>>,
) -> Result<Computed, SolveError> {
    let terminal = u32::from(misere);
    // Pushes' periods: the window certificate needs p to be a multiple and n0 past them.
    let mut ext_period = 1u64;
    let mut ext_pre = 0u64;
    let mut memory = memory;
    for e in extras {
        match e.periodicity {
            Some(p) => {
                ext_period = lcm(ext_period, p.period);
                ext_pre = ext_pre.max(p.preperiod);
            }
            None => memory = Memory::Unbounded,
        }
    }
    let len = usize::try_from(n).map_err(|_| too_long(ruleset, n, control))?;
    let mut values: Vec<u32> = Vec::new();
    let mut seen = MexSet::new();
    let mut ones = Vec::new();
    let mut octal = Vec::new();
    // Nim's options are every smaller heap: keep the values seen so far instead of rescanning
    let mut all_before = MexSet::new();
    let mut nim_mex = 0u32;
    let mut next_check = 64usize;
    let mut periodicity = None;
    for i in 0..len {
        if i % 4096 == 0 {
            control.check()?;
            control.add_done(4096.min((len - i) as u64));
            check_growth(ruleset, i + 4096, n, control)?;
        }
        let heap = i as u64;
        let ext: Vec<u32> = extras.iter().map(|e| e.get(heap).unwrap_or(NONE)).collect();
        let valid = !(ext.contains(&NONE) || matches!(base, Ruleset::Divisor) && heap == 0);
        let v = if !valid {
            NONE
        } else if matches!(base, Ruleset::Nim) {
            // the values before only grow, so their mex never falls: resume from the last one
            // instead of scanning from 0 (which made push(nim,…) sequences quadratic)
            while all_before.contains(nim_mex) {
                nim_mex += 1;
            }
            let mut v = nim_mex;
            // the mex of everything before together with the pushes' values
            while ext.contains(&v) || all_before.contains(v) {
                v += 1;
            }
            if heap == 0 && ext.is_empty() { terminal } else { v }
        } else {
            seen.clear();
            let mut has_option = !ext.is_empty();
            ext.iter().for_each(|&e| seen.insert(e));
            if let Ruleset::Octal(code) = base {
                octal.clear();
                code.options(heap, &mut octal);
                for o in &octal {
                    has_option = true;
                    seen.insert(match *o {
                        OctalOption::Gone => values[0],
                        OctalOption::One(x) => values[x as usize],
                        // never reached: splitting codes are computed elsewhere
                        OctalOption::Two(..) | OctalOption::Three(..) => NONE,
                    });
                }
            } else {
                ones.clear();
                one_heap_options(base, heap, &mut ones);
                for &x in &ones {
                    has_option = true;
                    seen.insert(values[x as usize]);
                }
            }
            if has_option { seen.mex() } else { terminal }
        };
        values.push(v);
        if let Some(s) = sink.as_mut() {
            s(heap, (v != NONE).then_some(v));
        }
        if v != NONE {
            all_before.insert(v);
        }
        let done = i + 1;
        if done == next_check || done == len {
            next_check *= 2;
            if let Some(p) = certify(&values, memory, ext_period, ext_pre) {
                periodicity = Some(p);
                break;
            }
        }
    }
    Ok(Computed {
        values,
        periodicity,
        n,
        method: SequenceMethod::Fill,
        octal: None,
        formula: None,
        outcomes_only: None,
        infinite: None,
    })
}

/// Options of the non-octal one-heap leaves, as heap sizes.
fn one_heap_options(base: &Ruleset, n: u64, out: &mut Vec<u64>) {
    match base {
        Ruleset::Subtraction(s) => crate::game::rules::one_heap::subtraction_options(s, n, out),
        Ruleset::Tag(k) => out.extend((1..=(*k).min(n)).map(|s| n - s)),
        Ruleset::Divisor => crate::game::rules::one_heap::divisor_options(n, out),
        Ruleset::Nim => out.extend(0..n),
        Ruleset::Zeruclid => out.extend((n > 0).then_some(0)),
        Ruleset::Cdn => out.extend(crate::game::rules::heaps::divisors(n).into_iter().map(|d| n - d)),
        _ => {}
    }
}
