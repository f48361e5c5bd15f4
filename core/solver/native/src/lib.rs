//! solitaire's compiled solver core (the module `solitaire.core.solver._native`): the
//! kernel's legal moves, apply and undo over the compiled rule tables (`core`), the tables'
//! loader and its guard (`load`), and the exact search of core/solver/search.py over them
//! (`search`). The tables arrive once per solve as plain lists and bytes
//! (solitaire/core/solver/native.py builds them); nothing calls back into Python while
//! searching, and the search runs with the GIL released.

pub mod core;
pub mod deadlock;
pub mod load;
pub mod search;

#[cfg(feature = "python")]
mod python;
