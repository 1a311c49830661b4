//! `nimscope.quotient(code, heaps)`: the misère quotient of an octal game, computed once and
//! kept, so each misère collection is a product in the monoid and a look-up: microseconds a
//! question, thousands of questions without a rebuild.

use std::sync::Arc;

use pyo3::prelude::*;

use nimscope_core::game::Outcome;
use nimscope_core::query;
use nimscope_core::solver::misere_quotient::{Quotient as CoreQuotient, outcomes};

use crate::args::range_arg;
use crate::arrays::masked;
use crate::errors::{Kind, to_py};
use crate::job::{Job, budget_arg, threads_arg};

/// The misère quotient of an octal game for heaps up to a bound (Plambeck–Siegel), as
/// `nimscope quotient` computes it: a finite commutative monoid with its P-portion and each
/// heap's element. Ask it the misère outcome of any collection of those heaps.
#[pyclass(module = "nimscope", frozen)]
pub struct Quotient {
    q: Arc<CoreQuotient>,
}

impl Quotient {
    /// The heaps of a collection, each within the quotient's bound.
    fn collection(&self, heaps: Vec<u64>) -> PyResult<Vec<u64>> {
        if let Some(&h) = heaps.iter().find(|&&h| h > u64::from(self.q.heaps())) {
            return Err(Kind::Position.err(format!(
                "heap {h} is past the quotient's bound: it answers heaps up to {} (compute it with heaps={h} or more)",
                self.q.heaps()
            )));
        }
        Ok(heaps)
    }
}

#[pymethods]
impl Quotient {
    /// The misère outcome of a collection of heaps: "P" (the previous player wins) or "N".
    fn outcome(&self, heaps: Vec<u64>) -> PyResult<&'static str> {
        let heaps = self.collection(heaps)?;
        Ok(self.q.outcome(&heaps).unwrap_or(Outcome::N).as_str())
    }

    /// The outcome of each collection, a list of "P" and "N".
    fn outcomes(&self, collections: Vec<Vec<u64>>) -> PyResult<Vec<&'static str>> {
        collections.into_iter().map(|c| self.outcome(c)).collect()
    }

    /// Whether a collection is a misère P-position.
    fn is_p(&self, heaps: Vec<u64>) -> PyResult<bool> {
        Ok(self.outcome(heaps)? == "P")
    }

    /// The element of a collection, by its normal form in the presentation (e.g. "a^2b").
    fn element(&self, heaps: Vec<u64>) -> PyResult<String> {
        let heaps = self.collection(heaps)?;
        let x = self.q.element_of(&heaps).unwrap_or(0);
        Ok(self.q.name(x))
    }

    /// The outcomes of the collections {a, b} for a in rows, b in cols as a uint8 array: 0 at
    /// the P-positions, 1 elsewhere (what `nimscope grid 'misere(octal(C))'` prints as P/N).
    fn table<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
        cols: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (rows, cols) = (range_arg(rows, "rows")?, range_arg(cols, "cols")?);
        let shape = [(rows.end - rows.start) as usize, (cols.end - cols.start) as usize];
        let m = outcomes::pair_map_from(&self.q, rows, cols).map_err(|e| to_py(&query::QueryError::from(e)))?;
        let cells: Vec<u8> = m.cells.iter().map(|&o| u8::from(o == Outcome::N)).collect();
        masked(py, cells, &shape, u8::MAX, false)
    }

    /// The octal code, e.g. "0.77".
    #[getter]
    fn code(&self) -> String {
        self.q.code().to_string()
    }

    /// The largest heap it answers for.
    #[getter]
    fn heaps(&self) -> u16 {
        self.q.heaps()
    }

    /// Its number of elements.
    #[getter]
    fn size(&self) -> usize {
        self.q.size()
    }

    /// Whether it is misère Nim's quotient (tame).
    #[getter]
    fn tame(&self) -> bool {
        self.q.is_tame()
    }

    /// The first heap whose quotient is not tame, or None.
    #[getter]
    fn first_wild_heap(&self) -> Option<u16> {
        self.q.first_wild_heap()
    }

    /// The quotient as `nimscope quotient --json` writes it: size, presentation (generators,
    /// relations), P-portion, each heap's element, the stages of its growth.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::json::to_python(py, &query::quotient_json(&self.q))
    }

    fn __repr__(&self) -> String {
        format!(
            "Quotient(octal({}), heaps={}, size={}, {})",
            self.q.code(),
            self.q.heaps(),
            self.q.size(),
            if self.q.is_tame() { "tame" } else { "wild" }
        )
    }
}

/// The misère quotient of an octal game for heaps up to `heaps` (at most 1000): code is
/// "0.77", "octal(0.77)" or "misere(octal(0.77))". Computed once (0.3–5 s for the games of
/// the literature); the object answers each collection in microseconds.
#[pyfunction]
#[pyo3(signature = (code, heaps, *, memory_budget=None, threads=None, progress=None))]
pub fn quotient(
    py: Python<'_>,
    code: &str,
    heaps: u64,
    memory_budget: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Quotient> {
    let text = if code.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        format!("octal({})", code.trim())
    } else {
        code.to_string()
    };
    let r = query::ruleset(&text).map_err(|e| to_py(&e))?;
    let heaps = u16::try_from(heaps).map_err(|_| {
        Kind::Unsupported.err(format!(
            "misère quotients are computed for heaps up to {}, not {heaps}",
            nimscope_core::solver::misere_quotient::MAX_HEAPS
        ))
    })?;
    let budget = memory_budget.map(budget_arg).transpose()?;
    let job = Job::new(py, budget, threads.map(threads_arg).transpose()?, progress)?;
    let q = job.run(py, |control| query::quotient(&r, heaps, control))?;
    Ok(Quotient { q: Arc::new(q) })
}
