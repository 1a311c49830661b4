//! The certificate of a period: the evidence that G(n + p) = G(n) for every n ≥ n0, in a form
//! anyone can check without nimscope (`scripts/verify_period.py` recomputes the values from the
//! rule alone and checks each claim; docs/certificates.md has the format). `seq --certificate
//! FILE` writes it, and the window's strip and the Python API show "certified" from the same
//! type.
//!
//! What it claims, for a take-and-break code (the Guy–Smith periodicity theorem and its
//! variants, `OctalCode::periodicity_bound`): the values G(0..checked) were computed from the
//! rule; G(n + period) = G(n) for every `preperiod ≤ n < checked − period`; and `checked ≥
//! needed`, the length past which the theorem carries the period to every heap: every option of
//! a heap N ≥ checked leaves a part of at least N − … that lies in the periodic range, because no
//! move takes more than `max_take` tokens or leaves more than `parts` heaps. For a subtraction
//! game the value at n depends on the `max_take` values below it, so `needed = preperiod +
//! period + max_take`. The values' SHA-256 (of their values file, `values_file`) lets a
//! checker that has the values compare them with nimscope's.

use super::super::octal::values_file::{self, Values};
use super::super::period::Periodicity;
use crate::game::Ruleset;

/// The format name and version written in every certificate.
pub const FORMAT: &str = "nimscope period certificate";
/// The version of the certificate's fields.
pub const VERSION: u32 = 1;

/// The evidence of a certified period.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Certificate {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The ruleset, as nimscope names it (`octal(0.16)`, `sub(1,3,4)`).
    pub ruleset: String,
    /// `take-and-break` (with `code`) or `subtraction` (with `set`).
    pub kind: String,
    /// The take-and-break code, `d0.d1d2…` (a `u` after a digit: unequal heaps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The subtraction set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<Vec<u64>>,
    /// The pre-period: G(n + period) = G(n) for every n ≥ preperiod.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// The values G(0..checked) were computed, and the period holds on all of them from the
    /// pre-period on; `checked` is what the argument needs (a checker recomputes no more).
    pub checked: u64,
    /// The length the theorem needs (`checked ≥ needed`).
    pub needed: u64,
    /// The most tokens a move takes: how far below a heap its options reach.
    pub max_take: u64,
    /// The most heaps a move leaves (0 to 3).
    pub parts: u64,
    /// Whether some split must leave unequal heaps.
    pub unequal: bool,
    /// The argument, in words.
    pub theorem: String,
    /// SHA-256 of the values file of G(0..checked) (what `sha256sum` prints for
    /// `seq RULESET --to CHECKED --values FILE`).
    pub values_sha256: String,
}

impl Certificate {
    /// The certificate of `periodicity` for `ruleset`, from its computed values G(0..checked);
    /// `None` for a ruleset no certificate is written for (only take-and-break codes and
    /// subtraction games are), or when the prefix does not reach what the theorem needs.
    pub fn new(ruleset: &Ruleset, periodicity: Periodicity, values: &Values) -> Option<Certificate> {
        let Periodicity { period, preperiod } = periodicity;
        let name = ruleset.to_string();
        let (kind, code, set, needed, max_take, parts, unequal, theorem) = match ruleset {
            Ruleset::Octal(c) => {
                let unequal = c.moves().any(|m| m.unequal);
                let parts = c.max_parts();
                let theorem = if parts >= 2 {
                    "Guy–Smith periodicity theorem: if G(n + p) = G(n) for preperiod ≤ n < checked − p and checked ≥ parts·(max(preperiod, 1) + p) + max_take (unequal splits: parts·max(preperiod, 1) + 3p + max_take), then G(n + p) = G(n) for every n ≥ preperiod"
                } else {
                    "bounded memory: a heap's options are the heaps at most max_take below it, so if G(n + p) = G(n) for preperiod ≤ n < checked − p and checked ≥ max(preperiod, 1) + p + max_take, then for every n ≥ preperiod"
                };
                (
                    "take-and-break",
                    Some(c.to_string()),
                    None,
                    c.periodicity_bound(preperiod, period)?,
                    c.max_take(),
                    parts,
                    unequal,
                    theorem,
                )
            }
            Ruleset::Subtraction(s) => {
                let m = s.largest();
                (
                    "subtraction",
                    None,
                    Some(s.to_vec()),
                    preperiod.checked_add(period)?.checked_add(m)?,
                    m,
                    1,
                    false,
                    "bounded memory: G(n) is the mex of G(n − s), s in the set, s ≤ n; so if G(n + p) = G(n) for preperiod ≤ n < checked − p and checked ≥ preperiod + p + max_take, then for every n ≥ preperiod",
                )
            }
            _ => return None,
        };
        if needed > values.len() {
            return None;
        }
        // the values the argument needs and no more: what a checker must recompute
        let checked = needed;
        let get = |i: u64| values.get(i);
        let prefix = Values::By(checked, &get);
        Some(Certificate {
            format: FORMAT.into(),
            version: VERSION,
            values_sha256: values_file::checksum(&name, &prefix),
            ruleset: name,
            kind: kind.into(),
            code,
            set,
            preperiod,
            period,
            checked,
            needed,
            max_take,
            parts,
            unequal,
            theorem: theorem.into(),
        })
    }

    /// The certificate as pretty JSON (what `seq --certificate FILE` writes).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Whether the values `values` (G(0..checked) or more) bear the certificate out: the
    /// period holds from the pre-period through `checked`, the length reaches what the theorem
    /// needs, and the prefix's checksum is the certificate's. (An independent check, from the
    /// rule alone, is `scripts/verify_period.py`.)
    pub fn holds_for(&self, values: &Values) -> bool {
        if values.len() < self.checked || self.checked < self.needed || self.period == 0 {
            return false;
        }
        let periodic = (self.preperiod..self.checked.saturating_sub(self.period))
            .all(|n| values.get(n) == values.get(n + self.period));
        let get = |i: u64| values.get(i);
        let prefix = Values::By(self.checked, &get);
        periodic && values_file::checksum(&self.ruleset, &prefix) == self.values_sha256
    }
}
