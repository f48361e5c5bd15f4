"""The seeded shuffle: deal N is the same deal on every machine and Python version, forever.

The algorithm is ours and fixed; it does not use :mod:`random`, whose internals may change.

1. The generator is SplitMix64 (Steele, Lea and Flood, 2014), state = the seed mod 2**64::

       state = (state + 0x9E3779B97F4A7C15) mod 2**64
       z = state
       z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
       z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2**64
       output z ^ (z >> 31)

2. A number below ``bound`` is drawn without bias by rejection: outputs at or above
   ``2**64 - (2**64 mod bound)`` are thrown away, the rest taken mod ``bound``.
3. The deck starts in card order (AC 2C .. KC, AD .. KD, AH .. KH, AS .. KS) and is shuffled
   by Fisher-Yates from the top: for i = 51 down to 1, swap card i with card j, j drawn below
   i + 1.
4. The variant's deal takes cards from the front of the shuffled list.

>>> from solitaire.core.cards import card_name
>>> [card_name(c) for c in shuffled_deck(1)[:5]]
['7D', '9C', '4D', '8H', '8D']

A variant may also declare a public numbering of deals (``numbering: microsoft``), whose deal
N is dealt from :func:`numbered_deck` instead: the deals 1 to 1,000,000 that Windows numbered.

>>> [card_name(c) for c in numbered_deck("microsoft", 1)[:8]]
['JD', '2D', '9H', 'JC', '5D', '7H', '7C', '5H']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .cards import DECK_SIZE

_MASK = (1 << 64) - 1
MAX_SEED = _MASK


class SplitMix64:
    """The deal generator. ``next()`` returns the next 64-bit output."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)``, by rejection sampling."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            x = self.next()
            if x < limit:
                return x % bound


def shuffled_deck(seed: int, size: int = DECK_SIZE) -> list[int]:
    """The cards ``0..size-1`` in the order deal ``seed`` deals them."""
    if seed < 0 or seed > MAX_SEED:
        raise ValueError(f"seed {seed} is out of range: expected 0..{MAX_SEED}")
    rng = SplitMix64(seed)
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def microsoft_deck(number: int) -> list[int]:
    """The 52 cards in the order Microsoft's numbered deal ``number`` deals them (the numbering
    of Windows' game, which PySolFC shares; dealt row by row across eight columns, card k goes to
    column k mod 8). Its generator is Microsoft C's ``rand()``: ``seed = (seed * 214013 +
    2531011) & 0x7fffffff``, returning ``seed >> 16``. Its card i is rank ``i // 4 + 1`` of
    suit ``i % 4`` (clubs, diamonds, hearts, spades); for i from 52 down to 1 the card at
    ``rand() % i`` is dealt and the last of the i left takes its place."""
    seed = number
    deck = list(range(DECK_SIZE))
    dealt = []
    for left in range(DECK_SIZE, 0, -1):
        seed = (seed * 214013 + 2531011) & 0x7FFFFFFF
        j = (seed >> 16) % left
        card = deck[j]
        deck[j] = deck[left - 1]
        dealt.append((card % 4) * 13 + card // 4)  # the kernel's card: suit * 13 + rank - 1
    return dealt


class Numbering(NamedTuple):
    """A public numbering of deals a variant may declare (``numbering:`` in its YAML)."""

    first: int  # the lowest deal number
    last: int  # the highest
    deck: int  # the cards it deals: a deck of this many, in card order
    order: Callable[[int], list[int]]  # deal N's cards, in the order dealt


NUMBERINGS: dict[str, Numbering] = {
    "microsoft": Numbering(1, 1_000_000, DECK_SIZE, microsoft_deck),
}


def numbered_deck(numbering: str, number: int) -> list[int]:
    """The cards of deal ``number`` of a public numbering, in the order dealt; raise
    ValueError for an unknown numbering or a number out of its range."""
    known = NUMBERINGS.get(numbering)
    if known is None:
        raise ValueError(f"unknown numbering {numbering!r}; known: {', '.join(NUMBERINGS)}")
    if isinstance(number, bool) or not isinstance(number, int) or not known.first <= number <= known.last:
        raise ValueError(f"a {numbering} deal number is a whole number from {known.first} to {known.last}, "
                         f"got {number!r}")
    return known.order(number)
