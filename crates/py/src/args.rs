//! Python arguments as the command line's texts and ranges: a position is an int, a sequence
//! of ints or the text the command line takes (`"20:5"`, `"3,5+7"`, a board), and the core
//! reads it exactly as it reads the command line's, with the same messages; a range of rows is
//! an int `n` (0..n), a pair `(a, b)` or a `range(a, b)`.

use std::ops::Range;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyRange, PyString, PyTuple};

/// The text of a position given as an int, a sequence of ints, or a string.
pub fn position_text(pos: &Bound<'_, PyAny>) -> PyResult<String> {
    // the common cases first, by type (a failed conversion costs an exception): a call of a
    // few microseconds spends little on its argument
    if let Ok(s) = pos.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if pos.is_instance_of::<PyInt>()
        && let Ok(n) = pos.extract::<u64>()
    {
        return Ok(n.to_string());
    }
    if let Ok(t) = pos.cast::<PyTuple>()
        && let Some(text) = heaps_text(t.iter())
    {
        return Ok(text);
    }
    if let Ok(l) = pos.cast::<PyList>()
        && let Some(text) = heaps_text(l.iter())
    {
        return Ok(text);
    }
    // negative or huge ints, numpy ints: written out, for the core to refuse as the command
    // line does
    if let Some(text) = int_text(pos) {
        return Ok(text);
    }
    let items: Vec<String> = pos
        .try_iter()
        .map_err(|_| not_a_position(pos))?
        .map(|item| item.ok().and_then(|i| int_text(&i)).ok_or_else(|| not_a_position(pos)))
        .collect::<PyResult<_>>()?;
    Ok(join(items.into_iter()))
}

/// `3,5` from heaps that are all Python ints below 2^64, else `None`.
fn heaps_text<'py>(items: impl Iterator<Item = Bound<'py, PyAny>>) -> Option<String> {
    let mut text = String::new();
    for (i, item) in items.enumerate() {
        if !item.is_instance_of::<PyInt>() {
            return None;
        }
        let n: u64 = item.extract().ok()?;
        if i > 0 {
            text.push(',');
        }
        text.push_str(&n.to_string());
    }
    Some(text)
}

fn join(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join(",")
}

/// The decimal text of an int-like object (anything with `__index__`), if it is one.
fn int_text(x: &Bound<'_, PyAny>) -> Option<String> {
    if x.is_instance_of::<PyString>() {
        return None;
    }
    let index = x.py().import("operator").ok()?.call_method1("index", (x,)).ok()?;
    index.str().ok().map(|s| s.to_string())
}

fn not_a_position(pos: &Bound<'_, PyAny>) -> PyErr {
    let shown = pos.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!(
        "a position is an int, a sequence of ints or a text such as '3,5', not {}",
        nimscope_core::game::quote::shorten(&shown, 60)
    ))
}

/// A half-open range of heaps: `n` (0..n), `(a, b)` or `range(a, b)` (step 1).
pub fn range_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Range<u64>> {
    let bad = || {
        PyTypeError::new_err(format!(
            "{what} is an int n (0..n), a pair (a, b) or a range(a, b) of non-negative ints"
        ))
    };
    if let Ok(n) = value.extract::<u64>() {
        return Ok(0..n);
    }
    let (a, b) = if let Ok(r) = value.cast::<PyRange>() {
        let step: i64 = r.getattr("step")?.extract()?;
        if step != 1 {
            return Err(PyValueError::new_err(format!("{what}: a range of step 1, not {step}")));
        }
        (
            r.getattr("start")?.extract::<u64>().map_err(|_| bad())?,
            r.getattr("stop")?.extract::<u64>().map_err(|_| bad())?,
        )
    } else {
        value.extract::<(u64, u64)>().map_err(|_| bad())?
    };
    if a > b {
        return Err(PyValueError::new_err(format!(
            "{what}: the range {a}..{b} is backwards"
        )));
    }
    Ok(a..b)
}
