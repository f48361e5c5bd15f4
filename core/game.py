"""The game state: piles of int cards, legal moves, apply, undo, redo, positions.

A move is a tuple ``(src, dst, n)`` of pile indices and a card count; ``n == 0`` is the
stock's action (draw, or recycle the waste when the stock is empty); ``n == PAIR`` (-1) is a
pair: the top cards of piles ``src`` and ``dst`` (``src < dst``) go to the pairs pile together.
Two layers:

* the hot path for solvers: :meth:`Game.legal_moves`, :meth:`Game.push` (no checks),
  :meth:`Game.pop` (exact inverse, re-hides a turned card);
* the player's layer: :meth:`Game.play` (checked, with a precise reason on refusal, returns a
  :class:`MoveRecord`), :meth:`Game.undo` (never re-hides a card), :meth:`Game.redo`,
  :meth:`Game.finish`, and :meth:`Game.parse_move` for the notation (a hint:
  :func:`solitaire.core.hints.simple_hint`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import attrs

from .cards import DECK_SIZE, FACE, HIDDEN, RANK, card_name, rank_name
from .errors import AmbiguousMoveError, IllegalMoveError, NotationError
from .i18n import _, ngettext
from .limits import MAX_ECHO_CHARS
from .rules import GIVES_ANY, GIVES_NONE, GIVES_PILE, GIVES_RUN, GIVES_TOP, PAIR, Rules, shown_down
from .shuffle import MAX_SEED, numbered_deck, shuffled_deck

Move = tuple[int, int, int]

# a move's history code: bit 0 a card turned up at its source, bits 1-9 the pile that filled the
# emptied source (see Game._fill), bits 10 on the piles it uncovered (one bit per pile it covers,
# MAX_PILES at most), and from CHAIN on the further links of a chain of fills, LINK bits each
UNCOVERS = (1 << 70) - 1
CHAIN = 80
LINK = 8
LINK_MASK = (1 << LINK) - 1


def _quoted(text: str) -> str:
    """Typed text quoted in a refusal: its repr, cut to a bounded prefix."""
    return repr(text) if len(text) <= MAX_ECHO_CHARS else repr(text[:MAX_ECHO_CHARS]) + "..."


class Snapshot(NamedTuple):
    """A position as :meth:`Game.snapshot` takes it, for :meth:`Game.restore` (no history)."""

    piles: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    recycles: int
    score: int
    moves: int


@attrs.frozen
class MoveRecord:
    """What one accepted move did: for display, animation, scoring and the network."""

    move: str  # in notation, e.g. "t4 t6 3"
    kind: str  # "move", "pair" (src and dst: the two piles), "draw" or "recycle"
    src: str
    dst: str
    cards: tuple[str, ...]  # the cards that moved, bottom to top
    turned: str | None  # a card turned face up by the move
    score: int  # score change
    filled: str | None = None  # the pile emptied by the move was filled at once: "PILE CARD", from where


class Game:
    """One game in progress. Create with :meth:`new` or :meth:`from_position`."""

    __slots__ = ("down", "future", "history", "moves", "numbering", "piles", "recycles", "rules", "score", "seed")

    def __init__(self, rules: Rules, seed: int | None = None, numbering: str | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.numbering = numbering  # the seed is deal number ``seed`` of this public numbering
        self.piles: list[list[int]] = [[] for _ in range(rules.count)]
        self.down: list[int] = [0] * rules.count  # face-down cards at the bottom of each pile
        self.score = 0
        self.moves = 0
        self.recycles = 0
        self.history: list[tuple[int, int, int, int, int]] = []
        self.future: list[Move] = []  # undone moves, for redo

    # ------------------------------------------------------------------ dealing

    @classmethod
    def new(cls, rules: Rules, seed: int, numbering: str | None = None) -> Game:
        """Deal ``seed`` under these rules (see :mod:`solitaire.core.shuffle`); with
        ``numbering`` (one the variant declares), deal number ``seed`` of that numbering."""
        cards = rules.deck
        if numbering is not None:
            if numbering != rules.variant.numbering:
                raise ValueError(f"{rules.name} has no {numbering} deal numbers")
            order = numbered_deck(numbering, seed)  # raises ValueError out of its range
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, got {seed!r}")
        else:
            order = [cards[i] for i in shuffled_deck(seed, len(cards))]  # one deck: the seed's order itself
        game = cls(rules, seed, numbering)
        named = [step.cards for step in rules.spec.deal if step.cards]
        placed: dict[int, list[int]] = {}  # face -> the copies the deal places by name, lowest first
        if named:
            wanted = [face for faces in named for face in faces]
            for card in cards:  # the deck lists copy 0 of every face first, then copy 1 ...
                face = FACE[card]
                if len(placed.setdefault(face, [])) < wanted.count(face):
                    placed[face].append(card)
        fixed = {c for copies in placed.values() for c in copies}
        rest = [c for c in order if c not in fixed]
        pos = 0
        piles, down = game.piles, game.down
        base: int | None = None
        for step in rules.spec.deal:
            targets = rules.group_piles[step.to]
            if step.base:
                base = RANK[placed[step.cards[0]][0]] if step.cards else RANK[rest[pos]]
            if step.pick == "base":  # the cards of the base rank, out of what is left, in deck order
                picked = [c for c in rest[pos:] if RANK[c] == base][:sum(step.counts)]
                taken = set(picked)
                rest = rest[:pos] + picked + [c for c in rest[pos:] if c not in taken]
            if step.cards:
                for i, face in zip(targets, step.cards, strict=False):
                    piles[i].append(placed[face].pop(0))
            elif step.rest:
                piles[targets[0]].extend(rest[pos:])
                pos = len(rest)
            elif step.order == "rows":
                for row in range(max(step.counts, default=0)):
                    for j, i in enumerate(targets):
                        if row < step.counts[j]:
                            piles[i].append(rest[pos])
                            pos += 1
            else:
                for j, i in enumerate(targets):
                    piles[i].extend(rest[pos:pos + step.counts[j]])
                    pos += step.counts[j]
            if step.to_bottom:  # these ranks go under the other cards of their pile, in their order
                for i in targets:
                    pile = piles[i]
                    pile[:] = [c for c in pile if RANK[c] in step.to_bottom] + [
                        c for c in pile if RANK[c] not in step.to_bottom]
            for j, i in enumerate(targets):
                up = step.face_up[j] if step.face_up else None
                if up is not None:
                    down[i] = max(0, len(piles[i]) - up)
        if rules.stock is not None and not rules.stock_open:
            down[rules.stock] = len(piles[rules.stock])
        if base is not None:
            game.rules = rules.with_base(base)
        return game

    def copy(self) -> Game:
        """An independent copy of the position (history included)."""
        other = Game(self.rules, self.seed, self.numbering)
        other.piles = [list(p) for p in self.piles]
        other.down = list(self.down)
        other.score, other.moves, other.recycles = self.score, self.moves, self.recycles
        other.history = list(self.history)
        other.future = list(self.future)
        return other

    # ------------------------------------------------------------------ for a search

    def snapshot(self) -> Snapshot:
        """The position (piles, face-down counts, redeals used, score, move count), to put
        back with :meth:`restore`; the history and redo list are not part of it."""
        return Snapshot(tuple(map(tuple, self.piles)), tuple(self.down), self.recycles, self.score, self.moves)

    def restore(self, snapshot: Snapshot) -> None:
        """Put back a position taken by :meth:`snapshot`. The history and redo list are left
        as they are: restore a snapshot taken at this same point of the history (a search
        taking back what it did since), or start from a :meth:`copy` without history."""
        self.piles = [list(p) for p in snapshot.piles]
        self.down = list(snapshot.down)
        self.recycles, self.score, self.moves = snapshot.recycles, snapshot.score, snapshot.moves

    def without_history(self, rules: Rules | None = None) -> Game:
        """An independent copy of the position with no history and nothing to redo; under
        ``rules`` when given (rules with the same piles, e.g. from :meth:`Rules.derive`)."""
        if rules is not None and rules.count != self.rules.count:
            raise ValueError(f"{rules!r} has {rules.count} piles, this game {self.rules.count}")
        other = Game(self.rules if rules is None else rules, self.seed, self.numbering)
        other.piles = [list(p) for p in self.piles]
        other.down = list(self.down)
        other.score, other.moves, other.recycles = self.score, self.moves, self.recycles
        return other

    def turn_stock(self, times: int) -> None:
        """The stock's action ``times`` times at once (draws, and recycles when the stock is
        empty), kept out of the history: a search takes it back with :meth:`restore` of a
        :meth:`snapshot` taken before. Only for a stock that deals onto one pile; the score
        counts each recycle and the move count each action, as :meth:`push` would."""
        rules = self.rules
        st = rules.stock
        waste_i = rules.draw_targets[0]
        piles = self.piles
        stock, waste = piles[st], piles[waste_i]  # type: ignore[index]
        seq = waste + stock[::-1]
        total = len(seq)
        k = rules.draw_count
        length, recycled = len(waste), 0
        for _step in range(times):
            if length == total:
                length = 0
                recycled += 1
            else:
                length = min(total, length + k)
        rest = seq[length:]
        rest.reverse()
        piles[waste_i] = seq[:length]
        piles[st] = rest  # type: ignore[index]
        if not rules.stock_open:
            self.down[st] = len(rest)  # type: ignore[index]
        self.recycles += recycled
        self.moves += times
        if recycled and rules.recycle_points:
            score = self.score
            floor = rules.floor
            for _ in range(recycled):
                score += rules.recycle_points
                if floor is not None and score < floor:
                    score = floor
            self.score = score

    # ------------------------------------------------------------------ hot path

    def legal_moves(self) -> list[Move]:
        """Every legal move here, the stock's action last.

        The movable cards are gathered first (card -> (pile, count)); then each destination
        looks up only the cards that fit on its top (``rules.fits``), or, when more cards fit
        than are movable, checks each movable card against its ``accept`` row.
        """
        rules = self.rules
        piles, down = self.piles, self.down
        seq, gives_of = rules.seq, rules.gives
        width = rules.width
        movable: dict[int, tuple[int, int]] = {}
        covering = rules.covered if rules.covering else None
        for s in rules.sources:
            pile = piles[s]
            size = len(pile)
            up = size - down[s]
            if up <= 0:
                continue
            if covering is not None and self._covered(s):
                continue
            gives = gives_of[s]
            if gives == GIVES_TOP:
                movable[pile[-1]] = (s, 1)
                continue
            if gives == GIVES_RUN:
                table = seq[s]
                movable[pile[-1]] = (s, 1)
                n = 1
                i = size - 1
                while n < up and table[pile[i - 1] * width + pile[i]]:
                    n += 1
                    i -= 1
                    movable[pile[i]] = (s, n)
            elif gives == GIVES_PILE:
                movable[pile[-1]] = (s, 1)
                movable[pile[size - up]] = (s, up)
            else:
                for n in range(1, up + 1):
                    movable[pile[size - n]] = (s, n)
        out: list[Move] = []
        if movable:
            cap, maxacc, allowed, fits, accept = (rules.capacity, rules.max_accept, rules.allowed,
                                                  rules.fits, rules.accept)
            count = len(movable)
            runs = self._run_limits() if rules.has_supermove else None
            min_accept = rules.min_accept if rules.whole_runs else None
            for d in rules.receivers:
                dest = piles[d]
                dsize = len(dest)
                if dsize:
                    if down[d] == dsize:
                        continue
                    top = dest[-1]
                else:
                    top = width
                limit = cap[d] - dsize
                if maxacc[d] < limit:
                    limit = maxacc[d]
                if limit <= 0:
                    continue
                from_ok = allowed[d]
                if min_accept is not None and min_accept[d] > 1:  # whole runs only, each card
                    least = min_accept[d]  # fitting the one below by this pile's rule
                    for card, (s, n) in movable.items():
                        if from_ok[s] and least <= n <= limit and s != d and accept[d][top * width + card] \
                                and self._builds_on(d, s, n) and (runs is None or n <= runs[s].get(d, runs[s][-1])):
                            out.append((s, d, n))
                    continue
                candidates = fits[d][top]
                if len(candidates) <= count:  # (n is at least 1: least <= n holds from here on)
                    for card in candidates:
                        hit = movable.get(card)
                        if hit is not None:
                            s, n = hit
                            if from_ok[s] and n <= limit and s != d and (
                                    runs is None or n <= runs[s].get(d, runs[s][-1])):
                                out.append((s, d, n))
                else:
                    table = accept[d]
                    row = top * width
                    for card, (s, n) in movable.items():
                        if from_ok[s] and n <= limit and s != d and table[row + card] and (
                                runs is None or n <= runs[s].get(d, runs[s][-1])):
                            out.append((s, d, n))
            if rules.beaten:  # discards that another pile's top card must beat
                beaten_by = rules.beaten_by
                out = [m for m in out if not beaten_by[m[1]] or self._beaten(m[0], m[1], piles[m[0]][-m[2]])]
        if rules.pair_home is not None:
            self._pair_moves(out)
        if rules.stock is not None and self._can_draw():
            out.append(rules.draw_move)  # type: ignore[arg-type]
        return out

    def _pair_moves(self, out: list[Move]) -> None:
        """Add the pairs of available top cards (``(a, b, PAIR)``, ``a < b``) to ``out``."""
        rules = self.rules
        piles, down = self.piles, self.down
        covering = rules.covering
        avail = []
        for s in rules.pair_sources:
            pile = piles[s]
            if len(pile) > down[s] and not (covering and self._covered(s)):
                avail.append((s, pile[-1]))
        ok, width, mates = rules.pair_ok, rules.width, rules.pair_with
        for i, (a, card) in enumerate(avail):
            row = card * width
            near = mates[a]
            for b, other in avail[i + 1:]:
                if near[b] and ok[row + other]:
                    out.append((a, b, PAIR))

    def _beaten(self, src: int, dst: int, card: int) -> bool:
        """Does the top card of a pile other than ``src`` that ``dst`` looks at beat ``card``
        (same suit, higher)?"""
        rules = self.rules
        piles, down = self.piles, self.down
        beats, row = rules.beats, card * rules.width
        for q in rules.beaten_by[dst]:
            pile = piles[q]
            if q != src and len(pile) > down[q] and beats[row + pile[-1]]:
                return True
        return False

    def _builds_on(self, dst: int, src: int, n: int) -> bool:
        """The top ``n`` cards of ``src`` follow ``dst``'s build rule card by card (what a pile
        taking several cards at once, a whole suit, asks of them)."""
        table = self.rules.accept[dst]
        width = self.rules.width
        pile = self.piles[src]
        return all(table[pile[i] * width + pile[i + 1]] for i in range(len(pile) - n, len(pile) - 1))

    def _run_limits(self) -> list[dict[int, int]]:
        """Per source pile with a supermove: the longest run it may move now, ``[-1]`` for any
        destination, and the smaller limit for each empty pile that counts (the run cannot use
        the pile it is moving to). Others: no limit."""
        rules = self.rules
        piles = self.piles
        out: list[dict[int, int]] = []
        for s, move in enumerate(rules.supermove):
            if move is None:
                out.append({-1: 1 << 30})
                continue
            cells, columns = move
            free = 1 + sum(1 for c in cells if not piles[c])
            empty = [c for c in columns if not piles[c] and c != s]
            limits = {-1: free << len(empty)}
            for c in empty:
                limits[c] = free << (len(empty) - 1)
            out.append(limits)
        return out

    def _can_draw(self) -> bool:
        """The stock's action is legal (the fast twin of :meth:`_draw_refusal`)."""
        rules = self.rules
        piles = self.piles
        stock = piles[rules.stock]  # type: ignore[index]
        targets = rules.draw_targets
        cap = rules.capacity
        if rules.consolidate:  # a gap before a card, or an empty pile and cards in the stock
            gap = False
            for t in targets:
                if not piles[t]:
                    gap = True
                elif gap:
                    return True
            return gap and bool(stock)
        if stock:
            if len(targets) == 1:
                t = targets[0]
                k = rules.draw_count if rules.draw_count < len(stock) else len(stock)
                return len(piles[t]) + k <= cap[t]
            for t in targets:
                if len(piles[t]) >= cap[t]:
                    return False
            if rules.draw_not_onto_empty:
                return all(piles[t] for t in targets)
            return True
        if len(targets) != 1 or not piles[targets[0]]:
            return False
        return rules.redeals is None or self.recycles < rules.redeals

    def push(self, move: Move) -> None:
        """Apply a legal move without checking it (the solver's path). Undo with :meth:`pop`."""
        src, dst, n = move
        rules = self.rules
        piles = self.piles
        if n <= 0:
            if n == 0:
                self._draw()
            else:
                self._push_pair(src, dst)
            return
        s = piles[src]
        if n == 1:
            piles[dst].append(s.pop())
        else:
            piles[dst].extend(s[-n:])
            del s[-n:]
        prev = self.score
        delta = rules.score_move[src][dst] * n
        flipped = 0
        d = self.down[src]
        if d and d == len(s) and rules.flip[src]:
            self.down[src] = d - 1
            flipped = 1
            delta += rules.turn_up
        if not s:
            if rules.fills:
                flipped |= self._fill(src)
                if flipped & 2:
                    delta += rules.turn_up
            if rules.covering:
                flipped |= self._uncover(src)
        if delta:
            score = prev + delta
            floor = rules.floor
            self.score = floor if floor is not None and score < floor else score
        self.moves += 1
        self.history.append((src, dst, n, flipped, prev))

    def _push_pair(self, a: int, b: int) -> None:
        """Both top cards to the pairs pile, as the two moves of one card each would, in one
        history entry: ``(a, b, PAIR, first's code | second's code << (12 + piles), score before)``."""
        home = self.rules.pair_home
        prev = self.score
        self.push((a, home, 1))  # type: ignore[arg-type]
        self.push((b, home, 1))  # type: ignore[arg-type]
        second = self.history.pop()[3]
        first = self.history.pop()[3]
        self.moves -= 1
        self.history.append((a, b, PAIR, first | second << (12 + self.rules.count), prev))

    def _covered(self, pile: int) -> bool:
        """Some pile covering ``pile`` still holds a card."""
        piles = self.piles
        return any(piles[c] for c in self.rules.covered[pile])

    def _uncover(self, pile: int) -> int:
        """``pile`` has just emptied: turn up the card of each pile it covered that is now
        uncovered, when that pile flips. The history's code: bit ``10 + k`` for the k-th pile
        of ``rules.uncovers[pile]`` turned up."""
        rules = self.rules
        code = 0
        for k, p in enumerate(rules.uncovers[pile]):
            d = self.down[p]
            if d and d == len(self.piles[p]) and rules.flip[p] and not self._covered(p):
                self.down[p] = d - 1
                code |= 1 << (10 + k)
        return code

    def _fill(self, pile: int, level: int = 0) -> int:
        """Fill the empty ``pile`` from the top of the first non-empty pile its rules fill it
        from (turning up the card beneath when that pile flips; a card from the stock comes face
        up); when that empties the filler, which its own rules fill, it is filled in turn (a
        chain: a waste refilled from the stock, say). The history's code for it:
        ``(filler + 1) << 2``, plus 2 if a card turned up; each further link of the chain in a
        field of its own from bit :data:`CHAIN` on (see :meth:`_fillers`). 0 when nothing fills it."""
        rules = self.rules
        for f in rules.fill[pile]:
            source = self.piles[f]
            if source and (self.down[f] < len(source) or f == rules.stock):
                self.piles[pile].append(source.pop())
                flip = 0
                d = self.down[f]
                if f == rules.stock:
                    self.down[f] = min(d, len(source))
                elif d and d == len(source) and rules.flip[f]:
                    self.down[f] = d - 1
                    flip = 1
                code = ((f + 1) << 1 | flip) << (1 if level == 0 else CHAIN + LINK * (level - 1))
                if not source and rules.fill[f]:
                    code |= self._fill(f, level + 1)
                return code
        return 0

    def _fillers(self, extra: int) -> list[tuple[int, bool]]:
        """The piles a move's fills took cards from, in order, each with whether a card turned
        up there: from its history code (see :meth:`_fill`)."""
        out = [(((extra & 1023) >> 2) - 1, bool(extra & 2))]
        field = extra >> CHAIN
        while field:
            out.append((((field & LINK_MASK) >> 1) - 1, bool(field & 1)))
            field >>= LINK
        return out

    def _draw(self) -> None:
        rules = self.rules
        stock_i = rules.stock
        stock = self.piles[stock_i]  # type: ignore[index]
        targets = rules.draw_targets
        prev = self.score
        if rules.consolidate:
            k = self._consolidate()
        elif stock:
            if len(targets) == 1:
                waste = self.piles[targets[0]]
                k = min(rules.draw_count, len(stock))
                for _ in range(k):
                    waste.append(stock.pop())
            else:
                k = 0
                for t in targets:
                    if not stock:
                        break
                    self.piles[t].append(stock.pop())
                    k += 1  # noqa: SIM113 - k outlives the loop (the cards drawn); push's hot path
        else:  # recycle the waste, so the cards come again in the same order
            waste = self.piles[targets[0]]
            k = -len(waste)
            waste.reverse()
            stock.extend(waste)
            waste.clear()
            self.recycles += 1
            if rules.recycle_points:
                score = prev + rules.recycle_points
                floor = rules.floor
                self.score = floor if floor is not None and score < floor else score
        if not rules.stock_open:
            self.down[stock_i] = len(stock)  # type: ignore[index]
        self.moves += 1
        self.history.append((stock_i, targets[0], 0, k, prev))  # type: ignore[arg-type]

    def _consolidate(self) -> int:
        """Close the gaps of the piles the stock deals to (their cards slide toward the first,
        in order), then deal a card into each empty one at the end while the stock lasts. The
        history's code: the piles that held cards as a bit mask, shifted 8, plus the cards dealt."""
        rules = self.rules
        piles, down = self.piles, self.down
        stock = piles[rules.stock]  # type: ignore[index]
        targets = rules.draw_targets
        mask = 0
        held = []
        for j, t in enumerate(targets):
            if piles[t]:
                mask |= 1 << j
                held.append((piles[t], down[t]))
        dealt = 0
        for j, t in enumerate(targets):
            if j < len(held):
                piles[t], down[t] = held[j]
            else:
                piles[t], down[t] = [], 0
                if stock:
                    piles[t].append(stock.pop())
                    dealt += 1
        return mask << 8 | dealt

    def _unconsolidate(self, code: int) -> None:
        """Take back :meth:`_consolidate` from its history code."""
        rules = self.rules
        piles, down = self.piles, self.down
        stock = piles[rules.stock]  # type: ignore[index]
        targets = rules.draw_targets
        mask, dealt = code >> 8, code & 255
        kept = bin(mask).count("1")
        for t in reversed(targets[kept:kept + dealt]):
            stock.append(piles[t].pop())
        held = [(piles[t], down[t]) for t in targets[:kept]]
        for t in targets:
            piles[t], down[t] = [], 0
        places = [t for j, t in enumerate(targets) if mask >> j & 1]
        for t, (pile, d) in zip(places, held, strict=True):
            piles[t], down[t] = pile, d

    def pop(self) -> Move:
        """Take back the last move exactly, re-hiding a card it turned up (the solver's undo)."""
        return self._unapply(rehide=True)

    def _unapply(self, rehide: bool) -> Move:
        src, dst, n, extra, prev = self.history.pop()
        piles = self.piles
        if n == PAIR:  # the pair's two moves of one card, taken back last first
            home = self.rules.pair_home
            shift = 12 + self.rules.count
            self.history.append((src, home, 1, extra & ((1 << shift) - 1), prev))  # type: ignore[arg-type]
            self.history.append((dst, home, 1, extra >> shift, prev))  # type: ignore[arg-type]
            self._unapply(rehide)
            self._unapply(rehide)
            self.moves += 1
            return (src, dst, PAIR)
        if n == 0:
            stock = piles[src]
            targets = self.rules.draw_targets
            if self.rules.consolidate:
                self._unconsolidate(extra)
            elif extra > 0:
                if len(targets) == 1:
                    waste = piles[targets[0]]
                    for _ in range(extra):
                        stock.append(waste.pop())
                else:
                    for t in reversed(targets[:extra]):
                        stock.append(piles[t].pop())
            else:
                waste = piles[targets[0]]
                waste.extend(reversed(stock))
                stock.clear()
                self.recycles -= 1
            if not self.rules.stock_open:
                self.down[src] = len(stock)
        else:
            if extra > 1:  # a fill or an uncovering (a plain move keeps only bit 0: its turn-up)
                if extra >> 10 & UNCOVERS and rehide:  # piles this one covered turned up: face down again
                    for k, p in enumerate(self.rules.uncovers[src]):
                        if extra >> (10 + k) & 1:
                            self.down[p] += 1
                if extra & 1023 > 1:  # an empty pile was filled from another pile: put the cards back first
                    chain = self._fillers(extra) if extra >> CHAIN else [(((extra & 1023) >> 2) - 1, bool(extra & 2))]
                    stock_i = self.rules.stock
                    for i in range(len(chain) - 1, -1, -1):  # the last link first
                        filler, turned = chain[i]
                        piles[filler].append(piles[chain[i - 1][0] if i else src].pop())
                        if filler == stock_i and not self.rules.stock_open:
                            self.down[filler] = len(piles[filler])  # back in the stock, face down
                        elif turned and rehide:
                            self.down[filler] += 1
            if extra & 1 and rehide:
                self.down[src] += 1
            d = piles[dst]
            if n == 1:
                piles[src].append(d.pop())
            else:
                piles[src].extend(d[-n:])
                del d[-n:]
        self.score = prev
        self.moves -= 1
        return (src, dst, n)

    # ------------------------------------------------------------------ state queries

    @property
    def won(self) -> bool:
        """All the cards are on the foundations, or what the variant's ``win`` says: so many
        cards home, these groups cleared."""
        rules = self.rules
        piles = self.piles
        return sum(len(piles[f]) for f in rules.foundations) >= rules.win_home and not any(
            piles[p] for p in rules.win_cleared) and all(len(piles[p]) == 1 for p in rules.win_one_card)

    @property
    def over(self) -> bool:
        """No legal move is left (won or lost)."""
        return not self.legal_moves()

    def face_up_count(self, index: int) -> int:
        return len(self.piles[index]) - self.down[index]

    def key(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]:
        """A hashable picture of the position (piles, face-down counts, redeals used)."""
        return (tuple(map(tuple, self.piles)), tuple(self.down), self.recycles)

    # ------------------------------------------------------------------ refusals

    def refusal(self, move: Move) -> str | None:
        """Why ``move`` is illegal here, in one line; ``None`` when it is legal."""
        reason = self._refusal(move)
        return reason[1] if reason else None

    def pick_refusal(self, pile: int, n: int) -> str | None:
        """Why the top ``n`` cards of ``pile`` cannot leave it together, wherever they would go
        (the part of :meth:`refusal` about the source), in one line; ``None`` when they can."""
        if n < 1:
            return _("the number of cards must be at least 1, got {n}").format(n=n)
        return self._source_refusal(pile, n)

    def _source_refusal(self, src: int, n: int) -> str | None:
        """Why the top ``n`` (at least 1) cards of ``src`` cannot leave it together, wherever
        they would go; ``None`` when they can."""
        rules = self.rules
        name = rules.names
        pile = self.piles[src]
        gives = rules.gives[src]
        if gives == GIVES_NONE:
            if rules.role[src] == "stock":
                return _("cards leave the {pile} only by 'draw'").format(pile=name[src])
            return _("cards cannot be taken from {pile}").format(pile=name[src])
        if not pile:
            return _("{pile} is empty").format(pile=name[src])
        up = len(pile) - self.down[src]
        if n > up:
            if up == 0:
                return _("{pile} has no face-up card").format(pile=name[src])
            return ngettext("{pile} has only {n} face-up card", "{pile} has only {n} face-up cards", up).format(
                pile=name[src], n=up)
        if rules.covering and self._covered(src):
            return _("{pile} is covered: {piles} must go first").format(
                pile=name[src], piles=", ".join(name[c] for c in rules.covered[src] if self.piles[c]))
        if gives == GIVES_TOP and n > 1:
            return _("only the top card of {pile} moves").format(pile=name[src])
        if gives == GIVES_PILE and 1 < n < up:
            return ngettext("only the top card of {pile} moves, or all its {n} face-up card together",
                            "only the top card of {pile} moves, or all its {n} face-up cards together", up).format(
                pile=name[src], n=up)
        if gives == GIVES_RUN and n > 1:
            table = rules.seq[src]
            for i in range(len(pile) - n, len(pile) - 1):
                if not table[pile[i] * rules.width + pile[i + 1]]:
                    spec = rules.piles[src]
                    return ngettext("the top {n} card of {pile} is not a run: {card} on {under} is out of order "
                                    "({label} runs {rule})",
                                    "the top {n} cards of {pile} are not a run: {card} on {under} is out of order "
                                    "({label} runs {rule})", n).format(
                        n=n, pile=name[src], card=card_name(pile[i + 1]), under=card_name(pile[i]),
                        label=spec.label.lower(), rule=spec.run.how())
        return None

    def _refusal(self, move: Move) -> tuple[str, str] | None:
        """(kind, message): kind is "source", "dest" or "fit" (the card does not fit)."""
        src, dst, n = move
        rules = self.rules
        if n == 0:
            if move != rules.draw_move:
                if rules.draw_move is None:
                    return ("source", _("this game has no stock to draw from"))
                return ("source", _("a count of 0 means the stock's action: ({src}, {dst}, 0), 'draw' in notation")
                        .format(src=rules.draw_move[0], dst=rules.draw_move[1]))
            reason = self._draw_refusal()
            return ("source", reason) if reason else None
        if n == PAIR:
            return self._pair_refusal(src, dst)
        if n < 0:
            return ("source", _("the number of cards must be at least 1, got {n}").format(n=n))
        if src == dst:
            return ("source", _("{pile} cannot move onto itself").format(pile=rules.names[src]))
        reason = self._source_refusal(src, n)
        if reason is not None:
            return ("source", reason)
        name = rules.names
        dspec = rules.piles[dst]
        if dst not in rules.targets[src]:
            if not dspec.accepts_from:
                return ("dest", _("{pile} takes no cards").format(pile=name[dst]))
            froms = _(" or ").join(rules.groups[g].label.lower() for g in dspec.accepts_from)
            return ("dest", _("{pile} takes cards only from the {piles}").format(pile=name[dst], piles=froms))
        dest = self.piles[dst]
        if n > rules.max_accept[dst]:
            limit = rules.max_accept[dst]
            return ("dest", ngettext("{pile} takes {n} card at a time", "{pile} takes {n} cards at a time", limit)
                    .format(pile=name[dst], n=limit))
        if n < rules.min_accept[dst]:
            least = rules.min_accept[dst]
            return ("dest", ngettext("{pile} takes {n} card at once", "{pile} takes {n} cards at once", least)
                    .format(pile=name[dst], n=least))
        if rules.min_accept[dst] > 1 and not self._builds_on(dst, src, n):
            return ("fit", ngettext("the {n} card does not build on each other as {pile} {rule}",
                                     "the {n} cards do not build on each other as {pile} {rule}", n).format(
                n=n, pile=name[dst], rule=rules.piles[dst].build.how()))
        if rules.supermove[src] is not None and n > 1:
            limits = self._run_limits()[src]
            most = limits.get(dst, limits[-1])
            if n > most:
                return ("source", ngettext("{n} card cannot move together: with the free cells and empty piles "
                                           "there are now, {most} can ({src} to {dst})",
                                           "{n} cards cannot move together: with the free cells and empty piles "
                                           "there are now, {most} can ({src} to {dst})", n).format(
                            n=n, most=most, src=name[src], dst=name[dst]))
        if len(dest) + n > rules.capacity[dst]:
            full = rules.capacity[dst]
            if len(dest) >= full:
                return ("dest", ngettext("{pile} is full ({n} card)", "{pile} is full ({n} cards)", full)
                        .format(pile=name[dst], n=full))
            return ("dest", ngettext("{pile} holds at most {n} card", "{pile} holds at most {n} cards", full)
                    .format(pile=name[dst], n=full))
        if dest and self.down[dst] == len(dest):
            return ("dest", _("the top card of {pile} is face down").format(pile=name[dst]))
        card = self.piles[src][-n]
        width = rules.width
        row = dest[-1] * width if dest else width * width
        if not rules.accept[dst][row + card]:
            if dst == rules.pair_home:
                return ("fit", _("{card} does not go alone: {pile} takes {rule}").format(
                    card=card_name(card), pile=name[dst], rule=rules.pair_rule.describe()))  # type: ignore[union-attr]
            if not dest:
                takes = dspec.empty.describe()
                if dspec.empty.kind == "none":
                    return ("fit", _("an empty {pile} takes no card").format(pile=name[dst]))
                return ("fit", _("an empty {pile} takes only {rule}, not {card}").format(
                    pile=name[dst], rule=takes, card=card_name(card)))
            return ("fit", _("{card} does not go on {under}: {pile} {rule}").format(
                card=card_name(card), under=card_name(dest[-1]), pile=name[dst], rule=dspec.build.describe()))
        if rules.beaten_by[dst] and not self._beaten(src, dst, card):
            suit = (_("club"), _("diamond"), _("heart"), _("spade"))[card % DECK_SIZE // 13]
            beaten = rules.groups[dspec.beaten_by].label.lower()  # type: ignore[index]
            return ("fit", _("{card} cannot go to {pile}: no higher {suit} tops another {group} pile").format(
                card=card_name(card), pile=name[dst], suit=suit, group=beaten))
        return None

    def _pair_refusal(self, a: int, b: int) -> tuple[str, str] | None:
        """Why the top cards of piles ``a`` and ``b`` cannot go together to the pairs pile."""
        rules = self.rules
        name = rules.names
        home, rule = rules.pair_home, rules.pair_rule
        if home is None or rule is None:
            return ("source", _("this game discards no pairs"))
        if not (0 <= a < rules.count and 0 <= b < rules.count):
            return ("source", _("no such pile: piles are numbered 0 to {last}").format(last=rules.count - 1))
        if a == b:
            return ("source", _("{pile} cannot pair with itself: name two piles").format(pile=name[a]))
        if a > b:
            return ("source", _("a pair names its lower pile first: ({b}, {a}, {pair})").format(a=a, b=b, pair=PAIR))
        for p in (a, b):
            reason = self._source_refusal(p, 1)
            if reason is not None:
                return ("source", reason)
            if p not in rules.pair_sources:
                return ("source", _("cards of {pile} are not discarded in pairs").format(pile=name[p]))
        if not rules.pair_with[a][b]:
            return ("fit", _("{a} and {b} do not touch: only cards in cells that touch pair").format(
                a=name[a], b=name[b]))
        first, second = self.piles[a][-1], self.piles[b][-1]
        if not rules.pair_ok[first * rules.width + second]:
            return ("fit", _("{a} and {b} do not pair: {pile} takes {rule}").format(
                a=card_name(first), b=card_name(second), pile=name[home], rule=rule.describe()))
        return None

    def _draw_refusal(self) -> str | None:
        """Why the stock's action is refused; the rule itself is :meth:`_can_draw`."""
        rules = self.rules
        if rules.stock is None:
            return _("this game has no stock to draw from")
        if self._can_draw():
            return None
        stock_name = rules.names[rules.stock]
        targets = rules.draw_targets
        if rules.consolidate:
            if not self.piles[rules.stock]:
                return _("nothing to close up: no gap comes before a card, and the {stock} is empty").format(
                    stock=stock_name)
            return _("nothing to close up: no gap comes before a card, and no pile is empty")
        if self.piles[rules.stock]:
            if len(targets) > 1:
                empty = [rules.names[t] for t in targets if not self.piles[t]]
                if rules.draw_not_onto_empty and empty:
                    return _("the {stock} deals only when no pile it deals to is empty: fill {pile} first").format(
                        stock=stock_name, pile=empty[0])
                return _("a pile the stock deals to is full")
            t = targets[0]
            cap = rules.capacity[t]
            if cap == 1:
                return _("the {pile} holds one card: play it before drawing again").format(pile=rules.names[t])
            return ngettext("the {pile} holds at most {n} card: play from it before drawing",
                            "the {pile} holds at most {n} cards: play from it before drawing", cap).format(
                pile=rules.names[t], n=cap)
        if len(targets) != 1 or not self.piles[targets[0]]:
            return _("the {stock} is empty").format(stock=stock_name)
        if rules.redeals == 0:
            return _("the {stock} is empty and this game has no redeals").format(stock=stock_name)
        return _("the {stock} is empty and no redeals are left (used {used} of {redeals})").format(
            stock=stock_name, used=self.recycles, redeals=rules.redeals)

    # ------------------------------------------------------------------ what a front end asks

    def can_pick(self, pile: int, n: int) -> bool:
        """May the top ``n`` cards of ``pile`` be picked up together (judged from the face-up
        cards only)? The source half of :meth:`refusal`: :meth:`pick_refusal` says why not."""
        return n >= 1 and self._source_refusal(pile, n) is None

    def most_to_pick(self, pile: int) -> int:
        """The most cards that may be picked up together from the top of ``pile`` (0: none)."""
        up = len(self.piles[pile]) - self.down[pile]
        return next((n for n in range(up, 0, -1) if self._source_refusal(pile, n) is None), 0)

    def targets(self, pile: int, n: int) -> tuple[int, ...]:
        """The piles that take the top ``n`` cards of ``pile`` now (legal moves, in pile order)."""
        if not self.can_pick(pile, n):
            return ()
        return tuple(d for d in self.rules.targets[pile] if self._refusal((pile, d, n)) is None)

    def home_move(self, pile: int) -> Move | None:
        """The move that sends the top card of ``pile`` to a foundation, if one takes it."""
        found = self.rules.foundation_set
        if pile in found:
            return None
        return next(((pile, d, 1) for d in self.targets(pile, 1) if d in found), None)

    # ------------------------------------------------------------------ the player's layer

    def play(self, move: Move | str) -> MoveRecord:
        """Check and apply a move (a tuple or notation); raise IllegalMoveError with the reason."""
        if isinstance(move, str):
            move = self.parse_move(move)
        reason = self.refusal(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        record = self._record(move)
        self.future.clear()
        return record

    def _record(self, move: Move) -> MoveRecord:
        src, dst, n = move
        rules = self.rules
        before = self.score
        text = self.move_text(move)
        if n == PAIR:
            pair = (card_name(self.piles[src][-1]), card_name(self.piles[dst][-1]))
            self.push(move)
            shift = 12 + rules.count
            extra = self.history[-1][3]
            effects = [self._effects(p, code) for p, code in ((src, extra & ((1 << shift) - 1)), (dst, extra >> shift))]
            turned = ", ".join(t for t, _ in effects if t) or None
            filled = ", ".join(f for _, f in effects if f) or None
            return MoveRecord(text, "pair", rules.names[src], rules.names[dst], pair, turned, self.score - before,
                              filled)
        if n == 0:
            stock_empty = not self.piles[src]
            self.push(move)
            k = self.history[-1][3]
            if rules.consolidate:  # the cards dealt into the empty piles at the end
                kept = bin(k >> 8).count("1")
                dealt = [self.piles[t][-1] for t in rules.draw_targets[kept:kept + (k & 255)]]
                return MoveRecord(text, "draw", rules.names[src], rules.names[dst],
                                  tuple(card_name(c) for c in dealt), None, self.score - before)
            if stock_empty:  # a recycle: the whole waste went back, -k cards
                cards = tuple(card_name(c) for c in reversed(self.piles[src]))
                return MoveRecord(text, "recycle", rules.names[dst], rules.names[src], cards, None,
                                  self.score - before)
            moved = [self.piles[t][-1] for t in rules.draw_targets[:k]] if len(rules.draw_targets) > 1 \
                else self.piles[dst][-k:]
            return MoveRecord(text, "draw", rules.names[src], rules.names[dst],
                              tuple(card_name(c) for c in moved), None, self.score - before)
        cards = tuple(card_name(c) for c in self.piles[src][-n:])
        self.push(move)
        turned, filled = self._effects(src, self.history[-1][3])
        return MoveRecord(text, "move", rules.names[src], rules.names[dst], cards, turned, self.score - before,
                          filled)

    def _effects(self, src: int, extra: int) -> tuple[str | None, str | None]:
        """What a move of cards off ``src`` did besides, from its history code: the cards it
        turned face up, and the fill of ``src`` ("PILE CARD")."""
        rules = self.rules
        turned = filled = None
        if extra & 1:
            turned = card_name(self.piles[src][-1])
        if extra & 1023 >= 4:
            fillers = self._fillers(extra)
            filled = ", ".join(f"{rules.names[f]} {card_name(self.piles[fillers[i - 1][0] if i else src][-1])}"
                               for i, (f, _) in enumerate(fillers))
        if extra >> 10 & UNCOVERS:
            turned = ", ".join(card_name(self.piles[p][-1]) for k, p in enumerate(rules.uncovers[src])
                               if extra >> (10 + k) & 1)
        return turned, filled

    def undo(self) -> Move:
        """Take back the last move; a card it turned face up stays face up. Raise if none."""
        if not self.history:
            raise IllegalMoveError(_("nothing to undo"))
        move = self._unapply(rehide=False)
        self.future.append(move)
        return move

    def redo(self) -> MoveRecord:
        """Play again the last move taken back by :meth:`undo`."""
        if not self.future:
            raise IllegalMoveError(_("nothing to redo"))
        move = self.future[-1]
        reason = self.refusal(move)
        if reason is not None:  # cannot happen with the kernel's own moves; kept as a guard
            raise IllegalMoveError(_("cannot redo: {reason}").format(reason=reason))
        self.future.pop()
        return self._record(move)

    def finish_ready(self) -> str | None:
        """Why the game cannot be played out yet (a card outside the stock is face down);
        ``None`` when :meth:`finish_moves` may be tried. The stock and the waste need not be
        empty: finishing plays them out too."""
        rules = self.rules
        if self.won:
            return _("the game is already won")
        if any(d for i, d in enumerate(self.down) if i != rules.stock):
            return _("finish needs every card face up")
        return None

    def finish_moves(self) -> list[Move] | None:
        """The moves that play every card home from here, or ``None`` if that cannot be done
        by moving cards straight to the foundations and turning the stock: a card that may go
        home goes (the first such legal move), else the stock turns; ``None`` once a whole
        round of the stock and the waste sends nothing home, or the stock cannot turn."""
        if self.finish_ready() is not None:
            return None
        rules = self.rules
        found = rules.foundation_set
        draw = rules.draw_move
        trial = self.copy()
        moves: list[Move] = []
        idle_recycles = 0  # turns of the waste back since a card last went home
        while not trial.won:
            move = next((m for m in trial.legal_moves()
                         if m[2] == 1 and m[1] in found and m[0] not in found), None)
            if move is not None:
                idle_recycles = 0
            elif draw is not None and trial._can_draw():
                move = draw
                if not trial.piles[draw[0]]:  # the stock is empty: this turns the waste back
                    idle_recycles += 1
                    if idle_recycles > 1:  # a whole round sent nothing home: every next one alike
                        return None
            else:
                return None
            trial.push(move)
            moves.append(move)
        return moves

    def finish(self) -> list[MoveRecord]:
        """Play every card home, one move at a time. Raise IllegalMoveError when not possible."""
        reason = self.finish_ready()
        if reason is not None:
            raise IllegalMoveError(reason)
        moves = self.finish_moves()
        if moves is None:
            raise IllegalMoveError(_("the cards cannot all be played straight home from here"))
        return [self.play(m) for m in moves]

    # ------------------------------------------------------------------ notation

    def move_text(self, move: Move) -> str:
        src, dst, n = move
        if n == 0:
            return "draw"
        short = self.rules.short_name
        if n == PAIR:
            return f"{short[src]} {short[dst]}"
        return f"{short[src]} {short[dst]}" + (f" {n}" if n > 1 else "")

    def _pile(self, token: str) -> tuple[int, ...]:
        rules = self.rules
        if token in rules.index:
            return (rules.index[token],)
        if token in rules.aliases:
            return (rules.aliases[token],)
        if token in rules.group_names:
            return rules.group_names[token]
        raise NotationError(_("unknown pile {name}: piles are {piles}").format(
            name=_quoted(token), piles=self.pile_list()))

    def move_examples(self) -> list[str]:
        """A few moves written in this game's own pile names, for help and error messages:
        their shapes, between piles the rules let cards go (not moves legal now). E.g.
        ``['t7 t6', 'w t2', 't1 f']``: within a group, from the waste, and home."""
        rules = self.rules
        short, found = rules.short_name, rules.foundation_set
        places = [d for d in range(rules.count) if any(rules.accept[d])]  # piles some card fits
        out = []
        for s in reversed(rules.sources):  # within a group: the tableau's columns, say
            within = [d for d in reversed(rules.targets[s]) if d in places and d not in found
                      and rules.piles[d].group == rules.piles[s].group]
            if within:
                out.append(f"{short[s]} {short[within[0]]}")
                break
        waste = next((s for s in rules.sources if rules.role[s] == "waste"), None)
        if waste is not None:
            onto = [d for d in rules.targets[waste] if d in places and d not in found]
            if onto:
                out.append(f"{short[waste]} {short[onto[min(1, len(onto) - 1)]]}")
        pairs = [(a, b) for a in rules.pair_sources for b in rules.pair_sources if a < b and rules.pair_with[a][b]]
        if pairs:  # two piles whose top cards go together
            out.append(f"{short[pairs[-1][0]]} {short[pairs[-1][1]]}")
        homing = [s for s in rules.sources if s not in found and any(d in found for d in rules.targets[s])]
        if homing:
            src = next((s for s in homing if rules.role[s] != "waste"), homing[0])
            home = next(d for d in rules.targets[src] if d in found)
            group = rules.groups[rules.piles[home].group]
            out.append(f"{short[src]} {group.prefix if group.prefix and len(group.piles) > 1 else short[home]}")
        return out

    def pile_list(self) -> str:
        """The piles by the names a player types: ``stock, waste (w), f1..f4, t1..t7``."""
        parts = []
        for g in self.rules.spec.groups:
            if not g.piles:
                continue
            if len(g.piles) == 1:
                parts.append(g.piles[0] + (f" ({g.alias})" if g.alias else ""))
            else:
                parts.append(f"{g.piles[0]}..{g.piles[-1]}")
        return ", ".join(parts)

    def parse_move(self, text: str) -> Move:
        """Parse ``SRC DST [N]`` or ``draw``/``s``; resolve ``f`` and the run length here.

        Raise NotationError for text that is not a move, IllegalMoveError (with the reason)
        for a move the rules refuse, AmbiguousMoveError when a count is needed.
        """
        tokens = text.strip().lower().split()
        if not tokens:
            raise NotationError(_("empty move"))
        if tokens[0] in ("draw", "s"):
            if len(tokens) > 1:
                raise NotationError(_("'{word}' takes no arguments").format(word=tokens[0]))
            if self.rules.draw_move is None:
                raise IllegalMoveError(_("this game has no stock to draw from"))
            return self.rules.draw_move
        rules = self.rules
        if len(tokens) == 1:  # a discard game: one pile's top card to the discard pile
            homes = [rules.pair_home] if rules.pair_home is not None else [
                d for d in rules.foundations if rules.beaten_by[d]]
            if len(homes) == 1 and len(self._pile(tokens[0])) == 1:
                tokens.append(rules.names[homes[0]])
        if len(tokens) not in (2, 3):
            shown = ", ".join(f"'{m}'" for m in self.move_examples())
            raise NotationError(_("cannot read {text}: a move is 'SRC DST [N]'").format(text=_quoted(text.strip()))
                                + (_(" (e.g. {moves})").format(moves=shown) if shown else "")
                                + (_(" or 'draw'") if self.rules.draw_move is not None else ""))
        sources = self._pile(tokens[0])
        if not sources:
            raise NotationError(_("this game has no {name} piles: piles are {piles}").format(
                name=_quoted(tokens[0]), piles=self.pile_list()))
        if len(sources) != 1:
            raise NotationError(_("name one pile to move from, not {name!r} (e.g. {pile})").format(
                name=tokens[0], pile=self.rules.names[sources[0]]))
        src = sources[0]
        dests = self._pile(tokens[1])
        if len(dests) > 1:  # a group ('t', 'f'): any pile of it but the source itself
            dests = tuple(d for d in dests if d != src)
        if not dests:
            raise NotationError(_("this game has no {name} piles: piles are {piles}").format(
                name=_quoted(tokens[1]), piles=self.pile_list()))
        if len(tokens) == 2 and len(dests) == 1 and src in rules.pair_sources and dests[0] in rules.pair_sources:
            # two piles whose cards pair: 't3 t5' (a move of one onto the other, where one is legal)
            a, b = sorted((src, dests[0]))
            reason = self._pair_refusal(a, b)
            if reason is None:
                return (a, b, PAIR)
            if not any(rules.accept[dests[0]]) or self._refusal((src, dests[0], 1)) is not None:
                raise IllegalMoveError(reason[1])
        count: int | None = None
        if len(tokens) == 3:
            word = tokens[2]
            digits = word.lstrip("0")
            # ASCII digits only ('²' is a digit to str.isdigit but not to int), and no 5000-digit ints
            if not (word.isascii() and word.isdigit()) or not digits:
                shown = word if len(word) <= 12 else word[:12] + "..."
                raise NotationError(_("the number of cards must be a whole number of at least 1, got {count!r}")
                                    .format(count=shown))
            count = int(digits) if len(digits) <= 6 else DECK_SIZE + 1
        pile = self.piles[src]
        if count is not None:
            counts: Iterable[int] = (count,)
        elif rules.gives[src] in (GIVES_RUN, GIVES_ANY):
            counts = range(1, max(1, len(pile) - self.down[src]) + 1)
        elif rules.gives[src] == GIVES_PILE:
            counts = tuple(dict.fromkeys((1, max(1, len(pile) - self.down[src]))))
        else:
            counts = (1,)
        counts = tuple(counts)
        tried = counts
        if count is None and rules.gives[src] == GIVES_RUN and len(counts) > 1:
            # a count past the top run is refused whatever the destination (the cards are
            # not a run): try only those within it (the refusals below still see them all)
            table, width = rules.seq[src], rules.width
            run = 1
            while run < len(counts) and table[pile[-run - 1] * width + pile[-run]]:
                run += 1
            tried = counts[:run]
        for dst in dests:
            fits = [n for n in tried if self._refusal((src, dst, n)) is None]
            if len(fits) == 1:
                return (src, dst, fits[0])
            if len(fits) > 1:
                shown = _(" or ").join(str(n) for n in fits)
                raise AmbiguousMoveError(
                    _("'{src} {dst}' could move {counts} cards: add the number, e.g. '{src} {pile} {n}'").format(
                        src=tokens[0], dst=tokens[1], counts=shown, pile=rules.names[dst], n=fits[-1]))
        # refused: find the most useful reason
        if len(dests) == 1:
            dst = dests[0]
            if len(counts) == 1:
                raise IllegalMoveError(self._refusal((src, dst, counts[0]))[1])  # type: ignore[index]
            first = self._refusal((src, dst, 1))
            assert first is not None
            if first[0] != "fit":
                raise IllegalMoveError(first[1])
            dest = self.piles[dst]
            spec = rules.piles[dst]
            if dest:
                raise IllegalMoveError(_("nothing from {src} fits on {card}: {dst} {rule}").format(
                    src=rules.names[src], card=card_name(dest[-1]), dst=rules.names[dst], rule=spec.build.describe()))
            raise IllegalMoveError(_("nothing from {src} fits on the empty {dst}: it takes only {rule}").format(
                src=rules.names[src], dst=rules.names[dst], rule=spec.empty.describe()))
        reasons = [self._refusal((src, d, counts[0])) for d in dests]
        source_reasons = [r for r in reasons if r and r[0] == "source"]
        if source_reasons:
            raise IllegalMoveError(source_reasons[0][1])
        if all(r and r[0] == "dest" for r in reasons):  # e.g. 't7 f 2': one card at a time
            raise IllegalMoveError(reasons[0][1])  # type: ignore[index]
        label = rules.groups[rules.piles[dests[0]].group].label.lower()
        what = card_name(pile[-1]) if pile else _("that")
        raise IllegalMoveError(_("no {label} pile takes {card}").format(label=label, card=what) if counts == (1,) else
                               _("nothing from {src} fits on any {label} pile").format(
                                   src=rules.names[src], label=label))

    # ------------------------------------------------------------------ positions

    def to_position(self, hidden: bool = False) -> dict[str, Any]:
        """The position as JSON-ready data. ``hidden`` shows face-down cards as ``"??"``."""
        rules = self.rules
        piles: dict[str, Any] = {}
        shown = shown_down(rules, self.piles, self.down) if hidden else self.down
        for i, name in enumerate(rules.names):
            pile = self.piles[i]
            d = shown[i]
            down = [HIDDEN] * d if hidden else [card_name(c) for c in pile[:d]]
            piles[name] = {"down": down, "up": [card_name(c) for c in pile[d:]]}
        options = {}
        for o in rules.variant.options:
            options[o.name] = rules.options[o.name]
        return {
            "variant": rules.name,
            "seed": self.seed,
            **({"numbering": self.numbering} if self.numbering is not None else {}),
            "options": options,
            "piles": piles,
            "score": self.score,
            "moves": self.moves,
            "recycles": self.recycles,
            **({"base": rank_name(rules.base)} if rules.base is not None else {}),
        }

    @classmethod
    def from_position(cls, variant: Any, data: Any) -> Game:
        """Build a game from position data for ``variant`` (a VariantDef); raise PositionError."""
        from .position import game_from_position

        game: Game = game_from_position(cls, variant, data)
        return game
