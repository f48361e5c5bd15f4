"""Hints from the player's view (``player_hint``) and a new deal's live search (``winnable_seed``)
through the solver's front door: in the compiled core where it is installed and speaks the game.

Every hint is a legal move of the real position, two positions that differ only in hidden
cards get the same hint, and a won guess's first move is that of a full solve of the guess,
whose line replays on it. Budgets in states,
never seconds (the latency is benchmarks/bench_hints.py's, docs/performance.md "Hints").
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import WIN, SolveResult, native_available, player, player_hint, pools, winnable_seed
from solitaire.core.solver import native as front_door

needs_native = pytest.mark.skipif(not native_available(), reason="the compiled core is not installed")

#: every game family the hint serves with something hidden, and FreeCell (nothing hidden)
GAMES = [
    ("klondike", {"draw": 1}), ("klondike", {"draw": 3}), ("freecell", {}), ("spider", {}),
    ("golf", {}), ("pyramid", {}), ("canfield", {}),
]


@pytest.fixture(autouse=True)
def any_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine the front door picks by itself (a run with SOLITAIRE_ENGINE=python set
    outside must not turn these into tests of the Python engine)."""
    monkeypatch.delenv(front_door.ENGINE_VARIABLE, raising=False)


def played(variant: str, options: dict[str, Any], seed: int, depth: int) -> Game:
    """Deal ``seed`` after up to ``depth`` random legal moves (fewer when the game ends)."""
    game = Game.new(Rules.of(get_variant(variant), options), seed)
    rng = random.Random(seed * 1000 + depth)
    for _ in range(depth):
        moves = game.legal_moves()
        if not moves or game.won:
            break
        game.push(moves[rng.randrange(len(moves))])
    return game


class Spy:
    """Stands in for the front door where ``module`` calls it, keeping every guess and answer."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
        self.calls: list[tuple[Game, SolveResult]] = []
        self.budgets: list[int] = []
        self.works: list[int | None] = []
        real = front_door.solve

        def solve(game: Game, *args: Any, **kwargs: Any) -> SolveResult:
            result = real(game, *args, **kwargs)
            self.calls.append((game.copy(), result))
            self.budgets.append(kwargs["max_states"])
            self.works.append(kwargs.get("max_work"))
            return result

        monkeypatch.setattr(module, "solve", solve)

    @property
    def engines(self) -> set[str]:
        return {result.engine for _, result in self.calls}


def is_legal(game: Game, move: str | None) -> bool:
    return move is not None and game.refusal(game.parse_move(move)) is None


@needs_native
@pytest.mark.parametrize(("variant", "options"), GAMES)
def test_the_hint_runs_in_the_compiled_core_and_is_a_legal_move(monkeypatch: pytest.MonkeyPatch, variant: str,
                                                                options: dict[str, Any]) -> None:
    native_runs: list[int] = []
    real_native = front_door._solve_native

    def counted(*args: Any) -> SolveResult:
        native_runs.append(1)
        return real_native(*args)

    monkeypatch.setattr(front_door, "_solve_native", counted)
    spy = Spy(monkeypatch, player)
    for seed, depth in ((1, 0), (2, 12), (3, 30)):
        game = played(variant, options, seed, depth)
        if game.won or not game.legal_moves():
            continue
        before = game.to_position()
        move, wins = player_hint(game)
        assert is_legal(game, move), (variant, seed, depth, move)
        assert game.to_position() == before  # the hint changed nothing
        assert 0 <= wins <= 6
    assert spy.calls and spy.engines == {"native"} and len(native_runs) == len(spy.calls)
    for (guess, result), budget, work in zip(spy.calls, spy.budgets, spy.works, strict=True):
        # the guess's work bound, from its states and, past 52 cards, in proportion to the deck
        assert work == round(player.WORK * budget * min(1, player.CARDS / len(guess.rules.deck)))
        if result.result == WIN:  # a won guess gives its first move alone: a full solve's, whose line wins
            full = front_door.solve(guess, timeout=None, max_states=budget, greedy_share=1.0, max_work=work)
            assert full.result == WIN and result.moves == full.moves[:1]
            for text in full.moves:
                guess.play(text)
            assert guess.won


@needs_native
def test_the_protocol_and_the_command_line_hint_in_the_compiled_core(cli: Any, monkeypatch: pytest.MonkeyPatch,
                                                                     solitaire_home: Any) -> None:
    spy = Spy(monkeypatch, player)
    out = cli("solve", "klondike", "--seed", "3", "--hint", "--json")
    assert out.code == 0, out.err
    hint = json.loads(out.out)["hint"]
    assert is_legal(Game.new(Rules.of(get_variant("klondike")), 3), hint)
    assert spy.calls and spy.engines == {"native"}
    # each guess bounded by its work as well as its states
    assert spy.works == [player.WORK * budget for budget in spy.budgets]
    spy.calls.clear()
    spy.budgets.clear()
    spy.works.clear()
    result = cli("play", "klondike", "--seed", "3", "--json", input="hint\n")
    first, reply = result.json_lines()
    assert "hint" not in first and first["moves"] == 0
    assert reply["ok"] is True and reply["hint"] == hint  # the same position, the same hint
    assert spy.calls and spy.engines == {"native"}
    assert spy.works == [player.WORK * budget for budget in spy.budgets]


def hidden_swapped(game: Game) -> Game:
    """``game`` with two of its face-down cards swapped in each pile holding two or more, and
    the first face-down cards of two piles swapped: what the player sees is the same."""
    data = game.to_position()
    downs = [p["down"] for p in data["piles"].values() if p.get("down")]
    for down in downs:
        if len(down) >= 2:
            down[0], down[-1] = down[-1], down[0]
    if len(downs) >= 2:
        downs[0][0], downs[1][0] = downs[1][0], downs[0][0]
    return Game.from_position(game.rules.variant, data)


@pytest.mark.parametrize(("variant", "options", "seed", "depth"), [
    ("klondike", {"draw": 1}, 3, 0), ("klondike", {"draw": 3}, 5, 20), ("spider", {}, 2, 10),
    ("golf", {}, 4, 3), ("canfield", {}, 6, 8),
])
def test_hidden_cards_do_not_change_the_hint(variant: str, options: dict[str, Any], seed: int, depth: int) -> None:
    game = played(variant, options, seed, depth)
    other = hidden_swapped(game)
    assert other.piles != game.piles and other.down == game.down
    first = player_hint(game)
    assert first == player_hint(other)
    assert is_legal(game, first[0]) and is_legal(other, first[0])


def test_a_guess_like_an_earlier_one_is_solved_once_with_their_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """FreeCell hides nothing: its six guesses are the one deal, solved once with six guesses'
    states (FreeCell deal 83 is won within 12,000 states, not within 2,000)."""
    spy = Spy(monkeypatch, player)
    game = Game.new(Rules.of(get_variant("freecell")), 83)
    move, wins = player_hint(game, samples=6, states=2000)
    assert spy.budgets == [12_000] and wins == 6
    (guess, result), = spy.calls
    assert guess.piles == game.piles and result.result == WIN and move == result.moves[0]
    assert is_legal(game, move)
    assert front_door.solve(game, timeout=None, max_states=2000, greedy_share=1.0).result != WIN


def test_the_python_engine_still_gives_a_legal_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch, player)
    game = Game.new(Rules.of(get_variant("klondike")), 3)
    move, _wins = player_hint(game, samples=2, states=300, engine="python")
    assert spy.engines == {"python"} and is_legal(game, move)


@needs_native
def test_a_new_deals_live_search_runs_in_the_compiled_core(monkeypatch: pytest.MonkeyPatch) -> None:
    klondike = get_variant("klondike")
    options = {"redeals": 0}  # no pool ships for it: solved live
    spy = Spy(monkeypatch, pools)
    seed, proved = winnable_seed(klondike, options, random.Random(4), states=2000)
    assert spy.calls and spy.engines == {"native"}
    assert (seed, proved) == winnable_seed(klondike, options, random.Random(4), states=2000)  # states, not time
    last = spy.calls[-1]
    assert last[0].seed == seed and (last[1].result == WIN) == proved
    if proved:  # the deal it hands out is won: its line replays from the deal
        game = Game.new(Rules.of(klondike, options), seed)
        for text in last[1].moves:
            game.play(text)
        assert game.won


@needs_native
@pytest.mark.parametrize(("variant", "options"), [("klondike", {"draw": 3}), ("spider", {})])
def test_guesses_solved_side_by_side_give_the_answer_of_one_after_another(
        monkeypatch: pytest.MonkeyPatch, variant: str, options: dict[str, Any]) -> None:
    games = [played(variant, options, seed, depth) for seed, depth in ((1, 0), (4, 25))]
    side_by_side = [player_hint(game, threads=4) for game in games]
    assert [player_hint(game, threads=1) for game in games] == side_by_side
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # the default: one thread a processor
    assert [player_hint(game) for game in games] == side_by_side


@needs_native
def test_stop_is_asked_before_each_search_and_ends_the_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    spy = Spy(monkeypatch, player)
    asked: list[str] = []

    def stop() -> bool:
        asked.append(threading.current_thread().name)
        return len(asked) > 3

    game = Game.new(Rules.of(get_variant("klondike")), 11)
    assert player_hint(game, stop=stop, threads=2) == (None, 0)
    assert len(asked) == 4 and set(asked) == {threading.current_thread().name}  # in the caller's thread
    assert len(spy.calls) <= 3  # no search started once it said stop


@needs_native
def test_the_compiled_core_lets_other_threads_run_while_it_searches() -> None:
    """What keeps the table live while a hint is worked out in its thread: the core lets go
    of Python's lock while it searches. With threads switched only when one lets go of the
    lock itself (a switch interval of 1,000 s), the test's thread runs on from ``searching``
    only once the search lets go, and then holds the lock, so the search cannot end before
    it looks; a search holding the lock would end first."""
    import sys
    import threading

    game = Game.new(Rules.of(get_variant("spider")), 3)  # not decided within the budget
    searching = threading.Event()
    done = threading.Event()
    answers: list[SolveResult] = []

    def search() -> None:
        searching.set()
        answers.append(front_door.solve(game, timeout=None, max_states=20_000))
        done.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000)
    try:
        worker = threading.Thread(target=search)
        worker.start()
        searching.wait()
        ran_during_the_search = not done.is_set()
        done.wait()  # lets go of the lock: the search's thread ends
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert answers[0].engine == "native" and answers[0].states >= 20_000
    assert ran_during_the_search


@needs_native
@pytest.mark.parametrize(("variant", "options"), [*GAMES, ("forty-thieves", {}), ("yukon", {})])
def test_the_lean_solve_of_a_guess_gives_the_hint_of_a_full_solve(variant: str, options: dict[str, Any]) -> None:
    """A hint solves its guesses for wins only (no relaxation proof, the first move alone in
    notation): the same hint and the same won guesses as solving each one in full."""
    for seed, depth in ((2, 0), (5, 20)):
        game = played(variant, options, seed, depth)
        if game.won or not game.legal_moves():
            continue
        assert player_hint(game, threads=1) == player_hint(game, threads=1, full=True)


@needs_native
def test_a_cancel_set_before_the_search_stops_it_before_it_starts() -> None:
    game = Game.new(Rules.of(get_variant("spider")), 3)
    cancel = front_door.Cancel()
    cancel.cancel()
    result = front_door.solve(game, timeout=None, max_states=1_000_000, cancel=cancel)
    assert (result.result, result.stopped, result.states) == ("unknown", "cancelled", 0)
    # the compiled core's own flag: it searches nothing either
    module = front_door._module()
    assert module is not None
    answer, line, states, _method = module.solve(
        front_door.core(game.rules), game.piles, game.down, game.recycles, 1_000_000, None, True, True, cancel._flag)
    assert (answer, line, states) == ("unknown", [], 0)


@needs_native
def test_a_search_cancelled_from_another_thread_stops_long_before_its_budget() -> None:
    """Spider deal 3 is not decided within 3,000,000 states a pass (minutes of search): set
    from this thread while the search runs in another (with Python's lock released), the
    flag stops it, "unknown", stopped "cancelled"."""
    import threading

    game = Game.new(Rules.of(get_variant("spider")), 3)
    cancel = front_door.Cancel()
    started = threading.Event()
    answers: list[SolveResult] = []

    def search() -> None:
        started.set()
        answers.append(front_door.solve(game, timeout=None, max_states=3_000_000, cancel=cancel))

    worker = threading.Thread(target=search)
    worker.start()
    started.wait()
    cancel.cancel()
    worker.join()
    (result,) = answers
    assert (result.result, result.stopped, result.engine) == ("unknown", "cancelled", "native")
    assert result.states < 3_000_000


@needs_native
def test_a_hint_given_up_meanwhile_cancels_the_searches_under_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """``stop`` is asked while the compiled core searches, not only between searches: a hint
    whose searches would take minutes (3,000,000 states a guess) is given up as soon as it
    says so, and the search under way stops, "cancelled", far short of its budget."""
    import threading

    spy = Spy(monkeypatch, player)
    asked: list[int] = []

    def stop() -> bool:  # no to the first question (before the first search), yes after
        asked.append(1)
        return len(asked) > 1

    game = Game.new(Rules.of(get_variant("spider")), 3)
    assert player_hint(game, states=3_000_000, stop=stop, threads=1) == (None, 0)
    for thread in threading.enumerate():  # the hint's search thread ends once cancelled
        if thread.name.startswith("hint"):
            thread.join()
    (_guess, result), = spy.calls
    assert (result.result, result.stopped) == ("unknown", "cancelled") and result.states < 3_000_000


@needs_native
def test_a_guess_that_wins_nothing_stops_at_its_work_not_its_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spider's guesses win nothing within 2,000 states, and its guided pass reaches about ten
    positions for each it stores: bounded by their work too (half a 52-card game's a state,
    its deck being twice as large), its guesses' searches store fewer states and give the
    same hint (the kernel's simple one, no guess won)."""
    game = played("spider", {}, 1, 0)
    bounded = Spy(monkeypatch, player)
    hint = player_hint(game, threads=1)
    only_states = Spy(monkeypatch, player)
    assert player_hint(game, threads=1, work=None) == hint == (hint[0], 0)
    # two decks: half the positions a state of a 52-card game's
    assert bounded.works == [player.WORK * 2000 // 2] * 6 and only_states.works == [None] * 6
    assert all(result.result != WIN for _, result in bounded.calls + only_states.calls)
    pairs = list(zip(bounded.calls, only_states.calls, strict=True))
    assert all(short.states <= long.states for (_, short), (_, long) in pairs)
    assert sum(short.states for (_, short), _ in pairs) < sum(long.states for _, (_, long) in pairs)


@needs_native
def test_the_work_bound_never_proves_a_deal_lost() -> None:
    """Klondike deal 645351751 at draw 1 is proved lost by the compiled core's exact search
    within 6,000 states; cut short by a bound on its work, the same search proves nothing."""
    game = Game.new(Rules.of(get_variant("klondike"), {"draw": 1}), 645351751)
    proved = front_door.solve(game, timeout=None, max_states=6_000, engine="native")
    assert (proved.result, proved.method) == ("unwinnable", "exact")
    assert front_door.solve(game, timeout=None, max_states=6_000, engine="native",
                            max_work=10_000_000).result == "unwinnable"  # a bound not reached
    for work in (0, 1, 500, 5_000):
        cut = front_door.solve(game, timeout=None, max_states=6_000, engine="native", max_work=work)
        assert cut.result == "unknown", work
