//! Calculation's exhaustive search, compiled: `search.py`'s `Search.dfs`, move for move.
//!
//! The plugin's Python search (`variants/calculation/search.py`) is the reference: this crate
//! makes the same moves in the same order, prunes with the same proofs and stores the same
//! positions, so under a states budget both give the same answer and the same count of
//! positions stored (tests/test_calculation_solver.py checks it). It knows one game, which
//! is why it lives in the game's plugin and not in the solver's core.
//!
//! A position is the four foundations' lengths (each counts by 1, 2, 3 or 4 from A, 2, 3 or
//! 4, regardless of suit), the four reserves (ranks 0 = Ace .. 12 = King, bottom to top) and
//! the ranks still to draw, in order. The search is depth first with a table of the
//! positions seen (reserves sorted: they are interchangeable). Each pruning is a proof, so an
//! exhausted search proves the deal lost:
//!
//! * a reserve's top card that is the last copy of its rank away from home fits the one
//!   foundation that needs it: it goes there (nothing else can ever take it);
//! * a reserve card is stuck for ever when every foundation that still needs its rank needs
//!   first a rank all of whose copies away from home lie under it in the same reserve;
//! * a position is lost when the reserves cannot be cleared even if every card still to be
//!   drawn were free to play at any time (a relaxation of the game), searched over the
//!   foundations' lengths and the reserves' heights up to `relax_budget` positions (past it,
//!   no answer: the position is kept). A position of that search depends on nothing but the
//!   foundations' lengths and the reserves cut to their heights, so its answer holds for
//!   every check of the search: the answers are kept in one table (`RELAX_MEMO` of them,
//!   emptied when full), a "false" always (no position is its own descendant), a "true" unless
//!   the budget ran out.
//!
//! The beam search for wins that runs before it is compiled here too ([`beam()`]).

// The loops over the four reserves and foundations index several arrays by the same j or k
// (its lengths, reserves and costs side by side): clearer than clippy's zipped iterators.
#![allow(clippy::needless_range_loop)]

mod beam;
#[cfg(feature = "python")]
mod python;

pub use beam::{beam, BeamResult};

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// Ranks of a deck: Ace (0) to King (12).
pub const RANKS: usize = 13;
/// The relaxation's default budget (positions), as search.py's `RELAX_BUDGET`.
pub const RELAX_BUDGET: u32 = 2000;
/// The relaxation's table of answers, shared by every check of one search, is emptied when
/// it holds this many (search.py's `RELAX_MEMO`).
pub const RELAX_MEMO: usize = 1 << 16;
/// The exact search stops (no answer) once its relaxation checks have searched this many
/// positions a state of its budget, in all (search.py's `RELAX_WORK`).
pub const RELAX_WORK: usize = 64;

/// Multiplicative hashing over 8-byte words (the keys are short; SipHash costs more here).
#[derive(Default)]
pub(crate) struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut v = 0u64;
            for (i, b) in chunk.iter().enumerate() {
                v |= (*b as u64) << (8 * i);
            }
            self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
}

pub(crate) type FxBuild = BuildHasherDefault<Fx>;

/// The four sequences' tables, as tables.py builds them.
pub struct Tables {
    /// `seq[k][j]`: the rank of card j on foundation k (0..13), then -1 once it is complete
    pub seq: [[i8; RANKS + 1]; 4],
    /// `pos[k][r]`: where rank r lies on foundation k
    pub pos: [[u8; RANKS]; 4],
    /// `path[k][length][r]`: bitmask of the ranks foundation k still needs before rank r
    pub path: [[[u16; RANKS]; RANKS + 1]; 4],
}

impl Default for Tables {
    fn default() -> Self {
        Self::new()
    }
}

impl Tables {
    pub fn new() -> Tables {
        let mut t = Tables { seq: [[-1; RANKS + 1]; 4], pos: [[0; RANKS]; 4], path: [[[0; RANKS]; RANKS + 1]; 4] };
        for k in 0..4 {
            for j in 0..RANKS {
                let r = ((k + 1) * (j + 1) - 1) % RANKS;
                t.seq[k][j] = r as i8;
                t.pos[k][r] = j as u8;
            }
        }
        for k in 0..4 {
            for length in 0..=RANKS {
                for r in 0..RANKS {
                    let mut mask = 0u16;
                    for j in length..(t.pos[k][r] as usize) {
                        mask |= 1 << t.seq[k][j];
                    }
                    t.path[k][length][r] = mask;
                }
            }
        }
        t
    }

    /// search.py's `urgency`: cards the nearest foundation that still needs `rank` takes
    /// before it, with the foundations `lengths` long (13: none needs it).
    pub fn urgency(&self, lengths: [usize; 4], rank: usize) -> i32 {
        let mut best = RANKS as i32;
        for k in 0..4 {
            let d = self.pos[k][rank] as i32 - lengths[k] as i32;
            if 0 <= d && d < best {
                best = d;
            }
        }
        best
    }
}

/// One step of a line, in search.py's path format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// a reserve's top card goes home: ("h", reserve, foundation)
    Home { reserve: usize, foundation: usize },
    /// the next card drawn goes home: ("d", foundation, -1)
    DrawHome { foundation: usize },
    /// the next card drawn is parked on a reserve: ("d", -1, reserve)
    DrawPark { reserve: usize },
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// the steps that win
    Win(Vec<Step>),
    /// no line wins (the search was exhausted: a proof)
    Lost,
    /// the budget ran out
    Unknown,
}

/// A search's bounds: positions stored, a deadline, the relaxation's own budget, and the
/// work of the whole search (search.py's `max_work`: the positions it reaches, its own and
/// its relaxation checks' together; None: no such bound).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub max_states: usize,
    pub deadline: Option<Instant>,
    pub relax_budget: u32,
    pub max_work: Option<usize>,
}

/// Why a position cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPosition(pub String);

/// Refuse a position whose shape, ranks or lengths are out of range.
pub fn check(lengths: &[usize], reserves: &[Vec<u8>], cards: &[u8]) -> Result<(), BadPosition> {
    if lengths.len() != 4 || reserves.len() != 4 {
        return Err(BadPosition("a position has four foundations and four reserves".into()));
    }
    if lengths.iter().any(|&l| l > RANKS) {
        return Err(BadPosition(format!("a foundation holds at most {RANKS} cards")));
    }
    if reserves.iter().flatten().chain(cards.iter()).any(|&r| r as usize >= RANKS) {
        return Err(BadPosition(format!("a rank is 0 to {}", RANKS - 1)));
    }
    if reserves.iter().map(Vec::len).sum::<usize>() + cards.len() > 4 * RANKS {
        return Err(BadPosition(format!("a position has at most {} cards away from home", 4 * RANKS)));
    }
    Ok(())
}

/// Search a position; see the module's documentation. Returns the outcome and the positions
/// stored. A position whose ranks or lengths are out of range is refused.
pub fn search(lengths: &[usize], reserves: &[Vec<u8>], cards: &[u8], budget: Budget) -> Result<(Outcome, usize), BadPosition> {
    check(lengths, reserves, cards)?;
    let t = Tables::new();
    let mut s = Search::new(&t, [lengths[0], lengths[1], lengths[2], lengths[3]], reserves, cards, budget);
    let won = s.dfs(0);
    let states = s.seen.len();
    let outcome = if won {
        Outcome::Win(s.path)
    } else if s.out {
        Outcome::Unknown
    } else {
        Outcome::Lost
    };
    Ok((outcome, states))
}

struct Search<'a> {
    t: &'a Tables,
    l: [usize; 4],
    r: [Vec<u8>; 4],
    cards: &'a [u8],
    /// copies of each rank not yet home (== foundations still needing it)
    rem: [u8; RANKS],
    seen: HashSet<Box<[u8]>, FxBuild>,
    path: Vec<Step>,
    count: u64,
    budget: Budget,
    out: bool,
    /// `ids[j][h]`: the number of reserve j's lowest h cards (see [`Prefixes`])
    ids: [Vec<u32>; 4],
    prefixes: Prefixes,
    relax_memo: HashMap<RelaxKey, bool, FxBuild>,
    /// positions the relaxation's checks have searched, in all
    relax_work: usize,
    key_buf: Vec<u8>,
}

/// Every sequence of ranks a reserve has held during a search, numbered (0: the empty
/// reserve; a sequence's number from its prefix's and its top card), so that a position of
/// the relaxation (the foundations' lengths and every reserve cut to some height) is a key
/// of fixed size. Numbers are never reused within a search: equal numbers, equal sequences.
#[derive(Default)]
struct Prefixes {
    /// (number of the sequence below, rank on top) -> number
    child: HashMap<u64, u32, FxBuild>,
}

impl Prefixes {
    fn id(&mut self, below: u32, rank: u8) -> u32 {
        // never 0 again (the empty reserve's): a search stores far fewer sequences than 2^32
        let next = u32::try_from(self.child.len() + 1).expect("fewer than 2^32 reserve sequences");
        *self.child.entry((below as u64) << 8 | rank as u64).or_insert(next)
    }
}

/// A position of the relaxation: its reserves' numbers sorted (the reserves are
/// interchangeable) and the foundations' lengths, four bits each.
type RelaxKey = (u64, u64, u32);

/// A move of one node: (priority, move), ordered by priority, highest first, ties in the
/// order generated (Python's stable sort).
type Ranked = (i32, Step);

impl<'a> Search<'a> {
    fn new(t: &'a Tables, l: [usize; 4], reserves: &[Vec<u8>], cards: &'a [u8], budget: Budget) -> Search<'a> {
        let mut rem = [0u8; RANKS];
        for k in 0..4 {
            for j in l[k]..RANKS {
                rem[t.seq[k][j] as usize] += 1;
            }
        }
        let mut s = Search {
            t,
            l,
            r: Default::default(),
            cards,
            rem,
            seen: HashSet::default(),
            path: Vec::new(),
            count: 0,
            budget,
            out: false,
            ids: std::array::from_fn(|_| vec![0]),
            prefixes: Prefixes::default(),
            relax_memo: HashMap::default(),
            relax_work: 0,
            key_buf: Vec::with_capacity(64),
        };
        for (j, pile) in reserves.iter().enumerate() {
            for &r in pile {
                s.push(j, r);
            }
        }
        s
    }

    fn want(&self, k: usize) -> i8 {
        self.t.seq[k][self.l[k]]
    }

    fn urgency(&self, rank: u8) -> i32 {
        self.t.urgency(self.l, rank as usize)
    }

    /// search.py's key: the lengths, then the reserves sorted, joined by 0xff.
    fn key(&mut self) -> Box<[u8]> {
        let mut order = [0usize, 1, 2, 3];
        order.sort_by(|&a, &b| self.r[a].cmp(&self.r[b]));
        let buf = &mut self.key_buf;
        buf.clear();
        buf.extend(self.l.iter().map(|&x| x as u8));
        for (n, &j) in order.iter().enumerate() {
            if n > 0 {
                buf.push(0xff);
            }
            buf.extend_from_slice(&self.r[j]);
        }
        buf.as_slice().into()
    }

    fn push(&mut self, j: usize, r: u8) {
        self.r[j].push(r);
        let below = *self.ids[j].last().expect("the empty reserve's number");
        let id = self.prefixes.id(below, r);
        self.ids[j].push(id);
    }

    fn pop(&mut self, j: usize) -> u8 {
        self.ids[j].pop();
        self.r[j].pop().expect("a reserve's top card")
    }

    fn home(&mut self, j: usize, k: usize) {
        let r = self.pop(j);
        self.l[k] += 1;
        self.rem[r as usize] -= 1;
        self.path.push(Step::Home { reserve: j, foundation: k });
    }

    fn unhome(&mut self) {
        if let Some(Step::Home { reserve: j, foundation: k }) = self.path.pop() {
            self.l[k] -= 1;
            let r = self.t.seq[k][self.l[k]] as u8;
            self.push(j, r);
            self.rem[r as usize] += 1;
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.path.len() > mark {
            self.unhome();
        }
    }

    /// Play home every reserve top that is the last copy of its rank away from home.
    fn forced(&mut self) {
        let mut again = true;
        while again {
            again = false;
            for j in 0..4 {
                let Some(&r) = self.r[j].last() else { continue };
                if self.rem[r as usize] != 1 {
                    continue;
                }
                if let Some(k) = (0..4).find(|&k| self.want(k) == r as i8) {
                    self.home(j, k);
                    again = true;
                }
            }
        }
    }

    fn won(&self) -> bool {
        self.l.iter().all(|&x| x == RANKS)
    }

    /// Is the top card of reserve `j` stuck for ever (a proof)?
    fn stuck(&self, j: usize) -> bool {
        let pile = &self.r[j];
        if pile.len() < 2 {
            return false;
        }
        let top = pile[pile.len() - 1] as usize;
        let mut under = [0u8; RANKS];
        for &r in &pile[..pile.len() - 1] {
            under[r as usize] += 1;
        }
        let mut blocked = 0u16;
        for r in 0..RANKS {
            if under[r] > 0 && under[r] == self.rem[r] {
                blocked |= 1 << r;
            }
        }
        if blocked == 0 {
            return false;
        }
        for k in 0..4 {
            let length = self.l[k];
            if self.t.pos[k][top] as usize >= length && self.t.path[k][length][top] & blocked == 0 {
                return false;
            }
        }
        true
    }

    /// False only when the reserves can never be cleared even with every card still to be
    /// drawn free at any time (a proof); search.py's `relaxed_ok`.
    fn relaxed_ok(&mut self) -> bool {
        let mut resv = [0i32; RANKS];
        for pile in &self.r {
            for &r in pile {
                resv[r as usize] += 1;
            }
        }
        let mut free = [0i32; RANKS];
        for r in 0..RANKS {
            free[r] = self.rem[r] as i32 - resv[r];
        }
        let mut relax = Relax {
            t: self.t,
            r: &self.r,
            l: self.l,
            h: [self.r[0].len(), self.r[1].len(), self.r[2].len(), self.r[3].len()],
            resv,
            free,
            ids: &self.ids,
            memo: &mut self.relax_memo,
            count: 0,
            inexact: false,
            budget: self.budget.relax_budget,
        };
        let ok = relax.go();
        self.relax_work += relax.count as usize;
        ok
    }

    fn dfs(&mut self, i: usize) -> bool {
        self.count += 1;
        if self.count & 63 == 0
            && (self.seen.len() > self.budget.max_states
                || self.relax_work > RELAX_WORK.saturating_mul(self.budget.max_states)
                || self.budget.max_work.is_some_and(|w| self.relax_work.saturating_add(self.count as usize) > w)
                || self.budget.deadline.is_some_and(|d| Instant::now() > d))
        {
            self.out = true;
            return false;
        }
        let mark = self.path.len();
        self.forced();
        if self.won() {
            return true;
        }
        let key = self.key();
        if !self.seen.insert(key) {
            self.undo_to(mark);
            return false;
        }
        let wants = [self.want(0), self.want(1), self.want(2), self.want(3)];
        let mut moves: Vec<Ranked> = Vec::with_capacity(24);
        for j in 0..4 {
            if let Some(&r) = self.r[j].last() {
                for (k, &w) in wants.iter().enumerate() {
                    if w == r as i8 {
                        moves.push((1000 + k as i32, Step::Home { reserve: j, foundation: k }));
                    }
                }
            }
        }
        if i < self.cards.len() {
            let c = self.cards[i];
            for (k, &w) in wants.iter().enumerate() {
                if w == c as i8 {
                    moves.push((900 + k as i32, Step::DrawHome { foundation: k }));
                }
            }
            let u = self.urgency(c);
            let empties = self.r.iter().filter(|p| p.is_empty()).count() as i32;
            for j in 0..4 {
                if (0..j).any(|q| self.r[q] == self.r[j]) {
                    continue;
                }
                let pri = match self.r[j].last() {
                    None => (if c as usize == RANKS - 1 { 15 } else { 0 }) - 12 / empties,
                    Some(&top) => {
                        let under = self.urgency(top);
                        if u <= under {
                            25 - (under - u).min(20)
                        } else {
                            -25 - (u - under).min(30)
                        }
                    }
                };
                moves.push((pri, Step::DrawPark { reserve: j }));
            }
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.0)); // stable
        for &(_, m) in &moves {
            match m {
                Step::Home { reserve: j, foundation: k } => {
                    self.home(j, k);
                    if self.dfs(i) {
                        return true;
                    }
                    if self.out {
                        return false;
                    }
                    self.unhome();
                }
                Step::DrawHome { foundation: k } => {
                    let c = self.cards[i] as usize;
                    self.l[k] += 1;
                    self.rem[c] -= 1;
                    self.path.push(m);
                    if self.dfs(i + 1) {
                        return true;
                    }
                    if self.out {
                        return false;
                    }
                    self.path.pop();
                    self.l[k] -= 1;
                    self.rem[c] += 1;
                }
                Step::DrawPark { reserve: j } => {
                    self.push(j, self.cards[i]);
                    self.path.push(m);
                    if !self.stuck(j) && self.relaxed_ok() && self.dfs(i + 1) {
                        return true;
                    }
                    if self.out {
                        return false;
                    }
                    self.path.pop();
                    self.pop(j);
                }
            }
        }
        self.undo_to(mark);
        false
    }
}

/// The relaxation's search over (foundation lengths, reserve heights).
struct Relax<'a> {
    t: &'a Tables,
    r: &'a [Vec<u8>; 4],
    l: [usize; 4],
    h: [usize; 4],
    resv: [i32; RANKS],
    free: [i32; RANKS],
    ids: &'a [Vec<u32>; 4],
    /// answers of positions searched to the end, shared by every check of the search
    memo: &'a mut HashMap<RelaxKey, bool, FxBuild>,
    /// positions searched by this check (those answered by the memo are not counted)
    count: u32,
    budget: u32,
    /// the budget ran out: this check's "true" is no answer, not to be remembered
    inexact: bool,
}

/// A step of the relaxation's closure, to undo: a free copy of a rank, or a reserve's top.
#[derive(Clone, Copy)]
enum Took {
    Free(usize, usize),
    Top(usize, usize),
}

impl Relax<'_> {
    fn top(&self, j: usize) -> Option<usize> {
        (self.h[j] > 0).then(|| self.r[j][self.h[j] - 1] as usize)
    }

    fn go(&mut self) -> bool {
        // the sound shortcuts: a rank with no copy in the reserves is taken free at once, and
        // one whose only reserve copy is a top card takes that card at once
        let mut log: Vec<Took> = Vec::new();
        loop {
            let mut moved = false;
            for k in 0..4 {
                let r = self.t.seq[k][self.l[k]];
                if r < 0 {
                    continue;
                }
                let r = r as usize;
                if self.resv[r] == 0 && self.free[r] > 0 {
                    self.free[r] -= 1;
                    self.l[k] += 1;
                    log.push(Took::Free(k, r));
                    moved = true;
                } else if self.resv[r] == 1 {
                    if let Some(j) = (0..4).find(|&j| self.top(j) == Some(r)) {
                        self.h[j] -= 1;
                        self.resv[r] -= 1;
                        self.l[k] += 1;
                        log.push(Took::Top(k, j));
                        moved = true;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        let mut ok = false;
        if self.h.iter().all(|&x| x == 0) {
            ok = true;
        } else {
            let mut ids = [0u32; 4];
            for j in 0..4 {
                ids[j] = self.ids[j][self.h[j]];
            }
            ids.sort_unstable();
            let mut lengths = 0u32;
            for k in 0..4 {
                lengths = lengths << 4 | self.l[k] as u32;
            }
            let key = (ids[0] as u64 | (ids[1] as u64) << 32, ids[2] as u64 | (ids[3] as u64) << 32, lengths);
            if let Some(&known) = self.memo.get(&key) {
                ok = known;
            } else {
                self.count += 1;
                if self.count > self.budget {
                    ok = true; // no answer: keep the position
                    self.inexact = true;
                } else {
                    'found: for k in 0..4 {
                        let r = self.t.seq[k][self.l[k]];
                        if r < 0 {
                            continue;
                        }
                        let r = r as usize;
                        let mut tops = false;
                        for j in 0..4 {
                            if self.top(j) != Some(r) {
                                continue;
                            }
                            tops = true;
                            self.h[j] -= 1;
                            self.resv[r] -= 1;
                            self.l[k] += 1;
                            ok = self.go();
                            self.l[k] -= 1;
                            self.resv[r] += 1;
                            self.h[j] += 1;
                            if ok {
                                break 'found;
                            }
                        }
                        if !tops && self.free[r] > 0 {
                            self.free[r] -= 1;
                            self.l[k] += 1;
                            ok = self.go();
                            self.l[k] -= 1;
                            self.free[r] += 1;
                            if ok {
                                break 'found;
                            }
                        }
                    }
                }
                // a "false" is always an answer (a position is never its own descendant, so
                // every child was searched to the end); a "true" is one unless the budget ran
                // out, which ends the check
                if !(ok && self.inexact) {
                    if self.memo.len() >= RELAX_MEMO {
                        self.memo.clear();
                    }
                    self.memo.insert(key, ok);
                }
            }
        }
        for &took in log.iter().rev() {
            match took {
                Took::Free(k, r) => {
                    self.l[k] -= 1;
                    self.free[r] += 1;
                }
                Took::Top(k, j) => {
                    self.l[k] -= 1;
                    self.h[j] += 1;
                    let r = self.r[j][self.h[j] - 1] as usize;
                    self.resv[r] += 1;
                }
            }
        }
        ok
    }
}

#[cfg(test)]
mod tests;
