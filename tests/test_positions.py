"""Position JSON: the format, round trips (API and CLI), and every refusal with its reason."""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from klondike_helpers import PILES, load, position, snapshot, write_position

from solitaire.core import Game, PositionError, Rules, get_variant
from solitaire.core.limits import MAX_JSON_DEPTH, MAX_JSON_NUMBER_CHARS
from solitaire.core.position import parse_json

KLONDIKE = get_variant("klondike")


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path, monkeypatch):
    """Saves and statistics of CLI runs go to a scratch folder, never the user's."""
    monkeypatch.setenv("SOLITAIRE_HOME", str(tmp_path / "home"))


def hide(data: dict[str, Any]) -> dict[str, Any]:
    """What the --json protocol shows of a position: face-down cards as '??'."""
    out = copy.deepcopy(data)
    for p in out["piles"].values():
        p["down"] = ["??"] * len(p["down"])
    return out


def played(seed: int, steps: int, **options) -> Game:
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    return game


# ---------------------------------------------------------------------------- the format


def test_the_position_format():
    game = Game.new(Rules.of(KLONDIKE, {"draw": 3}), 17)
    data = game.to_position()
    assert list(data) == ["variant", "seed", "options", "piles", "score", "moves", "recycles"]
    assert data["variant"] == "klondike" and data["seed"] == 17
    assert data["options"] == {"draw": 3, "redeals": None, "relaxed": False}  # null = unlimited
    assert list(data["piles"]) == list(PILES)
    assert all(set(p) == {"down", "up"} for p in data["piles"].values())
    assert data["piles"]["t3"]["down"] == [c for c in data["piles"]["t3"]["down"]] and \
        len(data["piles"]["t3"]["down"]) == 2 and len(data["piles"]["t3"]["up"]) == 1
    assert len(data["piles"]["stock"]["down"]) == 24 and data["piles"]["stock"]["up"] == []
    assert (data["score"], data["moves"], data["recycles"]) == (0, 0, 0)
    json.dumps(data)  # JSON-ready


def test_the_stock_lists_bottom_to_top_so_its_last_card_is_drawn_next():
    game = Game.new(Rules.of(KLONDIKE, {}), 5)
    last = game.to_position()["piles"]["stock"]["down"][-1]
    assert game.play("draw").cards == (last,)


def test_a_hidden_position_shows_every_face_down_card_as_question_marks():
    game = played(3, 30, draw=3)
    shown, hidden = game.to_position(), game.to_position(hidden=True)
    for name in PILES:
        assert hidden["piles"][name]["down"] == ["??"] * len(shown["piles"][name]["down"])
        assert hidden["piles"][name]["up"] == shown["piles"][name]["up"]
        assert "??" not in shown["piles"][name]["down"]


# ---------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("seed", [0, 1, 2, 99])
@pytest.mark.parametrize("steps", [0, 25, 120])
@pytest.mark.parametrize("options", [{}, {"draw": 3, "redeals": 2}, {"relaxed": True, "redeals": 0}])
def test_a_position_round_trips(seed, steps, options):
    game = played(seed, steps, **options)
    data = game.to_position()
    again = Game.from_position(KLONDIKE, json.loads(json.dumps(data)))
    assert again.to_position() == data
    assert snapshot(again) == snapshot(game)
    assert again.rules is game.rules
    assert sorted(again.legal_moves()) == sorted(game.legal_moves())


def test_loading_accepts_any_case_and_10_for_ten():
    data = position({"t1": "5h 8C | 10h", "t2": "as", "f1": "", "waste": " kD "}, rest="stock")
    game = Game.from_position(KLONDIKE, data)
    shown = game.to_position()["piles"]
    assert shown["t1"] == {"down": ["5H", "8C"], "up": ["TH"]}
    assert shown["t2"]["up"] == ["AS"] and shown["waste"]["up"] == ["KD"]


def test_face_up_cards_in_a_column_need_not_form_a_run():
    game = load({"t1": "2C | 9H 9S 3D"})
    assert game.to_position()["piles"]["t1"] == {"down": ["2C"], "up": ["9H", "9S", "3D"]}


def test_options_seed_and_recycles_may_be_left_out():
    data = position({})
    del data["options"], data["seed"], data["score"], data["moves"]
    game = Game.from_position(KLONDIKE, data)
    assert game.rules.options == {"draw": 1, "redeals": None, "relaxed": False}
    assert (game.seed, game.score, game.moves, game.recycles) == (None, 0, 0, 0)


def test_a_position_keeps_score_moves_and_recycles():
    game = load({}, options={"draw": 3, "redeals": 3}, score=120, moves=44, recycles=2, seed=8)
    assert (game.score, game.moves, game.recycles, game.seed) == (120, 44, 2, 8)
    assert game.rules.options == {"draw": 3, "redeals": 3, "relaxed": False}


# ---------------------------------------------------------------------------- refusals


def _move(data: dict[str, Any], card: str, pile: str, part: str = "up") -> None:
    """Move ``card`` out of the stock onto ``pile`` (for building bad positions)."""
    data["piles"]["stock"]["down"].remove(card)
    data["piles"][pile][part].append(card)


def _moves(data: dict[str, Any], pile: str, *cards: str) -> None:
    """Move ``cards`` out of the stock onto ``pile``, in this order."""
    for card in cards:
        _move(data, card, pile)


def _face_down_end(data: dict[str, Any]) -> None:
    data["piles"]["t1"]["up"] = []
    _move(data, "9D", "t1", "down")
    data["piles"]["stock"]["down"].append("8S")


REFUSALS = [
    ("duplicate card", lambda d: d["piles"]["t2"]["up"].append("8S"), "8S appears twice (in t1 and t2)"),
    ("missing card", lambda d: d["piles"]["stock"]["down"].remove("KD"), "1 card is missing: KD"),
    ("missing cards", lambda d: [d["piles"]["stock"]["down"].remove(c) for c in ("QH", "AC", "4C")],
     "3 cards are missing: AC, 4C, QH"),
    ("unknown pile", lambda d: d["piles"].__setitem__("t8", {"down": [], "up": []}),
     "unknown pile 't8'; klondike has stock, waste, f1, f2, f3, f4, t1, t2, t3, t4, t5, t6, t7"),
    ("unknown card", lambda d: d["piles"]["t1"]["up"].__setitem__(0, "1S"),
     "t1.up: unknown card '1S': expected a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), e.g. 'TH'"),
    ("not a card", lambda d: d["piles"]["t1"]["up"].__setitem__(0, 7), "t1.up: 7 is not a card"),
    ("hidden card", lambda d: d["piles"]["t1"]["down"].__setitem__(0, "??"),
     "t1.down has a hidden card '??': a position to load must show every card"),
    ("hidden stock card", lambda d: d["piles"]["stock"]["down"].__setitem__(0, "??"),
     "stock.down has a hidden card '??': a position to load must show every card"),
    ("missing pile", lambda d: d["piles"].pop("waste"),
     "pile 'waste' is missing (every pile must be present, even if empty)"),
    ("missing column", lambda d: d["piles"].pop("t7"),
     "pile 't7' is missing (every pile must be present, even if empty)"),
    ("face-down end", _face_down_end,
     "t1 ends with a face-down card: a non-empty tableau pile ends face up"),
    ("stock face up", lambda d: d["piles"]["stock"]["up"].append(d["piles"]["stock"]["down"].pop()),
     "the stock's cards are face down: stock.up must be empty"),
    ("foundation out of order", lambda d: _moves(d, "f1", "AH", "3H"),
     "f1 is out of order: 3H does not go on AH (f1 builds up in the same suit)"),
    ("foundation mixed suits", lambda d: _moves(d, "f2", "AH", "2D"),
     "f2 is out of order: 2D does not go on AH (f2 builds up in the same suit)"),
    ("foundation without ace", lambda d: _move(d, "2H", "f1"), "f1 cannot start with 2H: it starts with an Ace"),
    ("foundation face down", lambda d: _move(d, "AH", "f1", "down"), "f1 cannot hold face-down cards"),
    ("waste face down", lambda d: _move(d, "AH", "waste", "down"), "waste cannot hold face-down cards"),
    ("wrong variant", lambda d: d.__setitem__("variant", "spider"), "the position is for 'spider', not 'klondike'"),
    ("bad draw", lambda d: d["options"].__setitem__("draw", 2), "options: --draw must be one of 1, 3, got 2"),
    ("bad redeals", lambda d: d["options"].__setitem__("redeals", -1), "options: --redeals must be 0 or more, got -1"),
    ("bad relaxed", lambda d: d["options"].__setitem__("relaxed", "maybe"),
     "options: --relaxed is a switch: expected true or false, got 'maybe'"),
    ("unknown option", lambda d: d["options"].__setitem__("speed", 2),
     "options: klondike has no option --speed; its options: --draw, --redeals, --relaxed"),
    ("options not an object", lambda d: d.__setitem__("options", [3]), 'options must be an object, e.g. {"draw": 3}'),
    ("unknown key", lambda d: d.__setitem__("colour", "red"),
     "unknown key 'colour' in the position; expected: variant, seed, numbering, options, piles, score, moves, "
     "recycles, base"),
    ("no piles", lambda d: d.pop("piles"), "the position has no 'piles'"),
    ("no variant", lambda d: d.pop("variant"), "the position has no 'variant'"),
    ("piles not an object", lambda d: d.__setitem__("piles", []),
     'piles must be an object of pile name to {"down": [...], "up": [...]}'),
    ("pile not an object", lambda d: d["piles"].__setitem__("waste", []),
     'waste must be an object {"down": [...], "up": [...]}'),
    ("pile with another key", lambda d: d["piles"]["waste"].__setitem__("top", []),
     'waste must be an object {"down": [...], "up": [...]}'),
    ("cards not a list", lambda d: d["piles"]["waste"].__setitem__("up", "AS"), "waste.up must be a list of cards"),
    ("bad seed", lambda d: d.__setitem__("seed", -1),
     "seed must be null or a whole number from 0 to 18446744073709551615, got -1"),
    ("score not a number", lambda d: d.__setitem__("score", "10"), "score must be a whole number, got '10'"),
    ("score below zero", lambda d: d.__setitem__("score", -5), "score must be at least 0, got -5"),
    ("moves below zero", lambda d: d.__setitem__("moves", -1), "moves must be at least 0, got -1"),
    ("moves not whole", lambda d: d.__setitem__("moves", 2.5), "moves must be a whole number, got 2.5"),
    ("too many recycles", lambda d: (d["options"].__setitem__("redeals", 1), d.__setitem__("recycles", 2)),
     "recycles is 2 but the options allow only 1 redeal(s)"),
]


def bad_position(mutate) -> dict[str, Any]:
    data = position({"t1": "2C 3C | 8S"})
    mutate(data)
    return data


@pytest.mark.parametrize("what, mutate, message", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_bad_position_is_refused_with_a_precise_reason(what, mutate, message):
    with pytest.raises(PositionError) as info:
        Game.from_position(KLONDIKE, bad_position(mutate))
    assert str(info.value) == message


@pytest.mark.parametrize("data", [[1, 2], "klondike", None, 3])
def test_a_position_that_is_not_an_object_is_refused(data):
    with pytest.raises(PositionError, match=r"^a position is a JSON object$"):
        Game.from_position(KLONDIKE, data)


# ---------------------------------------------------------------------------- through the CLI


def test_a_deal_round_trips_through_the_cli(cli, tmp_path):
    dealt = cli("deal", "klondike", "--seed", "42", "--draw", "3", "--json")
    assert dealt.code == 0 and dealt.err == ""
    data = json.loads(dealt.out)
    path = write_position(tmp_path, dealt.out)
    result = cli("play", "klondike", "--position", path, "--json")
    assert result.code == 0 and result.err == ""
    (first,) = result.json_lines()
    assert first["position"] == hide(data)
    assert first["position"]["options"]["draw"] == 3
    assert Game.from_position(KLONDIKE, data).to_position() == data


def test_a_game_in_progress_round_trips_through_the_cli(cli, tmp_path):
    game = played(11, 40, draw=3, redeals=4)
    data = game.to_position()
    path = write_position(tmp_path, data)
    (first,) = cli("play", "klondike", "--position", path, "--json").json_lines()
    assert first["position"] == hide(data)
    assert (first["score"], first["moves"]) == (game.score, game.moves)


def test_options_on_the_command_line_override_the_file(cli, tmp_path):
    path = write_position(tmp_path, position({}, options={"draw": 1}))
    first, reply = cli("play", "klondike", "--position", path, "--draw", "3", "--json", input="draw\n").json_lines()
    assert first["position"]["options"]["draw"] == 3
    assert len(reply["position"]["piles"]["waste"]["up"]) == 3


@pytest.mark.parametrize("what, mutate, message", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_the_cli_refuses_a_bad_position_file_in_one_line(cli, tmp_path, what, mutate, message):
    path = write_position(tmp_path, bad_position(mutate))
    result = cli("play", "klondike", "--position", path, "--json")
    assert result.code == 2
    assert result.out == ""
    assert result.err == f"solitaire: {path}: {message}\n"


@pytest.mark.parametrize("content, message", [
    ("{\n  \"variant\": ", "{path}:2: not valid JSON: Expecting value"),
    ("", "{path}:1: not valid JSON: Expecting value"),
    ("[1, 2]", "{path}: a position is a JSON object with keys variant, piles ..."),
    ("\"klondike\"", "{path}: a position is a JSON object with keys variant, piles ..."),
])
def test_the_cli_refuses_a_file_that_is_not_a_position(cli, tmp_path, content, message):
    path = write_position(tmp_path, content)
    result = cli("play", "klondike", "--position", path)
    assert (result.code, result.out) == (2, "")
    assert result.err == f"solitaire: {message.format(path=path)}\n"


def test_the_cli_refuses_a_missing_file_a_folder_and_a_binary_file(cli, tmp_path):
    missing = tmp_path / "nope.json"
    result = cli("play", "klondike", "--position", str(missing))
    assert (result.code, result.err) == (2, f"solitaire: {missing}: no such file\n")
    result = cli("play", "klondike", "--position", str(tmp_path))
    assert (result.code, result.err) == (2, f"solitaire: {tmp_path}: is a folder, not a position file\n")
    binary = tmp_path / "cards.bin"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    result = cli("play", "klondike", "--position", str(binary))
    assert (result.code, result.err) == (2, f"solitaire: {binary}: not a text file\n")


def test_a_position_for_another_option_set_is_refused_by_the_cli(cli, tmp_path):
    path = write_position(tmp_path, position({}, options={"redeals": 1}, recycles=1))
    result = cli("play", "klondike", "--position", path, "--redeals", "0", "--json")
    assert result.code == 2
    assert result.err == f"solitaire: {path}: recycles is 1 but the options allow only 0 redeal(s)\n"


# ---------------------------------------------------------------------------- JSON limits


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=30)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


def _longest_number(value: object) -> int:
    if isinstance(value, (list, dict)):
        return max((_longest_number(v) for v in (value.values() if isinstance(value, dict) else value)), default=0)
    return len(json.dumps(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


@settings(max_examples=200, deadline=None)
@given(value=json_values, wrap=st.integers(0, MAX_JSON_DEPTH + 5))
def test_json_within_the_limits_reads_as_json_and_past_them_is_one_position_error(value, wrap):
    value = functools.reduce(lambda v, _: [v], range(wrap), value)
    text = json.dumps(value)
    if _depth(value) <= MAX_JSON_DEPTH and _longest_number(value) <= MAX_JSON_NUMBER_CHARS:
        assert parse_json(text, "x.json") == json.loads(text)
    else:
        with pytest.raises(PositionError) as info:
            parse_json(text, "x.json")
        assert str(info.value).startswith("x.json: ") and "\n" not in str(info.value)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from('[]{}",:0123456789.eE-+ \\nultrfsa'), max_size=200))
def test_any_text_is_json_data_or_one_position_error(text):
    try:
        parse_json(text, "x.json")
    except PositionError as exc:
        assert str(exc).startswith("x.json") and "\n" not in str(exc)
