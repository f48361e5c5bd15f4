"""Every game with a line in tests/data/won/ plays a whole won game through the JSON protocol.

Each file is ``seed N`` and then one move a line, found once by the solver
(``python benchmarks/find_won_lines.py GAME``): the line is played by ``solitaire play GAME
--seed N --new --json``, every move is accepted, and the last reply says the game is won.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solitaire.core import registry

WON = Path(__file__).parent / "data" / "won"
LINES = sorted(WON.glob("*.txt"))


def read(path: Path) -> tuple[int, list[str]]:
    first, *moves = path.read_text().splitlines()
    word, seed = first.split()
    assert word == "seed"
    return int(seed), [m for m in moves if m.strip()]


def test_there_are_won_lines_and_each_names_an_installed_game():
    assert len(LINES) >= 10
    names = {d.name for d in registry().sorted()}
    assert {p.stem for p in LINES} <= names


@pytest.mark.parametrize("path", LINES, ids=[p.stem for p in LINES])
def test_the_line_wins_the_deal_through_the_json_protocol(path, cli, solitaire_home):
    seed, moves = read(path)
    result = cli("play", path.stem, "--seed", str(seed), "--new", "--json", input="\n".join(moves) + "\n")
    assert result.code == 0, result.err
    replies = result.json_lines()
    assert replies[0]["position"]["seed"] == seed and not replies[0]["won"]
    answers = replies[1:]
    refused = [(m, r["error"]) for m, r in zip(moves, answers, strict=False) if not r["ok"]]
    assert refused == []
    assert answers[-1]["won"] is True
    assert sum(1 for r in answers if r["won"]) >= 1 and all(not r["won"] for r in answers[:-1])
