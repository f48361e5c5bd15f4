//! A position whose cards cannot all get home, whatever is played (core/solver/deadlock.py,
//! whose docstring has the proof): the least fixed point of "a card leaves its place" and
//! "a card arrives home", each under conditions that every winning line meets (and more
//! lines besides). A card that never gets home in it proves the position lost.
//!
//! The tables are derived here from the game's own (`accept`, `fits`, `targets`, `gives`),
//! as the Python engine derives them from the same rows, so the two engines answer alike
//! (tests/test_native.py checks them on random positions). As a function of the position
//! and of tables that `load::alike`'s symmetry leaves unchanged, the cut is unchanged by it.

use crate::core::{Tables, GIVES_ANY, GIVES_NONE, GIVES_PILE, GIVES_RUN, GIVES_TOP};

#[derive(Clone, Debug, Default)]
pub struct Deadlock {
    /// the argument holds: every card must get home and cards travel only by moves, the
    /// stock's draws and its redeals (`Deadlock.applies`)
    pub applies: bool,
    /// checked at every position of the depth-first passes, not only where the search starts
    /// (a pile that takes cards gives its top card only: `Deadlock.node`)
    pub node: bool,
    width: usize,
    /// homes[c]: the cards c goes onto on a foundation (`width`: an empty foundation takes it)
    homes: Vec<Vec<u16>>,
    /// after[q]: the cards that go onto q on a foundation
    after: Vec<Vec<u16>>,
    /// onto[class[p]][c]: the cards c may go onto in the piles outside the foundations that
    /// pile p moves to
    class: Vec<usize>,
    onto: Vec<Vec<Vec<u16>>>,
    /// empty[p]: those piles (an empty one of them may take c)
    empty: Vec<Vec<usize>>,
    /// a face-up card of the pile may leave with the cards on it
    carries: Vec<bool>,
    /// the stock, and what its redeals take back: cards free to play at any time
    free: Vec<bool>,
    /// the free piles that give cards to others by moves (the waste)
    free_sources: Vec<usize>,
    /// the stock deals onto a pile that is not free: its cards come out without a move
    deal_in: bool,
    /// some foundation gives cards back: a card home may come down again
    give_back: bool,
    /// dest[p][d]: pile p moves cards to d, outside the foundations
    dest: Vec<Vec<bool>>,
    /// the stock deals onto a foundation: its cards go home without waiting
    stock_home: bool,
}

/// The scratch space of `Deadlock::lost`, kept by each search so that no check allocates.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    home: Vec<u8>,
    left: Vec<u8>,
    pile_of: Vec<usize>,
    place: Vec<usize>,
    todo: Vec<u16>,
    waiting: Vec<u16>,
    stack: Vec<u16>,
    /// a free card that can come out onto a pile, where cards may go on it
    entered: Vec<u8>,
    /// the free cards that have not yet come out
    outside: Vec<u16>,
    held: Vec<u16>,
}

impl Deadlock {
    /// The tables for these rules; `deck_size`: the cards of the game (every one must get
    /// home for the argument to hold).
    pub fn new(t: &Tables, deck_size: usize) -> Deadlock {
        let w = t.width;
        let count = t.count;
        let applies = !t.foundations.is_empty()
            && t.win_home == deck_size && t.win_cleared.is_empty() && t.win_one_card.is_empty()
            && t.pair_home.is_none() && t.beaten_by.iter().all(|b| b.is_empty()) && !t.consolidate
            && t.fill.iter().all(|f| f.is_empty()) && t.covered.iter().all(|c| c.is_empty())
            && t.min_accept.iter().all(|&m| m <= 1)
            && t.foundations.iter().all(|&f| t.max_accept[f] == 1);
        let mut homes = vec![Vec::new(); w];
        for &f in &t.foundations {
            for top in 0..=w {
                for &c in &t.fits[f][top] {
                    let h: &mut Vec<u16> = &mut homes[c as usize];
                    if !h.contains(&(top as u16)) {
                        h.push(top as u16);
                    }
                }
            }
        }
        for h in &mut homes {
            h.sort_unstable();
        }
        let after: Vec<Vec<u16>> =
            (0..w).map(|q| (0..w).filter(|&c| homes[c].contains(&(q as u16))).map(|c| c as u16).collect()).collect();
        let mut keys: Vec<Vec<usize>> = Vec::new(); // the accept rows of a class, by pile index
        let mut onto: Vec<Vec<Vec<u16>>> = Vec::new();
        let mut class = vec![0usize; count];
        let mut empty = vec![Vec::new(); count];
        for p in 0..count {
            let dests: Vec<usize> = t.targets[p].iter().copied().filter(|&d| !t.is_foundation[d]).collect();
            // one class for each set of distinct accept tables
            let mut key: Vec<usize> = Vec::new();
            for &d in &dests {
                if !key.iter().any(|&e| t.accept[e] == t.accept[d]) {
                    key.push(d);
                }
            }
            let found = keys.iter().position(|k| {
                k.len() == key.len() && k.iter().all(|&e| key.iter().any(|&d| t.accept[e] == t.accept[d]))
            });
            class[p] = match found {
                Some(i) => i,
                None => {
                    onto.push((0..w).map(|c| {
                        (0..w).filter(|&y| key.iter().any(|&d| t.accept[d][y * w + c] != 0)).map(|y| y as u16).collect()
                    }).collect());
                    keys.push(key);
                    keys.len() - 1
                }
            };
            empty[p] = dests;
        }
        let carries = (0..count).map(|p| matches!(t.gives[p], GIVES_RUN | GIVES_ANY | GIVES_PILE)).collect();
        let mut free = vec![false; count];
        if let Some(s) = t.stock {
            free[s] = true;
            if t.redeals != Some(0) {
                for &d in &t.draw_targets {
                    free[d] = true;
                }
            }
        }
        let stock_home = t.draw_targets.iter().any(|&d| t.is_foundation[d]);
        let free_sources = (0..count).filter(|&p| free[p] && !t.targets[p].is_empty()).collect();
        let deal_in = t.draw_targets.iter().any(|&d| !t.is_foundation[d] && !free[d]);
        let give_back = t.foundations.iter().any(|&f| t.gives[f] != GIVES_NONE);
        let dest = (0..count).map(|p| (0..count).map(|d| empty[p].contains(&d)).collect()).collect();
        let node = applies && t.receivers.iter().any(|&d| !t.is_foundation[d] && t.gives[d] == GIVES_TOP);
        Deadlock {
            applies, node, width: w, homes, after, class, onto, empty, carries, free, free_sources, deal_in, give_back,
            dest, stock_home,
        }
    }

    /// Can some card of this position never get home? Then it is lost.
    pub fn lost(&self, t: &Tables, piles: &[Vec<u16>], down: &[usize], s: &mut Scratch) -> bool {
        if !self.applies {
            return false;
        }
        let w = self.width;
        let none = usize::MAX;
        s.home.clear();
        s.home.resize(w + 1, 0);
        s.home[w] = 1; // an empty foundation: always to be had, as far as this proof goes
        s.left.clear();
        s.left.resize(w, 0);
        s.pile_of.clear();
        s.pile_of.resize(w, none);
        s.place.clear();
        s.place.resize(w, 0);
        s.todo.clear();
        for (p, pile) in piles.iter().enumerate() {
            if t.is_foundation[p] {
                for &c in pile {
                    s.home[c as usize] = 1;
                }
                continue;
            }
            // from the top down: a card's cover is looked at before it, so that one round
            // frees a whole pile whose cards can each go somewhere
            for (i, &c) in pile.iter().enumerate().rev() {
                s.pile_of[c as usize] = p;
                s.place[c as usize] = i;
                s.todo.push(c);
            }
        }
        if self.stock_home {
            if let Some(st) = t.stock {
                for &c in &piles[st] {
                    s.home[c as usize] = 1;
                }
            }
        }
        s.entered.clear();
        s.entered.resize(w, 0);
        s.outside.clear();
        for k in 0..s.todo.len() {
            let c = s.todo[k];
            if self.free[s.pile_of[c as usize]] {
                if self.deal_in {
                    s.entered[c as usize] = 1;
                } else {
                    s.outside.push(c);
                }
            }
        }
        loop {
            let mut changed = false;
            s.held.clear();
            for k in 0..s.outside.len() {
                let c = s.outside[k] as usize;
                if (self.give_back && s.home[c] != 0)
                    || self.free_sources.iter().any(|&r| self.goes(t, piles, down, s, c, r, usize::MAX))
                {
                    s.entered[c] = 1;
                    changed = true;
                } else {
                    s.held.push(c as u16);
                }
            }
            std::mem::swap(&mut s.outside, &mut s.held);
            s.waiting.clear();
            for k in 0..s.todo.len() {
                let c = s.todo[k] as usize;
                if s.home[c] != 0 {
                    continue;
                }
                let p = s.pile_of[c];
                let can_home = self.homes[c].iter().any(|&q| s.home[q as usize] != 0);
                if !self.free[p] && s.left[c] == 0 {
                    let i = s.place[c];
                    if self.carries[p] && i > down[p] && s.left[piles[p][i - 1] as usize] != 0 {
                        s.left[c] = 1; // carried with the card under it
                        changed = true;
                    } else if !self.exposed(piles, down, s, c) {
                        s.waiting.push(c as u16);
                        continue;
                    } else if !can_home && self.goes(t, piles, down, s, c, p, i) {
                        s.left[c] = 1;
                        changed = true;
                    }
                }
                if can_home {
                    self.arrive(piles, down, s, c);
                    changed = true;
                } else {
                    s.waiting.push(c as u16);
                }
            }
            std::mem::swap(&mut s.todo, &mut s.waiting);
            if !changed {
                break;
            }
        }
        !s.todo.is_empty()
    }

    /// Nothing lies on c that must leave first (its pile is free, it is the top, the card on
    /// it has left, or it is face-up where runs leave with the cards on them).
    fn exposed(&self, piles: &[Vec<u16>], down: &[usize], s: &Scratch, c: usize) -> bool {
        let p = s.pile_of[c];
        if self.free[p] {
            return true;
        }
        let pile = &piles[p];
        let i = s.place[c];
        i + 1 == pile.len() || s.left[pile[i + 1] as usize] != 0 || (self.carries[p] && i >= down[p])
    }

    /// Somewhere outside the foundations for c (at `i` in pile `p`, where it lies now).
    #[allow(clippy::too_many_arguments)]
    fn goes(&self, t: &Tables, piles: &[Vec<u16>], down: &[usize], s: &Scratch, c: usize, p: usize, i: usize) -> bool {
        let w = self.width;
        for &y in &self.onto[self.class[p]][c] {
            let y = y as usize;
            let q = s.pile_of[y];
            if q == usize::MAX {
                // on a foundation (it may come down only where foundations give back), or not
                // in this game
                if s.home[y] != 0 && self.give_back {
                    return true;
                }
                continue;
            }
            if self.free[q] {
                // a free card is a base once it can come out (or where it lies, if p moves there)
                if s.entered[y] != 0 || self.dest[p][q] {
                    return true;
                }
                continue;
            }
            if self.exposed(piles, down, s, y) && !(q == p && s.place[y] < i) {
                return true;
            }
        }
        self.empty[p].iter().any(|&d| {
            d != p && t.accept[d][w * w + c] != 0 && (piles[d].is_empty() || s.left[piles[d][0] as usize] != 0)
        })
    }

    /// c gets home; so do the cards that go onto it there and can, in turn.
    fn arrive(&self, piles: &[Vec<u16>], down: &[usize], s: &mut Scratch, c: usize) {
        s.home[c] = 1;
        s.left[c] = 1;
        s.stack.clear();
        s.stack.push(c as u16);
        while let Some(x) = s.stack.pop() {
            for &d in &self.after[x as usize] {
                let d = d as usize;
                if s.home[d] == 0 && s.pile_of[d] != usize::MAX && (s.left[d] != 0 || self.exposed(piles, down, s, d)) {
                    s.home[d] = 1;
                    s.left[d] = 1;
                    s.stack.push(d as u16);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tests::little;
    use crate::core::State;
    use crate::search::tests::{blocked_deal, open_deal, plain};
    use crate::search::{Budget, Outcome, Search};

    /// The little game of the core's tests, its foundation taking one card a move (a run
    /// moved home at once would land its cards out of order).
    fn game() -> Tables {
        let mut t = little();
        t.max_accept[2] = 1;
        t
    }

    fn lost(t: &Tables, g: &State) -> bool {
        Deadlock::new(t, 13).lost(t, &g.piles, &g.down, &mut Scratch::default())
    }

    #[test]
    fn applies_to_the_little_game_and_checks_every_position_only_where_a_pile_gives_its_top() {
        let t = game();
        let d = Deadlock::new(&t, 13);
        assert!(d.applies);
        assert!(!d.node, "its columns give runs: a card put on another is never stuck to it");
        let mut top = game();
        top.gives[3] = GIVES_TOP;
        assert!(Deadlock::new(&top, 13).node);
        assert!(!Deadlock::new(&t, 12).applies, "a card that need not get home");
        assert!(!Deadlock::new(&little(), 13).applies, "a foundation that takes runs");
    }

    #[test]
    fn a_won_deal_is_not_lost_and_a_card_on_its_own_targets_is() {
        let t = game();
        assert!(!lost(&t, &open_deal(&t)));
        // the 2 needs the ace or the 3, both under it, or an empty column: the other holds
        // the king alone, which needs the queen home (after the ace) or that column empty
        let piles = vec![vec![11, 10, 9, 8, 7, 6, 5, 4, 3], vec![], vec![], vec![0, 2, 1], vec![12]];
        let g = State::new(&t, piles, vec![9, 0, 0, 2, 0], 0);
        let x = plain(&t);
        let mut s = Search::new(&t, &x, g.clone());
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
        assert!(lost(&t, &g));
        // the blocked deal of the search's tests is lost too, but not by this proof: the
        // stock, never turned again, deals onto the waste without a move, so its cards count
        // as bases at once, and a column can empty onto them
        let mut closed = game();
        closed.redeals = Some(0);
        assert!(!lost(&closed, &blocked_deal(&closed)));
    }

    #[test]
    fn a_cycle_through_two_columns_is_lost() {
        // column 3: A 5 3, column 4: 4 2 (tops last, face down below): the 2 goes onto the 3,
        // and then the 3 onto the 4; but column 3: A 5 3 2, column 4: the 4 alone: the 2
        // needs the ace or the 3 (under it) or an empty column, the 4 needs the 5 (under the
        // 2), the 3 home (under the 2) or an empty column: neither can move first
        let mut t = game();
        t.redeals = Some(0);
        let piles = vec![vec![12, 11, 10, 9, 8, 7, 6, 5], vec![], vec![], vec![0, 4, 2], vec![3, 1]];
        let g = State::new(&t, piles, vec![8, 0, 0, 2, 1], 0);
        assert!(!lost(&t, &g), "the 2 goes onto the 3 at the top of the other column");
        let piles = vec![vec![12, 11, 10, 9, 8, 7, 6, 5], vec![], vec![], vec![0, 4, 2, 1], vec![3]];
        let g = State::new(&t, piles, vec![8, 0, 0, 3, 0], 0);
        let x = plain(&t);
        let mut s = Search::new(&t, &x, g.clone());
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
        assert!(lost(&t, &g));
    }

    #[test]
    fn a_stock_card_is_a_base_only_once_it_can_come_out() {
        // column 3: A 4 2 (the 2 on top), column 4: the king alone, the rest in the stock
        // (turned again and again): the 2 could go onto the 3, but the 3 comes out only onto
        // the 4 (under the 2) or an empty column, and neither column can empty first
        let t = game();
        let piles = vec![vec![11, 10, 9, 8, 7, 6, 5, 4, 2], vec![], vec![], vec![0, 3, 1], vec![12]];
        let g = State::new(&t, piles, vec![9, 0, 0, 2, 0], 0);
        let x = plain(&t);
        let mut s = Search::new(&t, &x, g.clone());
        assert_eq!(s.run(&Budget::states(100_000)), Outcome::Unwinnable);
        assert!(lost(&t, &g));
        // with column 4 empty (the king in the stock), the 3 comes out into it: not lost
        let piles = vec![vec![12, 11, 10, 9, 8, 7, 6, 5, 4, 2], vec![], vec![], vec![0, 3, 1], vec![]];
        let g = State::new(&t, piles, vec![10, 0, 0, 2, 0], 0);
        assert!(!lost(&t, &g));
    }

    /// Random positions of the little game (its 13 cards dealt anywhere outside the
    /// foundation, which holds the cards below some rank, a few face down): wherever the
    /// proof says lost, the exact search without it exhausts the position unwon; and the
    /// proof finds some of them.
    #[test]
    fn the_proof_never_calls_a_winnable_position_lost() {
        let mut found = 0;
        for redeals in [Some(0), None] {
            let mut t = game();
            t.redeals = redeals;
            let x = plain(&t);
            let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
            let mut next = |n: usize| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng % n as u64) as usize
            };
            for _ in 0..400 {
                let home = next(5);
                let mut piles = vec![vec![]; 5];
                piles[2] = (0..home as u16).collect();
                let mut rest: Vec<u16> = (home as u16..13).collect();
                for i in (1..rest.len()).rev() {
                    rest.swap(i, next(i + 1));
                }
                for c in rest {
                    piles[[0, 3, 4][next(3)]].push(c);
                }
                let down: Vec<usize> = (0..5)
                    .map(|p| match p {
                        0 => piles[0].len(),
                        3 | 4 if !piles[p].is_empty() => next(piles[p].len()),
                        _ => 0,
                    })
                    .collect();
                let g = State::new(&t, piles, down, 0);
                if lost(&t, &g) {
                    found += 1;
                    let mut s = Search::new(&t, &x, g.clone());
                    let answer = s.run(&Budget::states(200_000));
                    assert_eq!(answer, Outcome::Unwinnable, "{:?} {:?}", g.piles, g.down);
                }
            }
        }
        assert!(found > 40, "only {found} positions found lost");
    }
}
