"""Hints from the player's view: the solver on guesses of the cards the player cannot see."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from ..game import Game
from ..view import Observation
from .native import Cancel, choose, core, solve
from .search import WIN, SolveResult

#: how often (seconds) a hint whose searches run in the compiled core asks its ``stop``
POLL = 0.02

#: the work of a guess's search in the compiled core, in positions its passes together may
#: reach, a state of its budget, for a game of :data:`CARDS` cards (see :func:`player_hint`)
WORK = 12

#: the deck :data:`WORK` is counted for: a game of more cards reaches fewer positions, in
#: proportion (a position of 104 cards costs about twice as much to make, key and judge)
CARDS = 52


def player_hint(game: Game, samples: int = 6, states: int = 2000,
                stop: Callable[[], bool] | None = None, engine: str = "auto",
                threads: int | None = None, full: bool = False,
                work: float | None = WORK) -> tuple[str | None, int]:
    """A next move judged only from what the player can see: ``(move text or None, wins)``.

    The face-down cards and the stock's order are unknown to the player, so the solver
    solves ``samples`` guesses of them (each a deal consistent with every visible card,
    drawn from a generator seeded by the visible position alone), ``states`` states each
    (a count, not a time, so the answer does not depend on the machine's speed),
    and suggests the first move most of the won guesses share; ``wins`` is how many guesses
    it won. Each guess is solved by the solver's front door (:func:`.native.solve`, with
    ``engine``): in the compiled core wherever it is installed and speaks the game, else in
    Python; in the core the guesses are solved side by side, ``threads`` at a time (None: one
    a processor), with the same answer as one after another. A guess that comes up ``k``
    times (nothing hidden, as in FreeCell, or too few hidden cards for ``samples`` orders) is
    solved once, with ``k * states`` states, and counts ``k`` times. ``stop``, if given, is
    asked (in the caller's thread) before each search starts and, while the compiled core
    searches, every :data:`POLL` seconds: when it says True the hint is given up, ``(None,
    0)``, and the searches under way are cancelled (they stop within a few hundred positions).
    Two positions that differ only in hidden cards give the same hint.
    ``work`` bounds what a guess's search does as well as what it stores: in the compiled
    core (and in a variant's own search that takes the bound, as Calculation's does: see
    :func:`.knowledge.takes_work`) its passes together may reach ``work`` positions a state
    of its budget (a count
    too: the same answer on any machine; None: no such bound, the states alone). A pass
    stores one position for every one to ten it reaches, as many as the game has moves a
    position, so the bound is reached first where nothing wins: Spider's, Forty Thieves'
    and the hard guesses' searches, which spent the most (docs/performance.md, "Hints").
    ``work`` is counted for a game of :data:`CARDS` cards; a game of more cards reaches
    fewer positions, in proportion (``work * CARDS / cards``): what a position costs grows
    with the cards on the table, so the bound is about the same time in every game.
    ``full=True`` solves each guess as :func:`.native.solve` does by default (its proofs
    included, each won line replayed whole through the kernel): the reference the default,
    leaner solve of a guess gives the same hint as (tests and benchmarks/bench_hints.py).
    With no won guess it falls back to the kernel's simple hint; when the stock has just gone
    all the way round with nothing to play (:func:`~solitaire.core.hints.stuck`), there is no
    hint.
    """
    import hashlib
    import json

    from ..hints import simple_hint, stuck

    if stuck(game):  # the stock has gone round with nothing to play: guesses of it would mislead
        return None, 0
    view = Observation.of(game)
    digest = hashlib.sha256(json.dumps(view.to_position(), sort_keys=True).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    unseen = list(view.unseen())
    guesses: dict[tuple[int, ...], int] = {}  # each guess's order of the unseen cards -> how often it came up
    for _ in range(samples):
        rng.shuffle(unseen)  # each guess shuffles the last one on (a fixed order of guesses)
        key = tuple(unseen)
        guesses[key] = guesses.get(key, 0) + 1
    keys = list(guesses)
    # a guess that came up k times is solved once with k times the states (nothing hidden, as
    # in FreeCell: one search with the whole budget, not the same one six times)
    deals = [view.deal(list(key)) for key in keys]
    budgets = [states * guesses[key] for key in keys]
    if work is not None:
        work = work * min(1.0, CARDS / max(1, len(game.rules.deck)))
    results = _solved(deals, budgets, stop, engine, threads or os.cpu_count() or 1, full, work)
    if results is None:
        return None, 0
    votes: dict[str, int] = {}
    wins = 0
    for key, result in zip(keys, results, strict=True):  # in the order the guesses first came up
        if result.result == WIN and result.moves:
            wins += guesses[key]
            votes[result.moves[0]] = votes.get(result.moves[0], 0) + guesses[key]
    if votes:
        best = max(sorted(votes), key=lambda m: votes[m])
        return best, wins
    move = simple_hint(game)
    return (game.move_text(move) if move is not None else None), 0


def _solved(deals: list[Game], budgets: list[int], stop: Callable[[], bool] | None,
            engine: str, threads: int, full: bool = False,
            work: float | None = None) -> list[SolveResult] | None:
    """Each deal solved within its budget in states, the answers in the deals' order; None
    when ``stop`` (asked in the caller's thread before each search starts and, in the
    compiled core, every ``POLL`` seconds while searches run) says True: the searches under
    way are then cancelled (:class:`.native.Cancel`) and stop within a few hundred positions.

    Only a guess's wins count, and only its first move: each is solved with ``wins_only``
    (no pass that can only prove a deal lost) and ``whole_line=False`` (the first move in
    notation, not the whole line replayed through the kernel); the wins, and the first moves,
    are those of a full solve with the same budget (``full``: that full solve).

    The compiled core lets go of Python's lock while it searches, so there the deals are
    solved side by side, ``threads`` at a time (at most one a deal): a search's answer does
    not depend on what runs beside it, only the wait is shorter. The Python engine holds the
    lock: its searches run one after another."""
    cancel = Cancel()

    def one(deal: Game, budget: int) -> SolveResult:
        return solve(deal, timeout=None, max_states=budget, greedy_share=1.0, engine=engine, cancel=cancel,
                     wins_only=not full, whole_line=full,
                     max_work=None if work is None else round(work * budget))

    width = min(len(deals), threads)
    native = choose(deals[0], engine=engine)[0] == "native"
    if not native or (width < 2 and stop is None):
        results = []
        for deal, budget in zip(deals, budgets, strict=True):
            if stop is not None and stop():
                return None
            results.append(one(deal, budget))
        return results
    # the compiled core: in threads (one at least, so that this thread can watch ``stop``)
    width = max(1, width)
    core(deals[0].rules)  # built once here, not by two threads at once
    pool = ThreadPoolExecutor(max_workers=width, thread_name_prefix="hint")
    running: set[Future[SolveResult]] = set()
    futures: list[Future[SolveResult]] = []

    def stopped() -> bool:
        if stop is not None and stop():
            cancel.cancel()
            return True
        return False

    def settle(until: str) -> set[Future[SolveResult]] | None:
        """Wait for a search to end (FIRST_COMPLETED) or all (ALL_COMPLETED), asking ``stop``
        meanwhile: the searches still running, or None when stopped."""
        left = running
        while left:
            done, left = wait(left, timeout=None if stop is None else POLL, return_when=until)
            if stopped():
                return None
            if done and until == FIRST_COMPLETED:
                break
        return left

    try:
        for deal, budget in zip(deals, budgets, strict=True):
            if len(running) >= width:  # a processor free before the next search starts
                left = settle(FIRST_COMPLETED)
                if left is None:
                    return None
                running = left
            if stopped():
                return None
            future = pool.submit(one, deal, budget)
            running.add(future)
            futures.append(future)
        if settle(ALL_COMPLETED) is None:
            return None
        return [future.result() for future in futures]
    finally:
        cancel.cancel()  # nothing runs on once the hint is given or given up
        pool.shutdown(wait=False, cancel_futures=True)
