//! `slidedb._slidedb`: the Python extension of slidedb (PyO3). The
//! Python package `slidedb` re-exports what is here; its documentation
//! (docstrings, type stubs) is the package's.
//!
//! Every call that does real work (opening and checking files, building
//! tables, solving, batches, counts, random boards, layers) runs with the
//! GIL released; batches run on every core (rayon).

mod answers;
mod convert;
mod database;
mod errors;
mod functions;
mod table;

use pyo3::prelude::*;

use slidedb::{MAX_IN_MEMORY_CELLS, MAX_TABLE_CELLS};

use answers::{PyLayer, PyMoveOutcome, PyProbe, PySolution};
use database::{PyDatabase, PyLayerIter};
use errors::TableError;
use table::PyTable;

#[pymodule]
fn _slidedb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TableError", py.get_type::<TableError>())?;
    m.add_class::<PyDatabase>()?;
    m.add_class::<PyTable>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyProbe>()?;
    m.add_class::<PyMoveOutcome>()?;
    m.add_class::<PyLayer>()?;
    m.add_class::<PyLayerIter>()?;
    m.add_function(wrap_pyfunction!(functions::generate, m)?)?;
    m.add_function(wrap_pyfunction!(functions::as_list, m)?)?;
    m.add_function(wrap_pyfunction!(functions::as_grid, m)?)?;
    m.add_function(wrap_pyfunction!(functions::format_board, m)?)?;
    m.add("MAX_TABLE_CELLS", MAX_TABLE_CELLS)?;
    m.add("MAX_IN_MEMORY_CELLS", MAX_IN_MEMORY_CELLS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
