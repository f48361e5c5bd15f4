"""`solitaire play` with no game: the unfinished games listed (off a terminal) or picked."""

from __future__ import annotations

import asyncio
import shlex

from solitaire.cli import playing
from solitaire.cli.tui.picker import Choice, PickerApp, entries


def test_the_list_shows_each_unfinished_game_and_how_to_resume_it(cli, solitaire_home):
    assert cli("play").out == ("No unfinished games. Start one with 'solitaire play GAME' "
                               "(games: bakers-dozen, bakers-game, beleaguered-castle, calculation, eight-off, "
                               "fan, fortress, freecell, klondike, relaxed-freecell, seahaven-towers, "
                               "spanish-patience, streets-and-alleys).\n")
    cli("play", "klondike", "--json", "--draw", "3", "--seed", "5", input="draw\ndraw\n")
    cli("play", "klondike", "--json", "--seed", "9", input="draw\n")
    out = cli("play")
    assert out.code == 0 and out.err == ""
    lines = out.out.splitlines()
    assert lines[0] == "Unfinished games, the most recently played first:"
    assert lines[1].startswith("  klondike (draw 1, redeals unlimited): deal klondike-9, 1 move, ")
    assert lines[2] == "      solitaire play --deal klondike-9"
    assert lines[3].startswith("  klondike (draw 3, redeals unlimited): deal klondike-d3-5, 2 moves, ")
    assert lines[4] == "      solitaire play --deal klondike-d3-5"
    resumed = cli(*shlex.split(lines[4])[1:], "--json", input="").json_lines()[0]
    assert resumed["moves"] == 2 and resumed["position"]["options"]["draw"] == 3
    assert cli("play", "--plain").out == out.out  # --plain with no game: the list too
    assert cli("play", "--json").code == 2  # the protocol needs a game: one line, as before


def test_no_game_with_deal_options_is_one_line(cli, solitaire_home):
    out = cli("play", "--seed", "3")
    assert out.code == 2 and out.err == ("solitaire: name the game to play, e.g. 'solitaire play klondike', "
                                         "or give --deal CODE\n")


def test_the_picker_lists_unfinished_games_then_installed_ones_and_returns_the_choice(cli, solitaire_home):
    cli("play", "klondike", "--json", "--seed", "9", input="draw\n")
    items = entries()
    labels = [e.label for e in items]
    assert labels[0].startswith("Resume Klondike (draw 1, redeals unlimited): deal klondike-9, 1 move, ")
    assert labels[1:] == ["Play Baker's Dozen", "Play Baker's Game", "Play Beleaguered Castle", "Play Calculation",
                          "Play Eight Off", "Play Fan", "Play Fortress", "Play FreeCell", "Play Klondike",
                          "Play Relaxed FreeCell", "Play Seahaven Towers", "Play Spanish Patience",
                          "Play Streets and Alleys"]

    async def choose(keys: list[str]) -> Choice | None:
        app = PickerApp(items)
        async with app.run_test(size=(80, 24)) as pilot:
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
        return app.return_value

    first = asyncio.run(choose(["enter"]))
    assert first is not None and first.path == items[0].choice.path and first.variant is None
    down_to_klondike = ["down"] * labels.index("Play Klondike")
    assert asyncio.run(choose([*down_to_klondike, "enter"])) == Choice("klondike", None)
    assert asyncio.run(choose(["escape"])) is None


def test_a_picked_save_is_resumed(cli, solitaire_home, monkeypatch):
    cli("play", "klondike", "--json", "--seed", "9", input="draw\n")
    path = entries()[0].choice.path
    monkeypatch.setattr(playing, "on_terminal", lambda: True)
    monkeypatch.setattr("solitaire.cli.tui.picker.pick", lambda: Choice(None, path))
    played = []
    monkeypatch.setattr(playing, "_run", lambda tracker, *args: played.append(tracker))
    assert cli("play").code == 0
    (tracker,) = played
    assert tracker.game.seed == 9 and tracker.game.moves == 1 and tracker.slot.path() == path
    tracker.close()


def test_on_a_terminal_play_alone_opens_the_picker_and_a_choice_opens_the_table(cli, solitaire_home):
    import os
    import sys

    import pytest

    if sys.platform == "win32":
        pytest.skip("needs a POSIX pseudo-terminal")
    from test_pty import program_in_pty, read_until

    cli("play", "klondike", "--json", "--seed", "48213", input="draw\n")
    with program_in_pty(solitaire_home, "play") as (proc, main_fd):
        screen = read_until(main_fd, b"Play Klondike", 120)  # generous: a loaded machine is slow
        assert b"Resume Klondike" in screen and b"deal klondike-48213" in screen
        os.write(main_fd, b"\r")  # the first line: resume it
        screen = read_until(main_fd, b"moves 1", 120)
        assert b"moves 1" in screen
        os.write(main_fd, b"q")
        proc.wait(timeout=120)
    assert proc.returncode == 0


def test_a_save_that_is_a_named_pipe_is_listed_as_unreadable_without_waiting(cli, solitaire_home):
    import os

    cli("play", "klondike", "--json", "--seed", "9", input="draw\n")
    os.mkfifo(solitaire_home / "saves" / "klondike-00000000.save")
    out = cli("play")
    assert out.code == 0 and "  klondike-00000000.save: cannot be read (no header)" in out.out
    assert "deal klondike-9, 1 move" in out.out
    assert cli("play", "klondike", "--json", input="").json_lines()[0]["moves"] == 1


def test_a_format_1_save_is_listed_and_resumable(cli, solitaire_home):
    import json

    from solitaire.core import Game, get_variant

    game = Game.new(get_variant("calculation").rules(), 12)
    game.play(game.legal_moves()[0])
    legacy = solitaire_home / "saves" / "calculation.json"
    legacy.parent.mkdir(parents=True)
    legacy.write_text(json.dumps({"format": 1, "position": game.to_position(), "history": [list(h) for h in
                                  game.history], "future": [], "elapsed_s": 61.0, "dealt": True}))
    out = cli("play")
    assert "  calculation: deal calculation-12, 1 move, 1:01" in out.out.splitlines()
    assert not legacy.exists()
    assert cli("play", "--deal", "calculation-12", "--json", input="").json_lines()[0]["moves"] == 1
