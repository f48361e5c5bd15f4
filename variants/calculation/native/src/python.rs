//! The Python module `solitaire.variants.calculation._search`: `exact` and `beam`, search.py's
//! exhaustive search and beam search, with the GIL released while they search.

use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::{beam, search, BadPosition, Budget, Outcome, Step, RELAX_BUDGET, RELAX_MEMO, RELAX_WORK};

/// A step as search.py writes it: ("h", reserve, foundation), ("d", foundation, -1) or
/// ("d", -1, reserve).
type PyStep = (&'static str, i64, i64);

fn to_py(s: Step) -> PyStep {
    match s {
        Step::Home { reserve, foundation } => ("h", reserve as i64, foundation as i64),
        Step::DrawHome { foundation } => ("d", foundation as i64, -1),
        Step::DrawPark { reserve } => ("d", -1, reserve as i64),
    }
}

/// Search a Calculation position: the foundations' lengths, the four reserves' ranks
/// (bottom to top) and the ranks to draw, in order. Returns ("win", steps, states),
/// ("unwinnable", [], states) (a proof) or ("unknown", [], states) once more than
/// `max_states` positions are stored, `seconds` have passed or its work passes `max_work`
/// (the positions it and its relaxation checks reach; None: no such bound).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the Python function's keyword arguments
#[pyo3(signature = (lengths, reserves, cards, max_states, seconds=None, relax_budget=RELAX_BUDGET, max_work=None))]
fn exact(py: Python<'_>, lengths: Vec<usize>, reserves: Vec<Vec<u8>>, cards: Vec<u8>, max_states: usize,
         seconds: Option<f64>, relax_budget: u32, max_work: Option<usize>) -> PyResult<(&'static str, Vec<PyStep>, usize)> {
    let deadline = deadline(seconds)?;
    let budget = Budget { max_states, deadline, relax_budget, max_work };
    let found = py.detach(move || search(&lengths, &reserves, &cards, budget));
    match found {
        Err(bad) => Err(PyValueError::new_err(bad.0)),
        Ok((Outcome::Win(steps), states)) => Ok(("win", steps.into_iter().map(to_py).collect(), states)),
        Ok((Outcome::Lost, states)) => Ok(("unwinnable", Vec::new(), states)),
        Ok((Outcome::Unknown, states)) => Ok(("unknown", Vec::new(), states)),
    }
}

/// The beam search for wins from a position (as `exact` takes it): (steps or None, whether
/// any level was cut, positions stored); `kind` picks the estimate (search.py's `KINDS`).
#[pyfunction(name = "beam")]
#[pyo3(signature = (lengths, reserves, cards, width, seconds=None, kind=0))]
fn beam_py(py: Python<'_>, lengths: Vec<usize>, reserves: Vec<Vec<u8>>, cards: Vec<u8>, width: usize,
           seconds: Option<f64>, kind: usize) -> PyResult<(Option<Vec<PyStep>>, bool, usize)> {
    let deadline = deadline(seconds)?;
    let found = py.detach(move || beam(&lengths, &reserves, &cards, width, deadline, kind));
    let found = found.map_err(|BadPosition(why)| PyValueError::new_err(why))?;
    Ok((found.path.map(|p| p.into_iter().map(to_py).collect()), found.cut, found.states))
}

fn deadline(seconds: Option<f64>) -> PyResult<Option<Instant>> {
    match seconds {
        Some(s) if s.is_nan() || s < 0.0 => Err(PyValueError::new_err("seconds must be 0 or more")),
        Some(s) if s.is_finite() => Ok(Some(Instant::now() + Duration::from_secs_f64(s.min(1e9)))),
        _ => Ok(None),
    }
}

#[pymodule]
fn _search(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(exact, m)?)?;
    m.add_function(wrap_pyfunction!(beam_py, m)?)?;
    m.add("RELAX_BUDGET", RELAX_BUDGET)?;
    m.add("RELAX_MEMO", RELAX_MEMO)?;
    m.add("RELAX_WORK", RELAX_WORK)?;
    Ok(())
}
