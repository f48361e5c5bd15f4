"""Calculation (Hopscotch): every rule of issue 3, through the CLI, the --json protocol and the API.

Positions are built card by card (``position()``) and played through ``solitaire play
calculation --position FILE --json``, so each rule is checked where a player meets it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import RANK, card_name, parse_card

CORE = Path(__file__).resolve().parents[1] / "core"
RANKS = "A23456789TJQK"
START = {"f1": "AC", "f2": "2C", "f3": "3C", "f4": "4C"}
# written out by hand from the rules, not computed: foundation fk counts by k, wrapping after K
SEQUENCES = {
    "f1": "A 2 3 4 5 6 7 8 9 T J Q K",
    "f2": "2 4 6 8 T Q A 3 5 7 9 J K",
    "f3": "3 6 9 Q 2 5 8 J A 4 7 T K",
    "f4": "4 8 Q 3 7 J 2 6 T A 5 9 K",
}
FOUNDATIONS = ("f1", "f2", "f3", "f4")
RESERVES = ("r1", "r2", "r3", "r4")


def position(draws=(), waste=(), found=None, reserves=None, stock_rest=True, score=0, moves=0) -> dict[str, Any]:
    """A Calculation position: ``draws`` are the next stock cards in the order drawn; every card
    not placed elsewhere goes under them in the stock. With ``stock_rest=False`` the caller
    places all 52 cards and the stock holds only ``draws``."""
    found = {f: [START[f]] for f in FOUNDATIONS} | (found or {})
    reserves = {r: [] for r in RESERVES} | (reserves or {})
    placed = [*draws, *waste, *(c for p in found.values() for c in p), *(c for p in reserves.values() for c in p)]
    assert len(placed) == len(set(placed)), "a card is placed twice"
    rest = [card_name(c) for c in range(52) if card_name(c) not in placed]
    if not stock_rest:
        assert not rest, f"unplaced: {rest}"
    stock = rest + list(reversed(draws))  # the stock's last card is drawn first
    piles = {"stock": {"down": stock, "up": []}, "waste": {"down": [], "up": list(waste)}}
    piles |= {f: {"down": [], "up": cards} for f, cards in found.items()}
    piles |= {r: {"down": [], "up": cards} for r, cards in reserves.items()}
    return {"variant": "calculation", "seed": None, "options": {}, "piles": piles, "score": score, "moves": moves}


def free_cards(exclude=()) -> dict[str, list[str]]:
    """Cards by rank letter that are not foundation starts nor in ``exclude``."""
    pool: dict[str, list[str]] = {r: [] for r in RANKS}
    for c in range(52):
        name = card_name(c)
        if name not in START.values() and name not in exclude:
            pool[name[0]].append(name)
    return pool


@pytest.fixture
def play_from(cli, tmp_path):
    """Play ``commands`` from a position through the --json protocol; return the replies."""

    def run(data: dict[str, Any], *commands: str, variant: str = "calculation") -> list[dict[str, Any]]:
        path = tmp_path / "position.json"
        path.write_text(json.dumps(data))
        result = cli("play", variant, "--position", str(path), "--json", input="".join(c + "\n" for c in commands))
        assert result.code == 0, result.err
        replies: list[dict[str, Any]] = result.json_lines()
        assert len(replies) == len(commands) + 1
        return replies

    return run


def pile(reply: dict[str, Any], name: str) -> list[str]:
    p = reply["position"]["piles"][name]
    cards: list[str] = p["down"] + p["up"]
    return cards


# --------------------------------------------------------------------------- listing and dealing


def test_variants_lists_calculation_with_alias_description_and_provider(cli):
    result = cli("variants")
    assert result.code == 0
    line = next(ln for ln in result.out.splitlines() if ln.startswith("calculation"))
    assert "hopscotch" in line and "solitaire-table" in line
    data = json.loads(cli("variants", "--json").out)
    calc = next(v for v in data["variants"] if v["name"] == "calculation")
    assert calc["aliases"] == ["hopscotch"]
    assert calc["provider"] == "solitaire-table"
    assert "regardless of suit" in calc["description"]
    assert calc["options"] == {}


@pytest.mark.parametrize("name", ["calculation", "hopscotch", "Hopscotch"])
def test_deal_json_starts_foundations_on_a_2_3_4_of_clubs(cli, name):
    result = cli("deal", name, "--seed", "7", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["variant"] == "calculation"
    piles = data["piles"]
    assert list(piles) == ["stock", "waste", "f1", "f2", "f3", "f4", "r1", "r2", "r3", "r4"]
    for f, card in START.items():
        assert piles[f] == {"down": [], "up": [card]}
    assert len(piles["stock"]["down"]) == 48 and piles["stock"]["up"] == []
    assert not set(piles["stock"]["down"]) & set(START.values())
    for empty in ("waste", *RESERVES):
        assert piles[empty] == {"down": [], "up": []}
    assert data["score"] == 0


def test_alias_deals_the_same_game(cli):
    a = json.loads(cli("deal", "calculation", "--seed", "123", "--json").out)
    b = json.loads(cli("deal", "hopscotch", "--seed", "123", "--json").out)
    assert a == b
    c = json.loads(cli("deal", "calculation", "--seed", "124", "--json").out)
    assert c["piles"]["stock"] != a["piles"]["stock"]


def test_deal_text_shows_reserves(cli):
    result = cli("deal", "hopscotch", "--seed", "3")
    assert result.code == 0
    assert "Calculation" in result.out
    for name in ("f1", "f4", "r1", "r4", "stock"):
        assert name in result.out


def test_play_hides_the_stock_and_plays_through_both_names(cli):
    for name in ("calculation", "hopscotch"):
        replies = cli("play", name, "--seed", "5", "--new", "--json", input="draw\nw r2\n").json_lines()
        first, drew, parked = replies
        assert set(first["position"]["piles"]["stock"]["down"]) == {"??"}
        assert drew["ok"] and len(pile(drew, "waste")) == 1
        card = pile(drew, "waste")[0]
        assert parked["ok"] and pile(parked, "r2") == [card] and pile(parked, "waste") == []
        assert parked["moves"] == 2 and parked["score"] == 0


def test_line_mode_plays_calculation(cli):
    result = cli("play", "hopscotch", "--seed", "5", input="draw\nw r1\nr1 r2\nquit\n")
    assert result.code == 0
    assert "refused: r2 takes cards only from the waste" in result.out


# --------------------------------------------------------------------------- foundations


@pytest.mark.parametrize("f", FOUNDATIONS)
def test_foundation_builds_by_k_regardless_of_suit_wrapping_and_ends_on_its_king(play_from, f):
    ranks = SEQUENCES[f].split()[1:]
    pool = free_cards()
    suits = "DHSC"
    draws = []
    for i, r in enumerate(ranks):  # change suit every card: suit never matters
        pick = next((c for c in pool[r] if c[1] == suits[i % 4]), pool[r][0])
        pool[r].remove(pick)
        draws.append(pick)
    extra = pool["5"][0]  # one more card after the King
    commands = []
    for _ in draws:
        commands += ["draw", f"w {f}"]
    commands += ["draw", f"w {f}"]
    replies = play_from(position(draws=[*draws, extra]), *commands)
    for reply in replies[1:-1]:
        assert reply["ok"], reply["error"]
    built = pile(replies[-2], f)
    assert [c[0] for c in built] == SEQUENCES[f].split()
    assert len(built) == 13 and built[-1][0] == "K"
    assert replies[-2]["score"] == 12
    last = replies[-1]
    assert not last["ok"]
    assert last["error"] == f"{f} is full (13 cards)"
    assert pile(last, "waste") == [extra]


@pytest.mark.parametrize("f", FOUNDATIONS)
def test_foundation_takes_exactly_the_next_rank_at_every_step(f):
    """At each height, of every card not yet placed only those of the next rank fit."""
    calc = get_variant("calculation")
    seq = SEQUENCES[f].split()
    for height in range(1, 13):
        pool = free_cards()
        below = []
        for r in seq[1:height]:
            below.append(pool[r].pop())
        built = [START[f], *below]
        for c in (c for cards in pool.values() for c in cards):
            game = Game.from_position(calc, position(waste=[c], found={f: built}))
            w, dst = game.rules.index["waste"], game.rules.index[f]
            reason = game.refusal((w, dst, 1))
            if c[0] == seq[height]:
                assert reason is None, (f, built, c)
            else:
                assert reason == (f"{c} does not go on {built[-1]}: {f} builds up"
                                  f"{'' if f == 'f1' else ' by ' + f[1]} regardless of suit, "
                                  "wrapping between King and Ace"), reason


def test_wrap_after_the_king_queen_then_ace_on_f2(play_from):
    # f2: ... 8 T Q, then wraps: A, 3
    found = {"f2": ["2C", "4D", "6D", "8D", "TD", "QD"]}
    replies = play_from(position(draws=["AH", "3S"], found=found), "draw", "w f2", "draw", "w f",
                        "undo", "undo", "undo")
    assert replies[2]["ok"] and pile(replies[2], "f2")[-1] == "AH"
    assert replies[4]["ok"] and pile(replies[4], "f2")[-2:] == ["AH", "3S"]
    assert pile(replies[6], "f2")[-1] == "AH" and pile(replies[6], "stock")[-1] == "??"
    assert pile(replies[7], "f2")[-1] == "QD" and pile(replies[7], "waste") == ["AH"]


def test_a_full_foundation_refuses_even_the_card_that_would_follow_the_wrap(play_from):
    found = {"f1": ["AC"] + [r + "D" for r in "23456789TJQK"]}
    replies = play_from(position(draws=["AH"], found=found), "draw", "w f1", "w f")
    assert replies[2]["error"] == "f1 is full (13 cards)"
    assert replies[3]["error"] == "no foundation pile takes AH"


def test_foundation_cards_never_move(play_from):
    replies = play_from(position(), "f1 r1", "f2 w", "f3 f4")
    for reply, src in zip(replies[1:], ("f1", "f2", "f3"), strict=False):
        assert reply["error"] == f"cards cannot be taken from {src}"
        assert reply["position"] == replies[0]["position"]


# --------------------------------------------------------------------------- stock and waste


def test_draw_turns_one_card_and_is_refused_while_the_waste_holds_one(play_from):
    replies = play_from(position(draws=["9H", "KD"]), "draw", "draw", "s", "w r1", "draw")
    first, drew, refused, refused_s, parked, drew_again = replies
    assert len(pile(first, "stock")) == 48
    assert drew["ok"] and pile(drew, "waste") == ["9H"] and len(pile(drew, "stock")) == 47
    for reply in (refused, refused_s):
        assert not reply["ok"]
        assert reply["error"] == "the waste holds one card: play it before drawing again"
        assert reply["position"] == drew["position"]  # nothing changed
    assert parked["ok"] and pile(parked, "r1") == ["9H"]
    assert drew_again["ok"] and pile(drew_again, "waste") == ["KD"]


def test_no_redeal_when_the_stock_is_empty(play_from):
    pool = free_cards()
    cards = [c for cards in pool.values() for c in cards]
    reserves = {"r1": cards[:12], "r2": cards[12:24], "r3": cards[24:36], "r4": cards[36:47]}
    data = position(waste=[cards[47]], reserves=reserves, stock_rest=False)
    replies = play_from(data, "draw", "w r4", "draw")
    assert replies[1]["error"] == "the stock is empty and this game has no redeals"
    assert replies[2]["ok"]
    assert replies[3]["error"] == "the stock is empty"
    assert replies[3]["position"] == replies[2]["position"]


def test_the_waste_takes_nothing_and_gives_only_its_top(play_from):
    replies = play_from(position(draws=["5S"], reserves={"r1": ["KH"]}), "r1 w", "draw", "w r1 2", "stock r1")
    assert replies[1]["error"] == "waste takes no cards"
    assert replies[3]["error"] == "waste has only 1 face-up card"
    assert replies[4]["error"] == "cards leave the stock only by 'draw'"


# --------------------------------------------------------------------------- reserves


def test_reserves_take_any_card_from_the_waste(play_from):
    draws = ["KH", "2S", "2D", "QC", "7H"]
    commands = ["draw", "w r1", "draw", "w r1", "draw", "w r1", "draw", "w r3", "draw", "w r3"]
    replies = play_from(position(draws=draws), *commands)
    assert all(r["ok"] for r in replies[1:])
    last = replies[-1]
    assert pile(last, "r1") == ["KH", "2S", "2D"]  # any rank, any suit, same rank twice
    assert pile(last, "r3") == ["QC", "7H"]
    assert last["score"] == 0


def test_reserve_to_reserve_is_refused(play_from):
    replies = play_from(position(reserves={"r1": ["9H"], "r2": ["TD"]}), "r1 r2", "r2 r3", "r1 r")
    assert replies[1]["error"] == "r2 takes cards only from the waste"
    assert replies[2]["error"] == "r3 takes cards only from the waste"
    assert not replies[3]["ok"]
    assert pile(replies[3], "r1") == ["9H"] and pile(replies[3], "r2") == ["TD"]


def test_reserve_top_moves_only_to_a_foundation_and_only_the_top(play_from):
    # r2 holds 5D under 2H: only 2H (top) moves; it fits f1 (A -> 2)
    data = position(reserves={"r2": ["5D", "2H"]})
    replies = play_from(data, "r2 w", "r2 f1 2", "r2 f2", "r2 f1", "r2 f3", "r2 f")
    assert replies[1]["error"] == "waste takes no cards"
    assert replies[2]["error"] == "only the top card of r2 moves"
    assert replies[3]["error"] == (
        "2H does not go on 2C: f2 builds up by 2 regardless of suit, wrapping between King and Ace"
    )
    played = replies[4]
    assert played["ok"] and pile(played, "f1") == ["AC", "2H"] and pile(played, "r2") == ["5D"]
    assert played["score"] == 1
    assert replies[5]["error"] == (
        "5D does not go on 3C: f3 builds up by 3 regardless of suit, wrapping between King and Ace"
    )
    assert replies[6]["error"] == "no foundation pile takes 5D"


def test_the_waste_goes_to_any_foundation_it_fits_with_w_f(play_from):
    replies = play_from(position(draws=["8S"]), "draw", "w f")
    assert pile(replies[2], "f4") == ["4C", "8S"] and replies[2]["score"] == 1


# --------------------------------------------------------------------------- score, won, over


def winning_draws() -> list[str]:
    """48 cards in an order that plays every one straight to a foundation: f1's, then f2's ..."""
    pool = free_cards()
    draws = []
    for f in FOUNDATIONS:
        for r in SEQUENCES[f].split()[1:]:
            draws.append(pool[r].pop())
    assert not any(pool.values())
    return draws


def test_a_won_game_scores_48_and_is_over(play_from):
    draws = winning_draws()
    commands = []
    for _ in draws:
        commands += ["draw", "w f"]
    replies = play_from(position(draws=draws), *commands, "draw", "undo")
    scores = [r["score"] for r in replies[1:-2]]
    assert scores == sorted(scores) and max(scores) == 48
    won = replies[-3]
    assert won["won"] and won["over"] and won["score"] == 48
    for f in FOUNDATIONS:
        assert len(pile(won, f)) == 13 and pile(won, f)[-1][0] == "K"
    for refused in replies[-2:]:  # a win is final: no draw, no undo
        assert not refused["ok"] and refused["error"].startswith("the game is won")
        assert refused["won"] and refused["score"] == 48 and refused["position"] == won["position"]


def test_score_counts_cards_played_to_foundations_and_undo_takes_it_back(play_from):
    replies = play_from(position(draws=["2D", "JS", "3H"], reserves={"r1": ["QS"]}),
                        "draw", "w f1", "draw", "w r2", "draw", "w f1", "undo", "undo", "redo")
    scores = [r["score"] for r in replies]
    assert scores == [0, 0, 1, 1, 1, 1, 2, 1, 1, 1]


def over_position(fits: bool) -> dict[str, Any]:
    """Stock and waste empty; the reserve tops fit no foundation (unless ``fits``)."""
    pool = free_cards()
    # foundations: f1 A 2, f2 2 4, f3 3 6, f4 4 8; they need 3, 6, 9, Q next
    found = {"f1": ["AC", pool["2"].pop()], "f2": ["2C", pool["4"].pop()],
             "f3": ["3C", pool["6"].pop()], "f4": ["4C", pool["8"].pop()]}
    rest = [c for r in RANKS if r not in "369Q" for c in pool[r]] + [c for r in "369Q" for c in pool[r]]
    # the 3s, 6s, 9s and Qs are buried under a top card of another rank on each reserve
    blocked = [c for c in rest if c[0] not in "369Q"]
    wanted = [c for c in rest if c[0] in "369Q"]
    reserves = {"r1": wanted[:4] + blocked[:8], "r2": wanted[4:8] + blocked[8:16],
                "r3": wanted[8:12] + blocked[16:24], "r4": wanted[12:] + blocked[24:]}
    if fits:
        reserves["r4"].append(reserves["r1"].pop(0))  # a wanted card (3x) comes to the top of r4
    return position(found=found, reserves=reserves, stock_rest=False, score=4)


def test_over_when_stock_and_waste_are_empty_and_no_reserve_top_fits(play_from):
    replies = play_from(over_position(fits=False), "draw", "r1 f", "r4 f")
    first = replies[0]
    assert first["over"] and not first["won"]
    assert replies[1]["error"] == "the stock is empty"
    assert replies[2]["error"].startswith("no foundation pile takes")
    assert all(r["over"] for r in replies)


def test_not_over_while_a_reserve_top_fits(play_from):
    replies = play_from(over_position(fits=True), "r4 f")
    assert not replies[0]["over"]
    assert replies[1]["ok"] and replies[1]["score"] == 5


def test_not_over_while_the_waste_holds_a_card(play_from):
    data = over_position(fits=False)
    card = data["piles"]["r3"]["up"].pop()
    data["piles"]["waste"]["up"] = [card]
    replies = play_from(data, "w r1")
    assert not replies[0]["over"]
    assert replies[1]["ok"] and replies[1]["over"]


# --------------------------------------------------------------------------- positions and undo


def test_position_round_trip_through_deal_and_play(cli, tmp_path):
    dealt = cli("deal", "calculation", "--seed", "99", "--json").out
    path = tmp_path / "p.json"
    path.write_text(dealt)
    replies = cli("play", "calculation", "--position", str(path), "--json", input="draw\nundo\n").json_lines()
    original = json.loads(dealt)
    assert replies[0]["position"]["piles"]["f3"] == original["piles"]["f3"]
    assert replies[2]["position"] == replies[0]["position"]
    assert replies[2]["moves"] == 0
    # the card drawn and undone goes back face down, on top of the stock
    assert replies[1]["position"]["piles"]["waste"]["up"] == [original["piles"]["stock"]["down"][-1]]


@pytest.mark.parametrize("change, message", [
    (lambda p: p["piles"]["f2"]["up"].append(p["piles"]["stock"]["down"].pop(p["piles"]["stock"]["down"].index("5D"))),
     "f2 is out of order: 5D does not go on 2C (f2 builds up by 2 regardless of suit, wrapping between King and Ace)"),
    (lambda p: p["piles"]["f1"].update(up=["2C"]) or p["piles"]["f2"].update(up=["AC"]),
     "f1 cannot start with 2C: it starts with AC"),
    (lambda p: p["piles"]["waste"]["up"].extend([p["piles"]["stock"]["down"].pop(), p["piles"]["stock"]["down"].pop()]),
     "waste holds at most 1 card, has 2"),
    (lambda p: p["piles"]["r1"]["down"].append(p["piles"]["stock"]["down"].pop()),
     "r1 cannot hold face-down cards"),
])
def test_bad_positions_are_refused_with_the_reason(cli, tmp_path, change, message):
    data = position()
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = cli("play", "calculation", "--position", str(path), "--json")
    assert result.code == 2
    assert result.err.strip() == f"solitaire: {path}: {message}"


def test_notation_errors_name_the_piles(play_from):
    replies = play_from(position(), "r5 f1", "w", "r f1")
    assert replies[1]["error"] == "unknown pile 'r5': piles are stock, waste (w), f1..f4, r1..r4"
    assert not replies[2]["ok"]
    assert replies[3]["error"].startswith("name one pile to move from")


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=200))
def test_random_play_keeps_every_rule(seed, choices):
    game = Game.new(Rules.of(get_variant("calculation")), seed)
    rules = game.rules
    idx = rules.index
    fidx = [idx[f] for f in FOUNDATIONS]
    start = [parse_card(START[f]) for f in FOUNDATIONS]
    keys = [game.key()]
    for choice in choices:
        moves = game.legal_moves()
        # over: exactly when the stock and the waste are empty and no reserve top fits
        stock_waste_empty = not game.piles[idx["stock"]] and not game.piles[idx["waste"]]
        top_fits = any(m[0] in [idx[r] for r in RESERVES] for m in moves)
        assert game.over == (stock_waste_empty and not top_fits)
        if not moves:
            break
        move = moves[choice % len(moves)]
        src, dst, n = move
        assert n in (0, 1)
        if n:
            assert rules.role[dst] in ("foundation", "reserve")
            if rules.role[src] == "reserve":
                assert rules.role[dst] == "foundation"
        else:
            assert not game.piles[idx["waste"]]
        game.push(move)
        keys.append(game.key())
        assert len(game.piles[idx["waste"]]) <= 1
        on_foundations = sum(len(game.piles[f]) for f in fidx)
        assert game.score == on_foundations - 4
        for k, (f, first) in enumerate(zip(fidx, start, strict=False), 1):
            cards = game.piles[f]
            assert cards[0] == first and len(cards) <= 13
            assert [RANK[c] for c in cards] == [(RANK[first] - 1 + k * i) % 13 + 1 for i in range(len(cards))]
    while game.history:  # pop is the exact inverse of push
        keys.pop()
        game.pop()
        assert game.key() == keys[-1]
    assert game.score == 0


def test_the_kernel_has_no_calculation_code():
    for path in CORE.glob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        assert not re.search(r"calculation|hopscotch", text), path.name


def test_the_line_mode_speaks_in_calculations_own_piles(cli):
    out = cli("play", "hopscotch", "--plain", "--seed", "42", "--new", input="help\nw\nquit\n").out
    assert "e.g. 'w r2', 'r1 f'" in out and "r1..r4" in out
    assert "turn the waste back" not in out  # no redeal in Calculation
    assert max(len(line) for line in out.splitlines() if not line.startswith(("refused", ">"))) <= 80
    assert "t7" not in out
    assert "refused: cannot read 'w': a move is 'SRC DST [N]' (e.g. 'w r2', 'r1 f') or 'draw'" in out
