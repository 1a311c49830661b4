//! Octal and hexadecimal games on one heap under normal play, with the take-and-break codes
//! that split without taking (`4.007`, Grundy's game): G(0..N) by the rare/common method
//! ([`rare_common`]) when every move leaves at most two heaps, by the plain method ([`plain`])
//! when a move may leave three; a period is certified as soon as the computed prefix proves one
//! (Guy–Smith), and the rest of the sequence follows from it. Runs past one process ([`run`]):
//! values in a binary file ([`values_file`]), resumed from a checkpoint, with the statistics
//! researchers compare ([`stats`]).

pub mod bits;
pub mod plain;
pub mod rare_common;
pub mod run;
pub mod stats;
pub mod values_file;

use super::control::{Control, SolveError};
use super::period::{Periodicity, certify_code};
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

/// The engine of a code: rare/common where moves leave at most two heaps, else plain.
pub enum Engine {
    /// The rare/common method (codes whose moves leave at most two heaps).
    RareCommon(Box<RareCommon>),
    /// The plain method: every option looked at.
    Plain(Plain),
}

impl Engine {
    /// The engine for `code` (a code that splits heaps).
    pub fn new(code: &OctalCode) -> Self {
        match RareCommon::new(code) {
            Some(rc) => Engine::RareCommon(Box::new(rc)),
            None => Engine::Plain(Plain::new(code)),
        }
    }

    /// The engine after the values `prefix`, ready for the next (see [`RareCommon::resume`]).
    pub fn resume(code: &OctalCode, prefix: &[u32]) -> Self {
        match RareCommon::resume(code, prefix.iter().copied()) {
            Some(rc) => Engine::RareCommon(Box::new(rc)),
            None => {
                let mut p = Plain::new(code);
                for _ in prefix {
                    p.next_value();
                }
                Engine::Plain(p)
            }
        }
    }

    /// Which method this engine is.
    pub fn method(&self) -> OctalMethod {
        match self {
            Engine::RareCommon(_) => OctalMethod::RareCommon,
            Engine::Plain(_) => OctalMethod::Plain,
        }
    }

    /// Computes the next value, G(len), and returns it.
    pub fn next_value(&mut self) -> u32 {
        match self {
            Engine::RareCommon(e) => e.next_value(),
            Engine::Plain(e) => e.next_value(),
        }
    }

    /// How many values are computed.
    pub fn len(&self) -> usize {
        match self {
            Engine::RareCommon(e) => e.len(),
            Engine::Plain(e) => e.values().len(),
        }
    }

    /// Whether no value is computed yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(i), `i < len()`.
    pub fn get(&self, i: usize) -> u32 {
        match self {
            Engine::RareCommon(e) => e.get(i),
            Engine::Plain(e) => e.values()[i],
        }
    }

    /// Splits looked at so far: the engine's work, which its time follows (about a
    /// nanosecond each) and which does not depend on the machine, so a limit on it gives the
    /// same answer everywhere.
    pub fn pairs(&self) -> u64 {
        match self {
            Engine::RareCommon(e) => e.work.rare_pairs + e.work.scanned_pairs,
            // every split of every heap: n/2 pairs at heap n
            Engine::Plain(e) => {
                let n = e.values().len() as u64;
                n * n / 4
            }
        }
    }

    /// The least period the computed prefix certifies for `code`.
    pub fn certify(&self, code: &OctalCode) -> Option<Periodicity> {
        match self {
            Engine::RareCommon(e) => match (e.narrow_values(), e.wide_values()) {
                (Some(v), _) => certify_code(v, code),
                (_, Some(v)) => certify_code(v, code),
                _ => None,
            },
            Engine::Plain(e) => certify_code(e.values(), code),
        }
    }

    /// Bytes held per computed heap (values, and for three-heap codes the split sets).
    pub fn bytes_per_heap(&self, max: u32) -> u64 {
        match self {
            Engine::RareCommon(e) => e.bytes_per_heap(),
            Engine::Plain(_) => 4 + 32 + u64::from(max).div_ceil(8),
        }
    }

    /// The final report of a finished engine: its values, widened.
    fn finish(self, periodicity: Option<Periodicity>) -> OctalSequence {
        match self {
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
        }
    }
}

/// G(0..n) of a splitting take-and-break code under normal play, stopping early when a period
/// is certified: the engine behind `octal(…)`, `grundy`, and typed one-heap rules that are
/// take-and-break codes.
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
    let mut engine = Engine::new(code);
    let mut next_check = 64u64;
    let mut periodicity = None;
    let mut max = 0u32;
    let mut i = 0u64;
    while i < n {
        if i.is_multiple_of(256) {
            control.check()?;
            control.add_done(256.min(n - i));
            // the values are returned widened to 32 bits
            let needed = i.saturating_mul(engine.bytes_per_heap(max) + 4);
            if needed > control.memory_budget() {
                return Err(SolveError::OverBudget {
                    what: format!("the values of octal({code}) up to {n}"),
                    needed: n.saturating_mul(engine.bytes_per_heap(max) + 4),
                    budget: control.memory_budget(),
                });
            }
            if allowance.is_some_and(|a| engine.pairs() > a) {
                // the last look for a period, in what was computed
                periodicity = engine.certify(code);
                break;
            }
        }
        max = max.max(engine.next_value());
        i += 1;
        if i == next_check || i == n {
            next_check = next_check.saturating_mul(2);
            if let Some(p) = engine.certify(code) {
                periodicity = Some(p);
                break;
            }
        }
    }
    Ok(engine.finish(periodicity))
}
