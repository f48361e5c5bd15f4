"""Saves under stress: processes at once, folders that cannot be written, dead writers'
temporary files, files that are not files."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import pytest
from klondike_helpers import near_won

from solitaire.cli import saves, stats
from solitaire.core import Game, Rules, get_variant
from solitaire.core import files as core_files

KLONDIKE = get_variant("klondike")


def save_files(home: Path) -> list[Path]:
    folder = home / "saves"
    return sorted(p for p in folder.iterdir() if p.suffix == ".save" and ".unreadable-" not in p.name) \
        if folder.exists() else []


def solitaire(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "solitaire.cli", *args]


def read_save(path: Path) -> saves.Saved:
    """The save at ``path``, which the test knows to be readable."""
    back = saves.read_save_file(KLONDIKE, path)
    assert back is not None, path
    return back


def env(home: Path) -> dict[str, str]:
    return {**os.environ, "SOLITAIRE_HOME": str(home)}


def rows(home: Path) -> list[tuple[Any, ...]]:
    path = home / "stats.sqlite3"
    if not path.exists():
        return []
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT game_id, won FROM games ORDER BY id").fetchall()
    finally:
        conn.close()


# ------------------------------------------------------------------ processes at once


def test_a_game_open_in_one_process_is_never_taken_by_another(solitaire_home):
    a = subprocess.Popen(solitaire(solitaire_home, "play", "klondike", "--json", "--seed", "500"),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env(solitaire_home))
    assert a.stdin is not None and a.stdout is not None and a.stderr is not None  # the three pipes
    try:
        assert json.loads(a.stdout.readline())["moves"] == 0  # dealt and saved: A holds its slot
        a.stdin.write("draw\n")
        a.stdin.flush()
        assert json.loads(a.stdout.readline())["moves"] == 1
        same = subprocess.run(solitaire(solitaire_home, "play", "klondike", "--json", "--seed", "500", "--new"),
                              input="draw\n", capture_output=True, text=True, env=env(solitaire_home), timeout=120)
        assert same.returncode == 2 and same.stdout == ""
        assert same.stderr.startswith("solitaire: that klondike game is open in another solitaire (process ")
        other = subprocess.run(solitaire(solitaire_home, "play", "klondike", "--json", "--seed", "501"),
                               input="draw\ndraw\n", capture_output=True, text=True, env=env(solitaire_home),
                               timeout=120)
        assert other.returncode == 0 and other.stderr == ""
        a.stdin.write("draw\n")
        a.stdin.flush()
        assert json.loads(a.stdout.readline())["moves"] == 2
    finally:
        a.stdin.close()
        a.wait(120)
    assert a.returncode == 0 and a.stderr.read() == ""
    games = {s.game.seed: s.game.moves for s in
             (read_save(p) for p in save_files(solitaire_home))}
    assert games == {500: 2, 501: 2} and rows(solitaire_home) == []


def test_two_terminals_dealing_without_a_seed_both_keep_their_games(solitaire_home):
    a = subprocess.Popen(solitaire(solitaire_home, "play", "klondike", "--json"), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(solitaire_home))
    assert a.stdin is not None and a.stdout is not None  # the pipes
    try:
        first = json.loads(a.stdout.readline())
        b = subprocess.run(solitaire(solitaire_home, "play", "klondike", "--json"), input="draw\n",
                           capture_output=True, text=True, env=env(solitaire_home), timeout=120)
        assert b.returncode == 0
        seed_b = json.loads(b.stdout.splitlines()[0])["position"]["seed"]
        assert b.stderr == (f"solitaire: your other klondike game is open in another solitaire: this deal is "
                            f"saved apart ('solitaire play --deal klondike-{seed_b}' resumes it)\n")
        a.stdin.write("draw\n")
        a.stdin.flush()
        a.stdout.readline()
    finally:
        a.stdin.close()
        a.wait(120)
    seeds = sorted(cast(int, s.game.seed) for s in (read_save(p) for p in save_files(solitaire_home)))
    assert seeds == sorted([first["position"]["seed"], seed_b]) and rows(solitaire_home) == []


def test_processes_giving_up_a_game_at_once_count_each_game_once(solitaire_home):
    def run(_: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run(solitaire(solitaire_home, "play", "klondike", "--json", "--seed", "77", "--new"),
                              input="draw\n", capture_output=True, text=True, env=env(solitaire_home), timeout=300)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(run, range(40)))
    ok = [r for r in results if r.returncode == 0]
    busy = [r for r in results if r.returncode != 0]
    assert ok, [r.stderr for r in results]
    assert all(r.returncode == 2 and r.stdout == "" and "is open in another solitaire" in r.stderr
               and r.stderr.count("\n") == 1 for r in busy)
    recorded = rows(solitaire_home)
    # every game dealt was either given up by the next one (a row, once) or is the one saved now
    assert len(recorded) == len(ok) - 1 and len({gid for gid, _ in recorded}) == len(recorded)
    (saved,) = save_files(solitaire_home)
    assert read_save(saved).game.moves == 1


def test_a_game_given_up_twice_is_counted_once(solitaire_home):
    game = Game.new(Rules.of(KLONDIKE), 3)
    game.play("draw")
    one = saves.Tracker(game, dealt=True)
    one.begin()
    back = read_save(one.slot.path())
    two = saves.Tracker(back.game, back.elapsed, back.dealt, slot=back.slot, game_id=back.game_id, log=back.log)
    assert one.abandon() and two.abandon()
    assert stats.summary("klondike", dict(game.rules.options))["played"] == 1


# ------------------------------------------------------------------ a damaged statistics file


def junk_stats(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "stats.sqlite3").write_bytes(b"not a database " * 300)


def test_damaged_statistics_are_moved_aside_for_the_stats_command(cli, solitaire_home):
    junk_stats(solitaire_home)
    out = cli("stats")
    assert out.code == 0 and out.out == "No games played yet.\n"
    (line,) = out.err.splitlines()
    assert line.startswith("solitaire: the statistics could not be read (file is not a database); moved them to ")
    (aside,) = solitaire_home.glob("stats.unreadable-*.sqlite3")
    assert aside.read_bytes() == b"not a database " * 300 and str(aside) in line


def test_damaged_statistics_keep_the_game_given_up(cli, solitaire_home):
    cli("play", "klondike", "--json", "--seed", "3", input="draw\n")
    junk_stats(solitaire_home)
    out = cli("play", "klondike", "--json", "--seed", "3", "--new", input="")
    assert out.code == 0
    lines = out.err.splitlines()
    assert len(lines) == 2 and "the statistics could not be read" in lines[0] and "counts as lost" in lines[1]
    assert json.loads(cli("stats", "--json").out)["stats"][0]["played"] == 1


def test_damaged_statistics_keep_the_win_and_its_message(solitaire_home):
    junk_stats(solitaire_home)
    told: list[str] = []
    game = Game.from_position(KLONDIKE, {**near_won(), "seed": 12})
    tracker = saves.Tracker(game, 30.0, dealt=True, say=told.append)
    game.play("t1 f")
    tracker.changed()
    game.play("t2 f")
    tracker.changed()
    assert tracker.last_result["after"]["won"] == 1 and len(told) == 1 and "moved them to" in told[0]
    assert save_files(solitaire_home) == []


def test_statistics_that_cannot_be_written_keep_the_game_saved(cli, solitaire_home, monkeypatch):
    cli("play", "klondike", "--json", "--seed", "3", input="draw\n")
    before = [p.read_text() for p in save_files(solitaire_home)]

    def refuse(*args, **kwargs):
        raise stats.StatsError("cannot use the statistics in X (disk I/O error)")

    monkeypatch.setattr(stats, "record_game", refuse)
    out = cli("play", "klondike", "--json", "--seed", "3", "--new", input="")
    assert out.code == 2 and out.out == ""
    assert out.err.splitlines()[-1] == ("solitaire: the saved klondike game cannot be given up now: "
                                         "it is kept; nothing else changed")
    assert [p.read_text() for p in save_files(solitaire_home)] == before


# ------------------------------------------------------------------ folders that cannot be written


def test_a_home_that_cannot_be_made_plays_on_unsaved_in_one_line(cli, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SOLITAIRE_HOME", str(blocker / "home"))
    out = cli("play", "klondike", "--json", "--seed", "3", input="draw\ndraw\n")
    assert out.code == 0 and [r["ok"] for r in out.json_lines()] == [True, True, True]
    assert out.err == (f"solitaire: cannot save the game in {blocker / 'home' / 'saves'} (Not a directory): "
                       "playing on; the last good save is kept\n")
    listing = cli("play")
    assert listing.code == 0 and listing.out.startswith("No unfinished games.")
    assert cli("stats").code == 0


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_failed_save_keeps_the_last_good_one_and_the_game_goes_on(cli, solitaire_home, monkeypatch, code):
    cli("play", "klondike", "--json", "--seed", "3", input="draw\n")
    calls = []
    real_append, real_write = core_files.append, core_files.atomic_write  # what cli/saves imports

    def failing(path, data):
        calls.append(data)
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(saves, "append", failing)
    monkeypatch.setattr(saves, "atomic_write", failing)
    out = cli("play", "klondike", "--json", "--seed", "3", input="draw\ndraw\nundo\n")
    assert out.code == 0 and [r["ok"] for r in out.json_lines()] == [True, True, True, True]
    lines = out.err.splitlines()
    assert lines[1] == (f"solitaire: cannot save the game in {solitaire_home / 'saves'} ({os.strerror(code)}): "
                        "playing on; the last good save is kept") and len(lines) == 2 and len(calls) == 3
    monkeypatch.setattr(saves, "append", real_append)
    monkeypatch.setattr(saves, "atomic_write", real_write)
    back = cli("play", "klondike", "--json", "--seed", "3", input="").json_lines()[0]
    assert back["moves"] == 1


def test_saving_comes_back_after_a_failed_write(solitaire_home, monkeypatch):
    told: list[str] = []
    game = Game.new(Rules.of(KLONDIKE), 3)
    tracker = saves.Tracker(game, dealt=True, say=told.append)
    tracker.begin()
    real = core_files.append  # what cli/saves imports

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(saves, "append", full)
    game.play("draw")
    tracker.changed()
    monkeypatch.setattr(saves, "append", real)
    game.play("draw")
    tracker.changed()  # the file is rewritten whole: both draws
    game.undo()
    tracker.changed()
    assert len(told) == 2 and told[1] == "saving the game again"
    back = read_save(tracker.slot.path())
    assert back.game.moves == 1 and back.log == ["draw", "draw", "undo"]


# ------------------------------------------------------------------ dead writers' temporary files


def test_a_dead_writers_temporary_files_are_removed_and_a_live_ones_kept(cli, solitaire_home):
    folder = solitaire_home / "saves"
    folder.mkdir(parents=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = folder / f".klondike-17b4b02b.save.{dead.pid}-0.tmp"
    live = folder / f".klondike-17b4b02b.save.{os.getpid()}-0.tmp"
    other = folder / "notes.tmp"
    for p in (stale, live, other):
        p.write_text("half a save")
    assert cli("play", "klondike", "--json", input="").code == 0
    assert not stale.exists() and live.exists() and other.exists()


# ------------------------------------------------------------------ files that are not files


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_position_that_is_not_a_regular_file_is_refused_at_once(cli, tmp_path, special):
    path = tmp_path / "pos"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path = Path(special)
    out = cli("play", "klondike", "--json", "--position", str(path), input="")
    assert out.code == 2 and out.err == f"solitaire: {path}: not a regular file\n"


@pytest.mark.parametrize("text, reason", [
    ("[" * 100_000 + "]" * 100_000, "JSON nested more than 20 deep; a position nests 4 deep"),
    ('{"variant": "klondike", "score": ' + "7" * 5000 + "}",
     "a number of 5,000 characters (777777777777...); at most 40"),
    ('{"variant": "klondike", "score": NaN}', "NaN is not a JSON number"),
], ids=["deep", "digits", "nan"])
def test_a_position_beyond_the_limits_is_refused_in_one_line(cli, tmp_path, text, reason):
    path = tmp_path / "pos.json"
    path.write_text(text)
    out = cli("play", "klondike", "--json", "--position", str(path), input="")
    assert out.code == 2 and out.err == f"solitaire: {path}: {reason}\n"


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from solitaire.core import files

    path = tmp_path / "big"
    path.write_bytes(b" " * 2000)
    with pytest.raises(files.FileLimitError, match="larger than 1,000 bytes"):
        files.read_bounded(path, limit=1000)
    assert files.read_bounded(path, limit=2000) == b" " * 2000
