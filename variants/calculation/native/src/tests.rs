//! The search against a search with no pruning at all, on random positions with few cards
//! away from home; every win replayed by the rules.

use super::*;
use std::collections::HashMap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

fn empty() -> Vec<Vec<u8>> {
    vec![Vec::new(); 4]
}

fn unbounded() -> Budget {
    Budget { max_states: usize::MAX, deadline: None, relax_budget: RELAX_BUDGET, max_work: None }
}

/// Play `steps` by the rules from the position; true when every step is legal and the
/// foundations end complete.
fn replays(lengths: &[usize], reserves: &[Vec<u8>], cards: &[u8], steps: &[Step]) -> bool {
    let t = Tables::new();
    let mut l = lengths.to_vec();
    let mut r = reserves.to_vec();
    let mut next = 0;
    for &s in steps {
        match s {
            Step::Home { reserve, foundation } => {
                let Some(&top) = r[reserve].last() else { return false };
                if t.seq[foundation][l[foundation]] != top as i8 {
                    return false;
                }
                r[reserve].pop();
                l[foundation] += 1;
            }
            Step::DrawHome { foundation } => {
                if next >= cards.len() || t.seq[foundation][l[foundation]] != cards[next] as i8 {
                    return false;
                }
                l[foundation] += 1;
                next += 1;
            }
            Step::DrawPark { reserve } => {
                if next >= cards.len() {
                    return false;
                }
                r[reserve].push(cards[next]);
                next += 1;
            }
        }
    }
    l.iter().all(|&x| x == RANKS)
}

/// `brute`'s table: (cards drawn, foundations' lengths, reserves) -> won.
type Memo = HashMap<(usize, [usize; 4], [Vec<u8>; 4]), bool>;

/// Can the position be won? Every move tried, no pruning: a table of the positions seen
/// (the whole position: each decides its own future).
fn brute(t: &Tables, l: &mut [usize; 4], r: &mut [Vec<u8>; 4], cards: &[u8], i: usize, memo: &mut Memo) -> bool {
    if l.iter().all(|&x| x == RANKS) {
        return true;
    }
    let key = (i, *l, r.clone());
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut won = false;
    'moves: for j in 0..4 {
        let Some(&top) = r[j].last() else { continue };
        for k in 0..4 {
            if t.seq[k][l[k]] == top as i8 {
                r[j].pop();
                l[k] += 1;
                won = brute(t, l, r, cards, i, memo);
                l[k] -= 1;
                r[j].push(top);
                if won {
                    break 'moves;
                }
            }
        }
    }
    if !won && i < cards.len() {
        let c = cards[i];
        for k in 0..4 {
            if !won && t.seq[k][l[k]] == c as i8 {
                l[k] += 1;
                won = brute(t, l, r, cards, i + 1, memo);
                l[k] -= 1;
            }
        }
        for j in 0..4 {
            if won {
                break;
            }
            r[j].push(c);
            won = brute(t, l, r, cards, i + 1, memo);
            r[j].pop();
        }
    }
    memo.insert(key, won);
    won
}

/// A random position: foundations at random lengths from `least`, the cards they still
/// need shuffled, some dealt onto the reserves, the rest to draw.
fn position(rng: &mut Rng, least: usize) -> ([usize; 4], [Vec<u8>; 4], Vec<u8>) {
    let t = Tables::new();
    let mut l = [0usize; 4];
    let mut away = Vec::new();
    for k in 0..4 {
        l[k] = least + rng.below(RANKS - least + 1);
        for j in l[k]..RANKS {
            away.push(t.seq[k][j] as u8);
        }
    }
    rng.shuffle(&mut away);
    let parked = rng.below(away.len() + 1);
    let mut r: [Vec<u8>; 4] = Default::default();
    for &c in &away[..parked] {
        r[rng.below(4)].push(c);
    }
    (l, r, away[parked..].to_vec())
}

#[test]
fn the_tables_are_calculations() {
    let t = Tables::new();
    for k in 0..4 {
        let mut ranks: Vec<i8> = t.seq[k][..RANKS].to_vec();
        assert_eq!(ranks[0] as usize, k, "foundation {k} starts on rank {k}");
        assert_eq!(ranks[RANKS - 1] as usize, RANKS - 1, "every foundation ends on its King");
        assert_eq!(t.seq[k][RANKS], -1);
        ranks.sort();
        assert_eq!(ranks, (0..RANKS as i8).collect::<Vec<_>>(), "foundation {k} takes every rank once");
        assert_eq!(t.path[k][0][t.seq[k][2] as usize].count_ones(), 2);
    }
}

#[test]
fn agrees_with_a_search_without_pruning() {
    let t = Tables::new();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut won, mut lost) = (0, 0);
    for _ in 0..2000 {
        let (l, r, cards) = position(&mut rng, 9);
        let (outcome, _) = search(&l, &r, &cards, unbounded()).unwrap();
        let truth = brute(&t, &mut l.clone(), &mut r.clone(), &cards, 0, &mut HashMap::new());
        match outcome {
            Outcome::Win(steps) => {
                assert!(truth, "won a lost position {l:?} {r:?} {cards:?}");
                assert!(replays(&l, &r, &cards, &steps), "a line that does not replay: {l:?} {r:?} {cards:?}");
                won += 1;
            }
            Outcome::Lost => {
                assert!(!truth, "called lost a position that wins: {l:?} {r:?} {cards:?}");
                lost += 1;
            }
            Outcome::Unknown => panic!("an unbounded search answered unknown"),
        }
    }
    eprintln!("{won} won, {lost} lost");
    assert!(won > 200 && lost > 100, "both answers tested: {won} won, {lost} lost");
}

#[test]
fn whole_deals_win_with_lines_that_replay() {
    let mut rng = Rng(12345);
    let t = Tables::new();
    let mut won = 0;
    for _ in 0..8 {
        let mut cards: Vec<u8> = Vec::new();
        for k in 0..4 {
            cards.extend(t.seq[k][1..RANKS].iter().map(|&r| r as u8));
        }
        rng.shuffle(&mut cards);
        let budget = Budget { max_states: 20_000, deadline: None, relax_budget: RELAX_BUDGET, max_work: None };
        let (outcome, states) = search(&[1; 4], &empty(), &cards, budget).unwrap();
        if let Outcome::Win(steps) = outcome {
            assert!(replays(&[1; 4], &empty(), &cards, &steps));
            won += 1;
        } else {
            assert!(states > 0);
        }
    }
    assert!(won >= 2, "{won} of 8 deals won");
}

#[test]
fn a_states_budget_answers_unknown_not_lost() {
    let mut rng = Rng(777);
    let t = Tables::new();
    let mut cards: Vec<u8> = Vec::new();
    for k in 0..4 {
        cards.extend(t.seq[k][1..RANKS].iter().map(|&r| r as u8));
    }
    rng.shuffle(&mut cards);
    let budget = Budget { max_states: 10, deadline: None, relax_budget: RELAX_BUDGET, max_work: None };
    let (outcome, states) = search(&[1; 4], &empty(), &cards, budget).unwrap();
    assert_ne!(outcome, Outcome::Lost);
    assert!(states <= 10 + 64, "stopped near its budget: {states}");
}

/// The relaxation's table of answers, shared along a line of play, answers as a check with
/// a table of its own would: a position of the relaxation depends on nothing else.
#[test]
fn the_relaxations_shared_answers_are_a_fresh_checks() {
    let t = Tables::new();
    let mut rng = Rng(4242);
    let exact = Budget { max_states: usize::MAX, deadline: None, relax_budget: u32::MAX, max_work: None };
    let (mut lost, mut kept, mut hits, mut ran_out) = (0, 0, 0, 0);
    for _ in 0..60 {
        let (l, r, cards) = position(&mut rng, 3);
        let mut shared = Search::new(&t, l, &r, &cards, exact);
        // a small relaxation budget, so that checks run out of it: their "true" is no answer
        let tight = Budget { max_states: usize::MAX, deadline: None, relax_budget: 8, max_work: None };
        let mut budgeted = Search::new(&t, l, &r, &cards, tight);
        for i in 0..cards.len() {
            // a random move home or two, then the next card parked on a random reserve
            for _ in 0..rng.below(3) {
                let homes: Vec<(usize, usize)> = (0..4)
                    .flat_map(|j| (0..4).map(move |k| (j, k)))
                    .filter(|&(j, k)| shared.r[j].last().is_some_and(|&top| shared.want(k) == top as i8))
                    .collect();
                if let Some(&(j, k)) = homes.get(rng.below(homes.len().max(1))) {
                    shared.home(j, k);
                    budgeted.home(j, k);
                }
            }
            let j = rng.below(4);
            shared.push(j, cards[i]);
            budgeted.push(j, cards[i]);
            let before = shared.relax_memo.len();
            let ok = shared.relaxed_ok();
            let mut fresh = Search::new(&t, shared.l, &shared.r, &cards, exact);
            assert_eq!(ok, fresh.relaxed_ok(), "{:?} {:?}", shared.l, shared.r);
            // the shared table spared part of the work of a check of its own (never emptied here)
            assert!(shared.relax_memo.len() >= before);
            hits += (shared.relax_memo.len() - before < fresh.relax_memo.len()) as usize;
            if budgeted.relaxed_ok() {
                ran_out += (!ok) as usize; // a "true" the exact check does not give
            } else {
                assert!(!ok, "a budgeted check's 'false' is a proof: {:?} {:?}", shared.l, shared.r);
            }
            if ok {
                kept += 1;
            } else {
                lost += 1;
                break;
            }
        }
    }
    eprintln!("{lost} lost, {kept} kept, {hits} answered by the table, {ran_out} budgets run out");
    assert!(ran_out > 0, "some budgeted check ran out: {ran_out}");
    assert!(lost > 10 && kept > 100 && hits > 10, "{lost} lost, {kept} kept, {hits} answered by the table");
}

/// The beam's lines win (each replays by the rules, from a position the search without
/// pruning wins), whatever the estimate or the width; a beam that finds none and was never
/// cut says so, and then a wider one finds none either.
#[test]
fn the_beams_lines_replay() {
    let t = Tables::new();
    let mut rng = Rng(99);
    let (mut found, mut none) = (0, 0);
    for n in 0..600 {
        let (l, r, cards) = position(&mut rng, 9);
        let (kind, width) = (n % 3, [1, 3, 1000][n / 3 % 3]);
        let result = beam(&l, &r, &cards, width, None, kind).unwrap();
        if let Some(steps) = &result.path {
            assert!(replays(&l, &r, &cards, steps), "a line that does not replay: {l:?} {r:?} {cards:?}");
            assert!(brute(&t, &mut l.clone(), &mut r.clone(), &cards, 0, &mut HashMap::new()));
            found += 1;
        } else {
            if !result.cut {
                assert_eq!(beam(&l, &r, &cards, 100_000, None, kind).unwrap().path, None);
            }
            none += 1;
        }
    }
    assert!(found > 100 && none > 20, "{found} found, {none} not");
}

#[test]
fn refuses_a_malformed_position() {
    assert!(search(&[1; 3], &empty(), &[], unbounded()).is_err());
    assert!(search(&[14, 1, 1, 1], &empty(), &[], unbounded()).is_err());
    assert!(search(&[1; 4], &empty(), &[13], unbounded()).is_err());
    assert!(beam(&[14, 1, 1, 1], &empty(), &[], 25, None, 0).is_err());
    assert!(beam(&[1; 4], &empty(), &[], 25, None, 3).is_err());
}
