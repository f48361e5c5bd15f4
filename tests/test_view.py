"""A player's view (``Observation.of(game)``): no hidden card in it, samples consistent with it,
the hidden position JSON both ways."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import HIDDEN
from solitaire.core.errors import PositionError
from solitaire.core.view import Observation


def played(variant: str, seed: int, steps: int) -> Game:
    game = Game.new(Rules.of(get_variant(variant), {}), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["klondike", "calculation"]), seed=st.integers(0, 5000),
       steps=st.integers(0, 80), sample=st.integers(0, 1000))
def test_a_sample_agrees_with_everything_the_player_sees(variant, seed, steps, sample):
    game = played(variant, seed, steps)
    view = Observation.of(game)
    guess = view.sample(random.Random(sample))
    assert Observation.of(guess) == view
    assert guess.to_position(hidden=True) == game.to_position(hidden=True) == view.to_position()
    assert sorted(c for p in guess.piles for c in p) == list(range(52))  # every card once
    # the face-down cards are exactly the unseen ones
    assert sorted(c for p, d in zip(guess.piles, guess.down, strict=False) for c in p[:d]) == list(view.unseen())
    # and a real game can be played from a sample
    Game.from_position(get_variant(variant), guess.to_position())


def test_the_view_holds_no_hidden_card_and_ignores_where_they_are():
    game = Game.new(Rules.of(get_variant("klondike"), {}), 3)
    data = game.to_position()
    t6, t7 = data["piles"]["t6"]["down"], data["piles"]["t7"]["down"]
    t6[0], t7[0] = t7[0], t6[0]
    other = Game.from_position(get_variant("klondike"), data)
    assert Observation.of(other) == Observation.of(game)
    view = Observation.of(game)
    assert sum(len(p) for p in view.up) + sum(view.down) == 52 and sum(view.down) == len(view.unseen())


def test_the_hidden_position_json_both_ways():
    klondike = get_variant("klondike")
    game = played("klondike", 7, 30)
    data = json.loads(json.dumps(Observation.of(game).to_position()))
    assert data == game.to_position(hidden=True)
    assert Observation.from_position(klondike, data) == Observation.of(game)
    name = next(n for n in ("t1", "t2", "t3", "t4", "t5", "t6", "t7") if data["piles"][n]["up"])
    other = "t1" if name != "t1" else "t2"
    up = data["piles"][name]["up"]
    bad = json.loads(json.dumps(data))
    bad["piles"][name]["up"] = [HIDDEN, *up[1:]]
    with pytest.raises(PositionError, match=f"{name}.up has a hidden card"):
        Observation.from_position(klondike, bad)
    twice = json.loads(json.dumps(data))
    twice["piles"][other]["up"] = twice["piles"][other]["up"] + up[-1:]  # a card shown twice
    with pytest.raises(PositionError):
        Observation.from_position(klondike, twice)


def test_dealing_given_cards_face_down():
    view = Observation.of(played("klondike", 4, 20))
    cards = list(reversed(view.unseen()))
    game = view.deal(cards)
    assert [c for p, d in zip(game.piles, game.down, strict=False) for c in p[:d]] == cards
    assert Observation.of(game) == view
    for bad in (cards[1:], cards + cards[:1], [*cards[1:], view.up[-1][0] if view.up[-1] else 99]):
        with pytest.raises(ValueError, match="unseen cards"):
            view.deal(bad)



@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["klondike", "calculation"]), seed=st.integers(0, 5000),
       steps=st.integers(0, 80))
def test_the_protocol_and_the_race_send_the_view_unchanged(variant, seed, steps):
    from solitaire.cli.race.messages import own_state
    from solitaire.cli.session import Session

    game = played(variant, seed, steps)
    hidden = json.loads(json.dumps(game.to_position(hidden=True)))
    assert json.loads(json.dumps(Observation.of(game).to_position())) == hidden
    assert Session(game).state()["position"] == hidden
    raced = own_state(game)["position"]
    assert raced == {k: v for k, v in hidden.items() if k != "seed"}
