"""The seeded shuffle, written out on its own: no solitaire import, nothing but integers.

Any program that follows these steps deals the same cards as solitaire for every seed
(tests/test_docs.py checks this file against solitaire.core.shuffle).

    python docs/examples/shuffle.py 1      # the cards of deal 1, in dealing order
"""

import sys
from collections.abc import Iterator

MASK = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    """Yield SplitMix64 outputs for ``seed`` (Steele, Lea and Flood, 2014)."""
    state = seed & MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def below(outputs: Iterator[int], bound: int) -> int:
    """A uniform number in range(bound): reject outputs in the last, incomplete block."""
    limit = (1 << 64) - ((1 << 64) % bound)
    for x in outputs:
        if x < limit:
            return x % bound
    raise AssertionError("unreachable: SplitMix64 never ends")


def shuffled(seed: int) -> list[int]:
    """Card numbers 0..51 (suit * 13 + rank - 1, suits C D H S) in the order deal ``seed`` uses."""
    outputs = splitmix64(seed)
    deck = list(range(52))
    for i in range(51, 0, -1):  # Fisher-Yates, from the top of the deck down
        j = below(outputs, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def name(card: int) -> str:
    return "A23456789TJQK"[card % 13] + "CDHS"[card // 13]


if __name__ == "__main__":
    print(" ".join(name(c) for c in shuffled(int(sys.argv[1]))))
