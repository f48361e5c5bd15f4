"""The solver: wins that replay through the real CLI, proofs only when exhaustive, budgets."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, get_variant, hookimpl
from solitaire.core.plugins import build_registry
from solitaire.core.solver import (
    UNKNOWN,
    UNWINNABLE,
    WIN,
    Knowledge,
    SearchOutcome,
    load_pool,
    options_slug,
    parse_range,
    pool_path,
    solve,
    variant_knowledge,
    winnable_seed,
)


@pytest.fixture(autouse=True)
def python_engine(monkeypatch):
    """These tests are of the Python engine (its passes, their names, its budgets); the
    compiled core has its own in tests/test_native.py."""
    monkeypatch.setenv("SOLITAIRE_ENGINE", "python")


SUITS = "CDHS"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]

# the budget of every search that must reach a definite answer: states, never seconds, so
# a loaded machine gives the same answers as an idle one
BUDGET = 300_000


def name(rank: int, suit: str) -> str:
    return f"{RANKS[rank - 1]}{suit}"


def position(piles: dict[str, dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Klondike position: ``piles`` given, every other pile empty."""
    names = ["stock", "waste", "f1", "f2", "f3", "f4"] + [f"t{i}" for i in range(1, 8)]
    full: dict[str, dict[str, list[str]]] = {n: {"down": [], "up": []} for n in names}
    for n, p in piles.items():
        full[n] = {"down": list(p.get("down", [])), "up": list(p.get("up", []))}
    return {"variant": "klondike", "options": options or {}, "piles": full}


def home(*suits: str) -> dict[str, dict[str, Any]]:
    """Foundations f1.. holding the whole of each suit given."""
    return {f"f{i + 1}": {"up": [name(r, s) for r in range(1, 14)]} for i, s in enumerate(suits)}


def pool_of(klondike, options: dict[str, Any]) -> list[int]:
    """The shipped pool of won seeds for these options (the test knows there is one)."""
    path = pool_path(klondike, options)
    assert path is not None, options
    return load_pool(path)


def replay(cli, seed: int, moves: list[str], *options: str) -> dict[str, Any]:
    """Play the moves through `solitaire play --json`; every reply ok; return the last state."""
    result = cli("play", "klondike", "--seed", str(seed), *options, "--json", input="\n".join(moves) + "\n")
    assert result.code == 0, result.err
    lines = result.json_lines()
    assert len(lines) == len(moves) + 1
    bad = [(m, r["error"]) for m, r in zip(moves, lines[1:], strict=True) if not r["ok"]]
    assert not bad
    last: dict[str, Any] = lines[-1]
    return last


@pytest.mark.parametrize("options, seeds", [((), (2, 6, 9)), (("--draw", "3"), (6, 7, 8))])
def test_cli_wins_replay_to_a_win(cli, options, seeds):
    for seed in seeds:
        out = cli("solve", "klondike", "--seed", str(seed), *options, "--states", str(BUDGET), "--json")
        assert out.code == 0, out.err
        answer = json.loads(out.out)
        assert answer["result"] == WIN
        assert replay(cli, seed, answer["moves"], *options)["won"] is True


@pytest.mark.parametrize("options, seed", [({"relaxed": True}, 2), ({"relaxed": True}, 4),
                                           ({"redeals": 2}, 5), ({"redeals": 2}, 8),
                                           ({"draw": 3, "redeals": 1}, 7), ({"draw": 3, "redeals": 1}, 9)])
def test_wins_under_other_options_replay(cli, options, seed):
    rules = Rules.of(get_variant("klondike"), options)
    flags = []
    for key, value in options.items():
        flags += [f"--{key}"] if value is True else [f"--{key}", str(value)]
    result = solve(Game.new(rules, seed), timeout=None, max_states=BUDGET)
    assert result.result == WIN
    assert replay(cli, seed, list(result.moves), *flags)["won"] is True


def stuck_hearts(redeals) -> dict[str, Any]:
    """Hearts come from the stock as 2, 3, A, 4, ..., K with every black card home: with no
    redeal the 3 buries the 2 for ever; with a redeal it is easy."""
    order = [2, 3, 1, *range(4, 14)]  # the order they are drawn
    stock = [name(r, "H") for r in reversed(order)]  # bottom to top: the last is drawn first
    return position({**home("C", "D", "S"), "stock": {"down": stock}}, {"redeals": redeals})


def test_needs_a_redeal_is_proved_unwinnable_without_one(klondike):
    result = solve(Game.from_position(klondike, stuck_hearts(0)), timeout=None, max_states=BUDGET)
    assert result.result == UNWINNABLE
    assert result.moves == ()
    assert result.states > 1  # decided by search, not by a shortcut


def test_same_position_with_redeals_is_won(klondike):
    game = Game.from_position(klondike, stuck_hearts(None))
    result = solve(game, timeout=None, max_states=BUDGET)
    assert result.result == WIN
    for move in result.moves:
        game.play(move)
    assert game.won


def test_card_buried_under_its_successor_is_unwinnable(klondike):
    # every red card and the clubs are home; the 2 of spades sits face down on the ace...
    # no: the ace sits face down under the 2, which can go nowhere (the red 3s are home)
    data = position({**home("C", "D", "H"),
                     "t1": {"down": ["AS"], "up": ["2S"]},
                     "stock": {"down": [name(r, "S") for r in range(13, 2, -1)]}})
    assert solve(Game.from_position(klondike, data), timeout=None, max_states=BUDGET).result == UNWINNABLE


def test_relaxed_rules_can_rescue_the_buried_card(klondike):
    # the same kind of block, but a red 3 may come back down from its foundation to take the 2
    data = position({**home("C", "D", "H"),
                     "t1": {"down": ["AS"], "up": ["2S"]},
                     "stock": {"down": [name(r, "S") for r in range(13, 2, -1)]}},
                    {"relaxed": True})
    game = Game.from_position(klondike, data)
    result = solve(game, timeout=None, max_states=BUDGET)
    assert result.result == WIN
    for move in result.moves:
        game.play(move)
    assert game.won


def won_by_solver(klondike, data: dict[str, Any]) -> bool:
    game = Game.from_position(klondike, data)
    result = solve(game, timeout=None, max_states=BUDGET)
    for move in result.moves:
        game.play(move)
    return result.result == WIN and game.won


def test_take_backs_that_wait_for_each_other_are_both_tried(klondike):
    # KH and KS must both come down to empty columns before QS can go onto KH (then JD onto
    # QS frees the 10 of clubs, and so on): each take-back is used only after the other
    data = position({"f1": {"up": [name(r, "C") for r in range(1, 10)]},
                     "f2": {"up": [name(r, "D") for r in range(1, 7)]},
                     "f3": {"up": [name(r, "H") for r in range(1, 14)]},
                     "f4": {"up": [name(r, "S") for r in range(1, 14)]},
                     "t1": {"down": ["KC", "TD", "QC", "KD", "8D"], "up": ["9D"]},
                     "t2": {"up": ["7D"]}, "t3": {"down": ["TC"], "up": ["JD"]},
                     "t4": {"down": ["QD"], "up": ["JC"]}},
                    {"draw": 3, "relaxed": True})
    assert won_by_solver(klondike, data)


def test_take_backs_onto_face_up_cards_that_wait_for_each_other_are_both_tried(klondike):
    # the 10 of diamonds must go onto the jack of clubs to free the cards under it; that jack
    # lies under the queen of clubs on its foundation and needs a red queen on the tableau:
    # the queen of hearts, home. Each of the two queens, taken back onto a king, can be used
    # only once the other has come down too (the jack under the queen of clubs onto the
    # queen of hearts; the jack of hearts has nowhere to go but onto the queen of clubs), so
    # a take-back is also used by another foundation's top coming down that one of its uses
    # needs. A card that can come back goes home at once otherwise, so without that, this
    # won position would be called lost.
    data = position({"f1": {"up": [name(r, "C") for r in range(1, 13)]},
                     "f2": {"up": [name(r, "D") for r in range(1, 9)]},
                     "f3": {"up": [name(r, "H") for r in range(1, 13)]},
                     "f4": {"up": [name(r, "S") for r in range(1, 11)]},
                     "t1": {"up": ["KS"]}, "t2": {"up": ["KD"]},
                     "t3": {"down": ["9D", "JD", "QD", "QS", "JS"], "up": ["TD"]},
                     "t4": {"up": ["KC"]}, "t5": {"up": ["KH"]}},
                    {"draw": 3, "relaxed": True})
    assert won_by_solver(klondike, data)
    result = solve(Game.from_position(klondike, data), timeout=None, max_states=BUDGET, greedy_share=0)
    assert (result.result, result.method) == (WIN, "exact")
    assert list(result.moves[:3]) == ["f3 t1", "f1 t2", "f1 t1"]  # both queens down, then the jack


def test_cards_off_an_unbuilt_face_up_card_are_moved(klondike):
    # the face-up 10 of clubs is not built on the king under it, so the jack on it must go
    # (onto the queen the first move turns up) before the 10 can
    data = position({"f1": {"up": [name(r, "C") for r in range(1, 9)]},
                     "f2": {"up": [name(r, "D") for r in range(1, 11)]},
                     **{k: v for k, v in home("C", "D", "H", "S").items() if k in ("f3", "f4")},
                     "t1": {"down": ["JC", "QC"], "up": ["QD"]},
                     "t3": {"down": ["9C"], "up": ["KD", "TC", "JD"]},
                     "t4": {"up": ["KC"]}})
    assert won_by_solver(klondike, data)


def test_stock_cards_wait_until_used_and_the_proof_is_quick():
    # draw 1, unlimited redeals: any stock card can be played at any time, so one is put on
    # the tableau only when a card can go onto it next; this deal is then proved lost
    # in a few thousand positions (before: not within 430,000)
    rules = Rules.of(get_variant("klondike"), {"relaxed": True})
    result = solve(Game.new(rules, 645351751), timeout=None, max_states=20_000, greedy_share=0)
    assert result.result == UNWINNABLE


@pytest.mark.parametrize("options", [{"draw": 3}, {"redeals": 0}])
def test_lost_with_every_stock_card_free_is_lost_under_stricter_rules(options):
    # the same deal with draw 3, or without redeals, is proved lost through draw 1 with
    # unlimited redeals (where every stock card is free), not by its own exhaustive search
    rules = Rules.of(get_variant("klondike"), {"relaxed": True, **options})
    result = solve(Game.new(rules, 645351751), timeout=None, max_states=5_000)
    assert (result.result, result.method) == (UNWINNABLE, "relaxation")


def test_a_loss_that_needs_the_stricter_rules_is_not_the_relaxations(klondike):
    # lost only because there is no redeal: draw 1 with redeals wins it, so the search of
    # the real rules has to decide (the greedy pass, which cuts no move of this position and
    # so is that search: docs/solver.md, "A portfolio")
    result = solve(Game.from_position(klondike, stuck_hearts(0)), timeout=None, max_states=BUDGET)
    assert (result.result, result.method) == (UNWINNABLE, "greedy")


def test_tiny_budget_answers_unknown():
    rules = Rules.of(get_variant("klondike"), {})
    result = solve(Game.new(rules, 0), timeout=1e-6, max_states=1)
    assert result.result == UNKNOWN
    assert result.moves == ()


def test_solver_leaves_the_game_untouched():
    game = Game.new(Rules.of(get_variant("klondike"), {}), 2)
    before = game.to_position()
    solve(game, timeout=None, max_states=BUDGET)
    assert game.to_position() == before
    assert game.history == []


def test_cli_json_shape_and_text(cli):
    out = cli("solve", "klondike", "--seed", "0", "--timeout", "0.05", "--json")
    assert out.code == 0
    answer = json.loads(out.out)
    assert set(answer) >= {"result", "moves", "seconds", "states"}
    assert answer["result"] in (WIN, UNWINNABLE, UNKNOWN)
    assert isinstance(answer["seconds"], float) and isinstance(answer["states"], int)
    text = cli("solve", "klondike", "--seed", "2", "--states", str(BUDGET))
    assert text.code == 0 and text.out.startswith("win in ")


def test_cli_solves_a_position_file(cli, tmp_path, klondike):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(stuck_hearts(0)))
    out = cli("solve", "klondike", "--position", str(path), "--states", str(BUDGET), "--json")
    assert out.code == 0, out.err
    assert json.loads(out.out)["result"] == UNWINNABLE
    out = cli("solve", "klondike", "--position", str(path), "--redeals", "unlimited", "--states", str(BUDGET),
              "--json")
    assert json.loads(out.out)["result"] == WIN


@pytest.mark.parametrize("args, words", [
    (("solve", "klondike"), "--seed"),
    (("solve", "nosuchgame", "--seed", "1"), "unknown variant"),
    (("solve", "klondike", "--seed", "1", "--timeout", "0"), "--timeout"),
    (("solve", "klondike", "--seed", "1", "--draw", "2"), "draw"),
    (("solve", "klondike", "--seeds", "9..3"), "A..B"),
    (("solve", "klondike", "--seeds", "1..3", "--seed", "2"), "one of"),
    (("solve", "klondike", "--seed", "1", "--position", "x.json"), "not both"),
    (("solve", "klondike", "--position", "/no/such/file.json"), "no such file"),
])
def test_cli_bad_input_is_one_line_exit_2(cli, args, words):
    out = cli(*args)
    assert out.code == 2
    assert out.out == ""
    assert len(out.err.strip().splitlines()) == 1
    assert words in out.err


def test_batch_prints_a_line_per_deal_and_a_summary(cli):
    out = cli("solve", "klondike", "--seeds", "5..7", "--states", "20000")
    assert out.code == 0, out.err
    lines = out.json_lines()
    assert [r["seed"] for r in lines[:-1]] == [5, 6, 7]
    summary = lines[-1]
    assert summary["deals"] == 3
    total = sum(summary[k]["count"] for k in (WIN, UNWINNABLE, UNKNOWN))
    assert total == 3
    assert summary[WIN]["count"] == sum(r["result"] == WIN for r in lines[:-1])
    lo, hi = summary[WIN]["ci95"]
    assert 0 <= lo <= summary[WIN]["percent"] <= hi <= 100


def test_parse_range():
    assert parse_range("3..5") == range(3, 6)
    for bad in ("5..3", "3", "a..b", "3..", "-1..2"):
        with pytest.raises(ValueError):
            parse_range(bad)


def test_options_slug_names_the_pool(klondike):
    assert options_slug(klondike, {}) == "default"
    assert options_slug(klondike, {"draw": 1}) == "default"
    assert options_slug(klondike, {"draw": 3}) == "draw-3"


@pytest.mark.parametrize("options", [{}, {"draw": 3}])
def test_shipped_pools_hold_won_seeds(klondike, options):
    pool = pool_of(klondike, options)
    assert len(pool) >= 100
    rules = Rules.of(klondike, options)
    for seed in random.Random(4).sample(pool, 3):
        assert solve(Game.new(rules, seed), timeout=None, max_states=BUDGET).result == WIN


def test_winnable_seed_comes_from_the_pool_or_is_solved(klondike):
    rng = random.Random(7)
    seed, proved = winnable_seed(klondike, {}, rng)
    assert proved and seed in pool_of(klondike, {})
    # options with no shipped pool: solved live within the bound
    seed, proved = winnable_seed(klondike, {"redeals": 3, "relaxed": True}, rng, bound=20)
    assert proved
    assert solve(Game.new(Rules.of(klondike, {"redeals": 3, "relaxed": True}), seed),
                 timeout=None, max_states=BUDGET).result == WIN


def test_play_without_seed_deals_a_won_seed(cli, klondike):
    for options, slug in (((), {}), (("--draw", "3"), {"draw": 3})):
        out = cli("play", "klondike", "--new", *options, "--json", input="quit\n")
        assert out.code == 0, out.err
        seed = out.json_lines()[0]["position"]["seed"]
        assert seed in pool_of(klondike, slug)


def test_play_any_deal_and_seed_skip_the_pool(cli, klondike):
    pool = set(pool_of(klondike, {}))
    seeds = set()
    for _ in range(3):
        out = cli("play", "klondike", "--new", "--any-deal", "--json", input="quit\n")
        assert out.code == 0, out.err
        seeds.add(out.json_lines()[0]["position"]["seed"])
    assert not seeds <= pool
    out = cli("play", "klondike", "--seed", "3", "--json", input="quit\n")
    assert out.json_lines()[0]["position"]["seed"] == 3


class Counting:
    """Variant knowledge that records what the solver asks."""

    def __init__(self) -> None:
        self.asked: list[Any] = []

    def safe_home(self, game, move):
        self.asked.append(move)
        return False

    def priority(self, game, move):
        return 0


def test_variant_knowledge_is_consulted_and_keeps_the_answer(klondike):
    know = Counting()
    game = Game.new(Rules.of(klondike, {}), 2)
    result = solve(game, timeout=None, max_states=BUDGET, knowledge=know)
    assert result.result == WIN
    assert know.asked and all(move[1] in game.rules.foundations for move in know.asked)
    assert solve(Game.from_position(klondike, stuck_hearts(0)), timeout=None, max_states=BUDGET,
                 knowledge=Counting()).result == UNWINNABLE


class OwnSearch:
    """Variant knowledge with its own search, which only notes the deadline it was given."""

    def __init__(self, share: object = None) -> None:
        if share is not None:
            self.search_share = share
        self.deadline: float | None = None
        self.called: float | None = None

    def search(self, game: Game, deadline: float, max_states: int) -> SearchOutcome:
        self.deadline, self.called = deadline, time.perf_counter()
        return SearchOutcome(UNKNOWN)  # no answer: the generic portfolio goes on


@pytest.mark.parametrize("share, part", [(None, 0.5), (0.9, 0.9), (0.25, 0.25), (7, 0.5), ("x", 0.5), (True, 0.5)])
def test_a_variants_own_search_gets_its_share_of_the_budget(klondike, share, part):
    know = OwnSearch(share)
    before = time.perf_counter()
    # a deadline far off (this test is of where it lies, not of running out of it)
    result = solve(Game.from_position(klondike, stuck_hearts(0)), timeout=3600, max_states=BUDGET,
                   knowledge=know)
    assert result.result == UNWINNABLE  # the generic search still decides after it
    # the solver's clock starts between ``before`` and the call: the deadline is its start + share
    assert know.deadline is not None and know.called is not None
    assert before + part * 3600 <= know.deadline <= know.called + part * 3600


def test_a_variants_own_search_with_the_whole_budget_has_the_last_word(klondike):
    """At a share of 1 the generic portfolio never runs after the variant's own search: its
    "unknown" is the answer, on a deal the portfolio alone wins."""
    game = Game.new(Rules.of(klondike, {}), 2)
    assert solve(game, timeout=None, max_states=BUDGET, knowledge=OwnSearch(0.5)).result == WIN
    know = OwnSearch(1)
    result = solve(game, timeout=None, max_states=BUDGET, knowledge=know)
    assert know.called is not None
    assert (result.result, result.states, result.method) == (UNKNOWN, 0, "")


class WorkSearch(OwnSearch):
    """An own search that takes a hint's work bound, and notes it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.work: list[int | None] = []

    def search(self, game: Game, deadline: float, max_states: int, max_work: int | None = None) -> SearchOutcome:
        self.work.append(max_work)
        return super().search(game, deadline, max_states)


class KeywordsSearch(OwnSearch):
    def search(self, game: Game, deadline: float, max_states: int, **options: object) -> SearchOutcome:
        self.options = options
        return super().search(game, deadline, max_states)


class PositionalWork(OwnSearch):
    def search(self, game: Game, deadline: float, max_states: int, max_work: int | None = None, /) -> SearchOutcome:
        assert max_work is None, "a positional-only max_work is not the keyword: never passed"
        return super().search(game, deadline, max_states)


def test_a_hints_work_bound_reaches_an_own_search_that_takes_it(klondike):
    """``max_work`` goes to a variant's own search only where it takes the keyword (by name
    or through ``**kwargs``); one with the three arguments alone is called as before, and
    no bound at all passes nothing."""
    from solitaire.core.solver.knowledge import takes_work
    from solitaire.core.solver.native import solve as front_door

    game = Game.new(Rules.of(klondike, {}), 2)
    know = WorkSearch()
    front_door(game, timeout=None, max_states=BUDGET, knowledge=know, max_work=1234)
    front_door(game, timeout=None, max_states=BUDGET, knowledge=know)
    assert know.work == [1234, None]
    keywords = KeywordsSearch(1)
    front_door(game, timeout=None, max_states=BUDGET, knowledge=keywords, max_work=77)
    assert keywords.options == {"max_work": 77}
    plain = OwnSearch(1)
    assert front_door(game, timeout=None, max_states=BUDGET, knowledge=plain, max_work=77).result == UNKNOWN
    assert plain.called is not None
    assert front_door(game, timeout=None, max_states=BUDGET, knowledge=PositionalWork(0.5),
                      max_work=77).result == WIN  # called with three arguments; the portfolio wins after it
    assert [takes_work(o.search) for o in (know, keywords, plain, PositionalWork())] == [True, True, False, False]
    assert not takes_work(print)  # no signature of its own to read (a builtin): False, not an error
    assert Knowledge.of(know).search_work and not Knowledge.of(plain).search_work


KLONDIKE_YAML = Path(__file__).resolve().parents[1] / "variants" / "klondike" / "klondike.yaml"


class KnowingPlugin:
    """Registers Klondike's YAML file and answers the ``solver_knowledge`` hook."""

    def __init__(self, answer=None, error: Exception | None = None):
        self.answer, self.error = answer, error
        self.asked: list[Any] = []

    @hookimpl
    def register_variants(self, register):
        register(KLONDIKE_YAML)

    @hookimpl
    def solver_knowledge(self, rules):
        self.asked.append(rules)
        if self.error is not None:
            raise self.error
        return self.answer


class KnowledgeOnly:
    """Answers the hook for any rules, registering no variant of its own."""

    @hookimpl
    def solver_knowledge(self, rules):
        return Counting()


def test_knowledge_comes_from_the_plugin_that_registered_the_variant():
    answer = Counting()
    plugin = KnowingPlugin(answer)
    reg = build_registry([("knowing", "test-dist", plugin), ("meddler", "other-dist", KnowledgeOnly())], eps=[])
    rules = Rules.of(reg.get("klondike"), {})
    assert reg.knowledge(rules) is answer  # not the other plugin's, though it answers for anything
    assert reg.knowledge(rules) is answer and plugin.asked == [rules]  # asked once per compiled rules
    other = Rules.of(reg.get("klondike"), {"draw": 3})
    assert reg.knowledge(other) is answer and plugin.asked == [rules, other]
    # a variant this registry did not load gets nothing, even with the same name
    stranger = Rules.of(get_variant("klondike"), {})
    assert reg.knowledge(stranger) is None and plugin.asked == [rules, other]
    assert Knowledge.of(answer).safe_home == answer.safe_home and Knowledge.of(answer).key is None
    assert reg.broken == []


def test_a_broken_knowledge_hook_is_reported_like_a_broken_plugin():
    plugin = KnowingPlugin(error=ZeroDivisionError("oops"))
    reg = build_registry([("knowing", "test-dist", plugin)], eps=[])
    rules = Rules.of(reg.get("klondike"), {})
    assert reg.knowledge(rules) is None
    assert reg.knowledge(Rules.of(reg.get("klondike"), {"draw": 3})) is None
    assert [(b.name, b.provider, b.reason) for b in reg.broken] == [
        ("knowing", "test-dist", "solver_knowledge failed: ZeroDivisionError: oops")]  # once


def test_the_solver_finds_knowledge_through_the_registry(klondike):
    from solitaire.core.plugins import registry

    calc = get_variant("calculation")
    assert registry().knowledge(Rules.of(calc, {})) is variant_knowledge(Rules.of(calc, {}))
    assert variant_knowledge(Rules.of(klondike, {})) is None


BROKEN_KNOWLEDGE = """\
from pathlib import Path
from solitaire.core import hookimpl

@hookimpl
def register_variants(register):
    register(Path(__file__).with_name("knotty.yaml"))

@hookimpl
def solver_knowledge(rules):
    raise RuntimeError("the knowledge is broken")
"""


def test_solve_says_a_broken_knowledge_hook_and_still_answers(cli, tmp_path, monkeypatch):
    from solitaire.core.plugins import registry

    root = tmp_path / "site"
    (root / "knotty_plugin").mkdir(parents=True)
    (root / "knotty_plugin" / "__init__.py").write_text(BROKEN_KNOWLEDGE)
    text = KLONDIKE_YAML.read_text()
    assert "name: klondike\n" in text
    text = re.sub(r"^aliases:.*$", "aliases: []", text.replace("name: klondike\n", "name: knotty\n"), flags=re.M)
    (root / "knotty_plugin" / "knotty.yaml").write_text(text)
    info = root / "knotty_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: knotty-dist\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[solitaire]\nknotty = knotty_plugin\n")
    monkeypatch.syspath_prepend(str(root))
    registry.cache_clear()
    try:
        out = cli("solve", "knotty", "--seed", "2", "--states", str(BUDGET), "--json")
        assert out.code == 0, out.err
        assert json.loads(out.out)["result"] == WIN
        assert out.err == ("solitaire: plugin 'knotty' [knotty-dist] is broken: solver_knowledge failed: "
                           "RuntimeError: the knowledge is broken; solving without its knowledge\n")
        listed = cli("variants")
        assert "knotty  [knotty-dist]  BROKEN: solver_knowledge failed: RuntimeError: the knowledge is broken" \
            in listed.out
    finally:
        registry.cache_clear()
        sys.modules.pop("knotty_plugin", None)


def test_player_hint_ignores_hidden_cards(klondike):
    from solitaire.core.solver import player_hint

    game = Game.new(Rules.of(klondike, {}), 3)
    data = game.to_position()
    # swap a face-down card of t7 with one of t6, and two cards deep in the stock
    t6, t7, stock = data["piles"]["t6"]["down"], data["piles"]["t7"]["down"], data["piles"]["stock"]["down"]
    t6[0], t7[0] = t7[0], t6[0]
    stock[0], stock[1] = stock[1], stock[0]
    other = Game.from_position(klondike, data)
    assert other.piles != game.piles
    first = player_hint(game, samples=3, states=1500)
    assert first == player_hint(other, samples=3, states=1500)
    move = first[0]
    assert move is not None and game.refusal(game.parse_move(move)) is None


def test_cli_hint_is_a_legal_move(cli):
    out = cli("solve", "klondike", "--seed", "3", "--hint", "--json")
    assert out.code == 0, out.err
    move = json.loads(out.out)["hint"]
    game = Game.new(Rules.of(get_variant("klondike"), {}), 3)
    game.play(move)  # raises if the hint were illegal


# ---------------------------------------------------------------- soundness against brute force

def end_game(rng: random.Random, options: dict[str, Any], suits: tuple[int, ...], out_count: range,
             stock_share: tuple[float, float], columns: int, up_at_most: int) -> Game:
    """A random Klondike end game: some of the highest cards of ``suits`` still out (a number
    drawn from ``out_count``), between the shares ``stock_share`` of them in the stock, the
    rest face down on the first ``columns`` columns, each column's top 1 to ``up_at_most``
    cards turned up."""
    from solitaire.core.cards import card_name

    heights = [13] * 4
    out: list[int] = []
    for _ in range(rng.randrange(out_count.start, out_count.stop)):
        s = rng.choice(suits)
        if heights[s] > 0:
            out.append(s * 13 + heights[s] - 1)
            heights[s] -= 1
    rng.shuffle(out)
    names = ["stock", "waste"] + [f"f{i}" for i in range(1, 5)] + [f"t{i}" for i in range(1, 8)]
    piles: dict[str, dict[str, list[str]]] = {n: {"down": [], "up": []} for n in names}
    for s in range(4):
        piles[f"f{s + 1}"]["up"] = [card_name(s * 13 + r) for r in range(heights[s])]
    low, high = stock_share
    cut = rng.randrange(int(len(out) * low), int(len(out) * high) + 1)
    piles["stock"]["down"] = [card_name(c) for c in out[:cut]]
    for c in out[cut:]:
        piles[f"t{rng.randrange(1, columns + 1)}"]["down"].append(card_name(c))
    for i in range(1, 8):
        p = piles[f"t{i}"]
        if p["down"]:
            k = rng.randrange(1, min(up_at_most, len(p["down"])) + 1)
            p["down"], p["up"] = p["down"][:-k], p["down"][-k:]
    return Game.from_position(get_variant("klondike"), {"variant": "klondike", "options": options, "piles": piles})


def small_position(rng: random.Random) -> Game:
    """A random Klondike end game: a few of the highest cards still out, anywhere."""
    options = {"draw": rng.choice([1, 3]), "redeals": rng.choice([0, 0, 0, 1, None]), "relaxed": rng.random() < 0.3}
    suits = (1, 2) if rng.random() < 0.6 else (0, 1, 2, 3)  # one colour: nothing builds, losses happen
    return end_game(rng, options, suits, range(5, 10), (0.5, 1.0), columns=3, up_at_most=13)


def brute_force(game: Game, limit: int = 20_000) -> bool | None:
    """Every legal move, raw positions, no pruning: True/False, None if too big."""
    g = game.copy()
    seen = {g.key()}
    stack = [iter(g.legal_moves())]
    while stack:
        m = next(stack[-1], None)
        if m is None:
            stack.pop()
            if stack:
                g.pop()
            continue
        g.push(m)
        if g.won:
            return True
        k = g.key()
        if k in seen or len(seen) > limit:
            g.pop()
            if len(seen) > limit:
                return None
            continue
        seen.add(k)
        stack.append(iter(g.legal_moves()))
    return False


def agree_with_brute_force(games: Iterable[Game], limit: int = 20_000) -> tuple[int, int]:
    """Solve every position the brute force decides within ``limit`` states: the answers must
    agree and every win must replay to a won game. Returns (positions checked, of them lost)."""
    checked = lost = 0
    for game in games:
        truth = brute_force(game, limit)
        if truth is None:
            continue
        checked += 1
        lost += not truth
        answer = solve(game, timeout=None, max_states=BUDGET)
        assert answer.result == (WIN if truth else UNWINNABLE), game.to_position()
        if truth:
            for move in answer.moves:
                game.play(move)
            assert game.won
    return checked, lost


def test_answers_agree_with_brute_force():
    rng = random.Random(20261130)
    checked, lost = agree_with_brute_force(small_position(rng) for _ in range(50))
    assert checked >= 25 and lost >= 1, (checked, lost)


def open_position(rng: random.Random) -> Game:
    """A random end game with more cards out, some built on the tableau, draw 1 or 3."""
    options = {"draw": rng.choice([1, 1, 3]), "redeals": rng.choice([None, None, 0])}
    suits = rng.choice([(1, 2), (0, 1, 2, 3), (0, 1, 2, 3), (0, 1), (1, 3)])
    return end_game(rng, options, suits, range(8, 14), (0.0, 0.5), columns=4, up_at_most=3)


def test_answers_agree_with_brute_force_with_stock_and_tableau_in_play():
    # more cards out than above, several face up (not always built), the stock in reach with
    # draw 1: exercises the stock-card and run-moving rules
    rng = random.Random(20261201)
    checked, lost = agree_with_brute_force((open_position(rng) for _ in range(40)), 30_000)
    assert checked >= 20 and lost >= 2, (checked, lost)


# ---------------------------------------------------------------------- what the kernel gives the search

@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), draw=st.sampled_from([1, 3]), redeals=st.sampled_from([0, 1, None]),
       relaxed=st.booleans(), before=st.integers(0, 40), times=st.integers(1, 60))
def test_turning_the_stock_at_once_is_the_same_as_one_action_at_a_time(seed, draw, redeals, relaxed, before,
                                                                       times):
    rules = Rules.of(get_variant("klondike"), {"draw": draw, "redeals": redeals, "relaxed": relaxed})
    game = Game.new(rules, seed)
    for _ in range(before):  # some play first, so the waste and score are not where the deal left them
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[seed % len(moves)])
    history = list(game.history)
    snap = game.snapshot()
    stepwise = game.copy()
    done = 0
    for _ in range(times):
        if rules.draw_move not in stepwise.legal_moves():
            break  # out of redeals: turn_stock is for legal runs of the stock's action only
        stepwise.push(rules.draw_move)
        done += 1
    game.turn_stock(done)
    assert game.snapshot() == stepwise.snapshot() and game.history == history
    game.restore(snap)
    assert game.snapshot() == snap and game.to_position() == Game.from_position(
        get_variant("klondike"), game.to_position()).to_position()
    assert game.history == history


def test_a_copy_without_history_and_derived_rules(klondike):
    game = Game.new(Rules.of(klondike, {"draw": 3, "redeals": 1}), 5)
    game.play("draw")
    bare = game.without_history()
    assert bare.to_position() == game.to_position() and bare.history == [] and bare.future == []
    free = game.rules.derive(draw_count=1, redeals=None)
    assert (free.draw_count, free.redeals) == (1, None) and (game.rules.draw_count, game.rules.redeals) == (3, 1)
    assert free.accept is game.rules.accept  # the tables are shared
    relaxed = game.without_history(rules=free)
    assert relaxed.rules is free and game.rules is not free
    for bad, words in (({"draw_count": 0}, "draw_count"), ({"redeals": -1}, "redeals"), ({"count": 3}, "count")):
        with pytest.raises(ValueError, match=words):
            game.rules.derive(**bad)
    with pytest.raises(ValueError, match="piles"):
        game.without_history(rules=Rules.of(get_variant("calculation"), {}))
