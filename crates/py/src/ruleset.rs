//! `nimscope.Ruleset`: a ruleset parsed once from any expression the command line takes (typed
//! rules included), with its values, outcomes, moves, sequence, map and figures. A ruleset keeps
//! what it computed for single positions between calls (the core's evaluator: maps,
//! sequences and search memos, within a share of the budget), so a loop of `value` calls costs
//! microseconds.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyType;

use nimscope_core::game::{Outcome, Ruleset as CoreRuleset};
use nimscope_core::query::{self, QueryError, maps::MapAnswer};
use nimscope_core::solver::sequence::{OutcomesOnly, UNKNOWN};
use nimscope_core::solver::{Control, Evaluator};

use crate::args::{position_text, range_arg};
use crate::arrays::masked;
use crate::job::{Job, budget_arg, threads_arg};
use crate::results::{Answer, Certificate, Move, Moves, Period};

/// The share of the budget a ruleset's caches keep between calls.
fn kept_between_calls(budget: u64) -> u64 {
    budget / 4
}

/// An impartial game's rules, from an expression such as "wythoff", "octal(0.07)",
/// "push(nim,euclid0)", "misere(octal(0.77))" or a typed rule "rule(n -> n - s for s in {1, 3, 4}
/// if s <= n)" (see `nimscope rules`).
///
/// memory_budget (bytes, or a size such as "512M"; default nimscope.memory_budget()) bounds
/// each computation, as the command line's --memory-budget does; threads (default: every core)
/// as its --threads.
#[pyclass(module = "nimscope", frozen)]
pub struct Ruleset {
    ruleset: Arc<CoreRuleset>,
    budget: Option<u64>,
    threads: Option<usize>,
    /// What single positions computed, kept for the next call (a call that finds it busy on
    /// another thread uses an evaluator of its own).
    evaluator: Arc<Mutex<Evaluator>>,
}

impl Ruleset {
    /// A ruleset read by the core, with a call's budget and threads.
    fn made(
        ruleset: Result<CoreRuleset, QueryError>,
        memory_budget: Option<&Bound<'_, PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Ruleset> {
        Ok(Ruleset {
            ruleset: Arc::new(ruleset.map_err(|e| crate::errors::to_py(&e))?),
            budget: memory_budget.map(budget_arg).transpose()?,
            threads: threads.map(threads_arg).transpose()?,
            evaluator: Arc::new(Mutex::new(Evaluator::new())),
        })
    }

    fn job(&self, py: Python<'_>, progress: Option<&Bound<'_, PyAny>>) -> PyResult<Job> {
        Job::new(py, self.budget, self.threads, progress)
    }

    /// Runs `f` with this ruleset's evaluator (or a fresh one when another thread holds it),
    /// then trims what it keeps.
    fn with_evaluator<T>(&self, control: &Control, f: impl FnOnce(&mut Evaluator) -> T) -> T {
        match self.evaluator.try_lock() {
            Ok(mut eval) => {
                let out = f(&mut eval);
                eval.trim(kept_between_calls(control.memory_budget()));
                out
            }
            Err(_) => f(&mut Evaluator::new()),
        }
    }

    /// The core's answer for a position, as `nimscope value` finds it.
    fn evaluate(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<nimscope_core::solver::evaluate::Answer> {
        let (r, text) = self.position(pos)?;
        let job = self.job(py, progress)?;
        job.run(py, |control| {
            let p = query::position(&r, &text)?;
            self.with_evaluator(control, |eval| eval.answer(&r, &p, control))
                .map_err(QueryError::from)
        })
    }

    fn position(&self, pos: &Bound<'_, PyAny>) -> PyResult<(Arc<CoreRuleset>, String)> {
        Ok((self.ruleset.clone(), position_text(pos)?))
    }

    pub fn core(&self) -> &CoreRuleset {
        &self.ruleset
    }
}

#[pymethods]
impl Ruleset {
    #[new]
    #[pyo3(signature = (expression, *, memory_budget=None, threads=None))]
    fn new(expression: &str, memory_budget: Option<&Bound<'_, PyAny>>, threads: Option<usize>) -> PyResult<Ruleset> {
        Ruleset::made(query::ruleset(expression), memory_budget, threads)
    }

    /// Reads the ruleset expression from a rule file (one expression; '#' starts a comment),
    /// as `--rule-file` does.
    #[classmethod]
    #[pyo3(signature = (path, *, memory_budget=None, threads=None))]
    fn from_file(
        _cls: &Bound<'_, PyType>,
        path: std::path::PathBuf,
        memory_budget: Option<&Bound<'_, PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Ruleset> {
        Ruleset::made(query::rule_file(&path), memory_budget, threads)
    }

    /// The expression in its canonical form (it parses back to the same ruleset).
    #[getter]
    fn expression(&self) -> String {
        self.ruleset.to_string()
    }

    fn __str__(&self) -> String {
        self.ruleset.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Ruleset({:?})", self.ruleset.short_text(200))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Ruleset>().is_ok_and(|o| *o.get().ruleset == *self.ruleset)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.ruleset.hash(&mut h);
        h.finish()
    }

    /// The Grundy value of a position (the misère Grundy value under misère play), or None
    /// when only its outcome is known (Wythoff off its P-positions far out, positions too
    /// large to search).
    ///
    /// pos is an int (one heap), a sequence of ints (heaps, e.g. (3, 5)) or the command
    /// line's text ("20:5", "3,5+7", "pushed(3,5)", a board). Same answer as `nimscope value`.
    #[pyo3(signature = (pos, *, progress=None))]
    fn value(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<u64>> {
        Ok(self.answer(py, pos, progress)?.grundy)
    }

    /// The outcome of a position: "P" (the previous player wins) or "N" (the next player wins).
    #[pyo3(signature = (pos, *, progress=None))]
    fn outcome(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<&'static str> {
        Ok(self.answer(py, pos, progress)?.outcome)
    }

    /// The value and outcome of a position with how they were found (method and theorem), as
    /// `nimscope value --json` gives them.
    #[pyo3(signature = (pos, *, progress=None))]
    fn answer(&self, py: Python<'_>, pos: &Bound<'_, PyAny>, progress: Option<&Bound<'_, PyAny>>) -> PyResult<Answer> {
        Ok(Answer::from(&self.evaluate(py, pos, progress)?))
    }

    /// Every move of a position with the value it leads to (winning moves lead to
    /// P-positions), as `nimscope moves` lists them: all of them when they fit the memory
    /// budget, else a page of 1000 (limit and offset choose another); `.total` says how many.
    #[pyo3(signature = (pos, *, offset=0, limit=None, progress=None))]
    fn moves(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        offset: u64,
        limit: Option<usize>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Moves> {
        let (r, text) = self.position(pos)?;
        let job = self.job(py, progress)?;
        let page = job.run(py, |control| {
            let p = query::position(&r, &text)?;
            let limit = limit.unwrap_or_else(|| query::default_page(&r, &p, control));
            self.with_evaluator(control, |eval| eval.options_page(&r, &p, offset.into(), limit, control))
                .map_err(QueryError::from)
        })?;
        let moves = page
            .options
            .iter()
            .map(|o| Move::of_answer(py, o))
            .collect::<PyResult<Vec<_>>>()?;
        Moves::new(py, moves, page.total, page.offset)
    }

    /// The values G(0..n) of a one-heap ruleset, with the certified period, as `nimscope seq
    /// --to n` computes them: a Sequence whose .values is a masked numpy array of uint32
    /// (masked where a heap is not a position, or where only its outcome is known) and whose
    /// .period is a Period(preperiod, period) or None (never a guess), and .certificate its
    /// evidence as `seq --certificate` writes it (None where no period is certified, or for a
    /// ruleset certificates are not written for).
    #[pyo3(signature = (n, *, progress=None))]
    fn seq(&self, py: Python<'_>, n: u64, progress: Option<&Bound<'_, PyAny>>) -> PyResult<Sequence> {
        let r = self.ruleset.clone();
        let job = self.job(py, progress)?;
        let (values, period, certificate, method, outcomes_only) = job.run(py, move |control| {
            query::maps::check_sequence(&r)?;
            // the array is held whole: it must fit the budget with what the computation holds
            control.reserve(format!("an array of {n} values of {r}"), n.saturating_mul(4))?;
            let limited = control.with_budget_at_most(control.memory_budget() - n.saturating_mul(4));
            let s = query::maps::sequence(&r, n, &limited)?;
            if s.infinite.is_some() {
                return Err(loops_refused(&r));
            }
            let period = s.periodicity.map(|p| (p.preperiod, p.period));
            let certificate = s.certificate(&r);
            let method = s.method.as_str();
            let outcomes_only = s.outcomes_only.clone();
            Ok((s.into_values(), period, certificate, method, outcomes_only))
        })?;
        let has_blank = values.contains(&UNKNOWN);
        let len = values.len();
        let array = masked(py, values, &[len], UNKNOWN, has_blank)?;
        Ok(Sequence {
            values: array.unbind(),
            period: period.map(|(preperiod, period)| Period { preperiod, period }),
            certificate: certificate.map(|c| Py::new(py, Certificate::from(c))).transpose()?,
            method,
            outcomes_only,
        })
    }

    /// The values of the rectangle rows × cols of a two-heap map (or of a slice such as
    /// "1,_,_" of a game on more heaps), as `nimscope grid` computes them: a masked 2-D numpy
    /// array, element [i, j] the value at (rows.start + i, cols.start + j), uint32 (uint64
    /// where a closed form's values pass 32 bits), masked where a cell is not a position.
    /// With outcome=True, a uint8 array: 0 at the P-positions, 1 elsewhere (Wythoff's anywhere
    /// in the plane). A misère octal game's map is its outcomes by the misère quotient (ask
    /// with outcome=True). rows and cols are an int n (0..n), a pair (a, b) or a range(a, b).
    #[pyo3(signature = (rows, cols, slice=None, outcome=false, *, progress=None))]
    fn grid<'py>(
        &self,
        py: Python<'py>,
        rows: &Bound<'py, PyAny>,
        cols: &Bound<'py, PyAny>,
        slice: Option<String>,
        outcome: bool,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (rows, cols) = (range_arg(rows, "rows")?, range_arg(cols, "cols")?);
        let shape = [(rows.end - rows.start) as usize, (cols.end - cols.start) as usize];
        let r = self.ruleset.clone();
        if query::is_misere_octal(&r) && slice.is_none() && !outcome {
            return Err(crate::errors::Kind::Unsupported.err(format!(
                "the misère Grundy values of {r}'s collections are not computed: its map is their outcomes by the misère quotient (ask with outcome=True)"
            )));
        }
        let job = self.job(py, progress)?;
        let cells = (shape[0] as u64).saturating_mul(shape[1] as u64);
        let each: u64 = if outcome { 1 } else { 4 };
        let answer = job.run(py, move |control| {
            control.reserve(
                format!("an array of {}×{} values of {r}", shape[0], shape[1]),
                cells.saturating_mul(each),
            )?;
            let limited = control.with_budget_at_most(control.memory_budget() - cells.saturating_mul(each));
            Ok(
                match query::maps::map(&r, rows, cols, slice.as_deref(), outcome, &limited)? {
                    MapAnswer::Values(g) if g.infinite_sets().is_some() => return Err(loops_refused(&r)),
                    MapAnswer::Values(g) if outcome => Cells::Outcomes(g.to_row_major(outcome_cell)),
                    MapAnswer::Values(g) if g.needs_64_bits() => Cells::Wide(g.to_row_major(|v| v.unwrap_or(u64::MAX))),
                    MapAnswer::Values(g) => Cells::Narrow(g.to_row_major(|v| v.map_or(u32::MAX, |v| v as u32))),
                    MapAnswer::MisereOutcomes(m) => {
                        Cells::Outcomes(m.cells.iter().map(|&o| u8::from(o == Outcome::N)).collect())
                    }
                },
            )
        })?;
        match answer {
            Cells::Outcomes(v) => {
                let blank = v.contains(&u8::MAX);
                masked(py, v, &shape, u8::MAX, blank)
            }
            Cells::Narrow(v) => {
                let blank = v.contains(&u32::MAX);
                masked(py, v, &shape, u32::MAX, blank)
            }
            Cells::Wide(v) => {
                let blank = v.contains(&u64::MAX);
                masked(py, v, &shape, u64::MAX, blank)
            }
        }
    }

    /// A figure of this ruleset as `nimscope export` draws it from a session: the map of rows
    /// × cols (default 0..64 each), or for a one-heap ruleset the sequence G(0..n) (default
    /// 600), with its axes, legend, title and provenance. color is "outcome", "grundy",
    /// "grundy-log", "modulo(k)" or a session's colour mode ("Grundy(Cividis)"). The figure's
    /// .session is the session file that `nimscope export` turns into the same figure.
    #[pyo3(signature = (rows=None, cols=None, *, n=None, slice=None, color=None, width=None, scale=None, axes=true, legend=true, title=None, transparent=false, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn figure(
        &self,
        py: Python<'_>,
        rows: Option<&Bound<'_, PyAny>>,
        cols: Option<&Bound<'_, PyAny>>,
        n: Option<u64>,
        slice: Option<String>,
        color: Option<&str>,
        width: Option<u32>,
        scale: Option<f64>,
        axes: bool,
        legend: bool,
        title: Option<String>,
        transparent: bool,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::session::Figure> {
        let mut s = crate::session::shown(&self.ruleset.to_string(), rows, cols, n, slice, color)?;
        crate::session::apply_style(&mut s.figure, width, axes, legend, title, transparent);
        let session = crate::session::Session::checked(s)?;
        session.draw(py, scale, self.budget, self.threads, progress)
    }
}

/// A map's cells as the array they become.
enum Cells {
    Outcomes(Vec<u8>),
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

/// A cell of an outcome map: 0 at a P-position, 1 elsewhere, `u8::MAX` where not a position.
/// The refusal of an array of a game that loops: its values ∞(A) are no numbers (the command
/// line's `seq` and `grid` print them).
fn loops_refused(r: &nimscope_core::game::Ruleset) -> query::QueryError {
    query::QueryError::Unanswerable(format!(
        "{r} is a game that loops: its values by Smith's theory (∞(A)) are not arrays; use value() on single positions, or nimscope seq/grid"
    ))
}

fn outcome_cell(v: Option<u64>) -> u8 {
    v.map_or(u8::MAX, |v| u8::from(v != 0))
}

/// G(0..n) of a one-heap ruleset: `.values` (a masked numpy array), `.period`, `.method`.
#[pyclass(module = "nimscope", frozen)]
pub struct Sequence {
    values: Py<PyAny>,
    /// The certified period, or None when none is certified within the values computed.
    #[pyo3(get)]
    period: Option<Period>,
    /// The evidence of the certified period, as `nimscope seq --certificate FILE` writes it
    /// (docs/certificates.md), or None.
    #[pyo3(get)]
    certificate: Option<Py<Certificate>>,
    /// How the values were found ("closed form", "mex fill", "rare/common", "search", ...).
    #[pyo3(get)]
    method: &'static str,
    outcomes_only: Option<OutcomesOnly>,
}

#[pymethods]
impl Sequence {
    /// The values G(0..n): a masked numpy array of uint32 (the array itself, not a copy).
    #[getter]
    fn values(&self, py: Python<'_>) -> Py<PyAny> {
        self.values.clone_ref(py)
    }

    /// The outcome of each heap as a masked uint8 array: 0 for a P-position, 1 for an
    /// N-position (also where only the outcome is known, by the misère quotient), masked where
    /// a heap is not a position.
    #[getter]
    fn outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let values = self.values.bind(py);
        let data = values.getattr("data")?;
        let v: numpy::PyReadonlyArray1<'_, u32> = data.extract()?;
        let v = v.as_slice()?;
        let mut out: Vec<u8> = v
            .iter()
            .map(|&x| if x == UNKNOWN { u8::MAX } else { u8::from(x != 0) })
            .collect();
        if let Some(o) = &self.outcomes_only {
            for (i, cell) in out.iter_mut().enumerate() {
                if let Some(outcome) = o.get(i as u64) {
                    *cell = u8::from(outcome == Outcome::N);
                }
            }
        }
        let blank = out.contains(&u8::MAX);
        let len = out.len();
        masked(py, out, &[len], u8::MAX, blank)
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.values.bind(py).len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        self.values.bind(py).get_item(index)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.values.bind(py).try_iter()?.into_any())
    }

    /// The values as a plain numpy array (`numpy.asarray(seq)`); masked heaps hold 2^32 − 1.
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let data = self.values.bind(py).getattr("data")?;
        let data = match dtype {
            Some(d) if !d.is_none() => data.call_method1("astype", (d,))?,
            _ => data,
        };
        if copy == Some(true) {
            return data.call_method0("copy");
        }
        Ok(data)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let n = self.values.bind(py).len()?;
        let period = self.period.as_ref().map_or("None".to_string(), |p| {
            format!("Period(preperiod={}, period={})", p.preperiod, p.period)
        });
        Ok(format!("Sequence(n={n}, period={period}, method='{}')", self.method))
    }
}
