//! The searches of core/solver/search.py, move for move: the exact search (`Solver._run(prune=False)`:
//! iterative depth first, a transposition table of canonical keys, the safe moves home of
//! `_Tables.home_is_safe` played automatically, the moves ordered as `Solver._moves` orders
//! them), the greedy and best-first passes, and `solve`'s portfolio. Every cut of search.py is
//! here, from the same tables and with the same proofs: the safe moves home; no move of a
//! whole pile to an empty interchangeable twin; the waits (a run off a face-up card, a stock
//! card, a card taken back from a foundation: each until it is used); with limited redeals or
//! more than one card a draw, turn positions compared by dominance (`visit`). The states
//! budget is exact, as in search.py: a pass stores at most `max_states` positions. An
//! exhausted exact search answers "unwinnable": a proof.

use std::collections::BinaryHeap;
use std::hash::Hasher;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::core::{Move, State, Tables, GIVES_NONE, GIVES_RUN, GIVES_TOP, PAIR};
use crate::deadlock::{Deadlock, Scratch};

/// The guided pass (a beam search on an evaluation read off the tables), in its own file.
#[path = "guided.rs"]
pub mod guided;

pub const HOME_NEVER: u8 = 0;
pub const HOME_LONE: u8 = 1;
pub const HOME_START: u8 = 2;

/// What `_Tables` derives once per rules, as the search uses it.
#[derive(Clone, Debug, Default)]
pub struct SearchTables {
    /// needs[c]: the cards that must be home before c may go home automatically
    pub needs: Vec<Vec<u16>>,
    pub home_kind: Vec<u8>,
    pub track: Vec<bool>,
    /// start[p]: the cards an empty foundation p takes
    pub start: Vec<Vec<u16>>,
    /// interchangeable groups of piles, and the group index of each pile (usize::MAX: none)
    pub groups: Vec<Vec<usize>>,
    pub group_of: Vec<usize>,
    /// foundations keyed by size and top card alone (they give nothing back)
    pub top_only: Vec<bool>,
    pub auto_sources: Vec<usize>,
    /// a waste or a reserve (`role` in search.py's ordering)
    pub waste_like: Vec<bool>,
    /// face[c]: the card that stands for c in the key, the first of the cards every table
    /// treats alike (`load::alike`: Calculation's and Golf's four cards of a rank, a second
    /// deck's twin); empty (tables built by hand in the tests): each card stands for itself
    pub face: Vec<u16>,
    /// the waste of the stock macro-moves (`_Tables.macro`: one waste, fed only by the
    /// stock, unbounded), or None: the stock's action is a plain move
    pub macro_waste: Option<usize>,
    /// the cards of the game (`len(rules.deck)`), for the best-first pass's distance to a win
    pub deck_size: usize,
    /// defer[p]: a run moved off a face-up card of p may wait until that card is used
    /// (`_Tables.defer`: plain rules, unbounded receivers, p gives runs); empty: never
    pub defer: Vec<bool>,
    /// a stock card played to a pile other than a foundation may wait until a card goes
    /// onto it (`_Tables.stock_defer`: macro-moves, draw 1, unlimited redeals, alike piles)
    pub stock_defer: bool,
    /// a card anywhere in the stock or the waste that may go home at once goes there, after
    /// the draws that bring it up (`_Tables.stock_home`: macro-moves, draw 1, unlimited
    /// redeals)
    pub stock_home: bool,
    /// a card taken back from a foundation may wait until a card can go onto it, or the
    /// card under it can leave next (`_Tables.found_defer`: every foundation takes at most
    /// one card on each top, and every receiver defers); false: never
    pub found_defer: bool,
    /// onto[f][c]: the cards c may go onto outside the foundations once taken back from
    /// foundation f (`_Tables.onto_mask`); empty for a pile that gives nothing back
    pub onto: Vec<Vec<Vec<u16>>>,
    /// the dead-card cut (`_Tables.dead_piles`, docs/solver.md "Dead cards"): the piles whose
    /// every card must one day go home, giving their top card only; empty: the cut is off
    pub dead_piles: Vec<usize>,
    /// dead_pred[k][c]: the cards on which the k-th foundation takes c
    pub dead_pred: Vec<Vec<Vec<u16>>>,
    /// dead_under[p]: the piles that give nothing until p is empty (covered by p, in turn)
    pub dead_under: Vec<Vec<usize>>,
    /// the chain of a safe move home (`_Tables.chain_on`, `chain_pred`; docs/solver.md,
    /// "Safe moves home"): chain_on[c], the cards that could lie on c outside the
    /// foundations; chain_pred[c], the one card c goes on home (-1: none); empty: off
    pub chain_on: Vec<Vec<u16>>,
    pub chain_pred: Vec<i32>,
    /// safe discards (`_Tables.discard_below`; docs/solver.md, "Safe discards"):
    /// discard_ok[c], c may be discarded at once once every card of discard_below[c] (the
    /// cards it beats) is home; both empty: off
    pub discard_ok: Vec<bool>,
    pub discard_below: Vec<Vec<u16>>,
    /// only while at least `discard_need` of the cards `discard_never` (no card beats
    /// them: they never go home) are outside the foundations: every win needs the others home
    pub discard_never: Vec<u16>,
    pub discard_need: usize,
    /// late discards (`_Tables.discard_late`; docs/solver.md, "Safe discards"): once no card
    /// can come from the stock again, any legal discard goes at once (within the same need)
    pub discard_late: bool,
    /// the proof from the order cards must move in (`deadlock`), derived from `Tables`
    pub deadlock: Deadlock,
    /// twin parents (`load::twins`, docs/solver.md "Twin parents"): twin[c], the one other
    /// card every pile of `twin_pile` treats as c (it takes the same cards, goes onto the
    /// same cards, in runs alike), or `NO_CARD`; empty: off
    pub twin: Vec<u16>,
    /// the piles whose runs move between twin parents: one interchangeable group's piles,
    /// each giving runs of any length that may wait (`defer`)
    pub twin_pile: Vec<bool>,
    /// the twins' piles build by levels (`load::graded`): what they take on a card is what
    /// their runs build on it, and each card of a run is one level above the card under it,
    /// so a run holds no card twice and none of another's level; crossed twins are keyed as
    /// one only then (`Search::uncross`)
    pub twin_graded: bool,
}

/// How deep the chain of a safe move home is followed (`search.CHAIN_DEPTH`).
pub const CHAIN_DEPTH: u32 = 4;

impl SearchTables {
    /// Could every card that could lie on `card` that is not home go home at once, and so
    /// on up the chain, `depth` cards deep at most (`_Tables.chain_free`)?
    fn chain_free(&self, card: usize, home: &Bits, depth: u32) -> bool {
        self.chain_on[card].iter().all(|&y| {
            let y = y as usize;
            if home.has(y) {
                return true;
            }
            let under = self.chain_pred[y];
            depth > 0 && under >= 0 && home.has(under as usize) && self.chain_free(y, home, depth - 1)
        })
    }

    /// The card that stands for `c` in the key (see `face`).
    #[inline]
    pub fn class(&self, c: u16) -> u16 {
        self.face.get(c as usize).copied().unwrap_or(c)
    }
}

/// What the search played: a move, or `draws` stock actions at once (a macro-move's draws,
/// kept out of the position's history) with the waste's length, the stock's face-down count
/// and the redeals used before them.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Move(Move),
    Draws(usize, usize, usize, u32),
}

#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Vec<Move>),
    Unwinnable,
    Unknown,
}

/// What a pass may spend: `max_states` stored positions, `max_work` positions reached
/// (None: no such bound; see `Search::work`; in `solve`, the whole solve's), until
/// `deadline`, and until
/// `cancel` is set (by another thread: the Python side's `Cancel`, while the search runs
/// with the GIL released). The deadline and the flag are looked at where the deadline
/// always was (every 16 to 256 positions a pass visits), so a cancelled pass stops within
/// that many positions; a stop for either reason answers `Unknown`, never a proof.
#[derive(Clone, Default)]
pub struct Budget {
    pub max_states: usize,
    pub max_work: Option<usize>,
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
    /// `max_states` bounds the states held at once, not a pass's own (a memory bound): the
    /// exact pass that goes on from the greedy pass's table may not grow it past that
    pub fixed_table: bool,
    /// set when the other thread of a portfolio in two threads (`solve_parallel`) has
    /// decided: a second flag, looked at as `cancel` is
    pub decided: Option<Arc<AtomicBool>>,
    /// no stock card is sent home by draws before a move of the search's choosing
    /// (`SearchTables::stock_home` off): for a caller that reads a line's first move, a hint
    pub no_stock_home: bool,
}

impl Budget {
    /// A budget of states alone.
    pub fn states(max_states: usize) -> Budget {
        Budget { max_states, ..Budget::default() }
    }

    /// The same flag and work with another count and deadline (a pass's share of a solve).
    pub fn with(&self, max_states: usize, deadline: Option<Instant>) -> Budget {
        Budget { max_states, deadline, ..self.clone() }
    }

    /// `work` positions reached is the pass's whole work budget.
    pub fn worked(&self, work: usize) -> bool {
        self.max_work.is_some_and(|w| work >= w)
    }

    /// The flag has been set. A flag alone, publishing nothing: relaxed ordering will do.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
            || self.decided.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Past the deadline, or cancelled: the pass stops, `Unknown`.
    pub fn over(&self) -> bool {
        self.cancelled() || self.deadline.is_some_and(|d| Instant::now() > d)
    }
}

/// The Fx hash (rustc's): the keys are short arrays of small numbers and need no defence
/// against chosen collisions, so a multiply-rotate hash does instead of SipHash.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u16(&mut self, n: u16) {
        self.add(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    /// Add `words`, each as `value` gives it (at most 16 bits), four to a step, the last
    /// step (fewer, or none: then zero) added too.
    #[inline]
    fn add_quads(&mut self, words: &[u16], value: impl Fn(u16) -> u64) {
        let mut quads = words.chunks_exact(4);
        for q in &mut quads {
            self.add(value(q[0]) | value(q[1]) << 16 | value(q[2]) << 32 | value(q[3]) << 48);
        }
        let mut last = 0u64;
        for (i, &w) in quads.remainder().iter().enumerate() {
            last |= value(w) << (16 * i);
        }
        self.add(last);
    }
}

/// The Fx hash of a key's words, four to a step, folded at the end so that the low bits
/// (the table's bucket) depend on every word.
#[inline]
fn words_hash(k: &[u16]) -> u64 {
    let mut h = Fx(k.len() as u64);
    h.add_quads(k, |w| w as u64);
    h.0 ^ (h.0 >> 29) ^ (h.0 >> 47)
}

/// Words per chunk of an `Arena` (64 KiB, under the allocator's threshold for a mapping of its
/// own, so that a pass's chunks, freed, serve the next pass: with 2 MiB chunks the peak memory
/// a state of Spider was a tenth higher than with boxed keys); a longer key has its own.
const CHUNK: usize = 1 << 15;

/// The stored keys' words, side by side in chunks that never move once written; a key is
/// known by where its words lie (chunk, offset, length, in one number).
#[derive(Default)]
struct Arena {
    chunks: Vec<Vec<u16>>,
}

impl Arena {
    fn words(&self, at: u64) -> &[u16] {
        let (chunk, offset, len) = ((at >> 40) as usize, ((at >> 16) & 0xff_ffff) as usize, (at & 0xffff) as usize);
        &self.chunks[chunk][offset..offset + len]
    }

    fn push(&mut self, k: &[u16]) -> u64 {
        assert!(k.len() <= 0xffff, "a key of more than 65,535 words");
        let chunks = &mut self.chunks;
        let room = chunks.last().is_some_and(|c| c.capacity() - c.len() >= k.len() && c.len() + k.len() <= 0xff_ffff);
        if !room {
            chunks.push(Vec::with_capacity(CHUNK.max(k.len())));
        }
        let chunk = chunks.len() - 1;
        let words = &mut chunks[chunk];
        let at = ((chunk as u64) << 40) | ((words.len() as u64) << 16) | k.len() as u64;
        words.extend_from_slice(k);
        at
    }
}

/// The transposition table of the depth-first passes: a set of keys, their words in an
/// `Arena`, and a hash table of (hash, where the words lie). Against a set of boxed keys it
/// saves an allocation and its header a state, growing the table rehashes nothing (each
/// entry holds its hash), a probe reads a stored key only when the whole hash matches, and
/// dropping the table frees a few chunks, not every key.
#[derive(Default)]
pub(crate) struct Keys {
    table: hashbrown::HashTable<(u64, u64)>,
    arena: Arena,
}

impl Keys {
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }

    #[cfg(test)]
    pub(crate) fn contains(&self, k: &[u16]) -> bool {
        let h = words_hash(k);
        self.table.find(h, |&(eh, at)| eh == h && self.arena.words(at) == k).is_some()
    }

    /// Store `k`; false when it was stored before.
    pub(crate) fn insert(&mut self, k: &[u16]) -> bool {
        self.insert_hashed(words_hash(k), k, || true) == Some(true)
    }

    /// `insert`, `k`'s hash (`words_hash`) given, a new key stored only when `room()` says
    /// so: whether it was new, or None when it was and there was no room.
    fn insert_hashed(&mut self, h: u64, k: &[u16], room: impl FnOnce() -> bool) -> Option<bool> {
        let arena = &mut self.arena;
        match self.table.entry(h, |&(eh, at)| eh == h && arena.words(at) == k, |&(eh, _)| eh) {
            hashbrown::hash_table::Entry::Occupied(_) => Some(false),
            hashbrown::hash_table::Entry::Vacant(_) if !room() => None,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                slot.insert((h, arena.push(k)));
                Some(true)
            }
        }
    }
}

/// A key's hash (`words_hash`) and its shard of a `SharedKeys`: bits the shard's own table
/// reads neither for a bucket (the low ones) nor for its control bytes (the top seven).
fn shard_of(k: &[u16]) -> (u64, usize) {
    let h = words_hash(k);
    (h, (h >> 40) as usize & 63)
}

/// One transposition table for the two threads of one exact search (`solve_parallel`): the
/// keys in 64 `Keys` by their hash, each behind a lock (or, where turn positions are compared
/// by dominance, 64 `Turns`), and their count. A position is expanded by the thread that
/// stored it first; the other passes it by as it would one it had stored itself, or one
/// that dominates it. It holds at most `cap` keys (the states budget), however the two
/// threads race for the last of them: a key that finds no room is not stored, the table is
/// `full`, and the search that met it stops there ("unknown": a position it could not store
/// is one it would not have expanded, so running out of moves after it would prove nothing).
pub(crate) struct SharedKeys {
    shards: Vec<Mutex<Keys>>,
    turns: Vec<Mutex<Turns>>,
    count: AtomicUsize,
    cap: usize,
    full: AtomicBool,
}

impl SharedKeys {
    pub(crate) fn new(cap: usize) -> SharedKeys {
        SharedKeys { shards: (0..64).map(|_| Mutex::new(Keys::default())).collect(),
                     turns: (0..64).map(|_| Mutex::new(Turns::default())).collect(), count: AtomicUsize::new(0),
                     cap, full: AtomicBool::new(false) }
    }

    /// Room for one more key: counted, or (none left) the table marked full.
    fn reserve(&self) -> bool {
        let room = self.count.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |c| (c < self.cap).then_some(c + 1)).is_ok();
        if !room {
            self.full.store(true, Ordering::SeqCst);
        }
        room
    }

    /// A key found no room: the search that met it stops.
    pub(crate) fn full(&self) -> bool {
        self.full.load(Ordering::SeqCst)
    }

    /// `Turns::visit` on the shared table: false when either thread stored a turn position
    /// under `k` that covers `turn`, or it is a new key and there is no room for it (`full`).
    fn visit(&self, k: &[u16], turn: (u32, u32), covers: impl Fn((u32, u32)) -> bool) -> bool {
        let (h, shard) = shard_of(k);
        let mut shard = self.turns[shard].lock().unwrap_or_else(|e| e.into_inner());
        shard.visit_hashed(h, k, turn, covers, || self.reserve()) == Some(true)
    }

    pub(crate) fn len(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// Store `k`; false when either thread stored it before, or there is no room for it
    /// (`full`).
    fn insert(&self, k: &[u16]) -> bool {
        let (h, shard) = shard_of(k);
        self.shards[shard].lock().unwrap_or_else(|e| e.into_inner()).insert_hashed(h, k, || self.reserve()) == Some(true)
    }
}

/// With limited redeals, or more than one card a draw: a key (the stock and waste as one card
/// sequence) and every turn position (waste length, redeals used) stored under it
/// (`Solver._visit`'s dominance). The keys as in `Keys`; each entry holds its first turn
/// position, and the index in `more` of the latest of the others once there are others (most
/// keys have one): `more` holds them all, each with the index of the one stored before it
/// under the same key (`NO_TURN` after the first), so that a key's others cost 12 bytes each and
/// no allocation of their own.
#[derive(Default)]
struct Turns {
    table: hashbrown::HashTable<(u64, u64, (u32, u32), u32)>,
    arena: Arena,
    more: Vec<((u32, u32), u32)>,
}

/// The end of a key's list in `Turns::more`.
const NO_TURN: u32 = u32::MAX;

impl Turns {
    fn len(&self) -> usize {
        self.table.len()
    }

    /// Store turn position `turn` under `k`, unless a position stored under it before
    /// `covers` it: then false.
    fn visit(&mut self, k: &[u16], turn: (u32, u32), covers: impl Fn((u32, u32)) -> bool) -> bool {
        self.visit_hashed(words_hash(k), k, turn, covers, || true) == Some(true)
    }

    /// `visit`, `k`'s hash given, a new key stored only when `room()` says so: whether the turn
    /// position was stored, or None when its key was new and there was no room.
    fn visit_hashed(&mut self, h: u64, k: &[u16], turn: (u32, u32), covers: impl Fn((u32, u32)) -> bool,
                    room: impl FnOnce() -> bool) -> Option<bool> {
        let arena = &mut self.arena;
        match self.table.entry(h, |e| e.0 == h && arena.words(e.1) == k, |e| e.0) {
            hashbrown::hash_table::Entry::Occupied(mut slot) => {
                let (_, _, first, latest) = slot.get_mut();
                if covers(*first) {
                    return Some(false);
                }
                let mut at = *latest;
                while at != NO_TURN {
                    let (e, before) = self.more[at as usize];
                    if covers(e) {
                        return Some(false);
                    }
                    at = before;
                }
                self.more.push((turn, *latest));
                *latest = (self.more.len() - 1) as u32;
                Some(true)
            }
            hashbrown::hash_table::Entry::Vacant(_) if !room() => None,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                slot.insert((h, arena.push(k), turn, NO_TURN));
                Some(true)
            }
        }
    }
}

/// May the cards of `pile` (the cards of pile `p`, or what they would be) from index `i` up
/// move together (`Search::free`)?
fn free_in(t: &Tables, p: usize, pile: &[u16], i: usize) -> bool {
    match t.gives[p] {
        GIVES_RUN => (i..pile.len().saturating_sub(1)).all(|j| t.seq[p][pile[j] as usize * t.width + pile[j + 1] as usize] != 0),
        GIVES_TOP => i + 1 == pile.len(),
        _ => true,
    }
}

/// A crossing of twin children on `piles` (`Search::uncrossed`): two twin parents P < P',
/// face up on two twins' piles that take from each other, each carrying one of two twin
/// children C < C' built on it, each child with every card on it free to move (a run to the
/// pile's top), C' on P; as (P's pile, C''s index, P''s pile, C's index). `parents` is
/// scratch: the face-up cards under a card on the twins' piles that have a twin.
fn crossing(t: &Tables, x: &SearchTables, piles: &[Vec<u16>], down: &[usize], parents: &mut Vec<(u16, u32, u32)>)
            -> Option<(usize, usize, usize, usize)> {
    parents.clear();
    for (i, pile) in piles.iter().enumerate() {
        if !x.twin_pile[i] {
            continue;
        }
        let under = pile.len().saturating_sub(1); // (the cards under a card)
        for (a, &c) in pile.iter().enumerate().take(under).skip(down[i]) {
            if x.twin[c as usize] != NO_CARD {
                parents.push((c, i as u32, a as u32));
            }
        }
    }
    let w = t.width;
    for &(p, i, a) in parents.iter() {
        let tw = x.twin[p as usize];
        if tw < p {
            continue;
        }
        let Some(&(_, j, b)) = parents.iter().find(|e| e.0 == tw) else { continue };
        let (i, a, j, b) = (i as usize, a as usize + 1, j as usize, b as usize + 1);
        let (c, c2) = (piles[i][a], piles[j][b]);
        if i == j || x.twin[c as usize] != c2 || c < c2 || !t.allowed[i][j] || !t.allowed[j][i]
            || t.seq[i][p as usize * w + c as usize] == 0 || t.seq[j][tw as usize * w + c2 as usize] == 0
            || !free_in(t, i, &piles[i], a) || !free_in(t, j, &piles[j], b)
        {
            continue;
        }
        return Some((i, a, j, b));
    }
    None
}

/// The first four words of a run of key words (zeros after its end) as one number: the
/// first step of the order `key` sorts an interchangeable group's members by.
#[inline]
fn slice_prefix(words: &[u16]) -> u64 {
    let mut n = 0u64;
    for i in 0..4 {
        n = (n << 16) | words.get(i).copied().unwrap_or(0) as u64;
    }
    n
}

#[derive(Default)]
struct Bits {
    words: Vec<u64>,
}

impl Bits {
    fn new(width: usize) -> Bits {
        Bits { words: vec![0; width / 64 + 1] }
    }
    fn set(&mut self, c: usize) {
        self.words[c / 64] |= 1 << (c % 64);
    }
    fn has(&self, c: usize) -> bool {
        self.words[c / 64] >> (c % 64) & 1 != 0
    }
    fn clear(&mut self) {
        self.words.fill(0);
    }
}

/// A position the best-first pass generated: its parent, the draws and the move that led
/// there from it, and the range of its safe moves home in the pass's list of them.
struct Node {
    parent: u32,
    draws: u32,
    mv: [u32; 3],
    autos: (u32, u32),
}

const NO_MOVE: [u32; 3] = [u32::MAX; 3];

/// No card: `wanted_on`'s `moved` when no run leaves the pile (a card taken back from a
/// foundation is judged on the pile it goes to).
const NO_CARD: u16 = u16::MAX;

/// A move in 12 bytes (a pair's `n`, `PAIR`, as u32::MAX - 1).
fn pack(m: Move) -> [u32; 3] {
    [m.0 as u32, m.1 as u32, if m.2 == PAIR { u32::MAX - 1 } else { m.2 as u32 }]
}

fn unpack(m: [u32; 3]) -> Move {
    (m[0] as usize, m[1] as usize, if m[2] == u32::MAX - 1 { PAIR } else { m[2] as usize })
}

/// Split the card sequence "waste, then the stock from its top down" so that the waste holds
/// its first `length` cards: cards move one by one between the stock's top and the waste's.
fn split_stock(g: &mut State, st: usize, w: usize, length: usize) {
    while g.piles[w].len() < length {
        let c = g.piles[st].pop().unwrap();
        g.piles[w].push(c);
    }
    while g.piles[w].len() > length {
        let c = g.piles[w].pop().unwrap();
        g.piles[st].push(c);
    }
}

pub struct Search<'a> {
    t: &'a Tables,
    x: &'a SearchTables,
    pub g: State,
    trail: Vec<Step>,
    seen: Keys,
    /// the positions stored where turn positions are compared by dominance, instead of `seen`
    turns: Turns,
    /// stock macro-moves with limited redeals or more than one card a draw: turn positions
    /// compared by dominance (`visit`)
    dominance: bool,
    pub states: usize,
    count: u64,
    /// The positions the pass has reached (its work, which `Budget::max_work` bounds): the
    /// depth-first passes count each position they step to (the root and every move
    /// played), the best-first pass each child it puts on its open list (it looks at the
    /// bound before each expansion, so it may pass it by one position's children), the
    /// guided pass each child it makes a key of. A stored position costs one to tens of them, as many
    /// as the game has moves a position.
    pub work: usize,
    buf: Vec<Move>,
    /// the greedy pass's cuts (`Solver._moves` with prune=True): a failure proves nothing
    pub prune: bool,
    /// a cut of `prune` left out a move the exact search would have tried (`Solver.cut`):
    /// until then the pruned pass is the exact search, and running out of positions
    /// without one is a proof
    pub cut: bool,
    /// scratch space reused by `key` (a group's pile keys, and their ranges) and `auto`
    /// (the cards the foundations want), so that neither allocates per position
    kbuf: Vec<u16>,
    kranges: Vec<(u64, u32, u32)>,
    /// the key `visit` writes before it knows whether to store it
    vbuf: Vec<u16>,
    /// for `auto`: the cards each foundation takes on each top card (`t.fits` as bit sets,
    /// `fit_words` words a row; row `k * (width + 1) + top` for the k-th foundation, `top ==
    /// width` when empty), and scratch for the row of each foundation now (`usize::MAX`: full)
    fit_bits: Vec<u64>,
    fit_words: usize,
    frows: Vec<usize>,
    /// scratch for `auto`: the foundations that take a card, and the cards home
    every: Vec<usize>,
    home: Bits,
    /// scratch for `auto`: the cards some foundation takes now
    want: Bits,
    /// scratch for `moves`: the moves with their priority and draws
    mbuf: Vec<(i32, usize, Move)>,
    sbuf: StockScratch,
    /// scratch for the deadlock proof
    dl: Scratch,
    /// where a depth-first pass the budget stopped was: its open positions' moves and frames
    dfs_stack: Vec<(usize, Move)>,
    dfs_frames: Vec<(usize, usize, usize, usize)>,
    /// `x.stock_home`, unless the budget of the pass under way says not (`Budget::no_stock_home`)
    stock_home: bool,
    /// where each card lies (pile << 16 | index), written by `moves_into` for the stock-card
    /// waits it asks (`stock_card_used`) and valid only while it runs
    loc: Vec<u32>,
    /// the table shared with another thread's exact search of the same position, instead of
    /// `seen` (`share`)
    shared: Option<Arc<SharedKeys>>,
    /// a thread joining a search under way (`join`): each position's moves in the reverse
    /// order, so that it goes where the other has not yet, and the first position expanded
    /// though the other has stored it
    reverse: bool,
    enter: bool,
    /// the move straight back passed by (`run`; off only in a test that checks it changes
    /// no stored position)
    skip_back: bool,
    /// twin parents (`SearchTables::twin`): each run on the larger of two twins moved onto
    /// the smaller where that one is free, and moved back only for a use of it
    /// (docs/solver.md, "Twin parents"); on wherever the tables find twins (the tests turn
    /// it off to compare)
    twins: bool,
    /// the twins' piles take from no pile but each other and the foundations, so that the
    /// smaller twin can go nowhere alone but onto a card of the group or home (`twin_back`)
    twin_back_idle: bool,
    /// in a depth-first pass with `twins`, two positions whose twin parents carry twin
    /// children crossed are keyed as one (`uncrossed`; docs/solver.md, "Crossed twins"); on
    /// wherever the tables find twins on piles that build by levels (`twin_graded`; the
    /// tests turn it off to compare)
    pub(crate) uncross: bool,
    /// scratch for `key_into`: the twins' piles with their crossed children swapped, and the
    /// face-up cards that may be a twin parent there
    vpiles: Vec<Vec<u16>>,
    parents: Vec<(u16, u32, u32)>,
    tail: Vec<u16>,
    /// a depth-first pass (`run`) is under way: where `comes_back` holds, a card that can come
    /// back goes home as a safe move (`returnable`) and a card taken back from a foundation
    /// is used at once (`pending`)
    dfs: bool,
    /// `comes_back[p]` (`_Tables.comes_back`): for a foundation, it gives its top card back to
    /// every pile that takes cards, and those build alike; for such a pile, some foundation
    /// does; all false without `found_defer`
    comes_back: Vec<bool>,
    /// some pile's `comes_back`
    back_any: bool,
    /// with `back_any`: the piles that take cards, not foundations, and for each card whether
    /// one of them takes it when empty (`used`)
    takers: Vec<usize>,
    empty_takes: Vec<bool>,
    /// the stock's and the waste's cards that can come to the waste's top, written by
    /// `moves_into` for `used` (`stock_reach`)
    reach: Bits,
}

/// `Search::comes_back`: with `found_defer`, the foundations that give their top card to every
/// pile that takes cards (not a foundation: `piles`), where those piles take one card at a time
/// by one table and no other pile's top must beat it, and those piles (all false where no
/// foundation does).
fn comes_back(t: &Tables, piles: &[usize], found_defer: bool) -> Vec<bool> {
    let alike = found_defer && !piles.is_empty()
        && piles.iter().all(|&d| {
            t.accept[d] == t.accept[piles[0]] && t.beaten_by[d].is_empty() && t.min_accept[d] <= 1 && t.max_accept[d] >= 1
        });
    let mut out: Vec<bool> = (0..t.count)
        .map(|f| alike && t.is_foundation[f] && t.gives[f] != GIVES_NONE && piles.iter().all(|&d| t.allowed[d][f]))
        .collect();
    if out.iter().any(|&b| b) {
        for &d in piles {
            out[d] = true;
        }
    }
    out
}

/// How many take-backs deep `Search::take_back_used` asks whether a take-back is used in turn
/// (deeper, the answer is taken to be yes). Two (session 25) left chains of take-backs that
/// run down a foundation's cards alternately onto each other, and end unused, to be searched
/// card by card; six asks about them as far as most go (docs/performance.md, "Session 26").
const USED_DEPTH: u32 = 6;

/// A position a few take-backs on from the search's (`Search::used`): the foundations' sizes
/// there, where they differ, and the cards put on the piles' tops (one of each a take-back,
/// `USED_DEPTH` + 1 at most).
#[derive(Clone, Copy, Default)]
struct Hyp {
    /// (foundation, its size there)
    sizes: [(u8, u8); USED_DEPTH as usize + 1],
    n_sizes: u8,
    /// (pile, the card on its top)
    tops: [(u8, u16); USED_DEPTH as usize + 1],
    n_tops: u8,
}

impl Hyp {
    fn size(&self, p: usize, real: usize) -> usize {
        self.sizes[..self.n_sizes as usize].iter().rev().find(|e| e.0 as usize == p).map_or(real, |e| e.1 as usize)
    }

    fn top(&self, p: usize) -> Option<u16> {
        self.tops[..self.n_tops as usize].iter().rev().find(|e| e.0 as usize == p).map(|e| e.1)
    }

    /// The pile a card was put on there, while it is that pile's top.
    fn placed_on(&self, c: u16) -> Option<usize> {
        let e = self.tops[..self.n_tops as usize].iter().rev().find(|e| e.1 == c)?;
        (self.top(e.0 as usize) == Some(c)).then_some(e.0 as usize)
    }

    fn has_placed(&self, c: u16) -> bool {
        self.tops[..self.n_tops as usize].iter().any(|e| e.1 == c)
    }

    fn with(mut self, f: usize, size: usize) -> Hyp {
        self.sizes[self.n_sizes as usize] = (f as u8, size as u8);
        self.n_sizes += 1;
        self
    }

    fn placed(mut self, p: usize, c: u16) -> Hyp {
        self.tops[self.n_tops as usize] = (p as u8, c);
        self.n_tops += 1;
        self
    }
}

/// Cards on a stack: up to 32 inline, then on the heap (the stock-card wait's chains).
#[derive(Default)]
struct CardStack {
    inline: [u16; 32],
    n: usize,
    more: Vec<u16>,
}

impl CardStack {
    fn push(&mut self, c: u16) {
        if self.n < self.inline.len() && self.more.is_empty() {
            self.inline[self.n] = c;
            self.n += 1;
        } else {
            self.more.push(c);
        }
    }
    fn pop(&mut self) -> Option<u16> {
        if let Some(c) = self.more.pop() {
            return Some(c);
        }
        if self.n == 0 {
            return None;
        }
        self.n -= 1;
        Some(self.inline[self.n])
    }
    fn contains(&self, c: u16) -> bool {
        self.inline[..self.n].contains(&c) || self.more.contains(&c)
    }
}

/// Scratch for `stock_moves`: the (card, pile) pairs piles take now, those cards, and the
/// waste lengths the draws have reached.
#[derive(Default)]
struct StockScratch {
    pairs: Vec<(u16, usize)>,
    cards: Bits,
    seen_l: Vec<bool>,
}

impl<'a> Search<'a> {
    pub fn new(t: &'a Tables, x: &'a SearchTables, g: State) -> Search<'a> {
        let dominance = x.macro_waste.is_some() && (t.redeals.is_some() || t.draw_count > 1);
        let takers: Vec<usize> = t.receivers.iter().copied().filter(|&d| !t.is_foundation[d]).collect();
        // (`Hyp` names piles by a byte: no such game has more than 255 piles)
        let comes_back = comes_back(t, &takers, x.found_defer && t.count <= 255);
        let back_any = comes_back.iter().any(|&b| b);
        let (takers, empty_takes) = if back_any {
            let empty = (0..t.width).map(|c| takers.iter().any(|&d| t.accept[d][t.width * t.width + c] != 0)).collect();
            (takers, empty)
        } else {
            (Vec::new(), Vec::new())
        };
        let twin_back_idle = !x.twin.is_empty()
            && t.receivers.iter().all(|&d| x.twin_pile[d] || t.is_foundation[d]);
        let fit_words = t.width / 64 + 1;
        let mut fit_bits = vec![0u64; t.foundations.len() * (t.width + 1) * fit_words];
        for (k, &f) in t.foundations.iter().enumerate() {
            for (top, cards) in t.fits[f].iter().enumerate() {
                let row = (k * (t.width + 1) + top) * fit_words;
                for &c in cards {
                    fit_bits[row + c as usize / 64] |= 1 << (c % 64);
                }
            }
        }
        Search { t, x, g, trail: Vec::new(), seen: Keys::default(), turns: Turns::default(), dominance, states: 0,
                 count: 0, work: 0, buf: Vec::new(), prune: false, cut: false, kbuf: Vec::new(), kranges: Vec::new(),
                 vbuf: Vec::new(), fit_bits, fit_words, frows: Vec::new(), every: Vec::new(), home: Bits::default(),
                 want: Bits::default(), mbuf: Vec::new(), sbuf: StockScratch::default(), dl: Scratch::default(),
                 dfs_stack: Vec::new(), dfs_frames: Vec::new(), stock_home: x.stock_home, loc: Vec::new(),
                 shared: None, reverse: false, enter: false, skip_back: true, twins: !x.twin.is_empty(), twin_back_idle,
                 uncross: !x.twin.is_empty() && x.twin_graded, vpiles: Vec::new(), parents: Vec::new(), tail: Vec::new(), dfs: false,
                 comes_back, back_any, takers, empty_takes, reach: Bits::default() }
    }

    /// Store positions in `table`, shared with other searches of the same position.
    pub(crate) fn share(&mut self, table: Arc<SharedKeys>) {
        self.shared = Some(table);
    }

    /// Join the exact search of this position that another thread runs on `table`: expand
    /// the position though it is stored, then go depth first as that search does, each
    /// position's moves in the reverse order, passing by whatever either has stored. Its
    /// running out of moves proves nothing alone: the positions the other stored and has not
    /// yet expanded are the other's to finish (`solve_parallel`).
    pub(crate) fn join(&mut self, table: Arc<SharedKeys>) {
        self.reverse = true;
        self.enter = true;
        self.share(table);
    }

    /// The states stored: the keys of the transposition table (with dominance, the keys,
    /// however many turn positions each holds, as search.py's `len(self.seen)` counts them).
    fn stored(&self) -> usize {
        match &self.shared {
            Some(table) => table.len(),
            None if self.dominance => self.turns.len(),
            None => self.seen.len(),
        }
    }

    fn home_is_safe(&self, card: usize, fits: &[usize], home: &Bits) -> bool {
        let x = self.x;
        let kind = x.home_kind[card];
        if x.needs[card].iter().any(|&c| !home.has(c as usize))
            && !(kind == HOME_LONE && !x.chain_pred.is_empty() && x.chain_free(card, home, CHAIN_DEPTH))
        {
            return false;
        }
        if kind == HOME_NEVER || !fits.iter().all(|&f| x.track[f]) {
            return false;
        }
        if kind == HOME_LONE {
            return fits.len() == 1;
        }
        let f = fits[0];
        let group = x.group_of[f];
        if group != usize::MAX {
            let members = &x.groups[group];
            return fits.iter().all(|&g| members.contains(&g) && self.g.piles[g].is_empty());
        }
        fits.len() == 1 && x.start[f].iter().all(|&c| c as usize == card || home.has(c as usize))
    }

    /// May the top card of pile `s` go home to foundation `f` as a safe move because it can
    /// come straight back (`Solver._returnable`; docs/solver.md, "A card that can come
    /// back")? In a depth-first pass, where `comes_back` holds for both, when the card under it
    /// is face up and takes it: the position after the move reaches the one before it in one
    /// move (the card taken back), and the one before reaches it in one, so the two are won or
    /// lost alike.
    fn returnable(&self, s: usize, f: usize) -> bool {
        let (t, g) = (self.t, &self.g);
        if !self.dfs || !self.comes_back[f] || !self.comes_back[s] || t.is_foundation[s] {
            return false;
        }
        let pile = &g.piles[s];
        let n = pile.len();
        n >= 2 && n - 2 >= g.down[s] && t.accept[s][pile[n - 2] as usize * t.width + pile[n - 1] as usize] != 0
    }

    /// Was the position after the trail's entry `i` one where a card had just been taken back
    /// (`pending`)?
    fn pending_after(&self, i: usize) -> Option<(usize, usize)> {
        if !self.dfs || !self.back_any {
            return None;
        }
        match self.trail.get(i) {
            Some(Step::Move((s, d, _))) if self.t.is_foundation[*s] && !self.t.is_foundation[*d] => Some((*s, *d)),
            _ => None,
        }
    }

    /// The foundation and the pile of the card the move here took back from that foundation,
    /// in a depth-first pass where `comes_back` holds (`Solver._pending`): then this position
    /// is not stored, no safe move is played here, and the only moves tried are the card's
    /// uses (`uses`).
    fn pending(&self) -> Option<(usize, usize)> {
        self.trail.len().checked_sub(1).and_then(|i| self.pending_after(i))
    }

    /// The pile whose face-up top card X the move here uncovered by moving the run on X onto
    /// X's twin, the larger of the two, and that twin's pile (docs/solver.md, "Twin parents"):
    /// then this position is not stored, nothing is played here, and the only moves tried
    /// use X (a card onto X, X home or to a pile outside the group).
    fn twin_pending(&self) -> Option<(usize, usize, usize)> {
        let (t, x) = (self.t, self.x);
        if !self.twins || !self.dfs {
            return None;
        }
        let Some(Step::Move((s, d, n))) = self.trail.last() else { return None };
        let (s, d, n) = (*s, *d, *n);
        if n == 0 || n == PAIR || !x.twin_pile[s] || !x.twin_pile[d] || self.g.last_plain() != Some((s, d, n)) {
            return None; // (nor a move that turned a card up: X was face down before it)
        }
        let (from, to) = (&self.g.piles[s], &self.g.piles[d]);
        if from.len() <= self.g.down[s] || to.len() < n + 1 || to.len() - n - 1 < self.g.down[d] {
            return None;
        }
        let top = *from.last().unwrap();
        let (under, bottom) = (to[to.len() - n - 1], to[to.len() - n]);
        // (a run built on X: one that was not may have had to go for X to move at all)
        (x.twin[top as usize] == under && under > top && t.seq[s][top as usize * t.width + bottom as usize] != 0)
            .then_some((s, d, n))
    }

    /// Is a move of a run off `under` onto pile `dst` one back onto the larger twin (the
    /// reverse of `twin_canon`), which `twin_pending` then follows with uses of `under`?
    fn twin_back(&self, under: usize, dst: usize) -> bool {
        let x = self.x;
        let to = &self.g.piles[dst];
        self.twin_back_idle && x.twin_pile[dst] && to.len() > self.g.down[dst] && {
            let top = *to.last().unwrap();
            x.twin[under] == top && top as usize > under
        }
    }

    /// Put each run that lies on the larger of two twin parents, the smaller one the top of
    /// another pile of the group, onto the smaller (docs/solver.md, "Twin parents"): one
    /// move; whether it moved one.
    fn twin_canon(&mut self) -> bool {
        let (t, x) = (self.t, self.x);
        let w = t.width;
        for grp in &x.groups {
            for &i in grp {
                if !x.twin_pile[i] {
                    continue;
                }
                let pile = &self.g.piles[i];
                for idx in self.g.down[i] + 1..pile.len() {
                    let p = pile[idx - 1];
                    let tw = x.twin[p as usize];
                    if tw == NO_CARD || tw > p || t.seq[i][p as usize * w + pile[idx] as usize] == 0 {
                        continue;
                    }
                    let Some(&j) = grp.iter().find(|&&j| {
                        j != i && self.g.piles[j].len() > self.g.down[j] && *self.g.piles[j].last().unwrap() == tw
                    }) else {
                        continue;
                    };
                    // (the move there and the one back both legal: the group's piles take from
                    // each other, and what they take on one twin they take on the other)
                    let c = pile[idx] as usize;
                    if !self.free(i, idx) || !t.allowed[j][i] || !t.allowed[i][j] || t.accept[j][tw as usize * w + c] == 0
                        || t.accept[i][p as usize * w + c] == 0
                    {
                        continue;
                    }
                    let m = (i, j, pile.len() - idx);
                    self.g.push(t, m);
                    self.trail.push(Step::Move(m));
                    return true;
                }
            }
        }
        false
    }

    /// Keep in `legal` the moves that use the card just taken back from foundation `home` to
    /// pile `onto` (`Solver._uses`): a card onto it, the card under it taken back too, or
    /// another card taken back that one of those needs (the card under that one goes onto
    /// this card, or the card under this one onto that).
    fn uses(&self, legal: &mut Vec<Move>, home: usize, onto: usize) {
        let t = self.t;
        let piles = &self.g.piles;
        let w = t.width;
        let card = *piles[onto].last().unwrap() as usize;
        let under = piles[home].last().map(|&c| c as usize);
        let linked = |s: usize, d: usize| {
            let back = &piles[s];
            (back.len() >= 2 && t.accept[onto][card * w + back[back.len() - 2] as usize] != 0)
                || under.is_some_and(|u| t.accept[d][*back.last().unwrap() as usize * w + u] != 0)
        };
        legal.retain(|&(s, d, n)| {
            n != 0 && n != PAIR
                && (d == onto || (!t.is_foundation[d] && t.is_foundation[s] && (s == home || linked(s, d))))
        });
    }

    /// Could the top card of foundation `home`, taken back to pile `onto`, be used at once
    /// (`uses`; `Solver._take_back_used`)? False only where the position after the move would
    /// have no move to try there (`uses`, whatever the waits of `moves_into` leave out): no
    /// card that goes onto it lies where it can move (the stock or the waste, a face-up card
    /// free to move, a foundation's top that would be used in turn), the card under it goes
    /// nowhere it would be used in turn, and no other foundation's top that one of those needs
    /// goes anywhere it would be used in turn; "used in turn" is the same question asked of
    /// the position after that move too, `USED_DEPTH` take-backs deep (deeper, the answer is
    /// yes).
    /// (It looks at `loc`, which `moves_into` writes.)
    fn take_back_used(&self, home: usize, onto: usize) -> bool {
        self.used(Hyp::default(), home, onto, USED_DEPTH)
    }

    /// `take_back_used` in the position `h` describes: this one with some cards taken back.
    fn used(&self, h: Hyp, home: usize, onto: usize, depth: u32) -> bool {
        let t = self.t;
        let g = &self.g;
        let w = t.width;
        let stock = t.stock.unwrap_or(usize::MAX);
        let hp = &g.piles[home];
        let n = h.size(home, hp.len());
        let card = hp[n - 1] as usize;
        let under = if n >= 2 { Some(hp[n - 2] as usize) } else { None };
        // the position once the card is taken back
        let h = h.with(home, n - 1).placed(onto, card as u16);
        // a card taken back from foundation `f` to `d` there, used in turn (at depth 0: taken to be)
        let next = |f: usize, d: usize| depth == 0 || self.used(h, f, d, depth - 1);
        for &y in &t.fits[onto][card] {
            if h.has_placed(y) {
                return true; // a card taken back there, on top of a pile
            }
            let (p, i) = ((self.loc[y as usize] >> 16) as usize, (self.loc[y as usize] & 0xffff) as usize);
            if p >= t.count || g.piles[p].get(i) != Some(&y) || p == onto {
                continue;
            }
            if p == stock || Some(p) == self.x.macro_waste || self.x.waste_like.get(p) == Some(&true) {
                if (p == stock || Some(p) == self.x.macro_waste) && !self.reach.has(y as usize) {
                    continue; // it cannot come to the waste's top
                }
                if self.x.stock_defer && !self.stock_card_used(y, onto) {
                    continue; // it waits until a card can go onto it (`stock_card_used`)
                }
                return true;
            }
            if t.is_foundation[p] {
                // (the foundation's top there: nothing is put on a foundation there)
                if i + 1 == h.size(p, g.piles[p].len()) && self.comes_back[p] && next(p, onto) {
                    return true;
                }
            } else if i >= g.down[p] && self.free(p, i) {
                return true;
            }
        }
        // another foundation's top taken back: the card under this one (once it is gone) to
        // any pile, or one that the card under it goes onto this card from, or that takes the
        // card under this one
        for &f in &t.foundations {
            if !self.comes_back[f] {
                continue;
            }
            let fp = &g.piles[f];
            let m = h.size(f, fp.len());
            if m == 0 {
                continue;
            }
            let c2 = fp[m - 1] as usize;
            let linked = f == home || (m >= 2 && t.accept[onto][card * w + fp[m - 2] as usize] != 0);
            let links_there = f != home && under.is_some_and(|u| t.accept[onto][c2 * w + u] != 0);
            if !linked && !links_there {
                continue;
            }
            // the piles it may go to there: onto a card it fits on, at a top; or an empty one
            let mut found = false;
            for &z in &self.x.onto[f][c2] {
                let d = match h.placed_on(z) {
                    Some(d) => d,
                    None if h.has_placed(z) => continue,
                    None => {
                        let (p, i) = ((self.loc[z as usize] >> 16) as usize, (self.loc[z as usize] & 0xffff) as usize);
                        let pile = match g.piles.get(p) {
                            Some(pile) if pile.get(i) == Some(&z) => pile,
                            _ => continue,
                        };
                        if t.is_foundation[p] || i + 1 != pile.len() || i < g.down[p] || h.top(p).is_some() {
                            continue;
                        }
                        p
                    }
                };
                if t.allowed[d][f] && (linked || t.accept[d][c2 * w + under.unwrap()] != 0) && next(f, d) {
                    found = true;
                    break;
                }
            }
            if !found && self.empty_takes[c2] {
                for &d in &self.takers {
                    if g.piles[d].is_empty() && h.top(d).is_none() && t.allowed[d][f] && t.accept[d][w * w + c2] != 0
                        && (linked || t.accept[d][c2 * w + under.unwrap()] != 0) && next(f, d)
                    {
                        found = true;
                        break;
                    }
                }
            }
            if found {
                return true;
            }
        }
        false
    }

    /// Play safe moves home until none is left (`Solver._auto`).
    fn auto(&mut self) {
        self.auto_then(false);
    }

    /// `auto`, and with `canon` rule 1 of the twin parents after each move home
    /// (`twin_canon`, until it moves nothing): a twin that a card going home left free takes
    /// the run on its larger twin before the next safe move, so that two crossed positions
    /// settle alike (docs/solver.md, "Crossed twins").
    fn auto_then(&mut self, canon: bool) {
        let t = self.t;
        let w = t.width;
        let mut frows = std::mem::take(&mut self.frows);
        let mut every = std::mem::take(&mut self.every);
        let mut home = std::mem::take(&mut self.home);
        let mut want = std::mem::take(&mut self.want);
        if home.words.is_empty() {
            home = Bits::new(w);
            want = Bits::new(w);
        }
        loop {
            // want: the cards some foundation takes now (each foundation's row of `fit_bits`)
            self.fit_rows(Some(&mut frows), &mut want.words);
            if want.words.iter().all(|&b| b == 0) {
                break;
            }
            let mut home_filled = false;
            let mut played = None;
            for &s in &self.x.auto_sources {
                let pile = &self.g.piles[s];
                if pile.is_empty() || self.g.down[s] == pile.len() {
                    continue;
                }
                let card = *pile.last().unwrap();
                if !want.has(card as usize) {
                    continue;
                }
                self.homes_for(&frows, card, &mut every);
                let Some(first) = every.iter().copied().find(|&f| t.allowed[f][s]) else {
                    continue; // no foundation that takes it now takes it from here
                };
                if !home_filled {
                    self.fill_home(&mut home);
                    home_filled = true;
                }
                if !self.x.discard_ok.is_empty() && self.x.discard_ok[card as usize]
                    && (self.x.discard_below[card as usize].iter().all(|&d| home.has(d as usize))
                        || (self.x.discard_late && self.no_more_deals()))
                    && self.x.discard_never.iter().filter(|&&c| !home.has(c as usize)).count() >= self.x.discard_need
                {
                    // a safe discard, legal now (`Solver._auto`)
                    let legal = every.iter().copied().find(|&f| {
                        t.allowed[f][s] && !t.beaten_by[f].is_empty() && self.g.beaten(t, s, f, card)
                    });
                    if let Some(f) = legal {
                        played = Some((s, f, 1));
                        break;
                    }
                }
                if !self.home_is_safe(card as usize, &every, &home) && !self.returnable(s, first) {
                    continue;
                }
                played = Some((s, first, 1));
                break;
            }
            if played.is_none() && self.stock_home {
                if let Some((draws, m)) = self.safe_stock_card(&frows, &want, &mut every, &mut home, &mut home_filled) {
                    self.turn_stock(draws);
                    self.g.push(t, m);
                    self.trail.push(Step::Move(m));
                    while canon && self.twin_canon() {}
                    continue;
                }
            }
            match played {
                None => break,
                Some(m) => {
                    self.g.push(t, m);
                    self.trail.push(Step::Move(m));
                    while canon && self.twin_canon() {}
                }
            }
        }
        self.frows = frows;
        self.every = every;
        self.home = home;
        self.want = want;
    }

    /// Can no card come from the stock again (`Solver._no_more_deals`): no stock, or an empty
    /// one that deals onto several piles, or onto one with its redeals used up?
    fn no_more_deals(&self) -> bool {
        let t = self.t;
        let Some(st) = t.stock else { return true };
        if !self.g.piles[st].is_empty() {
            return false;
        }
        t.draw_targets.len() != 1 || t.redeals.is_some_and(|r| self.g.recycles >= r)
    }

    /// Where the row of the cards the `k`-th foundation takes on `top` (`t.width`: empty)
    /// starts in `fit_bits` (`fit_words` words).
    fn fit_at(&self, k: usize, top: usize) -> usize {
        (k * (self.t.width + 1) + top) * self.fit_words
    }

    /// The cards some foundation takes now, as bits, into `want` (cleared first; the words
    /// past `fit_words` stay clear), and with `rows`, each foundation's row of `fit_bits` now
    /// (`usize::MAX` where it is full).
    pub(crate) fn fit_rows(&self, mut rows: Option<&mut Vec<usize>>, want: &mut [u64]) {
        let t = self.t;
        if let Some(r) = rows.as_deref_mut() {
            r.clear();
        }
        want.fill(0);
        for (k, &f) in t.foundations.iter().enumerate() {
            let fp = &self.g.piles[f];
            let row = if fp.len() >= t.capacity[f] {
                usize::MAX
            } else {
                self.fit_at(k, fp.last().map_or(t.width, |&c| c as usize))
            };
            if let Some(r) = rows.as_deref_mut() {
                r.push(row);
            }
            if row != usize::MAX {
                for (a, b) in want.iter_mut().zip(&self.fit_bits[row..row + self.fit_words]) {
                    *a |= *b;
                }
            }
        }
    }

    /// The foundations that take `card` now (`rows` from `fit_rows`), in order, into `every`.
    fn homes_for(&self, rows: &[usize], card: u16, every: &mut Vec<usize>) {
        every.clear();
        let (word, bit) = (card as usize / 64, card % 64);
        for (k, &row) in rows.iter().enumerate() {
            if row != usize::MAX && self.fit_bits[row + word] >> bit & 1 != 0 {
                every.push(self.t.foundations[k]);
            }
        }
    }

    /// The cards on the foundations (full ones too), into `home`.
    fn fill_home(&self, home: &mut Bits) {
        home.clear();
        for &f in &self.t.foundations {
            for &c in &self.g.piles[f] {
                home.set(c as usize);
            }
        }
    }

    /// A card of the stock, or of the waste below its top, that may go home at once, with
    /// the draws that bring it to the waste's top (`Solver._safe_stock_card`; with
    /// `stock_home`: draw 1, unlimited redeals, so every card is within reach and the key
    /// does not hold where the turn has got to; docs/solver.md, "Safe moves home").
    fn safe_stock_card(&self, rows: &[usize], want: &Bits, every: &mut Vec<usize>, home: &mut Bits,
                       home_filled: &mut bool) -> Option<(usize, Move)> {
        let t = self.t;
        let (w, st) = (self.x.macro_waste?, t.stock?);
        let (waste, stock) = (&self.g.piles[w], &self.g.piles[st]);
        let total = waste.len() + stock.len();
        let l = waste.len();
        for i in 0..total {
            if i + 1 == l {
                continue; // the waste's top: an auto source
            }
            let card = if i < l { waste[i] } else { stock[stock.len() - 1 - (i - l)] };
            if !want.has(card as usize) {
                continue;
            }
            self.homes_for(rows, card, every);
            let Some(first) = every.iter().copied().find(|&f| t.allowed[f][w]) else { continue };
            if !*home_filled {
                self.fill_home(home);
                *home_filled = true;
            }
            if !self.home_is_safe(card as usize, every, home) {
                continue;
            }
            let draws = if i >= l { i + 1 - l } else { (total - l) + 1 + (i + 1) };
            return Some((draws, (w, first, 1)));
        }
        None
    }

    /// Play `times` stock actions at once (`Game.turn_stock`), recorded in the trail. The
    /// waste followed by the stock from its top down is one card sequence that draws and
    /// redeals never change, only where it is split between the two; so the draws move the
    /// split in place, and `undo` moves it back (no copy of either pile).
    fn turn_stock(&mut self, times: usize) {
        let t = self.t;
        let st = t.stock.unwrap();
        let w = t.draw_targets[0];
        let g = &mut self.g;
        let before = Step::Draws(times, g.piles[w].len(), g.down[st], g.recycles);
        let total = g.piles[w].len() + g.piles[st].len();
        let k = t.draw_count;
        let mut length = g.piles[w].len();
        let mut recycled = 0;
        for _ in 0..times {
            if length == total {
                length = 0;
                recycled += 1;
            } else {
                length = total.min(length + k);
            }
        }
        split_stock(g, st, w, length);
        if !t.stock_open {
            g.down[st] = g.piles[st].len();
        }
        g.recycles += recycled;
        self.trail.push(before);
    }

    /// Every waste card reachable by drawing, with the number of draws, played to each pile
    /// that takes it (`Solver._stock_moves`, without the stock-card waits).
    fn stock_moves(&mut self, w: usize, out: &mut Vec<(i32, usize, Move)>) {
        let mut scratch = std::mem::take(&mut self.sbuf);
        self.stock_moves_with(w, out, &mut scratch);
        self.sbuf = scratch;
    }

    /// The stock's and the waste's cards that can come to the waste's top (`used`): the
    /// waste's top and those the draws bring up (`turns`); all of them without stock
    /// macro-moves.
    fn stock_reach(&self, into: &mut Bits, seen_l: &mut Vec<bool>) {
        let t = self.t;
        let g = &self.g;
        if into.words.is_empty() {
            *into = Bits::new(t.width);
        }
        into.clear();
        let Some(st) = t.stock else { return };
        let Some(w) = self.x.macro_waste else {
            for p in std::iter::once(st).chain(t.draw_targets.iter().copied()) {
                for &c in &g.piles[p] {
                    into.set(c as usize);
                }
            }
            return;
        };
        if let Some(&c) = g.piles[w].last() {
            into.set(c as usize);
        }
        self.turns(w, seen_l, |_, card| into.set(card as usize));
    }

    /// The stock turned from where it is, through its redeals, each waste length once: for
    /// each draw that brings a card to the waste's top, the draws so far and that card.
    fn turns(&self, w: usize, seen_l: &mut Vec<bool>, mut visit: impl FnMut(usize, u16)) {
        let t = self.t;
        let g = &self.g;
        let stock = &g.piles[t.stock.unwrap()];
        let waste = &g.piles[w];
        // the waste, then the stock from its top down: the card sequence the draws go through
        let seq = |i: usize| if i < waste.len() { waste[i] } else { stock[stock.len() - 1 - (i - waste.len())] };
        let total = waste.len() + stock.len();
        let k = t.draw_count;
        let mut redeals_left: Option<i64> = t.redeals.map(|r| r as i64 - g.recycles as i64);
        let mut l = waste.len();
        let mut draws = 0usize;
        seen_l.clear();
        seen_l.resize(total + 1, false);
        seen_l[l] = true;
        loop {
            if total == l {
                if let Some(left) = redeals_left {
                    if left <= 0 {
                        break;
                    }
                    redeals_left = Some(left - 1);
                }
                l = 0;
                draws += 1;
                if seen_l[l] {
                    break;
                }
                seen_l[l] = true;
                continue;
            }
            l = total.min(l + k);
            draws += 1;
            if seen_l[l] {
                break;
            }
            seen_l[l] = true;
            visit(draws, seq(l - 1));
        }
    }

    fn stock_moves_with(&self, w: usize, out: &mut Vec<(i32, usize, Move)>, scratch: &mut StockScratch) {
        let t = self.t;
        let g = &self.g;
        if g.piles[w].len() + g.piles[t.stock.unwrap()].len() == 0 {
            return;
        }
        // the (card, pile) pairs a pile takes now, and the cards among them
        let StockScratch { pairs, cards, seen_l } = scratch;
        pairs.clear();
        if cards.words.is_empty() {
            *cards = Bits::new(t.width);
        }
        cards.clear();
        let mut any = false;
        for &d in &t.targets[w] {
            let dest = &g.piles[d];
            if t.min_accept[d] > 1 || t.max_accept[d] == 0 {
                continue; // one card at a time is not what this pile takes
            }
            let row = match dest.last() {
                Some(&top) => {
                    if g.down[d] == dest.len() || dest.len() >= t.capacity[d] {
                        continue;
                    }
                    top as usize
                }
                None => t.width,
            };
            for &c in &t.fits[d][row] {
                pairs.push((c, d));
                cards.set(c as usize);
                any = true;
            }
        }
        if !any {
            return;
        }
        self.turns(w, seen_l, |draws, card| {
            if !cards.has(card as usize) {
                return;
            }
            for &(_, d) in pairs.iter().filter(|e| e.0 == card) {
                if self.x.stock_defer && !t.is_foundation[d] && !self.stock_card_used(card, d) {
                    continue;
                }
                let pri = if t.is_foundation[d] { 100 } else { 60 };
                out.push((pri - (draws.min(50) / 4) as i32, draws, (w, d, 1)));
            }
        });
    }

    /// The canonical key (`Solver._key` without stock macro-moves: the stock and the waste
    /// are keyed as they lie, and the redeals used when they are limited).
    #[cfg(test)]
    fn key(&mut self) -> Box<[u16]> {
        let mut out: Vec<u16> = Vec::with_capacity(64);
        self.key_into(&mut out);
        out.into_boxed_slice()
    }

    /// `key`, written into `out` (cleared first). In a depth-first pass with `uncross`, the
    /// twins' piles as `uncrossed` leaves them.
    fn key_into(&mut self, out: &mut Vec<u16>) {
        out.clear();
        let (mut kbuf, mut kranges) = (std::mem::take(&mut self.kbuf), std::mem::take(&mut self.kranges));
        let mut vpiles = std::mem::take(&mut self.vpiles);
        let crossed = self.uncross && self.twins && self.dfs && self.uncrossed(&mut vpiles);
        let t = self.t;
        let x = self.x;
        let g = &self.g;
        let face = |c: u16| x.class(c);
        let pile_key = |i: usize, out: &mut Vec<u16>| {
            let p = if crossed && x.twin_pile[i] { &vpiles[i] } else { &g.piles[i] };
            if x.top_only[i] && !p.is_empty() {
                out.extend_from_slice(&[u16::MAX - 1, p.len() as u16, face(p[p.len() - 1])]);
            } else {
                out.extend_from_slice(&[g.down[i] as u16, p.len() as u16]);
                out.extend(p.iter().map(|&c| face(c)));
            }
        };
        for i in 0..t.count {
            if x.group_of[i] == usize::MAX && !self.in_tail(i) {
                pile_key(i, out);
            }
        }
        for grp in &x.groups {
            // the members' keys side by side in one buffer, sorted (below), then written out
            // in that order
            kbuf.clear();
            kranges.clear();
            for &i in grp {
                let at = kbuf.len();
                pile_key(i, &mut kbuf);
                kranges.push((slice_prefix(&kbuf[at..]), at as u32, kbuf.len() as u32));
            }
            // sorted by each member's first four words, then (equal ones) by the whole key: a
            // total order on the keys, so the group is written out the same way whatever the
            // members' order (the key stays canonical); the first words (face-down count,
            // length, bottom cards) nearly always differ, so few comparisons read further
            kranges.sort_unstable_by(|a, b| {
                a.0.cmp(&b.0).then_with(|| kbuf[a.1 as usize..a.2 as usize].cmp(&kbuf[b.1 as usize..b.2 as usize]))
            });
            for &(_, a, b) in &kranges {
                out.extend_from_slice(&kbuf[a as usize..b as usize]);
            }
        }
        self.key_tail(out, false);
        self.kbuf = kbuf;
        self.kranges = kranges;
        self.vpiles = vpiles;
    }

    /// The twins' piles into `vpiles` (indexed by pile) with every crossing of twin children
    /// undone, when there is one: where the two twin parents, face up on two of those piles,
    /// each carry one of two twin children (a run from it to the pile's top, built on the
    /// parent), the larger child on the smaller parent, the two runs change places
    /// (`crossing`), until no such pair is left; false (and `vpiles` as it was) when there was
    /// none. Each swap puts the smaller child on the smaller parent, and a later one changes
    /// the child a parent carries only where that parent is its own: at most one swap a pair,
    /// so it ends. The search tries the same moves from the position so written as from the
    /// real one (docs/solver.md, "Crossed twins"), so the two are keyed as one.
    fn uncrossed(&mut self, vpiles: &mut Vec<Vec<u16>>) -> bool {
        let (t, x) = (self.t, self.x);
        let mut parents = std::mem::take(&mut self.parents);
        let mut tail = std::mem::take(&mut self.tail);
        let mut next = crossing(t, x, &self.g.piles, &self.g.down, &mut parents);
        let crossed = next.is_some();
        if crossed {
            vpiles.resize_with(t.count, Vec::new);
            for (i, pile) in self.g.piles.iter().enumerate() {
                if x.twin_pile[i] {
                    vpiles[i].clear();
                    vpiles[i].extend_from_slice(pile);
                }
            }
        }
        while let Some((i, a, j, b)) = next {
            tail.clear();
            tail.extend_from_slice(&vpiles[i][a..]);
            vpiles[i].truncate(a);
            let (vi, vj) = if i < j {
                let (lo, hi) = vpiles.split_at_mut(j);
                (&mut lo[i], &mut hi[0])
            } else {
                let (lo, hi) = vpiles.split_at_mut(i);
                (&mut hi[0], &mut lo[j])
            };
            vi.extend_from_slice(&vj[b..]);
            vj.truncate(b);
            vj.extend_from_slice(&tail);
            next = crossing(t, x, vpiles, &self.g.down, &mut parents);
        }
        self.parents = parents;
        self.tail = tail;
        crossed
    }

    /// Pile `i` is keyed by `key_tail` (the stock and the waste of the stock macro-moves), not
    /// as a pile.
    fn in_tail(&self, i: usize) -> bool {
        self.x.macro_waste.is_some() && (Some(i) == self.t.stock || Some(i) == self.x.macro_waste)
    }

    /// The end of `key`: with stock macro-moves, the stock and the waste (their card
    /// sequence, and where the turn has got to where that matters and `visit` does not
    /// compare it by dominance; `turn` asks for it with unlimited redeals even so, for the
    /// guided pass's hashes, which no dominance compares); with counted redeals, the redeals
    /// used.
    fn key_tail(&self, out: &mut Vec<u16>, turn: bool) {
        let (t, x, g) = (self.t, self.x, &self.g);
        let face = |c: u16| x.class(c);
        let stock = t.stock.unwrap_or(usize::MAX);
        if let Some(w) = x.macro_waste {
            // the stock and waste by the card sequence they cycle through; with unlimited
            // redeals, where the turn has got to only off the draw count's phase (every
            // aligned point reaches every other), unless `visit` compares it by dominance
            let (waste, stock) = (&g.piles[w], &g.piles[stock]);
            out.push(u16::MAX - 2);
            out.push((waste.len() + stock.len()) as u16);
            out.extend(waste.iter().map(|&c| face(c)));
            out.extend(stock.iter().rev().map(|&c| face(c)));
            match t.redeals {
                None if self.dominance && !turn => {}
                None => {
                    if !stock.is_empty() && waste.len() % t.draw_count != 0 {
                        out.push(waste.len() as u16);
                    }
                }
                // with limited ones, where the turn has got to and the redeals used, unless
                // `visit` compares those by dominance
                Some(_) if !self.dominance => {
                    out.push(waste.len() as u16);
                    out.push(g.recycles as u16);
                }
                Some(_) => {}
            }
        } else if t.redeals.is_some() && t.stock.is_some() {
            out.push(g.recycles as u16);
        }
    }

    /// A 64-bit hash of `key` for the passes that prove nothing (the guided pass): positions
    /// with equal keys get equal hashes (each pile hashed as `key` writes it; an
    /// interchangeable group's pile hashes sorted, as `key` sorts the piles themselves, then
    /// the words of `key_tail`), without writing the key out.
    pub(crate) fn key_hash(&mut self, buf: &mut Vec<u16>) -> u64 {
        let (t, x) = (self.t, self.x);
        let g = &self.g;
        let pile_hash = |i: usize| {
            let p = &g.piles[i];
            let mut h = Fx::default();
            let face = |c: u16| x.class(c) as u64;
            if x.top_only[i] && !p.is_empty() {
                h.add(u16::MAX as u64 - 1);
                h.add(p.len() as u64);
                h.add(face(p[p.len() - 1]));
            } else {
                h.add(g.down[i] as u64);
                h.add(p.len() as u64);
                // four cards a step (the length above keeps the zeros of a last short step apart)
                h.add_quads(p, face);
            }
            h.finish()
        };
        let mut h = Fx::default();
        for i in 0..t.count {
            if x.group_of[i] == usize::MAX && !self.in_tail(i) {
                h.add(pile_hash(i));
            }
        }
        let mut small = [0u64; 16];
        let mut large: Vec<u64> = Vec::new();
        for grp in &x.groups {
            let members: &mut [u64] = if grp.len() <= small.len() {
                &mut small[..grp.len()]
            } else {
                large.resize(grp.len(), 0);
                &mut large[..]
            };
            for (k, &i) in grp.iter().enumerate() {
                members[k] = pile_hash(i);
            }
            members.sort_unstable();
            h.add(u64::MAX);
            for &m in members.iter() {
                h.add(m);
            }
        }
        buf.clear();
        self.key_tail(buf, true);
        // four words a step, the length first (the stock and waste's card sequence is most of it)
        h.add(buf.len() as u64);
        h.add_quads(buf, |k| k as u64);
        h.finish()
    }

    /// Record this position; false when it (or one that dominates it) was stored before
    /// (`Solver._visit`). With limited redeals the key holds the stock and waste as one card
    /// sequence, and where the turn has got to (waste length L, redeals used r) is compared
    /// by dominance: (L1, r1) reaches everything (L2, r2) does when it can draw on to L2 in
    /// the same pass (r1 <= r2, L1 <= L2, the same phase of the draw count or L2 the end),
    /// or redeal first to reach L2 on a later pass (r1 < r2 and L2 a multiple of the draw
    /// count, or the end); every other move is open from both, so the stored one's lines
    /// include the new one's. With unlimited redeals and more than one card a draw, the
    /// same without the redeals: L1 reaches L2 when it can draw on to it, or L2 is aligned
    /// (a multiple of the draw count, or the end: draw to the end, redeal, draw on to it).
    fn visit(&mut self) -> bool {
        // the key written into a reused buffer, and copied out only when stored: most
        // positions a depth-first pass steps to were stored before
        let mut k = std::mem::take(&mut self.vbuf);
        self.key_into(&mut k);
        let fresh = self.visit_key(&k);
        self.vbuf = k;
        fresh
    }

    fn visit_key(&mut self, k: &[u16]) -> bool {
        if !self.dominance {
            return match &self.shared {
                Some(table) => table.insert(k),
                None => self.seen.insert(k),
            };
        }
        let t = self.t;
        let w = self.x.macro_waste.unwrap();
        let l2 = self.g.piles[w].len() as u32;
        let total = l2 + self.g.piles[t.stock.unwrap()].len() as u32;
        let r2 = self.g.recycles;
        let kc = t.draw_count as u32;
        let aligned = l2.is_multiple_of(kc) || total == l2;
        let covers = |(l1, r1): (u32, u32)| match t.redeals {
            None => aligned || (l1 <= l2 && (l2 - l1).is_multiple_of(kc)),
            Some(_) => (r1 <= r2 && l1 <= l2 && ((l2 - l1).is_multiple_of(kc) || total == l2)) || (r1 < r2 && aligned),
        };
        match &self.shared {
            Some(table) => table.visit(k, (l2, r2), covers),
            None => self.turns.visit(k, (l2, r2), covers),
        }
    }

    /// May the face-up card at index `i` of pile `p` move now, with the cards on it
    /// (`Solver._free`)?
    fn free(&self, p: usize, i: usize) -> bool {
        free_in(self.t, p, &self.g.piles[p], i)
    }

    /// May a card other than `moved` go onto `under` (the top of `src` once a run from
    /// `moved` up leaves it) right now (`Solver._wanted_on`, which proves the wait exact: a
    /// move of a run off a face-up card X can always be put off until just before X is used
    /// -- X goes home, a card goes onto X, or X moves -- so when nothing can go onto X and X
    /// cannot go home, the move may wait; only with `defer`, runs of any length moving).
    fn wanted_on(&self, under: usize, src: usize, moved: u16) -> bool {
        self.wanted_on_from(under, src, moved, None)
    }

    /// `wanted_on`, a stock or waste card counting only when `reach` (where given) holds it:
    /// the compiled core leaves out a move back onto the larger twin when no card can go onto
    /// the smaller next (docs/solver.md, "Twin parents"), as the position after it would try
    /// nothing and stores nothing, as `take_back_used`.
    fn wanted_on_from(&self, under: usize, src: usize, moved: u16, reach: Option<&Bits>) -> bool {
        let t = self.t;
        let g = &self.g;
        let stock = t.stock.unwrap_or(usize::MAX);
        for &c in &t.fits[src][under] {
            if c == moved {
                continue;
            }
            for p in 0..t.count {
                let pile = &g.piles[p];
                let Some(i) = pile.iter().position(|&y| y == c) else { continue };
                if p == src {
                    // a card of the run moved off (it could come back onto `under`)
                    if pile.iter().position(|&y| y == moved).is_some_and(|j| i > j) {
                        return true;
                    }
                    break;
                }
                if p == stock || Some(p) == self.x.macro_waste {
                    if reach.is_none_or(|r| r.has(c as usize)) {
                        return true;
                    }
                    break;
                }
                if i < g.down[p] {
                    break;
                }
                if t.is_foundation[p] {
                    if t.gives[p] != GIVES_NONE {
                        return true;
                    }
                    break;
                }
                if t.targets[p].contains(&src) && self.free(p, i) {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// May a card go onto `card` (from the stock or waste) in `dst` right after it
    /// (`Solver._stock_card_used`)? With `stock_defer` (draw 1, unlimited redeals) every
    /// stock and waste card can be played at any time, so playing one to a pile other than
    /// a foundation can wait until just before it is used: a card goes onto it, it moves on,
    /// or it is carried with the cards under it; meanwhile it covers only the card it would
    /// have gone onto. The card that goes onto it may come from the stock too, so chains of
    /// stock cards are followed until a card that can move now from another pile.
    fn stock_card_used(&self, card: u16, dst: usize) -> bool {
        let t = self.t;
        let g = &self.g;
        let (Some(st), Some(w)) = (t.stock, self.x.macro_waste) else { return true };
        // a chain of stock cards is short: its cards seen, and those left to follow, on the
        // stack while it fits
        let mut seen = CardStack::default();
        seen.push(card);
        let mut todo = CardStack::default();
        todo.push(card);
        while let Some(x) = todo.pop() {
            for &c in &t.fits[dst][x as usize] {
                if seen.contains(c) {
                    continue;
                }
                seen.push(c);
                // where c lies (`loc`, written by `moves_into`, the one caller)
                let (p, i) = ((self.loc[c as usize] >> 16) as usize, (self.loc[c as usize] & 0xffff) as usize);
                if p == st || p == w {
                    todo.push(c);
                    continue;
                }
                if p != dst && t.sources.contains(&p) && i >= g.down[p] && t.targets[p].contains(&dst)
                    && (t.is_foundation[p] || self.free(p, i))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Could `card` (left on top of foundation `src` once `moved` goes to `dst`) move next
    /// (`Solver._can_follow`)? Next, or after other moves that may wait until they are used
    /// have made a card it fits on a top: a face-up card under a run, a foundation card, a
    /// stock card (with `stock_defer`). Counting those keeps two such moves that wait for
    /// each other from both being cut.
    ///
    /// Why the wait is exact (with `found_defer`: each foundation takes at most one card on
    /// each top, every receiver defers): taking X back from a foundation changes nothing
    /// but X's place, and the foundation takes nothing but X back meanwhile, so the move can
    /// be put off until just before X is used (a card goes onto X, or X moves on) or the
    /// card under X is (it leaves the foundation next); when none of those can come next,
    /// the move waits or is never needed.
    fn can_follow(&self, card: u16, src: usize, dst: usize, moved: u16) -> bool {
        let t = self.t;
        let x = self.x;
        for &d in &t.targets[src] {
            if d == dst {
                if t.accept[d][moved as usize * t.width + card as usize] != 0 {
                    return true;
                }
            } else if self.fits_now(card as usize, d) {
                return true;
            }
        }
        let onto = match x.onto.get(src) {
            Some(rows) if !rows.is_empty() => &rows[card as usize],
            _ => return false,
        };
        if onto.is_empty() {
            return false;
        }
        let g = &self.g;
        let stock = t.stock.unwrap_or(usize::MAX);
        let mut soon = Bits::new(t.width);
        for p in 0..t.count {
            if p == src {
                continue;
            }
            let cards: &[u16] = if t.is_foundation[p] {
                if t.gives[p] == GIVES_NONE {
                    continue;
                }
                &g.piles[p]
            } else if p == stock || Some(p) == x.macro_waste {
                if !x.stock_defer {
                    continue;
                }
                &g.piles[p]
            } else if x.defer.get(p) == Some(&true) {
                &g.piles[p][g.down[p]..]
            } else {
                continue;
            };
            for &y in cards {
                soon.set(y as usize);
            }
        }
        onto.iter().any(|&y| soon.has(y as usize))
    }

    fn fits_now(&self, card: usize, d: usize) -> bool {
        let t = self.t;
        let dest = &self.g.piles[d];
        let row = if let Some(&top) = dest.last() {
            if self.g.down[d] == dest.len() {
                return false;
            }
            top as usize * t.width
        } else {
            t.width * t.width
        };
        t.accept[d][row + card] != 0 && dest.len() < t.capacity[d]
    }

    /// A move of cards to an empty pile of an interchangeable group when the same cards may
    /// go to the group's first empty pile instead (that move is legal too, and is kept): the
    /// rules treat the members alike (their tables and neighbours are identical, which is
    /// what makes them a group), so swapping two empty members maps the position onto
    /// itself and the one move's outcome onto the other's. Skipping the twin loses no win
    /// and no proof: it is the transposition table's own argument (both keys are equal),
    /// made before the move is played instead of after (docs/solver.md, "Empty twins").
    fn twin_of_earlier(&self, legal: &[Move], m: Move) -> bool {
        let (src, dst, n) = m;
        let x = self.x;
        let group = x.group_of[dst];
        if group == usize::MAX || !self.g.piles[dst].is_empty() {
            return false;
        }
        let piles = &self.g.piles;
        match x.groups[group].iter().copied().find(|&e| e != src && piles[e].is_empty() && self.g.down[e] == 0) {
            Some(e) if e != dst && self.g.down[dst] == 0 => legal.contains(&(src, e, n)),
            _ => false,
        }
    }

    /// The moves to try here, best first (`Solver._moves`; with `prune`, the greedy passes' cuts).
    fn moves(&mut self) -> Vec<(usize, Move)> {
        let mut out = Vec::new();
        self.moves_into(&mut out);
        out
    }

    /// `moves`, appended to `to` (the depth-first pass keeps every open position's moves in
    /// one stack).
    fn moves_into(&mut self, to: &mut Vec<(usize, Move)>) {
        let t = self.t;
        let x = self.x;
        let mut legal = std::mem::take(&mut self.buf);
        self.g.legal_moves(t, &mut legal);
        let pending = self.pending();
        if let Some((home, onto)) = pending {
            self.uses(&mut legal, home, onto); // only the uses of the card just taken back
        }
        let twin_pending = self.twin_pending();
        if let Some((s, d, n)) = twin_pending {
            // only the uses of the twin just uncovered: a card onto it (not the run back), or
            // it alone to a pile outside the group
            legal.retain(|&m| (m.1 == s && m != (d, s, n)) || (m.0 == s && m.2 == 1 && !x.twin_pile[m.1]));
        }
        let takes_back = self.dfs && self.back_any
            && legal.iter().any(|&(s, d, _)| t.is_foundation[s] && !t.is_foundation[d]);
        if takes_back {
            let (mut reach, mut scratch) = (std::mem::take(&mut self.reach), std::mem::take(&mut self.sbuf));
            self.stock_reach(&mut reach, &mut scratch.seen_l);
            (self.reach, self.sbuf) = (reach, scratch);
        }
        let mut reach_ready = takes_back; // `reach` holds this position's stock cards in reach
        if x.stock_defer || takes_back {
            self.loc.resize(t.width, u32::MAX);
            for (p, pile) in self.g.piles.iter().enumerate() {
                for (i, &c) in pile.iter().enumerate() {
                    self.loc[c as usize] = (p as u32) << 16 | i as u32;
                }
            }
        }
        let mut out = std::mem::take(&mut self.mbuf);
        out.clear();
        let piles = &self.g.piles;
        let down = &self.g.down;
        for &m in &legal {
            let (src, dst, n) = m;
            if n == 0 {
                if x.macro_waste.is_none() {
                    out.push((5, 0, m));
                }
                continue;
            }
            if n == PAIR {
                out.push((100, 0, m)); // a pair, to the discard pile
                continue;
            }
            if self.twin_of_earlier(&legal, m) {
                continue; // the same cards to another empty twin: the same position, mirrored
            }
            let pile = &piles[src];
            let left = pile.len() - n;
            if t.is_foundation[dst] {
                out.push((100 + if left > 0 && left == down[src] { 5 } else { 0 }, 0, m));
                continue;
            }
            if t.is_foundation[src] {
                // a card taken back from a foundation: only when a card can go onto it next,
                // or the card under it can leave the foundation next (it can wait until then,
                // as the foundation takes nothing but it meanwhile: see can_follow)
                let top = pile[pile.len() - 1];
                let waits = |s: &Self| {
                    x.found_defer && pile.len() > 1 && !s.wanted_on(top as usize, dst, NO_CARD)
                        && !s.can_follow(pile[pile.len() - 2], src, dst, top)
                };
                if self.prune {
                    // left out; a cut only if the exact search would try it (once is enough)
                    self.cut = self.cut || !waits(self);
                    continue;
                }
                if waits(self) || (self.dfs && self.back_any && !self.take_back_used(src, dst)) {
                    continue;
                }
                out.push((2, 0, m));
                continue;
            }
            let dest = &piles[dst];
            if left == 0 && down[src] == 0 && dest.is_empty() && x.group_of[src] != usize::MAX
                && x.group_of[src] == x.group_of[dst] && t.fill[src].is_empty()
            {
                continue; // a pile moved whole to an empty twin: the same position
            }
            if left > 0 && left == down[src] {
                out.push((90 - down[src] as i32, 0, m));
            } else if x.waste_like[src] || Some(src) == x.macro_waste {
                if x.stock_defer && Some(src) == x.macro_waste && !self.stock_card_used(pile[pile.len() - 1], dst) {
                    continue; // it can wait until a card goes onto it (see stock_card_used)
                }
                out.push((60, 0, m));
            } else if left == 0 {
                if self.prune && dest.is_empty() {
                    self.cut = true;
                } else {
                    out.push((40, 0, m));
                }
            } else {
                let under = pile[left - 1] as usize;
                if t.targets[src].iter().any(|&f| t.is_foundation[f] && self.fits_now(under, f)) {
                    out.push((30, 0, m));
                } else {
                    let waits = |s: &Self| {
                        x.defer.get(src) == Some(&true) && t.seq[src][under * t.width + pile[left] as usize] != 0
                            && !s.wanted_on(under, src, pile[left])
                    };
                    if self.prune {
                        self.cut = self.cut || !waits(self); // (as above)
                    } else if !waits(self) {
                        if self.twins && self.twin_back(under, dst) {
                            // a run back onto the larger twin: only a card onto `under` can
                            // use it next (it cannot go home now), none can come from where
                            // it lies, and the position after it would try nothing
                            if !reach_ready {
                                let (mut reach, mut scratch) = (std::mem::take(&mut self.reach), std::mem::take(&mut self.sbuf));
                                self.stock_reach(&mut reach, &mut scratch.seen_l);
                                (self.reach, self.sbuf) = (reach, scratch);
                                reach_ready = true;
                            }
                            if !self.wanted_on_from(under, src, pile[left], Some(&self.reach)) {
                                continue;
                            }
                        }
                        out.push((10, 0, m)); // (else it can wait until `under` is used: see wanted_on)
                    }
                }
            }
        }
        self.buf = legal;
        if let Some(w) = x.macro_waste {
            let before = out.len();
            self.stock_moves(w, &mut out);
            if let Some(onto) = pending.map(|p| p.1).or(twin_pending.map(|p| p.0)) {
                let mut kept = before;
                for i in before..out.len() {
                    if (out[i].2).1 == onto {
                        out.swap(kept, i);
                        kept += 1;
                    }
                }
                out.truncate(kept);
            }
        }
        out.sort_by_key(|e| (-e.0, e.1));
        to.extend(out.iter().map(|e| (e.1, e.2)));
        self.mbuf = out;
    }

    /// The trail as moves, a macro-move's draws written out as draw moves.
    fn line(&self) -> Vec<Move> {
        let t = self.t;
        let mut out = Vec::new();
        for step in &self.trail {
            match step {
                Step::Move(m) => out.push(*m),
                Step::Draws(times, ..) => {
                    out.extend(std::iter::repeat_n((t.stock.unwrap(), t.draw_targets[0], 0), *times));
                }
            }
        }
        out
    }

    fn undo(&mut self, mark: usize) {
        let t = self.t;
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Step::Move(_)) => {
                    self.g.pop(t);
                }
                Some(Step::Draws(_, waste, down, recycles)) => {
                    let (st, w) = (t.stock.unwrap(), t.draw_targets[0]);
                    split_stock(&mut self.g, st, w, waste);
                    self.g.down[st] = down;
                    self.g.recycles = recycles;
                }
                None => break,
            }
        }
    }

    /// The best-first pass's distance to a win (search.py's `h`): the cards not home, and
    /// three for each face-down card outside the stock.
    fn distance(&self) -> u64 {
        let t = self.t;
        let g = &self.g;
        let home: usize = t.foundations.iter().map(|&f| g.piles[f].len()).sum();
        let stock = t.stock.unwrap_or(usize::MAX);
        let hidden: usize = (0..t.count).filter(|&i| i != stock).map(|i| g.down[i]).sum();
        (self.x.deck_size.saturating_sub(home) + 3 * hidden) as u64
    }

    /// Greedy best-first (`Solver._best_first`): always expand the open position with the
    /// fewest cards away from home and face down (of two alike, the newer). It finds many
    /// wins a depth-first pass misses after a bad early choice. Pruned like the greedy pass
    /// (the moves of `moves` with `prune`), so running out of positions proves nothing: it
    /// answers `Unknown` then, never `Unwinnable`. It stops, `Unknown`, when it has stored
    /// `max_states` positions, when more than a quarter of that wait in the open list, or at
    /// the deadline. Each open position is kept as a snapshot; each one generated as a node
    /// (its parent, the draws and the move that led to it, the safe moves home played on
    /// reaching it), so a win is the line from the root, which the caller replays.
    pub fn best_first(&mut self, budget: &Budget) -> Outcome {
        self.prune = true;
        self.stock_home = self.x.stock_home && !budget.no_stock_home;
        let t = self.t;
        let waste = t.draw_targets.first().copied().unwrap_or(0);
        let stock = t.stock.unwrap_or(0);
        let mut nodes: Vec<Node> = vec![Node { parent: u32::MAX, draws: 0, mv: NO_MOVE, autos: (0, 0) }];
        let mut autos: Vec<[u32; 3]> = Vec::new();
        // max-heap on (u32::MAX - distance) << 32 | node: the least distance, then the newest
        let key = |h: u64, id: usize| ((u32::MAX as u64 - h.min(u32::MAX as u64)) << 32) | id as u64;
        let mut open: BinaryHeap<(u64, Box<[u16]>)> = BinaryHeap::new();
        open.push((key(self.distance(), 0), self.g.snapshot()));
        let cap = budget.max_states / 4;
        let outcome = loop {
            let Some((k, snap)) = open.pop() else { break Outcome::Unknown };
            self.count += 1;
            if self.stored() >= budget.max_states || open.len() > cap || budget.worked(self.work)
                || (self.count & 63 == 0 && budget.over())
            {
                break Outcome::Unknown;
            }
            let idx = (k & 0xffff_ffff) as usize;
            self.trail.clear();
            self.g.restore(&snap);
            self.auto();
            let first = autos.len() as u32;
            for step in &self.trail {
                match step {
                    Step::Move(m) => autos.push(pack(*m)),
                    // the draws that bring a stock card up to go home (`stock_home`)
                    Step::Draws(times, ..) => autos.extend(std::iter::repeat_n(pack((stock, waste, 0)), *times)),
                }
            }
            nodes[idx].autos = (first, autos.len() as u32);
            if self.g.won(t) {
                // the line from the root: each node's edge, then its safe moves home
                let mut chain = Vec::new();
                let mut at = idx;
                while at != u32::MAX as usize {
                    chain.push(at);
                    at = nodes[at].parent as usize;
                }
                let mut line = Vec::new();
                for &i in chain.iter().rev() {
                    let n = &nodes[i];
                    line.extend(std::iter::repeat_n((stock, waste, 0), n.draws as usize));
                    if n.mv != NO_MOVE {
                        line.push(unpack(n.mv));
                    }
                    line.extend(autos[n.autos.0 as usize..n.autos.1 as usize].iter().map(|&m| unpack(m)));
                }
                break Outcome::Win(line);
            }
            if !self.visit() {
                continue;
            }
            let base = self.trail.len();
            for (draws, m) in self.moves() {
                if draws > 0 {
                    self.turn_stock(draws);
                }
                self.g.push(t, m);
                self.trail.push(Step::Move(m));
                nodes.push(Node { parent: idx as u32, draws: draws as u32, mv: pack(m), autos: (0, 0) });
                self.work += 1;
                open.push((key(self.distance(), nodes.len() - 1), self.g.snapshot()));
                self.undo(base);
            }
        };
        self.states = self.stored();
        outcome
    }

    /// A card that can never go home is left (`Solver._dead_card`, docs/solver.md "Dead
    /// cards"): a card c of a pile in `dead_piles` must go onto a foundation f, on a card that
    /// f's row admits below c (or onto f empty); that card must be f's top now, or still
    /// outside the foundations and free to go before c: not under c in its pile, nor in a
    /// pile that c's pile covers.
    pub fn dead_card(&self) -> bool {
        let (t, x, piles) = (self.t, self.x, &self.g.piles);
        let mut at = vec![(usize::MAX, 0usize); t.width];
        for (p, pile) in piles.iter().enumerate() {
            if !t.is_foundation[p] {
                for (i, &c) in pile.iter().enumerate() {
                    at[c as usize] = (p, i);
                }
            }
        }
        for &p in &x.dead_piles {
            let under = &x.dead_under[p];
            'card: for (i, &c) in piles[p].iter().enumerate() {
                let c = c as usize;
                for (k, &f) in t.foundations.iter().enumerate() {
                    match piles[f].last() {
                        None => {
                            if x.start[f].iter().any(|&s| s as usize == c) {
                                continue 'card;
                            }
                        }
                        Some(&top) => {
                            if t.fits[f][top as usize].iter().any(|&s| s as usize == c) {
                                continue 'card;
                            }
                        }
                    }
                    for &y in &x.dead_pred[k][c] {
                        let (q, j) = at[y as usize];
                        if q == usize::MAX || (q == p && j < i) || under.contains(&q) {
                            continue; // home, or it cannot leave before c
                        }
                        continue 'card;
                    }
                }
                return true;
            }
        }
        false
    }

    /// Can some card of the position never get home, whatever is played (`deadlock`)?
    pub fn deadlocked(&mut self) -> bool {
        self.x.deadlock.lost(self.t, &self.g.piles, &self.g.down, &mut self.dl)
    }

    /// Depth first from the current position (`Solver._dfs`).
    pub fn run(&mut self, budget: &Budget) -> Outcome {
        // every open position's moves, one after another in `stack`; a frame is the end of
        // its moves there, the next to try, the trail's length before its safe moves home
        // and after them
        // (kept when the budget stops the pass, so that `run` again goes on where it stopped)
        let mut stack = std::mem::take(&mut self.dfs_stack);
        let mut frames = std::mem::take(&mut self.dfs_frames); // end, next, mark, inner
        self.stock_home = self.x.stock_home && !budget.no_stock_home;
        self.dfs = true;
        let outcome = loop {
            self.count += 1;
            if self.stored() >= budget.max_states || budget.worked(self.work)
                || (self.count & 255 == 0 && budget.over())
            {
                break Outcome::Unknown;
            }
            self.work += 1;
            let mark = self.trail.len();
            let pending = self.pending().is_some() || self.twin_pending().is_some();
            if !pending {
                // rule 1 of the twin parents first, then after each safe move home
                while self.twins && self.twin_canon() {}
                self.auto_then(self.twins);
            }
            if self.g.won(self.t) {
                break Outcome::Win(self.line());
            }
            let fresh = std::mem::take(&mut self.enter) || pending || self.visit();
            if !fresh && self.shared.as_ref().is_some_and(|table| table.full()) {
                // the shared table had no room for this position: the budget is spent
                self.undo(mark);
                break Outcome::Unknown;
            }
            if !fresh || (!self.x.dead_piles.is_empty() && self.dead_card()) || (self.x.deadlock.node && self.deadlocked()) {
                self.undo(mark);
            } else {
                let start = stack.len();
                self.moves_into(&mut stack);
                if self.reverse {
                    stack[start..].reverse();
                }
                // the move straight back, when the move here did nothing else and no safe move
                // followed it: the position before it, which is on the line (all it leads to is
                // searched from there), so skipped without stepping there (where the step would
                // find it stored, or, a position not looked up, a card just taken back or a
                // twin just uncovered, try its uses again: docs/solver.md, "The move straight
                // back"; search.py's `_pass_back_by`); unless the move back would empty a
                // pile that is filled or uncovers others when empty (then it reaches another
                // position: a column filled from the stock); nor where the position before was
                // one just after a card was taken back (`pending`), whose moves were only that
                // card's uses
                if self.skip_back && self.trail.len() == mark && !pending
                    && mark.checked_sub(2).is_none_or(|i| self.pending_after(i).is_none())
                {
                    if let (Some(Step::Move(m)), Some(last)) = (self.trail.last(), self.g.last_plain()) {
                        let (t, back_from) = (self.t, m.1);
                        let refills = self.g.piles[back_from].len() <= m.2
                            && !(t.fill[back_from].is_empty() && t.uncovers[back_from].is_empty());
                        if *m == last && !refills {
                            let back = (0, (m.1, m.0, m.2));
                            if let Some(j) = stack[start..].iter().position(|&e| e == back) {
                                stack.remove(start + j);
                            }
                        }
                    }
                }
                frames.push((stack.len(), start, mark, self.trail.len()));
            }
            let mut next = None;
            while let Some(frame) = frames.last_mut() {
                let (inner, mark) = (frame.3, frame.2);
                let m = if frame.1 < frame.0 { Some(stack[frame.1]) } else { None };
                frame.1 += 1;
                self.undo(inner);
                match m {
                    None => {
                        self.undo(mark);
                        frames.pop();
                        let below = frames.last().map_or(0, |f| f.0);
                        stack.truncate(below);
                    }
                    Some(m) => {
                        next = Some(m);
                        break;
                    }
                }
            }
            match next {
                None => break Outcome::Unwinnable,
                Some((draws, m)) => {
                    if draws > 0 {
                        self.turn_stock(draws);
                    }
                    self.g.push(self.t, m);
                    self.trail.push(Step::Move(m));
                }
            }
        };
        if outcome == Outcome::Unknown {
            self.dfs_stack = stack;
            self.dfs_frames = frames;
        }
        self.dfs = false;
        self.states = self.stored();
        outcome
    }
}

/// The same game with draw 1 and unlimited redeals (`Rules.derive(draw_count=1,
/// redeals=None)`, its own tables), for the relaxation proof, and the seconds it may take.
pub struct Relaxed<'a> {
    pub t: &'a Tables,
    pub x: &'a SearchTables,
    pub share: Option<f64>,
}

/// A winning line from `start` with its detours cut: the line's positions are numbered in
/// order (each by its exact contents, `State::snapshot`: every pile's cards, face-down count
/// and the redeals used), and from each position the line goes on by the legal move that
/// reaches the position of the line furthest on (its own next move at least). The result is a line of
/// the game's legal moves through positions of the given line to its end, won, no longer
/// than it: a depth-first search's line, found millions of positions deep, can wander through
/// a hundred thousand moves (Klondike draw 3 deal 186) where a few hundred win.
pub fn shortened(t: &Tables, start: &State, line: &[Move]) -> Vec<Move> {
    let mut g = start.clone();
    // each position's last place on the line (a position met twice is left at its last)
    let mut at = std::collections::HashMap::with_capacity(line.len() + 1);
    at.insert(g.snapshot(), 0);
    for (i, &m) in line.iter().enumerate() {
        g.push(t, m);
        at.insert(g.snapshot(), i + 1);
    }
    let mut g = start.clone();
    let mut i = at[&g.snapshot()];
    let (mut out, mut legal) = (Vec::new(), Vec::new());
    while i < line.len() {
        let mut best = (i + 1, line[i]);
        g.legal_moves(t, &mut legal);
        for &m in &legal {
            g.push(t, m);
            if let Some(&j) = at.get(&g.snapshot()) {
                if j > best.0 {
                    best = (j, m);
                }
            }
            g.pop(t);
        }
        g.push(t, best.1);
        out.push(best.1);
        i = best.0;
    }
    out
}

/// The portfolio of search.py: the greedy pass (pruned, until
/// `greedy_deadline` or the states budget), then, with `relaxed`, the relaxation proof
/// (the exact search of the position under draw 1 and unlimited redeals: its exhaustion
/// answers "unwinnable", as search.py's `_lost_with_every_stock_card_free` proves), then
/// the best-first pass (pruned too, until
/// `best_deadline` or the budget), then, with `guided` (its deadline and states budget), the
/// guided pass (`guided::guided`: it only ever wins), then, unless one of them won, the exact
/// search with the whole budget; only the exact search's exhaustion answers "unwinnable" (a
/// pruned pass that runs out of moves proves nothing). Each pass may store `budget.max_states`
/// states, as in search.py. `budget.max_work`, when given, is the work of the whole solve:
/// the positions all its passes together may reach (`Search::work`), each pass having what
/// the passes before it left (none left: it stops at once, "unknown"); the relaxation proof,
/// which can only prove a loss, has no share of it. It only ever stops a pass early: it
/// never makes a proof. Returns the outcome, the states stored by every
/// pass, and which pass decided.
#[allow(clippy::too_many_arguments)]
pub fn solve(t: &Tables, x: &SearchTables, g: State, budget: &Budget, greedy_deadline: Option<Instant>,
             best_deadline: Option<Instant>, relaxed: Option<Relaxed<'_>>,
             guided: Option<&Budget>) -> (Outcome, usize, &'static str) {
    if let Some(answer) = before_search(t, x, &g, budget) {
        return answer;
    }
    passes(t, x, g, budget, greedy_deadline, best_deadline, relaxed, guided, true)
}

/// The answer before any pass searches: "unknown" when cancelled already, "unwinnable"
/// (`blocked`) when the deadlock proof sees the position lost (`Solver._blocked`), else None.
fn before_search(t: &Tables, x: &SearchTables, g: &State, budget: &Budget) -> Option<(Outcome, usize, &'static str)> {
    if budget.cancelled() {
        return Some((Outcome::Unknown, 0, ""));
    }
    if x.deadlock.lost(t, &g.piles, &g.down, &mut Scratch::default()) {
        return Some((Outcome::Unwinnable, 0, "blocked"));
    }
    None
}

/// The portfolio in two threads: the exact search in one, with the whole budget (its states
/// and the deadline) from the start, and the other passes of `solve` in this one, one after
/// another as there (their deadlines are the caller's), without the exact search at their
/// end. When they end undecided before the deadline, this thread joins the exact search
/// (`Search::join`): the two share one table, each expanding the positions it stored first,
/// this one taking each position's moves in the reverse order. The first to decide stops the
/// other (a flag each looks at where it looks at its deadline: `Budget::decided`), and its
/// answer is the solve's; the states are both threads'. A win is a line either way. A proof
/// is still only an exhausted exact search (or the greedy pass's, the relaxation's or the
/// deadlock proof's, as in `solve`): the first thread's alone when this one had not joined by
/// then, else both threads' (every position either stored, the one that stored it expanded:
/// the same closed set of positions one thread would have stored), so the two threads never
/// disagree. Which decides first depends on the machine, so a caller that wants the same
/// answer anywhere (a budget of states alone) runs `solve`. Where turn positions are compared
/// by dominance (limited redeals, or more than one card a draw), the shared table compares
/// them so too (`SharedKeys::visit`): a position either thread passes by is covered by one
/// that one of them stored and expands, as in one thread.
#[allow(clippy::too_many_arguments)]
pub fn solve_parallel(t: &Tables, x: &SearchTables, g: State, budget: &Budget, greedy_deadline: Option<Instant>,
                      best_deadline: Option<Instant>, relaxed: Option<Relaxed<'_>>,
                      guided: Option<&Budget>) -> (Outcome, usize, &'static str) {
    if let Some(answer) = before_search(t, x, &g, budget) {
        return answer;
    }
    let decided = Arc::new(AtomicBool::new(false));
    // set (before it stores anything) by this thread when it joins the exact search
    let joined = AtomicBool::new(false);
    let table = Arc::new(SharedKeys::new(budget.max_states));
    let mine = Budget { decided: Some(decided.clone()), ..budget.clone() };
    let guided = guided.map(|b| Budget { decided: Some(decided.clone()), ..b.clone() });
    let exact_g = g.clone();
    std::thread::scope(|scope| {
        let exact = scope.spawn(|| {
            let mut exact = Search::new(t, x, exact_g);
            exact.share(table.clone());
            let outcome = exact.run(&mine);
            // out of moves before the other thread joined: every position it stored is its
            // own, expanded, and that is the proof
            let alone = outcome == Outcome::Unwinnable && !joined.load(Ordering::SeqCst);
            if matches!(outcome, Outcome::Win(_)) || alone {
                decided.store(true, Ordering::SeqCst);
            }
            (outcome, alone)
        });
        let (outcome, states, method) = passes(t, x, g.clone(), &mine, greedy_deadline, best_deadline, relaxed, guided.as_ref(), false);
        if outcome != Outcome::Unknown {
            decided.store(true, Ordering::SeqCst);
        }
        let mut joint = None;
        let mut second = Search::new(t, x, g);
        if outcome == Outcome::Unknown && !mine.over() {
            second.join(table.clone());
            joined.store(true, Ordering::SeqCst);
            if !decided.load(Ordering::SeqCst) {
                let found = second.run(&mine);
                if matches!(found, Outcome::Win(_)) {
                    decided.store(true, Ordering::SeqCst);
                }
                joint = Some(found);
            }
        }
        // a panic in the exact search's thread is this thread's (as if it had run here)
        let (exact_outcome, alone) = exact.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        let states = states + table.len();
        if outcome != Outcome::Unknown {
            return (outcome, states, method);
        }
        if let Some(Outcome::Win(line)) = joint {
            return (Outcome::Win(line), states, "exact");
        }
        match exact_outcome {
            Outcome::Win(line) => (Outcome::Win(line), states, "exact"),
            Outcome::Unwinnable if alone || joint == Some(Outcome::Unwinnable) => (Outcome::Unwinnable, states, "exact"),
            _ => (Outcome::Unknown, states, ""),
        }
    })
}

/// `solve`'s passes, after `before_search`, with the exact search at the end or (`exact`
/// false: `solve_parallel` runs it in a thread of its own) without.
#[allow(clippy::too_many_arguments)]
fn passes(t: &Tables, x: &SearchTables, g: State, budget: &Budget, greedy_deadline: Option<Instant>,
          best_deadline: Option<Instant>, relaxed: Option<Relaxed<'_>>,
          guided: Option<&Budget>, exact: bool) -> (Outcome, usize, &'static str) {
    let mut spent = 0usize; // the work of the passes so far
    // a pass's budget: its states and deadline, and the solve's work the passes before left
    let share = |b: &Budget, max_states: usize, deadline: Option<Instant>, spent: usize| {
        let mut b = b.with(max_states, deadline);
        b.max_work = budget.max_work.map(|w| w.saturating_sub(spent));
        b
    };
    let mut greedy = Search::new(t, x, g.clone());
    greedy.prune = true;
    let first = greedy.run(&share(budget, budget.max_states, greedy_deadline, spent));
    let mut states = greedy.states;
    spent += greedy.work;
    if let Outcome::Win(line) = first {
        return (Outcome::Win(line), states, "greedy");
    }
    if first == Outcome::Unwinnable && !greedy.cut {
        // no cut of the greedy pass ever left a move out: it was the exact search, to the end
        return (Outcome::Unwinnable, states, "greedy");
    }
    // stopped by its budget with no cut so far: it is the exact search so far, and the exact
    // pass goes on from where it stopped (with its table) instead of searching it all again
    let mut resume = if first == Outcome::Unknown && !greedy.cut { Some(greedy) } else { None };
    // cancelled: no pass after this one would search either (each looks at the flag)
    if budget.cancelled() {
        return (Outcome::Unknown, states, "");
    }
    if let Some(r) = relaxed {
        // lost even with every stock card free (draw 1, unlimited redeals): lost here, as
        // every line of the real rules is a line there too, its draws left out
        let deadline = r.share.map(|s| Instant::now() + std::time::Duration::from_secs_f64(s.clamp(0.0, 1e9)));
        let deadline = match (deadline, budget.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let free = State::new(r.t, g.piles.clone(), g.down.clone(), 0);
        let mut sub = Search::new(r.t, r.x, free);
        // (a proof only, which wins nothing: it has no share of the work, so that a solve
        // with it and one without it search for wins alike)
        let answer = sub.run(&Budget { max_work: None, ..budget.with(budget.max_states, deadline) });
        states += sub.states;
        if answer == Outcome::Unwinnable {
            return (Outcome::Unwinnable, states, "relaxation");
        }
    }
    let mut best = Search::new(t, x, g.clone());
    let second = best.best_first(&share(budget, budget.max_states, best_deadline, spent));
    states += best.states;
    spent += best.work;
    if let Outcome::Win(line) = second {
        return (Outcome::Win(line), states, "best-first");
    }
    drop(best);
    if budget.cancelled() {
        return (Outcome::Unknown, states, "");
    }
    if let Some(b) = guided {
        let (third, used, work) =
            guided::guided(t, x, g.clone(), &share(b, b.max_states, b.deadline, spent), None, guided::Deals::Plain);
        states += used;
        spent += work;
        if let Outcome::Win(line) = third {
            return (Outcome::Win(line), states, "guided");
        }
    }
    if budget.cancelled() || !exact {
        return (Outcome::Unknown, states, "");
    }
    let (outcome, stored) = match resume.as_mut() {
        Some(exact) => {
            // the greedy pass's states are counted already; the exact pass may store as many
            // again, as a fresh one would (a fresh one would first store the same ones again),
            // or, under a memory bound, up to the bound in all
            let before = exact.states;
            exact.prune = false;
            exact.work = 0;
            let limit = if budget.fixed_table { budget.max_states } else { before.saturating_add(budget.max_states) };
            let outcome = exact.run(&share(budget, limit, budget.deadline, spent));
            (outcome, exact.states - before)
        }
        None => {
            let mut exact = Search::new(t, x, g);
            let outcome = exact.run(&share(budget, budget.max_states, budget.deadline, spent));
            (outcome, exact.states)
        }
    };
    states += stored;
    let method = if outcome == Outcome::Unknown { "" } else { "exact" };
    (outcome, states, method)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::tests::little;

    pub(crate) fn plain(t: &Tables) -> SearchTables {
        let w = t.width;
        SearchTables {
            needs: vec![vec![]; w],
            home_kind: vec![HOME_NEVER; w],
            track: vec![false; t.count],
            start: vec![vec![]; t.count],
            groups: vec![],
            group_of: vec![usize::MAX; t.count],
            top_only: vec![false; t.count],
            auto_sources: vec![],
            waste_like: (0..t.count).map(|p| p == 1).collect(),
            face: vec![],
            macro_waste: None,
            deck_size: 13,
            defer: vec![],
            stock_defer: false,
            stock_home: false,
            found_defer: false,
            onto: vec![],
            dead_piles: vec![],
            dead_pred: vec![],
            dead_under: vec![],
            chain_on: vec![],
            chain_pred: vec![],
            discard_ok: vec![],
            discard_below: vec![],
            discard_never: vec![],
            discard_need: 0,
            discard_late: false,
            deadlock: Deadlock::default(),
            twin: Vec::new(),
            twin_pile: Vec::new(),
            twin_graded: false,
        }
    }

    /// Two columns whose top cards turn up the next card home each (6..2 and J..7), the K
    /// and Q above the ace in the first pile: a deal every pass wins.
    pub(crate) fn open_deal(t: &Tables) -> State {
        let piles = vec![vec![12, 11, 0], vec![], vec![], vec![5, 4, 3, 2, 1], vec![10, 9, 8, 7, 6]];
        State::new(t, piles, vec![3, 0, 0, 4, 4], 0)
    }

    /// The two needs the ace, which lies under it in the same column: with no redeal, no line wins.
    pub(crate) fn blocked_deal(t: &Tables) -> State {
        let piles = vec![vec![12, 11], vec![], vec![], vec![0, 2, 1], vec![3, 4, 5, 6, 7, 8, 9, 10]];
        State::new(t, piles, vec![2, 0, 0, 2, 7], 0)
    }

    pub(crate) fn replay(t: &Tables, mut g: State, moves: &[Move]) -> bool {
        for &m in moves {
            let mut legal = Vec::new();
            g.legal_moves(t, &mut legal);
            if !legal.contains(&m) {
                return false;
            }
            g.push(t, m);
        }
        g.won(t)
    }

    #[test]
    fn wins_a_winnable_deal_with_a_line_that_replays() {
        let t = little();
        let x = plain(&t);
        // the columns hold 6..2 and J..7, their top cards up: each turns up the next card home
        let g = open_deal(&t);
        let mut s = Search::new(&t, &x, g.clone());
        let budget = Budget::states(100_000);
        match s.run(&budget) {
            Outcome::Win(line) => assert!(replay(&t, g, &line)),
            other => panic!("expected a win, got {other:?}"),
        }
    }

    #[test]
    fn stock_macro_moves_win_with_a_line_of_plain_draws_that_replays() {
        let t = little();
        let mut x = plain(&t);
        x.macro_waste = Some(1);
        // the ace lies under the queen and king in the stock: three draws reach it
        let piles = vec![vec![0, 12, 11], vec![], vec![], vec![5, 4, 3, 2, 1], vec![10, 9, 8, 7, 6]];
        let g = State::new(&t, piles, vec![3, 0, 0, 4, 4], 0);
        let mut s = Search::new(&t, &x, g.clone());
        match s.run(&Budget::states(100_000)) {
            Outcome::Win(line) => {
                assert!(line.contains(&(0, 1, 0)));
                assert!(replay(&t, g, &line));
            }
            other => panic!("expected a win, got {other:?}"),
        }
    }

    /// A Golf of one suit: 0 the foundation (a rank up or down, no wrap), 1 and 2 columns that
    /// take nothing and give their top card; with the dead-card tables as `_Tables` derives them.
    fn golf() -> (Tables, SearchTables) {
        let w = 52;
        let mut found = vec![0u8; w * w + w];
        for lo in 0..13 {
            for hi in 0..13 {
                if lo + 1 == hi || hi + 1 == lo {
                    found[lo * w + hi] = 1;
                }
            }
        }
        let none = vec![0u8; w * w + w];
        let accept = vec![found, none.clone(), none];
        let fits = accept
            .iter()
            .map(|a| (0..=w).map(|top| (0..13u16).filter(|&c| a[top * w + c as usize] != 0).collect()).collect())
            .collect::<Vec<Vec<Vec<u16>>>>();
        let mut t = Tables {
            count: 3,
            width: w,
            accept,
            seq: vec![vec![0u8; w * w]; 3],
            gives: vec![GIVES_NONE, GIVES_TOP, GIVES_TOP],
            capacity: vec![1 << 30; 3],
            max_accept: vec![1 << 30; 3],
            min_accept: vec![1; 3],
            flip: vec![false; 3],
            targets: vec![vec![], vec![0], vec![0]],
            fits: fits.clone(),
            supermove: vec![None; 3],
            foundations: vec![0],
            win_home: 13,
            ..Default::default()
        };
        t.derive();
        let mut x = plain(&t);
        x.waste_like = vec![false; 3];
        x.dead_piles = vec![1, 2];
        x.dead_pred = vec![(0..w).map(|c| (0..w as u16).filter(|&y| fits[0][y as usize].contains(&(c as u16))).collect())
            .collect()];
        x.dead_under = vec![vec![]; 3];
        (t, x)
    }

    #[test]
    fn the_dead_card_cut_proves_a_card_whose_only_base_lies_under_it() {
        let (t, x) = golf();
        // the ace goes only onto the two, which lies under it: lost whatever is played
        let piles = vec![vec![6], vec![1, 0, 2, 3, 4, 5], vec![12, 11, 10, 9, 8, 7]];
        let g = State::new(&t, piles, vec![0; 3], 0);
        let mut s = Search::new(&t, &x, g.clone());
        assert!(s.dead_card());
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
        assert_eq!(s.states, 1, "the root is stored and cut");
        let mut off = x.clone();
        off.dead_piles.clear();
        let mut s = Search::new(&t, &off, g);
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
        assert!(s.states > 1, "without the cut the search plays on before it proves it");
    }

    #[test]
    fn the_dead_card_cut_leaves_a_won_deal_won() {
        let (t, x) = golf();
        // the ace on the foundation; 2..7 and 8..K come off the columns' tops in turn
        let piles = vec![vec![0], vec![6, 5, 4, 3, 2, 1], vec![12, 11, 10, 9, 8, 7]];
        let g = State::new(&t, piles, vec![0; 3], 0);
        let mut s = Search::new(&t, &x, g.clone());
        assert!(!s.dead_card());
        match s.run(&Budget::states(100_000)) {
            Outcome::Win(line) => assert!(replay(&t, g, &line)),
            other => panic!("expected a win, got {other:?}"),
        }
    }

    /// A little game's 13 cards shuffled (`next(n)`: a number below n) into the stock and the
    /// two columns, each column's top card face up; with `all_up`, every card face up.
    fn shuffled(t: &Tables, next: &mut impl FnMut(usize) -> usize, all_up: bool) -> State {
        let mut cards: Vec<u16> = (0..13).collect();
        for i in (1..13).rev() {
            cards.swap(i, next(i + 1));
        }
        let (a, b) = (next(14), next(14));
        let (lo, hi) = (a.min(b), a.max(b));
        let piles = vec![cards[..lo].to_vec(), vec![], vec![], cards[lo..hi].to_vec(), cards[hi..].to_vec()];
        let down = if all_up {
            vec![0; 5]
        } else {
            vec![lo, 0, 0, (hi - lo).saturating_sub(1), (13 - hi).saturating_sub(1)]
        };
        State::new(t, piles, down, 0)
    }

    /// Numbers below n from a seed (xorshift): the random positions of the tests below.
    fn numbers(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    }

    /// Passing by the move straight back changes no stored position and no answer, on random
    /// positions of a game whose columns are filled from the stock or a reserve when emptied
    /// (where the move back may empty a column that a card then fills: another position), and
    /// on a position where that other position is reached no other way.
    #[test]
    fn the_move_straight_back_is_passed_by_only_where_its_position_is_stored() {
        let mut next = numbers(0x2545_f491_4f6c_dd1d);
        let mut differs = 0;
        for round in 0..400 {
            let mut t = little();
            t.redeals = if round % 2 == 0 { Some(1) } else { None };
            if round % 4 < 2 {
                t.fill[3] = vec![0];
                t.fill[4] = vec![0];
            }
            // and every fourth, pile 0 a reserve that only fills the columns (its cards come out
            // no other way), every card face up
            let reserve = round % 4 == 0;
            if reserve {
                t.stock = None;
            }
            t.derive();
            let x = plain(&t);
            // with the reserve every card face up: a column's top card moves without turning one
            let g = shuffled(&t, &mut next, reserve);
            let mut with = Search::new(&t, &x, g.clone());
            let mut without = Search::new(&t, &x, g.clone());
            without.skip_back = false;
            let (a, b) = (with.run(&Budget::states(1_000_000)), without.run(&Budget::states(1_000_000)));
            assert_eq!((matches!(a, Outcome::Win(_)), a == Outcome::Unwinnable), (matches!(b, Outcome::Win(_)), b == Outcome::Unwinnable), "round {round}");
            assert_eq!(with.states, without.states, "round {round}");
            if with.work < without.work {
                differs += 1;
            }
        }
        assert!(differs > 20, "the move back was passed by in {differs} searches");
        // and the case itself: the queen moved onto the empty column and back empties it,
        // and the reserve's five fills it, a position no other line reaches
        let mut t = little();
        t.fill[3] = vec![0];
        t.fill[4] = vec![0];
        t.stock = None;
        t.derive();
        let x = plain(&t);
        let piles = vec![vec![3, 5], vec![10, 9, 8, 7, 6, 4, 2, 1, 0], vec![], vec![], vec![12, 11]];
        let g = State::new(&t, piles, vec![0; 5], 0);
        let mut with = Search::new(&t, &x, g.clone());
        let mut without = Search::new(&t, &x, g);
        without.skip_back = false;
        assert_eq!(with.run(&Budget::states(1_000)), without.run(&Budget::states(1_000)));
        assert_eq!(with.states, without.states);
    }

    /// A winning line with detours (cards moved from one column to the other and straight
    /// back) is cut to a line of legal moves that wins and is no longer than the line without
    /// them; a line with nothing to cut is left as it is.
    #[test]
    fn a_won_line_is_shortened_to_a_legal_line_that_still_wins() {
        let t = little();
        let x = plain(&t);
        let g = open_deal(&t);
        let mut s = Search::new(&t, &x, g.clone());
        let Outcome::Win(line) = s.run(&Budget::states(100_000)) else { panic!("the open deal is won") };
        let cut = shortened(&t, &g, &line);
        assert!(replay(&t, g.clone(), &cut) && cut.len() <= line.len());
        assert_eq!(shortened(&t, &g, &cut), cut); // nothing left to cut
        // the same line with detours: before each move, every move between the columns that
        // can be taken straight back, made and taken back
        let mut long = Vec::new();
        let mut h = g.clone();
        let mut legal = Vec::new();
        for &m in &cut {
            h.legal_moves(&t, &mut legal);
            for &d in &legal {
                if d.2 > 0 && d.0 >= 3 && d.1 >= 3 {
                    let mut back = Vec::new();
                    h.push(&t, d);
                    h.legal_moves(&t, &mut back);
                    let undo = (d.1, d.0, d.2);
                    h.pop(&t);
                    if back.contains(&undo) {
                        long.extend([d, undo]);
                        h.push(&t, d);
                        h.push(&t, undo);
                    }
                }
            }
            long.push(m);
            h.push(&t, m);
        }
        assert!(h.won(&t) && replay(&t, g.clone(), &long));
        assert!(long.len() > cut.len(), "the detours were made");
        let again = shortened(&t, &g, &long);
        assert!(replay(&t, g.clone(), &again));
        assert!(again.len() <= cut.len(), "{} moves from {}, against {}", again.len(), long.len(), cut.len());
    }

    /// A shared table holds at most its cap of keys, however many threads race for the last
    /// of them (keys alike or turn positions alike): the rest find no room, it says it is
    /// full, and a key stored before is still found.
    #[test]
    fn a_shared_table_holds_no_more_keys_than_its_cap() {
        for turns in [false, true] {
            let table = Arc::new(SharedKeys::new(1_000));
            let store = |t: &SharedKeys, k: &[u16]| if turns { t.visit(k, (0, 0), |e| e == (0, 0)) } else { t.insert(k) };
            let stored: usize = std::thread::scope(|scope| {
                let workers: Vec<_> = (0..4u16)
                    .map(|w| {
                        let table = table.clone();
                        scope.spawn(move || (0..1_000u16).filter(|&i| store(&table, &[w, i])).count())
                    })
                    .collect();
                workers.into_iter().map(|h| h.join().unwrap()).sum()
            });
            assert_eq!((stored, table.len()), (1_000, 1_000), "turns {turns}");
            assert!(table.full());
            // (a key stored is found again, not stored anew, whoever stored it)
            let again = (0..4u16).flat_map(|w| (0..1_000u16).map(move |i| [w, i])).filter(|k| store(&table, k)).count();
            assert_eq!((again, table.len()), (0, 1_000));
        }
        let table = SharedKeys::new(2);
        assert!(table.insert(&[1]) && table.insert(&[2]) && !table.full());
        assert!(!table.insert(&[3]) && table.full() && !table.insert(&[1]));
    }

    /// A search on a shared table with no room left stops "unknown" where it meets a new
    /// position, however few positions are left: it never runs out of moves past one it could
    /// not store (that would be a proof of nothing).
    #[test]
    fn a_search_on_a_full_shared_table_stops_unknown() {
        let mut next = numbers(0x5851_f42d_4c95_7f2d);
        let mut lost = 0;
        for _ in 0..200 {
            let t = little();
            let x = plain(&t);
            let g = shuffled(&t, &mut next, false);
            let mut one = Search::new(&t, &x, g.clone());
            if one.run(&Budget::states(1_000_000)) != Outcome::Unwinnable || one.states < 3 {
                continue;
            }
            lost += 1;
            // room for all but one of the proof's positions: never a proof
            let mut capped = Search::new(&t, &x, g.clone());
            capped.share(Arc::new(SharedKeys::new(one.states - 1)));
            assert_eq!(capped.run(&Budget::states(1_000_000)), Outcome::Unknown);
            // room for all of them: the same proof
            let mut roomy = Search::new(&t, &x, g.clone());
            roomy.share(Arc::new(SharedKeys::new(one.states)));
            assert_eq!(roomy.run(&Budget::states(1_000_000)), Outcome::Unwinnable);
        }
        assert!(lost > 20, "{lost}");
    }

    /// Two exact searches of `g` on one shared table: the first as `solve_parallel`'s own
    /// thread runs it, the second joining it.
    fn joined<'a>(t: &'a Tables, x: &'a SearchTables, g: &State) -> (Search<'a>, Search<'a>, Arc<SharedKeys>) {
        let table = Arc::new(SharedKeys::new(usize::MAX));
        let mut first = Search::new(t, x, g.clone());
        first.share(table.clone());
        let mut second = Search::new(t, x, g.clone());
        second.join(table.clone());
        (first, second, table)
    }

    /// Run two searches on one table by turns, `slice` positions each (work bounds), as
    /// `solve_parallel`'s exact search and the thread that joins it run at once, until each
    /// has an answer or either wins: their answers (None: stopped by the other's win).
    fn interleaved<'a>(first: &mut Search<'a>, second: &mut Search<'a>, slice: usize, states: usize)
        -> (Option<Outcome>, Option<Outcome>) {
        let mut done = [None, None];
        while done.iter().any(|d| d.is_none()) {
            for (s, d) in [&mut *first, &mut *second].into_iter().zip(done.iter_mut()) {
                if d.is_none() {
                    let b = Budget { max_work: Some(s.work + slice), ..Budget::states(states) };
                    match s.run(&b) {
                        Outcome::Unknown => {}
                        o => *d = Some(o),
                    }
                }
            }
            if done.iter().any(|d| matches!(d, Some(Outcome::Win(_)))) {
                break;
            }
        }
        let [a, b] = done;
        (a, b)
    }

    /// The won line of either of two answers.
    fn win_line(a: Option<Outcome>, b: Option<Outcome>) -> Option<Vec<Move>> {
        [a, b].into_iter().flatten().find_map(|o| match o {
            Outcome::Win(line) => Some(line),
            _ => None,
        })
    }

    /// Two searches on one shared table, each expanding what it stored first, interleaved by
    /// work bounds (`solve_parallel`'s exact search and the thread that joins it), store the
    /// very positions one search stores and decide as it does: a loss only once both ran out
    /// of moves, a win with a line that replays.
    #[test]
    fn a_search_joined_on_a_shared_table_stores_what_one_search_stores() {
        let mut next = numbers(0x9e37_79b9_7f4a_7c15);
        let (mut won, mut lost, mut both) = (0, 0, 0);
        let (mut work_alone, mut work_first) = (0, 0);
        for round in 0..400 {
            let mut t = little();
            t.redeals = if round % 2 == 0 { Some(0) } else { None };
            let x = plain(&t);
            let g = shuffled(&t, &mut next, false);
            let mut one = Search::new(&t, &x, g.clone());
            let alone = one.run(&Budget::states(1_000_000));
            let (mut first, mut second, table) = joined(&t, &x, &g);
            let (done_first, done_second) = interleaved(&mut first, &mut second, 1 + next(6), 1_000_000);
            match alone {
                Outcome::Win(_) => {
                    won += 1;
                    let line = win_line(done_first, done_second);
                    assert!(line.as_ref().is_some_and(|l| replay(&t, g.clone(), l)), "round {round}: no win that replays");
                    let line = line.unwrap();
                    let cut = shortened(&t, &g, &line);
                    assert!(cut.len() <= line.len() && replay(&t, g.clone(), &cut), "round {round}");
                }
                Outcome::Unwinnable => {
                    lost += 1;
                    assert_eq!((done_first, done_second), (Some(Outcome::Unwinnable), Some(Outcome::Unwinnable)));
                    assert_eq!(table.len(), one.states, "round {round}");
                    if first.work > 1 && second.work > 1 {
                        both += 1;
                    }
                    work_alone += one.work;
                    work_first += first.work;
                }
                Outcome::Unknown => unreachable!("a budget of a million states decides the little game"),
            }
        }
        // both outcomes, and proofs where each search expanded positions of its own
        assert!(won > 50 && lost > 50 && both > 20, "{won} {lost} {both}");
        // and the second took a share of the work: the first did less than one search alone
        assert!(work_first * 10 < work_alone * 8, "{work_first} of {work_alone}");
    }

    #[test]
    fn proves_a_blocked_deal_unwinnable() {
        let mut t = little();
        t.redeals = Some(0);
        let x = plain(&t);
        // the two needs the ace, which lies under it in the same column: no line wins
        let g = blocked_deal(&t);
        let mut s = Search::new(&t, &x, g);
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
    }

    #[test]
    fn a_work_bound_cuts_the_search_short_and_never_proves_a_loss() {
        let mut t = little();
        t.redeals = Some(0);
        let x = plain(&t);
        let g = blocked_deal(&t);
        let mut s = Search::new(&t, &x, g.clone());
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
        let needed = s.work;
        assert!(needed > 1, "{needed}");
        // one position short of the proof's work, the exact search proves nothing; the
        // portfolio's passes share the bound (here the greedy pass cuts no move, so it is
        // the exact search: it proves the deal with the work it needs, and not one short)
        let short = Budget { max_work: Some(needed - 1), ..Budget::states(100_000) };
        let mut s = Search::new(&t, &x, g.clone());
        assert_eq!(s.run(&short), Outcome::Unknown);
        assert_eq!(s.work, needed - 1);
        let exact = Budget { max_work: Some(needed), ..Budget::states(100_000) };
        assert_eq!(Search::new(&t, &x, g.clone()).run(&exact), Outcome::Unwinnable);
        for work in [0, 1, needed - 1] {
            let b = Budget { max_work: Some(work), ..Budget::states(100_000) };
            let (outcome, _, _) = solve(&t, &x, g.clone(), &b, None, None, None, Some(&b));
            assert_eq!(outcome, Outcome::Unknown, "{work}");
        }
        let b = Budget { max_work: Some(needed), ..Budget::states(100_000) };
        let (outcome, _, method) = solve(&t, &x, g.clone(), &b, None, None, None, Some(&b));
        assert_eq!((outcome, method), (Outcome::Unwinnable, "greedy"));
        // a bound the whole portfolio stays under changes nothing
        let b = Budget { max_work: Some(10_000_000), ..Budget::states(100_000) };
        assert_eq!(solve(&t, &x, g.clone(), &b, None, None, None, Some(&b)).0, Outcome::Unwinnable);
        // and a winnable deal is won within a bound it needs, the work counted
        let open = open_deal(&t);
        let b = Budget { max_work: Some(10_000_000), ..Budget::states(100_000) };
        assert!(matches!(solve(&t, &x, open.clone(), &b, None, None, None, Some(&b)).0, Outcome::Win(ref l)
                         if replay(&t, open.clone(), l)));
        let b = Budget { max_work: Some(0), ..Budget::states(100_000) };
        assert_eq!(solve(&t, &x, open, &b, None, None, None, Some(&b)).0, Outcome::Unknown);
    }

    /// The greedy pass's running out of positions is a proof only when no cut of it left a
    /// move out (`Search::cut`): the blocked deal has no move a cut concerns.
    #[test]
    fn a_greedy_failure_is_a_proof_only_when_it_cut_nothing() {
        let t = little();
        let x = plain(&t);
        let g = open_deal(&t);
        let budget = Budget::states(100_000);
        let (outcome, _, method) = solve(&t, &x, g.clone(), &budget, None, None, None, None);
        assert!(matches!(outcome, Outcome::Win(ref line) if replay(&t, g, line)));
        assert_eq!(method, "greedy");
        let mut blocked = t.clone();
        blocked.redeals = Some(0);
        let g = blocked_deal(&blocked);
        let mut greedy = Search::new(&blocked, &x, g.clone());
        greedy.prune = true;
        assert_eq!(greedy.run(&budget), Outcome::Unwinnable);
        assert!(!greedy.cut);
        let (outcome, states, method) = solve(&blocked, &x, g.clone(), &budget, None, None, None, None);
        assert_eq!((outcome, method, states), (Outcome::Unwinnable, "greedy", greedy.states));
        // and the exact search agrees
        let mut exact = Search::new(&blocked, &x, g);
        assert_eq!(exact.run(&budget), Outcome::Unwinnable);
    }

    #[test]
    fn best_first_wins_with_a_line_that_replays() {
        let t = little();
        let x = plain(&t);
        let g = open_deal(&t);
        let mut s = Search::new(&t, &x, g.clone());
        match s.best_first(&Budget::states(100_000)) {
            Outcome::Win(line) => assert!(replay(&t, g, &line)),
            other => panic!("expected a win, got {other:?}"),
        }
        assert!(s.states > 0);
    }

    #[test]
    fn best_first_writes_macro_draws_and_safe_moves_home_into_its_line() {
        let t = little();
        let mut x = plain(&t);
        x.macro_waste = Some(1);
        // every card home is safe as soon as it can go (one suit, built in order)
        x.home_kind = (0..52).map(|c| if c == 0 { HOME_START } else { HOME_LONE }).collect();
        x.track = vec![false, false, true, false, false];
        x.auto_sources = vec![1, 3, 4];
        let piles = vec![vec![0, 12, 11], vec![], vec![], vec![5, 4, 3, 2, 1], vec![10, 9, 8, 7, 6]];
        let g = State::new(&t, piles, vec![3, 0, 0, 4, 4], 0);
        let mut s = Search::new(&t, &x, g.clone());
        match s.best_first(&Budget::states(100_000)) {
            Outcome::Win(line) => {
                assert!(line.contains(&(0, 1, 0)), "the draws are written out: {line:?}");
                assert!(line.iter().filter(|m| m.1 == 2).count() == 13, "every card goes home: {line:?}");
                assert!(replay(&t, g, &line));
            }
            other => panic!("expected a win, got {other:?}"),
        }
    }

    #[test]
    fn best_first_out_of_positions_proves_nothing() {
        let mut t = little();
        t.redeals = Some(0);
        let x = plain(&t);
        // the blocked deal that the exact search proves unwinnable: the pruned pass only
        // runs out of positions, which is no proof
        let g = blocked_deal(&t);
        let mut s = Search::new(&t, &x, g);
        assert_eq!(s.best_first(&Budget::states(100_000)), Outcome::Unknown);
        assert!(s.states > 0);
    }

    #[test]
    fn best_first_stops_at_its_budget() {
        let t = little();
        let x = plain(&t);
        let g = open_deal(&t);
        for max_states in [0, 1, 2] {
            let mut s = Search::new(&t, &x, g.clone());
            assert_eq!(s.best_first(&Budget::states(max_states)), Outcome::Unknown);
            assert!(s.states <= max_states.max(1));
        }
    }

    #[test]
    fn best_first_expands_the_nearest_position_first() {
        let t = little();
        let x = plain(&t);
        // two columns, the ace free on one: moving it home (one card nearer a win) is
        // expanded before anything else, so the first position stored after the root has
        // it home
        let piles = vec![vec![], vec![], vec![], vec![5, 0], vec![1, 2]];
        let g = State::new(&t, piles, vec![0, 0, 0, 1, 0], 0);
        let mut s = Search::new(&t, &x, g.clone());
        let _ = s.best_first(&Budget::states(2));
        let mut after = g.clone();
        after.push(&t, (3, 2, 1));
        let mut probe = Search::new(&t, &x, after);
        assert!(s.seen.contains(&probe.key()), "the ace-home position was expanded second");
        probe.g.pop(&t);
        assert!(s.seen.contains(&probe.key()));
        assert_eq!(s.seen.len(), 2);
    }

    #[test]
    fn a_run_moved_off_a_face_up_card_waits_until_that_card_is_used() {
        let t = little();
        let mut x = plain(&t);
        // 10 9 8 face up in one column, the other empty: moving 9 8 or 8 off a card that
        // nothing else wants can wait (the exact search only); the whole column may still move
        let piles = vec![vec![], vec![], vec![], vec![9, 8, 7], vec![]];
        let g = State::new(&t, piles, vec![0; 5], 0);
        let mut s = Search::new(&t, &x, g.clone());
        let all: Vec<Move> = s.moves().into_iter().map(|e| e.1).collect();
        assert!(all.contains(&(3, 4, 1)) && all.contains(&(3, 4, 2)) && all.contains(&(3, 4, 3)));
        x.defer = vec![false, false, false, true, true];
        let mut s = Search::new(&t, &x, g);
        let waits: Vec<Move> = s.moves().into_iter().map(|e| e.1).collect();
        assert_eq!(waits, vec![(3, 4, 3)]);
        // (one suit: the only card that fits on a card is the one moved off it)
    }

    #[test]
    fn a_stock_card_waits_until_a_card_can_go_onto_it() {
        let t = little();
        let mut x = plain(&t);
        x.macro_waste = Some(1);
        x.stock_defer = true;
        // the waste's 9 could go onto the 10; the 8 that would follow it is face up on
        // another column: the move is tried
        let piles = vec![vec![], vec![8], vec![], vec![11, 9], vec![0, 7]];
        let g = State::new(&t, piles, vec![0, 0, 0, 1, 1], 0);
        let mut s = Search::new(&t, &x, g);
        assert!(s.moves().iter().any(|e| e.1 == (1, 3, 1)));
        // the 8 face down: nothing can follow the 9 now, so playing it can wait
        let piles = vec![vec![], vec![8], vec![], vec![11, 9], vec![7, 0]];
        let g = State::new(&t, piles, vec![0, 0, 0, 1, 1], 0);
        let mut s = Search::new(&t, &x, g.clone());
        assert!(!s.moves().iter().any(|e| e.1 == (1, 3, 1)));
        x.stock_defer = false;
        let mut s = Search::new(&t, &x, g);
        assert!(s.moves().iter().any(|e| e.1 == (1, 3, 1)));
    }

    #[test]
    fn the_exact_search_with_its_waits_still_wins_and_proves() {
        let t = little();
        let mut x = plain(&t);
        x.defer = vec![false, false, false, true, true];
        x.macro_waste = Some(1);
        x.stock_defer = true;
        let piles = vec![vec![0, 12, 11], vec![], vec![], vec![5, 4, 3, 2, 1], vec![10, 9, 8, 7, 6]];
        let g = State::new(&t, piles, vec![3, 0, 0, 4, 4], 0);
        let mut s = Search::new(&t, &x, g.clone());
        assert!(matches!(s.run(&Budget::states(100_000)),
                         Outcome::Win(ref line) if replay(&t, g, line)));
        let g = blocked_deal(&t);
        let mut s = Search::new(&t, &x, g);
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
    }

    #[test]
    fn a_search_out_of_states_says_unknown() {
        let t = little();
        let x = plain(&t);
        let piles = vec![vec![12, 11, 0], vec![], vec![], vec![1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10]];
        let g = State::new(&t, piles, vec![3, 0, 0, 4, 4], 0);
        let mut s = Search::new(&t, &x, g);
        assert_eq!(s.run(&Budget::states(0)), Outcome::Unknown);
    }

    /// The tables of a little game of the cards `real` keeps (card c is suit c / 13, rank
    /// c % 13, as the kernel numbers them; the tables 52 cards wide): each of `suits` foundations
    /// up in its suit from the ace; a column takes a card one rank lower that `alternate` says
    /// goes on it (and runs so), and `empty` says which cards an empty one takes.
    fn little_tables(suits: usize, real: impl Fn(usize) -> bool, alternate: impl Fn(usize, usize) -> bool,
                     empty: impl Fn(usize) -> bool) -> (Vec<Vec<u8>>, Vec<u8>, Vec<u8>) {
        let w = 52;
        let (suit, rank) = (|c: usize| c / 13, |c: usize| c % 13);
        let mut found = vec![vec![0u8; w * w + w]; suits];
        let mut column = vec![0u8; w * w + w];
        let mut seq = vec![0u8; w * w];
        for y in (0..w).filter(|&y| real(y)) {
            for c in (0..w).filter(|&c| real(c)) {
                if suit(c) == suit(y) && rank(c) == rank(y) + 1 {
                    found[suit(c)][y * w + c] = 1;
                }
                if alternate(c, y) && rank(c) + 1 == rank(y) {
                    column[y * w + c] = 1;
                    seq[y * w + c] = 1;
                }
            }
        }
        for c in (0..w).filter(|&c| real(c)) {
            column[w * w + c] = empty(c) as u8;
            found[suit(c)][w * w + c] = (rank(c) == 0) as u8;
        }
        (found, column, seq)
    }

    /// Two suits of thirteen (cards 0..13 and 13..26), built up by suit on two foundations
    /// that give their top card back (piles 2 and 5), down in alternate suits on two
    /// columns (3 and 4), any card on an empty column; a stock (0) and its waste (1).
    fn two_suits() -> (Tables, SearchTables) {
        let w = 52;
        let suit = |c: usize| c / 13;
        let real = |c: usize| c < 26;
        let (found, column, seq) = little_tables(2, real, |c, y| suit(c) != suit(y), |_| true);
        let found: [Vec<u8>; 2] = found.try_into().unwrap();
        let none = vec![0u8; w * w + w];
        let [f0, f1] = found;
        let accept = vec![none.clone(), none, f0, column.clone(), column.clone(), f1];
        let fits = accept
            .iter()
            .map(|a| (0..=w).map(|top| (0..26u16).filter(|&c| a[top * w + c as usize] != 0).collect()).collect())
            .collect();
        let no_seq = vec![0u8; w * w];
        let mut t = Tables {
            count: 6,
            width: w,
            accept,
            seq: vec![no_seq.clone(), no_seq.clone(), no_seq.clone(), seq.clone(), seq, no_seq],
            gives: vec![GIVES_NONE, GIVES_TOP, GIVES_TOP, GIVES_RUN, GIVES_RUN, GIVES_TOP],
            capacity: vec![1 << 30; 6],
            max_accept: (0..6).map(|p| if p == 2 || p == 5 { 1 } else { 1 << 30 }).collect(),
            min_accept: vec![1; 6],
            flip: vec![false, false, false, true, true, false],
            targets: vec![vec![], vec![2, 3, 4, 5], vec![3, 4], vec![2, 4, 5], vec![2, 3, 5], vec![3, 4]],
            fits,
            supermove: vec![None; 6],
            stock: Some(0),
            draw_targets: vec![1],
            draw_count: 1,
            redeals: None,
            foundations: vec![2, 5],
            win_home: 26,
            ..Default::default()
        };
        t.derive();
        let mut x = plain(&t);
        x.waste_like = (0..6).map(|p| p == 1).collect();
        x.deck_size = 26;
        x.defer = vec![false, false, false, true, true, false];
        // onto[f][c]: the cards c goes onto on a column, for the two foundations
        let onto_of = |c: usize| (0..26u16).filter(|&y| column[y as usize * w + c] != 0).collect::<Vec<u16>>();
        let rows: Vec<Vec<u16>> = (0..w).map(onto_of).collect();
        x.onto = (0..6).map(|p| if p == 2 || p == 5 { rows.clone() } else { vec![] }).collect();
        (t, x)
    }

    #[test]
    fn a_card_taken_back_from_a_foundation_waits_until_it_or_the_card_under_it_is_used() {
        let (t, mut x) = two_suits();
        // the first suit's A 2 3 home, the second's A; the 3 (card 2) could come back onto
        // the second suit's 4 (16) on column 3; the only card that would go onto it there,
        // the second suit's 2 (14), lies face down on column 4, and the 2 under it (card 1)
        // goes nowhere but home: the move can wait
        let piles = vec![vec![], vec![], vec![0, 1, 2], vec![16], vec![14, 25], vec![13]];
        let g = State::new(&t, piles, vec![0, 0, 0, 0, 1, 0], 0);
        let mut s = Search::new(&t, &x, g.clone());
        assert!(s.moves().iter().any(|e| e.1 == (2, 3, 1)), "without found_defer it is tried");
        x.found_defer = true;
        let mut s = Search::new(&t, &x, g);
        assert!(!s.moves().iter().any(|e| e.1 == (2, 3, 1)), "with found_defer it waits");
        // the second suit's 2 face up and free to move: a card can go onto the 3 next
        let piles = vec![vec![], vec![], vec![0, 1, 2], vec![16], vec![25, 14], vec![13]];
        let mut s = Search::new(&t, &x, State::new(&t, piles, vec![0, 0, 0, 0, 1, 0], 0));
        assert!(s.moves().iter().any(|e| e.1 == (2, 3, 1)));
        // the first suit's 2 could follow onto the second suit's 3 (15), face up on column 4
        let piles = vec![vec![], vec![], vec![0, 1, 2], vec![16], vec![25, 15], vec![13]];
        let mut s = Search::new(&t, &x, State::new(&t, piles, vec![0, 0, 0, 0, 1, 0], 0));
        assert!(s.moves().iter().any(|e| e.1 == (2, 3, 1)));
    }

    #[test]
    fn with_found_defer_the_exact_search_still_takes_a_card_back_when_the_win_needs_it() {
        let (t, mut x) = two_suits();
        x.found_defer = true;
        // the second suit's 2 (14) lies on its ace (13) on column 3, column 4 holds its 4
        // (16): the ace comes free only if the first suit's 3 (card 2) comes back from its
        // foundation onto the 4, so the 2 can go onto it; the rest waits in the stock
        let stock: Vec<u16> = (3..13).chain([15]).chain(17..26).rev().collect();
        let piles = vec![stock, vec![], vec![0, 1, 2], vec![13, 14], vec![16], vec![]];
        let g = State::new(&t, piles, vec![20, 0, 0, 0, 0, 0], 0);
        let mut s = Search::new(&t, &x, g.clone());
        match s.run(&Budget::states(100_000)) {
            Outcome::Win(line) => {
                assert!(line.contains(&(2, 4, 1)), "the 3 came back: {line:?}");
                assert!(replay(&t, g, &line));
            }
            other => panic!("expected a win, got {other:?}"),
        }
    }

    /// A deal of the two-suit game: a shuffle of its 26 cards (a fixed linear congruential
    /// generator), three on each column, the top two up, the rest in the stock.
    fn two_suit_deal(t: &Tables, seed: u64, recycles: u32) -> State {
        let mut cards: Vec<u16> = (0..26).collect();
        let mut r = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        for i in (1..cards.len()).rev() {
            r = r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            cards.swap(i, (r >> 33) as usize % (i + 1));
        }
        let (c3, rest) = cards.split_at(3);
        let (c4, stock) = rest.split_at(3);
        let piles = vec![stock.to_vec(), vec![], vec![], c3.to_vec(), c4.to_vec(), vec![]];
        State::new(t, piles, vec![stock.len(), 0, 0, 1, 1, 0], recycles)
    }

    #[test]
    fn a_card_that_can_come_back_goes_home_in_a_depth_first_pass() {
        let (t, mut x) = two_suits();
        x.auto_sources = vec![3, 4];
        // the first suit's ace home; its 2 (card 1) lies face up on the second suit's 3 (15),
        // which takes it back: in a depth-first pass with found_defer the 2 goes home as a
        // safe move, and not otherwise
        let piles = vec![vec![], vec![], vec![0], vec![20, 15, 1], vec![25], vec![]];
        let at = |x: &SearchTables, dfs: bool| {
            let mut s = Search::new(&t, x, State::new(&t, piles.clone(), vec![0, 0, 0, 1, 0, 0], 0));
            s.dfs = dfs;
            s.auto();
            s.g.piles[2].len()
        };
        assert_eq!(at(&x, true), 1, "without found_defer it stays");
        x.found_defer = true;
        assert_eq!(at(&x, false), 1, "outside a depth-first pass it stays");
        assert_eq!(at(&x, true), 2, "it can come back onto the 3, so it goes home");
        // on a face-down card it could not come back: it stays
        let mut s = Search::new(&t, &x, State::new(&t, vec![vec![], vec![], vec![0], vec![20, 1], vec![25], vec![]],
                                                   vec![0, 0, 0, 1, 0, 0], 0));
        s.dfs = true;
        s.auto();
        assert_eq!(s.g.piles[2].len(), 1);
    }

    /// The two-suit game's deals (`seeds` of them) under each (draw, redeals) of `rules`, with
    /// stock macro-moves: the exact search with `found_defer` (and dominance, with limited
    /// redeals or draw 3) against the one without either, the same answers wherever both finish and
    /// every win replayed. Returns the first search's proofs and wins, and the states each
    /// stored on the deals both decided.
    fn found_defer_agrees(x: &SearchTables, rules: &[(usize, Option<u32>)], seeds: u64, states: usize)
        -> ([usize; 2], [usize; 2]) {
        let (mut t, _) = two_suits();
        let mut decided = [0; 2];
        let mut stored = [0; 2];
        for &(draw, redeals) in rules {
            t.draw_count = draw;
            t.redeals = redeals;
            let mut cut = x.clone();
            cut.found_defer = true;
            cut.macro_waste = Some(1);
            let mut full = x.clone();
            full.macro_waste = Some(1);
            for seed in 0..seeds {
                let g = two_suit_deal(&t, seed, 0);
                let budget = Budget::states(states);
                let mut a = Search::new(&t, &cut, g.clone());
                assert_eq!(a.dominance, redeals.is_some() || draw > 1);
                assert!(a.back_any, "the two-suit game's foundations give back to both columns");
                let pruned = a.run(&budget);
                let mut b = Search::new(&t, &full, g.clone());
                b.dominance = false;
                let plain = b.run(&budget);
                for answer in [&pruned, &plain] {
                    if let Outcome::Win(line) = answer {
                        assert!(replay(&t, g.clone(), line), "draw {draw}, seed {seed}");
                    }
                }
                let won = |o: &Outcome| matches!(o, Outcome::Win(_));
                if plain != Outcome::Unknown && pruned != Outcome::Unknown {
                    assert_eq!(won(&pruned), won(&plain), "draw {draw}, redeals {redeals:?}, seed {seed}");
                    stored[0] += a.states;
                    stored[1] += b.states;
                }
                decided[won(&pruned) as usize] += (pruned != Outcome::Unknown) as usize;
            }
        }
        (decided, stored)
    }

    /// A little Klondike of four suits (0 and 3 black, 1 and 2 red, as the kernel numbers
    /// them) of `ranks` cards each: stock 0, waste 1, foundations 2 to 5 by suit from the ace
    /// (giving their top back to the columns), columns 6 to 9 down in alternate colours, the
    /// top rank alone into an empty one. Its twin parents are the two cards of a rank and
    /// colour.
    fn four_suits(ranks: usize) -> (Tables, SearchTables) {
        let w = 52;
        let real = |c: usize| c % 13 < ranks;
        let red = |c: usize| c / 13 == 1 || c / 13 == 2;
        let (found, column, seq) = little_tables(4, real, |c, y| red(c) != red(y), |c| c % 13 == ranks - 1);
        let none = vec![0u8; w * w + w];
        let mut accept = vec![none.clone(), none];
        accept.extend(found);
        accept.extend(std::iter::repeat_n(column.clone(), 4));
        let fits = accept
            .iter()
            .map(|a| (0..=w).map(|top| (0..w as u16).filter(|&c| real(c as usize) && a[top * w + c as usize] != 0).collect()).collect())
            .collect();
        let no_seq = vec![0u8; w * w];
        let mut seqs = vec![no_seq; 6];
        seqs.extend(std::iter::repeat_n(seq, 4));
        let columns: Vec<usize> = (6..10).collect();
        let homes: Vec<usize> = (2..6).collect();
        let mut targets = vec![vec![], [homes.clone(), columns.clone()].concat()];
        targets.extend(std::iter::repeat_n(columns.clone(), 4));
        for c in 6..10 {
            targets.push([homes.clone(), columns.iter().copied().filter(|&d| d != c).collect()].concat());
        }
        let mut t = Tables {
            count: 10,
            width: w,
            accept,
            seq: seqs,
            gives: [vec![GIVES_NONE], vec![GIVES_TOP; 5], vec![GIVES_RUN; 4]].concat(),
            capacity: vec![1 << 30; 10],
            max_accept: (0..10).map(|p| if (2..6).contains(&p) { 1 } else { 1 << 30 }).collect(),
            min_accept: vec![1; 10],
            flip: (0..10).map(|p| p >= 6).collect(),
            targets,
            fits,
            supermove: vec![None; 10],
            stock: Some(0),
            draw_targets: vec![1],
            draw_count: 1,
            redeals: None,
            foundations: homes,
            win_home: 4 * ranks,
            ..Default::default()
        };
        t.derive();
        let mut x = plain(&t);
        x.waste_like = (0..10).map(|p| p == 1).collect();
        x.deck_size = 4 * ranks;
        x.defer = (0..10).map(|p| p >= 6).collect();
        x.groups = vec![columns];
        for p in 6..10 {
            x.group_of[p] = 0;
        }
        x.macro_waste = Some(1);
        x.found_defer = true;
        let rows: Vec<Vec<u16>> = (0..w).map(|c| (0..w as u16).filter(|&y| column[y as usize * w + c] != 0).collect()).collect();
        x.onto = (0..10).map(|p| if (2..6).contains(&p) { rows.clone() } else { vec![] }).collect();
        (x.twin, x.twin_pile) = crate::load::twins(&t, &x);
        x.twin_graded = crate::load::graded(&t, 6);
        (t, x)
    }

    /// A deal of `four_suits`: column i takes i + 1 cards, its top face up; the rest is the stock.
    fn four_suit_deal(t: &Tables, ranks: usize, seed: u64) -> State {
        let mut cards: Vec<u16> = (0..4).flat_map(|s| (0..ranks as u16).map(move |r| s * 13 + r)).collect();
        let mut next = numbers(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        for i in (1..cards.len()).rev() {
            cards.swap(i, next(i + 1));
        }
        let mut piles = vec![vec![]; 10];
        let mut down = vec![0; 10];
        for c in 0..4 {
            piles[6 + c] = cards.split_off(cards.len() - (c + 1));
            down[6 + c] = c;
        }
        down[0] = cards.len();
        piles[0] = cards;
        State::new(t, piles, down, 0)
    }

    #[test]
    fn only_a_run_moved_off_a_face_up_twin_is_a_move_back() {
        // the five of spades (43) on the six of diamonds (18), moved onto the six of hearts
        // (31), the diamond's larger twin: a move back between twins when the diamond was face
        // up, an ordinary move when it turns the diamond up (the false proof of docs/solver.md,
        // "Twin parents", deal 586)
        let (t, x) = four_suits(7);
        assert_eq!((x.twin[18], x.twin[31]), (31, 18));
        for (down, back) in [(0, true), (1, false)] {
            let mut piles = vec![vec![]; 10];
            piles[0] = vec![0, 1, 2];
            (piles[6], piles[7]) = (vec![18, 43], vec![31]);
            let mut s = Search::new(&t, &x, State::new(&t, piles, vec![3, 0, 0, 0, 0, 0, down, 0, 0, 0], 0));
            s.dfs = true;
            let m = (6, 7, 1);
            s.g.push(&t, m);
            s.trail.push(Step::Move(m));
            assert_eq!(s.g.down[6], 0);
            assert_eq!(s.twin_pending(), back.then_some((6, 7, 1)), "the six face down: {}", down == 1);
        }
    }

    #[test]
    fn piles_that_build_by_levels_are_found_from_the_tables() {
        // crossed twins are keyed as one only where the twins' piles build by levels
        // (`load::graded`): the four-suit game's columns do; not once a column takes a card it
        // does not build on, nor where runs build up or down (a cycle of levels)
        let (t, x) = four_suits(7);
        assert!(x.twin_graded && crate::load::graded(&t, 6));
        assert!(Search::new(&t, &x, four_suit_deal(&t, 7, 1)).uncross);
        let w = t.width;
        let mut takes_more = t.clone();
        takes_more.accept[6][w] = 1; // the 2 of clubs takes the ace of clubs
        assert!(!crate::load::graded(&takes_more, 6));
        let mut up_or_down = t.clone();
        for a in 0..w {
            for b in 0..w {
                if t.seq[6][a * w + b] != 0 {
                    up_or_down.seq[6][b * w + a] = 1;
                    up_or_down.accept[6][b * w + a] = 1;
                }
            }
        }
        assert!(!crate::load::graded(&up_or_down, 6));
        let mut y = x.clone();
        y.twin_graded = false;
        assert!(!Search::new(&t, &y, four_suit_deal(&t, 7, 1)).uncross);
    }

    /// What `against_without` counted: deals decided by both searches, lost and won; the
    /// states each stored on them; deals the bare search decided too; deals where the first
    /// stored fewer states.
    #[derive(Default, Debug)]
    struct Compared {
        decided: [usize; 2],
        stored: [usize; 2],
        checked: usize,
        fewer: usize,
    }

    /// Deals 0..seeds of the four-suit game of each of `ranks`, draw 1 with no redeal and draw
    /// 3 with none, one and unlimited, each searched as the tables have it (`on`, which `rule`
    /// must see on) and with `off` applied: every win replays, both answer alike where both
    /// finish, and (even deals) as the search with none of its waits (runs, stock cards,
    /// take-backs), twins nor crossings, where that one finishes too.
    fn against_without(ranks: &[usize], seeds: u64, rule: impl Fn(&Search) -> bool, off: impl Fn(&mut Search))
                       -> Compared {
        let mut out = Compared::default();
        for &ranks in ranks {
            let (mut t, x) = four_suits(ranks);
            let mut bare = x.clone();
            bare.defer = vec![false; 10];
            bare.found_defer = false;
            bare.twin = Vec::new();
            for (draw, redeals) in [(1, Some(0)), (3, Some(0)), (3, Some(1)), (3, None)] {
                t.draw_count = draw;
                t.redeals = redeals;
                for seed in 0..seeds {
                    let g = four_suit_deal(&t, ranks, seed);
                    let budget = Budget::states(20_000);
                    let mut a = Search::new(&t, &x, g.clone());
                    assert!(rule(&a));
                    let with = a.run(&budget);
                    let mut b = Search::new(&t, &x, g.clone());
                    off(&mut b);
                    assert!(!rule(&b));
                    let without = b.run(&budget);
                    let deal = format!("ranks {ranks}, draw {draw}, redeals {redeals:?}, seed {seed}");
                    for answer in [&with, &without] {
                        if let Outcome::Win(line) = answer {
                            assert!(replay(&t, g.clone(), line), "{deal}");
                        }
                    }
                    let won = |o: &Outcome| matches!(o, Outcome::Win(_));
                    let reference = if seed % 2 == 0 {
                        let mut c = Search::new(&t, &bare, g.clone());
                        c.dominance = false;
                        c.skip_back = false;
                        c.run(&budget)
                    } else {
                        Outcome::Unknown
                    };
                    if with != Outcome::Unknown && reference != Outcome::Unknown {
                        assert_eq!(won(&with), won(&reference), "{deal}");
                        out.checked += 1;
                    }
                    if with != Outcome::Unknown && without != Outcome::Unknown {
                        assert_eq!(won(&with), won(&without), "{deal}");
                        out.decided[won(&with) as usize] += 1;
                        out.stored[0] += a.states;
                        out.stored[1] += b.states;
                        out.fewer += (a.states < b.states) as usize;
                    }
                }
            }
        }
        out
    }

    #[test]
    fn crossed_twin_children_change_no_answer() {
        // two positions whose twin parents carry twin children crossed are keyed as one (and
        // rule 1 of the twin parents comes before each safe move home): the same answers as
        // the search that keys them apart, with fewer states. (CROSSED_SEEDS=N checks N deals
        // of each rules and size instead of 30, by hand.)
        let seeds: u64 = std::env::var("CROSSED_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(30);
        let c = against_without(&[7, 8], seeds, |s| s.twins && s.uncross, |s| s.uncross = false);
        eprintln!("{c:?}");
        assert!(c.decided[0] > 20 && c.decided[1] > 60, "both wins and losses: {c:?}");
        assert!(c.checked > 60, "deals decided by the bare search too: {c:?}");
        assert!(c.fewer > 10 && c.stored[0] < c.stored[1], "fewer states keyed uncrossed: {c:?}");
    }

    #[test]
    fn the_move_straight_back_to_a_position_not_looked_up_changes_no_answer() {
        // with foundations that give cards back and twins, the move straight back may reach a
        // position the search does not look up (a card just taken back, a twin just
        // uncovered): passed by all the same, it is the position before, on the line, so the
        // answers are the same and the states never more (the Python engine passes it by too:
        // tests/test_native.py, pass for pass)
        let (mut fewer, mut decided) = (0, 0);
        for ranks in [7, 8] {
            let (mut t, x) = four_suits(ranks);
            for (draw, redeals) in [(1, Some(0)), (3, Some(0)), (3, Some(1)), (3, None)] {
                t.draw_count = draw;
                t.redeals = redeals;
                for seed in 0..30 {
                    let g = four_suit_deal(&t, ranks, seed);
                    let budget = Budget::states(50_000);
                    let mut with = Search::new(&t, &x, g.clone());
                    let mut without = Search::new(&t, &x, g.clone());
                    assert!(with.back_any && with.twins);
                    without.skip_back = false;
                    let (a, b) = (with.run(&budget), without.run(&budget));
                    let deal = format!("ranks {ranks}, draw {draw}, redeals {redeals:?}, seed {seed}");
                    if a != Outcome::Unknown && b != Outcome::Unknown {
                        assert_eq!(matches!(a, Outcome::Win(_)), matches!(b, Outcome::Win(_)), "{deal}");
                        decided += 1;
                    }
                    if let Outcome::Win(line) = &a {
                        assert!(replay(&t, g.clone(), line), "{deal}");
                    }
                    if a == Outcome::Unwinnable {
                        assert!(with.states <= without.states, "{deal}");
                    }
                    fewer += (with.states < without.states) as usize;
                }
            }
        }
        assert!(decided > 200, "{decided} deals decided both ways");
        assert!(fewer > 3, "the move back was passed by in {fewer} searches");
    }

    #[test]
    fn runs_between_twin_parents_change_no_answer() {
        // a run on the larger of two twins goes onto the smaller where that one is free, and
        // back only for a use of it: the same answers as the search without, with fewer states
        let (_, x) = four_suits(7);
        assert_eq!(x.twin[13 + 3], 26 + 3, "the 4 of diamonds' twin is the 4 of hearts");
        assert_eq!(x.twin[3], 39 + 3, "the 4 of clubs' twin is the 4 of spades");
        let c = against_without(&[7], 40, |s| s.twins, |s| s.twins = false);
        assert!(c.decided[0] > 25 && c.decided[1] > 60, "both wins and losses: {c:?}");
        assert!(c.checked > 60, "deals decided by the bare search too: {c:?}");
        assert!(c.stored[0] < c.stored[1], "fewer states with twins: {c:?}");
    }

    #[test]
    fn a_card_that_can_come_back_and_its_uses_at_once_change_no_answer() {
        // draw 1 and 3, unlimited redeals and two: with found_defer, cards that can come back
        // go home (the test game's only safe move: it has no safe-move tables) and a card
        // taken back is used at once, besides the waits; it stores fewer states
        let (_, mut x) = two_suits();
        x.auto_sources = vec![3, 4];
        let (decided, stored) = found_defer_agrees(&x, &[(1, None), (3, None), (1, Some(2)), (3, Some(2))], 40, 40_000);
        assert!(decided[0] > 0 && decided[1] > 0, "wins and proofs both: {decided:?}");
        assert!(stored[0] < stored[1], "it stores fewer states: {stored:?}");
    }

    #[test]
    fn a_take_back_is_left_out_only_where_the_position_after_it_has_no_move() {
        // positions of random play in the two-suit game (draw 1 and 3, unlimited redeals, the
        // foundations' moves played more often than others, so that they fill up and give back):
        // wherever the position after a take-back has a move to try, take_back_used says so;
        // and it does leave some out
        let (mut t, mut x) = two_suits();
        x.auto_sources = vec![3, 4];
        x.found_defer = true;
        x.macro_waste = Some(1);
        let mut next = numbers(0x9e37_79b9_7f4a_7c15);
        let (mut tried, mut with_moves, mut left_out) = (0, 0, 0);
        for draw in [1, 3] {
            t.draw_count = draw;
            for seed in 0..40 {
                let mut g = two_suit_deal(&t, seed, 0);
                for _ in 0..120 {
                    let mut s = Search::new(&t, &x, g.clone());
                    s.dfs = true;
                    let _ = s.moves(); // (writes where each card lies, and what the stock can bring up)
                    let mut legal = Vec::new();
                    s.g.legal_moves(&t, &mut legal);
                    for &(src, dst, n) in &legal {
                        if !t.is_foundation[src] || t.is_foundation[dst] || n != 1 {
                            continue;
                        }
                        let used = s.take_back_used(src, dst);
                        let mut after = Search::new(&t, &x, g.clone());
                        after.dfs = true;
                        after.g.push(&t, (src, dst, 1));
                        after.trail.push(Step::Move((src, dst, 1)));
                        assert!(after.pending().is_some());
                        let moves = after.moves();
                        tried += 1;
                        if !moves.is_empty() {
                            with_moves += 1;
                            assert!(used, "draw {draw}, seed {seed}: {:?} down {:?}, {src} to {dst}", g.piles, g.down);
                        } else if !used {
                            left_out += 1;
                        }
                    }
                    // a random move, one to or from a foundation more often than others
                    let mut all = Vec::new();
                    g.legal_moves(&t, &mut all);
                    if all.is_empty() {
                        break;
                    }
                    let home: Vec<Move> = all.iter().copied().filter(|m| t.is_foundation[m.0] || t.is_foundation[m.1]).collect();
                    let m = if !home.is_empty() && next(3) > 0 { home[next(home.len())] } else { all[next(all.len())] };
                    g.push(&t, m);
                }
            }
        }
        assert!(with_moves > 20 && left_out > 20, "tried {tried}, with moves {with_moves}, left out {left_out}");
    }

    #[test]
    fn the_ported_prunings_change_no_answer_of_an_exhausted_search() {
        // deals of the two-suit game, two redeals, draw 1 then draw 3 with macro-moves: the
        // exact search with found_defer and dominance answers as the one without them
        // wherever both finish (a win against a proof would be a wrong cut), and the
        // prunings decide some deals both ways
        let (_, x) = two_suits();
        let (decided, stored) = found_defer_agrees(&x, &[(1, Some(2)), (3, Some(2))], 12, 30_000);
        assert!(decided[0] > 0 && decided[1] > 0, "wins and proofs both: {decided:?}");
        assert!(stored[0] < stored[1], "the prunings store fewer states: {stored:?}");
    }

    #[test]
    fn turn_positions_with_limited_redeals_are_compared_by_dominance() {
        let mut t = little();
        t.redeals = Some(2);
        let mut x = plain(&t);
        x.macro_waste = Some(1);
        // the same cards everywhere; the stock and waste hold 3 2 1 between them
        let at = |waste: Vec<u16>, stock: Vec<u16>, recycles: u32| {
            let piles = vec![stock, waste, vec![0], vec![12, 11, 10, 9, 8], vec![7, 6, 5, 4]];
            State::new(&t, piles, vec![0, 0, 0, 4, 3], recycles)
        };
        let mut s = Search::new(&t, &x, at(vec![3], vec![1, 2], 0)); // (L 1, r 0)
        assert!(s.dominance);
        assert!(s.visit());
        s.g = at(vec![3, 2], vec![1], 0); // drawn on in the same pass: reached from (1, 0)
        assert!(!s.visit());
        s.g = at(vec![], vec![1, 2, 3], 0); // (0, 0): earlier in the pass, new
        assert!(s.visit());
        s.g = at(vec![3], vec![1, 2], 1); // (1, 1): (0, 0) draws on to it, or redeals first
        assert!(!s.visit());
        assert_eq!(s.stored(), 1, "one key, however many turn positions it holds");
        let mut s = Search::new(&t, &x, at(vec![3, 2, 1], vec![], 1)); // (3, 1): the end
        assert!(s.visit());
        s.g = at(vec![], vec![1, 2, 3], 0); // (0, 0) is not reached from (3, 1) ...
        assert!(s.visit());
        s.g = at(vec![3, 2, 1], vec![], 2); // ... but (3, 2) is, from either
        assert!(!s.visit());
        // without dominance the key tells the turn positions apart (equality, the safe half)
        let mut s = Search::new(&t, &x, at(vec![3], vec![1, 2], 0));
        s.dominance = false;
        assert!(s.visit());
        s.g = at(vec![3, 2], vec![1], 0);
        assert!(s.visit());
    }

    #[test]
    fn turn_positions_with_unlimited_redeals_and_draw_3_are_compared_by_dominance() {
        let (mut t, mut x) = two_suits();
        t.draw_count = 3;
        x.macro_waste = Some(1);
        // the same cards everywhere; the stock and waste hold 1 to 7 between them (the waste
        // the first `l` of them), the rest on the columns
        let at = |l: usize| {
            let seq: Vec<u16> = (1..8).collect();
            let stock: Vec<u16> = seq[l..].iter().rev().copied().collect();
            let piles = vec![stock.clone(), seq[..l].to_vec(), vec![0], (8..17).collect(), (17..26).collect(), vec![]];
            State::new(&t, piles, vec![stock.len(), 0, 0, 8, 8, 0], 0)
        };
        let mut s = Search::new(&t, &x, at(1));
        assert!(s.dominance);
        assert!(s.visit()); // L 1
        for (l, fresh) in [
            (4, false), // drawn on from L 1
            (7, false), // the end, reached from anywhere
            (3, false), // aligned: draw to the end, redeal, draw on
            (0, false),
            (2, true),  // another phase, not reached from L 1
            (5, false), // drawn on from L 2
        ] {
            s.g = at(l);
            assert_eq!(s.visit(), fresh, "L {l}");
        }
        assert_eq!(s.stored(), 1, "one key, however many turn positions it holds");
        // an aligned position first reaches no position mid-turn
        let mut s = Search::new(&t, &x, at(3));
        assert!(s.visit());
        s.g = at(6);
        assert!(!s.visit());
        s.g = at(4);
        assert!(s.visit());
        // without dominance the key tells the points mid-turn apart (equality, the safe half)
        let mut s = Search::new(&t, &x, at(1));
        s.dominance = false;
        assert!(s.visit());
        s.g = at(4);
        assert!(s.visit());
        s.g = at(6);
        assert!(s.visit());
        s.g = at(3);
        assert!(!s.visit(), "every aligned point is one key");
    }

    /// Two searches joined on a shared table where turn positions are compared by dominance
    /// (the two-suit game, draw 3, unlimited redeals) decide as one search does: a loss only
    /// once both ran out of moves, a win with a line that replays.
    #[test]
    fn searches_joined_on_a_shared_table_compare_turn_positions_by_dominance() {
        let (mut t, mut x) = two_suits();
        t.draw_count = 3;
        t.redeals = None;
        x.macro_waste = Some(1);
        x.auto_sources = vec![3, 4];
        let mut next = numbers(0x2545_f491_4f6c_dd1d);
        let (mut won, mut lost) = (0, 0);
        for seed in 0..300 {
            let g = two_suit_deal(&t, seed, 0);
            let mut one = Search::new(&t, &x, g.clone());
            let alone = one.run(&Budget::states(200_000));
            let (mut first, mut second, _) = joined(&t, &x, &g);
            assert!(first.dominance && second.dominance);
            let (done_first, done_second) = interleaved(&mut first, &mut second, 1 + next(40), 200_000);
            match alone {
                Outcome::Win(_) => {
                    won += 1;
                    let line = win_line(done_first, done_second);
                    assert!(line.is_some_and(|l| replay(&t, g.clone(), &l)), "seed {seed}: no win that replays");
                }
                Outcome::Unwinnable => {
                    lost += 1;
                    assert_eq!((done_first, done_second), (Some(Outcome::Unwinnable), Some(Outcome::Unwinnable)),
                               "seed {seed}");
                }
                Outcome::Unknown => unreachable!("200,000 states decide the two-suit game"),
            }
        }
        // (the two-suit game's draw 3 wins few deals)
        assert!(won >= 5 && lost >= 100, "{won} {lost}");
    }

    #[test]
    fn with_dominance_the_exact_search_still_wins_and_proves_and_stores_no_more() {
        let mut t = little();
        t.redeals = Some(1);
        let mut x = plain(&t);
        x.macro_waste = Some(1);
        // the ace deep in the stock, the columns' runs over the cards they need
        let piles = vec![vec![0, 12, 11, 6], vec![], vec![], vec![5, 4, 3, 2, 1], vec![10, 9, 8, 7]];
        let g = State::new(&t, piles, vec![4, 0, 0, 4, 3], 0);
        let mut with = Search::new(&t, &x, g.clone());
        let mut without = Search::new(&t, &x, g.clone());
        without.dominance = false;
        let budget = Budget::states(100_000);
        for s in [&mut with, &mut without] {
            match s.run(&budget) {
                Outcome::Win(line) => assert!(replay(&t, g.clone(), &line)),
                other => panic!("expected a win, got {other:?}"),
            }
        }
        // the blocked deal, no redeal: both exhaust and prove it; dominance stores no more
        let mut closed = t.clone();
        closed.redeals = Some(0);
        let g = blocked_deal(&closed);
        let mut with = Search::new(&closed, &x, g.clone());
        let mut without = Search::new(&closed, &x, g);
        without.dominance = false;
        assert_eq!(with.run(&budget), Outcome::Unwinnable);
        assert_eq!(without.run(&budget), Outcome::Unwinnable);
        assert!(with.states <= without.states, "{} > {}", with.states, without.states);
    }

    #[test]
    fn safe_moves_home_are_played_when_proved() {
        let t = little();
        let mut x = plain(&t);
        x.home_kind = (0..52).map(|c| if c == 0 { HOME_START } else { HOME_LONE }).collect();
        x.track = vec![false, false, true, false, false];
        x.auto_sources = vec![1, 3, 4];
        let piles = vec![vec![], vec![0], vec![], vec![1], vec![]];
        let g = State::new(&t, piles, vec![0; 5], 0);
        let mut s = Search::new(&t, &x, g);
        s.auto();
        assert_eq!(s.trail, vec![Step::Move((1, 2, 1)), Step::Move((3, 2, 1))]);
    }

    /// The deals of the two-suit game (unlimited redeals, no waits: long searches) whose exact search stores
    /// more than `more_than` states when nothing stops it, with what it stored.
    fn long_searches(more_than: usize) -> (Tables, SearchTables, Vec<(State, usize)>) {
        let (mut t, mut x) = two_suits();
        t.redeals = None;
        x.defer = vec![];
        let long: Vec<(State, usize)> = (0..40)
            .filter_map(|seed| {
                let g = two_suit_deal(&t, seed, 0);
                let mut s = Search::new(&t, &x, g.clone());
                let _ = s.run(&Budget::states(200_000));
                (s.states > more_than).then_some((g, s.states))
            })
            .collect();
        (t, x, long)
    }

    #[test]
    fn a_cancelled_budget_stops_every_pass_within_its_check_and_proves_nothing() {
        let (t, x, long) = long_searches(2_000);
        assert!(!long.is_empty(), "some deal needs more than 2,000 states");
        let flag = Arc::new(AtomicBool::new(true));
        let budget = Budget { max_states: 200_000, cancel: Some(flag), ..Budget::default() };
        assert!(budget.cancelled() && budget.over());
        for (g, full) in long {
            let mut exact = Search::new(&t, &x, g.clone());
            assert_eq!(exact.run(&budget), Outcome::Unknown);
            assert!(exact.states <= 256 && exact.states < full, "{} of {full}", exact.states);
            let mut best = Search::new(&t, &x, g.clone());
            assert_eq!(best.best_first(&budget), Outcome::Unknown);
            assert!(best.states <= 64 * 26, "{}", best.states);
            let (beam, used, _) = guided::guided(&t, &x, g.clone(), &budget, None, guided::Deals::Plain);
            assert_eq!(beam, Outcome::Unknown);
            assert!(used <= 16 * 26, "{used}");
            // the portfolio looks at the flag before it starts: nothing searched
            assert_eq!(solve(&t, &x, g, &budget, None, None, None, Some(&budget)), (Outcome::Unknown, 0, ""));
        }
    }

    #[test]
    fn a_search_cancelled_from_another_thread_stops_long_before_its_budget() {
        let (t, x, long) = long_searches(2_000);
        let (g, full) = long.into_iter().max_by_key(|(_, n)| *n).expect("a long search");
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget { max_states: 10_000_000, cancel: Some(flag.clone()), ..Budget::default() };
        let (outcome, states) = std::thread::scope(|scope| {
            let searcher = scope.spawn(|| {
                let mut s = Search::new(&t, &x, g.clone());
                let outcome = s.run(&budget);
                (outcome, s.states)
            });
            flag.store(true, Ordering::Relaxed); // while it runs (or before it starts)
            searcher.join().expect("the search thread")
        });
        assert_eq!(outcome, Outcome::Unknown, "stopped, and no proof: {full} states to exhaust");
        assert!(states < full, "{states} of {full}");
    }

    #[test]
    fn the_portfolio_in_two_threads_decides_as_the_one_in_one() {
        // the two-suit game's deals, every one decided within the budget either way: the same
        // answer (a win that replays, or a proof), whichever thread decides first
        let (t, x) = two_suits();
        let budget = Budget::states(50_000);
        let (mut won, mut lost) = (0, 0);
        for seed in 0..30 {
            let g = two_suit_deal(&t, seed, 0);
            let (one, _, _) = solve(&t, &x, g.clone(), &budget, None, None, None, Some(&budget));
            let (two, states, method) = solve_parallel(&t, &x, g.clone(), &budget, None, None, None, Some(&budget));
            match (&one, &two) {
                (Outcome::Win(_), Outcome::Win(line)) => {
                    assert!(replay(&t, g, line), "seed {seed}");
                    won += 1;
                }
                (Outcome::Unwinnable, Outcome::Unwinnable) => {
                    assert!(["exact", "greedy", "blocked"].contains(&method), "seed {seed}: {method}");
                    lost += 1;
                }
                (Outcome::Unknown, Outcome::Unknown) => {}
                _ => panic!("seed {seed}: {one:?} in one thread, {two:?} in two"),
            }
            assert!(states > 0 || method == "blocked", "seed {seed}");
        }
        assert!(won > 0 && lost > 0, "{won} won, {lost} lost");
    }

    #[test]
    fn a_cancelled_portfolio_in_two_threads_stops_both() {
        let (t, x, long) = long_searches(2_000);
        let (g, full) = long.into_iter().max_by_key(|(_, n)| *n).expect("a long search");
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget { max_states: 10_000_000, cancel: Some(flag.clone()), ..Budget::default() };
        let (outcome, states, method) = std::thread::scope(|scope| {
            let searcher = scope.spawn(|| solve_parallel(&t, &x, g.clone(), &budget, None, None, None, Some(&budget)));
            flag.store(true, Ordering::Relaxed); // while it runs (or before it starts)
            searcher.join().expect("the portfolio's thread")
        });
        assert_eq!((outcome, method), (Outcome::Unknown, ""), "stopped, and no proof");
        assert!(states < 2 * full, "{states} of {full} a pass");
        flag.store(true, Ordering::Relaxed);
        assert_eq!(solve_parallel(&t, &x, g, &budget, None, None, None, None), (Outcome::Unknown, 0, ""));
    }
}
