"""Snapshots of the Textual table at 80x24 for one game of each family, and a two-deck game.

Each is a deal as dealt (seed 48213, after one move where the game has a stock to turn), with
the clock frozen as in tests/test_tui.py, so that the picture depends on nothing but the table.
Regenerate with ``pytest tests/test_tui_families.py --snapshot-update`` and look at each
picture (tests/__snapshots__/test_tui_families/) before committing it.
"""

from __future__ import annotations

import pytest

from solitaire.cli import saves
from solitaire.cli.tui.app import SolitaireApp
from solitaire.core import Game, Rules, get_variant, registry


class FrozenTracker(saves.Tracker):
    def elapsed(self) -> float:
        return 42.0


# one game of each family (Klondike's and Calculation's are in tests/test_tui.py), and two decks
GAMES = ["freecell", "golf", "canfield", "spider", "forty-thieves", "beleaguered-castle", "bakers-dozen", "fan",
         "russian-solitaire", "double-klondike", "penguin", "tripeaks", "black-widow", "aces-up", "gypsy"]
DRAW = {"golf", "canfield", "spider", "forty-thieves", "double-klondike", "tripeaks", "aces-up", "gypsy"}
# the families pinned elsewhere: Klondike and Calculation in tests/test_tui.py, Pyramid in
# tests/test_family_removal.py
ELSEWHERE = {"klondike", "calculation", "pyramid"}


@pytest.mark.parametrize("game", GAMES)
def test_snapshot_of_each_family_80x24(snap_compare, game):
    played = Game.new(Rules.of(get_variant(game)), 48213)
    if game in DRAW:
        played.play("draw")
    app = SolitaireApp(FrozenTracker(played, dealt=False), tick=False, finish_delay=0.01, notice="")
    assert snap_compare(app, terminal_size=(80, 24))


def test_every_family_has_a_snapshot():
    pinned = {get_variant(name).family for name in [*GAMES, *ELSEWHERE]}
    families = {d.family for d in registry().sorted() if d.provider == "solitaire-table"}
    assert len(families) >= 14
    assert families <= pinned, f"families with no 80x24 snapshot: {sorted(families - pinned)}"
