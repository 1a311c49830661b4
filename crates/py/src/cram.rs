//! `nimscope.cram(board)` and `nimscope.push_cram(board)`: a board's value, outcome, summary and
//! moves, as `nimscope cram BOARD [--push] [--moves] [--outcome]` finds them.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use nimscope_core::game::Outcome;
use nimscope_core::query;

use crate::job::{Job, budget_arg, threads_arg};
use crate::results::Move;

/// What a Cram or Push Cram search found about a board.
#[pyclass(module = "nimscope", frozen)]
pub struct CramResult {
    /// The board as text (rows of '.' and '#' joined by '/').
    #[pyo3(get)]
    board: String,
    /// "cram" or "push-cram".
    #[pyo3(get)]
    ruleset: String,
    /// The same ruleset, parsed once: what the figure draws.
    rules: nimscope_core::game::Ruleset,
    /// The Grundy value, or None when only the outcome was asked for.
    #[pyo3(get)]
    value: Option<u32>,
    /// "P" or "N".
    #[pyo3(get)]
    outcome: &'static str,
    /// The number of moves (placements, and the push), or None when only the outcome was asked.
    #[pyo3(get)]
    moves: Option<usize>,
    /// Whether every move wins (an N-position all of whose options are P-positions).
    #[pyo3(get)]
    bluff: Option<bool>,
    /// Push Cram before the push: the value after pushing.
    #[pyo3(get)]
    after_push: Option<u32>,
    /// Every move with its value (moves=True), or None.
    #[pyo3(get)]
    options: Option<Vec<Py<Move>>>,
    /// Whether the moves were settled by the mirror strategy (a large board symmetric under the
    /// half turn: every option an N-position, its value not searched).
    #[pyo3(get)]
    mirrored: bool,
    push: bool,
}

#[pymethods]
impl CramResult {
    /// The result as `nimscope cram --json` writes its first line.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("ruleset", &self.ruleset)?;
        d.set_item("board", &self.board)?;
        if let Some(v) = self.value {
            d.set_item("grundy", v)?;
        }
        d.set_item("outcome", self.outcome)?;
        if let Some(b) = self.bluff {
            d.set_item("bluff", b)?;
        }
        if let Some(m) = self.moves {
            d.set_item("moves", m)?;
        }
        if self.push && self.value.is_some() {
            d.set_item("after_push", self.after_push)?;
        }
        Ok(d)
    }

    /// The board's figure (its placements coloured by value), as `nimscope export` draws a
    /// session of this board.
    #[pyo3(signature = (*, width=None, title=None, transparent=false, progress=None))]
    fn figure(
        &self,
        py: Python<'_>,
        width: Option<u32>,
        title: Option<String>,
        transparent: bool,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::session::Figure> {
        let mut s = nimscope_core::session::Session {
            ruleset: self.rules.clone(),
            tab: nimscope_core::session::CentralTab::CramBoard,
            board: Some(query::cram::document(&self.board, self.push).map_err(|e| crate::errors::to_py(&e))?),
            ..Default::default()
        };
        crate::session::apply_style(&mut s.figure, width, true, true, title, transparent);
        crate::session::Session::checked(s)?.draw(py, None, None, None, progress)
    }

    fn __repr__(&self) -> String {
        let what = match self.value {
            Some(v) => format!("value={v}, outcome='{}'", self.outcome),
            None => format!("outcome='{}'", self.outcome),
        };
        format!("CramResult({} {:?}: {what})", self.ruleset, self.board)
    }
}

/// Cram on a board: its value, outcome, number of moves and whether it is a bluff; with
/// moves=True every move and its value; with outcome_only=True the outcome alone (often far
/// sooner). board is rows of '.' (empty) and '#' (blocked) joined by '/', or a size such as
/// "5x7". push=True plays Push Cram (vertical dominoes before the push, horizontal after).
#[pyfunction]
#[pyo3(signature = (board, *, push=false, moves=false, outcome_only=false, memory_budget=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn cram(
    py: Python<'_>,
    board: &str,
    push: bool,
    moves: bool,
    outcome_only: bool,
    memory_budget: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<CramResult> {
    if moves && outcome_only {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "moves=True asks every move's value; outcome_only=True asks the outcome alone: ask one",
        ));
    }
    let budget = memory_budget.map(budget_arg).transpose()?;
    let threads = threads.map(threads_arg).transpose()?;
    let job = Job::new(py, budget, threads, progress)?;
    let text = board.to_string();
    let answer = job.run(py, move |control| {
        let (r, p) = query::cram::board(&text, push)?;
        let mut eval = query::cram::record_hunt_evaluator(control);
        let board = p.to_string();
        if outcome_only {
            let o = query::cram::outcome(&mut eval, &text, &p, push, control)?;
            return Ok((r, board, Err(o)));
        }
        let solved = query::cram::solve(&mut eval, &r, &p, moves, control)?;
        Ok((r, board, Ok(solved)))
    })?;
    let (r, board, found) = answer;
    let ruleset = r.to_string();
    Ok(match found {
        Err(o) => CramResult {
            board,
            ruleset,
            rules: r,
            value: None,
            outcome: o.as_str(),
            moves: None,
            bluff: None,
            after_push: None,
            options: None,
            mirrored: false,
            push,
        },
        Ok(a) => {
            let mut options = None;
            if let Some(opts) = &a.options {
                options = Some(
                    opts.iter()
                        .map(|o| Py::new(py, Move::of_value(py, o)?))
                        .collect::<PyResult<_>>()?,
                );
            }
            if let Some(page) = &a.mirrored {
                options = Some(
                    page.options
                        .iter()
                        .map(|o| Py::new(py, Move::of_answer(py, o)?))
                        .collect::<PyResult<_>>()?,
                );
            }
            CramResult {
                board,
                ruleset,
                rules: r,
                value: Some(a.value),
                outcome: Outcome::of(a.value).as_str(),
                moves: Some(a.summary.moves),
                bluff: Some(a.summary.bluff),
                after_push: a.summary.after_push,
                options,
                mirrored: a.mirrored.is_some(),
                push,
            }
        }
    })
}

/// Push Cram on a board: `cram(board, push=True, ...)`.
#[pyfunction]
#[pyo3(signature = (board, *, moves=false, outcome_only=false, memory_budget=None, threads=None, progress=None))]
pub fn push_cram(
    py: Python<'_>,
    board: &str,
    moves: bool,
    outcome_only: bool,
    memory_budget: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<CramResult> {
    cram(py, board, true, moves, outcome_only, memory_budget, threads, progress)
}
