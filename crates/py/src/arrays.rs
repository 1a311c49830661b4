//! Vectors the core computed, handed to numpy without a copy (numpy keeps the Rust vector as
//! its buffer), reshaped to their grid and wrapped as masked arrays: the cells that are not
//! positions (or whose value is not known) are masked.

use numpy::{Element, IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// `numpy.ma`, imported once.
fn numpy_ma(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static MA: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    MA.get_or_try_init(py, || Ok::<_, PyErr>(py.import("numpy.ma")?.into_any().unbind()))
        .map(|m| m.bind(py))
}

/// `values` as a masked array of `shape` (one or two dimensions), masked where a value is
/// `blank` (when `has_blank`: the check costs a pass over the values, so the caller says).
pub fn masked<'py, T: Element + Copy + IntoPyObjectForMask>(
    py: Python<'py>,
    values: Vec<T>,
    shape: &[usize],
    blank: T,
    has_blank: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let flat = values.into_pyarray(py);
    let data = match shape {
        [n] => flat.reshape([*n])?.into_any(),
        [r, c] => flat.reshape([*r, *c])?.into_any(),
        _ => flat.into_any(),
    };
    let ma = numpy_ma(py)?;
    if has_blank {
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("copy", false)?;
        ma.call_method("masked_equal", (data, blank.to_mask_object(py)?), Some(&kwargs))
    } else {
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("copy", false)?;
        ma.call_method("MaskedArray", (data,), Some(&kwargs))
    }
}

/// The blank marker as a Python int, for `numpy.ma.masked_equal`.
pub trait IntoPyObjectForMask {
    fn to_mask_object<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
}

macro_rules! mask_object {
    ($($t:ty),*) => {$(
        impl IntoPyObjectForMask for $t {
            fn to_mask_object<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                Ok(self.into_pyobject(py)?.into_any())
            }
        }
    )*};
}
mask_object!(u8, u32, u64);
