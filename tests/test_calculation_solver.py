"""The solver on Calculation: the ``solver_knowledge`` plugin, wins that replay, sound proofs.

Knowledge reaches the solver through the plugin registry (the kernel names no game); wins
replay through ``solitaire play calculation --json``; proofs of ``unwinnable`` are checked on
positions built by hand and, for the dead-end rule, against a search without any knowledge.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from typing import Any

import pytest

from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import card_name
from solitaire.core.solver import (
    UNKNOWN,
    UNWINNABLE,
    WIN,
    load_pool,
    pool_path,
    solve,
    variant_knowledge,
)
from solitaire.variants.calculation import CalculationKnowledge

REQUIRED = os.environ.get("SOLITAIRE_REQUIRE_NATIVE") == "1"
RANKS = "A23456789TJQK"
# the budget of every search that must reach a definite answer: states, never seconds, so
# a loaded machine gives the same answers as an idle one
BUDGET = 200_000
STEPS = (1, 2, 3, 4)


@pytest.fixture(scope="module")
def calc():
    return get_variant("calculation")


def sequence(step: int) -> list[str]:
    """The ranks foundation f<step> takes, in order (A = 1 ... K = 13, wrapping)."""
    return [RANKS[(step * (j + 1) - 1) % 13] for j in range(13)]


def end_position(lengths, reserves, stock) -> dict[str, Any]:
    """Foundations f1..f4 holding ``lengths`` cards; the cards they still need are named by
    rank in ``reserves`` (lists, bottom to top) and ``stock`` (in the order drawn)."""
    free = {r: [card_name(c) for c in range(52) if card_name(c)[0] == r] for r in RANKS}
    for start in ("AC", "2C", "3C", "4C"):
        free[start[0]].remove(start)
    piles: dict[str, dict[str, list[str]]] = {}
    for k, length in zip(STEPS, lengths, strict=False):
        up = [f"{'A234'[k - 1]}C"] + [free[r].pop() for r in sequence(k)[1:length]]
        piles[f"f{k}"] = {"down": [], "up": up}
    for i, ranks in enumerate(reserves, 1):
        piles[f"r{i}"] = {"down": [], "up": [free[r].pop() for r in ranks]}
    drawn = [free[r].pop() for r in stock]
    assert not any(free.values()), f"cards not placed: {free}"
    piles["stock"] = {"down": list(reversed(drawn)), "up": []}
    piles["waste"] = {"down": [], "up": []}
    return {"variant": "calculation", "seed": None, "options": {}, "piles": piles}


# f2, f3, f4 finished; f1 needs 5 6 7 8 9 T J Q K, and the last 6 lies on the last 5
DEAD = end_position((4, 13, 13, 13), [["5", "6"], [], [], []], list("789TJQK"))
ALIVE = end_position((4, 13, 13, 13), [["6", "5"], [], [], []], list("789TJQK"))


def calc_knowledge(calc) -> CalculationKnowledge:
    """What the registry gives the solver for Calculation: the plugin's own knowledge."""
    know = variant_knowledge(Rules.of(calc, {}))
    assert isinstance(know, CalculationKnowledge)
    return know


def pool_of(calc) -> list[int]:
    """Calculation's shipped pool of won seeds (the test knows there is one)."""
    path = pool_path(calc, {})
    assert path is not None
    return load_pool(path)


def replay(cli, seed: int, moves: list[str]) -> dict[str, Any]:
    result = cli("play", "calculation", "--seed", str(seed), "--json", input="\n".join(moves) + "\n")
    assert result.code == 0, result.err
    lines = result.json_lines()
    assert len(lines) == len(moves) + 1
    assert [r["error"] for r in lines[1:] if not r["ok"]] == []
    last: dict[str, Any] = lines[-1]
    return last


def test_knowledge_comes_from_the_plugin_registry(calc):
    know = variant_knowledge(Rules.of(calc, {}))
    assert type(know).__module__ == "solitaire.variants.calculation"
    for method in ("safe_home", "priority", "key", "dead", "heuristic", "prune", "search"):
        assert callable(getattr(know, method))
    assert not isinstance(variant_knowledge(Rules.of(get_variant("klondike"), {})), type(know))


def test_pool_seeds_solve_and_replay_to_a_win(cli, calc):
    pool = pool_of(calc)
    assert len(pool) >= 20
    for seed in random.Random(3).sample(pool, 3):
        out = cli("solve", "calculation", "--seed", str(seed), "--states", str(BUDGET), "--json")
        assert out.code == 0, out.err
        answer = json.loads(out.out)
        assert answer["result"] == WIN
        last = replay(cli, seed, answer["moves"])
        assert last["won"] and last["score"] == 48


def test_hand_built_dead_end_is_proved_unwinnable(cli, calc, tmp_path):
    path = tmp_path / "dead.json"
    path.write_text(json.dumps(DEAD))
    out = cli("solve", "calculation", "--position", str(path), "--states", str(BUDGET), "--json")
    assert out.code == 0, out.err
    assert json.loads(out.out)["result"] == UNWINNABLE
    know = calc_knowledge(calc)
    assert know.dead(Game.from_position(calc, DEAD))
    # the same cards with the 5 on top of the 6 are won, and the dead-end rule agrees
    assert not know.dead(Game.from_position(calc, ALIVE))
    assert solve(Game.from_position(calc, ALIVE), timeout=None, max_states=BUDGET).result == WIN


def test_dead_end_needs_every_copy_under_the_card(calc):
    # f1 and f2 both still need a 6 before their 7s... here a second 6 is in the stock, so
    # the 6 on top of r1's 5 is not stuck: no proof of a loss
    know = calc_knowledge(calc)
    pos = end_position((4, 2, 13, 13), [["5", "6"], [], [], []], list("6789TJQK") + list("8TQA3579JK"))
    assert not know.dead(Game.from_position(calc, pos))


def random_end(rng: random.Random) -> dict[str, Any]:
    lengths = [rng.randint(9, 13) for _ in STEPS]
    cards = [r for k, length in zip(STEPS, lengths, strict=False) for r in sequence(k)[length:]]
    rng.shuffle(cards)
    reserves: list[list[str]] = [[], [], [], []]
    stock = []
    for r in cards:
        if rng.random() < 0.6:
            reserves[rng.randrange(4)].append(r)
        else:
            stock.append(r)
    return end_position(lengths, reserves, stock)


def test_knowledge_agrees_with_a_search_without_it(calc):
    """Key by ranks, safe moves home and the dead-end rule never change an answer."""
    rng = random.Random(2026)
    seen = {WIN: 0, UNWINNABLE: 0}
    for _ in range(60):
        data = random_end(rng)
        with_it = solve(Game.from_position(calc, data), timeout=None, max_states=BUDGET).result
        without = solve(Game.from_position(calc, data), timeout=None, max_states=BUDGET,
                        knowledge=object()).result
        assert with_it == without
        seen[with_it] += 1
    assert seen[WIN] and seen[UNWINNABLE]  # both answers were exercised


def test_play_without_seed_deals_a_pool_seed(cli, calc):
    out = cli("play", "calculation", "--new", "--json", input="quit\n")
    assert out.code == 0, out.err
    assert out.json_lines()[0]["position"]["seed"] in pool_of(calc)


def ranks_of(data: dict[str, Any]) -> tuple[list[int], list[list[int]], list[int]]:
    """A position as the dedicated search takes it: foundation lengths, reserves, the draws."""
    calc = get_variant("calculation")
    g = Game.from_position(calc, data)
    know = calc_knowledge(calc)
    cards = [c % 13 for c in g.piles[know.waste] + g.piles[know.stock][::-1]]
    return [len(g.piles[f]) for f in know.found], [[c % 13 for c in g.piles[r]] for r in know.reserves], cards


def exact_search(data: dict[str, Any], native: bool = False) -> tuple[str, list[Any], int]:
    """The plugin's exhaustive search alone (no beam), in Python or compiled: its answer
    (WIN or UNWINNABLE, no budget), its path and the positions it stored."""
    from solitaire.variants.calculation.search import exact

    lengths, reserves, cards = ranks_of(data)
    return exact(lengths, reserves, cards, float("inf"), 10**9, native=native)


def compiled() -> bool:
    """Whether the compiled search is installed; a failure instead of a skip in CI."""
    from solitaire.variants.calculation import search

    if not search.installed():
        assert not REQUIRED, "SOLITAIRE_REQUIRE_NATIVE=1 but solitaire.variants.calculation._search does not import"
        pytest.skip("the compiled Calculation search is not installed")
    return True


def compiled_or_none() -> bool:
    """Whether the compiled search is installed (a failure when CI requires it)."""
    from solitaire.variants.calculation import search

    assert search.installed() or not REQUIRED, "SOLITAIRE_REQUIRE_NATIVE=1 but the compiled search does not import"
    return search.installed()


def test_exact_search_pruning_agrees_with_a_search_without_it(calc):
    """The dedicated search's pruning (stuck cards, the free-stock relaxation at every card
    parked, forced last copies) never changes an answer, in Python and compiled: compared
    with the generic search without knowledge."""
    native = [False, True] if compiled_or_none() else [False]
    rng = random.Random(77)
    seen = {True: 0, False: 0}
    for _ in range(40):
        data = random_end(rng)
        answers = {exact_search(data, engine)[0] for engine in native}
        assert len(answers) == 1
        won = answers.pop() == WIN
        without = solve(Game.from_position(calc, data), timeout=None, max_states=BUDGET,
                        knowledge=object()).result
        if without == UNKNOWN:  # beyond the reference's states budget: nothing to compare
            continue
        assert (WIN if won else UNWINNABLE) == without
        seen[won] += 1
    assert seen[True] and seen[False] and seen[True] + seen[False] >= 35


def test_relaxation_failing_is_a_proof(calc):
    """Whenever the free-stock relaxation says the reserves can never be cleared, the
    position is lost; and it catches losses the single-card rule does not."""
    from solitaire.variants.calculation.search import Search

    rng = random.Random(5)
    know = calc_knowledge(calc)
    proofs = beyond = 0
    for _ in range(300):
        data = random_end(rng)
        g = Game.from_position(calc, data)
        relaxed = Search([len(g.piles[f]) for f in know.found],
                         [[c % 13 for c in g.piles[r]] for r in know.reserves], [], float("inf"), 10**9)
        if relaxed.relaxed_ok(budget=10**6):
            continue
        proofs += 1
        assert solve(Game.from_position(calc, data), timeout=None, max_states=BUDGET,
                     knowledge=object()).result == UNWINNABLE
        beyond += not know.dead(g)
    assert proofs and beyond


def test_the_relaxations_shared_answers_are_a_fresh_checks(calc):
    """The relaxation's table of answers, shared by every check of one search, answers as a
    check with a table of its own: along random lines of play from random deals, each check
    equals a fresh search's, and the table spares part of the work."""
    from solitaire.variants.calculation.search import SEQ, Search

    rng = random.Random(8)
    rules = Rules.of(calc, {})
    checks = {True: 0, False: 0}
    spared = 0
    for seed in range(1, 9):
        lengths, reserves, cards = ranks_of(Game.new(rules, seed).to_position())
        shared = Search(lengths, reserves, [], float("inf"), 10**9)
        for c in cards:
            homes = [(j, k) for j in range(4) for k in range(4)
                     if shared.R[j] and SEQ[k][shared.L[k]] == shared.R[j][-1]]
            if homes and rng.random() < 0.7:
                shared.home(*rng.choice(homes))
            fits = [k for k in range(4) if SEQ[k][shared.L[k]] == c]
            if fits and rng.random() < 0.5:
                shared.L[fits[0]] += 1
                shared.remaining[c] -= 1
                continue
            shared.R[rng.randrange(4)].append(c)
            before = len(shared.relax_memo)
            ok = shared.relaxed_ok(budget=10**6)
            fresh = Search(shared.L, shared.R, [], float("inf"), 10**9)
            assert fresh.relaxed_ok(budget=10**6) == ok, (shared.L, shared.R)
            spared += len(shared.relax_memo) - before < len(fresh.relax_memo)
            checks[ok] += 1
            if not ok:
                break
    assert checks[True] > 50 and checks[False] >= 3 and spared > 10, (checks, spared)


def test_the_relaxations_work_stops_the_exact_search_alike_in_both_engines(calc):
    """Deal 3 after 40 random moves: the relaxation's checks run out of their budget one after
    another, and their work (RELAX_WORK a state of the budget) stops the exact search long
    before its 2,000 states, with no answer, at the same count in both engines."""
    from solitaire.variants.calculation.search import exact

    game = Game.new(Rules.of(calc, {}), 3)
    rng = random.Random(3)
    for _ in range(40):
        game.play(rng.choice(game.legal_moves()))
    lengths, reserves, cards = ranks_of(game.to_position())
    python = exact(lengths, reserves, cards, float("inf"), 2000, native=False)
    assert python[0] == UNKNOWN and python[2] < 1000, python[::2]
    if compiled_or_none():
        assert exact(lengths, reserves, cards, float("inf"), 2000, native=True) == python


def test_a_work_bound_stops_the_exact_search_alike_in_both_engines(calc):
    """``max_work`` (a hint's bound: the positions the search and its relaxation checks reach
    together) stops the exact search sooner than its 2,000 states would, with no answer, the
    sooner the smaller it is, at the same count of positions stored in both engines; a bound
    the search stays under changes nothing (deal 3 is won in 68 states at any bound from
    10,000 on)."""
    from solitaire.variants.calculation.search import exact

    def ranks(seed: int, moves: int) -> tuple[list[int], list[list[int]], list[int]]:
        game = Game.new(Rules.of(calc, {}), seed)
        rng = random.Random(seed)
        for _ in range(moves):
            game.play(rng.choice(game.legal_moves()))
        return ranks_of(game.to_position())

    played = ranks(3, 15)
    stored = []
    for work in (2000, 10_000):
        answer = exact(*played, float("inf"), 2000, native=False, max_work=work)
        assert answer[0] == UNKNOWN
        stored.append(answer[2])
        if compiled_or_none():
            assert exact(*played, float("inf"), 2000, native=True, max_work=work) == answer, work
    assert stored[0] < stored[1] < 2000, stored
    whole = ranks(3, 0)
    won = exact(*whole, float("inf"), 2000, native=False)
    assert won[0] == WIN and exact(*whole, float("inf"), 2000, native=False, max_work=10_000) == won
    assert exact(*whole, float("inf"), 2000, native=False, max_work=2000)[0] == UNKNOWN
    if compiled_or_none():
        assert exact(*whole, float("inf"), 2000, native=True, max_work=10_000) == won
        assert exact(*whole, float("inf"), 2000, native=True) == won
        assert exact(*played, float("inf"), 2000, native=True)[2] > stored[1]


def test_a_hints_work_bound_narrows_the_beam_alike_in_both_engines(calc, monkeypatch):
    """A hint's guess reaches Calculation's own search with the hint's work bound: its beam
    widens no more once its rounds have reached that many positions, so the guess stores
    far fewer; the answer is never a proof the unbounded search would not make, and both
    engines store the same count."""
    from solitaire.core.solver.native import solve as front_door

    game = Game.new(Rules.of(calc, {}), 1)
    rng = random.Random(1040)
    for _ in range(40):
        game.play(rng.choice(game.legal_moves()))
    free = front_door(game, timeout=None, max_states=2000)
    bound = front_door(game, timeout=None, max_states=2000, max_work=24_000)
    assert free.method in ("variant", "") and bound.states < free.states / 2, (bound.states, free.states)
    assert bound.result == free.result or bound.result == UNKNOWN
    if compiled_or_none():
        monkeypatch.setenv("SOLITAIRE_ENGINE", "python")
        again = front_door(game, timeout=None, max_states=2000, max_work=24_000)
        assert (again.result, again.states) == (bound.result, bound.states)


def test_both_searches_share_their_constants():
    compiled()
    from solitaire.variants.calculation import _search, search

    assert (_search.RELAX_BUDGET, _search.RELAX_MEMO, _search.RELAX_WORK) == (
        search.RELAX_BUDGET, search.RELAX_MEMO, search.RELAX_WORK)


@pytest.mark.parametrize("seed", [97, 123])
def test_beam_estimates_win_with_a_small_states_budget(calc, seed):
    """Deals the first estimate alone could not win within 10 s are won by the beam's other
    estimates at widths of 25 and 75 (a states budget, no clock), and the moves replay."""
    rules = Rules.of(calc, {})
    result = solve(Game.new(rules, seed), timeout=None, max_states=100)
    assert result.result == WIN and result.method == "variant"
    game = Game.new(rules, seed)
    for move in result.moves:
        game.play(move)
    assert game.won and game.score == 48


def test_the_compiled_search_is_the_pythons_move_for_move(calc):
    """The compiled exhaustive search makes the Python one's moves in the same order: the
    same answer, the same line and the same count of positions stored, on positions near the
    end (no budget) and on whole deals stopped by a states budget or won within it."""
    compiled()
    rng = random.Random(31)
    answers = set()
    for _ in range(30):
        data = random_end(rng)
        python, native = exact_search(data, native=False), exact_search(data, native=True)
        assert native == python
        answers.add(native[0])
    assert answers == {WIN, UNWINNABLE}
    from solitaire.variants.calculation.search import exact

    rules = Rules.of(calc, {})
    # deal 7 at 700 states fills the relaxation's table and empties it once; a budget of 30
    # positions a check runs out, so some checks give no answer: the same states either way
    for seed, states, relax in ((1, 600, None), (2, 600, None), (51, 600, None), (56, 600, None), (7, 700, None),
                                (40, 1500, 30), (56, 1500, 30)):
        lengths, reserves, cards = ranks_of(Game.new(rules, seed).to_position())
        budget = {} if relax is None else {"relax_budget": relax}
        python = exact(lengths, reserves, cards, float("inf"), states, native=False, **budget)
        native = exact(lengths, reserves, cards, float("inf"), states, native=True, **budget)
        assert native == python, seed
        answers.add(native[0])
    assert UNKNOWN in answers


def test_the_compiled_beam_is_the_pythons_level_for_level(calc):
    """The compiled beam keeps the Python one's positions in the same order: the same line
    (or none), the same cut and the same count of positions stored, for every estimate, on
    whole deals at several widths and on positions near the end."""
    compiled()
    from solitaire.variants.calculation.search import run_beam

    rules = Rules.of(calc, {})
    found = set()
    for seed, width in ((1, 25), (40, 75), (5, 25), (38, 225)):
        lengths, reserves, cards = ranks_of(Game.new(rules, seed).to_position())
        for kind in (0, 1, 2):
            python = run_beam(lengths, reserves, cards, width, float("inf"), kind, native=False)
            native = run_beam(lengths, reserves, cards, width, float("inf"), kind, native=True)
            assert native == python, (seed, width, kind)
            found.add(native.path is not None)
    rng = random.Random(12)
    for _ in range(30):
        lengths, reserves, cards = ranks_of(random_end(rng))
        kind, width = rng.randrange(3), rng.choice((2, 5, 25))
        python = run_beam(lengths, reserves, cards, width, float("inf"), kind, native=False)
        assert run_beam(lengths, reserves, cards, width, float("inf"), kind, native=True) == python
        found.add(python.path is not None)
    assert found == {True, False}


def test_the_compiled_search_refuses_a_malformed_position():
    compiled()
    from solitaire.variants.calculation import _search

    empty: list[list[int]] = [[], [], [], []]
    for lengths, reserves, cards in (([1, 1, 1], empty, []), ([1] * 4, empty, [13]), ([14, 1, 1, 1], empty, [])):
        with pytest.raises(ValueError):
            _search.exact(lengths, reserves, cards, 100)
    with pytest.raises(ValueError, match="seconds"):
        _search.exact([1] * 4, [[], [], [], []], [], 100, -1.0)
    with pytest.raises(ValueError, match="kind"):
        _search.beam([1] * 4, empty, [], 25, None, 3)
    for lengths, reserves, cards in (([1, 1, 1], empty, []), ([1] * 4, empty, [13]), ([1] * 4, empty, [0] * 53)):
        with pytest.raises(ValueError):
            _search.beam(lengths, reserves, cards, 25)


def test_solve_uses_the_compiled_search_unless_python_is_asked_for(calc, monkeypatch):
    """``SOLITAIRE_ENGINE=python`` runs the reference search: the same answer either way."""
    compiled()
    from solitaire.variants.calculation import search

    assert search.native_search()
    answer = solve(Game.new(Rules.of(calc, {}), 56), timeout=None, max_states=2000)
    monkeypatch.setenv("SOLITAIRE_ENGINE", "python")
    assert not search.native_search()
    again = solve(Game.new(Rules.of(calc, {}), 56), timeout=None, max_states=2000)
    assert (again.result, again.states, again.moves) == (answer.result, answer.states, answer.moves)


def test_asking_solve_for_python_runs_the_plugins_python_search(calc, monkeypatch):
    """``solve(engine="python")`` runs Calculation's own search in its Python reference too,
    as ``SOLITAIRE_ENGINE=python`` does, with the same answer; only in that call (the
    next default solve is compiled again), and a hint asked for in Python likewise."""
    compiled()
    from solitaire.core.solver.native import forced_python
    from solitaire.core.solver.native import solve as front_door
    from solitaire.core.solver.player import player_hint
    from solitaire.variants.calculation import search

    calls: list[str] = []
    for name in ("_beam", "_exact"):
        real = getattr(search, name)

        def spy(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(search, name, spy)
    game = Game.new(Rules.of(calc, {}), 56)
    python = front_door(game, timeout=None, max_states=2000, engine="python")
    assert calls == [] and python.engine == "python" and not forced_python()
    compiled_answer = front_door(game, timeout=None, max_states=2000)
    assert calls, "the default solve runs the compiled search"
    assert (python.result, python.states, python.moves) == (
        compiled_answer.result, compiled_answer.states, compiled_answer.moves)
    calls.clear()
    assert player_hint(game, engine="python", threads=1)[0] is not None and calls == []


# ---------------------------------------------------------------------- issue: hint crashed

# seed 344, 45 moves in: every drawn card parked on r1, so r1 holds a card that can never
# come off (its rank's every remaining copy lies under it): the dedicated search's proof
# is found before any beam runs, which once left its state count unset
STUCK_MOVES = ["draw", "w r1"] * 22 + ["draw"]


def fresh_cli(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
    """The CLI in a new interpreter: nothing left over from an earlier search in this one."""
    return subprocess.run([sys.executable, "-m", "solitaire.cli", *args], input=input,
                          capture_output=True, text=True, timeout=600)


def stuck_game(calc) -> Game:
    game = Game.new(Rules.of(calc, {}), 344)
    for move in STUCK_MOVES:
        game.play(move)
    return game


def test_the_stuck_position_is_proved_lost_with_its_states_counted(calc):
    from solitaire.core.solver import SearchOutcome
    from solitaire.variants.calculation import search

    game = stuck_game(calc)
    know = calc_knowledge(calc)
    outcome = know.search(game, float("inf"), 1000)
    assert isinstance(outcome, SearchOutcome)
    assert outcome.result == UNWINNABLE and outcome.moves == () and outcome.states == 0
    assert not hasattr(search.search, "states") and not hasattr(search.beam, "states")
    assert solve(game, timeout=None, max_states=1000).result == UNWINNABLE


def test_hint_on_the_stuck_position_in_line_mode():
    out = fresh_cli("play", "calculation", "--seed", "344", "--plain",
                    input="\n".join(STUCK_MOVES) + "\nhint\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert re.search(r"^hint: (w f\d|no useful move)$", out.stdout, re.M), out.stdout[-400:]


def test_hint_on_the_stuck_position_in_the_json_protocol(calc):
    out = fresh_cli("play", "calculation", "--seed", "344", "--json",
                    input="\n".join(STUCK_MOVES) + "\nhint\nquit\n")
    assert out.returncode == 0, out.stderr
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    assert all(r["ok"] for r in replies[1:len(STUCK_MOVES) + 1])
    reply = replies[len(STUCK_MOVES) + 1]
    assert reply["ok"] and "hint" in reply
    game = stuck_game(calc)
    assert reply["hint"] is None or game.parse_move(reply["hint"]) in game.legal_moves()


def test_solve_hint_on_the_stuck_position(calc, tmp_path):
    path = tmp_path / "stuck.json"
    path.write_text(json.dumps(stuck_game(calc).to_position()))
    out = fresh_cli("solve", "calculation", "--position", str(path), "--hint", "--json")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert set(answer) == {"hint", "won_guesses"} and answer["won_guesses"] == 0
    out = fresh_cli("solve", "calculation", "--position", str(path), "--states", "1000", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["result"] == UNWINNABLE
