"""Shared helpers: run the real CLI in-process and capture what it prints."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from typing import Any

import pytest

from solitaire.cli.main import main
from solitaire.core import Game, Rules, get_variant


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]


@pytest.fixture(autouse=True)
def solitaire_home(tmp_path_factory, monkeypatch):
    """Every test gets its own data folder (saves, statistics), never the user's."""
    home = tmp_path_factory.mktemp("solitaire-home")
    monkeypatch.setenv("SOLITAIRE_HOME", str(home))
    # the table picks its palette from the terminal's colours: the snapshots are of true colour,
    # whatever terminal runs the tests (a 16-colour run is tested on its own, in a pty)
    monkeypatch.setenv("COLORTERM", "truecolor")
    return home


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """Every test speaks English, whatever the locale of whoever runs them, unless it asks for
    another language (tests/test_i18n.py); the language is English again after it."""
    from solitaire.core.i18n import set_language

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "SOLITAIRE_BIDI"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    set_language()
    yield
    set_language()


@pytest.fixture
def cli(monkeypatch, capsys):
    """Run ``solitaire ARGS`` in-process with ``input`` on stdin; return code, stdout, stderr."""

    def run(*args: str, input: str = "") -> Result:
        monkeypatch.setattr(sys, "stdin", io.StringIO(input))
        code = main(list(args))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def klondike():
    return get_variant("klondike")


def new_game(options: dict[str, Any] | None = None, seed: int = 1, variant: str = "klondike") -> Game:
    return Game.new(Rules.of(get_variant(variant), options or {}), seed)


@pytest.fixture
def play_from(cli, tmp_path):
    """Play ``commands`` from a position (``data``, a position file's JSON) through the --json
    protocol; return the replies to them (the position's own first line left out)."""

    def play(data: dict[str, Any], *commands: str) -> list[dict[str, Any]]:
        path = tmp_path / "position.json"
        path.write_text(json.dumps(data))
        result = cli("play", data["variant"], "--position", str(path), "--json",
                     input="".join(c + "\n" for c in commands))
        assert result.code == 0, result.err
        replies: list[dict[str, Any]] = result.json_lines()
        assert len(replies) == len(commands) + 1
        return replies[1:]

    return play
