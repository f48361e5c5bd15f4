"""The compiled solver core (Rust, ``solitaire.core.solver._native``) against the Python kernel.

For positions reached by random play of many games, the core's legal moves (the same
``(src, dst, n)`` tuples in the same order), apply and undo equal ``Game.legal_moves``,
``Game.push`` and ``Game.pop``; every native win replays through ``Game.play``; a game the
core does not speak is solved in Python, and the answer says why. Budgets in states.

``SOLITAIRE_REQUIRE_NATIVE=1`` (set by .ci/run) makes a missing compiled module a failure
instead of a skip.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import UNKNOWN, UNWINNABLE, WIN, engine_line, exhaustive_search, native_available, solve
from solitaire.core.solver import native as native_engine
from solitaire.core.solver import search as python_engine

REQUIRED = os.environ.get("SOLITAIRE_REQUIRE_NATIVE") == "1"


def test_the_compiled_core_is_there_when_required():
    """On our machines (.ci/run) the install builds the core: its absence fails the run."""
    if not REQUIRED and not native_available():
        pytest.skip("the compiled core is not installed (SOLITAIRE_REQUIRE_NATIVE=1 makes this a failure)")
    assert native_available(), "SOLITAIRE_REQUIRE_NATIVE=1 but solitaire.core.solver._native does not import"
    assert native_engine.native_version()


needs_native = pytest.mark.skipif(not native_available(), reason="the compiled core is not installed")

GAMES = [
    ("klondike", {"draw": 1}),
    ("klondike", {"draw": 3, "redeals": 2}),
    ("freecell", {}),
    ("spider", {"suits": 1}),
    ("spider", {"suits": 4}),
    ("forty-thieves", {}),
    ("golf", {}),
    ("superior-canfield", {}),
    ("canfield", {}),
    ("tripeaks", {}),
    ("russian-solitaire", {}),
    ("scorpion", {}),
    ("alaska", {}),
    ("bakers-dozen", {}),
    ("black-hole", {}),
    ("gypsy", {}),
    ("penguin", {}),
    ("double-klondike", {}),
    ("beleaguered-castle", {}),
    ("fortunes-favor", {}),  # fills that chain: a column from the waste, the waste from the stock
    ("aces-up", {}),  # discards beaten by other piles' tops, the one-card win
    ("pyramid", {}),  # pairs of cells that touch, a pyramid covering its rows
    ("relaxed-pyramid", {}),
    ("monte-carlo", {}),  # pairs of touching cells, the stock closing the gaps
]


def rules_of(name: str, options: dict[str, Any]) -> Rules:
    return Rules.of(get_variant(name), options)


def snapshot(game: Game) -> tuple[Any, ...]:
    return ([list(p) for p in game.piles], list(game.down), game.recycles)


def native_snapshot(pos: Any) -> tuple[Any, ...]:
    return (pos.piles, pos.down, pos.recycles)


@needs_native
@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(GAMES)])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(0, 10**6), walk=st.integers(0, 2**32))
def test_legal_moves_apply_and_undo_equal_the_kernels(name, options, seed, walk):
    game = Game.new(rules_of(name, options), seed)
    assert native_engine.choose(game, engine="native")[0] == "native", native_engine.choose(game, engine="native")
    pos = native_engine.position(game)
    rng = random.Random(walk)
    played = 0
    for _ in range(80):
        moves = game.legal_moves()
        assert pos.legal_moves() == moves, game.to_position()
        assert pos.won == game.won
        if not moves:
            break
        move = rng.choice(moves)
        game.push(move)
        pos.push(move)
        played += 1
        assert native_snapshot(pos) == snapshot(game), move
        if rng.random() < 0.2:  # take one back now and then, and play on from there
            assert pos.pop() == game.pop()
            played -= 1
            assert native_snapshot(pos) == snapshot(game)
    for _ in range(played):  # undo to the deal, step by step
        assert pos.pop() == game.pop()
        assert native_snapshot(pos) == snapshot(game)
        assert pos.legal_moves() == game.legal_moves()


def catalogue() -> list[str]:
    from solitaire.core.plugins import registry

    return sorted(registry().variants)


@needs_native
@pytest.mark.parametrize("name", catalogue())
def test_every_game_the_core_speaks_plays_as_the_kernel(name):
    """Every installed game the core says it speaks (a new one included): one random game
    each, move by move, and back to the deal."""
    game = Game.new(rules_of(name, {}), 11)
    if native_engine.choose(game, engine="native")[0] != "native":
        pytest.skip(native_engine.choose(game, engine="native")[1])
    pos = native_engine.position(game)
    rng = random.Random(name)
    played = 0
    for _ in range(150):
        moves = game.legal_moves()
        assert pos.legal_moves() == moves, game.to_position()
        if not moves:
            break
        move = rng.choice(moves)
        game.push(move)
        pos.push(move)
        played += 1
        assert native_snapshot(pos) == snapshot(game), move
    for _ in range(played):
        assert pos.pop() == game.pop()
    assert native_snapshot(pos) == snapshot(game)


@needs_native
def test_a_move_the_rules_refuse_is_refused_by_the_core():
    game = Game.new(rules_of("klondike", {}), 1)
    pos = native_engine.position(game)
    with pytest.raises(ValueError, match="not a legal move"):
        pos.push((0, 1, 5))
    assert native_snapshot(pos) == snapshot(game)


@needs_native
def test_bad_tables_are_refused_not_a_crash():
    from solitaire.core.solver import _native

    tables = native_engine.tables(rules_of("klondike", {}))
    tables["accept"] = tables["accept"][:-1]
    with pytest.raises(ValueError, match="bad solver tables"):
        _native.Core(tables)


FUZZED = ("klondike", "freecell", "pyramid", "monte-carlo", "aces-up", "fortunes-favor", "tripeaks")
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=3), st.binary(max_size=8),
                 st.lists(st.integers(-3, 600), max_size=4))


def garble(value: Any, data: st.DataObject) -> Any:
    """``value`` with one thing wrong (or nothing, now and then): a leaf replaced by junk, an
    item dropped or added, bytes cut; down into nested lists."""
    if isinstance(value, (list, bytes)) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        if isinstance(value, bytes):
            return value[:i]
        return [*value[:i], garble(value[i], data), *value[i + 1:]]
    kind = data.draw(st.sampled_from(["junk", "drop", "add", "same"]))
    if kind == "drop" and isinstance(value, (list, bytes)) and value:
        return value[:-1]
    if kind == "add" and isinstance(value, list):
        return [*value, data.draw(JUNK)]
    if kind == "same":
        return value
    return data.draw(JUNK)


@needs_native
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(name=st.sampled_from(FUZZED), data=st.data())
def test_garbled_tables_load_or_are_refused_never_a_crash(name, data):
    """The table loader (``_native.Core``) fed a game's tables with one key garbled, dropped
    or of the wrong kind: it loads them or raises ValueError, nothing else (no panic, no
    TypeError or KeyError); a missing key or a value of no table's kind is always refused.
    A table it loads plays the deal without a panic (its guard keeps every index in range)."""
    from solitaire.core.solver import _native

    rules = rules_of(name, {})
    tables = native_engine.tables(rules)
    key = data.draw(st.sampled_from(sorted(tables)))
    action = data.draw(st.sampled_from(["garble", "delete", "text"]))
    if action == "delete":
        del tables[key]
    elif action == "text":
        tables[key] = "not a table"
    else:
        tables[key] = garble(tables[key], data)
    try:
        core = _native.Core(tables)
    except ValueError:
        return
    assert action == "garble", f"{key}: {action} was loaded"
    game = Game.new(rules, 3)
    try:
        pos = _native.Position(core, game.piles, game.down, game.recycles)
    except ValueError:
        return
    for _ in range(20):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(moves[0])
    pos.won  # noqa: B018 - read: a panic here fails the test


@needs_native
def test_the_loader_is_given_something_other_than_a_dict():
    from solitaire.core.solver import _native

    junks: tuple[Any, ...] = (None, [], "tables", 3)
    for junk in junks:
        with pytest.raises(ValueError, match="bad solver tables"):
            _native.Core(junk)


# ---------------------------------------------------------------- solving


def replays(game: Game, moves: tuple[str, ...]) -> bool:
    g = game.copy()
    for m in moves:
        g.play(m)
    return g.won


@needs_native
@pytest.mark.parametrize(("name", "options", "seed"), [
    ("klondike", {"draw": 1}, 2), ("klondike", {"draw": 3}, 2), ("freecell", {}, 1), ("spider", {"suits": 1}, 1),
    ("golf", {}, 2), ("russian-solitaire", {}, 1)])
def test_native_wins_replay_in_the_kernel(name, options, seed):
    game = Game.new(rules_of(name, options), seed)
    result = solve(game, timeout=None, max_states=60_000, engine="native")
    assert result.engine == "native"
    assert result.result in (WIN, UNWINNABLE, UNKNOWN)
    if result.result == WIN:
        assert replays(game, result.moves)


@needs_native
def test_the_native_search_wins_a_deal():
    """Not vacuous: this FreeCell deal is won by the core within the budget."""
    game = Game.new(rules_of("freecell", {}), 1)
    result = solve(game, timeout=None, max_states=20_000)
    assert (result.result, result.engine) == (WIN, "native")
    assert replays(game, result.moves)


@needs_native
def test_the_native_best_first_pass_wins_where_the_greedy_pass_runs_out():
    """Klondike draw 1, deal 18: the greedy pass stores its 20,000 states without a win; the
    best-first pass then wins within a few dozen more."""
    game = Game.new(rules_of("klondike", {"draw": 1}), 18)
    result = solve(game, timeout=None, max_states=20_000, engine="native")
    assert (result.result, result.method, result.engine) == (WIN, "best-first", "native")
    assert 20_000 <= result.states < 40_000
    assert replays(game, result.moves)


@needs_native
def test_the_native_relaxation_proves_a_draw_three_deal_lost_and_the_proof_stands():
    """Klondike draw 3, a deal of the benchmark's sample: lost even with every stock card
    free (draw 1, unlimited redeals), so lost. The proof's premise is checked on its own:
    the same deal at draw 1 is proved lost by the exact search of both engines."""
    game = Game.new(rules_of("klondike", {"draw": 3}), 645351751)
    result = solve(game, timeout=None, max_states=20_000, engine="native")
    assert (result.result, result.method) == (UNWINNABLE, "relaxation")
    free = Game.new(rules_of("klondike", {"draw": 1}), 645351751)
    assert free.piles == game.piles
    native = solve(free, timeout=None, max_states=6_000, engine="native")
    python = python_engine.solve(free, timeout=None, max_states=6_000)
    assert (native.result, native.method) == (UNWINNABLE, "exact")
    assert python.result == UNWINNABLE


@needs_native
def test_the_tables_carry_the_relaxed_rules_only_where_the_relaxation_applies():
    draw3 = native_engine.tables(rules_of("klondike", {"draw": 3}))
    assert draw3["relaxed"] is not None
    assert (draw3["relaxed"]["draw_count"], draw3["relaxed"]["redeals"], draw3["relaxed"]["relaxed"]) == (1, -1, None)
    assert draw3["relaxed"]["stock_defer"] and not draw3["stock_defer"]
    draw1 = native_engine.tables(rules_of("klondike", {"draw": 1}))
    assert draw1["relaxed"] is None and draw1["stock_defer"]
    assert native_engine.tables(rules_of("freecell", {}))["relaxed"] is None


@needs_native
def test_a_game_the_core_does_not_speak_is_solved_in_python_and_says_why():
    game = Game.new(rules_of("calculation", {}), 1)  # its plugin's knowledge is Python
    result = solve(game, timeout=None, max_states=2_000)
    assert result.engine == "python"
    assert "knowledge" in result.engine_reason
    assert result.as_json()["engine_reason"] == result.engine_reason
    # and the plugin says where its own search runs (compiled in the plugin, when installed)
    from solitaire.variants.calculation import search

    assert ("compiled" in result.engine_reason) == search.native_search()


def test_a_plugins_note_on_its_engine_is_one_line_and_never_breaks_the_answer():
    from solitaire.core.solver.knowledge import own_engine

    class Compiled:
        def engine(self) -> str:
            return "Python, its search compiled\nsecond line"

    class Broken:
        def engine(self) -> str:
            raise RuntimeError("boom")

    class Silent:
        def engine(self) -> object:
            return 3

    assert own_engine(Compiled()) == "Python, its search compiled"
    assert own_engine(Broken()) == own_engine(Silent()) == own_engine(object()) == "Python"


@needs_native
def test_a_rules_attribute_the_core_does_not_know_sends_the_game_to_python():
    """What the core speaks is listed; anything new in the rules (a move kind added to the
    kernel since) is not guessed at."""
    rules = rules_of("klondike", {})
    other = rules.derive(draw_count=1)
    other.removal = (1, 2)  # type: ignore[attr-defined]  # a concept the core has never heard of
    game = Game.new(rules, 1).without_history(rules=other)
    engine, why = native_engine.choose(game)
    assert engine == "python" and "removal" in why


@needs_native
def test_games_with_one_waste_are_solved_by_the_core_now_that_it_runs_the_whole_portfolio():
    """Klondike's stock deals onto one waste: the core, with the best-first pass, the waits and
    the relaxation, decides as many deals as the Python engine within the same budget, so
    "auto" picks it there as everywhere it speaks the game; "python" still runs Python."""
    for options in ({"draw": 1}, {"draw": 3}):
        game = Game.new(rules_of("klondike", options), 1)
        assert native_engine.choose(game) == ("native", "")
        assert native_engine.choose(game, engine="native") == ("native", "")
        assert native_engine.choose(game, engine="python") == ("python", "asked for")
    forty = Game.new(rules_of("forty-thieves", {}), 1)
    assert native_engine.choose(forty) == ("native", "")
    result = solve(Game.new(rules_of("klondike", {"draw": 3}), 645351751), timeout=None, max_states=20_000)
    assert (result.engine, result.result, result.method) == ("native", UNWINNABLE, "relaxation")
    with pytest.raises(ValueError, match="an engine is one of"):
        native_engine.choose(game, engine="rust")


def test_the_python_engine_can_be_forced(monkeypatch):
    monkeypatch.setenv("SOLITAIRE_ENGINE", "python")
    game = Game.new(rules_of("freecell", {}), 1)
    result = solve(game, timeout=None, max_states=2_000)
    assert result.engine == "python"
    assert "SOLITAIRE_ENGINE" in result.engine_reason or not native_available()
    assert "python" in engine_line()


def test_solve_json_names_the_engine(cli):
    run = cli("solve", "freecell", "--seed", "1", "--states", "20000", "--json")
    assert run.code == 0, run.err
    data = run.json_lines()[0]
    assert data["engine"] == ("native" if native_available() else "python")
    if data["engine"] == "python":
        assert data["engine_reason"]


def test_version_names_the_engine(cli):
    run = cli("--version")
    assert run.code == 0, run.err
    assert run.out.startswith("solitaire ")
    assert ("solver: native" if native_available() else "solver: python") in run.out


# ---------------------------------------------------------------- agreement on proofs


def end_games(name: str, count: int, rng: random.Random) -> list[Game]:
    """Positions near the end: a deal played by random moves, preferring moves home."""
    rules = rules_of(name, {})
    out: list[Game] = []
    while len(out) < count:
        game = Game.new(rules, rng.randrange(10**6))
        for _ in range(400):
            moves = game.legal_moves()
            if not moves or game.won:
                break
            home = [m for m in moves if m[1] in rules.foundation_set and m[0] not in rules.foundation_set]
            game.push(rng.choice(home) if home and rng.random() < 0.9 else rng.choice(moves))
        out.append(game.without_history())
    return out


@needs_native
@pytest.mark.parametrize("name", ["golf", "freecell", "klondike", "russian-solitaire", "forty-thieves", "tripeaks",
                                  "canfield"])
def test_native_proofs_agree_with_the_exhaustive_search_and_python(name):
    decided = 0
    for game in end_games(name, 6, random.Random(7)):
        truth = exhaustive_search(game, 6_000)
        native = solve(game, timeout=None, max_states=6_000, engine="native")
        python = python_engine.solve(game, timeout=None, max_states=6_000)
        assert native.engine == "native"
        if native.result == WIN:
            assert replays(game, native.moves)
        if native.result == UNWINNABLE:
            assert truth.result != WIN and python.result != WIN, game.to_position()
        if truth.result == WIN or python.result == WIN:
            assert native.result != UNWINNABLE, game.to_position()
        if truth.result == UNWINNABLE:
            assert native.result != WIN, game.to_position()
        decided += native.result != UNKNOWN
    assert decided > 0


# ---------------------------------------------------------------- the same search, pass for pass

#: one-waste and limited-redeal games, deals of each that the engines decide in different
#: ways within 2,000 states (wins by each pass, proofs), and some they leave unknown
SAME_SEARCH = [
    ("klondike", {"draw": 3, "redeals": 2}, (3, 4, 5, 10)),  # dominance; greedy, exact proof, best-first, unknown
    ("klondike", {"draw": 1, "redeals": 0}, (4, 5)),  # dominance with no redeal: a proof, an unknown
    # dominance with unlimited redeals (draw 3): greedy win and proof, exact proof, best-first win, unknown
    ("klondike", {"draw": 3}, (2, 13, 4, 22, 1)),
    # and with cards that come back: greedy win and proof, exact win and proof, best-first win, unknown
    ("klondike", {"draw": 3, "relaxed": True}, (2, 50, 63, 4, 20, 1)),
    ("easthaven", {}, (1, 2, 7)),  # found_defer (foundations give back): a win, an unknown, a proof
    ("whitehead", {}, (4, 6)),  # dominance: a relaxation proof, an exact win
    ("westcliff", {}, (1,)),
    # the move straight back to a card just taken back, passed by in both (docs/solver.md)
    ("thoughtful", {}, (12,)),
]


@needs_native
@pytest.mark.parametrize(("name", "options", "seeds"), SAME_SEARCH)
def test_the_core_searches_as_the_python_engine_pass_for_pass(name, options, seeds):
    """With the waits (found_defer among them), the dominance of turn positions (limited
    redeals, or draw 3) and the same states budget, the core runs the Python engine's search: the same
    answer, by the same pass, after the same number of stored states, with the same line."""
    defn = get_variant(name)
    rules = Rules.of(defn, defn.resolve_options(options))
    answers = set()
    for seed in seeds:
        game = Game.new(rules, seed)
        native = solve(game, timeout=None, max_states=2_000, engine="native", guided=False)  # its own pass aside
        python = python_engine.solve(game, timeout=None, max_states=2_000)
        assert native.engine == "native"
        assert (native.result, native.method, native.states) == (python.result, python.method, python.states), seed
        assert native.moves == python.moves, seed
        answers.add((native.result, native.method))
    assert len(answers) == len(seeds), answers  # each deal decided (or not) in its own way


@needs_native
@pytest.mark.parametrize(("name", "options"), [("klondike", {"draw": 3, "redeals": 2}), ("easthaven", {}),
                                               ("freecell", {})])
def test_a_states_budget_means_the_same_in_both_engines(name, options):
    """A pass stores at most ``max_states`` states in either engine (checked on every node,
    not every few hundred), so a budget of one stores one state a pass, not hundreds."""
    defn = get_variant(name)
    game = Game.new(Rules.of(defn, defn.resolve_options(options)), 2)
    for budget in (1, 5, 40):
        native = solve(game, timeout=None, max_states=budget, engine="native", guided=False)
        python = python_engine.solve(game, timeout=None, max_states=budget)
        assert (native.result, native.states) == (python.result, python.states) == (UNKNOWN, python.states)
        assert 0 < python.states <= 4 * budget  # four passes at most: greedy, relaxation, best-first, exact
        guided = solve(game, timeout=None, max_states=budget, engine="native")
        assert guided.result == UNKNOWN and 0 < guided.states <= 5 * budget  # and the core's guided pass


# --------------------------------------------------------------------------- identical cards


def _classes(name: str, **options: Any) -> list[list[int]]:
    """The cards of the game's deal 1 grouped by the core's key (``Core.face``)."""
    rules = Rules.of(get_variant(name), options)
    face = native_engine.core(rules).face
    game = Game.new(rules, 1)
    groups: dict[int, list[int]] = {}
    for card in sorted(c for pile in game.piles for c in pile):
        groups.setdefault(face[card], []).append(card)
    return list(groups.values())


@needs_native
@pytest.mark.parametrize(("name", "options", "sizes"), [
    ("klondike", {}, {1}),          # suits matter to the foundations and colours to the columns
    ("freecell", {}, {1}),
    ("golf", {}, {4}),              # one foundation a rank above or below, regardless of suit
    ("pyramid", {}, {4}),           # pairs that add up to 13
    ("forty-thieves", {}, {2}),     # two decks: each card and its twin
    ("spider", {"suits": 1}, {8}),  # one suit, eight of each rank
])
def test_the_core_keys_alike_the_cards_every_table_treats_alike(name, options, sizes):
    classes = _classes(name, **options)
    assert {len(c) for c in classes} == sizes, classes


@needs_native
def test_a_safe_card_goes_home_from_anywhere_in_the_stock():
    """Klondike draw 1, relaxed, deal 812, lost: with safe cards sent home from anywhere in
    the stock (draw 1, unlimited redeals: docs/solver.md, "Safe moves home") the exact search
    exhausts it within 10,000 states a pass; without, it needs 30,000 a pass (102,908 states
    in all), and this budget answers "unknown". A hint's search leaves the rule out, and
    answers so."""
    game = Game.new(rules_of("klondike", {"relaxed": True, "draw": 1}), 812)
    result = solve(game, timeout=None, max_states=10_000, engine="native")
    assert (result.result, result.method) == (UNWINNABLE, "exact")
    hint = solve(game, timeout=None, max_states=10_000, engine="native", wins_only=True)
    assert hint.result == UNKNOWN


@needs_native
@pytest.mark.parametrize("draw", [1, 3])
def test_cards_that_come_back_are_searched_alike_in_both_engines(draw):
    """Klondike with foundation return: positions of random play that moves cards home more
    often than not (so that cards come back, and take-backs wait for their uses), searched by
    the exact search alone in each engine, store the same states and answer alike: the
    compiled core's shortcut past a take-back with nothing to use it (`take_back_used`)
    leaves out only positions that store nothing."""
    rules = rules_of("klondike", {"relaxed": True, "draw": draw})
    rng = random.Random(draw)
    compared = 0
    for seed in range(1, 6):
        game = Game.new(rules, seed)
        for _ in range(60):
            moves = game.legal_moves()
            if not moves:
                break
            home = [m for m in moves if m[1] in rules.foundation_set]
            game.push(rng.choice(home) if home and rng.random() < 0.7 else rng.choice(moves))
        start = Game.from_position(get_variant("klondike"), game.to_position())
        python = python_engine.solve(start, timeout=None, max_states=2_000, greedy_share=0)
        if python.method == "blocked":
            continue
        native = native_engine.exact(start, max_states=2_000)
        assert (native.result, native.states) == (python.result, python.states), (seed, game.to_position())
        compared += 1
    assert compared >= 3


@needs_native
def test_the_core_takes_back_two_cards_that_wait_for_each_other():
    """tests/test_solver.py's position where the queens of hearts and clubs must both come
    down before the jack of clubs can go onto the first: the compiled core's exact search
    alone wins it too (its shortcut past take-backs with no use sees the other foundation's
    top that the use needs), by the Python engine's line."""
    names = ["stock", "waste", "f1", "f2", "f3", "f4"] + [f"t{i}" for i in range(1, 8)]
    piles: dict[str, dict[str, list[str]]] = {n: {"down": [], "up": []} for n in names}
    ranks = "A23456789TJQK"
    piles["f1"]["up"] = [f"{r}C" for r in ranks[:12]]
    piles["f2"]["up"] = [f"{r}D" for r in ranks[:8]]
    piles["f3"]["up"] = [f"{r}H" for r in ranks[:12]]
    piles["f4"]["up"] = [f"{r}S" for r in ranks[:10]]
    piles["t1"]["up"], piles["t2"]["up"], piles["t4"]["up"], piles["t5"]["up"] = ["KS"], ["KD"], ["KC"], ["KH"]
    piles["t3"] = {"down": ["9D", "JD", "QD", "QS", "JS"], "up": ["TD"]}
    data = {"variant": "klondike", "options": {"draw": 3, "relaxed": True}, "piles": piles}
    start = Game.from_position(get_variant("klondike"), data)
    native = native_engine.exact(start, max_states=20_000)
    python = python_engine.solve(start, timeout=None, max_states=20_000, greedy_share=0)
    assert (native.result, python.result) == (WIN, WIN)
    assert native.states == python.states and native.moves == python.moves
