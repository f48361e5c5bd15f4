"""The Spider, Forty Thieves and Yukon families (variants/spider, variants/fortythieves,
variants/yukon): the deals, the rules that make each game, and a won game of each through the
JSON protocol.

The deals are checked against the rules as PySolFC plays them (CATALOGUE.md's facts, written
out here by hand). Positions are built card by card (``position()``) and played through
``solitaire play GAME --position FILE --json``. Russian Solitaire's won game is a whole deal,
the solver's line; the others are won from a position late in a game (every suit home but
one): the Python solver won no deal of theirs within the tests' budgets (tens of thousands of
states); the tests at the end show it winning late positions, two decks and one suit included.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import solve

DATA = Path(__file__).parent / "data"
RANKS = "A23456789TJQK"
SUITS = "CDHS"


def up(suit: str, low: str = "A", high: str = "K") -> list[str]:
    """The cards ``low``..``high`` of ``suit``, bottom to top, going up (a foundation's order)."""
    return [r + suit for r in RANKS[RANKS.index(low):RANKS.index(high) + 1]]


def down(suit: str, high: str = "K", low: str = "A") -> list[str]:
    """The cards ``high`` down to ``low`` of ``suit``, bottom to top (a Spider run)."""
    return up(suit, low, high)[::-1]


def position(game: str, piles: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A position of ``game``: ``piles`` maps a pile to its face-up cards, or to ``(down, up)``;
    every other pile is empty."""
    names = Game.new(Rules.of(get_variant(game), options or {}), 1).to_position()["piles"]
    out: dict[str, Any] = {name: {"down": [], "up": []} for name in names}
    for name, cards in piles.items():
        d, u = cards if isinstance(cards, tuple) else ([], cards)
        out[name] = {"down": list(d), "up": list(u)}
    return {"variant": game, "seed": None, "options": options or {}, "piles": out}


def write(tmp_path: Path, pos: dict[str, Any]) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(pos), encoding="utf-8")
    return str(path)


def play(cli, tmp_path: Path, pos: dict[str, Any], *commands: str) -> list[dict[str, Any]]:
    """The replies of ``solitaire play --position --json`` to ``commands`` (the first is the start)."""
    result = cli("play", pos["variant"], "--position", write(tmp_path, pos), "--json",
                 input="".join(c + "\n" for c in commands))
    assert result.code == 0, result.err
    replies: list[dict[str, Any]] = result.json_lines()
    assert len(replies) == len(commands) + 1
    return replies


def deal(cli, game: str, seed: int, *options: str) -> dict[str, Any]:
    result = cli("deal", game, "--seed", str(seed), "--json", *options)
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


# ------------------------------------------------------------------ the deals

def deck(decks: int, suits: str = SUITS) -> Counter[str]:
    copies = decks * 4 // len(suits)
    return Counter({r + s: copies for r in RANKS for s in suits})


# Spider: columns 1, 4, 7 and 10 of six cards, the others of five, the top card face up
SPIDER = [(5, 1), (4, 1), (4, 1), (5, 1), (4, 1), (4, 1), (5, 1), (4, 1), (4, 1), (5, 1)]
# game, options, (face-down, face-up) per column, stock, waste, the deck
DEALS = [
    ("spider", (), SPIDER, 50, None, deck(2)),
    ("spider", ("--suits", "1"), SPIDER, 50, None, deck(2, "S")),
    ("spider", ("--suits", "2"), SPIDER, 50, None, deck(2, "SH")),
    ("spiderette", (), [(k, 1) for k in range(7)], 24, None, deck(1)),
    ("will-o-the-wisp", (), [(2, 1)] * 7, 31, None, deck(1)),
    ("simple-simon", (), [(0, n) for n in (8, 8, 8, 7, 6, 5, 4, 3, 2, 1)], None, None, deck(1)),
    ("mrs-mop", (), [(0, 8)] * 13, None, None, deck(2)),
    ("forty-thieves", (), [(0, 4)] * 10, 63, 1, deck(2)),
    ("lucas", (), [(0, 4)] * 13, 51, 1, deck(2)),
    ("russian-solitaire", (), [(0, 1)] + [(k, 5) for k in range(1, 7)], None, None, deck(1)),
]


@pytest.mark.parametrize(("game", "options", "columns", "stock", "waste", "cards"), DEALS,
                         ids=[f"{d[0]}{''.join(d[1])}" for d in DEALS])
def test_the_deal_holds_the_deck_with_the_piles_the_rules_say(cli, game, options, columns, stock, waste, cards):
    for seed in (1, 2):
        piles = deal(cli, game, seed, *options)["piles"]
        found = Counter(c for p in piles.values() for c in p["down"] + p["up"])
        assert found == cards
        tableau = [(len(piles[f"t{i}"]["down"]), len(piles[f"t{i}"]["up"])) for i in range(1, len(columns) + 1)]
        assert tableau == columns
        assert f"t{len(columns) + 1}" not in piles
        if stock is None:
            assert "stock" not in piles
        else:
            assert (len(piles["stock"]["down"]), len(piles["stock"]["up"])) == (stock, 0)
        if waste is None:
            assert "waste" not in piles
        else:
            assert (len(piles["waste"]["down"]), len(piles["waste"]["up"])) == (0, waste)
        assert all(not p["down"] and not p["up"] for name, p in piles.items() if name.startswith("f"))


def test_each_deal_number_is_its_own_deal(cli):
    assert deal(cli, "spider", 1)["piles"] != deal(cli, "spider", 2)["piles"]
    assert deal(cli, "spider", 7)["piles"] == deal(cli, "spider", 7)["piles"]


def test_the_families_are_listed_with_their_games(cli):
    result = cli("variants", "--json")
    assert result.code == 0, result.err
    listed = {v["name"]: v for v in json.loads(result.out)["variants"]}
    families = {"spider": "Spider", "spiderette": "Spider", "will-o-the-wisp": "Spider", "simple-simon": "Spider",
                "mrs-mop": "Spider", "forty-thieves": "Forty Thieves", "lucas": "Forty Thieves",
                "russian-solitaire": "Yukon", "yukon": "Yukon"}
    for name, family in families.items():
        assert name in listed
        assert get_variant(name).family == family
    assert listed["spider"]["title"] == "Spider"
    assert listed["will-o-the-wisp"]["title"] == "Will o' the Wisp"
    assert "willothewisp" in listed["will-o-the-wisp"]["aliases"]
    assert listed["yukon"]["qualified"] == "solitaire-table:yukon"  # built in (the example's is its own)


GAMES = [("spider", {}), ("spider", {"suits": 1}), ("spiderette", {}), ("will-o-the-wisp", {}), ("simple-simon", {}),
         ("mrs-mop", {}), ("forty-thieves", {}), ("lucas", {}), ("russian-solitaire", {})]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), max_size=40))
def test_random_play_keeps_every_card_and_taking_it_back_restores_the_deal(game, seed, picks):
    name, options = game
    played = Game.new(Rules.of(get_variant(name), options), seed)
    start = played.to_position()
    cards = Counter(c for p in start["piles"].values() for c in p["down"] + p["up"])
    for pick in picks:
        moves = played.legal_moves()
        if not moves:
            break
        played.play(moves[pick % len(moves)])
        now = played.to_position()["piles"]
        assert Counter(c for p in now.values() for c in p["down"] + p["up"]) == cards
    while played.history:
        played.pop()  # takes back each move exactly, a card turned up face down again
    assert played.to_position() == start


# ------------------------------------------------------------------ the Spider family's rules

SIX_HOME = {f"f{i}": down(s) for i, s in enumerate("CDDHHS", 2)}  # f1 and f8 empty; a club and a spade suit out


def test_a_foundation_takes_a_whole_suit_king_to_ace_in_one_move(cli, tmp_path):
    pos = position("spider", {f"f{i}": down(s) for i, s in enumerate("CCDDHHS", 1)} | {"t1": down("S")})
    replies = play(cli, tmp_path, pos, "t1 f8 1", "t1 f8 12", "t1 f8")  # no count: as many as go
    assert [r["ok"] for r in replies[1:]] == [False, False, True]
    assert replies[1]["error"] == replies[2]["error"] == "f8 takes 13 cards at once"
    assert replies[1]["position"] == replies[0]["position"]
    assert replies[3]["position"]["piles"]["f8"]["up"] == down("S")
    assert replies[3]["won"] is True


def test_a_foundation_holds_one_suit_and_refuses_thirteen_cards_not_of_one_suit(cli, tmp_path):
    # a spade suit is home on f7; t1 holds the other but its Ace, which lies on t2 on the King
    # of clubs down to the 2 (13 cards, a run by rank but not of one suit); t3 the Ace of clubs
    home = {f"f{i}": down(s) for i, s in enumerate("CDDHH", 2)} | {"f7": down("S")}
    pos = position("spider", home | {"t1": down("S", "K", "2"), "t2": [*down("C", "K", "2"), "AS"], "t3": ["AC"]})
    replies = play(cli, tmp_path, pos, "t2 f1 13", "t2 t4", "t4 t1", "t1 f7 13", "t3 t2", "t2 f1 13", "t1 f 13")
    assert [r["ok"] for r in replies[1:]] == [False, True, True, False, True, True, True]
    assert replies[1]["error"].startswith("the top 13 cards of t2 are not a run: AS on 2C is out of order")
    assert replies[4]["error"] == "f7 is full (13 cards)"
    assert replies[-1]["won"] is True


def test_columns_build_down_in_any_suit_and_only_runs_of_one_suit_move(cli, tmp_path):
    pos = position("spider", SIX_HOME | {
        "t1": down("S", "K", "8"), "t2": ["7S", "6C", "5C"], "t3": ["7C"], "t4": down("S", "4"),
        "t5": down("C", "K", "8"), "t6": ["6S", "5S"], "t7": down("C", "4")})
    replies = play(cli, tmp_path, pos,
                   "t2 t1 3",   # 7S 6C 5C: not one suit
                   "t2 t3 2",   # 6C 5C onto 7C
                   "t2 t1",     # 7S onto 8S; t2 empty
                   "t6 t5 2",   # 6S onto 8C: not one rank below
                   "t3 t5 3",   # 7C 6C 5C onto 8C; t3 empty
                   "t6 t1 2",   # 6S 5S onto 7S
                   "t7 t1 4",   # 4C..AC onto 5S: any suit builds
                   "t1 f1 13",  # K..5 of spades, 4..A of clubs: not a suit
                   "t1 t3 4",   # an empty column takes a run
                   "t4 t1 4", "t3 t5 4", "t1 f 13", "t5 f 13")
    assert [r["ok"] for r in replies[1:]] == [False, True, True, False, True, True, True, False, True, True, True,
                                              True, True]
    assert replies[1]["error"].startswith("the top 3 cards of t2 are not a run: 6C on 7S is out of order")
    assert replies[4]["error"].startswith("6S does not go on 8C")
    assert replies[8]["error"].startswith("the top 13 cards of t1 are not a run: 4C on 5S is out of order")
    assert replies[7]["position"]["piles"]["t1"]["up"] == down("S", "K", "5") + down("C", "4")
    assert replies[-1]["won"] is True


def stocked_spider() -> dict[str, Any]:
    """Spider with one deal left in the stock and six columns empty."""
    home = {f"f{i}": down(s) for i, s in enumerate("CCDDHH", 1)}
    return position("spider", home | {"t1": down("S", "K", "7"), "t2": down("S", "K", "7"), "t3": ["6S"],
                                      "t4": ["6S"], "stock": (down("S", "5") * 2, [])})


def test_the_stock_deals_onto_every_column_but_never_while_one_is_empty(cli, tmp_path):
    fill = ["t1 t5 1", "t1 t6 1", "t1 t7 1", "t2 t8 1", "t2 t9 1", "t2 t10 1"]
    replies = play(cli, tmp_path, stocked_spider(), "draw", *fill, "draw", "draw")
    assert replies[1]["ok"] is False and replies[1]["position"] == replies[0]["position"]
    assert all(r["ok"] for r in replies[2:8])
    before, after = replies[7]["position"]["piles"], replies[8]["position"]["piles"]
    assert replies[8]["ok"] is True
    for i in range(1, 11):
        assert len(after[f"t{i}"]["up"]) == len(before[f"t{i}"]["up"]) + 1
    assert after["t1"]["up"][-1] == "AS" and after["t10"]["up"][-1] == "5S"  # the stock's top card to t1
    assert not after["stock"]["down"]
    assert replies[9]["ok"] is False and replies[9]["error"] == "the stock is empty"


def test_the_deal_refused_while_a_column_is_empty_says_so(cli, tmp_path):
    replies = play(cli, tmp_path, stocked_spider(), "draw")
    assert replies[1]["ok"] is False
    assert "empty" in replies[1]["error"]


def test_spiderettes_last_deal_goes_onto_the_first_three_columns(cli, tmp_path):
    pos = position("spiderette", {"f1": down("C"), "t1": down("S", "K", "4"), "t2": down("H", "K", "4"),
                                  "t3": down("D", "K", "4"), "t4": ["3H", "2H"], "t5": ["AH"],
                                  "t6": ["3D", "2D"], "t7": ["AD"], "stock": (["AS", "2S", "3S"], [])})
    replies = play(cli, tmp_path, pos, "draw", "draw")
    piles = replies[1]["position"]["piles"]
    assert [piles[f"t{i}"]["up"][-1] for i in range(1, 8)] == ["3S", "2S", "AS", "2H", "AH", "2D", "AD"]
    assert replies[2]["ok"] is False and replies[2]["error"] == "the stock is empty"


# ------------------------------------------------------------------ Forty Thieves, Lucas, Russian Solitaire

def thieves(game: str) -> dict[str, Any]:
    """Seven suits home, the eighth up to its 8; the 9 to the King of spades left to play."""
    home = {f"f{i}": up(s) for i, s in enumerate("CCDDHHS", 1)} | {"f8": up("S", "A", "8")}
    return position(game, home | {"t1": ["TS", "9S"], "t2": ["QS"], "waste": ["JS"], "stock": (["KS"], [])})


def test_forty_thieves_moves_one_card_at_a_time_and_has_no_redeal(cli, tmp_path):
    replies = play(cli, tmp_path, thieves("forty-thieves"),
                   "t1 t2 2",  # two cards: refused
                   "w t2",     # JS onto QS: down by suit
                   "t1 t2",    # 9S onto JS: not one rank below
                   "t1 f",     # 9S home
                   "t1 t2",    # TS onto JS; t1 empty
                   "f8 t1",    # 9S back from its foundation to the empty column
                   "t1 t2",    # and onto TS
                   "draw", "draw",
                   "w t1",     # KS into the empty column
                   "t2 t1 4",  # QS JS TS 9S: one card at a time only
                   "t2 f", "t2 f", "t2 f", "t2 f", "t1 f")
    oks = [r["ok"] for r in replies[1:]]
    assert oks == [False, True, False, True, True, True, True, True, False, True, False, True, True, True, True, True]
    assert replies[1]["error"] == "only the top card of t1 moves"
    assert replies[11]["error"] == "only the top card of t2 moves"
    assert replies[3]["error"].startswith("9S does not go on JS")
    assert replies[9]["error"] == "the stock is empty and this game has no redeals"
    assert replies[-1]["won"] is True


def test_lucas_moves_runs_of_one_suit(cli, tmp_path):
    replies = play(cli, tmp_path, thieves("lucas"),
                   "t1 t2 2",  # TS 9S onto QS: refused, TS does not go on QS
                   "w t2", "t1 t2 2", "draw", "w t1", "t2 t1 4",
                   "t1 f", "t1 f", "t1 f", "t1 f", "t1 f")
    assert [r["ok"] for r in replies[1:]] == [False] + [True] * 10
    assert replies[1]["error"].startswith("TS does not go on QS")
    assert replies[-1]["won"] is True


def test_russian_solitaire_moves_any_face_up_card_with_what_is_on_it_onto_its_suit(cli, tmp_path):
    home = {"f1": up("C"), "f2": up("D"), "f3": up("H", "A", "9"), "f4": up("S", "A", "6")}
    pos = position("russian-solitaire", home | {"t1": ["8S", "JH"], "t2": (["KS"], ["9S"]), "t3": ["7S"],
                                                "t4": ["KH", "QH"], "t5": ["TH"], "t6": ["QS", "JS"], "t7": ["TS"]})
    replies = play(cli, tmp_path, pos,
                   "t1 t2 2",  # 8S, with the jack of hearts on it, onto 9S
                   "t3 t1",    # an empty column takes only a King
                   "t5 t6",    # TH onto JS: building goes by suit
                   "t7 t6", "t5 f", "t2 f", "t4 f", "t4 f", "t3 f", "t2 f", "t2 f", "t6 f", "t6 f", "t6 f", "t2 f")
    assert [r["ok"] for r in replies[1:]] == [True, False, False] + [True] * 12
    assert replies[1]["position"]["piles"]["t2"]["up"] == ["9S", "8S", "JH"]
    assert replies[2]["error"] == "an empty t1 takes only a King, not 7S"
    assert replies[3]["error"].startswith("TH does not go on JS")
    assert replies[-1]["won"] is True


# ------------------------------------------------------------------ won games through the protocol

def last_suit(game: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Spider-family game late on: every suit home but one of spades, which lies in three
    columns, King to 8, 7 to 2 and the Ace."""
    decks = len(Rules.of(get_variant(game), options or {}).deck) // 52
    suits = {1: ["S"] * 8, 2: sorted("SH" * 4), 4: sorted(SUITS * decks)}[(options or {}).get("suits", 4)]
    suits.remove("S")
    home = {f"f{i}": down(s) for i, s in enumerate(suits, 1)}
    return position(game, home | {"t1": down("S", "K", "8"), "t2": down("S", "7", "2"), "t3": ["AS"]}, options)


SPIDERS = [("spider", {}), ("spider", {"suits": 1}), ("spider", {"suits": 2}), ("spiderette", {}),
           ("will-o-the-wisp", {}), ("simple-simon", {}), ("mrs-mop", {})]


@pytest.mark.parametrize(("game", "options"), SPIDERS, ids=[g + str(o.get("suits", "")) for g, o in SPIDERS])
def test_a_spider_game_is_won_through_the_protocol(cli, tmp_path, game, options):
    replies = play(cli, tmp_path, last_suit(game, options), "t2 t1 6", "t3 t1", "t1 f 13")
    assert all(r["ok"] for r in replies[1:])
    assert [r["won"] for r in replies] == [False, False, False, True]
    assert all(len(p["up"]) == 13 for name, p in replies[-1]["position"]["piles"].items() if name.startswith("f"))


def test_a_whole_deal_of_russian_solitaire_is_won_through_the_protocol(cli):
    moves = (DATA / "russian-seed-17.txt").read_text(encoding="utf-8").split("\n")
    moves = [m for m in moves if m and not m.startswith("#")]
    result = cli("play", "russian-solitaire", "--seed", "17", "--new", "--json", input="".join(m + "\n" for m in moves))
    assert result.code == 0, result.err
    replies = result.json_lines()
    assert len(replies) == len(moves) + 1
    assert all(r["ok"] for r in replies[1:])
    assert replies[-1]["won"] is True and not any(r["won"] for r in replies[:-1])


# ------------------------------------------------------------------ the solver on two decks

@pytest.mark.parametrize("game", ["forty-thieves", "lucas"])
def test_the_solver_wins_a_two_deck_position_it_can_win(game):
    game_ = Game.from_position(get_variant(game), thieves(game))
    assert solve(game_, timeout=None, max_states=10_000).result == "win"


def test_the_solver_wins_a_spider_late_position():
    game = Game.from_position(get_variant("mrs-mop"), last_suit("mrs-mop"))
    result = solve(game, timeout=None, max_states=10_000)
    assert result.result == "win"
    for move in result.moves:
        game.play(move)
    assert game.won


def test_the_solver_wins_a_late_position_of_spider_of_one_suit():
    game = Game.from_position(get_variant("spider"), last_suit("spider", {"suits": 1}))
    assert solve(game, timeout=None, max_states=10_000).result == "win"
