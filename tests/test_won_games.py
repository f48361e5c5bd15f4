"""Every built-in game plays a whole won game through the JSON protocol.

Each file of tests/data/won/ is a won game: ``GAME.txt`` under the game's default options,
``GAME.OPTIONS.txt`` under others (``OPTIONS`` as a pool's file is named: ``freecell.cells-2``).
Lines starting with ``#`` say where the game comes from; then ``seed N`` (a whole deal) or
``position FILE`` (a position file beside it, for a game the solver won no whole deal of: the
file's header says which position and why; since Busy Aces and Spider of four suits were won
whole, no game needs one), ``option NAME=VALUE`` lines, and one move
a line, found once by the solver (``python benchmarks/find_won_lines.py GAME`` or
``benchmarks/build_pools.py --won-lines``). The line is played by ``solitaire play GAME --seed
N --new --json`` (or ``--position FILE``), every move is accepted, and the last reply, only
the last, says the game is won.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from solitaire.core import get_variant, registry
from solitaire.core.solver import options_slug

ROOT = Path(__file__).resolve().parents[1]
WON = Path(__file__).parent / "data" / "won"
LINES = sorted(WON.glob("*.txt"))
# the FreeCell family's won games are played by tests/test_family_freecell.py
FREECELL_WINS = json.loads((Path(__file__).parent / "data" / "family_freecell_wins.json").read_text())


class WonGame(NamedTuple):
    game: str
    slug: str
    start: list[str]  # the command line's start: --seed N --new, or --position FILE
    options: dict[str, str]
    moves: list[str]


def read(path: Path) -> WonGame:
    game, _, slug = path.stem.partition(".")
    start: list[str] = []
    options: dict[str, str] = {}
    moves: list[str] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if not start and word == "seed":
            start = ["--seed", str(int(rest)), "--new"]
        elif not start and word == "position":
            start = ["--position", str(path.parent / rest.strip())]
        elif not moves and word == "option":
            name, _, value = rest.partition("=")
            options[name.strip()] = value.strip()
        else:
            assert start, f"{path.name}: the moves come after 'seed N' or 'position FILE'"
            moves.append(line)
    assert start and moves, f"{path.name}: no start or no moves"
    return WonGame(game, slug or "default", start, options, moves)


def option_args(options: dict[str, str]) -> list[str]:
    return [f"--{name}={value}" for name, value in options.items()]


def builtin_games() -> list[str]:
    """The games whose YAML is in variants/, by the registry's names."""
    folder = ROOT / "variants"
    return sorted(d.name for d in registry().sorted()
                  if d.path is not None and Path(d.path).resolve().is_relative_to(folder))


def test_every_built_in_game_has_a_won_game():
    games = builtin_games()
    assert len(games) >= 50
    won = {read(p).game for p in LINES if read(p).slug == "default"} | set(FREECELL_WINS)
    missing = [g for g in games if g not in won]
    assert missing == [], f"no won game in tests/data/won/ for: {', '.join(missing)}"


def test_each_file_names_an_installed_game_and_its_options():
    names = {d.name for d in registry().sorted()}
    for path in LINES:
        won = read(path)
        assert won.game in names, path.name
        defn = get_variant(won.game)
        assert options_slug(defn, defn.resolve_options(won.options)) == won.slug, path.name


@pytest.mark.parametrize("path", LINES, ids=[p.stem for p in LINES])
def test_the_line_wins_the_game_through_the_json_protocol(path, cli):
    won = read(path)
    result = cli("play", won.game, *won.start, *option_args(won.options), "--json",
                 input="\n".join(won.moves) + "\n")
    assert result.code == 0, result.err
    replies: list[dict[str, Any]] = result.json_lines()
    assert len(replies) == len(won.moves) + 1
    assert not replies[0]["won"]
    if won.start[0] == "--seed":
        assert replies[0]["position"]["seed"] == int(won.start[1])
    answers = replies[1:]
    refused = [(m, r["error"]) for m, r in zip(won.moves, answers, strict=True) if not r["ok"]]
    assert refused == []
    assert answers[-1]["won"] is True
    assert not any(r["won"] for r in answers[:-1])
