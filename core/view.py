"""A player's view of a game: what one player sees, the face-down cards unknown.

:meth:`Observation.of` (a game) gives an :class:`Observation`: the face-up cards of every pile and how
many cards lie face down under them (the stock's order is face down too), with the score,
move count and redeals used. It holds no hidden card, so anything built from it (a hint, a
race opponent's board) cannot leak one. :meth:`Observation.sample` deals the unseen cards
into the face-down places at random: a full game consistent with everything the player
sees, for guesses such as the hints' (:meth:`Observation.deal` puts given cards there).
:meth:`Observation.to_position` is the position JSON
with ``"??"`` for each face-down card, and :meth:`Observation.from_position` reads it back.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import attrs

from .cards import FACE, HIDDEN, card_name, parse_card, rank_name
from .errors import NotationError, PositionError, SolitaireError
from .rules import shown_down

if TYPE_CHECKING:
    from .game import Game
    from .rules import Rules


@attrs.frozen
class Observation:
    """What one player sees: per pile, the face-down count and the face-up cards."""

    rules: Rules
    seed: int | None
    down: tuple[int, ...]  # face-down cards at the bottom of each pile
    up: tuple[tuple[int, ...], ...]  # the face-up cards of each pile, bottom to top
    score: int = 0
    moves: int = 0
    recycles: int = 0
    numbering: str | None = None  # the seed is a deal number of this public numbering

    @classmethod
    def of(cls, game: Game) -> Observation:
        """What a player of ``game`` sees: its face-down cards unknown."""
        down = shown_down(game.rules, game.piles, game.down)
        return cls(game.rules, game.seed, tuple(down),
                   tuple(tuple(p[d:]) for p, d in zip(game.piles, down, strict=False)),
                   game.score, game.moves, game.recycles, game.numbering)

    def unseen(self) -> tuple[int, ...]:
        """The cards the player cannot see (in card order): those face down somewhere."""
        seen = {c for pile in self.up for c in pile}
        return tuple(sorted(c for c in self.rules.deck if c not in seen))

    def sample(self, rng: random.Random) -> Game:
        """A game consistent with this view: the unseen cards shuffled by ``rng`` into the
        face-down places (see :meth:`deal`); no history."""
        cards = list(self.unseen())
        rng.shuffle(cards)
        return self.deal(cards)

    def deal(self, cards: list[int]) -> Game:
        """The game with ``cards`` (an order of :meth:`unseen`) in the face-down places,
        pile by pile, bottom to top; raise ValueError for cards that are not the unseen ones."""
        from .game import Game

        if sorted(cards) != list(self.unseen()):
            raise ValueError("the cards dealt face down must be the unseen cards, each once")
        game = Game(self.rules, self.seed, self.numbering)
        at = 0
        for i, (d, up) in enumerate(zip(self.down, self.up, strict=False)):
            game.piles[i] = cards[at:at + d] + list(up)
            game.down[i] = d
            at += d
        if self.rules.stock_open:  # the open stock's cards are all face up to the kernel
            game.down[self.rules.stock] = 0  # type: ignore[index]
        game.score, game.moves, game.recycles = self.score, self.moves, self.recycles
        return game

    def to_position(self) -> dict[str, Any]:
        """The position JSON with ``"??"`` for every face-down card (as
        ``Game.to_position(hidden=True)``)."""
        rules = self.rules
        return {
            "variant": rules.name,
            "seed": self.seed,
            **({"numbering": self.numbering} if self.numbering is not None else {}),
            "options": {o.name: rules.options[o.name] for o in rules.variant.options},
            "piles": {name: {"down": [HIDDEN] * d, "up": [card_name(c) for c in up]}
                      for name, d, up in zip(rules.names, self.down, self.up, strict=False)},
            "score": self.score,
            "moves": self.moves,
            "recycles": self.recycles,
            **({"base": rank_name(rules.base)} if rules.base is not None else {}),
        }

    @classmethod
    def from_position(cls, variant: Any, data: Any) -> Observation:
        """Read a position whose face-down cards may be ``"??"`` (a player's view, e.g. a
        race opponent's board); checked as a full position is; raise PositionError."""
        from .game import Game

        if not isinstance(data, dict) or not isinstance(data.get("piles"), dict):
            return cls.of(Game.from_position(variant, data))  # the full check says what is wrong
        from .rules import Rules

        options = data.get("options", {})
        try:
            rules = Rules.of(variant, options if isinstance(options, dict) else {})
        except SolitaireError:
            return cls.of(Game.from_position(variant, data))  # the full check says what is wrong
        shown_count: dict[int, int] = {}  # face -> how often the view shows it
        for pile in data["piles"].values():
            if isinstance(pile, dict):
                for part in ("down", "up"):
                    for text in pile.get(part) or []:
                        if isinstance(text, str) and text != HIDDEN:
                            try:
                                face = parse_card(text)
                            except NotationError:
                                continue  # the full check below names it
                            shown_count[face] = shown_count.get(face, 0) + 1
        spare_names = []
        for c in rules.deck:  # a name for each card the view hides
            if shown_count.get(FACE[c], 0):
                shown_count[FACE[c]] -= 1
            else:
                spare_names.append(card_name(c))
        spare = iter(spare_names)
        piles: dict[str, Any] = {}
        for name, pile in data["piles"].items():
            if isinstance(pile, dict):
                if HIDDEN in (pile.get("up") or []):
                    raise PositionError(f"{name}.up has a hidden card {HIDDEN!r}: only face-down cards may be hidden")
                down = pile.get("down")
                if isinstance(down, list):
                    pile = {**pile, "down": [next(spare, HIDDEN) if c == HIDDEN else c for c in down]}
                    if rules.stock_top_only and rules.stock is not None and name == rules.names[rules.stock] \
                            and isinstance(pile.get("up", []), list):  # the open stock: face up to the kernel
                        pile = {**pile, "down": [], "up": pile["down"] + list(pile.get("up", []))}
            piles[name] = pile
        return cls.of(Game.from_position(variant, {**data, "piles": piles}))

