//! The guided pass: a beam search on an evaluation read off the game's tables, for the games
//! where the best-first pass's distance ("cards not home + 3 x face-down cards") does not move
//! for hundreds of moves (Spider: nothing goes home before a whole suit is built in order).
//!
//! The evaluation (`Search::disorder`, lower is nearer a win) looks at each pile as the tables
//! describe it, never at a game's name: every card not home costs a little; every card that
//! does not lie on a card the pile's run table (`seq`) says it moves with costs more (a pile
//! built in runs is nearly sorted), a card lying on one the build table (`accept`) takes but
//! the run table does not half as much (built, but not movable together); a face-down card
//! costs more again, and an empty pile (one taking more than one card: a column; taking one:
//! a cell) is worth something; a card under the top of a waste the stock is turned into only
//! once (no redeal: it comes back only when every card above it is played) costs more again,
//! where a waste turned again costs like the stock; where the foundations take only whole runs, a pair counts as a
//! run only when a foundation would take it as one (Black Widow moves runs of any suit but
//! takes home only runs in suit). In Spider that counts the in-suit descending pairs, in FreeCell
//! the alternate-colour ones and the free cells, in Klondike the face-down cards and the cards
//! home.
//!
//! Where the foundations take single cards, each card lying above a card some foundation takes
//! next costs more (FreeCell: the cards that bury the next aces, twos, ...).
//!
//! The beam keeps, level by level, the `width` best positions not seen before (a set of
//! hashes of the canonical keys, `Search::key_hash`, so no position is expanded twice), each
//! expanded by the pruned moves of the greedy pass (`Search::moves` with `prune`) and the safe
//! moves home (`Search::auto`). A round ends when the beam empties, when its best evaluation
//! has not improved for `PATIENCE` levels, or at a depth cap; the next round starts again from
//! the root with a wider beam (`guided` with no width: the `PROBES`, then `FIRST_WIDTH` and
//! four times wider each round), until the states budget or the deadline. Bounded, it proves
//! nothing: it answers `Win` (a line from the root, which the caller replays through the
//! kernel) or `Unknown`, never `Unwinnable`.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use super::{Budget, Fx, Outcome, Search, SearchTables, Step};
use crate::core::{Move, State, Tables};

/// The evaluation's weights (see the module's comment), in tenths of a card.
struct Weights {
    card: i64,   // a card not home
    brk: i64,    // a card not on a card it moves with (or a face-down one)
    built: i64,  // back from brk: on a card it was built on, not movable with it
    down: i64,   // a face-down card, beyond its break
    column: i64, // an empty pile taking several cards
    cell: i64,   // an empty pile taking one card
    stock: i64,  // a card in the stock (or a pile nothing moves to or from)
    buried: i64, // each card lying above a card a foundation takes next (single-card foundations)
    waste: i64,  // a card under the top of a waste the stock is turned through only once
}

const WEIGHTS: Weights =
    Weights { card: 2, brk: 10, built: 5, down: 6, column: 8, cell: 4, stock: 12, buried: 3, waste: 6 };

/// a pile nothing moves to or from, and one whose pairs of cards the evaluation need not read
/// (`Search::inert`)
const INERT: u8 = 1;
const FLAT: u8 = 2;

/// levels without a better best evaluation before a round gives up
const PATIENCE: usize = 80;
/// by deals (`Deals`): the levels without a better best in any group before a round gives up
const DEALS_PATIENCE: usize = 300;
/// by deals: a card of a stock that deals onto the columns, in place of `Weights::stock`
const DEALS_STOCK: i64 = 8;

/// How the beam treats a stock that deals onto the columns (Spider's). `Plain`: its cards cost
/// like loose ones, and the beam keeps the best positions whatever they dealt. `ByDeals` (an
/// option of the guided pass alone, for finding lines offline: `find_won_lines.py --by-deals`):
/// a card still in such a stock costs less than a loose one (a deal costs something, so the
/// beam does not deal the whole stock early, which left Spider of four suits with no move in
/// about 80 levels), positions are grouped by the cards left in the stock and no group takes
/// more than half the beam (so the positions before a deal and after it are both carried on),
/// and a round ends after `DEALS_PATIENCE` levels in which no group's best improved.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Deals {
    Plain,
    ByDeals,
}

/// the widths of the cheap first rounds when widening (`guided` with no width): where the
/// evaluation leads well (FreeCell) one of them wins for a fraction of a wide round's cost
pub const PROBES: [usize; 2] = [1, 4];
/// the width of the first round after the probes; each next one is four times wider
pub const FIRST_WIDTH: usize = 32;

/// A child of the beam's level: (evaluation, order, the beam entry it comes from, the draws
/// and move from there, its key's hash).
type Child = (i64, usize, usize, (usize, Move), u64);

/// The positions the beam has seen, by a 64-bit hash of their canonical key
/// (`Search::key_hash`). Two positions with the same hash are taken for one, so a position may
/// be left out that was never seen: the beam is a heuristic that proves nothing (a win is
/// replayed from the root; running out answers `Unknown`), so that costs at most a win it
/// might have found, never a wrong answer, and saves building, storing and comparing keys.
type Hashes = HashSet<u64, BuildHasherDefault<Fx>>;

/// A position the beam kept: its parent and the moves that led to it from there (the draws
/// written out, the move, the safe moves home after it).
struct Kept {
    parent: u32,
    steps: Vec<Move>,
}

impl<'a> Search<'a> {
    /// The guided pass's evaluation of the position: lower is nearer a win (see the module).
    pub fn disorder(&self) -> i64 {
        self.disorder_by(&WEIGHTS, &self.inert(), Deals::Plain)
    }

    /// For each pile: `INERT`, nothing moves to or from it (the evaluation counts its cards as
    /// stock); `FLAT`, no card of it lies on one it moves with or was built on (its tables say
    /// so: a waste's), so the evaluation need not look at its pairs; else 0.
    fn inert(&self) -> Vec<u8> {
        let t = self.t;
        let w = t.width;
        (0..t.count)
            .map(|i| {
                if !t.receivers.contains(&i) && !t.sources.contains(&i) {
                    INERT
                } else if t.seq[i][..w * w].iter().chain(&t.accept[i][..w * w]).all(|&b| b == 0) {
                    FLAT
                } else {
                    0
                }
            })
            .collect()
    }

    fn disorder_by(&self, wt: &Weights, inert: &[u8], deals: Deals) -> i64 {
        let t = self.t;
        let g = &self.g;
        let w = t.width;
        let stock = t.stock.unwrap_or(usize::MAX);
        // where the foundations take only whole runs (Spider), the run they take is what a
        // pile must be built into: a pair the tableau moves together but a foundation would
        // not take as one run (Black Widow's runs of any suit) counts as built, not as a run
        let home = t.foundations.iter().find(|&&f| t.min_accept[f] > 1).map(|&f| &t.seq[f]);
        let mut cost = 0i64;
        // the cards the foundations take next (where they take single cards)
        let mut next = [0u64; 8];
        let buried = wt.buried != 0 && home.is_none() && w <= 64 * next.len();
        if buried {
            self.fit_rows(None, &mut next);
        }
        for (i, p) in g.piles.iter().enumerate() {
            if t.is_foundation[i] {
                continue;
            }
            let n = p.len();
            if i == stock || inert[i] == INERT {
                let dealt = deals == Deals::ByDeals && i == stock && t.draw_targets.iter().any(|d| t.receivers.contains(d));
                cost += if dealt { DEALS_STOCK } else { wt.stock } * n as i64;
                continue;
            }
            if n == 0 {
                if t.allowed[i].iter().any(|&a| a) {
                    cost -= if t.capacity[i] > 1 { wt.column } else { wt.cell };
                }
                continue;
            }
            if t.redeals == Some(0) && t.draw_targets.contains(&i) && !t.receivers.contains(&i) {
                cost += wt.waste * (n as i64 - 1);
            }
            let down = g.down[i].min(n);
            cost += (wt.card + wt.brk) * n as i64 + wt.down * down as i64;
            if buried {
                for (j, &c) in p.iter().enumerate() {
                    if next[c as usize / 64] >> (c % 64) & 1 != 0 {
                        cost += wt.buried * (n - 1 - j) as i64;
                    }
                }
            }
            if inert[i] == FLAT {
                continue;
            }
            let (seq, accept) = (&t.seq[i], &t.accept[i]);
            for j in down..n - 1 {
                let (lower, upper) = (p[j] as usize, p[j + 1] as usize);
                let at = lower * w + upper;
                if seq[at] != 0 && home.is_none_or(|h| h[at] != 0) {
                    cost -= wt.brk;
                } else if seq[at] != 0 || accept[at] != 0 {
                    cost -= wt.built;
                }
            }
        }
        cost
    }

    /// Play `draws` stock actions (a macro-move's), the move, then the safe moves home.
    fn play(&mut self, draws: usize, m: Move) {
        if draws > 0 {
            self.turn_stock(draws);
        }
        self.g.push(self.t, m);
        self.trail.push(Step::Move(m));
        self.auto();
    }

    /// One round of the beam, `width` positions a level, from the current position (see the
    /// module): `Win` with the line from here, or `Unknown`.
    /// `cut` is set when a level had more new positions than the beam kept (a wider beam
    /// would see more).
    pub fn beam(&mut self, budget: &Budget, width: usize, deals: Deals, cut: &mut bool) -> Outcome {
        // every move of the exact search (its waits included): the greedy cuts leave out the
        // moves of a run onto another pile that turn nothing up, which Spider lives by
        self.prune = false;
        self.stock_home = self.x.stock_home && !budget.no_stock_home;
        let t = self.t;
        let width = width.max(1);
        let max_depth = 6 * self.x.deck_size.max(52) + 100;
        let wt = WEIGHTS;
        let mut kept: Vec<Kept> = Vec::new();
        self.trail.clear();
        self.auto();
        kept.push(Kept { parent: u32::MAX, steps: self.line() });
        let line_to = |kept: &[Kept], mut at: usize, last: Vec<Move>| {
            let mut chain = Vec::new();
            while at != u32::MAX as usize {
                chain.push(at);
                at = kept[at].parent as usize;
            }
            let mut line: Vec<Move> = chain.iter().rev().flat_map(|&i| kept[i].steps.iter().copied()).collect();
            line.extend(last);
            line
        };
        if self.g.won(t) {
            self.states = 1;
            return Outcome::Win(line_to(&kept, 0, Vec::new()));
        }
        let mut buf: Vec<u16> = Vec::with_capacity(64);
        let mut seen: Hashes = Hashes::default();
        seen.insert(self.key_hash(&mut buf));
        let mut beam: Vec<(u32, Box<[u16]>)> = vec![(0, self.g.snapshot())];
        let inert = self.inert();
        let mut best = self.disorder_by(&wt, &inert, deals);
        let mut since = 0usize;
        // by deals: the best evaluation of each group (cards left in the stock)
        let mut group_best: HashMap<usize, i64, BuildHasherDefault<Fx>> = HashMap::default();
        let patience = if deals == Deals::ByDeals { DEALS_PATIENCE } else { PATIENCE };
        let mut level: Hashes = Hashes::default();
        let outcome = 'search: loop {
            if beam.is_empty() || since > patience || kept.len() > max_depth * width {
                break Outcome::Unknown;
            }
            // (evaluation, order, the beam entry it comes from, its move there, key): the
            // positions themselves are made again for the few kept
            let mut children: Vec<Child> = Vec::new();
            let mut groups: Vec<usize> = Vec::new(); // by deals: each child's cards left in the stock
            level.clear();
            for (b, (parent, snap)) in beam.iter().enumerate() {
                self.count += 1;
                if self.count & 15 == 0 && budget.over() {
                    break 'search Outcome::Unknown;
                }
                self.g.restore(snap);
                self.trail.clear();
                for (draws, m) in self.moves() {
                    if budget.worked(self.work) {
                        break 'search Outcome::Unknown;
                    }
                    self.work += 1;
                    self.play(draws, m);
                    if self.g.won(t) {
                        let last = self.line();
                        break 'search Outcome::Win(line_to(&kept, *parent as usize, last));
                    }
                    let k = self.key_hash(&mut buf);
                    if !seen.contains(&k) && level.insert(k) {
                        groups.push(t.stock.map_or(0, |st| self.g.piles[st].len()));
                        children.push((self.disorder_by(&wt, &inert, deals), children.len(), b, (draws, m), k));
                    }
                    self.undo(0);
                }
            }
            let mut improved = false;
            if deals == Deals::ByDeals {
                if children.len() > width {
                    *cut = true;
                    // the best first, no group more than half the beam, then the best left over
                    children.sort_unstable_by_key(|c| (c.0, c.1));
                    let cap = (width / 2).max(1);
                    let mut taken: HashMap<usize, usize, BuildHasherDefault<Fx>> = HashMap::default();
                    let (mut take, mut rest) = (Vec::with_capacity(width), Vec::new());
                    for c in children.drain(..) {
                        let n = taken.entry(groups[c.1]).or_insert(0);
                        if *n < cap && take.len() < width {
                            *n += 1;
                            take.push(c);
                        } else {
                            rest.push(c);
                        }
                    }
                    let more = width - take.len();
                    take.extend(rest.into_iter().take(more));
                    children = take;
                }
                for c in &children {
                    let b = group_best.entry(groups[c.1]).or_insert(i64::MAX);
                    if c.0 < *b {
                        *b = c.0;
                        improved = true;
                    }
                }
            }
            if children.len() > width {
                *cut = true;
                children.select_nth_unstable_by_key(width - 1, |c| (c.0, c.1));
                children.truncate(width);
            }
            children.sort_unstable_by_key(|c| (c.0, c.1));
            match children.first() {
                Some(c) if c.0 < best => {
                    best = c.0;
                    since = 0;
                }
                _ if improved => since = 0,
                _ => since += 1,
            }
            let mut next = Vec::with_capacity(children.len());
            for (_, _, b, (draws, m), k) in children {
                if seen.len() >= budget.max_states {
                    break 'search Outcome::Unknown;
                }
                seen.insert(k);
                let (parent, snap) = &beam[b];
                self.g.restore(snap);
                self.trail.clear();
                self.play(draws, m);
                next.push((kept.len() as u32, self.g.snapshot()));
                kept.push(Kept { parent: *parent, steps: self.line() });
            }
            beam = next;
        };
        self.states = seen.len();
        outcome
    }
}

/// The guided pass from `g`: one round of `width` positions a level, or (no width) rounds of
/// the `PROBES` widths, then of `FIRST_WIDTH`, then four times as many each, until a win, the
/// states budget (every round's states counted), the work budget (every round's children
/// counted: `Search::work`) or the deadline; `deals` as `Deals` says. Returns the outcome, the
/// states stored and the work done.
pub fn guided(t: &Tables, x: &SearchTables, g: State, budget: &Budget, width: Option<usize>, deals: Deals)
              -> (Outcome, usize, usize) {
    let mut states = 0usize;
    let mut work = 0usize;
    let mut probes = if width.is_none() { &PROBES[..] } else { &[] };
    let mut w = width.unwrap_or(FIRST_WIDTH).max(1);
    loop {
        let (round, probe) = match probes.split_first() {
            Some((&p, rest)) => {
                probes = rest;
                (p, true)
            }
            None => (w, false),
        };
        let mut s = Search::new(t, x, g.clone());
        let mut left = budget.with(budget.max_states.saturating_sub(states), budget.deadline);
        left.max_work = budget.max_work.map(|k| k.saturating_sub(work));
        let mut cut = false;
        let outcome = s.beam(&left, round, deals, &mut cut);
        states += s.states;
        work += s.work;
        // (a round that never had to leave a position out saw all a wider one would)
        if matches!(outcome, Outcome::Win(_)) || width.is_some() || !cut || states >= budget.max_states
            || budget.worked(work) || budget.over()
        {
            return (outcome, states, work);
        }
        if !probe {
            w = w.saturating_mul(4);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::solve;
    use super::super::tests::{blocked_deal, open_deal, plain, replay};
    use super::*;
    use crate::core::tests::little;
    use std::time::Instant;

    #[test]
    fn wins_a_winnable_deal_with_a_line_that_replays() {
        let t = little();
        let x = plain(&t);
        let g = open_deal(&t);
        for (width, deals) in [(None, Deals::Plain), (Some(1), Deals::Plain), (Some(8), Deals::Plain),
                               (None, Deals::ByDeals), (Some(2), Deals::ByDeals)] {
            match guided(&t, &x, g.clone(), &Budget::states(100_000), width, deals) {
                (Outcome::Win(line), states, _) => {
                    assert!(replay(&t, g.clone(), &line), "{width:?} {deals:?}: {line:?}");
                    assert!(states > 0);
                }
                other => panic!("{width:?} {deals:?}: expected a win, got {other:?}"),
            }
        }
    }

    #[test]
    fn stops_at_its_budget() {
        let t = little();
        let x = plain(&t);
        let g = open_deal(&t);
        for max_states in [0, 1, 2, 3] {
            let (outcome, states, _) = guided(&t, &x, g.clone(), &Budget::states(max_states), None, Deals::Plain);
            assert_eq!(outcome, Outcome::Unknown, "{max_states}");
            assert!(states <= max_states.max(1), "{states} > {max_states}");
        }
        let past = Some(Instant::now() - std::time::Duration::from_secs(1));
        let mut s = Search::new(&t, &x, g);
        let mut cut = false;
        assert_eq!(s.beam(&Budget { max_states: 100_000, deadline: past, ..Budget::default() }, 4, Deals::Plain, &mut cut),
                   Outcome::Unknown);
    }

    #[test]
    fn out_of_positions_it_says_unknown_never_unwinnable() {
        let mut t = little();
        t.redeals = Some(0);
        let x = plain(&t);
        // the blocked deal the exact search proves unwinnable: the guided pass runs out of
        // positions, which proves nothing
        let g = blocked_deal(&t);
        let (outcome, states, _) = guided(&t, &x, g.clone(), &Budget::states(100_000), None, Deals::Plain);
        assert_eq!(outcome, Outcome::Unknown);
        assert!(states > 1 && states < 100_000, "{states}");
        // and in the portfolio the greedy pass proves it (it cuts no move of this deal, so
        // it is the exact search), before the guided pass runs
        let budget = Budget::states(100_000);
        let (outcome, _, method) = solve(&t, &x, g, &budget, None, None, None, Some(&budget));
        assert_eq!((outcome, method), (Outcome::Unwinnable, "greedy"));
    }

    #[test]
    fn a_pile_in_runs_is_nearer_a_win_than_the_same_cards_out_of_order() {
        let t = little();
        let x = plain(&t);
        let at = |piles: Vec<Vec<u16>>, down: Vec<usize>| Search::new(&t, &x, State::new(&t, piles, down, 0)).disorder();
        let run = at(vec![vec![], vec![], vec![], vec![5, 4, 3], vec![]], vec![0; 5]);
        let mixed = at(vec![vec![], vec![], vec![], vec![3, 5, 4], vec![]], vec![0; 5]);
        let hidden = at(vec![vec![], vec![], vec![], vec![5, 4, 3], vec![]], vec![0, 0, 0, 1, 0]);
        let home = at(vec![vec![], vec![], vec![0], vec![5, 4, 3], vec![]], vec![0; 5]);
        let spread = at(vec![vec![], vec![], vec![], vec![5, 4], vec![3]], vec![0; 5]);
        assert!(run < mixed, "{run} {mixed}");
        assert!(run < hidden, "{run} {hidden}");
        assert!(run < spread, "an empty column and a run beat two piles: {run} {spread}");
        assert!(home <= run, "a card home is no worse: {home} {run}");
    }

    #[test]
    fn a_waste_turned_once_costs_its_buried_cards_and_one_turned_again_does_not() {
        // the same three cards in the stock, or turned into the waste (the ace on top)
        let at = |redeals: Option<u32>, stock: Vec<u16>, waste: Vec<u16>| {
            let mut t = little();
            t.redeals = redeals;
            let x = plain(&t);
            let down = vec![stock.len(), 0, 0, 0, 0];
            let piles = vec![stock, waste, vec![], vec![5, 4, 3], vec![]];
            Search::new(&t, &x, State::new(&t, piles, down, 0)).disorder()
        };
        let (once_stock, once_waste) = (at(Some(0), vec![12, 11, 0], vec![]), at(Some(0), vec![], vec![12, 11, 0]));
        assert!(once_waste > once_stock, "two cards buried under the waste's top: {once_waste} {once_stock}");
        let (again_stock, again_waste) = (at(None, vec![12, 11, 0], vec![]), at(None, vec![], vec![12, 11, 0]));
        assert!(again_waste <= again_stock, "the waste comes round again: {again_waste} {again_stock}");
    }
}
