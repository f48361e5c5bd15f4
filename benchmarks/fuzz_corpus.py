"""Write the seed corpus of the compiled core's fuzz target (core/solver/native/fuzz): the
tables of every installed game the core speaks, with its deal 1, as JSON (its
``load::json::Input``), one file a game, in core/solver/native/fuzz/corpus/tables/ (not kept
in git: 29 MB). Not a benchmark; it lives here with the project's other scripts.

    python benchmarks/fuzz_corpus.py
    cd core/solver/native && cargo +nightly fuzz run tables fuzz/corpus/tables
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solitaire.core import Game, Rules, registry
from solitaire.core.solver import native


def plain(value: Any) -> Any:
    """The tables' values as JSON has them: bytes as lists of numbers."""
    if isinstance(value, bytes | bytearray):
        return list(value)
    if isinstance(value, dict):
        return {key: plain(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "core" / "solver" / "native" / "fuzz" / "corpus" / "tables"
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for defn in registry().sorted():
        rules = Rules.of(defn)
        if native.unsupported(rules) is not None:
            continue
        game = Game.new(rules, 1)
        data = {"tables": plain(native.tables(rules)), "piles": [list(p) for p in game.piles],
                "down": list(game.down), "recycles": game.recycles}
        (out / f"{defn.name}.json").write_text(json.dumps(data, separators=(",", ":")))
        written += 1
    print(f"{written} games written to {out}")


if __name__ == "__main__":
    main()
