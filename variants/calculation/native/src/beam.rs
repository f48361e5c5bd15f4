//! Calculation's beam search for wins, compiled: `search.py`'s `beam`, level for level.
//!
//! The beam follows the draws: at each level every position kept parks the drawn card on
//! each different reserve or, when a foundation takes it, sends it home; after every move a
//! reserve top that fits goes home at once (only a move home uncovers one). The positions of
//! a level (keyed with the reserves sorted: they are interchangeable) are scored by one of
//! three estimates ([`KINDS`]) and the best `width` kept. The scores are search.py's, doubled
//! (its weights are multiples of one half), so they compare exactly as Python's floats do and
//! both keep the same positions in the same order: the same line, cut and count.
//!
//! Positions live in a level's arena: four reserves as byte ranges, no allocation a position.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::time::Instant;

use crate::{check, BadPosition, FxBuild, Step, Tables, RANKS};

/// The estimates: (pair penalty base, gap divisor, twice the weight of the reserve tops'
/// urgency, weight of a card home): search.py's `KINDS`, the third doubled.
pub const KINDS: [(i64, i64, i64, i64); 3] = [(3, 3, 0, 10), (3, 3, 3, 10), (1, 1, 3, 10)];

/// What one beam search found: a winning line (None: no proof of anything), whether any
/// level was cut short (if not, a wider beam finds nothing more), and the positions it
/// stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BeamResult {
    pub path: Option<Vec<Step>>,
    pub cut: bool,
    pub states: usize,
}

/// A position of a level: the foundations' lengths, its four reserves in the level's arena,
/// its score (doubled), and how it was reached (its parent in the level before, its steps
/// in the level's steps).
#[derive(Clone, Copy)]
struct Node {
    l: [u8; 4],
    start: [u32; 4],
    len: [u8; 4],
    score: i64,
    parent: u32,
    steps: (u32, u32),
}

/// One level: its positions, the bytes of their reserves and their steps ([`pack`]).
#[derive(Default)]
struct Level {
    nodes: Vec<Node>,
    bytes: Vec<u8>,
    steps: Vec<u8>,
}

impl Level {
    fn pile(&self, n: &Node, j: usize) -> &[u8] {
        &self.bytes[n.start[j] as usize..n.start[j] as usize + n.len[j] as usize]
    }

    fn clear(&mut self) {
        self.nodes.clear();
        self.bytes.clear();
        self.steps.clear();
    }

    fn push(&mut self, l: [u8; 4], piles: [&[u8]; 4], score: i64, parent: u32, steps: (u32, u32)) {
        let mut start = [0u32; 4];
        let mut len = [0u8; 4];
        for j in 0..4 {
            start[j] = self.bytes.len() as u32;
            len[j] = piles[j].len() as u8;
            self.bytes.extend_from_slice(piles[j]);
        }
        self.nodes.push(Node { l, start, len, score, parent, steps });
    }
}

/// A step in a byte: its kind in the low two bits, the reserve in the next two, the
/// foundation in the two above.
fn pack(s: Step) -> u8 {
    match s {
        Step::Home { reserve, foundation } => (reserve << 2 | foundation << 4) as u8,
        Step::DrawHome { foundation } => 1 | (foundation << 4) as u8,
        Step::DrawPark { reserve } => 2 | (reserve << 2) as u8,
    }
}

fn unpack(b: u8) -> Step {
    let (reserve, foundation) = ((b >> 2 & 3) as usize, (b >> 4 & 3) as usize);
    match b & 3 {
        0 => Step::Home { reserve, foundation },
        1 => Step::DrawHome { foundation },
        _ => Step::DrawPark { reserve },
    }
}

/// search.py's `urgency` for every rank: cards the nearest foundation still needing the rank
/// takes before it (13: none).
fn urgencies(t: &Tables, l: &[u8; 4]) -> [i64; RANKS] {
    let lengths = l.map(usize::from);
    std::array::from_fn(|r| t.urgency(lengths, r) as i64)
}

/// search.py's `_pile_cost`, doubled.
fn pile_cost(us: &[i64; RANKS], pile: &[u8], kind: usize) -> i64 {
    let (base, div, tops, _) = KINDS[kind];
    let Some(&top) = pile.last() else { return -tops * 14 };
    let mut cost = 2 * pile.len() as i64;
    for (a, &ra) in pile.iter().enumerate() {
        let ua = us[ra as usize];
        for &rb in &pile[a + 1..] {
            let ub = us[rb as usize];
            if ub > ua {
                cost += 2 * (base + (ub - ua) / div);
            }
        }
    }
    cost - tops * us[top as usize]
}

/// A position under construction: lengths and four reserves it can change.
#[derive(Default)]
struct Work {
    l: [u8; 4],
    r: [Vec<u8>; 4],
}

impl Work {
    fn load(&mut self, level: &Level, n: &Node) {
        self.l = n.l;
        for j in 0..4 {
            self.r[j].clear();
            self.r[j].extend_from_slice(level.pile(n, j));
        }
    }

    fn piles(&self) -> [&[u8]; 4] {
        std::array::from_fn(|j| self.r[j].as_slice())
    }

    fn want(&self, t: &Tables, k: usize) -> i8 {
        t.seq[k][self.l[k] as usize]
    }

    /// search.py's `close`: every reserve top that fits a foundation goes home (the first
    /// foundation that takes it), until none does.
    fn close(&mut self, t: &Tables, steps: &mut Vec<u8>) {
        'again: loop {
            let wants = [self.want(t, 0), self.want(t, 1), self.want(t, 2), self.want(t, 3)];
            for j in 0..4 {
                let Some(&top) = self.r[j].last() else { continue };
                if let Some(k) = wants.iter().position(|&w| w == top as i8) {
                    self.r[j].pop();
                    self.l[k] += 1;
                    steps.push(pack(Step::Home { reserve: j, foundation: k }));
                    continue 'again;
                }
            }
            return;
        }
    }
}

/// A level's table of keys: the lengths and the reserves sorted, hashed, each hash to the
/// positions that have it (compared in full).
struct Keys {
    map: HashMap<u64, u32, FxBuild>,
    /// positions with the same hash as an earlier one: (hash's first, next) chains
    next: Vec<u32>,
}

const NONE: u32 = u32::MAX;

fn sorted(piles: [&[u8]; 4]) -> [&[u8]; 4] {
    let mut p = piles;
    p.sort_unstable();
    p
}

fn hash(l: &[u8; 4], piles: &[&[u8]; 4]) -> u64 {
    let mut h = FxBuild::default().build_hasher();
    h.write(l);
    for p in piles {
        h.write_u64(p.len() as u64);
        h.write(p);
    }
    h.finish()
}

impl Keys {
    fn new() -> Keys {
        Keys { map: HashMap::default(), next: Vec::new() }
    }

    fn clear(&mut self) {
        self.map.clear();
        self.next.clear();
    }

    /// Whether the level already holds this position (by its key); if not, the caller adds it
    /// as position number `index` (the count of positions so far).
    fn insert(&mut self, level: &Level, l: &[u8; 4], piles: [&[u8]; 4], index: u32) -> bool {
        let piles = sorted(piles);
        let h = hash(l, &piles);
        let mut at = *self.map.get(&h).unwrap_or(&NONE);
        let first = at;
        while at != NONE {
            let n = &level.nodes[at as usize];
            if n.l == *l {
                let theirs = sorted(std::array::from_fn(|j| level.pile(n, j)));
                if theirs == piles {
                    return false;
                }
            }
            at = self.next[at as usize];
        }
        self.map.insert(h, index);
        self.next.push(first);
        true
    }
}

/// Search for a win; see the module's documentation. `lengths`, `reserves` and `cards` are
/// as for [`crate::search`], refused likewise; `kind` picks the estimate ([`KINDS`]).
pub fn beam(lengths: &[usize], reserves: &[Vec<u8>], cards: &[u8], width: usize, deadline: Option<Instant>,
            kind: usize) -> Result<BeamResult, BadPosition> {
    check(lengths, reserves, cards)?;
    if kind >= KINDS.len() {
        return Err(BadPosition(format!("kind is 0 to {}", KINDS.len() - 1)));
    }
    let lengths = [lengths[0] as u8, lengths[1] as u8, lengths[2] as u8, lengths[3] as u8];
    Ok(search(lengths, reserves, cards, width, deadline, kind))
}

fn search(lengths: [u8; 4], reserves: &[Vec<u8>], cards: &[u8], width: usize, deadline: Option<Instant>,
          kind: usize) -> BeamResult {
    let t = Tables::new();
    let done = [RANKS as u8; 4];
    let home = KINDS[kind].3;
    // the kept positions, level by level: (parent, steps from, steps to) in `arena`
    let mut kept: Vec<Vec<(u32, u32, u32)>> = Vec::new();
    let mut arena: Vec<u8> = Vec::new();
    let mut cut = false;
    let mut states = 0usize;

    let mut w = Work { l: lengths, ..Default::default() };
    for (mine, given) in w.r.iter_mut().zip(reserves.iter()) {
        mine.extend_from_slice(given);
    }
    let mut level = Level::default();
    w.close(&t, &mut level.steps);
    level.push(w.l, w.piles(), 0, NONE, (0, level.steps.len() as u32));
    let mut next = Level::default();
    let mut keys = Keys::new();
    let mut grown: Vec<u8> = Vec::new();
    for i in 0..=cards.len() {
        kept.push(level.nodes.iter().map(|n| {
            let a = arena.len() as u32;
            arena.extend_from_slice(&level.steps[n.steps.0 as usize..n.steps.1 as usize]);
            (n.parent, a, arena.len() as u32)
        }).collect());
        if let Some(at) = level.nodes.iter().position(|n| n.l == done) {
            let mut path = Vec::new();
            let mut at = at as u32;
            for depth in (0..kept.len()).rev() {
                let (parent, a, b) = kept[depth][at as usize];
                path.splice(0..0, arena[a as usize..b as usize].iter().map(|&s| unpack(s)));
                at = parent;
            }
            return BeamResult { path: Some(path), cut, states };
        }
        if i == cards.len() || deadline.is_some_and(|d| Instant::now() > d) {
            return BeamResult { path: None, cut, states };
        }
        let c = cards[i];
        next.clear();
        keys.clear();
        for (index, n) in level.nodes.iter().enumerate() {
            let index = index as u32;
            let mut fitted = false;
            for k in 0..4 {
                if t.seq[k][n.l[k] as usize] != c as i8 {
                    continue;
                }
                fitted = true;
                w.load(&level, n);
                w.l[k] += 1;
                let a = next.steps.len() as u32;
                next.steps.push(pack(Step::DrawHome { foundation: k }));
                w.close(&t, &mut next.steps);
                if keys.insert(&next, &w.l, w.piles(), next.nodes.len() as u32) {
                    let us = urgencies(&t, &w.l);
                    let cost: i64 = (0..4).map(|j| pile_cost(&us, &w.r[j], kind)).sum();
                    let score = 2 * home * w.l.iter().map(|&x| x as i64).sum::<i64>() - cost;
                    let b = next.steps.len() as u32;
                    next.push(w.l, w.piles(), score, index, (a, b));
                } else {
                    next.steps.truncate(a as usize);
                }
            }
            if fitted {
                continue;
            }
            let us = urgencies(&t, &n.l);
            let costs: [i64; 4] = std::array::from_fn(|j| pile_cost(&us, level.pile(n, j), kind));
            let score = 2 * home * n.l.iter().map(|&x| x as i64).sum::<i64>() - costs.iter().sum::<i64>();
            for j in 0..4 {
                let pile = level.pile(n, j);
                if (0..j).any(|q| level.pile(n, q) == pile) {
                    continue;
                }
                grown.clear();
                grown.extend_from_slice(pile);
                grown.push(c);
                let piles: [&[u8]; 4] = std::array::from_fn(|q| if q == j { grown.as_slice() } else { level.pile(n, q) });
                if keys.insert(&next, &n.l, piles, next.nodes.len() as u32) {
                    let a = next.steps.len() as u32;
                    next.steps.push(pack(Step::DrawPark { reserve: j }));
                    let score = score + costs[j] - pile_cost(&us, &grown, kind);
                    next.push(n.l, piles, score, index, (a, a + 1));
                }
            }
        }
        states += next.nodes.len();
        if next.nodes.len() > width {
            cut = true;
            next.nodes.sort_by_key(|n| std::cmp::Reverse(n.score)); // stable: ties keep their order
            next.nodes.truncate(width);
        }
        std::mem::swap(&mut level, &mut next);
    }
    BeamResult { path: None, cut, states }
}
