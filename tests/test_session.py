"""The command layer every front end goes through (cli/session.py), and the kernel's answers
to what a table may pick up and where it may go (Game.can_pick, targets, home_move)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from klondike_helpers import load, snapshot, won_but

from solitaire.cli.session import WON_IS_FINAL, Session
from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import card_name
from solitaire.core.game import MoveRecord
from solitaire.core.solver import safe_home_move

VARIANTS: list[tuple[str, dict[str, Any]]] = [("klondike", {}), ("klondike", {"draw": 3}), ("calculation", {})]


def played(variant: str, options: dict[str, Any], seed: int, steps: int) -> Game:
    """A game some random legal moves into the deal ``seed``."""
    game = Game.new(Rules.of(get_variant(variant), options), seed)
    pick = random.Random(seed)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(pick.choice(moves))
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.integers(0, 60))
def test_what_may_be_picked_up_and_where_it_may_go_are_the_legal_moves(variant, seed, steps):
    game = played(variant[0], variant[1], seed, steps)
    expected = {m for m in game.legal_moves() if m[2] > 0}
    found: set[tuple[int, int, int]] = set()
    for pile in range(game.rules.count):
        most = game.most_to_pick(pile)
        for n in range(1, len(game.piles[pile]) + 2):
            assert game.can_pick(pile, n) == (game.pick_refusal(pile, n) is None)
            if game.can_pick(pile, n):
                assert n <= most
                found.update((pile, d, n) for d in game.targets(pile, n))
            else:
                assert game.targets(pile, n) == ()
        assert most == 0 or game.can_pick(pile, most)
        home = game.home_move(pile)
        assert home is None or (home in expected and home[1] in game.rules.foundation_set)
    assert found == expected


class Told:
    """A stand-in for the save's tracker: counts the changes it is told of."""

    def __init__(self) -> None:
        self.count = 0

    def changed(self) -> None:
        self.count += 1


def test_every_change_is_answered_with_records_and_told_once():
    game = Game.new(Rules.of(get_variant("klondike")), 3)
    told = Told()
    session = Session(game, told)
    reply = session.draw()
    assert reply.ok and [r.kind for r in reply.records] == ["draw"] and told.count == 1
    assert isinstance(reply.records[0], MoveRecord)
    assert session.undo().undone and told.count == 2 and game.moves == 0
    assert session.redo().records[0].kind == "draw" and told.count == 3
    refused = session.move("t1 t1")
    assert not refused.ok and refused.error == "t1 cannot move onto itself" and told.count == 3


def test_a_win_is_final_for_every_command_of_every_front_end():
    game = won_but({"t1": "KH", "t2": "KS"})
    session = Session(game, Told())
    assert session.move("t1 f").ok and session.move("t2 f").ok and game.won
    before = snapshot(game)
    for reply in (session.undo(), session.redo(), session.finish(), session.move("f4 t2"), session.draw(),
                  session.act("undo"), session.command("finish")):
        assert not reply.ok and reply.won_final and reply.error == WON_IS_FINAL
    plan = session.finish_plan()
    assert not isinstance(plan, list) and plan.won_final
    assert snapshot(game) == before


def test_a_race_session_refuses_undo_and_hints_with_its_own_reasons():
    game = Game.new(Rules.of(get_variant("klondike")), 3)
    session = Session(game, no_undo="no undo in a race", no_hints="no hints in a race")
    assert session.act("draw").ok
    assert session.act("undo").error == "no undo in a race" and game.moves == 1
    assert session.act("redo").error == "no undo in a race"
    assert session.act("hint").error == "no hints in a race"
    assert session.act("quit").error is not None  # not a game command: only the line mode quits


# ---------------------------------------------------------------- autoplay


def test_autoplay_is_off_by_default_and_when_on_sends_only_safe_cards_home():
    # the black aces are home, so the 2D is safe; the 3C is not (the 2H, which could go on it,
    # is out, and so is the AH it would go home on)
    spec = {"f1": "AC 2C", "f2": "AD", "f3": "", "f4": "AS 2S", "t1": "9H | 2D", "t2": "3C", "t3": "KS"}
    assert [r.move for r in Session(load(spec)).move("t3 t4").records] == ["t3 t4"]
    game = load(spec)
    reply = Session(game, autoplay=True).move("t3 t4")
    assert [(r.move, r.cards) for r in reply.records] == [("t3 t4", ("KS",)), ("t1 f2", ("2D",))]
    assert safe_home_move(game) is None and game.home_move(game.rules.index["t2"]) is not None
    assert Session(game, autoplay=True).undo().ok  # one move back: the card sent home by itself
    assert card_name(game.piles[game.rules.index["t1"]][-1]) == "2D" and game.moves == 1


def test_autoplay_sends_a_card_home_whose_waiting_card_could_follow_at_once():
    """With the AH home, the 2H could go home the moment it comes up, and nothing but the black
    aces (home) could lie on it: so the 3C follows the 2D home (docs/solver.md, the chain)."""
    spec = {"f1": "AC 2C", "f2": "AD", "f3": "AH", "f4": "AS 2S", "t1": "9H | 2D", "t2": "3C", "t3": "KS"}
    reply = Session(load(spec), autoplay=True).move("t3 t4")
    assert [(r.move, r.cards) for r in reply.records] == [("t3 t4", ("KS",)), ("t1 f2", ("2D",)),
                                                           ("t2 f1", ("3C",))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.integers(0, 120))
def test_a_safe_home_move_is_legal_and_in_klondike_waits_for_the_cards_that_go_on_it(variant, seed, steps):
    """Autoplay's rule comes from the rules' tables; in Klondike it comes to the known rule
    and its chain: a card is safe home once each card of the other colour one rank lower is
    home, or could go home at once (the card below it in its suit is home) and is safe by
    the same rule in turn (docs/solver.md, "Safe moves home")."""
    game = played(variant[0], variant[1], seed, steps)
    move = safe_home_move(game)
    if move is None:
        return
    assert move in game.legal_moves() and move[1] in game.rules.foundation_set
    if variant[0] == "klondike":
        card = card_name(game.piles[move[0]][-1])
        home = {card_name(c) for f in game.rules.foundations for c in game.piles[f]}
        assert chain_free(card, home)


RANKS = "A23456789TJQK"


def chain_free(card: str, home: set[str]) -> bool:
    """Every card that could lie on ``card`` in Klondike (the other colour, a rank lower) is
    home, or it is not an ace, the card below it in its suit is home and it is free in turn."""
    rank = RANKS.index(card[0])
    if rank == 0:
        return True
    for suit_ in "CS" if card[1] in "DH" else "DH":
        below = RANKS[rank - 1] + suit_
        if below not in home and (rank == 1 or RANKS[rank - 2] + suit_ not in home or not chain_free(below, home)):
            return False
    return True
