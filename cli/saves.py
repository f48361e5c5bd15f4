"""Saved games: the unfinished game of each variant, written after every move.

One file per variant, ``<data>/saves/<variant>.json``, where ``<data>`` is the user data
folder (platformdirs) or ``$SOLITAIRE_HOME`` when set. A save holds the exact position
(:meth:`Game.to_position`), the undo history and the redo list, the elapsed time and whether
the game came from a deal (only dealt games count in the statistics). Writes are atomic
(temporary file + ``os.replace``), so a crash never leaves half a file. A save that cannot be
read is moved aside, never deleted or overwritten.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from solitaire.core import Game, SolitaireError, VariantDef
from solitaire.core.files import atomic_write

FORMAT = 1


class SaveError(Exception):
    """A save file that cannot be read back (the message says why, in one line)."""


def data_dir() -> Path:
    """The user data folder: ``$SOLITAIRE_HOME`` if set, else platformdirs' user data path."""
    home = os.environ.get("SOLITAIRE_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_data_dir("solitaire", appauthor=False))


def cache_dir() -> Path:
    """The user cache folder: ``$SOLITAIRE_HOME/cache`` if set, else platformdirs' user cache path."""
    home = os.environ.get("SOLITAIRE_HOME")
    if home:
        return Path(home) / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("solitaire", appauthor=False))


def startup_cache_file() -> Path:
    """The start-up cache (:mod:`solitaire.core.startcache`): one file per Python environment,
    so two environments sharing a folder do not overwrite each other's."""
    import sys
    import zlib

    tag = f"py{sys.version_info[0]}{sys.version_info[1]}-{zlib.crc32(os.fsencode(sys.prefix)):08x}"
    return cache_dir() / f"startup-{tag}.marshal"


def save_path(variant: str) -> Path:
    return data_dir() / "saves" / f"{variant}.json"


def save_data(game: Game, elapsed: float, dealt: bool) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "position": game.to_position(),
        "history": [list(h) for h in game.history],
        "future": [list(m) for m in game.future],
        "elapsed_s": round(elapsed, 3),
        "dealt": dealt,
    }


def write_save(game: Game, elapsed: float, dealt: bool) -> Path:
    path = save_path(game.rules.name)
    atomic_write(path, json.dumps(save_data(game, elapsed, dealt), separators=(",", ":")).encode("utf-8"))
    return path


def _ints(value: Any, size: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != size or \
            not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise SaveError(f"{what} is not a list of {size} whole numbers")
    return tuple(value)


def game_from_save(defn: VariantDef, data: Any) -> tuple[Game, float, bool]:
    """(game, elapsed seconds, dealt) from save data; raise SaveError with the reason."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a save file of this version")
    try:
        game = Game.from_position(defn, data.get("position"))
    except SolitaireError as exc:
        raise SaveError(f"bad position: {exc}") from None
    count = game.rules.count
    history = [_ints(h, 5, "a history entry") for h in data.get("history", [])]
    future = [_ints(m, 3, "a redo entry") for m in data.get("future", [])]
    for src, dst, n, _extra, _prev in history:
        if not (0 <= src < count and 0 <= dst < count and n >= 0):
            raise SaveError("a history entry names a pile that does not exist")
    if len(history) > game.moves:
        raise SaveError("the history is longer than the move count")
    game.history = list(history)  # type: ignore[arg-type]
    game.future = list(future)  # type: ignore[arg-type]
    # the history must unwind cleanly back to a full deck, or undo would fail later
    trial = game.copy()
    try:
        while trial.history:
            trial._unapply(rehide=True)
    except (IndexError, ValueError) as exc:
        raise SaveError(f"the undo history does not fit the position ({exc})") from None
    if sorted(c for p in trial.piles for c in p) != list(range(52)):
        raise SaveError("the undo history does not fit the position")
    elapsed = data.get("elapsed_s", 0)
    if not isinstance(elapsed, (int, float)) or isinstance(elapsed, bool) or elapsed < 0:
        raise SaveError("elapsed_s is not a number of seconds")
    return game, float(elapsed), bool(data.get("dealt", True))


def read_save(defn: VariantDef) -> tuple[Game, float, bool] | None:
    """The saved game of this variant, or None if there is none; raise SaveError if unreadable."""
    path = save_path(defn.name)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"cannot read it ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"not valid JSON ({exc.msg}, line {exc.lineno})") from None
    return game_from_save(defn, data)


def move_aside(variant: str) -> Path:
    """Rename an unreadable save to a new, unused name beside it; return that name."""
    path = save_path(variant)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    k = 0
    while True:
        target = path.with_name(f"{path.stem}.unreadable-{stamp}{f'-{k}' if k else ''}.json")
        try:
            # os.link fails if the target exists, so nothing is ever overwritten
            os.link(path, target)
        except FileExistsError:
            k += 1
            continue
        except OSError:
            if target.exists():
                k += 1
                continue
            os.rename(path, target)
            return target
        os.unlink(path)
        return target


def remove_save(variant: str) -> None:
    try:
        save_path(variant).unlink()
    except FileNotFoundError:
        pass


class Tracker:
    """Keeps one game's save current and its clock running; records the result when it ends.

    Call :meth:`changed` after every accepted command (move, draw, undo, redo, finish). The
    clock starts at the first change (not at the deal, nor when a saved game opens again), and
    :meth:`pause` and :meth:`resume` stop and restart it; ``clock`` is for tests.
    """

    def __init__(self, game: Game, elapsed: float = 0.0, dealt: bool = True, enabled: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.game = game
        self.base = elapsed  # the time counted before ``started``
        self.clock = clock
        self.started: float | None = None  # when the clock last started; None: not running
        self.paused = False
        self._was_running = False
        self.dealt = dealt
        self.enabled = enabled
        self.recorded = False
        self.stopped_at: float | None = None
        self.last_result: Any = None

    def elapsed(self) -> float:
        if self.started is None:
            return self.base
        end = self.stopped_at if self.stopped_at is not None else self.clock()
        return self.base + end - self.started

    def pause(self) -> None:
        """Stop the clock (the player is away, or reading the help) until :meth:`resume`."""
        if self.paused:
            return
        self.paused = True
        self._was_running = self.started is not None and self.stopped_at is None
        if self._was_running:
            self.base = self.elapsed()
            self.started = None

    def resume(self) -> None:
        """Run the clock again after :meth:`pause`, if it was running (it starts at the first change)."""
        if self.paused:
            self.paused = False
            if self._was_running:
                self.started = self.clock()

    def changed(self) -> None:
        if self.started is None and not self.paused and self.stopped_at is None:
            self.started = self.clock()  # the first change starts the clock
        if not self.enabled or self.recorded:
            return
        game = self.game
        if game.won:
            self.stopped_at = self.clock()
            self.recorded = True
            remove_save(game.rules.name)
            if self.dealt:
                from .stats import record_game

                self.last_result = record_game(game, True, self.elapsed())
            return
        if game.moves or game.history or game.future:
            write_save(game, self.elapsed(), self.dealt)

    def begin(self) -> None:
        """Save a new game before its first move, so that quitting at once comes back to it."""
        if self.enabled and not self.recorded and not self.game.won:
            write_save(self.game, self.elapsed(), self.dealt)

    def abandon(self) -> None:
        """The player leaves this game for another: it counts as played and lost (if dealt)."""
        if not self.enabled or self.recorded:
            return
        self.recorded = True
        remove_save(self.game.rules.name)
        if self.dealt and self.game.history:
            from .stats import record_game

            record_game(self.game, False, self.elapsed())
