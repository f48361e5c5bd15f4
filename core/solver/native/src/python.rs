//! The Python module: `Core` (the tables of one game), `Position` (a position over them:
//! legal moves, push, pop, for the equivalence tests) and `solve`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::core::{Move, State, Tables, PAIR};
use crate::load::{self, Raw};

/// A move as the kernel writes it: a pair's `n` is -1 (`rules.PAIR`).
type PyMove = (usize, usize, i64);

fn to_py(m: Move) -> PyMove {
    (m.0, m.1, if m.2 == PAIR { -1 } else { m.2 as i64 })
}

fn from_py(m: PyMove) -> Option<Move> {
    match m.2 {
        -1 => Some((m.0, m.1, PAIR)),
        n if n >= 0 => Some((m.0, m.1, n as usize)),
        _ => None,
    }
}
use crate::search::{self, Budget, Outcome, SearchTables};

fn item<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?.ok_or_else(|| PyKeyError::new_err(key.to_string()))
}

fn bytes_list(d: &Bound<'_, PyDict>, key: &str) -> PyResult<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    for b in item(d, key)?.try_iter()? {
        out.push(b?.cast::<PyBytes>()?.as_bytes().to_vec());
    }
    Ok(out)
}

macro_rules! get {
    ($d:expr, $k:expr) => {
        item($d, $k)?.extract()?
    };
}

/// The dict's keys, as `load::Raw` has them (its relaxation's apart).
fn raw(d: &Bound<'_, PyDict>) -> PyResult<Raw> {
    Ok(Raw {
        count: get!(d, "count"),
        width: get!(d, "width"),
        accept: bytes_list(d, "accept")?,
        seq: bytes_list(d, "seq")?,
        gives: get!(d, "gives"),
        capacity: get!(d, "capacity"),
        max_accept: get!(d, "max_accept"),
        min_accept: get!(d, "min_accept"),
        flip: get!(d, "flip"),
        targets: get!(d, "targets"),
        sources: get!(d, "sources"),
        receivers: get!(d, "receivers"),
        allowed: get!(d, "allowed"),
        fits: get!(d, "fits"),
        supermove: get!(d, "supermove"),
        stock: get!(d, "stock"),
        draw_targets: get!(d, "draw_targets"),
        draw_count: get!(d, "draw_count"),
        draw_not_onto_empty: get!(d, "draw_not_onto_empty"),
        stock_open: get!(d, "stock_open"),
        redeals: get!(d, "redeals"),
        foundations: get!(d, "foundations"),
        is_foundation: get!(d, "is_foundation"),
        win_cleared: get!(d, "win_cleared"),
        win_home: get!(d, "win_home"),
        fill: get!(d, "fill"),
        covered: get!(d, "covered"),
        uncovers: get!(d, "uncovers"),
        pair_home: get!(d, "pair_home"),
        pair_ok: get!(d, "pair_ok"),
        pair_sources: get!(d, "pair_sources"),
        pair_with: get!(d, "pair_with"),
        beaten_by: get!(d, "beaten_by"),
        beats: get!(d, "beats"),
        win_one_card: get!(d, "win_one_card"),
        consolidate: get!(d, "consolidate"),
        needs: get!(d, "needs"),
        home_kind: get!(d, "home_kind"),
        track: get!(d, "track"),
        start: get!(d, "start"),
        groups: get!(d, "groups"),
        group_of: get!(d, "group_of"),
        top_only: get!(d, "top_only"),
        auto_sources: get!(d, "auto_sources"),
        waste_like: get!(d, "waste_like"),
        macro_waste: get!(d, "macro_waste"),
        deck_size: get!(d, "deck_size"),
        defer: get!(d, "defer"),
        stock_defer: get!(d, "stock_defer"),
        stock_home: get!(d, "stock_home"),
        found_defer: get!(d, "found_defer"),
        onto: get!(d, "onto"),
        dead_piles: get!(d, "dead_piles"),
        dead_pred: get!(d, "dead_pred"),
        dead_under: get!(d, "dead_under"),
        chain_on: get!(d, "chain_on"),
        chain_pred: get!(d, "chain_pred"),
        discard_ok: get!(d, "discard_ok"),
        discard_below: get!(d, "discard_below"),
        discard_never: get!(d, "discard_never"),
        discard_need: get!(d, "discard_need"),
        discard_late: get!(d, "discard_late"),
        relaxed: None,
    })
}

/// The compiled tables of one game, loaded once (shared by positions and solves).
#[pyclass(frozen, module = "solitaire.core.solver._native")]
struct Core {
    t: Arc<(Tables, SearchTables)>,
    /// the same game with draw 1 and unlimited redeals, for the relaxation proof (search.py's
    /// `_lost_with_every_stock_card_free`): only for stock macro-moves of more than one card a
    /// draw or limited redeals (the key `relaxed` of the tables, None elsewhere)
    relaxed: Option<Arc<(Tables, SearchTables)>>,
}

#[pymethods]
impl Core {
    /// Load the tables: anything wrong with them (a key missing, a value of the wrong kind or
    /// out of range, sizes that do not agree) is a ValueError.
    #[new]
    fn new(py: Python<'_>, tables_: &Bound<'_, PyAny>) -> PyResult<Core> {
        let loaded = tables_.cast::<PyDict>().map_err(PyErr::from).and_then(|d| {
            let mut main = raw(d)?;
            match item(d, "relaxed")? {
                r if !r.is_none() => main.relaxed = Some(Box::new(raw(r.cast::<PyDict>()?)?)),
                _ => {}
            }
            load::build(main).map_err(PyValueError::new_err)
        });
        match loaded {
            Ok(l) => Ok(Core { t: Arc::new(l.main), relaxed: l.relaxed.map(Arc::new) }),
            Err(e) if e.is_instance_of::<PyValueError>(py) => Err(e),
            Err(e) => Err(PyValueError::new_err(format!("bad solver tables: {e}"))),
        }
    }

    /// Each card's class in the search's key: the first of the cards every table treats
    /// alike (`load::alike`).
    #[getter]
    fn face(&self) -> Vec<u16> {
        self.t.1.face.clone()
    }
}

fn state(core: &Core, piles: Vec<Vec<u16>>, down: Vec<usize>, recycles: u32) -> PyResult<State> {
    load::position(&core.t.0, piles, down, recycles).map_err(PyValueError::new_err)
}

/// A position over a Core: the kernel's hot path, for the equivalence tests.
#[pyclass(module = "solitaire.core.solver._native")]
struct Position {
    t: Arc<(Tables, SearchTables)>,
    s: State,
}

#[pymethods]
impl Position {
    #[new]
    fn new(core: &Core, piles: Vec<Vec<u16>>, down: Vec<usize>, recycles: u32) -> PyResult<Position> {
        Ok(Position { t: core.t.clone(), s: state(core, piles, down, recycles)? })
    }

    fn legal_moves(&mut self) -> Vec<PyMove> {
        let mut out = Vec::new();
        self.s.legal_moves(&self.t.0, &mut out);
        out.into_iter().map(to_py).collect()
    }

    /// Apply a move: refused (ValueError) unless it is legal here.
    fn push(&mut self, m: PyMove) -> PyResult<()> {
        let mut legal = Vec::new();
        self.s.legal_moves(&self.t.0, &mut legal);
        match from_py(m) {
            Some(m) if legal.contains(&m) => {
                self.s.push(&self.t.0, m);
                Ok(())
            }
            _ => Err(PyValueError::new_err(format!("not a legal move here: {m:?}"))),
        }
    }

    fn pop(&mut self) -> Option<PyMove> {
        self.s.pop(&self.t.0).map(to_py)
    }

    #[getter]
    fn piles(&self) -> Vec<Vec<u16>> {
        self.s.piles.clone()
    }

    #[getter]
    fn down(&self) -> Vec<usize> {
        self.s.down.clone()
    }

    #[getter]
    fn recycles(&self) -> u32 {
        self.s.recycles
    }

    #[getter]
    fn won(&self) -> bool {
        self.s.won(&self.t.0)
    }

    /// Is the position lost by the deadlock proof (`deadlock::Deadlock::lost`)?
    fn deadlocked(&self) -> bool {
        let (t, x) = &*self.t;
        x.deadlock.lost(t, &self.s.piles, &self.s.down, &mut crate::deadlock::Scratch::default())
    }
}

/// A flag that stops a search from another thread: `cancel()` sets it (for good), and a
/// `solve` or `guided` given it stops within a bounded number of positions (where it looks
/// at its deadline), answering "unknown". An atomic, so that setting it needs no lock: the
/// search holds no GIL while it runs, and Python code in another thread (the table's hint
/// worker given up, a Ctrl-C handler) sets it while the search goes on.
#[pyclass(frozen, module = "solitaire.core.solver._native")]
struct Cancel {
    flag: Arc<AtomicBool>,
}

#[pymethods]
impl Cancel {
    #[new]
    fn new() -> Cancel {
        Cancel { flag: Arc::new(AtomicBool::new(false)) }
    }

    /// Set the flag: every search given this Cancel stops soon, and any started later stops
    /// at once.
    fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// The flag is set.
    #[getter]
    fn cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

/// In two threads (`solve`'s `threads`), the share of the time the passes other than the
/// exact search have in theirs, one after another, before that thread joins the exact search
/// (`search::solve_parallel`).
const JOIN: f64 = 0.6;

/// Search the position for a win: ("win", moves, states, pass: "greedy", "best-first",
/// "guided" or "exact"), ("unwinnable", [], states, "exact") or ("unknown", [], states, "")
/// when a pass has stored `max_states` positions or `timeout` seconds pass; `guided=False`
/// leaves the guided pass out; `relaxation=False` the relaxation proof (a pass that can
/// only ever prove a deal lost, for a caller that wants only wins: a hint); `cancel` (a
/// `Cancel`) stops it, "unknown", when set; `guided_states` is the guided pass's own states
/// budget (None: `max_states`, as every pass); `max_work` bounds the solve's work too, the
/// positions its passes together may reach (`search::solve`; None: no such bound);
/// `fixed_table`: `max_states` is a memory bound, which the exact pass going on from the
/// greedy pass's table may not pass (`Budget::fixed_table`); `threads` 2: the exact search
/// in a thread of its own from the start, with the whole time, beside the other passes, which
/// share the first `JOIN` of the time as if the exact search were not after them, and then
/// join the exact search on its table (`search::solve_parallel`; with a `timeout`, no
/// `max_work` and no `fixed_table` only, else one thread);
/// `stock_home=False`: no stock card sent home by draws before a move of the search's own
/// choosing (`Budget::no_stock_home`; for a hint, which reads a line's first move). The GIL is
/// released while searching.
#[pyfunction]
#[pyo3(signature = (core, piles, down, recycles, max_states, timeout=None, guided=true, relaxation=true, cancel=None,
                    guided_states=None, max_work=None, fixed_table=false, threads=1, stock_home=true))]
#[allow(clippy::too_many_arguments)]
fn solve(py: Python<'_>, core: &Core, piles: Vec<Vec<u16>>, down: Vec<usize>, recycles: u32, max_states: usize,
         timeout: Option<f64>, guided: bool, relaxation: bool, cancel: Option<&Cancel>, guided_states: Option<usize>,
         max_work: Option<usize>, fixed_table: bool, threads: usize, stock_home: bool)
         -> PyResult<(String, Vec<PyMove>, usize, String)> {
    let g = state(core, piles, down, recycles)?;
    let deadline = deadline(timeout)?;
    // two threads only where the answer may depend on the clock anyway (a timeout), every
    // pass may have its whole budget of work (no work bound) and two tables at once are not
    // over a memory bound (no fixed table)
    let parallel = threads >= 2 && timeout.is_some() && max_work.is_none() && !fixed_table;
    // as in search.py: the greedy pass has a quarter of the time (half of the greedy share),
    // the best-first pass until half of it (the rest of the greedy share), the guided pass
    // until three quarters, the exact search the rest; in two threads the exact search has
    // all of it in its own, and the other passes these shares of the first `JOIN` of it,
    // after which their thread joins the exact search
    let whole = if parallel { 0.75 / JOIN } else { 1.0 };
    let share = |f: f64| timeout.map(|s| Instant::now() + Duration::from_secs_f64((s * f / whole).min(1e9)));
    let (greedy, best, beam) = (share(0.25), share(0.5), share(0.75));
    let shared = core.t.clone();
    let relaxed = if relaxation { core.relaxed.clone() } else { None };
    let flag = cancel.map(|c| c.flag.clone());
    let (outcome, states, method) = py.detach(move || {
        let (t, x) = &*shared;
        let start = g.clone();
        // the relaxation has 15 % of the time from the greedy pass's end (search.py)
        let relax = relaxed.as_deref().map(|(rt, rx)| search::Relaxed { t: rt, x: rx, share: timeout.map(|s| s * 0.15 / whole) });
        let budget = Budget { max_states, max_work, deadline, cancel: flag, fixed_table, decided: None,
                              no_stock_home: !stock_home };
        let beam = guided.then(|| budget.with(guided_states.unwrap_or(max_states), beam));
        let (outcome, states, method) = if parallel {
            search::solve_parallel(t, x, g, &budget, greedy, best, relax, beam.as_ref())
        } else {
            search::solve(t, x, g, &budget, greedy, best, relax, beam.as_ref())
        };
        (shorter(t, &start, outcome), states, method)
    });
    let method = method.to_string();
    Ok(match outcome {
        Outcome::Win(line) => ("win".to_string(), line.into_iter().map(to_py).collect(), states, method),
        Outcome::Unwinnable => ("unwinnable".to_string(), Vec::new(), states, method),
        Outcome::Unknown => ("unknown".to_string(), Vec::new(), states, method),
    })
}

/// The guided pass alone (`search::guided`): ("win", moves, states) or ("unknown", [],
/// states) once it has stored `max_states` positions (every round's), `timeout` seconds
/// pass, `cancel` (a `Cancel`) is set, or (with `width`, one round of that many positions a
/// level) its round ends. It never proves a deal lost. The GIL is released while searching.
/// `by_deals`: the beam by deals (`guided::Deals::ByDeals`, for a stock dealt onto the columns).
#[pyfunction]
#[pyo3(signature = (core, piles, down, recycles, max_states, width=None, timeout=None, cancel=None, by_deals=false))]
#[allow(clippy::too_many_arguments)]
fn guided(py: Python<'_>, core: &Core, piles: Vec<Vec<u16>>, down: Vec<usize>, recycles: u32, max_states: usize,
          width: Option<usize>, timeout: Option<f64>, cancel: Option<&Cancel>, by_deals: bool)
          -> PyResult<(String, Vec<PyMove>, usize)> {
    let g = state(core, piles, down, recycles)?;
    let deadline = deadline(timeout)?;
    if width == Some(0) {
        return Err(PyValueError::new_err("a beam's width is a whole number from 1"));
    }
    let shared = core.t.clone();
    let flag = cancel.map(|c| c.flag.clone());
    let (outcome, states, _) = py.detach(move || {
        let (t, x) = &*shared;
        let deals = if by_deals { search::guided::Deals::ByDeals } else { search::guided::Deals::Plain };
        let start = g.clone();
        let (outcome, states, cut) =
            search::guided::guided(t, x, g, &Budget { max_states, deadline, cancel: flag, ..Budget::default() }, width, deals);
        (shorter(t, &start, outcome), states, cut)
    });
    Ok(match outcome {
        Outcome::Win(line) => ("win".to_string(), line.into_iter().map(to_py).collect(), states),
        _ => ("unknown".to_string(), Vec::new(), states),
    })
}

/// The exact search alone (`Search::run` with nothing pruned that a proof cannot afford: no
/// greedy, best-first, guided or relaxation pass, nor the deadlock proof before it):
/// ("win", moves, states), ("unwinnable", [], states) when it ran out of moves, or ("unknown",
/// [], states) once it has stored `max_states` positions, `timeout` seconds pass or `cancel`
/// is set. For benchmarks that measure how large a deal's proof is
/// (benchmarks/bench_proofs.py). The GIL is released while searching.
#[pyfunction]
#[pyo3(signature = (core, piles, down, recycles, max_states, timeout=None, cancel=None))]
#[allow(clippy::too_many_arguments)]
fn exact(py: Python<'_>, core: &Core, piles: Vec<Vec<u16>>, down: Vec<usize>, recycles: u32, max_states: usize,
         timeout: Option<f64>, cancel: Option<&Cancel>) -> PyResult<(String, Vec<PyMove>, usize)> {
    let g = state(core, piles, down, recycles)?;
    let deadline = deadline(timeout)?;
    let shared = core.t.clone();
    let flag = cancel.map(|c| c.flag.clone());
    let (outcome, states) = py.detach(move || {
        let (t, x) = &*shared;
        let start = g.clone();
        let mut search = search::Search::new(t, x, g);
        let outcome = search.run(&Budget { max_states, deadline, cancel: flag, ..Budget::default() });
        (shorter(t, &start, outcome), search.states)
    });
    Ok(match outcome {
        Outcome::Win(line) => ("win".to_string(), line.into_iter().map(to_py).collect(), states),
        Outcome::Unwinnable => ("unwinnable".to_string(), Vec::new(), states),
        Outcome::Unknown => ("unknown".to_string(), Vec::new(), states),
    })
}

/// A win's line with its detours cut (`search::shortened`), any other outcome as it is.
fn shorter(t: &Tables, start: &State, outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Win(line) => Outcome::Win(search::shortened(t, start, &line)),
        other => other,
    }
}

/// A search's deadline `timeout` seconds from now (None: none), or the one-line reason a
/// timeout is refused.
fn deadline(timeout: Option<f64>) -> PyResult<Option<Instant>> {
    match timeout {
        Some(s) if !(s.is_finite() && s >= 0.0) => Err(PyValueError::new_err("a timeout is a finite number of seconds from 0")),
        _ => Ok(timeout.map(|s| Instant::now() + Duration::from_secs_f64(s.min(1e9)))),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()?;
    m.add_class::<Position>()?;
    m.add_class::<Cancel>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(guided, m)?)?;
    m.add_function(wrap_pyfunction!(exact, m)?)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
