//! Answers asked again from scratch (`nimscope cram --verify DIR [--sample K]`): each unit
//! chosen is asked, with fresh solvers, no proven values of other units and no checkpoint,
//! the question its recorded answer answers (its value, its outcome, or whether it is one of
//! the values it excluded), and the two answers must agree. This checks what the tags cannot:
//! a node that computed a wrong answer, or a nimscope with a bug, signs it like a right one.

use serde::Serialize;

use super::{Ask, CramSolver, Fact, Plan, PlanError, PushCramSolver, ask, solve_unit};
use crate::solver::control::Control;

/// A unit asked again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The unit, numbered from 0.
    pub unit: usize,
    /// The recorded answer, as answers state it.
    pub recorded: String,
    /// The answer of the search from scratch, stated the same way.
    pub again: String,
    /// Whether the two agree.
    pub agrees: bool,
    /// Wall-clock seconds of the search from scratch (left out of the JSON: the same command
    /// gives the same bytes).
    #[serde(skip)]
    pub seconds: f64,
}

/// The question whose answer `fact` is.
pub fn question_of(fact: Fact) -> Ask {
    match fact {
        Fact::Value(v) if v < 128 => 1u128 << v,
        Fact::Value(_) => ask::EXACT,
        Fact::IsZero(_) => ask::ZERO,
        Fact::Excluded(set) => set,
    }
}

/// Whether a search's answer `again` to [`question_of`]`(recorded)` agrees with `recorded`.
pub fn agrees(recorded: Fact, again: Fact) -> bool {
    match (recorded, again) {
        (Fact::Value(a), Fact::Value(b)) => a == b,
        (Fact::IsZero(a), Fact::IsZero(b)) => a == b,
        (Fact::Excluded(_), Fact::Excluded(_)) => true,
        // Asked about the values it excluded, a unit may find its value instead: one not
        // among them.
        (Fact::Excluded(_), Fact::Value(v)) => !recorded.excludes(v),
        _ => false,
    }
}

/// A fact in words.
pub fn describe(fact: Fact) -> String {
    match fact {
        Fact::Value(v) => format!("value {v}"),
        Fact::IsZero(true) => "P".into(),
        Fact::IsZero(false) => "N".into(),
        Fact::Excluded(set) => {
            let values: Vec<String> = (0..128u32)
                .filter(|v| set >> v & 1 == 1)
                .map(|v| v.to_string())
                .collect();
            format!("none of {}", values.join(", "))
        }
    }
}

/// Asks unit `k` of `plan` again what `recorded` answers, from scratch, with tables of at
/// most `table_bytes`.
pub fn reask(plan: &Plan, k: usize, recorded: Fact, table_bytes: u64, control: &Control) -> Result<Verdict, PlanError> {
    let started = std::time::Instant::now();
    let mut cram = CramSolver::with_table_bytes(table_bytes);
    let mut push = PushCramSolver::with_table_bytes(table_bytes);
    let again = solve_unit(plan, k, question_of(recorded), &mut cram, &mut push, control)?;
    Ok(Verdict {
        unit: k,
        recorded: describe(recorded),
        again: describe(again),
        agrees: agrees(recorded, again),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The seed of a sample when none is given: the first 64 bits of the plan's id, so the same
/// command on the same folder asks the same units again (the same bytes out), and a sample of
/// another board's plan draws others. A sample chosen otherwise takes `--seed`.
pub fn plan_seed(plan: &Plan) -> u64 {
    plan.id
        .get(..16)
        .and_then(|head| u64::from_str_radix(head, 16).ok())
        .unwrap_or(0)
}

/// `k` of `units` chosen at random by `seed` (all of them when `k` is at least their number),
/// in order.
pub fn sample(units: &[usize], k: usize, seed: u64) -> Vec<usize> {
    let mut pool = units.to_vec();
    let mut state = seed;
    let mut next = || {
        // SplitMix64.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let take = k.min(pool.len());
    for i in 0..take {
        let j = i + (next() % (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(take);
    pool.sort_unstable();
    pool
}
