//! What a `seq` run found (the long-run engine's run or a computed sequence), asked alike by the
//! trailer, the statistics and the files.

use nimscope_core::game::loopy::cells;
use nimscope_core::game::{Gamma, Ruleset};
use nimscope_core::solver::octal::run::Run;
use nimscope_core::solver::octal::values_file::Values;
use nimscope_core::solver::period::Periodicity;
use nimscope_core::solver::sequence::{Certificate, Computed};

/// What a run found, for the trailer, the statistics and the files.
pub(super) enum Report {
    Long(Run),
    Computed(Computed),
}

impl Report {
    pub(super) fn n(&self) -> u64 {
        match self {
            Report::Long(r) => r.n,
            Report::Computed(c) => c.n,
        }
    }

    pub(super) fn periodicity(&self) -> Option<Periodicity> {
        match self {
            Report::Long(r) => r.periodicity,
            Report::Computed(c) => c.periodicity,
        }
    }

    /// The value of heap `i`: a number, or for a game that loops a cell code whose ∞(A) is
    /// [`Report::gamma`] (use [`Report::finite`] for the numbers alone).
    pub(super) fn get(&self, i: u64) -> Option<u32> {
        match self {
            Report::Long(r) => Some(r.get(i)),
            Report::Computed(c) => c.get(i),
        }
    }

    /// Whether the game loops (its values are Smith's: some may be infinite).
    pub(super) fn loops(&self) -> bool {
        matches!(self, Report::Computed(c) if c.infinite.is_some())
    }

    /// Heap `i`'s value ∞(A) when it is infinite (a game that loops).
    pub(super) fn gamma(&self, i: u64) -> Option<Gamma> {
        match self {
            Report::Computed(c) if c.get(i).is_some_and(cells::is_infinite) && c.infinite.is_some() => c.gamma(i),
            _ => None,
        }
    }

    /// Heap `i`'s value when it is a number (not ∞(A)).
    pub(super) fn finite(&self, i: u64) -> Option<u32> {
        self.get(i).filter(|_| self.gamma(i).is_none())
    }

    pub(super) fn computed(&self) -> u64 {
        match self {
            Report::Long(r) => r.computed(),
            Report::Computed(c) => c.computed_len() as u64,
        }
    }

    pub(super) fn method(&self) -> &'static str {
        match self {
            Report::Long(r) => r.method().as_str(),
            Report::Computed(c) => c.method.as_str(),
        }
    }

    /// Every value as a values file holds them; an error when some heap has none (not a
    /// position, or its outcome alone known).
    pub(super) fn with_values<T>(&self, f: impl FnOnce(&Values) -> T) -> anyhow::Result<T> {
        match self {
            Report::Long(r) => Ok(r.with_values(f)),
            Report::Computed(_) if self.loops() => anyhow::bail!(
                "the game loops: its values are Smith's (∞(A) is no number); values files and statistics need numbers"
            ),
            Report::Computed(c) => {
                if let Some(i) = (0..c.n).find(|&i| c.get(i).is_none()) {
                    anyhow::bail!(
                        "heap {i} has no value (not a position, or its outcome alone is known): values files and statistics need every value"
                    );
                }
                let get = |i: u64| c.get(i).unwrap_or(0);
                Ok(f(&Values::By(c.n, &get)))
            }
        }
    }

    pub(super) fn certificate(&self, r: &Ruleset) -> anyhow::Result<Certificate> {
        let none = || anyhow::anyhow!("--certificate: no period of {r} is certified within n < {}", self.n());
        match self {
            Report::Long(run) => {
                let p = run.periodicity.ok_or_else(none)?;
                let get = |i: u64| run.get(i);
                Certificate::new(r, p, &Values::By(run.computed(), &get)).ok_or_else(none)
            }
            Report::Computed(c) => match c.periodicity {
                None => Err(none()),
                Some(_) => c.certificate(r).ok_or_else(|| {
                    anyhow::anyhow!("--certificate: certificates are written for take-and-break codes and subtraction games, not {r}")
                }),
            },
        }
    }
}
