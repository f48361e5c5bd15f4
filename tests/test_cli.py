"""The command line: `solitaire deal`, `solitaire play --json` (the protocol), errors and exit codes."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from klondike_helpers import position, suit_run, won_but, write_position

from solitaire.core import Game, Rules, SolitaireError, get_variant

KLONDIKE = get_variant("klondike")
REPLY_KEYS = {"ok", "error", "position", "score", "moves", "won"}


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path, monkeypatch):
    """Saves and statistics of CLI runs go to a scratch folder, never the user's."""
    monkeypatch.setenv("SOLITAIRE_HOME", str(tmp_path / "home"))


def play_json(cli, *args: str, commands: Sequence[str] | str = ()) -> list[dict[str, Any]]:
    text = commands if isinstance(commands, str) else "".join(c + "\n" for c in commands)
    result = cli("play", "klondike", *args, "--json", input=text)
    assert result.code == 0, result.err
    assert result.err == ""
    lines = result.out.splitlines()
    assert all(line.strip() for line in lines)
    return [json.loads(line) for line in lines]


# ---------------------------------------------------------------------------- deal


def dealt(cli, seed: int, *options: str) -> dict[str, Any]:
    result = cli("deal", "klondike", "--seed", str(seed), *options, "--json")
    assert (result.code, result.err) == (0, "")
    data: dict[str, Any] = json.loads(result.out)
    return data


def test_deal_one_is_pinned_forever(cli):
    piles = dealt(cli, 1)["piles"]
    columns = {name: (p["down"], p["up"]) for name, p in piles.items() if name.startswith("t")}
    assert columns == {
        "t1": ([], ["7D"]),
        "t2": (["9C"], ["6D"]),
        "t3": (["4D", "9S"], ["2D"]),
        "t4": (["8H", "JC", "JH"], ["2C"]),
        "t5": (["8D", "5D", "5H", "AD"], ["KH"]),
        "t6": (["5S", "KD", "7H", "6S", "TH"], ["JS"]),
        "t7": (["JD", "3C", "4H", "KC", "TS", "TD"], ["8S"]),
    }
    stock = piles["stock"]["down"]
    assert len(stock) == 24 and piles["stock"]["up"] == []
    assert stock[:3] == ["QC", "4S", "6C"] and stock[-3:] == ["2S", "9H", "7S"]


@pytest.mark.parametrize("seed, t1, t7, stock_bottom, stock_top", [
    (0, "8S", (["6S", "9H", "2C", "6C", "5D", "8D"], ["AD"]), "QH", "TH"),
    (2, "QH", (["KH", "QC", "9S", "5S", "AD", "6S"], ["8H"]), "3H", "9H"),
])
def test_deals_zero_and_two_are_pinned_forever(cli, seed, t1, t7, stock_bottom, stock_top):
    piles = dealt(cli, seed)["piles"]
    assert piles["t1"] == {"down": [], "up": [t1]}
    assert (piles["t7"]["down"], piles["t7"]["up"]) == t7
    assert piles["stock"]["down"][0] == stock_bottom and piles["stock"]["down"][-1] == stock_top


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_deal_is_the_same_every_time_and_for_every_option(cli, seed):
    first = dealt(cli, seed)
    assert dealt(cli, seed) == first
    other = dealt(cli, seed, "--draw", "3", "--redeals", "2", "--relaxed")
    assert other["piles"] == first["piles"]
    assert other["options"] == {"draw": 3, "redeals": 2, "relaxed": True}
    assert first["options"] == {"draw": 1, "redeals": None, "relaxed": False}


def test_deal_shows_every_card_face_up(cli):
    result = cli("deal", "klondike", "--seed", "1")
    assert result.code == 0
    from solitaire.core.cards import card_name

    for card in range(52):
        assert card_name(card) in result.out
    assert "##" not in result.out and "deal klondike-1" in result.out


def test_deal_json_is_a_loadable_position(cli):
    data = dealt(cli, 3, "--draw", "3")
    game = Game.from_position(KLONDIKE, data)
    assert game.to_position() == data
    assert Game.new(Rules.of(KLONDIKE, {"draw": 3}), 3).to_position() == data


# ---------------------------------------------------------------------------- user errors


@pytest.mark.parametrize("args, message", [
    (("play", "nope"), None),
    (("deal", "nope", "--seed", "1"), None),
    (("play", "klondike", "--draw", "2"), "--draw must be one of 1, 3, got '2'"),
    (("play", "klondike", "--draw", "three"), "--draw must be one of 1, 3, got 'three'"),
    (("deal", "klondike", "--seed", "1", "--draw", "0"), "--draw must be one of 1, 3, got '0'"),
    (("play", "klondike", "--redeals", "x"), "--redeals must be a whole number 0 or more or 'unlimited', got 'x'"),
    (("play", "klondike", "--redeals", "-1"), "--redeals must be 0 or more, got -1"),
    (("play", "klondike", "--bogus", "1"), "klondike has no option --bogus; its options: --draw, --redeals, --relaxed"),
    (("play", "klondike", "--seed", "1", "--position", "x.json"), "give --seed or --position, not both"),
    (("play", "klondike", "stray"), "unexpected argument 'stray'"),
    (("play", "klondike", "--seed", "-1"), None),
    (("play", "klondike", "--seed", "many"), None),
    (("play", "klondike", "--relaxed=maybe"), None),
    (("deal", "klondike"), None),
    (("play", "klondike", "--draw"), None),
])
def test_a_user_error_is_one_line_on_stderr_and_status_2(cli, args, message):
    result = cli(*args, "--json", input="draw\n")
    assert result.code == 2
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire: ")
    assert "Traceback" not in result.err
    if message is not None:
        assert lines[0] == f"solitaire: {message}"


def test_an_unknown_variant_names_the_installed_ones(cli):
    result = cli("play", "nope")
    assert result.code == 2
    assert result.err.startswith("solitaire: unknown variant 'nope'; installed: ")
    assert "klondike" in result.err


def test_variant_names_are_case_insensitive(cli):
    first = cli("play", "Klondike", "--seed", "1", "--json").json_lines()[0]
    assert first["position"]["variant"] == "klondike"


# ---------------------------------------------------------------------------- the --json protocol


def test_the_first_line_is_the_starting_state_with_face_down_cards_hidden(cli):
    deal = dealt(cli, 1)
    (first,) = play_json(cli, "--seed", "1")
    assert set(first) >= REPLY_KEYS and "hint" not in first
    assert (first["ok"], first["error"], first["score"], first["moves"], first["won"]) == (True, None, 0, 0, False)
    piles = first["position"]["piles"]
    assert piles["stock"] == {"down": ["??"] * 24, "up": []}
    for k in range(1, 8):
        assert piles[f"t{k}"]["down"] == ["??"] * (k - 1)
        assert piles[f"t{k}"]["up"] == deal["piles"][f"t{k}"]["up"]
    assert first["position"]["seed"] == 1
    assert first["position"]["options"] == {"draw": 1, "redeals": None, "relaxed": False}


def test_one_reply_per_command_and_blank_lines_are_ignored(cli):
    replies = play_json(cli, "--seed", "1", commands="draw\n\n   \n\t\nundo\n\nredo\n")
    assert len(replies) == 4
    assert [r["moves"] for r in replies] == [0, 1, 0, 1]
    assert all(r["ok"] for r in replies)


def test_draw_three_shows_three_waste_cards_and_the_stock_stays_hidden(cli):
    deal = dealt(cli, 1)
    _start, reply = play_json(cli, "--seed", "1", "--draw", "3", commands=["draw"])
    waste = reply["position"]["piles"]["waste"]
    assert waste == {"down": [], "up": list(reversed(deal["piles"]["stock"]["down"][-3:]))}
    assert reply["position"]["piles"]["stock"] == {"down": ["??"] * 21, "up": []}


def test_end_of_input_ends_with_status_0(cli):
    result = cli("play", "klondike", "--seed", "4", "--json", input="draw")  # no final newline
    assert result.code == 0 and len(result.json_lines()) == 2


@pytest.mark.parametrize("word", ["quit", "q", "QUIT"])
def test_quit_replies_then_ends_with_status_0(cli, word):
    replies = play_json(cli, "--seed", "4", commands=["draw", word, "draw", "draw"])
    assert len(replies) == 3
    assert replies[2]["ok"] is True and replies[2]["moves"] == 1


@pytest.mark.parametrize("command, error", [
    ("t1 t9", "unknown pile 't9': piles are stock, waste (w), f1..f4, t1..t7"),
    ("t1 t1", "t1 cannot move onto itself"),
    ("t1", "cannot read 't1': a move is 'SRC DST [N]' (e.g. 't7 t6', 'w t2', 't1 f') or 'draw'"),
    ("w t1", "waste is empty"),
    ("t2 t1", "6D does not go on 7D: t1 builds down in alternating colours"),
    ("t1 t5", "7D does not go on KH: t5 builds down in alternating colours"),
    ("t5 f", "no foundation pile takes KH"),
    ("t3 t4 2", "t3 has only 1 face-up card"),
    ("undo", "nothing to undo"),
    ("redo", "nothing to redo"),
    ("undo 2", "'undo' takes no arguments"),
    ("finish now", "'finish' takes no arguments"),
    ("draw 3", "'draw' takes no arguments"),
    ("finish", "finish needs every card face up"),
    ("t7 t3 ²", "the number of cards must be a whole number of at least 1, got '²'"),
])
def test_a_refused_command_is_ok_false_with_the_reason_and_the_position_unchanged(cli, command, error):
    start, reply = play_json(cli, "--seed", "1", commands=[command])
    assert reply["ok"] is False
    assert reply["error"] == error
    for key in ("position", "score", "moves", "won"):
        assert reply[key] == start[key]


def test_a_refusal_in_the_middle_of_a_game_changes_nothing(cli):
    replies = play_json(cli, "--seed", "1", commands=["draw", "draw", "t9 t9", "draw"])
    assert [r["ok"] for r in replies] == [True, True, True, False, True]
    assert replies[3]["position"] == replies[2]["position"]
    assert replies[3]["moves"] == replies[2]["moves"] == 2


def test_hint_adds_a_hint_and_only_to_its_reply(cli):
    replies = play_json(cli, "--seed", "1", commands=["hint", "draw", "HINT"])
    assert "hint" in replies[1] and "hint" in replies[3]
    assert "hint" not in replies[0] and "hint" not in replies[2]
    game = Game.new(Rules.of(KLONDIKE, {}), 1)
    legal = {game.move_text(m) for m in game.legal_moves()}
    assert replies[1]["hint"] in legal
    assert replies[1]["position"] == replies[0]["position"] and replies[1]["moves"] == 0


def test_hint_is_null_when_no_move_is_left(cli, tmp_path):
    # AC lies under 2C and the other clubs sit on KC in one face-up heap: nothing can move
    game = won_but({"t1": "AC 2C", "t2": " ".join(suit_run("C", 3).split()[::-1])})
    assert game.legal_moves() == []
    path = write_position(tmp_path, game.to_position())
    _, reply = play_json(cli, "--position", path, commands=["hint"])
    assert reply["ok"] is True and reply["hint"] is None


def test_the_score_and_moves_follow_the_game(cli, tmp_path):
    path = write_position(tmp_path, position({"t1": "2C 3C | 8S", "t2": "9H", "t3": "AD", "waste": "QS"}))
    replies = play_json(cli, "--position", path, commands=["t1 t2", "t3 f", "draw", "undo", "w t3"])
    assert [(r["score"], r["moves"]) for r in replies] == [(0, 0), (5, 1), (15, 2), (15, 3), (15, 2), (15, 2)]
    assert replies[-1]["ok"] is False
    assert replies[-1]["error"] == "an empty t3 takes only a King, not QS"


def test_finish_wins_through_the_protocol(cli, tmp_path):
    game = won_but({"t1": "KC QH", "t2": "KH QC", "t3": "KD QS", "t4": "KS QD"})
    path = write_position(tmp_path, game.to_position())
    start, reply, *after = play_json(cli, "--position", path, commands=["finish", "draw", "undo", "f1 t1"])
    assert start["won"] is False
    assert reply["ok"] is True and reply["won"] is True
    assert reply["moves"] == 8 and reply["score"] == 80
    for f, suit in zip(("f1", "f2", "f3", "f4"), "CDHS", strict=True):
        assert reply["position"]["piles"][f]["up"] == suit_run(suit).split()
    for refused in after:  # a win is final (it is in the statistics): nothing undoes or changes it
        assert refused["ok"] is False and refused["error"].startswith("the game is won")
        assert refused["position"] == reply["position"] and refused["won"] is True


def test_finish_refused_with_its_reason_through_the_protocol(cli, tmp_path):
    path = write_position(tmp_path, won_but({"t1": "KH | QH"}).to_position())
    start, reply = play_json(cli, "--position", path, commands=["finish"])
    assert reply["ok"] is False and reply["error"] == "finish needs every card face up"
    assert reply["position"] == start["position"]
    assert start["position"]["piles"]["t1"] == {"down": ["??"], "up": ["QH"]}


def test_redeals_run_out_through_the_protocol(cli):
    replies = play_json(cli, "--seed", "1", "--redeals", "0", commands=["draw"] * 25)
    assert all(r["ok"] for r in replies[:25])
    assert replies[25]["ok"] is False
    assert replies[25]["error"] == "the stock is empty and this game has no redeals"


def test_relaxed_through_the_protocol(cli, tmp_path):
    data = position({"f1": "AS 2S", "t1": "3H"}, score=30)
    path = write_position(tmp_path, data)
    _, strict = play_json(cli, "--position", path, commands=["f1 t1"])
    assert strict["ok"] is False and strict["error"] == "cards cannot be taken from f1"
    _, relaxed = play_json(cli, "--position", path, "--relaxed", commands=["f1 t1"])
    assert relaxed["ok"] is True and relaxed["score"] == 15
    assert relaxed["position"]["piles"]["t1"]["up"] == ["3H", "2S"]


def test_a_very_long_line_is_refused(cli):
    start, reply = play_json(cli, "--seed", "1", commands=["t1 " + "x" * 20000])
    assert reply["ok"] is False and reply["error"].startswith("command too long")
    assert reply["position"] == start["position"]


def test_the_protocol_agrees_with_the_python_api_on_a_random_session(cli):
    rng = random.Random(5)
    game = Game.new(Rules.of(KLONDIKE, {"draw": 3, "redeals": 2, "relaxed": True}), 77)
    commands, expected = [], []
    for _ in range(150):
        roll = rng.random()
        if roll < 0.6 and game.legal_moves():
            text = game.move_text(rng.choice(game.legal_moves()))
        elif roll < 0.75:
            text = "undo"
        elif roll < 0.8:
            text = "redo"
        else:
            text = rng.choice(["t1 t2", "w f", "t3 f2", "f1 t4", "t7 t1 3", "s", "t4 w", "x y"])
        commands.append(text)
        try:
            if text == "undo":
                game.undo()
            elif text == "redo":
                game.redo()
            else:
                game.play(text)
            ok = True
        except SolitaireError:
            ok = False
        expected.append((ok, game.to_position(hidden=True), game.score, game.moves, game.won))
    replies = play_json(cli, "--seed", "77", "--draw", "3", "--redeals", "2", "--relaxed", commands=commands)
    assert len(replies) == len(commands) + 1
    got = [(r["ok"], r["position"], r["score"], r["moves"], r["won"]) for r in replies[1:]]
    assert got == expected


# ---------------------------------------------------------------------------- a complete game of draw 3

# Deal 2 in draw 3, won by a search (two recycles on the way); then 'finish' plays the last 16 cards.
DEAL_2_DRAW_3 = """
draw ; draw ; draw ; w t4 ; draw ; w t2 ; t7 t2 ; t7 t3 ; t7 f1 ; draw ; draw ; w t1 ; w f2 ; t2 t1 3 ; draw ;
w t6 ; w f3 ; t5 f3 ; t2 f3 ; t3 t5 2 ; t3 f4 ; draw ; w t3 ; w t4 ; t5 t4 3 ; draw ; draw ; w f4 ; draw ; draw ;
w t4 ; t3 t4 2 ; draw ; w t1 ; w f3 ; t7 f3 ; w t6 ; t7 t6 ; t4 t7 9 ; t4 t1 ; t7 t4 3 ; t7 f3 ; t4 t7 4 ; draw ;
w t1 ; w t2 ; w f2 ; t7 f2 ; t6 t2 4 ; t6 f2 ; t4 f2 ; t6 t1 ; t6 t5 ; t6 f4 ; t6 f1 ; t7 f4 ; draw ; draw ; draw ;
w f1 ; t1 f1 ; t7 f1 ; t1 f4 ; t1 f2 ; t7 f4 ; t1 f4 ; w t2 ; w t5 ; draw ; w t3 ; t1 t3 5 ; w t5 ; w t1 ;
t7 t1 6 ; t1 t5 ; t1 f4 ; draw ; w f1 ; t5 f1 ; t2 f1 ; t1 f1 ; t3 t2 ; t3 f4 ; t3 f1 ; t5 t1 2 ; t5 f4 ; t3 f4 ;
t1 t5 3 ; t1 f1 ; t1 f4 ; w t1 ; t5 t1 4 ; t5 f3
"""


def test_a_complete_game_of_draw_three(cli):
    moves = [m.strip() for m in DEAL_2_DRAW_3.replace("\n", " ").split(";")]
    replies = play_json(cli, "--seed", "2", "--draw", "3", commands=[*moves, "finish", "quit"])
    assert len(replies) == len(moves) + 3
    bad = [(m, r["error"]) for m, r in zip(moves, replies[1:], strict=False) if not r["ok"]]
    assert bad == []
    recycled_at = [i for i, (before, after) in enumerate(itertools.pairwise(replies))
                   if after["position"]["recycles"] == before["position"]["recycles"] + 1]
    assert [moves[i] for i in recycled_at] == ["draw", "draw"]
    for i in recycled_at:  # the whole waste went back into the stock, face down
        assert replies[i + 1]["position"]["piles"]["waste"]["up"] == []
        assert len(replies[i + 1]["position"]["piles"]["stock"]["down"]) == \
            len(replies[i]["position"]["piles"]["waste"]["up"])
    ready = replies[len(moves)]
    assert not ready["won"] and ready["position"]["piles"]["stock"]["down"] == []
    assert all(p["down"] == [] for p in ready["position"]["piles"].values())
    won = replies[len(moves) + 1]
    assert won["ok"] is True and won["won"] is True
    assert won["moves"] == len(moves) + 16
    # the score, from the table: 52 cards home, 21 cards turned up, waste-to-tableau moves, recycles
    waste_to_tableau = sum(1 for m in moves if m.startswith("w t"))
    assert won["score"] == 52 * 10 + 21 * 5 + waste_to_tableau * 5 - 2 * 20
    assert won["position"]["recycles"] == 2
    for f in ("f1", "f2", "f3", "f4"):
        assert len(won["position"]["piles"][f]["up"]) == 13


# ---------------------------------------------------------------------------- the line mode


def test_the_line_mode_plays_and_explains_refusals(cli):
    result = cli("play", "klondike", "--seed", "1", input="draw\nt1 t9\nundo\nquit\n")
    assert result.code == 0 and result.err == ""
    assert "refused: unknown pile 't9': piles are stock, waste (w), f1..f4, t1..t7" in result.out
    assert "deal klondike-1" in result.out  # the share code: `play --deal` plays it anywhere
