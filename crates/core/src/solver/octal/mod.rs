//! Octal and hexadecimal games on one heap under normal play: G(0..N) by the rare/common method
//! ([`rare_common`]) when every move leaves at most two heaps, by the plain method ([`plain`])
//! when a move may leave three; a period is certified as soon as the computed prefix proves one
//! (Guy–Smith), and the rest of the sequence follows from it.

pub mod bits;
pub mod plain;
pub mod rare_common;

use super::control::{Control, SolveError};
use super::period::{Periodicity, certify_splits};
use crate::game::rules::one_heap::OctalCode;
use plain::Plain;
use rare_common::{RareCommon, SplitSummary, Work};

/// How the values were computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OctalMethod {
    /// The rare/common method: most splits valued through the few rare values, the common ones proved by a scan.
    RareCommon,
    /// The plain mex over every option.
    Plain,
}

impl OctalMethod {
    /// The method's name as reports write it: `rare/common` or `plain`.
    pub fn as_str(self) -> &'static str {
        match self {
            OctalMethod::RareCommon => "rare/common",
            OctalMethod::Plain => "plain",
        }
    }
}

/// The computed prefix of an octal game's values.
#[derive(Debug, Clone)]
pub struct OctalSequence {
    /// G(0..len): up to the N asked for, or up to where the period was certified.
    pub values: Vec<u32>,
    /// The period and pre-period, when the computed prefix certified one.
    pub periodicity: Option<Periodicity>,
    /// How the values were computed.
    pub method: OctalMethod,
    /// The final rare/common split (rare/common method only).
    pub split: Vec<SplitSummary>,
    /// Counts of the work done (rare/common method; zero for the plain method).
    pub work: Work,
}

enum Engine {
    RareCommon(Box<RareCommon>),
    Plain(Plain),
}

impl Engine {
    fn next_value(&mut self) -> u32 {
        match self {
            Engine::RareCommon(e) => e.next_value(),
            Engine::Plain(e) => e.next_value(),
        }
    }

    /// Splits looked at so far: the engine's work, which its time follows (about a
    /// nanosecond each) and which does not depend on the machine, so a limit on it gives the
    /// same answer everywhere.
    fn pairs(&self) -> u64 {
        match self {
            Engine::RareCommon(e) => e.work.rare_pairs + e.work.scanned_pairs,
            // every split of every heap: n/2 pairs at heap n
            Engine::Plain(e) => {
                let n = e.values().len() as u64;
                n * n / 4
            }
        }
    }

    fn values(&self) -> &[u32] {
        match self {
            Engine::RareCommon(e) => e.values(),
            Engine::Plain(e) => e.values(),
        }
    }

    /// Bytes held per computed heap (values, rare lists, and for three-heap codes the split sets).
    fn bytes_per_heap(&self, max: u32) -> u64 {
        match self {
            Engine::RareCommon(_) => 12,
            Engine::Plain(_) => 4 + 32 + u64::from(max).div_ceil(8),
        }
    }
}

/// G(0..n) of a splitting octal or hexadecimal code under normal play, stopping early when a
/// period is certified.
pub fn octal_sequence(code: &OctalCode, n: u64, control: &Control) -> Result<OctalSequence, SolveError> {
    octal_sequence_within(code, n, None, control)
}

/// [`octal_sequence`], giving up once the engine has looked at `allowance` splits (when
/// given): a search for a period whose fallback cannot be held (G(10^18)) must end in a
/// moment for codes with no period in reach (0.6, 0.064, 0.007 take seconds to minutes to
/// 2^20 values), while the known long periods certify well inside it (0.16 at 2^19 values:
/// 10^8 splits). The prefix computed is returned, with a period if it certifies one.
pub fn octal_sequence_within(
    code: &OctalCode,
    n: u64,
    allowance: Option<u64>,
    control: &Control,
) -> Result<OctalSequence, SolveError> {
    let mut engine = match RareCommon::new(code) {
        Some(rc) => Engine::RareCommon(Box::new(rc)),
        None => Engine::Plain(Plain::new(code)),
    };
    let (parts, take) = (code.max_parts(), code.max_take());
    let mut next_check = 64u64;
    let mut periodicity = None;
    let mut max = 0u32;
    let mut i = 0u64;
    while i < n {
        if i.is_multiple_of(256) {
            control.check()?;
            control.add_done(256.min(n - i));
            let needed = i.saturating_mul(engine.bytes_per_heap(max));
            if needed > control.memory_budget() {
                return Err(SolveError::OverBudget {
                    what: format!("the values of octal({code}) up to {n}"),
                    needed: n.saturating_mul(engine.bytes_per_heap(max)),
                    budget: control.memory_budget(),
                });
            }
            if allowance.is_some_and(|a| engine.pairs() > a) {
                // the last look for a period, in what was computed
                periodicity = certify_splits(engine.values(), parts, take);
                break;
            }
        }
        max = max.max(engine.next_value());
        i += 1;
        if i == next_check || i == n {
            next_check = next_check.saturating_mul(2);
            if let Some(p) = certify_splits(engine.values(), parts, take) {
                periodicity = Some(p);
                break;
            }
        }
    }
    Ok(match engine {
        Engine::RareCommon(e) => OctalSequence {
            split: e.summary(),
            work: e.work,
            periodicity,
            method: OctalMethod::RareCommon,
            values: e.into_values(),
        },
        Engine::Plain(e) => OctalSequence {
            split: Vec::new(),
            work: Work::default(),
            periodicity,
            method: OctalMethod::Plain,
            values: e.into_values(),
        },
    })
}
