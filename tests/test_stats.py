"""Statistics in SQLite: per variant and options, streaks and bests, safe under concurrency."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import threading

from solitaire.cli import stats

D1 = {"draw": 1, "redeals": None, "relaxed": False}
D3 = {"draw": 3, "redeals": None, "relaxed": False}


def test_summary_counts_streaks_and_bests(solitaire_home):
    results = [(True, 300, 120, 500), (True, 200, 130, 600), (False, 50, 10, 0), (True, 250, 110, 550),
               (True, 400, 140, 450), (True, 500, 150, 400)]
    for won, t, moves, score in results:
        stats.record("klondike", D1, 1, won, t, moves, score)
    s = stats.summary("klondike", D1)
    assert (s["played"], s["won"], s["streak"], s["best_streak"]) == (6, 5, 3, 3)
    assert (s["best_time_s"], s["fewest_moves"], s["best_score"]) == (200, 110, 600)
    assert s["win_rate"] == round(5 / 6, 4)


def test_options_are_kept_apart(solitaire_home):
    stats.record("klondike", D1, 1, True, 100, 100, 100)
    stats.record("klondike", D3, 1, False, 100, 100, 100)
    assert stats.summary("klondike", D1)["won"] == 1
    assert stats.summary("klondike", D3)["won"] == 0 and stats.summary("klondike", D3)["played"] == 1


def test_new_bests_after_a_win(solitaire_home):
    first = stats.record("klondike", D1, 1, True, 100, 100, 100)
    assert stats.new_bests(first) == ["time", "moves", "score"]
    second = stats.record("klondike", D1, 2, True, 90, 120, 100)
    assert stats.new_bests(second) == ["time"]


def test_stats_command_text_and_json(cli, solitaire_home):
    assert cli("stats").out.strip() == "No games played yet."
    stats.record("klondike", D3, 1, True, 61, 100, 700)
    out = cli("stats", "klondike", "--json")
    assert out.code == 0
    rows = json.loads(out.out)["stats"]
    assert len(rows) == 1
    keys = {"variant", "options", "played", "won", "best_time_s", "fewest_moves", "best_score", "streak",
            "best_streak"}
    assert keys <= set(rows[0])
    assert rows[0]["options"] == D3 and rows[0]["best_time_s"] == 61
    text = cli("stats").out
    assert "draw 3" in text and "played 1, won 1 (100%)" in text and "best time 1:01" in text


def test_stats_text_names_options_as_a_player_reads_them(cli, solitaire_home):
    stats.record("klondike", D3, 1, False, 61, 100, 700)
    stats.record("klondike", {"draw": 1, "redeals": 2, "relaxed": True}, 2, False, 61, 100, 700)
    stats.record("calculation", {}, 3, True, 300, 52, 52)
    lines = cli("stats").out.splitlines()
    assert "calculation" in lines  # no options: no empty brackets
    assert "klondike (draw 3, redeals unlimited)" in lines  # a flag that is off is not shown
    assert "klondike (draw 1, redeals 2, relaxed)" in lines


def test_stats_of_an_unknown_variant_is_one_line_exit_2(cli):
    out = cli("stats", "nosuchgame")
    assert out.code == 2 and len(out.err.strip().splitlines()) == 1


def _writer(home: str, n: int, won: bool) -> None:
    import os

    os.environ["SOLITAIRE_HOME"] = home
    for i in range(n):
        stats.record("klondike", D1, i, won, 10 + i, 100, 100)


def test_two_processes_writing_at_once_lose_nothing(solitaire_home):
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(solitaire_home), 40, k == 0)) for k in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    s = stats.summary("klondike", D1)
    assert s["played"] == 80 and s["won"] == 40
    conn = sqlite3.connect(stats.db_path())
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


def test_threads_writing_at_once_lose_nothing(solitaire_home):
    threads = [threading.Thread(target=stats.record, args=("klondike", D3, i, i % 2 == 0, 5, 5, 5))
               for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert stats.summary("klondike", D3)["played"] == 16


def test_a_game_id_is_recorded_once_however_often_it_is_recorded(solitaire_home):
    for _ in range(3):
        stats.record("klondike", D1, 1, False, 10, 5, 0, game_id="a" * 32)
    stats.record("klondike", D1, 2, True, 10, 5, 0, game_id="b" * 32)
    stats.record("klondike", D1, 3, True, 10, 5, 0)  # no id (the API without saves): each counts
    stats.record("klondike", D1, 3, True, 10, 5, 0)
    assert stats.summary("klondike", D1)["played"] == 4


def test_a_database_from_before_game_ids_gains_the_column_and_keeps_its_rows(solitaire_home):
    solitaire_home.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(stats.db_path())
    conn.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, variant TEXT NOT NULL, options TEXT NOT NULL,
            seed INTEGER, won INTEGER NOT NULL, time_s REAL NOT NULL, moves INTEGER NOT NULL,
            score INTEGER NOT NULL, finished_at REAL NOT NULL);
        INSERT INTO games (variant, options, seed, won, time_s, moves, score, finished_at)
            VALUES ('klondike', '{"draw":1,"redeals":null,"relaxed":false}', 1, 1, 100, 90, 500, 0);
    """)
    conn.close()
    stats.record("klondike", D1, 2, False, 10, 5, 0, game_id="c" * 32)
    stats.record("klondike", D1, 2, False, 10, 5, 0, game_id="c" * 32)
    s = stats.summary("klondike", D1)
    assert (s["played"], s["won"], s["best_time_s"]) == (2, 1, 100)


def test_a_time_that_is_not_a_number_of_seconds_is_refused_and_nothing_written(solitaire_home):
    import pytest

    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(stats.StatsError):
            stats.record("klondike", D1, 1, False, bad, 5, 0, game_id="d" * 32)
    assert stats.summary("klondike", D1)["played"] == 0
