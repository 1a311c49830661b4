//! The nimscope Python package's native half (`nimscope._nimscope`), built by maturin with
//! PyO3: the core library called in process, no subprocess and no text parsing. Rulesets with
//! their values, moves, sequences and maps ([`ruleset`]), Cram ([`cram`]), misère quotients
//! ([`quotient`]), the papers' checks, sessions and figures ([`session`]); numpy arrays handed
//! over without a copy ([`arrays`]); every call run with the GIL released, Ctrl+C and progress
//! as [`job`] says; refusals as the exceptions of [`errors`]. The Python half
//! (`python/nimscope/`) re-exports these with the exceptions, the progress bar and the type
//! stubs.

mod args;
mod arrays;
mod cram;
mod errors;
mod job;
mod json;
mod quotient;
mod results;
mod ruleset;
mod session;

use pyo3::prelude::*;

use nimscope_core::query;

/// The papers' statements checked against computation, one dict a row as `nimscope check
/// --json` writes them: the statement, its source, the range checked, and PASS, FAIL (with a
/// counterexample) or EMPTY. upto bounds the ranges (0 to 100000; rows about the papers' own
/// examples are checked at any bound). A pandas DataFrame takes the rows directly.
#[pyfunction]
#[pyo3(signature = (upto=200, *, memory_budget=None, threads=None, progress=None))]
fn check<'py>(
    py: Python<'py>,
    upto: u64,
    memory_budget: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let budget = memory_budget.map(job::budget_arg).transpose()?;
    let job = job::Job::new(py, budget, threads.map(job::threads_arg).transpose()?, progress)?;
    let rows = job.run(py, |control| {
        query::check_bound(upto)?;
        let rows = nimscope_core::checks::all_checks(upto, control)?;
        rows.iter()
            .map(|r| serde_json::to_value(r).map_err(|e| query::QueryError::Unanswerable(e.to_string())))
            .collect::<Result<Vec<_>, _>>()
    })?;
    json::to_python(py, &serde_json::Value::Array(rows))
}

/// The rules of the literature written in the move language, as `nimscope rules --examples
/// --json` lists them: dicts with name, about, text (the expression, for `Ruleset(text)`) and
/// equals (the built-in ruleset it equals, or None).
#[pyfunction]
fn rule_examples(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let rows: Vec<serde_json::Value> = query::rule_examples();
    json::to_python(py, &serde_json::Value::Array(rows))
}

/// The move language of typed rules (`rule(...)`): its syntax, as `nimscope rules` prints it.
#[pyfunction]
fn rules_reference() -> &'static str {
    nimscope_core::game::rules::typed::REFERENCE
}

/// Sets the memory budget of every call that gives none: bytes, or a size such as "512M" or
/// "4G" (the command line's default, 4G, until set).
#[pyfunction]
fn set_memory_budget(budget: &Bound<'_, PyAny>) -> PyResult<()> {
    job::set_default_budget(job::budget_arg(budget)?);
    Ok(())
}

/// The memory budget of calls that give none, in bytes.
#[pyfunction]
fn memory_budget() -> u64 {
    job::default_budget()
}

/// Sets the threads of every call that gives none (None: every core); values never depend
/// on it.
#[pyfunction]
#[pyo3(signature = (threads))]
fn set_threads(threads: Option<usize>) -> PyResult<()> {
    job::set_default_threads(threads.map(job::threads_arg).transpose()?);
    Ok(())
}

#[pymodule]
fn _nimscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", nimscope_core::VERSION)?;
    m.add("VERSION", nimscope_core::GIT_COMMIT_VERSION)?;
    m.add("CATALOG", nimscope_core::game::families::syntaxes().collect::<Vec<_>>())?;
    m.add_class::<ruleset::Ruleset>()?;
    m.add_class::<ruleset::Sequence>()?;
    m.add_class::<results::Answer>()?;
    m.add_class::<results::Move>()?;
    m.add_class::<results::Moves>()?;
    m.add_class::<results::Period>()?;
    m.add_class::<results::Certificate>()?;
    m.add_class::<cram::CramResult>()?;
    m.add_class::<quotient::Quotient>()?;
    m.add_class::<session::Session>()?;
    m.add_class::<session::Figure>()?;
    m.add_function(wrap_pyfunction!(cram::cram, m)?)?;
    m.add_function(wrap_pyfunction!(cram::push_cram, m)?)?;
    m.add_function(wrap_pyfunction!(quotient::quotient, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(rule_examples, m)?)?;
    m.add_function(wrap_pyfunction!(rules_reference, m)?)?;
    m.add_function(wrap_pyfunction!(set_memory_budget, m)?)?;
    m.add_function(wrap_pyfunction!(memory_budget, m)?)?;
    m.add_function(wrap_pyfunction!(set_threads, m)?)?;
    Ok(())
}
