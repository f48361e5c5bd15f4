//! The table loader fuzzed: any bytes, read as a game's tables and a position (JSON, as
//! `load::json::Input`), are refused with a reason or loaded, played and searched, never a
//! panic. Seed the corpus with real games' tables: `python benchmarks/fuzz_corpus.py`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = _native::load::json::run(data);
});
