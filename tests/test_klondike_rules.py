"""Klondike's rules, one by one, through the Python API (``solitaire.core``).

Positions are built from compact specs (see ``klondike_helpers``) and loaded with
``Game.from_position``; moves are played in the notation a player types.
"""

from __future__ import annotations

from typing import Any

import pytest
from klondike_helpers import down_count, load, pile, snapshot, suit_run, up, won_but

from solitaire.core import Game, IllegalMoveError, Rules, get_variant
from solitaire.core.cards import DECK_SIZE
from solitaire.core.hints import simple_hint
from solitaire.core.shuffle import MAX_SEED

KLONDIKE = get_variant("klondike")


def rules(**options: Any) -> Rules:
    return Rules.of(KLONDIKE, options)


def refused(game: Game, move: str, message: str) -> None:
    """``move`` is refused with exactly ``message`` and nothing changes."""
    before = snapshot(game), game.to_position()
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    assert str(info.value) == message
    assert (snapshot(game), game.to_position()) == before


# ---------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("seed", [0, 1, 2, 31337, MAX_SEED])
@pytest.mark.parametrize("draw", [1, 3])
def test_deal_has_seven_columns_of_one_to_seven_cards_only_the_top_face_up(seed, draw):
    game = Game.new(rules(draw=draw), seed)
    for k in range(1, 8):
        assert len(pile(game, f"t{k}")) == k
        assert down_count(game, f"t{k}") == k - 1
        assert len(up(game, f"t{k}")) == 1
    assert len(pile(game, "stock")) == 24
    assert down_count(game, "stock") == 24
    for name in ("waste", "f1", "f2", "f3", "f4"):
        assert pile(game, name) == []
    everything = sorted(c for p in game.piles for c in p)
    assert everything == list(range(DECK_SIZE))
    assert (game.score, game.moves, game.recycles) == (0, 0, 0)
    assert not game.won


def test_the_same_seed_deals_the_same_cards_and_other_seeds_differ():
    deals = [Game.new(rules(), seed).piles for seed in (0, 1, 2)]
    assert deals == [Game.new(rules(), seed).piles for seed in (0, 1, 2)]
    assert deals[0] != deals[1] != deals[2] != deals[0]


def test_a_seed_out_of_range_is_refused():
    bad: tuple[Any, ...] = (-1, MAX_SEED + 1, "3", 1.0, True)  # not all ints: the refusal is the point
    for seed in bad:
        with pytest.raises(ValueError, match="a seed is a whole number"):
            Game.new(rules(), seed)


# ---------------------------------------------------------------------------- the tableau


def test_a_card_goes_on_the_next_rank_up_of_the_other_colour_and_turns_up_the_card_beneath():
    game = load({"t1": "2C 3C | 8S", "t2": "9H"})
    record = game.play("t1 t2")
    assert record.move == "t1 t2" and record.cards == ("8S",) and record.turned == "3C"
    assert up(game, "t2") == ["9H", "8S"]
    assert pile(game, "t1") == ["2C", "3C"] and down_count(game, "t1") == 1
    assert up(game, "t1") == ["3C"]
    assert (game.score, game.moves) == (5, 1)


@pytest.mark.parametrize("spec, move, message", [
    ({"t1": "8S", "t2": "9C"}, "t1 t2", "8S does not go on 9C: t2 builds down in alternating colours"),
    ({"t1": "8D", "t2": "9H"}, "t1 t2", "8D does not go on 9H: t2 builds down in alternating colours"),
    ({"t1": "7D", "t2": "9C"}, "t1 t2", "7D does not go on 9C: t2 builds down in alternating colours"),
    ({"t1": "TD", "t2": "9C"}, "t1 t2", "TD does not go on 9C: t2 builds down in alternating colours"),
    ({"t1": "9D", "t2": "9C"}, "t1 t2 1", "9D does not go on 9C: t2 builds down in alternating colours"),
    ({"t1": "AH", "t2": "KS"}, "t1 t2", "AH does not go on KS: t2 builds down in alternating colours"),
    ({"t1": "KH", "t2": "AS"}, "t1 t2", "KH does not go on AS: t2 builds down in alternating colours"),
])
def test_the_tableau_builds_down_in_alternating_colours_only(spec, move, message):
    refused(load(spec), move, message)


def test_a_proper_run_moves_as_a_whole_and_its_length_is_inferred():
    game = load({"t4": "KD | 9D 8C 7H", "t6": "TC"})
    record = game.play("t4 t6")
    assert record.move == "t4 t6 3"
    assert record.cards == ("9D", "8C", "7H") and record.turned == "KD"
    assert up(game, "t6") == ["TC", "9D", "8C", "7H"]
    assert up(game, "t4") == ["KD"] and down_count(game, "t4") == 0


def test_a_run_with_its_length_given():
    game = load({"t4": "KD | 9D 8C 7H", "t6": "TC"})
    assert game.play("t4 t6 3").cards == ("9D", "8C", "7H")


def test_part_of_a_run_moves_and_its_length_is_inferred():
    game = load({"t4": "9D 8C 7H", "t6": "9H"})
    record = game.play("t4 t6")
    assert record.move == "t4 t6 2" and record.turned is None
    assert up(game, "t4") == ["9D"]
    assert up(game, "t6") == ["9H", "8C", "7H"]
    assert game.score == 0


def test_the_wrong_length_of_a_run_is_refused():
    game = load({"t4": "KD | 9D 8C 7H", "t6": "TC"})
    refused(game, "t4 t6 2", "8C does not go on TC: t6 builds down in alternating colours")
    refused(game, "t4 t6 1", "7H does not go on TC: t6 builds down in alternating colours")
    refused(game, "t4 t6 4", "t4 has only 3 face-up cards")
    refused(game, "t4 t6 9", "t4 has only 3 face-up cards")


def test_face_up_cards_that_are_not_a_run_do_not_move_together():
    game = load({"t1": "9H 8H", "t2": "TS"})
    refused(game, "t1 t2 2", "the top 2 cards of t1 are not a run: 8H on 9H is out of order "
                             "(tableau runs down in alternating colours)")
    refused(game, "t1 t2", "nothing from t1 fits on TS: t2 builds down in alternating colours")


def test_a_single_card_of_a_broken_face_up_sequence_still_moves():
    game = load({"t1": "9H 8H", "t2": "9C"})
    record = game.play("t1 t2")
    assert record.cards == ("8H",)
    assert up(game, "t1") == ["9H"]


def test_an_empty_column_takes_a_king():
    game = load({"t1": "QC | KH", "t2": ""})
    record = game.play("t1 t2")
    assert record.cards == ("KH",) and record.turned == "QC"
    assert up(game, "t2") == ["KH"]


def test_an_empty_column_takes_a_king_led_run():
    game = load({"t1": "2C | KH QS JD", "t2": ""})
    record = game.play("t1 t2")
    assert record.move == "t1 t2 3" and record.turned == "2C"
    assert up(game, "t2") == ["KH", "QS", "JD"]


@pytest.mark.parametrize("spec, move, message", [
    ({"t1": "QH"}, "t1 t2", "an empty t2 takes only a King, not QH"),
    ({"t1": "AS"}, "t1 t2", "an empty t2 takes only a King, not AS"),
    ({"t1": "2C | QH JS"}, "t1 t2", "nothing from t1 fits on the empty t2: it takes only a King"),
    ({"t1": "KH QS JD"}, "t1 t2 2", "an empty t2 takes only a King, not QS"),
    ({"waste": "QD"}, "w t2", "an empty t2 takes only a King, not QD"),
])
def test_an_empty_column_takes_nothing_but_a_king(spec, move, message):
    refused(load(spec), move, message)


def test_the_card_beneath_turns_up_by_itself_only_when_the_last_face_up_card_leaves():
    game = load({"t7": "2C 3C 4C | 9D 8C", "t1": "9H", "t2": "TS"})
    assert game.play("t7 t1").turned is None  # 9D still face up on t7
    assert up(game, "t7") == ["9D"] and down_count(game, "t7") == 3
    record = game.play("t7 t2")
    assert record.turned == "4C"
    assert up(game, "t7") == ["4C"] and down_count(game, "t7") == 2
    assert game.score == 5


def test_a_column_without_face_down_cards_is_left_empty():
    game = load({"t1": "KH", "t2": ""})
    assert game.play("t1 t2").turned is None
    assert pile(game, "t1") == [] and game.score == 0


@pytest.mark.parametrize("spec, move, message", [
    ({"t1": "8S"}, "t1 t1", "t1 cannot move onto itself"),
    ({"t1": "8S"}, "t2 t1", "t2 is empty"),
    ({"t1": "8S"}, "t1 w", "waste takes no cards"),
    ({"t1": "8S"}, "t1 stock", "stock takes no cards"),
    ({"t1": "8S"}, "stock t1", "cards leave the stock only by 'draw'"),
    ({"t1": "8S"}, "stock f1", "cards leave the stock only by 'draw'"),
])
def test_moves_between_the_wrong_piles_are_refused(spec, move, message):
    refused(load(spec), move, message)


# ---------------------------------------------------------------------------- foundations


def test_an_ace_from_the_tableau_starts_a_foundation():
    game = load({"t1": "5D | AH"})
    record = game.play("t1 f")
    assert record.dst == "f1" and record.turned == "5D"
    assert pile(game, "f1") == ["AH"]
    assert game.score == 15  # +10 to the foundation, +5 for the card turned up


def test_f_means_the_foundation_that_takes_the_card():
    game = load({"t1": "2H", "f1": "AC", "f2": "AH", "f3": "AS"})
    assert game.play("t1 f").dst == "f2"
    assert pile(game, "f2") == ["AH", "2H"]


def test_a_foundation_can_be_named():
    game = load({"t1": "AD"})
    assert game.play("t1 f3").dst == "f3"
    assert pile(game, "f3") == ["AD"] and pile(game, "f1") == []


def test_a_card_from_the_waste_goes_to_a_foundation():
    game = load({"waste": "5S AD"})
    record = game.play("w f")
    assert record.src == "waste" and record.dst == "f1"
    assert pile(game, "waste") == ["5S"]
    assert game.score == 10


def test_a_foundation_is_built_by_suit_from_ace_to_king():
    game = load({"f1": suit_run("C", 1, 12), "t1": "KC"})
    game.play("t1 f1")
    assert pile(game, "f1") == suit_run("C").split()


def test_a_whole_suit_goes_home_one_card_at_a_time():
    game = load({"t1": " ".join(reversed(suit_run("S").split()))})  # KS at the bottom, AS on top
    for _k in range(13):
        assert game.play("t1 f").dst == "f1"
    assert pile(game, "f1") == suit_run("S").split()
    assert game.score == 130 and game.moves == 13


@pytest.mark.parametrize("spec, move, message", [
    ({"t1": "2S"}, "t1 f1", "an empty f1 takes only an Ace, not 2S"),
    ({"waste": "KH"}, "w f2", "an empty f2 takes only an Ace, not KH"),
    ({"t1": "2S", "f1": "AC"}, "t1 f1", "2S does not go on AC: f1 builds up in the same suit"),
    ({"t1": "3C", "f1": "AC"}, "t1 f1", "3C does not go on AC: f1 builds up in the same suit"),
    ({"t1": "AC", "f1": "AS 2S"}, "t1 f1", "AC does not go on 2S: f1 builds up in the same suit"),
    ({"t1": "2S", "f1": "AC"}, "t1 f", "no foundation pile takes 2S"),
    ({"waste": "9H"}, "w f", "no foundation pile takes 9H"),
    ({"t7": "2D AC"}, "t7 f1 2", "f1 takes 1 card at a time"),
    ({"t7": "2D AC"}, "t7 f 2", "f1 takes 1 card at a time"),
    ({"t1": "AC", "f1": ""}, "f1 t1", "cards cannot be taken from f1"),
    ({"f1": "AC", "t1": "2H"}, "f1 t1", "cards cannot be taken from f1"),
    ({"f1": "AC"}, "f1 f2", "cards cannot be taken from f1"),
])
def test_foundation_refusals(spec, move, message):
    refused(load(spec), move, message)


def test_relaxed_lets_the_top_foundation_card_back_to_the_tableau():
    game = load({"f4": "AS 2S", "t2": "3H"}, options={"relaxed": True}, score=100)
    record = game.play("f4 t2")
    assert record.cards == ("2S",) and record.score == -15
    assert pile(game, "f4") == ["AS"] and up(game, "t2") == ["3H", "2S"]
    assert game.score == 85


def test_relaxed_lets_a_king_back_to_an_empty_column():
    game = load({"f1": suit_run("C"), "t3": ""}, options={"relaxed": True}, score=20)
    game.play("f1 t3")
    assert up(game, "t3") == ["KC"] and game.score == 5


@pytest.mark.parametrize("move, message", [
    ("f4 t2 2", "only the top card of f4 moves"),
    ("f4 t1", "2S does not go on 8S: t1 builds down in alternating colours"),
    ("f4 f1", "f1 takes cards only from the tableau or waste"),
    ("f1 t2", "f1 is empty"),
])
def test_relaxed_still_refuses(move, message):
    refused(load({"f4": "AS 2S", "t2": "3H", "t1": "8S"}, options={"relaxed": True}), move, message)


# ---------------------------------------------------------------------------- stock and waste


def test_draw_one_turns_one_card_onto_the_waste():
    game = load({"stock": "5C 9H"})
    record = game.play("draw")
    assert record.kind == "draw" and record.cards == ("9H",)
    assert pile(game, "waste") == ["9H"] and pile(game, "stock")[-1] == "5C"
    assert down_count(game, "stock") == len(pile(game, "stock")) == 51
    assert up(game, "waste") == ["9H"]
    assert (game.score, game.moves) == (0, 1)


def test_draw_three_turns_three_cards_the_last_on_top():
    game = load({"stock": "2C 5C 9H 4D"}, options={"draw": 3})
    record = game.play("s")
    assert record.cards == ("4D", "9H", "5C")
    assert pile(game, "waste") == ["4D", "9H", "5C"]
    assert pile(game, "stock")[-1] == "2C"
    assert game.moves == 1


def test_draw_three_turns_fewer_when_fewer_remain():
    game = load({"stock": "9H 4D", "t1": "", "waste": ""}, options={"draw": 3}, rest="t2")
    assert game.play("draw").cards == ("4D", "9H")
    assert pile(game, "stock") == [] and pile(game, "waste") == ["4D", "9H"]
    game = load({"stock": "4D", "waste": "9C"}, options={"draw": 3}, rest="t2")
    assert game.play("draw").cards == ("4D",)
    assert pile(game, "waste") == ["9C", "4D"]


def test_only_the_waste_top_card_plays():
    game = load({"waste": "5H 9S", "t1": "6C"})
    refused(game, "w t1", "9S does not go on 6C: t1 builds down in alternating colours")
    refused(game, "w t1 2", "only the top card of waste moves")
    game = load({"waste": "9S 5H", "t1": "6C"})
    record = game.play("w t1")
    assert record.cards == ("5H",) and record.score == 5
    assert pile(game, "waste") == ["9S"]


def test_an_empty_waste_gives_nothing():
    refused(load({}), "w t1", "waste is empty")
    refused(load({}), "w f", "waste is empty")


@pytest.mark.parametrize("draw", [1, 3])
def test_a_recycle_brings_the_cards_again_in_the_same_order(draw):
    game = load({}, options={"draw": draw}, rest="stock")
    turned: list[tuple[str, ...]] = []
    while pile(game, "stock"):
        turned.append(game.play("draw").cards)
    waste = pile(game, "waste")
    assert len(waste) == 52
    record = game.play("draw")
    assert record.kind == "recycle"
    assert pile(game, "waste") == [] and pile(game, "stock") == list(reversed(waste))
    assert down_count(game, "stock") == 52
    assert game.recycles == 1 and game.moves == len(turned) + 1
    again = [game.play("draw").cards for _ in turned]
    assert again == turned
    assert pile(game, "waste") == waste


def test_draw_on_an_empty_stock_and_waste_is_refused():
    refused(load({}, rest="t1"), "draw", "the stock is empty")


def test_no_redeals_means_no_recycle():
    game = load({"stock": "9H"}, options={"redeals": 0}, rest="t1")
    game.play("draw")
    refused(game, "draw", "the stock is empty and this game has no redeals")
    assert all(m[2] != 0 for m in game.legal_moves())


def test_redeals_are_counted_and_run_out():
    game = load({"stock": "9H 4D"}, options={"redeals": 2}, rest="t1")
    for _ in range(2):
        game.play("draw")
        game.play("draw")
        assert game.play("draw").kind == "recycle"
    assert game.recycles == 2
    game.play("draw")
    game.play("draw")
    refused(game, "draw", "the stock is empty and no redeals are left (used 2 of 2)")
    game.undo()
    game.undo()
    game.undo()  # the second recycle taken back: a redeal is left again
    assert game.recycles == 1 and pile(game, "stock") == []
    assert game.play("draw").kind == "recycle"


def test_unlimited_redeals():
    game = load({"stock": "9H 4D"}, options={"redeals": None}, rest="t1")
    for k in range(1, 26):
        game.play("draw")
        game.play("draw")
        assert game.play("draw").kind == "recycle"
        assert game.recycles == k


# ---------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("spec, options, move, points", [
    ({"t1": "AH"}, {}, "t1 f", 10),
    ({"waste": "AH"}, {}, "w f", 10),
    ({"t1": "4C | AH"}, {}, "t1 f", 15),  # onto a foundation, and a card turned up
    ({"waste": "QD", "t1": "KS"}, {}, "w t1", 5),
    ({"t1": "4C | QD", "t2": "KS"}, {}, "t1 t2", 5),  # the turned card
    ({"t1": "QD", "t2": "KS"}, {}, "t1 t2", 0),
    ({"f1": "AS 2S", "t1": "3H"}, {"relaxed": True}, "f1 t1", -15),
    ({"stock": "3H"}, {}, "draw", 0),
    ({"stock": "3H"}, {"draw": 3}, "draw", 0),
])
def test_scoring_table(spec, options, move, points):
    game = load(spec, options=options, score=100)
    record = game.play(move)
    assert record.score == points
    assert game.score == 100 + points


@pytest.mark.parametrize("draw, points", [(3, -20), (1, 0)])
def test_a_recycle_costs_twenty_in_draw_three_and_nothing_in_draw_one(draw, points):
    game = load({"waste": "3H 4D"}, options={"draw": draw}, score=100, rest="t1")
    record = game.play("draw")
    assert record.kind == "recycle" and record.score == points
    assert game.score == 100 + points


@pytest.mark.parametrize("spec, options, move, score", [
    ({"waste": "3H"}, {"draw": 3}, "draw", 10),
    ({"f1": "AS 2S", "t1": "3H"}, {"relaxed": True}, "f1 t1", 5),
    ({"f1": "AS 2S", "t1": "3H"}, {"relaxed": True}, "f1 t1", 0),
])
def test_the_score_never_goes_below_zero_and_undo_restores_it(spec, options, move, score):
    game = load(spec, options=options, score=score, rest="t2" if move == "draw" else "stock")
    game.play(move)
    assert game.score == 0
    game.undo()
    assert game.score == score


# ---------------------------------------------------------------------------- undo, redo, moves


def test_undo_restores_the_position_score_and_counters_but_the_turned_card_stays_up():
    game = load({"t1": "2C 3C | 8S", "t2": "9H"}, score=40, moves=7)
    before = game.to_position()
    game.play("t1 t2")
    assert (game.score, game.moves) == (45, 8)
    game.undo()
    after = game.to_position()
    assert (game.score, game.moves) == (40, 7)
    assert after["piles"]["t1"] == {"down": ["2C"], "up": ["3C", "8S"]}  # 3C stays face up
    assert after["piles"]["t2"] == before["piles"]["t2"]
    del after["piles"]["t1"], before["piles"]["t1"]
    assert after == before


def test_undo_of_a_draw_restores_the_stock_order():
    game = load({"stock": "2C 5C 9H 4D"}, options={"draw": 3})
    before = snapshot(game)
    game.play("draw")
    game.undo()
    assert snapshot(game) == before


def test_undo_of_a_recycle_restores_the_waste_and_the_redeal():
    game = load({"waste": "3H 4D 5S"}, options={"draw": 3, "redeals": 1}, score=50, rest="t1")
    before = snapshot(game)
    game.play("draw")
    assert game.recycles == 1 and game.score == 30
    game.undo()
    assert snapshot(game) == before and game.recycles == 0


def test_undo_is_unlimited_and_stops_at_the_start():
    game = Game.new(rules(draw=3), 7)
    start = game.to_position()
    played = 0
    while played < 60:
        move = simple_hint(game)
        if move is None:
            break
        game.play(move)
        played += 1
    assert played >= 20
    for _ in range(played):
        game.undo()
    back = game.to_position()
    assert (game.score, game.moves, game.recycles) == (0, 0, 0)
    for name, p in back["piles"].items():
        assert p["down"] + p["up"] == start["piles"][name]["down"] + start["piles"][name]["up"]
        assert len(p["down"]) <= len(start["piles"][name]["down"])
    with pytest.raises(IllegalMoveError, match=r"^nothing to undo$"):
        game.undo()


def test_redo_plays_the_undone_moves_again_and_a_new_move_clears_them():
    game = load({"t1": "2C 3C | 8S", "t2": "9H", "stock": "4D"})
    game.play("t1 t2")
    game.play("draw")
    end = game.to_position()
    game.undo()
    game.undo()
    assert game.moves == 0
    assert game.redo().move == "t1 t2"
    assert game.redo().move == "draw"
    again = game.to_position()
    assert again["piles"] == end["piles"] and again["moves"] == 2
    with pytest.raises(IllegalMoveError, match=r"^nothing to redo$"):
        game.redo()


def test_a_new_move_after_undo_clears_redo():
    game = load({"t1": "2C 3C | 8S", "t2": "9H", "stock": "4D"})
    game.play("t1 t2")
    game.undo()
    game.play("draw")
    with pytest.raises(IllegalMoveError, match=r"^nothing to redo$"):
        game.redo()


def test_moves_counts_accepted_moves_and_draws_and_undo_takes_one_off():
    game = load({"t1": "2C 3C | 8S", "t2": "9H", "stock": "4D"}, rest="t3")
    counts = []
    for command in ("draw", "t1 t2", "draw"):  # the last is a recycle
        game.play(command)
        counts.append(game.moves)
    assert counts == [1, 2, 3]
    with pytest.raises(IllegalMoveError):
        game.play("t2 t1")
    assert game.moves == 3
    game.undo()
    assert game.moves == 2
    game.redo()
    assert game.moves == 3


# ---------------------------------------------------------------------------- finish and winning


@pytest.mark.parametrize("spec, message", [
    ({"t1": "KH | QH"}, "finish needs every card face up"),
    ({"stock": "KD", "t1": "KH | QH"}, "finish needs every card face up"),
])
def test_finish_is_refused_until_everything_is_face_up(spec, message):
    game = won_but(spec)
    assert game.finish_ready() == message
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        game.finish()
    assert str(info.value) == message
    assert snapshot(game) == before


def test_finish_plays_every_card_home_and_wins():
    game = won_but({"t1": "KC QH", "t2": "KH QC", "t3": "KD QS", "t4": "KS QD"}, score=300, moves=100)
    assert (game.finish_ready(), game.won) == (None, False)  # compared, so mypy keeps game.won a bool
    records = game.finish()
    assert len(records) == 8
    assert all(r.dst.startswith("f") and len(r.cards) == 1 for r in records)
    assert game.won and game.over
    assert game.score == 380 and game.moves == 108
    for f, suit in zip(("f1", "f2", "f3", "f4"), "CDHS", strict=True):
        assert pile(game, f) == suit_run(suit).split()
    with pytest.raises(IllegalMoveError, match=r"^the game is already won$"):
        game.finish()


@pytest.mark.parametrize("options", [{"draw": 1}, {"draw": 3}, {"draw": 3, "redeals": 0}])
def test_finish_plays_the_stock_and_the_waste_out_too(options):
    game = won_but({"stock": "QH KC", "waste": "QC", "t1": "KH"}, options=options)
    assert game.finish_ready() is None
    records = game.finish()
    assert game.won and {r.kind for r in records} == {"move", "draw"}
    assert [r.cards[0] for r in records if r.kind == "move"][-1] in ("KC", "KH")


@pytest.mark.parametrize("options", [{"draw": 1}, {"draw": 3, "redeals": 2}, {"draw": 1, "redeals": 0}])
def test_finish_refuses_when_a_round_of_the_stock_sends_nothing_home(options):
    game = won_but({"stock": "KH", "t1": "JH QH"}, options=options)  # QH on the JH it must follow
    assert game.finish_ready() is None
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"^the cards cannot all be played straight home from here$"):
        game.finish()
    assert snapshot(game) == before


def test_finish_refuses_cards_that_cannot_go_straight_home():
    game = won_but({"t1": "AC 2C", "t2": " ".join(suit_run("C", 3).split()[::-1])})
    assert game.finish_ready() is None
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"^the cards cannot all be played straight home from here$"):
        game.finish()
    assert snapshot(game) == before


def test_finish_then_undo_takes_back_one_card():
    game = won_but({"t1": "KC QH", "t2": "KH QC", "t3": "KD QS", "t4": "KS QD"})
    game.finish()
    game.undo()
    assert not game.won
    assert sum(len(game.piles[f]) for f in game.rules.foundations) == 51


def test_won_only_with_all_52_cards_home():
    game = won_but({"t1": "KS"})
    assert (game.won, game.over) == (False, False)  # compared, so mypy keeps game.won a bool
    game.play("t1 f")
    assert game.won and game.legal_moves() == []


# ---------------------------------------------------------------------------- hint


def test_a_hint_is_a_legal_move_and_prefers_the_foundation():
    game = load({"t1": "9S", "t2": "TH", "t3": "AD", "stock": "KC"})
    assert simple_hint(game) == game.parse_move("t3 f")
    assert simple_hint(game) in game.legal_moves()


def test_a_hint_never_takes_a_card_back_from_a_foundation():
    game = load({"f4": "AS 2S", "t1": "3D"}, options={"relaxed": True})
    back = game.parse_move("f4 t1")
    assert back in game.legal_moves()
    assert simple_hint(game) == game.rules.draw_move


def test_no_hint_when_nothing_useful_is_left():
    game = load({"f4": "AS 2S", "t1": "3D"}, options={"relaxed": True}, rest="t2")
    moves = [game.move_text(m) for m in game.legal_moves()]
    assert "f4 t1" in moves
    hint = simple_hint(game)
    assert hint is None or game.move_text(hint) != "f4 t1"


STUCK = {"t1": "2C | KH", "t2": "3C | KS", "t3": "4C | KD", "t4": "5C | KC", "t6": "7C | 2H", "t7": "8C | 2D"}


@pytest.mark.parametrize("draw, hints", [(1, ["draw"] * 5), (3, ["draw"] * 3)])
def test_no_hint_once_the_stock_has_gone_round_with_nothing_to_play(draw, hints):
    game = load({**STUCK, "stock": "9H 9S 9D 9C"}, rest="t5", options={"draw": draw})
    given = []
    while (move := simple_hint(game)) is not None:
        given.append(game.move_text(move))
        game.play(move)
        assert len(given) < 20, "the hints go round the stock for ever"
    assert given == hints  # through the stock, turn it back: seen it all, nothing to play
    assert game.legal_moves() and not game.over  # drawing is still legal, just of no use
    from solitaire.core.solver import player_hint

    assert player_hint(game) == (None, 0)  # the line mode's and the table's hint agree


def test_a_card_passed_by_in_the_last_round_keeps_the_hint_drawing():
    game = load({**STUCK, "stock": "9H AH 9D"}, rest="t5")
    assert simple_hint(game) == game.rules.draw_move
    game.play("draw")  # 9D
    game.play("draw")  # AH, which the hint now sends home
    hint = simple_hint(game)
    assert hint is not None and game.move_text(hint) == "w f1"
    for _ in range(3):  # the player draws on past it, then turns the stock
        game.play("draw")
    assert simple_hint(game) == game.rules.draw_move  # the ace is in the stock again: keep drawing


def test_a_round_interrupted_by_another_move_is_not_a_round():
    game = load({**STUCK, "stock": "9H 9S 9D 9C"}, rest="t5")
    for _ in range(3):
        game.play("draw")
    game.play(next(m for m in game.legal_moves() if m[2]))  # any other move starts the count again
    for _ in range(2):
        game.play("draw")
    assert simple_hint(game) == game.rules.draw_move



def test_a_round_of_the_stock_is_not_stuck_while_moving_part_of_a_run_would_open_a_move():
    # 5H can go from 6C onto 6S, and then 6C goes home: progress, though no single move
    # the hint ranks as useful is there
    game = load({"f1": "AC 2C 3C 4C 5C", "t1": "TH | 7D 6C 5H", "t2": "3D | 6S", "t3": "4D | KD",
                 "t4": "5D | KC", "t6": "7H | 2H", "t7": "8H | 2D", "stock": "9H 9S 9D 8C"}, rest="t5")
    for _ in range(5):  # the whole round: four draws and the turn back
        game.play("draw")
    from solitaire.core.hints import stuck

    assert not stuck(game) and simple_hint(game) == game.rules.draw_move
    game.play("t1 t2")
    hint = simple_hint(game)
    assert hint is not None and game.move_text(hint) == "t1 f1"
