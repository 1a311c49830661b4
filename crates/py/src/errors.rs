//! The core's refusals as Python exceptions: each [`QueryError`] becomes the class of
//! `nimscope._errors` that names what was wrong (all under `nimscope.Error`), with the
//! command line's one-line message (the text after its `error: `).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use nimscope_core::figure::FigureError;
use nimscope_core::game::quote::one_line;
use nimscope_core::query::QueryError;
use nimscope_core::solver::SolveError;

/// The exception classes, defined in Python (`nimscope/_errors.py`) so they can also derive
/// from `ValueError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Error,
    Ruleset,
    Position,
    Budget,
    Unsupported,
    Rule,
    Session,
    Figure,
}

impl Kind {
    fn class<'py>(self, py: Python<'py>) -> PyResult<&'py Bound<'py, PyType>> {
        static ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static RULESET: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static POSITION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static BUDGET: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static UNSUPPORTED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static RULE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static SESSION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        static FIGURE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
        let (cell, name) = match self {
            Kind::Error => (&ERROR, "Error"),
            Kind::Ruleset => (&RULESET, "RulesetError"),
            Kind::Position => (&POSITION, "PositionError"),
            Kind::Budget => (&BUDGET, "BudgetError"),
            Kind::Unsupported => (&UNSUPPORTED, "UnsupportedError"),
            Kind::Rule => (&RULE, "RuleError"),
            Kind::Session => (&SESSION, "SessionError"),
            Kind::Figure => (&FIGURE, "FigureError"),
        };
        cell.import(py, "nimscope._errors", name)
    }

    /// An exception of this class with `message` made one line, as the command line prints it.
    pub fn err(self, message: impl AsRef<str>) -> PyErr {
        let message = one_line(message.as_ref());
        Python::attach(|py| match self.class(py) {
            Ok(class) => PyErr::from_type(class.clone(), message),
            Err(e) => e,
        })
    }
}

/// The class of a solver's refusal.
fn solve_kind(e: &SolveError) -> Kind {
    match e {
        SolveError::OverBudget { .. } => Kind::Budget,
        SolveError::Unsupported(_) | SolveError::PastQuotient { .. } => Kind::Unsupported,
        SolveError::Rule(_) | SolveError::Loops(_) => Kind::Rule,
        SolveError::Cancelled => Kind::Error,
    }
}

/// The Python exception of a refusal.
pub fn to_py(e: &QueryError) -> PyErr {
    let kind = match e {
        QueryError::Ruleset(_) | QueryError::RuleFile(_) => Kind::Ruleset,
        QueryError::Position { .. } | QueryError::Board { .. } => Kind::Position,
        QueryError::Unanswerable(_) => Kind::Unsupported,
        QueryError::Solve(s) | QueryError::Figure(FigureError::Solve(s)) => solve_kind(s),
        QueryError::Figure(_) => Kind::Figure,
        QueryError::Session(_) => Kind::Session,
    };
    kind.err(e.to_string())
}
