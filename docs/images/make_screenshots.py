"""Regenerate the table's SVG screenshots in this folder (exported by Textual itself).

    python docs/images/make_screenshots.py

Fixed deals and a frozen clock, so the pictures only change when the table does.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ["COLORTERM"] = "truecolor"  # the pictures are in the full palette, whatever runs this

from solitaire.cli.saves import Tracker
from solitaire.cli.tui.app import SolitaireApp
from solitaire.core import Game, Rules, get_variant
from solitaire.core.hints import simple_hint

HERE = Path(__file__).parent


class Frozen(Tracker):
    def elapsed(self) -> float:
        return 187.0


def game(variant: str, options: dict[str, Any], seed: int, moves: list[str]) -> Game:
    g = Game.new(Rules.of(get_variant(variant), options), seed)
    for m in moves:
        g.play(m)
    return g


def playable(g: Game, count: int) -> None:
    """Play ``count`` moves a simple player would: the hint, else draw."""
    for _ in range(count):
        move = simple_hint(g)
        if move is None:
            break
        g.play(move)


async def shoot(name: str, g: Game, size: tuple[int, int], keys: Sequence[str] = (), **kwargs: Any) -> None:
    app = SolitaireApp(Frozen(g, enabled=False), tick=False, notice="", **kwargs)  # not a resumed save
    async with app.run_test(size=size) as pilot:
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        app.save_screenshot(filename=name, path=str(HERE))
    print(HERE / name)


async def main() -> None:
    k3 = game("klondike", {"draw": 3}, 48213, [])
    playable(k3, 12)
    await shoot("klondike-80x24.svg", k3, (80, 24))
    k1 = game("klondike", {}, 1234, [])
    playable(k1, 20)
    rules = k1.rules
    src = next(m[0] for m in k1.legal_moves() if m[2] and rules.role[m[0]] == "tableau")
    right = ["right"] * rules.spec.layout[1].index(rules.names[src])
    await shoot("klondike-132x43-hints.svg", k1, (132, 43), keys=["down", *right, "space"], four_colour=True,
                outline=True)
    calc = game("calculation", {}, 48213, [])
    playable(calc, 10)
    await shoot("calculation-80x24.svg", calc, (80, 24))
    await shoot("help-80x24.svg", k3, (80, 24), keys=["question_mark"])
    names = ["stock", "waste", "f1", "f2", "f3", "f4"] + [f"t{i}" for i in range(1, 8)]
    suits = {s: ["A23456789TJQK"[r] + s for r in range(13)] for s in "CDHS"}
    piles: dict[str, dict[str, list[str]]] = {n: {"down": [], "up": []} for n in names}
    piles["f1"]["up"], piles["f2"]["up"] = suits["C"], suits["D"]
    piles["f3"]["up"], piles["f4"]["up"] = suits["H"], suits["S"][:12]
    piles["t1"]["up"] = ["KS"]
    near = Game.from_position(get_variant("klondike"), {"variant": "klondike", "seed": 48213, "piles": piles,
                                                          "moves": 117, "score": 610})
    await shoot("win-80x24.svg", near, (80, 24), keys=["down", "a"])


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as home:
        import os

        os.environ["SOLITAIRE_HOME"] = home  # the screenshots must not touch your saves
        asyncio.run(main())
