"""Statistics: one SQLite file in the user data folder, one row per game played.

A game counts as played when it is won, or abandoned for another game (a new deal while it
was unfinished). Results are kept per variant and per option set (Klondike draw 1 and draw 3
apart); the summary (win rate, streaks, bests) is computed from the rows.

Two games in two terminals may finish at once: the database runs in WAL mode, each write is
one short ``BEGIN IMMEDIATE`` transaction, and a busy timeout makes a writer wait its turn
instead of failing. SQLite is in the standard library and does the locking for us. Each game
has an id (its save's): the row is inserted once (a unique index, ``INSERT OR IGNORE``), so a
game recorded twice (two processes, or a crash between recording and removing the save)
counts once.

A database that is not one (overwritten, damaged) is moved aside, said in one line, and a new
one started, with the game being recorded kept in it. Anything else that stops a write (a
read-only folder, a full disk) raises :class:`StatsError`, with a one-line reason.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solitaire.core import Game
from solitaire.core.i18n import _

from .home import data_dir

if TYPE_CHECKING:  # sqlite3 itself is imported when a game ends, not when the table opens
    import sqlite3

BUSY_TIMEOUT_S = 30.0
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER,
    won INTEGER NOT NULL,
    time_s REAL NOT NULL,
    moves INTEGER NOT NULL,
    score INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    game_id TEXT
);
CREATE INDEX IF NOT EXISTS games_kind ON games (variant, options, id);
"""
GAME_ID_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS games_game_id ON games (game_id)"


class StatsError(Exception):
    """The statistics cannot be read or written (the message says why, in one line)."""


def _say_on_stderr(message: str) -> None:
    import sys

    print(f"solitaire: {message}", file=sys.stderr)


def db_path() -> Path:
    return data_dir() / "stats.sqlite3"


def _damaged(exc: Exception) -> bool:
    """SQLite says the file is not a database, or a damaged one (not: busy, read-only, full)."""
    import sqlite3

    return (isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, (sqlite3.OperationalError, sqlite3.IntegrityError))) or "malformed" in str(exc)


def _open(path: Path) -> sqlite3.Connection:
    import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        # Switching a new database to WAL takes an exclusive lock, and SQLite may answer "locked"
        # at once, without its busy handler, while another process does the same: retry a while.
        _retrying(lambda: conn.execute("PRAGMA journal_mode = WAL"))
        _retrying(lambda: conn.executescript(SCHEMA))
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
        if "game_id" not in columns:  # a database from before game ids
            _retrying(lambda: conn.execute("ALTER TABLE games ADD COLUMN game_id TEXT"))
        _retrying(lambda: conn.execute(GAME_ID_INDEX))
    except BaseException:
        conn.close()
        raise
    return conn


def move_aside(path: Path) -> Path:
    """Rename a damaged database (and its -wal and -shm files) to an unused name beside it."""
    from solitaire.core.files import move_aside as aside

    target = aside(path)
    for extra in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + extra)
        if side.exists():
            os.replace(side, target.with_name(target.name + extra))
    return target


def connect(path: Path | None = None, say: Callable[[str], None] | None = None) -> sqlite3.Connection:
    """The statistics database, made if need be; a damaged one is moved aside (said through
    ``say``) and a new one made. Raise StatsError when it cannot be had."""
    import sqlite3

    path = path or db_path()
    try:
        try:
            return _open(path)
        except sqlite3.DatabaseError as exc:
            if not _damaged(exc):
                raise
            aside = move_aside(path)
            (say or _say_on_stderr)(_("the statistics could not be read ({reason}); moved them to {path}; "
                                      "starting new statistics").format(reason=exc, path=aside))
            return _open(path)
    except (sqlite3.Error, OSError) as exc:
        raise StatsError(_("cannot use the statistics in {path} ({reason})").format(
            path=path, reason=getattr(exc, "strerror", None) or exc)) from None


def _retrying(step: Any) -> None:
    import sqlite3

    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            busy = "locked" in str(exc) or "busy" in str(exc)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def options_key(options: dict[str, Any]) -> str:
    """The option set as canonical JSON: the key results are grouped by."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def game_options(game: Game) -> dict[str, Any]:
    return {o.name: game.rules.options[o.name] for o in game.rules.variant.options}


def summary_of(game: Game) -> dict[str, Any]:
    return summary(game.rules.name, game_options(game))


def record_game(game: Game, won: bool, time_s: float, path: Path | None = None, *,
                game_id: str | None = None, say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Record one finished or abandoned game; return the kind's summary before and after:
    ``{"before": {...}, "after": {...}}`` so the win screen can say what is a new best."""
    options = game_options(game)
    return record(game.rules.name, options, game.seed, won, time_s, game.moves, game.score, path,
                  game_id=game_id, say=say)


def record(variant: str, options: dict[str, Any], seed: int | None, won: bool, time_s: float,
           moves: int, score: int, path: Path | None = None, *, game_id: str | None = None,
           say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Insert one game's row (once for each ``game_id``: a second time changes nothing).
    Raise StatsError when the statistics cannot be written."""
    import sqlite3

    time_s = float(time_s)
    if not math.isfinite(time_s) or time_s < 0:
        raise StatsError(_("a game's time must be a number of seconds, got {time}").format(time=time_s))
    with _connection(path, say) as conn:
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                before = _summary(conn, variant, options)
                conn.execute(
                    "INSERT OR IGNORE INTO games (variant, options, seed, won, time_s, moves, score,"
                    " finished_at, game_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (variant, options_key(options), seed, int(won), time_s, moves, score, time.time(), game_id))
                after = _summary(conn, variant, options)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StatsError(_("cannot record the game in the statistics ({reason})").format(reason=exc)) from None
    return {"before": before, "after": after}


class _connection:
    """``with _connection(path, say) as conn``: connect, and close whatever happens."""

    def __init__(self, path: Path | None, say: Callable[[str], None] | None) -> None:
        self.conn = connect(path, say)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.close()


def _summary(conn: sqlite3.Connection, variant: str, options: dict[str, Any]) -> dict[str, Any]:
    key = options_key(options)
    played, won, best_time, fewest, best_score = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(won), 0),"
        " MIN(CASE WHEN won THEN time_s END), MIN(CASE WHEN won THEN moves END),"
        " MAX(CASE WHEN won THEN score END)"
        " FROM games WHERE variant = ? AND options = ?", (variant, key)).fetchone()
    streak = best_streak = run = 0
    for (w,) in conn.execute("SELECT won FROM games WHERE variant = ? AND options = ? ORDER BY id",
                             (variant, key)):
        run = run + 1 if w else 0
        best_streak = max(best_streak, run)
    streak = run
    return {
        "variant": variant,
        "options": options,
        "played": played,
        "won": won,
        "win_rate": round(won / played, 4) if played else None,
        "best_time_s": None if best_time is None else round(best_time, 1),
        "fewest_moves": fewest,
        "best_score": best_score,
        "streak": streak,
        "best_streak": best_streak,
    }


def summary(variant: str, options: dict[str, Any], path: Path | None = None) -> dict[str, Any]:
    import sqlite3

    with _connection(path, None) as conn:
        try:
            return _summary(conn, variant, options)
        except sqlite3.Error as exc:
            raise StatsError(_("cannot read the statistics ({reason})").format(reason=exc)) from None


def all_summaries(variant: str | None = None, path: Path | None = None,
                  say: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """A summary for each (variant, options) played, sorted; only ``variant``'s if given.
    Raise StatsError when the statistics cannot be read."""
    import sqlite3

    path = path or db_path()
    if not path.exists():
        return []
    with _connection(path, say) as conn:
        try:
            query = "SELECT DISTINCT variant, options FROM games"
            args: tuple[str, ...] = ()
            if variant is not None:
                query += " WHERE variant = ?"
                args = (variant,)
            kinds = sorted(conn.execute(query + " ORDER BY variant, options", args).fetchall())
            return [_summary(conn, v, json.loads(o)) for v, o in kinds]
        except (sqlite3.Error, ValueError) as exc:
            raise StatsError(_("cannot read the statistics ({reason})").format(reason=exc)) from None


def new_bests(result: dict[str, Any]) -> list[str]:
    """What a won game improved: 'time', 'moves', 'score' (a first win improves all three)."""
    before, after = result["before"], result["after"]
    out = []
    if after["best_time_s"] is not None and (before["best_time_s"] is None
                                             or after["best_time_s"] < before["best_time_s"]):
        out.append("time")
    if after["fewest_moves"] is not None and (before["fewest_moves"] is None
                                              or after["fewest_moves"] < before["fewest_moves"]):
        out.append("moves")
    if after["best_score"] is not None and (before["best_score"] is None
                                            or after["best_score"] > before["best_score"]):
        out.append("score")
    return out


def describe_options(options: dict[str, Any]) -> str:
    """Options as a player reads them: ``draw 3, redeals unlimited, relaxed`` (a flag that is on
    shows its name, one that is off nothing; no limit shows as unlimited)."""
    parts = []
    for name, value in options.items():
        if value is True:
            parts.append(name)
        elif value is not False:
            parts.append(f"{name} {_('unlimited') if value is None else value}")
    return ", ".join(parts)


def format_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
