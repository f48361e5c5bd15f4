//! The table loader: the tables of one game as the Python side sends them (`Raw`: one field
//! a key of the dict core/solver/native.py's `tables` builds, with its values as they are
//! there: -1 for "none"), checked and turned into the core's `Tables` and `SearchTables`.
//!
//! Whatever `build` accepts, the core must play and search without a panic: `check` is its
//! guard (sizes that agree, indices in range). The Python module (`Core`) loads through it,
//! and so does the fuzz target (core/solver/native/fuzz, `cargo fuzz run tables`), which
//! reads a `Raw` and a position from JSON (the `json` feature) and plays and searches
//! whatever loads; the same harness (`json::run`) runs under `cargo test --features json` on
//! garbled tables.

use crate::core::{State, Tables, GIVES_PILE};
use crate::search::SearchTables;

/// The tables of one game, key for key as native.py's `tables(rules)` has them.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "json", derive(serde::Deserialize, serde::Serialize))]
pub struct Raw {
    pub count: usize,
    pub width: usize,
    pub accept: Vec<Vec<u8>>,
    pub seq: Vec<Vec<u8>>,
    pub gives: Vec<u8>,
    pub capacity: Vec<usize>,
    pub max_accept: Vec<usize>,
    pub min_accept: Vec<usize>,
    pub flip: Vec<bool>,
    pub targets: Vec<Vec<usize>>,
    pub sources: Vec<usize>,
    pub receivers: Vec<usize>,
    pub allowed: Vec<Vec<bool>>,
    pub fits: Vec<Vec<Vec<u16>>>,
    pub supermove: Vec<Option<(Vec<usize>, Vec<usize>)>>,
    pub stock: i64,
    pub draw_targets: Vec<usize>,
    pub draw_count: usize,
    pub draw_not_onto_empty: bool,
    pub stock_open: bool,
    pub redeals: i64,
    pub foundations: Vec<usize>,
    pub is_foundation: Vec<bool>,
    pub win_cleared: Vec<usize>,
    pub win_home: usize,
    pub fill: Vec<Vec<usize>>,
    pub covered: Vec<Vec<usize>>,
    pub uncovers: Vec<Vec<usize>>,
    pub pair_home: i64,
    pub pair_ok: Vec<u8>,
    pub pair_sources: Vec<usize>,
    pub pair_with: Vec<Vec<bool>>,
    pub beaten_by: Vec<Vec<usize>>,
    pub beats: Vec<u8>,
    pub win_one_card: Vec<usize>,
    pub consolidate: bool,
    pub needs: Vec<Vec<u16>>,
    pub home_kind: Vec<u8>,
    pub track: Vec<bool>,
    pub start: Vec<Vec<u16>>,
    pub groups: Vec<Vec<usize>>,
    pub group_of: Vec<i64>,
    pub top_only: Vec<bool>,
    pub auto_sources: Vec<usize>,
    pub waste_like: Vec<bool>,
    pub macro_waste: i64,
    pub deck_size: usize,
    pub defer: Vec<bool>,
    pub stock_defer: bool,
    /// (older tables do not have it: off)
    #[cfg_attr(feature = "json", serde(default))]
    pub stock_home: bool,
    pub found_defer: bool,
    pub onto: Vec<Vec<Vec<u16>>>,
    pub dead_piles: Vec<usize>,
    pub dead_pred: Vec<Vec<Vec<u16>>>,
    pub dead_under: Vec<Vec<usize>>,
    /// the chain of a safe move home (both empty: off; older tables have neither)
    #[cfg_attr(feature = "json", serde(default))]
    pub chain_on: Vec<Vec<u16>>,
    #[cfg_attr(feature = "json", serde(default))]
    pub chain_pred: Vec<i32>,
    /// safe discards (both empty: off; older tables have neither)
    #[cfg_attr(feature = "json", serde(default))]
    pub discard_ok: Vec<bool>,
    #[cfg_attr(feature = "json", serde(default))]
    pub discard_below: Vec<Vec<u16>>,
    #[cfg_attr(feature = "json", serde(default))]
    pub discard_never: Vec<u16>,
    #[cfg_attr(feature = "json", serde(default))]
    pub discard_need: usize,
    #[cfg_attr(feature = "json", serde(default))]
    pub discard_late: bool,
    /// the same game with draw 1 and unlimited redeals, for the relaxation proof (None: the
    /// game has no such relaxation)
    #[cfg_attr(feature = "json", serde(default))]
    pub relaxed: Option<Box<Raw>>,
}

/// One game's tables, checked, with its relaxation's where it has one.
pub struct Loaded {
    pub main: (Tables, SearchTables),
    pub relaxed: Option<(Tables, SearchTables)>,
}

fn opt_index(v: i64) -> Option<usize> {
    if v < 0 { None } else { Some(v as usize) }
}

fn convert(r: Raw) -> Result<(Tables, SearchTables), String> {
    let t = Tables {
        count: r.count,
        width: r.width,
        accept: r.accept,
        seq: r.seq,
        gives: r.gives,
        capacity: r.capacity,
        max_accept: r.max_accept,
        min_accept: r.min_accept,
        flip: r.flip,
        targets: r.targets,
        sources: r.sources,
        receivers: r.receivers,
        allowed: r.allowed,
        fits: r.fits,
        supermove: r.supermove,
        stock: opt_index(r.stock),
        draw_targets: r.draw_targets,
        draw_count: r.draw_count,
        draw_not_onto_empty: r.draw_not_onto_empty,
        stock_open: r.stock_open,
        redeals: if r.redeals < 0 { None } else { Some(r.redeals.min(u32::MAX as i64) as u32) },
        foundations: r.foundations,
        is_foundation: r.is_foundation,
        win_cleared: r.win_cleared,
        win_home: r.win_home,
        fill: r.fill,
        covered: r.covered,
        uncovers: r.uncovers,
        pair_home: opt_index(r.pair_home),
        pair_ok: r.pair_ok,
        pair_sources: r.pair_sources,
        pair_with: r.pair_with,
        beaten_by: r.beaten_by,
        beats: r.beats,
        win_one_card: r.win_one_card,
        consolidate: r.consolidate,
    };
    let mut x = SearchTables {
        needs: r.needs,
        home_kind: r.home_kind,
        track: r.track,
        start: r.start,
        groups: r.groups,
        group_of: r.group_of.into_iter().map(|g| if g < 0 { usize::MAX } else { g as usize }).collect(),
        top_only: r.top_only,
        auto_sources: r.auto_sources,
        waste_like: r.waste_like,
        face: Vec::new(),
        macro_waste: opt_index(r.macro_waste),
        deck_size: r.deck_size,
        defer: r.defer,
        stock_defer: r.stock_defer,
        stock_home: r.stock_home,
        found_defer: r.found_defer,
        onto: r.onto,
        dead_piles: r.dead_piles,
        dead_pred: r.dead_pred,
        dead_under: r.dead_under,
        chain_on: r.chain_on,
        chain_pred: r.chain_pred,
        discard_ok: r.discard_ok,
        discard_below: r.discard_below,
        discard_never: r.discard_never,
        discard_need: r.discard_need,
        discard_late: r.discard_late,
        deadlock: Default::default(),
        twin: Vec::new(),
        twin_pile: Vec::new(),
        twin_graded: false,
    };
    check(&t, &x)?;
    x.deadlock = crate::deadlock::Deadlock::new(&t, x.deck_size);
    x.face = alike(&t, &x);
    (x.twin, x.twin_pile) = twins(&t, &x);
    if let Some(p) = x.twin_pile.iter().position(|&b| b) {
        x.twin_graded = graded(&t, p);
    }
    Ok((t, x))
}

/// Twin parents (`SearchTables::twin`, docs/solver.md "Twin parents"): the piles of one
/// interchangeable group that give runs of any length which may wait (`defer`), with no
/// supermove; and for each card the one other card those piles all treat alike (the same
/// rows and columns of `accept` and `seq`), when there is exactly one (not a copy of it).
pub fn twins(t: &Tables, x: &SearchTables) -> (Vec<u16>, Vec<bool>) {
    let w = t.width;
    if t.has_supermove() {
        return (Vec::new(), Vec::new());
    }
    let group = x.groups.iter().find(|g| {
        g.len() > 1 && g.iter().all(|&p| t.gives[p] == crate::core::GIVES_RUN && x.defer.get(p) == Some(&true))
    });
    let Some(group) = group else { return (Vec::new(), Vec::new()) };
    let alike = |a: usize, b: usize| {
        group.iter().all(|&p| {
            let (acc, seq) = (&t.accept[p], &t.seq[p]);
            (0..w).all(|y| acc[a * w + y] == acc[b * w + y] && acc[y * w + a] == acc[y * w + b]
                && seq[a * w + y] == seq[b * w + y] && seq[y * w + a] == seq[y * w + b])
                && acc[w * w + a] == acc[w * w + b]
        })
    };
    let mut twin = vec![u16::MAX; w];
    for (a, tw) in twin.iter_mut().enumerate() {
        let mut found = (0..w).filter(|&b| b != a && alike(a, b));
        if let (Some(b), None) = (found.next(), found.next()) {
            if a % 52 != b % 52 {
                *tw = b as u16; // (not a copy of it: the key already treats those alike)
            }
        }
    }
    if twin.iter().all(|&b| b == u16::MAX) {
        return (Vec::new(), Vec::new());
    }
    let mut pile = vec![false; t.count];
    for &p in group {
        pile[p] = true;
    }
    (twin, pile)
}

/// Does pile `p` build by levels (`_Tables.twin_graded`)? What it takes on a card (a row of
/// `accept` other than the empty pile's) is what its runs build on it (`seq`), and every card
/// has a level, each card of a run one above the card under it (no cycle, no two ways of
/// different length between two cards). Then a run descends strictly: it holds no card twice,
/// and a card that goes onto one of its cards lies above the card under that one in any run,
/// which the argument of docs/solver.md's "Crossed twins" needs (the waits ask whether such a
/// card lies on the same pile).
pub fn graded(t: &Tables, p: usize) -> bool {
    let w = t.width;
    let (acc, seq) = (&t.accept[p], &t.seq[p]);
    if (0..w * w).any(|i| (acc[i] != 0) != (seq[i] != 0)) {
        return false;
    }
    let mut level: Vec<Option<i32>> = vec![None; w];
    let mut stack = Vec::new();
    for root in 0..w {
        if level[root].is_some() {
            continue;
        }
        level[root] = Some(0);
        stack.push(root);
        while let Some(a) = stack.pop() {
            let la = level[a].unwrap();
            for b in 0..w {
                for (edge, lb) in [(seq[a * w + b], la + 1), (seq[b * w + a], la - 1)] {
                    if edge == 0 {
                        continue;
                    }
                    match level[b] {
                        None => {
                            level[b] = Some(lb);
                            stack.push(b);
                        }
                        Some(l) if l != lb => return false,
                        Some(_) => {}
                    }
                }
            }
        }
    }
    true
}

/// Each card's class: the first of the cards it may trade places with in every table
/// (`SearchTables::face`, the key's symmetry of identical cards).
///
/// Why it is sound: swapping two cards a and b everywhere (the permutation τ = (a b)) is a
/// symmetry of the game when every table indexed by cards is unchanged by it: what a pile
/// takes (`accept`, its empty row included), which runs move (`seq`), the cards a move
/// generation looks up (`fits`), pairs (`pair_ok`), beaten-by (`beats`), the safe moves
/// home (`needs`, `home_kind`), what an empty foundation takes (`start`), where a card
/// taken back may go (`onto`) and the dead-card cut's predecessors (`dead_pred`); the rest
/// of the tables speak of piles, not cards. Then a position P and τ(P) have the same
/// moves, up to τ, and every cut of the search is a function of the position and the
/// tables, so the search from τ(P) is the image of the search from P: one is won or lost
/// exactly when the other is. Symmetries compose, so if (a b) and (b c) are symmetries so
/// is (a c) = (a b)(b c)(a b): "trades places with" is an equivalence, each class is closed
/// under every permutation of its cards, and two positions whose piles hold the same
/// classes in the same places (the key, card by card through `face`) are one position up
/// to a symmetry. Testing a card against the first card of each class found so far is
/// therefore enough.
pub fn alike(t: &Tables, x: &SearchTables) -> Vec<u16> {
    let w = t.width;
    let mut face: Vec<u16> = (0..w as u16).collect();
    let mut firsts: Vec<usize> = Vec::new();
    for (b, f) in face.iter_mut().enumerate() {
        match firsts.iter().find(|&&a| swaps(t, x, a, b)) {
            Some(&a) => *f = a as u16,
            None => firsts.push(b),
        }
    }
    face
}

/// Swapping cards a and b leaves every card-indexed table as it is (see `alike`).
fn swaps(t: &Tables, x: &SearchTables, a: usize, b: usize) -> bool {
    let w = t.width;
    let tau = |c: usize| if c == a { b } else if c == b { a } else { c };
    // a w x w table: row a is row b read through τ, and column a is column b
    let square = |m: &[u8]| {
        m.len() < w * w
            || (0..w).all(|y| m[a * w + y] == m[b * w + tau(y)] && m[y * w + a] == m[tau(y) * w + b])
    };
    // a list of cards is the same set once τ is applied
    let set = |v: &[u16], u: &[u16]| {
        v.len() == u.len() && v.iter().all(|&c| u.contains(&(tau(c as usize) as u16)))
    };
    // per-card lists of cards: τ maps the list of c onto the list of τ(c)
    let rows = |m: &[Vec<u16>]| m.is_empty() || (0..m.len().min(w)).all(|c| set(&m[c], &m[tau(c)]));
    t.accept.iter().all(|m| square(m) && m[w * w + a] == m[w * w + b])
        && t.seq.iter().all(|m| square(m))
        && (t.pair_home.is_none() || square(&t.pair_ok))
        && (t.beats.len() != w * w || square(&t.beats))
        && t.fits.iter().all(|f| (0..=w).all(|top| set(&f[top], &f[if top == w { w } else { tau(top) }])))
        && x.home_kind[a] == x.home_kind[b]
        && rows(&x.needs)
        && x.start.iter().all(|v| set(v, v))
        && x.onto.iter().all(|m| rows(m))
        && x.dead_pred.iter().all(|m| rows(m))
        && rows(&x.chain_on)
        && (x.discard_ok.is_empty() || x.discard_ok[a] == x.discard_ok[b])
        && rows(&x.discard_below)
        && set(&x.discard_never, &x.discard_never)
        && (x.chain_pred.is_empty() || (0..w).all(|c| {
            // chain_pred read through τ: the card under τ(c) is τ of the card under c
            let (p, q) = (x.chain_pred[c], x.chain_pred[tau(c)]);
            (p < 0 && q < 0) || (p >= 0 && q >= 0 && tau(p as usize) == q as usize)
        }))
}

/// Check and convert a game's tables (and its relaxation's, which must be the same game
/// with draw 1 and unlimited redeals): the reason, in a few words, when they are not
/// consistent.
pub fn build(mut raw: Raw) -> Result<Loaded, String> {
    let relaxed = raw.relaxed.take();
    let main = convert(raw)?;
    let relaxed = match relaxed {
        Some(r) => {
            let (rt, rx) = convert(*r)?;
            if rt.count != main.0.count || rt.width != main.0.width || rt.draw_count != 1 || rt.redeals.is_some()
                || rx.macro_waste != main.1.macro_waste
            {
                return Err("bad solver tables: relaxed".to_string());
            }
            Some((rt, rx))
        }
        None => None,
    };
    Ok(Loaded { main, relaxed })
}

/// A position over checked tables: every pile's cards are cards of the deck, and no pile
/// has more face-down cards than cards.
pub fn position(t: &Tables, piles: Vec<Vec<u16>>, down: Vec<usize>, recycles: u32) -> Result<State, String> {
    if piles.len() != t.count || down.len() != t.count
        || piles.iter().zip(&down).any(|(p, &d)| d > p.len() || p.iter().any(|&c| c as usize >= t.width))
    {
        return Err("a position that does not fit these tables".to_string());
    }
    Ok(State::new(t, piles, down, recycles))
}

/// The tables are consistent (sizes, indices in range): the loader's guard, so that a bad
/// table is an error, never an out-of-bounds panic in the search.
fn check(t: &Tables, x: &SearchTables) -> Result<(), String> {
    let n = t.count;
    let w = t.width;
    let bad = |what: &str| Err(format!("bad solver tables: {what}"));
    let piles_ok = |v: &[usize]| v.iter().all(|&p| p < n);
    let sized = [t.accept.len(), t.seq.len(), t.gives.len(), t.capacity.len(), t.max_accept.len(),
                 t.min_accept.len(), t.flip.len(), t.targets.len(), t.allowed.len(), t.fits.len(),
                 t.supermove.len(), t.is_foundation.len(), x.track.len(), x.start.len(), x.group_of.len(),
                 x.top_only.len(), x.waste_like.len(), x.defer.len(), t.fill.len(), t.covered.len(), t.uncovers.len(),
                 t.pair_with.len(), t.beaten_by.len()];
    if w == 0 || !w.is_multiple_of(52) || w > 52 * 8 || sized.iter().any(|&s| s != n) {
        return bad("sizes");
    }
    if t.accept.iter().any(|a| a.len() != w * w + w) || t.seq.iter().any(|s| s.len() != w * w) {
        return bad("table sizes");
    }
    if t.gives.iter().any(|&g| g > GIVES_PILE) || t.min_accept.contains(&0) {
        return bad("gives or min_accept");
    }
    if t.allowed.iter().any(|a| a.len() != n)
        || t.fits.iter().any(|f| f.len() != w + 1 || f.iter().any(|row| row.iter().any(|&c| c as usize >= w)))
    {
        return bad("allowed or fits");
    }
    if !t.targets.iter().all(|v| piles_ok(v)) || !piles_ok(&t.sources) || !piles_ok(&t.receivers)
        || !piles_ok(&t.foundations) || !piles_ok(&t.win_cleared) || !piles_ok(&t.draw_targets)
        || !piles_ok(&x.auto_sources) || !x.groups.iter().all(|g| piles_ok(g))
        || !t.supermove.iter().flatten().all(|(a, b)| piles_ok(a) && piles_ok(b))
        || !t.fill.iter().chain(&t.covered).chain(&t.uncovers).all(|v| piles_ok(v))
        || t.uncovers.iter().any(|v| v.len() > 40)
        || !piles_ok(&t.pair_sources) || !piles_ok(&t.win_one_card) || t.pair_home.is_some_and(|h| h >= n)
        || !t.beaten_by.iter().all(|v| piles_ok(v))
    {
        return bad("pile indices");
    }
    if t.pair_with.iter().any(|r| r.len() != n)
        || (t.pair_home.is_some() && t.pair_ok.len() != w * w)
        || (t.pair_home.is_none() && !t.pair_sources.is_empty())
    {
        return bad("pairs");
    }
    if !piles_ok(&x.dead_piles) || x.dead_piles.iter().any(|&p| t.is_foundation[p])
        || (!x.dead_piles.is_empty()
            && (x.dead_pred.len() != t.foundations.len() || x.dead_under.len() != n
                || x.dead_pred.iter().any(|k| k.len() != w || k.iter().flatten().any(|&c| c as usize >= w))
                || !x.dead_under.iter().all(|v| piles_ok(v))))
    {
        return bad("dead-card tables");
    }
    if t.beaten_by.iter().any(|b| !b.is_empty()) && t.beats.len() != w * w {
        return bad("beaten-by");
    }
    if t.consolidate && (t.stock.is_none() || t.draw_targets.len() > 48) {
        return bad("consolidate");
    }
    if x.group_of.iter().any(|&g| g != usize::MAX && g >= x.groups.len()) {
        return bad("groups");
    }
    if x.onto.len() != n || x.onto.iter().any(|rows| !rows.is_empty() && rows.len() != w)
        || x.onto.iter().flatten().flatten().any(|&c| c as usize >= w)
    {
        return bad("onto");
    }
    if let Some(w) = x.macro_waste {
        if t.stock.is_none() || t.draw_targets != [w] {
            return bad("macro waste");
        }
    }
    if let Some(s) = t.stock {
        if s >= n || t.draw_targets.is_empty() || t.draw_count == 0 {
            return bad("stock");
        }
    }
    if x.needs.len() != w || x.home_kind.len() != w
        || x.needs.iter().chain(x.start.iter()).any(|v| v.iter().any(|&c| c as usize >= w))
    {
        return bad("safe-move tables");
    }
    if x.chain_on.len() != x.chain_pred.len()
        || (!x.chain_pred.is_empty()
            && (x.chain_pred.len() != w || x.chain_pred.iter().any(|&c| c >= w as i32 || c < -1)
                || x.chain_on.iter().flatten().any(|&c| c as usize >= w)))
    {
        return bad("chain tables");
    }
    if x.stock_home && (x.macro_waste.is_none() || t.stock.is_none() || t.draw_count != 1 || t.redeals.is_some()) {
        return bad("stock_home");
    }
    if x.discard_ok.len() != x.discard_below.len()
        || (!x.discard_ok.is_empty()
            && (x.discard_ok.len() != w
                || x.discard_below.iter().flatten().chain(&x.discard_never).any(|&c| c as usize >= w)
                || t.beaten_by.iter().all(|b| b.is_empty())))
    {
        return bad("discard tables");
    }
    Ok(())
}

/// The fuzz target's harness: tables and a position from JSON, loaded, played and searched.
#[cfg(feature = "json")]
pub mod json {
    use super::{build, position, Raw};
    use crate::core::Tables;
    use crate::search::{self, Budget, Outcome, Relaxed, SearchTables};

    /// What the harness reads: a game's tables and a position over them.
    #[derive(Clone, Debug, serde::Deserialize, serde::Serialize)]
    pub struct Input {
        pub tables: Raw,
        pub piles: Vec<Vec<u16>>,
        pub down: Vec<usize>,
        #[serde(default)]
        pub recycles: u32,
    }

    /// What became of an input: refused (the loader's or the position's reason), or played
    /// and searched (the search's answer).
    #[derive(Debug, PartialEq, Eq)]
    pub enum Ran {
        Refused(String),
        Searched(&'static str),
    }

    /// A short random walk of legal moves, each taken back, then a small search of every
    /// pass: whatever `build` and `position` accept must run without a panic.
    fn play(t: &Tables, x: &SearchTables, relaxed: Option<&(Tables, SearchTables)>, g: crate::core::State,
            seed: u64) -> &'static str {
        let mut s = g.clone();
        let mut rng = seed | 1;
        let mut moves = Vec::new();
        let mut pushed = 0;
        for _ in 0..60 {
            moves.clear();
            s.legal_moves(t, &mut moves);
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            s.push(t, moves[(rng % moves.len() as u64) as usize]);
            pushed += 1;
            let _ = s.won(t);
        }
        for _ in 0..pushed {
            assert!(s.pop(t).is_some(), "a move pushed is a move to pop");
        }
        // (the cards; a position the kernel would not deal, a stock face up say, may come back
        // with its face-down counts as the game keeps them)
        assert_eq!(&s.piles, &g.piles, "undo restores the cards");
        let budget = Budget::states(100);
        let relax = relaxed.map(|(rt, rx)| Relaxed { t: rt, x: rx, share: None });
        let (outcome, _, _) = search::solve(t, x, g.clone(), &budget, None, None, relax, Some(&budget));
        let deals = if seed & 2 == 0 { search::guided::Deals::Plain } else { search::guided::Deals::ByDeals };
        let _ = search::guided::guided(t, x, g, &Budget::states(60), Some(4), deals);
        match outcome {
            Outcome::Win(_) => "win",
            Outcome::Unwinnable => "unwinnable",
            Outcome::Unknown => "unknown",
        }
    }

    /// Run one input (the fuzz target's body): never a panic, whatever the bytes.
    pub fn run(data: &[u8]) -> Ran {
        let input: Input = match serde_json::from_slice(data) {
            Ok(i) => i,
            Err(e) => return Ran::Refused(format!("not an input: {e}")),
        };
        let loaded = match build(input.tables) {
            Ok(l) => l,
            Err(e) => return Ran::Refused(e),
        };
        let (t, x) = &loaded.main;
        match position(t, input.piles, input.down, input.recycles) {
            Ok(g) => {
                let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
                Ran::Searched(play(t, x, loaded.relaxed.as_ref(), g, seed))
            }
            Err(e) => Ran::Refused(e),
        }
    }
}

#[cfg(test)]
mod alike_tests {
    use super::*;
    use crate::core::tests::little;
    use crate::search::tests::plain;

    /// The tables with card `twin` made a copy of card `of`: every table row and column of
    /// `twin` that of `of`, so that swapping the two changes nothing.
    fn with_twin(of: usize, twin: usize) -> Tables {
        let mut t = little();
        let w = t.width;
        let sigma = |c: usize| if c == twin { of } else { c };
        for m in t.accept.iter_mut() {
            let old = m.clone();
            for a in 0..w {
                for b in 0..w {
                    m[a * w + b] = if a == b { 0 } else { old[sigma(a) * w + sigma(b)] };
                }
                m[w * w + a] = old[w * w + sigma(a)];
            }
        }
        for m in t.seq.iter_mut() {
            let old = m.clone();
            for a in 0..w {
                for b in 0..w {
                    m[a * w + b] = if a == b { 0 } else { old[sigma(a) * w + sigma(b)] };
                }
            }
        }
        t.fits = t.accept.iter()
            .map(|a| (0..=w).map(|top| (0..w as u16).filter(|&c| a[top * w + c as usize] != 0).collect()).collect())
            .collect();
        t
    }

    #[test]
    fn cards_of_one_suit_are_each_their_own_class() {
        let t = little();
        let face = alike(&t, &plain(&t));
        // the thirteen cards of the game, each told apart by the tables
        assert_eq!(&face[..13], &(0..13).collect::<Vec<u16>>()[..]);
        // the cards the game does not have, alike (no table speaks of them)
        assert!(face[13..].iter().all(|&f| f == 13), "{face:?}");
    }

    #[test]
    fn a_card_every_table_treats_as_another_is_keyed_as_it() {
        // card 20 plays as the 5 (card 4) does, and takes what the 5 takes
        let t = with_twin(4, 20);
        let face = alike(&t, &plain(&t));
        assert_eq!(face[20], 4);
        assert_eq!(&face[..13], &(0..13).collect::<Vec<u16>>()[..]);
        // but not where one table tells them apart: the empty pile takes the 5 and not its twin
        let mut t = with_twin(4, 20);
        let w = t.width;
        t.accept[3][w * w + 20] = 0;
        t.fits[3][w].retain(|&c| c != 20);
        assert_ne!(alike(&t, &plain(&t))[20], 4);
        // nor where the safe moves home tell them apart
        let t = with_twin(4, 20);
        let mut x = plain(&t);
        x.home_kind[4] = crate::search::HOME_LONE;
        assert_ne!(alike(&t, &x)[20], 4);
    }
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::json::{run, Input, Ran};
    use super::*;
    use crate::core::tests::little;
    use serde_json::Value;

    /// little()'s tables (a stock, a waste, a foundation of one suit, two columns) as the
    /// Python side would send them, with a winnable deal of its thirteen cards.
    fn base() -> Input {
        let t = little();
        let n = t.count;
        let w = t.width;
        let raw = Raw {
            count: n,
            width: w,
            accept: t.accept.clone(),
            seq: t.seq.clone(),
            gives: t.gives.clone(),
            capacity: t.capacity.clone(),
            max_accept: t.max_accept.clone(),
            min_accept: t.min_accept.clone(),
            flip: t.flip.clone(),
            targets: t.targets.clone(),
            sources: t.sources.clone(),
            receivers: t.receivers.clone(),
            allowed: t.allowed.clone(),
            fits: t.fits.clone(),
            supermove: t.supermove.clone(),
            stock: 0,
            draw_targets: t.draw_targets.clone(),
            draw_count: t.draw_count,
            redeals: -1,
            foundations: t.foundations.clone(),
            is_foundation: t.is_foundation.clone(),
            win_home: t.win_home,
            fill: t.fill.clone(),
            covered: t.covered.clone(),
            uncovers: t.uncovers.clone(),
            pair_home: -1,
            pair_with: t.pair_with.clone(),
            beaten_by: t.beaten_by.clone(),
            needs: vec![vec![]; w],
            home_kind: vec![0; w],
            track: vec![false; n],
            start: vec![vec![]; n],
            group_of: vec![-1; n],
            top_only: vec![false; n],
            waste_like: (0..n).map(|p| p == 1).collect(),
            macro_waste: -1,
            deck_size: 13,
            defer: vec![false; n],
            onto: vec![vec![]; n],
            ..Raw::default()
        };
        // the search's tests' winnable deal (search::tests::open_deal)
        Input { tables: raw, piles: vec![vec![12, 11, 0], vec![], vec![], vec![5, 4, 3, 2, 1], vec![10, 9, 8, 7, 6]],
                down: vec![3, 0, 0, 4, 4], recycles: 0 }
    }

    /// A small deterministic generator (xorshift), so that the garbled tables are the same
    /// on every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self, below: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % below.max(1) as u64) as usize
        }
    }

    /// A random number, mostly small and near the sizes in play, sometimes out of range.
    fn number(rng: &mut Rng) -> Value {
        let v: i64 = match rng.next(6) {
            0 => -1,
            1 => rng.next(6) as i64,
            2 => rng.next(14) as i64,
            3 => 50 + rng.next(6) as i64,
            4 => 2700 + rng.next(120) as i64,
            _ => rng.next(1 << 20) as i64,
        };
        Value::from(v)
    }

    /// Garble one place of a JSON value: a number changed, a list shortened, lengthened or
    /// emptied, a key dropped, a value of another kind.
    fn garble(v: &mut Value, rng: &mut Rng, depth: usize) {
        match v {
            Value::Object(map) if !map.is_empty() => {
                let key = map.keys().nth(rng.next(map.len())).unwrap().clone();
                if depth == 0 && rng.next(12) == 0 {
                    map.remove(&key);
                } else {
                    garble(map.get_mut(&key).unwrap(), rng, depth + 1);
                }
            }
            Value::Array(items) => match rng.next(8) {
                0 => items.truncate(rng.next(items.len() + 1)),
                1 => {
                    let extra = items.last().cloned().unwrap_or_else(|| number(rng));
                    items.push(extra);
                }
                2 => items.clear(),
                _ if !items.is_empty() => {
                    let i = rng.next(items.len());
                    garble(&mut items[i], rng, depth + 1);
                }
                _ => items.push(number(rng)),
            },
            Value::Bool(b) => *b = !*b,
            Value::Null => *v = Value::Array(vec![number(rng)]),
            _ => {
                *v = match rng.next(10) {
                    0 => Value::Bool(true),
                    1 => Value::Null,
                    _ => number(rng),
                }
            }
        }
    }

    #[test]
    fn the_base_tables_load_play_and_are_won() {
        let data = serde_json::to_vec(&base()).unwrap();
        assert_eq!(run(&data), Ran::Searched("win"));
    }

    #[test]
    fn garbled_tables_are_refused_or_played_never_a_panic() {
        let base = serde_json::to_value(base()).unwrap();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut refused, mut searched) = (0, 0);
        for _ in 0..3000 {
            let mut v = base.clone();
            for _ in 0..=rng.next(3) {
                garble(&mut v, &mut rng, 0);
            }
            match run(&serde_json::to_vec(&v).unwrap()) {
                Ran::Refused(why) => {
                    assert!(!why.is_empty());
                    refused += 1;
                }
                Ran::Searched(_) => searched += 1,
            }
        }
        // both kinds happen, so the test exercises the guard and what lies past it
        assert!(refused > 300 && searched > 300, "{refused} refused, {searched} searched");
    }

    #[test]
    fn bytes_that_are_not_json_are_refused() {
        for data in [&b""[..], b"{", b"[1,2]", b"{\"tables\": 3}", &[0xff, 0xfe, 0x00]] {
            assert!(matches!(run(data), Ran::Refused(_)), "{data:?}");
        }
    }
}
