//! The kernel's hot path over its compiled tables: legal moves, apply and undo, the same as
//! `Game.legal_moves`, `Game.push` and `Game.pop` in core/game.py (move for move, in the same
//! order). The tables come from `Rules` once per solve (solitaire/core/solver/native.py).
//!
//! What the core speaks: piles giving their top card, runs, any number or the whole face-up
//! part; builds by the `accept` table, runs by the `seq` table, capacity, max- and min-accept,
//! supermove, face-down cards turned up, foundations, the stock dealing onto one waste or onto
//! every pile of a group, redeals, a pile that empties filled at once from others (fill-from),
//! in chains and from the stock, piles covering others (covered-by), pairs of top cards
//! discarded together, discards beaten by other piles' tops (beaten-by), the one-card win,
//! the stock closing gaps (consolidate). What it does not know is solved in Python (the Python
//! side decides, from the tables, before calling here).

pub const GIVES_NONE: u8 = 0;
pub const GIVES_TOP: u8 = 1;
pub const GIVES_RUN: u8 = 2;
pub const GIVES_ANY: u8 = 3;
pub const GIVES_PILE: u8 = 4;

pub type Move = (usize, usize, usize);
/// A pair's `n` (`(a, b, PAIR)`: the top cards of piles a and b go to the pairs pile together);
/// the kernel's `rules.PAIR` (-1) at the Python boundary.
pub const PAIR: usize = usize::MAX;

/// The compiled rules of one game, as `Rules` has them.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    pub count: usize,
    pub width: usize,
    /// accept[p][top * width + card], row `width`: the empty pile
    pub accept: Vec<Vec<u8>>,
    /// seq[p][lower * width + upper]
    pub seq: Vec<Vec<u8>>,
    pub gives: Vec<u8>,
    pub capacity: Vec<usize>,
    pub max_accept: Vec<usize>,
    pub min_accept: Vec<usize>,
    pub flip: Vec<bool>,
    pub targets: Vec<Vec<usize>>,
    pub sources: Vec<usize>,
    pub receivers: Vec<usize>,
    /// allowed[d][s]: pile d takes cards from pile s
    pub allowed: Vec<Vec<bool>>,
    /// fits[d][top]: the cards of the deck that may go on `top` in d (`top == width`: empty)
    pub fits: Vec<Vec<Vec<u16>>>,
    /// per pile: (the one-card reserves, the empty piles of its group) a supermove counts
    pub supermove: Vec<Option<(Vec<usize>, Vec<usize>)>>,
    pub stock: Option<usize>,
    pub draw_targets: Vec<usize>,
    pub draw_count: usize,
    pub draw_not_onto_empty: bool,
    pub stock_open: bool,
    /// None: unlimited
    pub redeals: Option<u32>,
    pub foundations: Vec<usize>,
    pub is_foundation: Vec<bool>,
    pub win_cleared: Vec<usize>,
    pub win_home: usize,
    /// fill[p]: the piles an emptied p is filled from at once, in order (empty: none)
    pub fill: Vec<Vec<usize>>,
    /// covered[p]: the piles that must all be empty before p gives a card; uncovers[q]: the
    /// piles q covers
    pub covered: Vec<Vec<usize>>,
    pub uncovers: Vec<Vec<usize>>,
    /// the pairs pile (None: no pairs); pair_ok[a * width + b]: cards a and b pair;
    /// pair_sources: the piles whose top cards pair, in order; pair_with[p][q]: p and q may pair
    pub pair_home: Option<usize>,
    pub pair_ok: Vec<u8>,
    pub pair_sources: Vec<usize>,
    pub pair_with: Vec<Vec<bool>>,
    /// beaten_by[d]: the piles whose top card must beat a card for d to take it (empty: no
    /// such rule); beats[card * width + other]: `other` beats `card`
    pub beaten_by: Vec<Vec<usize>>,
    pub beats: Vec<u8>,
    /// piles that must hold exactly one card for the game to be won
    pub win_one_card: Vec<usize>,
    /// the stock's action closes the gaps of the piles it deals to, then deals into the empty
    /// ones at the end
    pub consolidate: bool,
}

impl Tables {
    pub fn has_supermove(&self) -> bool {
        self.supermove.iter().any(|m| m.is_some())
    }

    /// Fill in what follows from the rest (sources, receivers, allowed, is_foundation), for
    /// tables built by hand (the tests).
    pub fn derive(&mut self) {
        let count = self.count;
        self.fill.resize(count, Vec::new());
        self.covered.resize(count, Vec::new());
        self.beaten_by.resize(count, Vec::new());
        self.pair_with.resize(count, vec![false; count]);
        self.uncovers = (0..count).map(|q| (0..count).filter(|&p| self.covered[p].contains(&q)).collect()).collect();
        self.sources = (0..count).filter(|&s| !self.targets[s].is_empty()).collect();
        self.allowed = (0..count).map(|d| (0..count).map(|s| self.targets[s].contains(&d)).collect()).collect();
        self.receivers = (0..count).filter(|&d| self.allowed[d].iter().any(|&a| a)).collect();
        self.is_foundation = (0..count).map(|p| self.foundations.contains(&p)).collect();
    }
}

/// One entry of the history: the move and what it did beyond moving (a card turned up, the
/// cards a draw took, -len(waste) for a recycle), as `Game.history` keeps it.
#[derive(Clone, Copy, Debug)]
struct Done {
    src: usize,
    dst: usize,
    n: usize,
    extra: i64,
    /// the fills this move made: its last `links` entries of `State::chain`
    links: u8,
    /// the second half of a pair: undone with the entry before it
    pair: bool,
}

/// A position: the piles (bottom first), face-down counts, redeals used, and its history.
#[derive(Clone, Debug)]
pub struct State {
    pub piles: Vec<Vec<u16>>,
    pub down: Vec<usize>,
    pub recycles: u32,
    history: Vec<Done>,
    /// the fills of the history's moves, in order: (the pile that gave the card, a card
    /// turned up there)
    chain: Vec<(usize, bool)>,
    // scratch for legal_moves: card -> index in `movable`, or u32::MAX
    slot: Vec<u32>,
}

impl State {
    pub fn new(t: &Tables, piles: Vec<Vec<u16>>, down: Vec<usize>, recycles: u32) -> State {
        State { piles, down, recycles, history: Vec::new(), chain: Vec::new(), slot: vec![u32::MAX; t.width] }
    }

    /// Put the position back to `snap` (as `snapshot` wrote it), with no history: what came
    /// before it can no longer be popped (`Game.restore`).
    pub fn restore(&mut self, snap: &[u16]) {
        let mut at = 0;
        for i in 0..self.piles.len() {
            let (down, len) = (snap[at] as usize, snap[at + 1] as usize);
            self.down[i] = down;
            let pile = &mut self.piles[i];
            pile.clear();
            pile.extend_from_slice(&snap[at + 2..at + 2 + len]);
            at += 2 + len;
        }
        self.recycles = snap[at] as u32 | (snap[at + 1] as u32) << 16;
        self.history.clear();
        self.chain.clear();
    }

    /// The position, compactly: for each pile its face-down count, its length and its
    /// cards, then the redeals used (`Game.snapshot`, without the history).
    pub fn snapshot(&self) -> Box<[u16]> {
        let cards: usize = self.piles.iter().map(Vec::len).sum();
        let mut out = Vec::with_capacity(2 * self.piles.len() + cards + 2);
        for (pile, &down) in self.piles.iter().zip(&self.down) {
            out.push(down as u16);
            out.push(pile.len() as u16);
            out.extend_from_slice(pile);
        }
        out.push(self.recycles as u16);
        out.push((self.recycles >> 16) as u16);
        out.into_boxed_slice()
    }

    pub fn depth(&self) -> usize {
        self.history.len()
    }

    pub fn won(&self, t: &Tables) -> bool {
        t.foundations.iter().map(|&f| self.piles[f].len()).sum::<usize>() >= t.win_home
            && t.win_cleared.iter().all(|&p| self.piles[p].is_empty())
            && t.win_one_card.iter().all(|&p| self.piles[p].len() == 1)
    }

    fn builds_on(&self, t: &Tables, dst: usize, src: usize, n: usize) -> bool {
        let table = &t.accept[dst];
        let w = t.width;
        let pile = &self.piles[src];
        let len = pile.len();
        (len - n..len - 1).all(|i| table[pile[i] as usize * w + pile[i + 1] as usize] != 0)
    }

    /// Per source pile: (the longest run it may move to any pile, the empty piles that count,
    /// the limit when the run goes to one of them); no limit for piles without a supermove.
    /// Per source pile: the longest run it may move now to a pile that is not one of its
    /// empty columns, and to one that is (the run cannot use the pile it goes to).
    fn run_limits(&self, t: &Tables) -> Vec<(u64, u64)> {
        let mut out = Vec::with_capacity(t.count);
        for (s, m) in t.supermove.iter().enumerate() {
            match m {
                None => out.push((1u64 << 30, 1u64 << 30)),
                Some((cells, columns)) => {
                    let free = 1 + cells.iter().filter(|&&c| self.piles[c].is_empty()).count() as u64;
                    let k = columns.iter().filter(|&&c| self.piles[c].is_empty() && c != s).count() as u32;
                    let all = free.checked_shl(k).unwrap_or(u64::MAX);
                    let one = if k > 0 { free << (k - 1) } else { 0 };
                    out.push((all, one));
                }
            }
        }
        out
    }

    /// Every legal move here, the stock's action last, in `Game.legal_moves`'s order.
    pub fn legal_moves(&mut self, t: &Tables, out: &mut Vec<Move>) {
        out.clear();
        let w = t.width;
        let mut movable: Vec<(u16, usize, usize)> = Vec::new();
        {
            let slot = &mut self.slot;
            let mut set = |card: u16, s: usize, n: usize, movable: &mut Vec<(u16, usize, usize)>| {
                let i = slot[card as usize];
                if i == u32::MAX {
                    slot[card as usize] = movable.len() as u32;
                    movable.push((card, s, n));
                } else {
                    movable[i as usize] = (card, s, n);
                }
            };
            for &s in &t.sources {
                let pile = &self.piles[s];
                let size = pile.len();
                if size <= self.down[s] {
                    continue;
                }
                if t.covered[s].iter().any(|&c| !self.piles[c].is_empty()) {
                    continue;
                }
                let up = size - self.down[s];
                match t.gives[s] {
                    GIVES_TOP => set(pile[size - 1], s, 1, &mut movable),
                    GIVES_RUN => {
                        let table = &t.seq[s];
                        set(pile[size - 1], s, 1, &mut movable);
                        let mut n = 1;
                        let mut i = size - 1;
                        while n < up && table[pile[i - 1] as usize * w + pile[i] as usize] != 0 {
                            n += 1;
                            i -= 1;
                            set(pile[i], s, n, &mut movable);
                        }
                    }
                    GIVES_PILE => {
                        set(pile[size - 1], s, 1, &mut movable);
                        set(pile[size - up], s, up, &mut movable);
                    }
                    _ => {
                        for n in 1..=up {
                            set(pile[size - n], s, n, &mut movable);
                        }
                    }
                }
            }
        }
        if !movable.is_empty() {
            let count = movable.len();
            let runs = if t.has_supermove() { Some(self.run_limits(t)) } else { None };
            let run_ok = |s: usize, d: usize, n: usize| -> bool {
                match &runs {
                    None => true,
                    Some(r) => {
                        let (all, one) = r[s];
                        // d one of s's empty columns (d is never s)
                        let empty = self.piles[d].is_empty()
                            && t.supermove[s].as_ref().is_some_and(|(_, columns)| columns.contains(&d));
                        (n as u64) <= if empty { one } else { all }
                    }
                }
            };
            for &d in &t.receivers {
                let dest = &self.piles[d];
                let dsize = dest.len();
                let top = if dsize > 0 {
                    if self.down[d] == dsize {
                        continue;
                    }
                    dest[dsize - 1] as usize
                } else {
                    w
                };
                let mut limit = t.capacity[d] as i64 - dsize as i64;
                if (t.max_accept[d] as i64) < limit {
                    limit = t.max_accept[d] as i64;
                }
                if limit <= 0 {
                    continue;
                }
                let limit = limit as usize;
                let least = t.min_accept[d];
                let from_ok = &t.allowed[d];
                let candidates = &t.fits[d][top];
                let table = &t.accept[d];
                if least > 1 {
                    for &(card, s, n) in &movable {
                        if from_ok[s] && least <= n && n <= limit && s != d && table[top * w + card as usize] != 0
                            && self.builds_on(t, d, s, n) && run_ok(s, d, n)
                        {
                            out.push((s, d, n));
                        }
                    }
                } else if candidates.len() <= count {
                    for &card in candidates {
                        let i = self.slot[card as usize];
                        if i != u32::MAX {
                            let (_, s, n) = movable[i as usize];
                            if from_ok[s] && least <= n && n <= limit && s != d && run_ok(s, d, n) {
                                out.push((s, d, n));
                            }
                        }
                    }
                } else {
                    let row = top * w;
                    for &(card, s, n) in &movable {
                        if from_ok[s] && least <= n && n <= limit && s != d && table[row + card as usize] != 0
                            && run_ok(s, d, n)
                        {
                            out.push((s, d, n));
                        }
                    }
                }
            }
            for &(card, _, _) in &movable {
                self.slot[card as usize] = u32::MAX;
            }
            if t.beaten_by.iter().any(|b| !b.is_empty()) {
                // discards that another pile's top card must beat
                out.retain(|&(s, d, n)| {
                    t.beaten_by[d].is_empty() || self.beaten(t, s, d, self.piles[s][self.piles[s].len() - n])
                });
            }
        }
        if t.pair_home.is_some() {
            self.pair_moves(t, out);
        }
        if let Some(stock) = t.stock {
            if self.can_draw(t) {
                out.push((stock, t.draw_targets[0], 0));
            }
        }
    }

    /// `Game._pair_moves`: the pairs of available top cards, `(a, b, PAIR)` with `a < b`.
    fn pair_moves(&self, t: &Tables, out: &mut Vec<Move>) {
        let w = t.width;
        let avail: Vec<(usize, usize)> = t
            .pair_sources
            .iter()
            .filter(|&&s| self.piles[s].len() > self.down[s] && !self.covered_now(t, s))
            .map(|&s| (s, *self.piles[s].last().unwrap() as usize))
            .collect();
        for (i, &(a, card)) in avail.iter().enumerate() {
            let row = card * w;
            let near = &t.pair_with[a];
            for &(b, other) in &avail[i + 1..] {
                if near[b] && t.pair_ok[row + other] != 0 {
                    out.push((a, b, PAIR));
                }
            }
        }
    }

    /// `Game._beaten`: the top card of a pile other than `src` that `dst` looks at beats `card`.
    pub(crate) fn beaten(&self, t: &Tables, src: usize, dst: usize, card: u16) -> bool {
        let row = card as usize * t.width;
        t.beaten_by[dst].iter().any(|&q| {
            let pile = &self.piles[q];
            q != src && pile.len() > self.down[q] && t.beats[row + *pile.last().unwrap() as usize] != 0
        })
    }

    /// The stock's action is legal.
    pub fn can_draw(&self, t: &Tables) -> bool {
        let stock = &self.piles[t.stock.unwrap()];
        let targets = &t.draw_targets;
        if t.consolidate {
            // a gap before a card, or an empty pile and cards in the stock
            let mut gap = false;
            for &tp in targets {
                if self.piles[tp].is_empty() {
                    gap = true;
                } else if gap {
                    return true;
                }
            }
            return gap && !stock.is_empty();
        }
        if !stock.is_empty() {
            if targets.len() == 1 {
                let tp = targets[0];
                let k = t.draw_count.min(stock.len());
                return self.piles[tp].len() + k <= t.capacity[tp];
            }
            if targets.iter().any(|&tp| self.piles[tp].len() >= t.capacity[tp]) {
                return false;
            }
            if t.draw_not_onto_empty {
                return targets.iter().all(|&tp| !self.piles[tp].is_empty());
            }
            return true;
        }
        if targets.len() != 1 || self.piles[targets[0]].is_empty() {
            return false;
        }
        match t.redeals {
            None => true,
            Some(r) => self.recycles < r,
        }
    }

    /// Apply a legal move without checking it. Undo with `pop`.
    pub fn push(&mut self, t: &Tables, m: Move) {
        let (src, dst, n) = m;
        if n == 0 {
            self.draw(t);
            return;
        }
        if n == PAIR {
            // as the two moves of one card each would, undone together
            let home = t.pair_home.unwrap();
            self.push(t, (src, home, 1));
            self.push(t, (dst, home, 1));
            self.history.last_mut().unwrap().pair = true;
            return;
        }
        let from = std::mem::take(&mut self.piles[src]);
        let mut from = from;
        let cut = from.len() - n;
        self.piles[dst].extend_from_slice(&from[cut..]);
        from.truncate(cut);
        let mut flipped = 0;
        let d = self.down[src];
        if d > 0 && d == from.len() && t.flip[src] {
            self.down[src] = d - 1;
            flipped = 1;
        }
        self.piles[src] = from;
        let mut links = 0;
        if self.piles[src].is_empty() && !t.fill[src].is_empty() {
            links = self.fill(t, src);
        }
        if self.piles[src].is_empty() && !t.uncovers[src].is_empty() {
            flipped |= self.uncover(t, src);
        }
        self.history.push(Done { src, dst, n, extra: flipped, links, pair: false });
    }

    fn covered_now(&self, t: &Tables, p: usize) -> bool {
        t.covered[p].iter().any(|&c| !self.piles[c].is_empty())
    }

    /// `Game._fill`: fill the empty `pile` from the top of the first pile of its fill list
    /// that has a face-up card (or is the stock: its card comes face up), turning up the card
    /// beneath where that pile flips; a filler emptied so is filled in turn (a chain). Each
    /// link goes on `chain`; the number of links is returned.
    fn fill(&mut self, t: &Tables, pile: usize) -> u8 {
        let mut links = 0;
        let mut p = pile;
        loop {
            let mut next = None;
            for &f in &t.fill[p] {
                let len = self.piles[f].len();
                let stock = t.stock == Some(f);
                if len > 0 && (self.down[f] < len || stock) {
                    let c = self.piles[f].pop().unwrap();
                    self.piles[p].push(c);
                    let d = self.down[f];
                    let mut turned = false;
                    if stock {
                        self.down[f] = d.min(len - 1);
                    } else if d > 0 && d == len - 1 && t.flip[f] {
                        self.down[f] = d - 1;
                        turned = true;
                    }
                    self.chain.push((f, turned));
                    links += 1;
                    if len == 1 && !t.fill[f].is_empty() {
                        next = Some(f);
                    }
                    break;
                }
            }
            match next {
                Some(f) => p = f,
                None => return links,
            }
        }
    }

    /// `Game._consolidate`: close the gaps of the piles the stock deals to (their cards slide
    /// toward the first, in order), then deal a card into each empty one at the end while the
    /// stock lasts. The code: the piles that held cards as a bit mask, shifted 8, plus the
    /// cards dealt.
    fn consolidate(&mut self, t: &Tables) -> i64 {
        let stock_i = t.stock.unwrap();
        let targets = &t.draw_targets;
        let mut mask = 0i64;
        let mut held = Vec::new();
        for (j, &tp) in targets.iter().enumerate() {
            if !self.piles[tp].is_empty() {
                mask |= 1 << j;
                held.push((std::mem::take(&mut self.piles[tp]), self.down[tp]));
            }
        }
        let kept = held.len();
        let mut held = held.into_iter();
        let mut dealt = 0i64;
        for (j, &tp) in targets.iter().enumerate() {
            if j < kept {
                let (pile, d) = held.next().unwrap();
                self.piles[tp] = pile;
                self.down[tp] = d;
            } else {
                self.piles[tp].clear();
                self.down[tp] = 0;
                if let Some(c) = self.piles[stock_i].pop() {
                    self.piles[tp].push(c);
                    dealt += 1;
                }
            }
        }
        mask << 8 | dealt
    }

    /// Take back `consolidate` from its code.
    fn unconsolidate(&mut self, t: &Tables, code: i64) {
        let stock_i = t.stock.unwrap();
        let targets = &t.draw_targets;
        let (mask, dealt) = (code >> 8, (code & 255) as usize);
        let kept = mask.count_ones() as usize;
        for &tp in targets[kept..kept + dealt].iter().rev() {
            let c = self.piles[tp].pop().unwrap();
            self.piles[stock_i].push(c);
        }
        let held: Vec<(Vec<u16>, usize)> =
            targets[..kept].iter().map(|&tp| (std::mem::take(&mut self.piles[tp]), self.down[tp])).collect();
        for &tp in targets {
            self.piles[tp].clear();
            self.down[tp] = 0;
        }
        let places = targets.iter().enumerate().filter(|&(j, _)| mask >> j & 1 != 0).map(|(_, &tp)| tp);
        for (tp, (pile, d)) in places.zip(held) {
            self.piles[tp] = pile;
            self.down[tp] = d;
        }
    }

    /// `Game._uncover`: bit `10 + k` for the k-th pile of `uncovers[pile]` turned up.
    fn uncover(&mut self, t: &Tables, pile: usize) -> i64 {
        let mut code = 0i64;
        for (k, &p) in t.uncovers[pile].iter().enumerate() {
            let d = self.down[p];
            if d > 0 && d == self.piles[p].len() && t.flip[p] && !self.covered_now(t, p) {
                self.down[p] = d - 1;
                code |= 1 << (10 + k);
            }
        }
        code
    }

    fn draw(&mut self, t: &Tables) {
        let stock_i = t.stock.unwrap();
        let targets = &t.draw_targets;
        let k: i64;
        if t.consolidate {
            k = self.consolidate(t);
        } else if !self.piles[stock_i].is_empty() {
            if targets.len() == 1 {
                let take = t.draw_count.min(self.piles[stock_i].len());
                for _ in 0..take {
                    let c = self.piles[stock_i].pop().unwrap();
                    self.piles[targets[0]].push(c);
                }
                k = take as i64;
            } else {
                let mut drawn = 0;
                for &tp in targets {
                    match self.piles[stock_i].pop() {
                        None => break,
                        Some(c) => {
                            self.piles[tp].push(c);
                            drawn += 1;
                        }
                    }
                }
                k = drawn;
            }
        } else {
            let mut waste = std::mem::take(&mut self.piles[targets[0]]);
            k = -(waste.len() as i64);
            waste.reverse();
            self.piles[stock_i].extend_from_slice(&waste);
            waste.clear();
            self.piles[targets[0]] = waste;
            self.recycles += 1;
        }
        if !t.stock_open {
            self.down[stock_i] = self.piles[stock_i].len();
        }
        self.history.push(Done { src: stock_i, dst: targets[0], n: 0, extra: k, links: 0, pair: false });
    }

    /// The last move, when it did nothing but move its cards (no card turned up, no pile
    /// filled, not a draw nor a pair): then the move back, where legal, is the position
    /// before it again.
    pub fn last_plain(&self) -> Option<Move> {
        self.history.last().filter(|d| d.n > 0 && d.n != PAIR && d.extra == 0 && d.links == 0 && !d.pair)
            .map(|d| (d.src, d.dst, d.n))
    }

    /// Take back the last move exactly, re-hiding a card it turned up.
    pub fn pop(&mut self, t: &Tables) -> Option<Move> {
        let Done { src, dst, n, extra, links, pair } = self.history.pop()?;
        if pair {
            // the pair's two moves of one card, taken back last first
            self.history.push(Done { src, dst, n, extra, links, pair: false });
            self.pop(t);
            let (a, _, _) = self.pop(t)?;
            return Some((a, src, PAIR));
        }
        if n == 0 {
            let targets = &t.draw_targets;
            if t.consolidate {
                self.unconsolidate(t, extra);
            } else if extra > 0 {
                if targets.len() == 1 {
                    for _ in 0..extra {
                        let c = self.piles[targets[0]].pop().unwrap();
                        self.piles[src].push(c);
                    }
                } else {
                    for &tp in targets[..extra as usize].iter().rev() {
                        let c = self.piles[tp].pop().unwrap();
                        self.piles[src].push(c);
                    }
                }
            } else {
                let stock = std::mem::take(&mut self.piles[src]);
                self.piles[targets[0]].extend(stock.iter().rev());
                let mut stock = stock;
                stock.clear();
                self.piles[src] = stock;
                self.recycles -= 1;
            }
            if !t.stock_open {
                self.down[src] = self.piles[src].len();
            }
        } else {
            if extra >> 10 != 0 {
                for (k, &p) in t.uncovers[src].iter().enumerate() {
                    if extra >> (10 + k) & 1 != 0 {
                        self.down[p] += 1;
                    }
                }
            }
            if links > 0 {
                // the fills, the last link first: each card back where it came from
                let first = self.chain.len() - links as usize;
                for i in (first..self.chain.len()).rev() {
                    let (filler, turned) = self.chain[i];
                    let into = if i > first { self.chain[i - 1].0 } else { src };
                    let c = self.piles[into].pop().unwrap();
                    self.piles[filler].push(c);
                    if t.stock == Some(filler) && !t.stock_open {
                        self.down[filler] = self.piles[filler].len(); // back in the stock, face down
                    } else if turned {
                        self.down[filler] += 1;
                    }
                }
                self.chain.truncate(first);
            }
            if extra & 1 != 0 {
                self.down[src] += 1;
            }
            let from = std::mem::take(&mut self.piles[dst]);
            let mut from = from;
            let cut = from.len() - n;
            self.piles[src].extend_from_slice(&from[cut..]);
            from.truncate(cut);
            self.piles[dst] = from;
        }
        Some((src, dst, n))
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A small game of one suit (13 cards, width 52): a stock dealing one card onto a waste,
    /// one foundation built up from the ace, two columns built down, runs moving.
    pub fn little() -> Tables {
        let w = 52;
        let up = |lo: usize, hi: usize| lo < 13 && hi < 13 && hi == lo + 1;
        let mut found = vec![0u8; w * w + w];
        let mut column = vec![0u8; w * w + w];
        let mut seq = vec![0u8; w * w];
        for lo in 0..w {
            for hi in 0..w {
                if up(lo, hi) {
                    found[lo * w + hi] = 1;
                    column[hi * w + lo] = 1;
                    seq[hi * w + lo] = 1;
                }
            }
        }
        found[w * w] = 1; // the ace starts it
        for c in 0..13 {
            column[w * w + c] = 1; // any card on an empty column
        }
        let none = vec![0u8; w * w + w];
        // piles: 0 stock, 1 waste, 2 foundation, 3 and 4 columns
        let accept = vec![none.clone(), none, found, column.clone(), column];
        let fits = accept
            .iter()
            .map(|a| (0..=w).map(|top| (0..13u16).filter(|&c| a[top * w + c as usize] != 0).collect()).collect())
            .collect();
        let mut t = Tables {
            count: 5,
            width: w,
            accept,
            seq: vec![vec![0u8; w * w], vec![0u8; w * w], vec![0u8; w * w], seq.clone(), seq],
            gives: vec![GIVES_NONE, GIVES_TOP, GIVES_NONE, GIVES_RUN, GIVES_RUN],
            capacity: vec![1 << 30; 5],
            max_accept: vec![1 << 30; 5],
            min_accept: vec![1; 5],
            flip: vec![false, false, false, true, true],
            targets: vec![vec![], vec![2, 3, 4], vec![], vec![2, 4], vec![2, 3]],
            fits,
            supermove: vec![None; 5],
            stock: Some(0),
            draw_targets: vec![1],
            draw_count: 1,
            redeals: None,
            foundations: vec![2],
            win_home: 13,
            ..Default::default()
        };
        t.derive();
        t
    }

    #[test]
    fn a_snapshot_restores_the_position_without_its_history() {
        let t = little();
        let piles = vec![vec![12, 11, 0], vec![], vec![], vec![5, 4, 3, 2, 1], vec![10, 9, 8, 7, 6]];
        let mut g = State::new(&t, piles, vec![3, 0, 0, 4, 4], 2);
        let before = (g.piles.clone(), g.down.clone(), g.recycles);
        let snap = g.snapshot();
        g.push(&t, (0, 1, 0));
        g.push(&t, (3, 4, 1));
        assert_ne!(g.piles, before.0);
        g.restore(&snap);
        assert_eq!((g.piles.clone(), g.down.clone(), g.recycles), before);
        assert_eq!(g.depth(), 0);
        assert_eq!(g.pop(&t), None);
    }

    fn deal(t: &Tables) -> State {
        // the stock holds the ace on top; the columns hold 2..7 and 8..K, face down but the top
        let piles = vec![vec![12, 11, 0], vec![], vec![], vec![1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10]];
        State::new(t, piles, vec![3, 0, 0, 4, 4], 0)
    }

    #[test]
    fn draws_then_moves_then_undoes_exactly() {
        let t = little();
        let mut s = deal(&t);
        let mut moves = Vec::new();
        s.legal_moves(&t, &mut moves);
        assert_eq!(moves, vec![(0, 1, 0)]); // 6 and J (the tops) fit nowhere: draw
        s.push(&t, (0, 1, 0));
        assert_eq!(s.piles[1], vec![0]);
        assert_eq!(s.down[0], 2);
        s.legal_moves(&t, &mut moves);
        assert_eq!(moves, vec![(1, 2, 1), (0, 1, 0)]);
        s.push(&t, (1, 2, 1));
        assert!(!s.won(&t));
        assert_eq!(s.pop(&t), Some((1, 2, 1)));
        assert_eq!(s.pop(&t), Some((0, 1, 0)));
        assert_eq!(s.piles, deal(&t).piles);
        assert_eq!(s.down, deal(&t).down);
    }

    #[test]
    fn a_recycle_turns_the_waste_back_and_undoes() {
        let t = little();
        let mut s = deal(&t);
        for _ in 0..3 {
            s.push(&t, (0, 1, 0));
        }
        assert!(s.piles[0].is_empty());
        assert!(s.can_draw(&t));
        s.push(&t, (0, 1, 0));
        assert_eq!(s.piles[0], vec![12, 11, 0]);
        assert_eq!(s.recycles, 1);
        s.pop(&t);
        assert_eq!(s.piles[1], vec![0, 11, 12]);
        assert_eq!(s.recycles, 0);
    }

    #[test]
    fn an_emptied_pile_is_filled_and_a_covered_one_turns_up_and_undo_puts_all_back() {
        let mut t = little();
        t.fill[3] = vec![4]; // column 3 fills from column 4 when it empties
        t.covered[1] = vec![]; // (the waste covers nothing)
        t.covered[4] = vec![3]; // column 4 gives nothing while column 3 holds a card
        t.derive();
        let piles = vec![vec![], vec![], vec![0], vec![1], vec![7, 6]];
        let mut s = State::new(&t, piles, vec![0, 0, 0, 0, 1], 0);
        let before = (s.piles.clone(), s.down.clone());
        let mut moves = Vec::new();
        s.legal_moves(&t, &mut moves);
        assert_eq!(moves, vec![(3, 2, 1)]); // column 4 is covered: its 7 cannot move
        s.push(&t, (3, 2, 1));
        // column 3 emptied: filled from column 4, whose face-down 8 turns up
        assert_eq!(s.piles[3], vec![6]);
        assert_eq!((s.piles[4].clone(), s.down[4]), (vec![7], 0));
        s.pop(&t);
        assert_eq!((s.piles.clone(), s.down.clone()), before);
    }

    #[test]
    fn a_fill_chains_to_the_stock_and_undo_puts_every_card_back() {
        let mut t = little();
        t.fill[3] = vec![1]; // column 3 fills from the waste, the waste from the stock
        t.fill[1] = vec![0];
        t.derive();
        let piles = vec![vec![9, 8], vec![7], vec![0], vec![1], vec![]];
        let mut s = State::new(&t, piles, vec![2, 0, 0, 0, 0], 0);
        let before = (s.piles.clone(), s.down.clone());
        s.push(&t, (3, 2, 1));
        // the waste's 7 fills column 3, the stock's top 8 fills the waste, face up
        assert_eq!((s.piles[3].clone(), s.piles[1].clone(), s.piles[0].clone()), (vec![7], vec![8], vec![9]));
        assert_eq!(s.down[0], 1);
        s.pop(&t);
        assert_eq!((s.piles.clone(), s.down.clone()), before);
    }

    /// `little` with its foundation (pile 2) a discard pile taking any card, fits to match.
    fn with_discard(mut t: Tables) -> Tables {
        let w = t.width;
        t.accept[2] = vec![1u8; w * w + w];
        t.fits[2] = (0..=w).map(|_| (0..13u16).collect()).collect();
        t.win_home = 0;
        t.derive();
        t
    }

    #[test]
    fn two_top_cards_that_pair_go_together_and_come_back_together() {
        let mut t = little();
        let w = t.width;
        t.pair_home = Some(2);
        t.pair_ok = (0..w * w).map(|i| u8::from(i / w + i % w == 11)).collect(); // ranks making 13
        t.pair_sources = vec![3, 4];
        t.pair_with = vec![vec![false; 5]; 5];
        t.pair_with[3][4] = true;
        t.pair_with[4][3] = true;
        t.stock = None;
        t.derive();
        let piles = vec![vec![], vec![], vec![], vec![9, 4], vec![7]];
        let mut s = State::new(&t, piles, vec![0, 0, 0, 1, 0], 0);
        let before = (s.piles.clone(), s.down.clone());
        let mut moves = Vec::new();
        s.legal_moves(&t, &mut moves);
        assert_eq!(moves, vec![(3, 4, PAIR)]); // the 5 and the 8 make 13
        s.push(&t, (3, 4, PAIR));
        assert_eq!((s.piles[2].clone(), s.down[3]), (vec![4, 7], 0)); // the 10 under the 5 turned up
        assert_eq!(s.pop(&t), Some((3, 4, PAIR)));
        assert_eq!((s.piles.clone(), s.down.clone()), before);
    }

    #[test]
    fn a_discard_must_be_beaten_by_another_piles_top_and_one_card_each_wins() {
        let mut t = with_discard(little());
        let w = t.width;
        t.beaten_by[2] = vec![3, 4];
        t.beats = (0..w * w).map(|i| u8::from(i % w > i / w)).collect(); // one suit: higher beats
        t.win_one_card = vec![3, 4];
        t.targets = vec![vec![], vec![], vec![], vec![2], vec![2]];
        t.stock = None;
        t.derive();
        let mut s = State::new(&t, vec![vec![], vec![], vec![], vec![8, 3], vec![7]], vec![0; 5], 0);
        let mut moves = Vec::new();
        s.legal_moves(&t, &mut moves);
        assert_eq!(moves, vec![(3, 2, 1)]); // the 4 is beaten by the 8; the 8 by nothing
        assert!(!s.won(&t));
        s.push(&t, (3, 2, 1));
        assert!(s.won(&t)); // one card left in each pile
    }

    #[test]
    fn the_stock_closes_the_gaps_then_deals_into_the_empty_piles_and_undoes() {
        let mut t = little();
        t.draw_targets = vec![1, 3, 4];
        t.consolidate = true;
        t.derive();
        let piles = vec![vec![9, 8], vec![], vec![], vec![5], vec![]];
        let mut s = State::new(&t, piles, vec![2, 0, 0, 0, 0], 0);
        let before = (s.piles.clone(), s.down.clone());
        assert!(s.can_draw(&t)); // a gap before a card
        s.push(&t, (0, 1, 0));
        assert_eq!(s.piles[1..].to_vec(), vec![vec![5], vec![], vec![8], vec![9]]);
        assert!(!s.can_draw(&t)); // no gap, the stock empty
        s.pop(&t);
        assert_eq!((s.piles.clone(), s.down.clone()), before);
    }

    #[test]
    fn limited_redeals_stop_the_stock() {
        let mut t = little();
        t.redeals = Some(0);
        let mut s = deal(&t);
        for _ in 0..3 {
            s.push(&t, (0, 1, 0));
        }
        assert!(!s.can_draw(&t));
    }

    #[test]
    fn a_move_turns_up_the_card_below_and_undo_hides_it() {
        let t = little();
        let piles = vec![vec![], vec![], vec![0], vec![5, 1], vec![]];
        let mut s = State::new(&t, piles, vec![0, 0, 0, 1, 0], 0);
        let mut moves = Vec::new();
        s.legal_moves(&t, &mut moves);
        assert_eq!(moves, vec![(3, 2, 1), (3, 4, 1)]);
        s.push(&t, (3, 2, 1));
        assert_eq!(s.down[3], 0);
        s.pop(&t);
        assert_eq!(s.down[3], 1);
    }
}
