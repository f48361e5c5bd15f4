"""The tables of Calculation's four foundations (counting by 1, 2, 3 and 4), built once.

The plugin's knowledge (the package) and its dedicated search (:mod:`.search`) both read them.
"""

from __future__ import annotations

from collections.abc import Sequence

RANKS = 13
STEPS = (1, 2, 3, 4)
# SEQ[k][j]: the rank index (0 = Ace .. 12 = King) of card j on the foundation counting by k+1
SEQ = tuple(tuple((s * (j + 1) - 1) % RANKS for j in range(RANKS)) for s in STEPS)
# POS[k][r]: where rank r lies on that foundation
POS = tuple(tuple(seq.index(r) for r in range(RANKS)) for seq in SEQ)
# PATH[k][length][r]: bitmask of the ranks the foundation still needs before rank r
PATH = tuple(tuple(tuple(sum(1 << seq[j] for j in range(length, POS[k][r])) for r in range(RANKS))
                   for length in range(RANKS + 1))
             for k, seq in enumerate(SEQ))
RANK_OF = bytes(c % RANKS for c in range(256))  # translate table: card -> rank (index)


def urgency(lengths: Sequence[int], rank: int) -> int:
    """Cards the nearest foundation that still needs ``rank`` must take before it (13: none)."""
    best = RANKS
    for k in range(4):
        d = POS[k][rank] - lengths[k]
        if 0 <= d < best:
            best = d
    return best
