"""Cards as small integers, and their names at the edges.

A card's *face* is an ``int`` from 0 to 51: ``suit * 13 + rank - 1`` with suits in the order
clubs, diamonds, hearts, spades and ranks 1 (Ace) to 13 (King). A game of more than one deck
holds several copies of a face: a card is ``copy * 52 + face`` (copy 0 to ``MAX_COPIES - 1``),
so two A♠ are two cards with one name. Rank, suit, colour and face are lookups in
precomputed tuples, so the hot path never parses or builds an object.

>>> parse_card("TH"), card_name(parse_card("10h"))
(35, 'TH')
>>> RANK[parse_card("KS")], SUIT_LETTERS[SUIT[parse_card("KS")]]
(13, 'S')
"""

from __future__ import annotations

from .errors import NotationError

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RED_SUITS = frozenset({1, 2})  # diamonds, hearts

DECK_SIZE = 52  # the faces of one deck
MAX_COPIES = 8  # copies of one face a game may hold (Spider of one suit: 8 of each spade)
CARD_SPACE = DECK_SIZE * MAX_COPIES  # card ints are below this
HIDDEN = "??"

#: the face (0..51) of each card
FACE: tuple[int, ...] = tuple(c % DECK_SIZE for c in range(CARD_SPACE))
#: rank of each card, 1 (Ace) to 13 (King)
RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(CARD_SPACE))
#: suit of each card, 0 (clubs) to 3 (spades)
SUIT: tuple[int, ...] = tuple(c % DECK_SIZE // 13 for c in range(CARD_SPACE))
#: colour of each card, 0 black, 1 red
COLOUR: tuple[int, ...] = tuple(1 if SUIT[c] in RED_SUITS else 0 for c in range(CARD_SPACE))

_NAMES: tuple[str, ...] = tuple(RANK_LETTERS[RANK[c] - 1] + SUIT_LETTERS[SUIT[c]] for c in range(CARD_SPACE))
_BY_NAME: dict[str, int] = {name: c for c, name in enumerate(_NAMES[:DECK_SIZE])}
for _c in range(DECK_SIZE):
    if RANK[_c] == 10:
        _BY_NAME["10" + SUIT_LETTERS[SUIT[_c]]] = _c

_RANK_BY_NAME: dict[str, int] = {letter: i + 1 for i, letter in enumerate(RANK_LETTERS)}
_RANK_BY_NAME["10"] = 10


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1..13) and ``suit`` (0..3)."""
    return suit * 13 + rank - 1


def card_name(card: int) -> str:
    """``'TH'`` for the ten of hearts (of any copy)."""
    return _NAMES[card]


def parse_card(text: str) -> int:
    """Parse ``'TH'``, ``'10h'``, ``'as'`` (case-insensitive) to its face, the card of copy 0;
    raise NotationError otherwise."""
    card = _BY_NAME.get(text.strip().upper())
    if card is None:
        raise NotationError(
            f"unknown card {text!r}: expected a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), e.g. 'TH'"
        )
    return card


def parse_rank(text: str | int) -> int:
    """Parse a rank given as a letter (``'K'``), ``'10'`` or a number 1..13."""
    if isinstance(text, bool):
        raise NotationError(f"unknown rank {text!r}")
    if isinstance(text, int):
        if 1 <= text <= 13:
            return text
        raise NotationError(f"unknown rank {text!r}: expected 1..13 or one of A 2-9 T J Q K")
    rank = _RANK_BY_NAME.get(str(text).strip().upper())
    if rank is None:
        raise NotationError(f"unknown rank {text!r}: expected one of A 2 3 4 5 6 7 8 9 T J Q K")
    return rank


def rank_name(rank: int) -> str:
    return RANK_LETTERS[rank - 1]


def card_symbol(card: int) -> str:
    """``'10♥'``-style display name (``'T'`` shown as ``'10'``)."""
    rank = RANK[card]
    return ("10" if rank == 10 else RANK_LETTERS[rank - 1]) + SUIT_SYMBOLS[SUIT[card]]


def is_red(card: int) -> bool:
    return COLOUR[card] == 1
