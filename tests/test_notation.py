"""The move notation: SRC DST [N], draw/s, case, the run length, and every malformed command."""

from __future__ import annotations

import random

import pytest
from klondike_helpers import load, pile, snapshot, up

from solitaire.core import Game, IllegalMoveError, NotationError, Rules, SolitaireError, get_variant

KLONDIKE = get_variant("klondike")
INDEX = Rules.of(KLONDIKE, {}).index


def move(src: str, dst: str, n: int) -> tuple[int, int, int]:
    return (INDEX[src], INDEX[dst], n)


@pytest.fixture
def game() -> Game:
    # t7 has a three-card run on a face-down card, t3 takes it; the waste's 8H fits t2.
    return load({"t7": "2C | TD 9C 8H", "t3": "JS", "t2": "9S", "t1": "AD", "waste": "4C 8D",
                 "t4": "", "t5": "KH", "f2": "", "stock": "5S"})


@pytest.mark.parametrize("text, expected", [
    ("t7 t3", move("t7", "t3", 3)),
    ("w t2", move("waste", "t2", 1)),
    ("waste t2", move("waste", "t2", 1)),
    ("t1 f", move("t1", "f1", 1)),
    ("t1 f2", move("t1", "f2", 1)),
    ("t7 t3 3", move("t7", "t3", 3)),
    ("t5 t4", move("t5", "t4", 1)),
    ("draw", move("stock", "waste", 0)),
    ("s", move("stock", "waste", 0)),
    ("DRAW", move("stock", "waste", 0)),
    ("S", move("stock", "waste", 0)),
    ("T7 T3", move("t7", "t3", 3)),
    ("W T2", move("waste", "t2", 1)),
    ("  t1   F2  ", move("t1", "f2", 1)),
    ("\tt7\tt3\t3\n", move("t7", "t3", 3)),
    ("t7 t3 03", move("t7", "t3", 3)),
])
def test_notation_is_read(game, text, expected):
    before = snapshot(game)
    assert game.parse_move(text) == expected
    assert snapshot(game) == before  # parsing changes nothing


def test_the_run_length_is_inferred_from_the_one_run_that_fits():
    game = load({"t4": "9D 8C 7H 6S", "t1": "9H", "t2": "8S", "t3": "TS", "t5": "7D"})
    assert game.parse_move("t4 t1") == move("t4", "t1", 3)  # 8C 7H 6S
    assert game.parse_move("t4 t2") == move("t4", "t2", 2)  # 7H 6S
    assert game.parse_move("t4 t3") == move("t4", "t3", 4)  # the whole run
    assert game.parse_move("t4 t5") == move("t4", "t5", 1)  # 6S


@pytest.mark.parametrize("text, written", [
    ("t7 t3", "t7 t3 3"), ("t7 t3 3", "t7 t3 3"), ("w t2", "w t2"), ("waste t2", "w t2"),
    ("t1 f", "t1 f1"), ("t1 F2", "t1 f2"), ("draw", "draw"), ("s", "draw"),
])
def test_a_move_is_written_back_in_the_notation(game, text, written):
    assert game.move_text(game.parse_move(text)) == written
    assert game.play(text).move == written


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("draw", [1, 3])
def test_every_legal_move_round_trips_through_its_notation(seed, draw):
    game = Game.new(Rules.of(KLONDIKE, {"draw": draw, "relaxed": True}), seed)
    rng = random.Random(seed)
    for _ in range(80):
        moves = game.legal_moves()
        if not moves:
            break
        for m in moves:
            assert game.parse_move(game.move_text(m)) == m
            assert game.parse_move(game.move_text(m).upper()) == m
        game.play(rng.choice(moves))


@pytest.mark.parametrize("text, message", [
    ("", "empty move"),
    ("   ", "empty move"),
    ("t1", "cannot read 't1': a move is 'SRC DST [N]' (e.g. 't7 t6', 'w t2', 't1 f') or 'draw'"),
    ("hello", "cannot read 'hello': a move is 'SRC DST [N]' (e.g. 't7 t6', 'w t2', 't1 f') or 'draw'"),
    ("t7 t3 3 4", "cannot read 't7 t3 3 4': a move is 'SRC DST [N]' (e.g. 't7 t6', 'w t2', 't1 f') or 'draw'"),
    ("t9 t1", "unknown pile 't9': piles are stock, waste (w), f1..f4, t1..t7"),
    ("t1 t0", "unknown pile 't0': piles are stock, waste (w), f1..f4, t1..t7"),
    ("t1 f5", "unknown pile 'f5': piles are stock, waste (w), f1..f4, t1..t7"),
    ("x t1", "unknown pile 'x': piles are stock, waste (w), f1..f4, t1..t7"),
    ("f t1", "name one pile to move from, not 'f' (e.g. f1)"),
    ("t t1", "name one pile to move from, not 't' (e.g. t1)"),
    ("t7 t3 0", "the number of cards must be a whole number of at least 1, got '0'"),
    ("t7 t3 00", "the number of cards must be a whole number of at least 1, got '00'"),
    ("t7 t3 -1", "the number of cards must be a whole number of at least 1, got '-1'"),
    ("t7 t3 x", "the number of cards must be a whole number of at least 1, got 'x'"),
    ("t7 t3 1.5", "the number of cards must be a whole number of at least 1, got '1.5'"),
    ("t7 t3 ²", "the number of cards must be a whole number of at least 1, got '²'"),
    ("t7 t3 ３", "the number of cards must be a whole number of at least 1, got '３'"),  # noqa: RUF001 (on purpose)
    ("draw 3", "'draw' takes no arguments"),
    ("s t1", "'s' takes no arguments"),
])
def test_malformed_commands_get_one_clear_line_and_change_nothing(game, text, message):
    before = snapshot(game), game.to_position()
    with pytest.raises(NotationError) as info:
        game.play(text)
    assert str(info.value) == message
    assert "\n" not in str(info.value)
    assert (snapshot(game), game.to_position()) == before


def test_a_huge_count_is_refused_without_a_crash(game):
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"^t7 has only 3 face-up cards$"):
        game.play("t7 t3 " + "9" * 5000)
    with pytest.raises(IllegalMoveError, match=r"^t7 has only 3 face-up cards$"):
        game.play("t7 t3 1000000000000")
    assert snapshot(game) == before


@pytest.mark.parametrize("text", [
    "t7\x00 t3", "t1 t2 \u2028", "ñ t1", "t1 \U0001F0A1", "🂡", "t1 t2 3 " + "x" * 9000,
    "t1 t2 9" * 3, "w w", "stock stock", "f1 f1 1",
])
def test_strange_text_is_refused_with_a_solitaire_error(game, text):
    before = snapshot(game)
    with pytest.raises(SolitaireError) as info:
        game.play(text)
    assert str(info.value) and "\n" not in str(info.value)
    assert snapshot(game) == before


def test_played_moves_land_where_the_notation_says(game):
    game.play("t7 t3")
    assert up(game, "t3") == ["JS", "TD", "9C", "8H"] and up(game, "t7") == ["2C"]
    game.play("w t2")
    assert up(game, "t2") == ["9S", "8D"] and pile(game, "waste") == ["4C"]
    game.play("t1 f2")
    assert pile(game, "f2") == ["AD"]
    game.play("s")
    assert pile(game, "waste") == ["4C", "5S"]


@pytest.mark.parametrize("text, message", [
    ("x" * 500, "cannot read '" + "x" * 60 + "'...: a move is 'SRC DST [N]'"),
    ("t1 " + "y" * 500, "unknown pile '" + "y" * 60 + "'...: piles are stock, waste (w), f1..f4, t1..t7"),
    ("[" * 4000, "cannot read '" + "[" * 60 + "'...: a move is"),
])
def test_a_refusal_quotes_a_bounded_prefix_of_long_input(game, text, message):
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.play(text)
    assert str(info.value).startswith(message)
    assert len(str(info.value)) < 200
    assert snapshot(game) == before
