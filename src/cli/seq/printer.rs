//! The values of `seq` as they come: comma-separated text or one JSON object, buffered, with
//! the trailer (the period, the outcomes known alone, the largest values in JSON).

use std::io::Write;

use nimscope_core::game::Ruleset;
use nimscope_core::solver::octal::{Engine, OctalMethod};
use serde_json::json;

use super::report::Report;
use crate::cli::interrupt;
use crate::cli::output::csv_field;

/// Prints values as text (comma-separated) or the JSON object, as they come.
pub(super) struct Printer<'a, W: Write> {
    pub(super) out: &'a mut W,
    json: bool,
    pub(super) enabled: bool,
    printed: u64,
    buf: Vec<u8>,
    digits: itoa::Buffer,
}

impl<'a, W: Write> Printer<'a, W> {
    pub(super) fn new(out: &'a mut W, json: bool, enabled: bool) -> Self {
        Printer {
            out,
            json,
            enabled,
            printed: 0,
            buf: Vec::with_capacity(1 << 17),
            digits: itoa::Buffer::new(),
        }
    }

    pub(super) fn start(&mut self, r: &Ruleset, n: u64) -> std::io::Result<()> {
        if self.enabled && self.json {
            write!(
                self.out,
                "{{\"ruleset\":{},\"n\":{n},\"values\":[",
                json!(r.to_string())
            )?;
        }
        Ok(())
    }

    /// Appends one value (`None`: no value, printed as nothing or `null`).
    pub(super) fn value(&mut self, v: Option<u32>) -> std::io::Result<()> {
        if !self.enabled {
            return Ok(());
        }
        if self.printed > 0 {
            self.buf.push(b',');
        }
        match v {
            Some(v) => self.buf.extend_from_slice(self.digits.format(v).as_bytes()),
            None if self.json => self.buf.extend_from_slice(b"null"),
            None => {}
        }
        self.ended()
    }

    /// Appends a heap's text: its outcome where its value is unknown (text output only), ∞(A)
    /// where a game that loops has an infinite value.
    pub(super) fn text(&mut self, text: &str) -> std::io::Result<()> {
        if self.printed > 0 {
            self.buf.push(b',');
        }
        self.buf.extend_from_slice(text.as_bytes());
        self.ended()
    }

    /// One item more: the buffer goes out when full.
    pub(super) fn ended(&mut self) -> std::io::Result<()> {
        self.printed += 1;
        if self.buf.len() >= 1 << 16 {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
            // the values so far reach the reader (a pipe, a terminal) while the rest is found
            self.out.flush()?;
            if interrupt::interrupted() {
                return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted"));
            }
        }
        Ok(())
    }

    /// The values not printed yet (from the period, or known by their outcome alone), then the
    /// trailer.
    pub(super) fn finish(&mut self, report: &Report) -> std::io::Result<()> {
        let n = report.n();
        let outcomes = match report {
            Report::Computed(c) => c.outcomes_only.clone(),
            Report::Long(_) => None,
        };
        while self.printed < n {
            let i = self.printed;
            match (report.get(i), outcomes.as_ref().and_then(|o| o.get(i))) {
                // a game that loops: ∞(A) where the value is infinite (never streamed: the
                // values of a game that loops are found all at once)
                (Some(_), _) if let Some(g) = report.gamma(i) => {
                    let text = if self.json {
                        json!(g.to_string()).to_string()
                    } else {
                        csv_field(&g)
                    };
                    self.text(&text)?;
                }
                // the misère Grundy value unknown: the outcome alone, by the misère quotient
                (None, Some(o)) if !self.json => self.text(o.as_str())?,
                (v, _) => self.value(v)?,
            }
        }
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        let period = report.periodicity();
        if self.json {
            let (split, outcomes_only) = match report {
                Report::Long(r) => (
                    match r.engine() {
                        Engine::RareCommon(e) if r.method() == OctalMethod::RareCommon => Some(json!(e.summary())),
                        _ => None,
                    },
                    None,
                ),
                Report::Computed(c) => (
                    c.octal.as_ref().map(|o| json!(o.split)),
                    c.outcomes_only.as_ref().map(|o| {
                        json!({
                            "from": o.from,
                            "outcomes": o.outcomes.iter().map(|x| x.as_str()).collect::<String>(),
                            "method": "misère quotient",
                            "by": o.by,
                        })
                    }),
                ),
            };
            let extra = json!({
                "period": period.map(|p| p.period),
                "preperiod": period.map(|p| p.preperiod),
                "method": report.method(),
                "computed": report.computed(),
                "largest": largest_values(report, 5),
                "rare_common": split,
                "outcomes_only": outcomes_only,
            });
            // the object's other members, after "values"
            let extra = extra.to_string();
            return writeln!(self.out, "],{}", &extra[1..]);
        }
        writeln!(self.out)?;
        if let Some(o) = &outcomes {
            writeln!(
                self.out,
                "heaps {} to {}: the outcome alone (P or N; the misère Grundy value unknown), by {}",
                o.from,
                n.saturating_sub(1),
                o.by
            )?;
        }
        match period {
            _ if report.loops() => writeln!(
                self.out,
                "the game loops: values by Smith's theory (∞(A), A the finite values of the options: a draw unless A holds 0)"
            ),
            Some(p) => writeln!(
                self.out,
                "period {}, pre-period {} (certified; indexing by heap size n)",
                p.period, p.preperiod
            ),
            None => writeln!(self.out, "no period certified within n < {n}"),
        }
    }
}

/// The `count` largest distinct values of G(0..N), each with the first heap that has it (the
/// period repeats values of the computed prefix, so the prefix holds them all).
fn largest_values(report: &Report, count: usize) -> Vec<serde_json::Value> {
    let len = report.computed().min(report.n());
    let mut first: std::collections::BTreeMap<u32, u64> = std::collections::BTreeMap::new();
    for i in 0..len {
        if let Some(v) = report.finite(i) {
            first.entry(v).or_insert(i);
            if first.len() > count {
                first.pop_first();
            }
        }
    }
    first
        .iter()
        .rev()
        .map(|(&value, &heap)| json!({"value": value, "first": heap}))
        .collect()
}
