"""A dedicated full-information search for Calculation, on ranks alone.

With the stock's order known, Calculation is a one-player puzzle: the position is the four
foundations' lengths and the four reserves (what has been drawn follows from them), and the
only choices are where each drawn card goes and when a reserve's top card goes home. This
module searches that small state directly (tuples of ranks, no :class:`Game`), depth first,
with a transposition table, and returns kernel moves that the solver replays.

Everything it prunes is a proof (see :func:`search`), so an exhausted search is a proof the
deal is lost.

Both searches are also compiled (``native/``, a Rust crate built into
``solitaire.variants.calculation._search`` by the package's install): the same moves in the
same order, the same proofs, the same positions stored, many times faster. :func:`search`
uses them when they are installed, unless ``SOLITAIRE_ENGINE=python`` asks for Python; this
module's :class:`Search` and :func:`beam` are the reference they are tested against.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from solitaire.core.solver import UNKNOWN, UNWINNABLE, WIN, SearchOutcome
from solitaire.core.solver.native import forced_python

from .tables import PATH, POS, RANKS, urgency  # the tables of the four sequences, built once
from .tables import SEQ as _SEQ

_exact: Callable[..., tuple[str, list[tuple[str, int, int]], int]] | None
_beam: Callable[..., tuple[list[tuple[str, int, int]] | None, bool, int]] | None
try:  # the compiled searches (native/); without them, Search and beam below do the same
    from ._search import beam as _beam
    from ._search import exact as _exact
except ImportError:  # pragma: no cover - a platform with no wheel and no Rust
    _exact = _beam = None

# SEQ[k][j]: the rank of card j on foundation k, then -1 once the foundation is complete
SEQ = tuple((*seq, -1) for seq in _SEQ)

#: the relaxation's budget at each card parked (positions of :meth:`Search.relaxed_ok`):
#: past it the check gives no answer. On deals 1..200 it almost never runs out at 2,000,
#: while 300 left deals 7, 56 and 75 undecided after 3,000,000 states that 2,000 wins in
#: 76,000 to 1,080,000 (docs/performance.md, "Calculation: 1,000 deals")
RELAX_BUDGET = 2000

#: the relaxation's table of answers, shared by every check of one search, is emptied when it
#: holds this many: a position of the relaxation is the foundations' lengths and the reserves
#: cut to some heights, and its answer depends on nothing else, so a check meets many of its
#: siblings' (deal 7, 717,436 states: 168M positions of the relaxation searched without the
#: table, 27M with it, 22 s -> 6.3 s compiled)
RELAX_MEMO = 1 << 16

#: the exact search also stops (no answer) once its relaxation checks have searched this many
#: positions a state of its budget, in all: a count, so the same in both engines and on any
#: machine. Whole deals use far less (deal 7: 37 a state stored); a hint's guesses 40 moves
#: into a game used thousands, their checks running out of budget one after another
RELAX_WORK = 64


def installed() -> bool:
    """Whether the compiled searches (beam and exhaustive) are installed."""
    return _exact is not None


def native_search() -> bool:
    """Whether :func:`search` runs the compiled searches (installed, and
    ``SOLITAIRE_ENGINE`` does not ask for Python)."""
    return _exact is not None and not forced_python()


class _Out(Exception):
    pass


class BeamResult(NamedTuple):
    """What one :func:`beam` search found: a winning ``path`` (in :class:`Search`'s path
    format) or None (proves nothing); ``cut``: whether any level was cut short (if not, a
    wider beam would find nothing more); ``states``: the positions it stored."""

    path: list[tuple[Any, ...]] | None
    cut: bool
    states: int


class Search:
    """Depth-first search over (foundation lengths, reserves); see :func:`search`."""

    def __init__(self, lengths: list[int], reserves: list[list[int]], cards: list[int],
                 deadline: float, max_states: int, relax_budget: int = RELAX_BUDGET,
                 max_work: int | None = None) -> None:
        self.L = list(lengths)
        self.relax_budget = relax_budget  # for each check of :meth:`relaxed_ok` in :meth:`dfs`
        #: the positions the search and its relaxation checks may reach together (None: no such bound)
        self.max_work = max_work
        self.R = [list(r) for r in reserves]
        self.cards = list(cards)  # ranks still to come, in the order they are drawn
        self.deadline = deadline
        self.max_states = max_states
        self.seen: set[bytes] = set()
        #: the relaxation's answers (see :meth:`relaxed_ok`), by position
        self.relax_memo: dict[bytes, bool] = {}
        #: the positions the relaxation's checks have searched (see :data:`RELAX_WORK`)
        self.relax_work = 0
        self.path: list[tuple[Any, ...]] = []  # ("h", reserve, foundation) / ("d", foundation or -1, reserve)
        self.count = 0
        # remaining[r]: copies of rank r not yet home (== foundations still needing r)
        self.remaining = [0] * RANKS
        for k in range(4):
            for j in range(self.L[k], RANKS):
                self.remaining[SEQ[k][j]] += 1

    # ------------------------------------------------------------------ helpers

    def key(self) -> bytes:
        L, R = self.L, self.R
        return bytes(L) + b"\xff".join(sorted(bytes(r) for r in R))

    def needers(self, rank: int) -> int:
        """How many foundations still need ``rank``."""
        return self.remaining[rank]

    def urgency(self, rank: int) -> int:
        """Cards the nearest foundation still needing ``rank`` takes before it (13: none)."""
        return urgency(self.L, rank)

    def stuck(self, j: int) -> bool:
        """Is the top card of reserve ``j`` stuck for ever (a proof)?  Each foundation that
        still needs its rank needs first a rank whose every remaining copy lies under it."""
        pile = self.R[j]
        if len(pile) < 2:
            return False
        top = pile[-1]
        remaining = self.remaining
        under = [0] * RANKS
        for r in pile[:-1]:
            under[r] += 1
        blocked = 0
        for r in range(RANKS):
            if under[r] and under[r] == remaining[r]:
                blocked |= 1 << r
        if not blocked:
            return False
        L = self.L
        for k in range(4):
            length = L[k]
            if POS[k][top] >= length and not PATH[k][length][top] & blocked:
                return False
        return True

    def relaxed_ok(self, budget: int = RELAX_BUDGET) -> bool:
        """False only when the reserves can never be cleared even if every card still in the
        stock could be played at any time (a relaxation of the game, so False is a proof).

        Searched over (foundation lengths, reserve heights); two sound shortcuts: a foundation
        wanting a rank with no copy in the reserves takes a free copy at once, and one wanting
        a rank whose only reserve copy is a top card takes that card at once; a free copy is
        never used while a reserve top of that rank could be instead. Gives up (True) after
        ``budget`` positions.

        A position of this search depends on nothing but the foundations' lengths and the
        reserves cut to their heights (the free copies of a rank are those not home less those
        in the reserves), so its answer holds for every check: answers are kept in
        :attr:`relax_memo` and a position found there is not searched (nor counted against
        ``budget``) again. A "false" is always an answer (no position is its own descendant);
        a "true" is one unless the budget ran out, which ends the check, so that one is not
        kept."""
        R = self.R
        resv = [0] * RANKS
        for pile in R:
            for r in pile:
                resv[r] += 1
        free = [self.remaining[r] - resv[r] for r in range(RANKS)]
        L = list(self.L)
        H = [len(p) for p in R]
        memo = self.relax_memo
        count = [0]
        inexact = [False]

        def go() -> bool:
            log = []  # ("f", k, r) free copy, ("t", k, j) reserve top
            while True:
                moved = False
                for k in range(4):
                    r = SEQ[k][L[k]]
                    if r < 0:
                        continue
                    if resv[r] == 0 and free[r] > 0:
                        free[r] -= 1
                        L[k] += 1
                        log.append(("f", k, r))
                        moved = True
                    elif resv[r] == 1:
                        for j in range(4):
                            if H[j] and R[j][H[j] - 1] == r:
                                H[j] -= 1
                                resv[r] -= 1
                                L[k] += 1
                                log.append(("t", k, j))
                                moved = True
                                break
                if not moved:
                    break
            ok = False
            if not any(H):
                ok = True
            else:
                key = bytes(L) + b"\xff".join(sorted(bytes(R[j][:H[j]]) for j in range(4)))
                known = memo.get(key)
                if known is not None:
                    ok = known
                else:
                    count[0] += 1
                    if count[0] > budget:
                        ok = True
                        inexact[0] = True
                    else:
                        for k in range(4):
                            r = SEQ[k][L[k]]
                            if r < 0:
                                continue
                            tops = [j for j in range(4) if H[j] and R[j][H[j] - 1] == r]
                            for j in tops:
                                H[j] -= 1
                                resv[r] -= 1
                                L[k] += 1
                                ok = go()
                                L[k] -= 1
                                resv[r] += 1
                                H[j] += 1
                                if ok:
                                    break
                            if ok:
                                break
                            if not tops and free[r] > 0:
                                free[r] -= 1
                                L[k] += 1
                                ok = go()
                                L[k] -= 1
                                free[r] += 1
                                if ok:
                                    break
                    if not (ok and inexact[0]):
                        if len(memo) >= RELAX_MEMO:
                            memo.clear()
                        memo[key] = ok
            for kind, k, x in reversed(log):
                L[k] -= 1
                if kind == "f":
                    free[x] += 1
                else:
                    H[x] += 1
                    resv[R[x][H[x] - 1]] += 1
            return ok

        ok = go()
        self.relax_work += count[0]
        return ok

    # ------------------------------------------------------------------ moves

    def home(self, j: int, k: int) -> None:
        r = self.R[j].pop()
        self.L[k] += 1
        self.remaining[r] -= 1
        self.path.append(("h", j, k))

    def unhome(self) -> None:
        _, j, k = self.path.pop()
        self.L[k] -= 1
        r = SEQ[k][self.L[k]]
        self.R[j].append(r)
        self.remaining[r] += 1

    def forced(self) -> int:
        """Play home every reserve top that is the last copy of its rank, fitting the one
        foundation that needs it (safe: nothing else can use it); return how many."""
        L, R, remaining = self.L, self.R, self.remaining
        n = 0
        again = True
        while again:
            again = False
            for j in range(4):
                pile = R[j]
                if not pile:
                    continue
                r = pile[-1]
                if remaining[r] != 1:
                    continue
                for k in range(4):
                    if SEQ[k][L[k]] == r:
                        self.home(j, k)
                        n += 1
                        again = True
                        break
        return n

    def won(self) -> bool:
        L = self.L
        return L[0] == L[1] == L[2] == L[3] == RANKS

    def dfs(self, i: int) -> bool:
        self.count += 1
        if not self.count & 63 and (time.perf_counter() > self.deadline or len(self.seen) > self.max_states
                                    or self.relax_work > RELAX_WORK * self.max_states
                                    or (self.max_work is not None and self.relax_work + self.count > self.max_work)):
            raise _Out
        mark = len(self.path)
        self.forced()
        if self.won():
            return True
        key = self.key()
        if key in self.seen:
            self._undo(mark)
            return False
        self.seen.add(key)
        L, R = self.L, self.R
        moves: list[tuple[int, tuple[Any, ...]]] = []
        wants = [SEQ[k][L[k]] for k in range(4)]
        for j in range(4):
            pile = R[j]
            if pile:
                r = pile[-1]
                for k in range(4):
                    if wants[k] == r:
                        moves.append((1000 + k, ("h", j, k)))
        if i < len(self.cards):
            c = self.cards[i]
            for k in range(4):
                if wants[k] == c:
                    moves.append((900 + k, ("d", k, -1)))
            u = self.urgency(c)
            done: set[bytes] = set()
            empties = sum(1 for p in R if not p)
            for j in range(4):
                pile = R[j]
                b = bytes(pile)
                if b in done:
                    continue
                done.add(b)
                if not pile:
                    pri = (15 if c == RANKS - 1 else 0) - 12 // empties
                else:
                    under = self.urgency(pile[-1])
                    pri = 25 - min(20, under - u) if u <= under else -25 - min(30, u - under)
                moves.append((pri, ("d", -1, j)))
        moves.sort(key=lambda e: -e[0])
        for _, m in moves:
            if m[0] == "h":
                self.home(m[1], m[2])
                if self.dfs(i):
                    return True
                self.unhome()
                continue
            c = self.cards[i]
            k, j = m[1], m[2]
            if k >= 0:
                L[k] += 1
                self.remaining[c] -= 1
                self.path.append(("d", k, -1))
                if self.dfs(i + 1):
                    return True
                self.path.pop()
                L[k] -= 1
                self.remaining[c] += 1
            else:
                R[j].append(c)
                self.path.append(("d", -1, j))
                if not self.stuck(j) and self.relaxed_ok(self.relax_budget) and self.dfs(i + 1):
                    return True
                self.path.pop()
                R[j].pop()
        self._undo(mark)
        return False

    def _undo(self, mark: int) -> None:
        while len(self.path) > mark:
            self.unhome()


# The beam's estimates (higher is better), by kind: (pair penalty base, gap divisor, weight of
# the reserve tops' urgency, weight of a card home). Kind 0 is the first estimate; 1 and 2 add
# how good a place each reserve's top card is for what comes next. Each wins deals the others
# miss, so the beam tries all three at each width.
KINDS = ((3, 3, 0, 10), (3, 3, 1.5, 10), (1, 1, 1.5, 10))


def _pile_cost(lb: bytes, pile: bytes, cache: dict[Any, Any], kind: int) -> float:
    """One reserve's share of :func:`_estimate` (to subtract) when the foundations' lengths
    are ``lb``; memoized in ``cache`` (piles recur across states)."""
    key = lb + pile  # lb has four bytes, so this is unambiguous
    cost: float | None = cache.get(key)
    if cost is None:
        us = cache.get((lb,))
        if us is None:
            us = cache[(lb,)] = tuple(urgency(lb, r) for r in range(RANKS))
        base, div, tops, _ = KINDS[kind]
        if not pile:
            cost = -tops * 14
        else:
            cost = n = len(pile)
            u = [us[r] for r in pile]
            for a in range(n):
                ua = u[a]
                for b in range(a + 1, n):
                    if u[b] > ua:
                        cost += base + (u[b] - ua) // div
            cost -= tops * u[-1]
        cache[key] = cost
    return cost


def _estimate(L: tuple[int, ...], R: tuple[bytes, ...], cache: dict[Any, Any], kind: int = 0) -> float:
    """The beam's estimate (higher is better): ten a card home, less one a reserve card, and
    less ``base + gap / div`` for each pair of reserve cards where the upper one is wanted
    ``gap`` cards later than the lower (a card is wanted when the nearest foundation still
    needing its rank reaches it); plus ``tops`` times the urgency of each reserve's top card
    (14 for an empty reserve): a top wanted late takes more cards without burying one."""
    lb = bytes(L)
    return KINDS[kind][3] * sum(L) - sum(_pile_cost(lb, pile, cache, kind) for pile in R)


def beam(lengths: list[int], reserves: list[list[int]], cards: list[int], width: int,
         deadline: float, kind: int = 0) -> BeamResult:
    """Beam search over the draws, each reserve top that fits a foundation played at once
    (so a drawn card that fits one goes home: parking it would send it home at once too);
    see :class:`BeamResult`. ``kind`` picks the estimate (:data:`KINDS`).

    Reserves are ``bytes`` (bottom to top) and a level's states are keyed with the reserves
    sorted (they are interchangeable); only a move home can uncover a card that fits. A
    state parking a card is scored from its parent's score and the one pile that changed."""
    n = len(cards)
    cache: dict[Any, Any] = {}
    cut = False
    states = 0
    home = KINDS[kind][3]
    done_l = (RANKS,) * 4

    def close(L: list[int], R: list[bytes], path: list[tuple[Any, ...]]) -> None:
        again = True
        while again:
            again = False
            wants = (SEQ[0][L[0]], SEQ[1][L[1]], SEQ[2][L[2]], SEQ[3][L[3]])
            for j in range(4):
                pile = R[j]
                if pile and pile[-1] in wants:
                    k = wants.index(pile[-1])
                    R[j] = pile[:-1]
                    L[k] += 1
                    path.append(("h", j, k))
                    again = True
                    break

    L1, R1 = list(lengths), [bytes(r) for r in reserves]
    p1: list[tuple[Any, ...]] = []
    close(L1, R1, p1)
    level: list[tuple[Any, ...]] = [(tuple(L1), tuple(R1), None, tuple(p1), 0)]
    for i in range(n + 1):
        for entry in level:
            if entry[0] == done_l:
                path: list[tuple[Any, ...]] = []
                e: tuple[Any, ...] | None = entry
                while e is not None:
                    path[:0] = list(e[3])
                    e = e[2]
                return BeamResult(path, cut, states)
        if i == n or time.perf_counter() > deadline:
            return BeamResult(None, cut, states)
        c = cards[i]
        cb = bytes((c,))
        nxt: dict[bytes, tuple[Any, ...]] = {}
        for entry in level:
            L0, R0 = entry[0], entry[1]
            ks = [k for k in range(4) if SEQ[k][L0[k]] == c]
            if ks:
                for k in ks:
                    L = list(L0)
                    L[k] += 1
                    R = list(R0)
                    path = [("d", k, -1)]
                    close(L, R, path)
                    key = bytes(L) + b"\xff".join(sorted(R))
                    if key not in nxt:
                        Lt = tuple(L)
                        Rt = tuple(R)
                        nxt[key] = (Lt, Rt, entry, tuple(path), _estimate(Lt, Rt, cache, kind))
                continue
            lb = bytes(L0)
            costs = [_pile_cost(lb, pile, cache, kind) for pile in R0]
            score = home * sum(L0) - sum(costs)
            seen = []
            for j in range(4):
                pile = R0[j]
                if pile in seen:
                    continue
                seen.append(pile)
                R = list(R0)
                R[j] = new = pile + cb
                key = lb + b"\xff".join(sorted(R))
                if key not in nxt:
                    nxt[key] = (L0, tuple(R), entry, (("d", -1, j),),
                                score + costs[j] - _pile_cost(lb, new, cache, kind))
        states += len(nxt)
        if len(nxt) > width:
            cut = True
            level = sorted(nxt.values(), key=_SCORE, reverse=True)[:width]
        else:
            level = list(nxt.values())
    return BeamResult(None, cut, states)


_SCORE = operator.itemgetter(4)


def search(game: Any, piles: dict[str, Any], deadline: float, max_states: int,
           max_work: int | None = None) -> SearchOutcome:
    """Search ``game`` (a Calculation position): WIN with kernel moves that win, UNWINNABLE
    when no line wins (the search was exhausted: a proof), UNKNOWN when the budget ran out;
    with the positions stored, on every path.

    ``max_work`` (a hint's bound, see :func:`solitaire.core.solver.native.solve`) bounds each
    of the two searches by the positions it reaches, a count: the beam widens no more once
    its rounds together have reached that many, and the exact search stops there with its
    relaxation checks (None: no such bound, the states and the deadline alone).

    ``piles`` maps "stock", "waste", "found" (four indices) and "reserves" (four indices).
    """
    p = game.piles
    stock, waste = piles["stock"], piles["waste"]
    found, reserves = piles["found"], piles["reserves"]
    lengths = [len(p[f]) for f in found]
    for f in found:  # the search assumes each foundation holds its own sequence
        if [c % RANKS for c in p[f]] != [SEQ[found.index(f)][j] for j in range(len(p[f]))]:
            return SearchOutcome(UNKNOWN)
    pending = list(p[waste])
    cards = [c % RANKS for c in pending + p[stock][::-1]]
    s = Search(lengths, [[c % RANKS for c in p[r]] for r in reserves], cards, deadline, max_states)
    for j in range(4):  # a position built by hand, or played badly, may already hold a stuck card
        pile = s.R[j]
        for h in range(2, len(pile) + 1):
            t = Search(lengths, [pile[:h], [], [], []], [], deadline, max_states)
            t.remaining = s.remaining
            if t.stuck(0):
                return SearchOutcome(UNWINNABLE)
    # a beam search for wins, ever wider, each width with every estimate (they win different
    # deals), over 90% of the time (or up to max_states wide when there is no time limit, so
    # a states budget gives the same answer anywhere); the exact search has the rest
    path = None
    states = 0
    share = time.perf_counter() + (deadline - time.perf_counter()) * 0.9
    width, cut = 25, True
    while path is None and cut and time.perf_counter() < share and width <= max_states:
        cut = False
        for kind in (1, 2, 0):
            if max_work is not None and states >= max_work:
                break
            found_beam = run_beam(lengths, s.R, cards, width, share, kind)
            path = found_beam.path
            states += found_beam.states
            cut = cut or found_beam.cut
            if path is not None or not found_beam.cut or time.perf_counter() >= share:
                break
        width *= 3
    if path is not None:
        return SearchOutcome(WIN, tuple(_moves(path, piles, len(pending))), states)
    result, line, stored = exact(lengths, s.R, cards, deadline, max_states, max_work=max_work)
    return SearchOutcome(result, tuple(_moves(line, piles, len(pending))) if result == WIN else (), states + stored)


def run_beam(lengths: list[int], reserves: list[list[int]], cards: list[int], width: int, deadline: float,
             kind: int = 0, native: bool | None = None) -> BeamResult:
    """:func:`beam`, compiled when it is installed (``native`` as for :func:`exact`): the
    same line, cut and positions stored either way."""
    if native is None:
        native = native_search()
    if not native:
        return beam(lengths, reserves, cards, width, deadline, kind)
    if _beam is None:
        raise RuntimeError("the compiled search (solitaire.variants.calculation._search) is not installed")
    seconds = None if deadline == float("inf") else max(0.0, deadline - time.perf_counter())
    path, cut, states = _beam(lengths, reserves, cards, width, seconds, kind)
    return BeamResult(None if path is None else [tuple(step) for step in path], bool(cut), int(states))


def exact(lengths: list[int], reserves: list[list[int]], cards: list[int], deadline: float,
          max_states: int, native: bool | None = None, relax_budget: int = RELAX_BUDGET,
          max_work: int | None = None) -> tuple[str, list[tuple[Any, ...]], int]:
    """The exhaustive search (:meth:`Search.dfs`) from a position on ranks: (WIN, its path),
    (UNWINNABLE, []) (a proof) or (UNKNOWN, []) once more than ``max_states`` positions are
    stored or past ``deadline`` (``time.perf_counter()``), with the positions stored. The
    compiled search when it is installed (``native`` None: :func:`native_search`; True:
    required), else this module's :class:`Search`; the two store the same positions.
    ``relax_budget``: the positions each check of the relaxation may search; ``max_work``:
    the positions the search and its relaxation checks may reach together (a count, the same
    in both engines; None: no such bound), past which it stops with UNKNOWN."""
    if native is None:
        native = native_search()
    if native:
        if _exact is None:
            raise RuntimeError("the compiled search (solitaire.variants.calculation._search) is not installed")
        seconds = None if deadline == float("inf") else max(0.0, deadline - time.perf_counter())
        result, steps, stored = _exact(lengths, reserves, cards, max_states, seconds, relax_budget, max_work)
        return str(result), [tuple(step) for step in steps], int(stored)
    s = Search(lengths, reserves, cards, deadline, max_states, relax_budget, max_work)
    try:
        ok = s.dfs(0)
    except _Out:
        return UNKNOWN, [], len(s.seen)
    return (WIN, s.path, len(s.seen)) if ok else (UNWINNABLE, [], len(s.seen))


def _moves(path: list[tuple[Any, ...]], piles: dict[str, Any], pending: int) -> list[tuple[int, int, int]]:
    stock, waste = piles["stock"], piles["waste"]
    found, reserves = piles["found"], piles["reserves"]
    out = []
    draw = (stock, waste, 0)
    drawn = pending  # cards already on the waste need no draw
    for m in path:
        if m[0] == "h":
            out.append((reserves[m[1]], found[m[2]], 1))
        else:
            if drawn:
                drawn -= 1
            else:
                out.append(draw)
            if m[1] >= 0:
                out.append((waste, found[m[1]], 1))
            else:
                out.append((waste, reserves[m[2]], 1))
    return out
