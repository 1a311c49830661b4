//! What the calls return besides arrays: a position's [`Answer`], its [`Move`]s (a [`Moves`]
//! page), a sequence's certified [`Period`] and its [`Certificate`]; each with the command
//! line's JSON keys in `as_dict()`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use nimscope_core::game::Position;
use nimscope_core::solver::OptionValue;
use nimscope_core::solver::evaluate::{Answer as CoreAnswer, OptionAnswer};
use nimscope_core::solver::sequence::Certificate as CoreCertificate;

/// The value of a position as exactly as it is known, and how it was found.
#[pyclass(module = "nimscope", frozen, get_all)]
pub struct Answer {
    /// The Grundy value (the misère Grundy value under misère play), or None when only the
    /// outcome is known.
    pub grundy: Option<u64>,
    /// "P" (the previous player wins), "N" (the next player wins) or "D" (a draw, in a game
    /// that loops: its value ∞(A) has no Grundy number, so `grundy` is None).
    pub outcome: &'static str,
    /// "closed form", "search" or "misère quotient".
    pub method: &'static str,
    /// The theorem or computation, e.g. "Bouton's theorem (the nim-sum of the heaps)".
    pub by: String,
}

impl From<&CoreAnswer> for Answer {
    fn from(a: &CoreAnswer) -> Self {
        Answer {
            grundy: a.grundy,
            outcome: a.outcome.as_str(),
            method: a.method.as_str(),
            by: a.by.clone(),
        }
    }
}

#[pymethods]
impl Answer {
    /// The answer as `nimscope value --json` writes it (without the ruleset and position).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("grundy", self.grundy)?;
        d.set_item("outcome", self.outcome)?;
        d.set_item("method", self.method)?;
        d.set_item("by", &self.by)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let g = self.grundy.map_or("None".to_string(), |g| g.to_string());
        format!(
            "Answer(grundy={g}, outcome='{}', method='{}', by={:?})",
            self.outcome, self.method, self.by
        )
    }
}

/// One move of a position: the position it leads to, its value, whether it wins, and the term
/// of the rule (or the description of the move) that made it.
#[pyclass(module = "nimscope", frozen, get_all)]
pub struct Move {
    /// The move, as the command line describes it (for a typed rule, the term and its
    /// bindings, e.g. "term 3: (a - k, b - k), k = 2").
    pub term: String,
    /// The position the move leads to, as text ("2,5", "pushed(3,5)", a board).
    pub position: String,
    /// That position's heaps as a tuple of ints, or None when it is not a list of heaps.
    pub heaps: Option<Py<PyTuple>>,
    /// Its Grundy value, or None when only its outcome is known.
    pub value: Option<u64>,
    /// Its outcome, "P" or "N".
    pub outcome: &'static str,
    /// Whether the move wins (it leads to a P-position).
    pub winning: bool,
}

impl Move {
    fn heaps(py: Python<'_>, p: &Position) -> PyResult<Option<Py<PyTuple>>> {
        match p {
            Position::Heaps(h) => Ok(Some(PyTuple::new(py, h)?.unbind())),
            _ => Ok(None),
        }
    }

    pub fn of_answer(py: Python<'_>, o: &OptionAnswer) -> PyResult<Move> {
        Ok(Move {
            term: o.description.clone(),
            position: o.to.clone(),
            heaps: Move::heaps(py, &o.position)?,
            value: o.answer.grundy,
            outcome: o.answer.outcome.as_str(),
            winning: o.winning(),
        })
    }

    pub fn of_value(py: Python<'_>, o: &OptionValue) -> PyResult<Move> {
        Ok(Move {
            term: o.description.clone(),
            position: o.to.clone(),
            heaps: Move::heaps(py, &o.position)?,
            value: Some(u64::from(o.grundy)),
            outcome: o.outcome.as_str(),
            winning: o.winning,
        })
    }
}

#[pymethods]
impl Move {
    /// The move as `nimscope moves --json` writes it: move, to, grundy, outcome, winning.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("move", &self.term)?;
        d.set_item("to", &self.position)?;
        d.set_item("grundy", self.value)?;
        d.set_item("outcome", self.outcome)?;
        d.set_item("winning", self.winning)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let v = self.value.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Move({:?} -> {}, value={v}, outcome='{}'{})",
            self.term,
            self.position,
            self.outcome,
            if self.winning { ", winning" } else { "" }
        )
    }
}

/// The moves of a position, or a page of them: a sequence of [`Move`]s with the total.
#[pyclass(module = "nimscope", frozen, sequence)]
pub struct Moves {
    items: Py<PyList>,
    /// How many moves the position has (the page may hold fewer).
    #[pyo3(get)]
    total: u128,
    /// The number of the page's first move (from 0).
    #[pyo3(get)]
    offset: u128,
}

impl Moves {
    pub fn new(py: Python<'_>, moves: Vec<Move>, total: u128, offset: u128) -> PyResult<Moves> {
        let items = PyList::empty(py);
        for m in moves {
            items.append(Py::new(py, m)?)?;
        }
        Ok(Moves {
            items: items.unbind(),
            total,
            offset,
        })
    }
}

#[pymethods]
impl Moves {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.items.bind(py).len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        self.items.bind(py).as_any().get_item(index)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.items.bind(py).as_any().try_iter()?.into_any())
    }

    /// Whether the page holds every move of the position.
    #[getter]
    fn complete(&self, py: Python<'_>) -> bool {
        self.offset == 0 && self.items.bind(py).len() as u128 == self.total
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let list = self.items.bind(py).repr()?.to_string();
        Ok(if self.complete(py) {
            format!("Moves({list})")
        } else {
            format!("Moves({list}, offset={}, total={})", self.offset, self.total)
        })
    }
}

/// A certified period: G(n + period) = G(n) for every n ≥ preperiod.
#[pyclass(module = "nimscope", frozen, eq, get_all)]
#[derive(Clone, PartialEq, Eq)]
pub struct Period {
    pub preperiod: u64,
    pub period: u64,
}

#[pymethods]
impl Period {
    fn __repr__(&self) -> String {
        format!("Period(preperiod={}, period={})", self.preperiod, self.period)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, [self.preperiod, self.period])?
            .as_any()
            .try_iter()?
            .into_any())
    }
}

/// The evidence of a certified period, the one `nimscope seq RULESET --to N --certificate FILE`
/// writes (docs/certificates.md): the pre-period and period, the values checked, the length the
/// periodicity theorem needs, the largest reach of an option below its heap, and the SHA-256 of
/// the values file of G(0..checked); `to_json()` gives the file's bytes, which
/// `scripts/verify_period.py` checks from the rule alone.
#[pyclass(module = "nimscope", frozen)]
pub struct Certificate(CoreCertificate);

impl From<CoreCertificate> for Certificate {
    fn from(c: CoreCertificate) -> Self {
        Certificate(c)
    }
}

/// The fields, read from the core's certificate (`format` and `version` are in `as_dict()`).
#[pymethods]
impl Certificate {
    /// The ruleset, as nimscope names it.
    #[getter]
    fn ruleset(&self) -> &str {
        &self.0.ruleset
    }

    /// "take-and-break" (with `code`) or "subtraction" (with `set`).
    #[getter]
    fn kind(&self) -> &str {
        &self.0.kind
    }

    /// The take-and-break code, or None.
    #[getter]
    fn code(&self) -> Option<&str> {
        self.0.code.as_deref()
    }

    /// The subtraction set, or None.
    #[getter]
    fn set(&self) -> Option<Vec<u64>> {
        self.0.set.clone()
    }

    /// G(n + period) = G(n) for every n ≥ preperiod.
    #[getter]
    fn preperiod(&self) -> u64 {
        self.0.preperiod
    }

    /// The period.
    #[getter]
    fn period(&self) -> u64 {
        self.0.period
    }

    /// G(0..checked) were computed and the period holds on them from the pre-period on.
    #[getter]
    fn checked(&self) -> u64 {
        self.0.checked
    }

    /// The length the theorem needs (checked ≥ needed).
    #[getter]
    fn needed(&self) -> u64 {
        self.0.needed
    }

    /// The most tokens a move takes: how far below a heap its options reach.
    #[getter]
    fn max_take(&self) -> u64 {
        self.0.max_take
    }

    /// The most heaps a move leaves.
    #[getter]
    fn parts(&self) -> u64 {
        self.0.parts
    }

    /// Whether some split must leave unequal heaps.
    #[getter]
    fn unequal(&self) -> bool {
        self.0.unequal
    }

    /// The argument, in words.
    #[getter]
    fn theorem(&self) -> &str {
        &self.0.theorem
    }

    /// SHA-256 of the values file of G(0..checked).
    #[getter]
    fn values_sha256(&self) -> &str {
        &self.0.values_sha256
    }

    /// The certificate as `nimscope seq --certificate FILE` writes it (the same bytes).
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The certificate's JSON keys and values as a dict.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value =
            serde_json::to_value(&self.0).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        crate::json::to_python(py, &value)
    }

    fn __repr__(&self) -> String {
        let c = &self.0;
        format!(
            "Certificate(ruleset={:?}, preperiod={}, period={}, checked={}, max_take={}, values_sha256={:?})",
            c.ruleset, c.preperiod, c.period, c.checked, c.max_take, c.values_sha256
        )
    }
}
