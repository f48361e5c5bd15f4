"""Saved games: every unfinished game, one file per slot, replayed from its deal when resumed.

A *slot* holds at most one unfinished game: one per variant and full option set for the deals
nobody named (``solitaire play klondike --draw 3``), one per named deal (``--seed``, ``--deal``,
``--daily``: variant, options and seed) and one per starting position (``--position``). Its file
is ``<data>/saves/<slot>.save``, where ``<data>`` is the user data folder (platformdirs) or
``$SOLITAIRE_HOME`` when set.

A save (format 2) is text, one line each: first a JSON header naming the deal (variant, options,
seed, or the starting position), the game's id and whether it counts in the statistics; then
one line per command the player gave, ``<elapsed ms> <command>``, the command being a move in
notation with its count (``t4 t6 3``, ``draw``), ``undo`` or ``redo``. Resuming replays the
commands from the deal with the kernel's own checks (as PGN is replayed for chess), so a save
outlives changes to the kernel's internals, and a save that was edited by hand is refused (moved
aside) the moment one line does not replay. Each command appends one line (one ``write``): the
cost of a command does not grow with the length of the game. The header is written whole
(temporary file + ``os.replace``) when the game is dealt or rewritten after a failed write.

While a process plays a slot it holds an ``fcntl.flock`` lock on ``<slot>.lock``: a second
process cannot play the same game at once (it is told so in one line), so no game is ever
written by two writers, counted twice or lost. Saves of format 1 (``saves/<variant>.json``: a
position with raw undo tuples) still load: their history is replayed and checked against their
position, then they are written again in format 2.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from solitaire.core import Game, IllegalMoveError, NotationError, Rules, SolitaireError, VariantDef
from solitaire.core.files import FileLimitError, append, atomic_write, loads_bounded, read_bounded
from solitaire.core.files import move_aside as move_aside  # the saves' own, for the command line
from solitaire.core.i18n import _
from solitaire.core.rules import PAIR

from . import stats
from .home import data_dir

FORMAT = 2
SUFFIX = ".save"
LOCK_SUFFIX = ".lock"
MAX_HEADER_BYTES = 1024 * 1024  # the first line: a header, with a start position at most
MAX_ELAPSED_S = 10 ** 9  # about 31 years: more is not a time anybody played


class SaveError(Exception):
    """A save file that cannot be read back (the message says why, in one line)."""


class SlotBusy(Exception):
    """The game of a slot is being played by another process (the message says which)."""


def saves_dir() -> Path:
    return data_dir() / "saves"


def legacy_path(variant: str) -> Path:
    """Where format 1 kept the one saved game of a variant."""
    return saves_dir() / f"{variant}.json"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------------------------- slots


class Slot:
    """Where one unfinished game lives: a variant, its full options, and the deal's name when
    the player named it (``deal``: the seed) or the starting position's checksum."""

    __slots__ = ("deal", "numbering", "options", "position", "variant")

    def __init__(self, variant: str, options: dict[str, Any], deal: int | None = None,
                 position: str | None = None, numbering: str | None = None) -> None:
        self.variant = variant
        self.options = dict(options)
        self.deal = deal
        self.position = position
        self.numbering = numbering  # the deal is a number of this public numbering (e.g. microsoft)

    @classmethod
    def for_game(cls, game: Game, named: bool, start: dict[str, Any] | None = None) -> Slot:
        """The slot of ``game``: its options' free slot unless ``named``; else the slot of its
        starting position (``start``) if given, else of its deal (its seed)."""
        options = dict(game.rules.options)
        if not named:
            return cls(game.rules.name, options)
        if start is not None:
            return cls(game.rules.name, options, position=f"{zlib.crc32(_canonical(start).encode()):08x}")
        return cls(game.rules.name, options, deal=game.seed, numbering=game.numbering)

    @property
    def named(self) -> bool:
        return self.deal is not None or self.position is not None

    def free(self) -> Slot:
        """The slot of this variant and options for deals nobody named."""
        return Slot(self.variant, self.options)

    def path(self) -> Path:
        name = f"{self.variant}-{zlib.crc32(_canonical(self.options).encode()):08x}"
        if self.deal is not None:
            name += f"-deal-{self.numbering}-{self.deal}" if self.numbering else f"-deal-{self.deal}"
        if self.position is not None:
            name += f"-position-{self.position}"
        return saves_dir() / (name + SUFFIX)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Slot) and self.path() == other.path()

    def __hash__(self) -> int:
        return hash(self.path())

    def __repr__(self) -> str:
        return f"Slot({self.path().name})"


# ---------------------------------------------------------------------------------- locks

_held: dict[str, list[int]] = {}  # lock file -> [fd, holders in this process]


class SlotLock:
    """This process's claim on a slot (``fcntl.flock`` on ``<slot>.lock``); :meth:`release` it.
    The same process may hold one slot more than once (each holder releases its own)."""

    def __init__(self, slot: Slot) -> None:
        self.slot = slot
        self.file = slot.path().with_suffix(LOCK_SUFFIX)
        self.held = False

    def acquire(self) -> SlotLock:
        """Raise SlotBusy if another process plays this slot, OSError if the folder cannot be
        made or written."""
        key = str(self.file)
        entry = _held.get(key)
        if entry is not None:
            entry[1] += 1
            self.held = True
            return self
        self.file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            import fcntl
        except ImportError:  # no fcntl (Windows): no locking between processes
            fcntl = None  # type: ignore[assignment]
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                try:
                    other = os.read(fd, 20).decode("ascii", "replace").strip()
                finally:
                    os.close(fd)
                who = _("process {pid}").format(pid=other) if other.isdigit() else _("another process")
                raise SlotBusy(_("that {game} game is open in another solitaire ({who})").format(
                    game=self.slot.variant, who=who)) from None
            except OSError:
                os.close(fd)
                raise
        try:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode("ascii"))
        except OSError:
            pass  # the pid is only for the message of a second process
        _held[key] = [fd, 1]
        self.held = True
        return self

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        key = str(self.file)
        entry = _held.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _held[key]
            os.close(entry[0])  # closing the descriptor releases the flock


def try_lock(slot: Slot) -> SlotLock | None:
    """The slot's lock, or None if another process holds it (or it cannot be made)."""
    try:
        return SlotLock(slot).acquire()
    except (SlotBusy, OSError):
        return None


# ---------------------------------------------------------------------------------- reading


class Saved:
    """A save read back: the game replayed to where it was, and what the file said of it."""

    __slots__ = ("dealt", "elapsed", "game", "game_id", "log", "path", "slot", "start")

    def __init__(self, game: Game, elapsed: float, dealt: bool, game_id: str, slot: Slot,
                 log: list[str], start: dict[str, Any] | None, path: Path) -> None:
        self.game = game
        self.elapsed = elapsed
        self.dealt = dealt
        self.game_id = game_id
        self.slot = slot
        self.log = log
        self.start = start
        self.path = path

    def __iter__(self) -> Iterator[Any]:  # (game, elapsed, dealt), as read_save gave before slots
        return iter((self.game, self.elapsed, self.dealt))


def _read_text(path: Path) -> str | None:
    try:
        raw = read_bounded(path)
    except FileNotFoundError:
        return None
    except FileLimitError as exc:
        raise SaveError(str(exc)) from None
    except OSError as exc:
        raise SaveError(f"cannot read it ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError("not a text file") from None


def _json(text: str) -> Any:
    try:
        return loads_bounded(text)
    except FileLimitError as exc:
        raise SaveError(str(exc)) from None
    except ValueError as exc:
        raise SaveError(f"not valid JSON ({getattr(exc, 'msg', exc)})") from None


def _ms(word: str, line: int) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 13:
        raise SaveError(f"line {line}: {word[:20]!r} is not a time in milliseconds")
    return int(word)


def notation(game: Game, move: tuple[int, int, int]) -> str:
    """A move as a save writes it: always with its count, so it reads back as exactly this move."""
    src, dst, n = move
    if n == 0:
        return "draw"
    short = game.rules.short_name
    return f"{short[src]} {short[dst]} " + ("pair" if n == PAIR else str(n))


class Replayer:
    """Applies saved commands to a game with the kernel's checks (:meth:`Game.refusal` on every
    move, then :meth:`Game.push`, as :meth:`Game.play` does without building its record): the
    notation is the save's own, ``SRC DST N`` with the piles' short names, or ``draw``, ``undo``,
    ``redo``. Raises SolitaireError for a command that is refused or not in that notation."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.places = {name: i for i, name in enumerate(game.rules.short_name)}

    def apply(self, command: str) -> None:
        game = self.game
        if command == "undo":
            game.undo()
            return
        if command == "redo":
            game.redo()
            return
        if command == "draw":
            move = game.rules.draw_move
            if move is None:
                raise IllegalMoveError("this game has no stock to draw from")
        else:
            parts = command.split(" ")
            places = self.places
            if len(parts) != 3 or parts[0] not in places or parts[1] not in places \
                    or not ((parts[2].isascii() and parts[2].isdigit()) or parts[2] == "pair") or len(parts[2]) > 4:
                raise NotationError(f"{command!r} is not a move as saves write them ('SRC DST N' or 'draw')")
            move = (places[parts[0]], places[parts[1]], PAIR if parts[2] == "pair" else int(parts[2]))
            if move[2] == 0:
                raise NotationError(f"{command!r}: a move takes at least 1 card")
        reason = game.refusal(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        game.push(move)
        game.future.clear()


def _header(defn: VariantDef, head: Any) -> tuple[Game, dict[str, Any] | None, str, bool]:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SaveError("not a save file of this version")
    unknown = set(head) - {"format", "id", "variant", "options", "seed", "numbering", "start", "dealt", "named"}
    if unknown:
        raise SaveError(f"unknown field {sorted(unknown)[0]!r}")
    if head.get("variant") != defn.name:
        raise SaveError(f"a save of {head.get('variant')!r}, not of {defn.name}")
    game_id = head.get("id")
    if not isinstance(game_id, str) or len(game_id) != 32 or not all(c in "0123456789abcdef" for c in game_id):
        raise SaveError("its id is not 32 hexadecimal digits")
    dealt, named = head.get("dealt"), head.get("named")
    if not isinstance(dealt, bool) or not isinstance(named, bool):
        raise SaveError("dealt and named must be true or false")
    options = head.get("options")
    if not isinstance(options, dict):
        raise SaveError("options is not an object")
    try:
        full = defn.resolve_options(options)
    except SolitaireError as exc:
        raise SaveError(f"bad options: {exc}") from None
    if full != options:
        raise SaveError("options must name every option of the game, as written")
    seed, start, numbering = head.get("seed"), head.get("start"), head.get("numbering")
    if numbering is not None and not isinstance(numbering, str):
        raise SaveError("numbering must be a name, e.g. \"microsoft\"")
    try:
        if start is None:
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise SaveError("a save without a start position needs a seed")
            game = Game.new(Rules.of(defn, options), seed, numbering)
        else:
            game = Game.from_position(defn, start)
            if dict(game.rules.options) != options or game.seed != seed or game.numbering != numbering:
                raise SaveError("the start position's options or seed differ from the header's")
    except (SolitaireError, ValueError) as exc:
        raise SaveError(f"bad deal: {exc}") from None
    return game, start, game_id, named


def read_save_file(defn: VariantDef, path: Path) -> Saved | None:
    """The game saved in ``path`` (format 2), replayed; None if there is no such file. Raise
    SaveError with the reason if anything in it does not hold."""
    text = _read_text(path)
    if text is None:
        return None
    lines = text.split("\n")
    if lines[-1]:  # a last line without its newline: a write cut short (a full disk, a crash)
        lines.pop()
    else:
        lines.pop()
    if not lines:
        raise SaveError("empty")
    game, start, game_id, named = _header(defn, _json(lines[0]))
    dealt = bool(_json(lines[0]).get("dealt"))
    slot = Slot.for_game(game, named, start)
    if slot.path().name != path.name:
        raise SaveError("its name does not match its game (renamed, or another game's)")
    elapsed_ms = 0
    log = lines[1:]
    replayer = Replayer(game)
    for i, line in enumerate(log, start=2):
        word, _, command = line.partition(" ")
        ms = _ms(word, i)
        if ms < elapsed_ms:
            raise SaveError(f"line {i}: the time goes back")
        elapsed_ms = ms
        if not command or len(command) > 40:
            raise SaveError(f"line {i}: no command")
        try:
            replayer.apply(command)
        except SolitaireError as exc:
            raise SaveError(f"line {i}: {command!r} does not replay ({exc})") from None
    if elapsed_ms / 1000 > MAX_ELAPSED_S:
        raise SaveError("the time played is too long")
    return Saved(game, elapsed_ms / 1000, dealt, game_id, slot, [ln.partition(" ")[2] for ln in log], start, path)


def _ints(value: Any, size: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != size or \
            not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise SaveError(f"{what} is not a list of {size} whole numbers")
    return tuple(value)


def _unwound(saved: Game, history: list[tuple[int, ...]], rehide: bool) -> Game:
    """A copy of ``saved`` with ``history`` (format 1's raw undo entries) taken back, the cards
    those moves turned up face down again or (``rehide`` false) left face up. Raises what the
    kernel raises on an entry that does not fit."""
    game = saved.copy()
    game.history = list(history)  # type: ignore[arg-type]
    game.future = []
    while game.history:
        game._unapply(rehide=rehide)
    return game


def from_format_1(defn: VariantDef, data: Any) -> tuple[Game, dict[str, Any] | None, list[str], float, bool]:
    """(game, start position or None for its deal, commands, elapsed, dealt) from a format 1
    save: its history is unwound to where the game began, then replayed forward move by move
    with the kernel's checks, and the result must be exactly the saved position. Raise
    SaveError."""
    if not isinstance(data, dict) or data.get("format") != 1:
        raise SaveError("not a save file of this version")
    try:
        saved = Game.from_position(defn, data.get("position"))
    except SolitaireError as exc:
        raise SaveError(f"bad position: {exc}") from None
    count = saved.rules.count
    history = [_ints(h, 5, "a history entry") for h in data.get("history", [])]
    future = [_ints(m, 3, "a redo entry") for m in data.get("future", [])]
    for entry in history:
        src, dst, n = entry[:3]
        # (a history code: a count of cards drawn, or bits for cards turned, piles filled, pairs, gaps closed)
        if not (0 <= src < count and 0 <= dst < count and (0 <= n <= 52 or n == PAIR) and -52 <= entry[3] < 1 << 160):
            raise SaveError("a history entry names a pile that does not exist")
    for move in future:
        if not (0 <= move[0] < count and 0 <= move[1] < count and (0 <= move[2] <= 52 or move[2] == PAIR)):
            raise SaveError("a redo entry names a pile that does not exist")
    if len(history) > saved.moves:
        raise SaveError("the history is longer than the move count")
    elapsed = data.get("elapsed_s", 0)
    if not isinstance(elapsed, (int, float)) or isinstance(elapsed, bool) or not math.isfinite(elapsed) \
            or not 0 <= elapsed <= MAX_ELAPSED_S:
        raise SaveError("elapsed_s is not a number of seconds")
    dealt = data.get("dealt", True)
    if not isinstance(dealt, bool):
        raise SaveError("dealt must be true or false")
    # where the game began: the saved position with its history taken back
    try:
        first = _unwound(saved, history, rehide=True)
        start_data = first.to_position()
        start = Game.from_position(defn, start_data)
    except (IndexError, ValueError, SolitaireError) as exc:
        raise SaveError(f"the undo history does not fit the position ({exc})") from None
    starts: list[tuple[dict[str, Any] | None, Game]] = []
    if dealt:
        if saved.seed is None or start.moves or start.score or start.recycles:
            raise SaveError("the undo history does not lead back to its deal")
        deal = Game.new(saved.rules, saved.seed, saved.numbering)
        # the same cards where the deal put them; more of them face up only where an undo
        # left a card face up (the kernel's undo never hides one again)
        if deal.piles != start.piles or any(s > d for s, d in zip(start.down, deal.down, strict=False)):
            raise SaveError("the undo history does not lead back to its deal")
        starts.append((None, deal))
    starts.append((start_data, start))

    def replayed(begin: Game, redo_list: bool) -> tuple[Game, list[str]] | None:
        game = begin.copy()
        commands: list[str] = []
        try:
            for entry in history:
                game.play(entry[:3])  # type: ignore[arg-type]
                commands.append(notation(game, entry[:3]))  # type: ignore[arg-type]
            if redo_list:
                for move in reversed(future):
                    game.play(move)  # type: ignore[arg-type]
                    commands.append(notation(game, move))  # type: ignore[arg-type]
                for _ in future:
                    game.undo()
                    commands.append("undo")
        except (SolitaireError, IndexError, ValueError):
            return None
        return game, commands

    def steps(entries: list[Any]) -> list[tuple[int, ...]]:  # each move and the score before it
        return [tuple(e[:3]) + tuple(e[4:]) for e in entries]

    for begin_data, begin in starts:
        done = replayed(begin, True)
        if done is not None and done[0].key() == saved.key() and (done[0].score, done[0].moves) == \
                (saved.score, saved.moves) and steps(done[0].history) == steps(history) \
                and done[0].future == [tuple(m) for m in future]:
            return done[0], begin_data, done[1], float(elapsed), dealt
    # An undo that left a card face up, its move then replaced by another (the redo list
    # cleared), leaves a position no replay reaches exactly (the cards turned up, and the points
    # for them, differ): the history must still replay and lead to the same cards in the same
    # places, moves and redeals, with no card face down that the replay turned up; the game then
    # resumes at its position (a valid one: checked as any position), without that history.
    # The first such undo may even leave a card face up that a later move of the history
    # carries (the unwinding above hid it again): then the history is replayed from the
    # position unwound without hiding any card, as the kernel's own undo would leave it.
    begins = [begin for _, begin in starts]
    with contextlib.suppress(IndexError, ValueError, SolitaireError):
        begins.append(_unwound(saved, history, rehide=False))
    for begin in begins:
        done = replayed(begin, False)
        if done is not None and done[0].piles == saved.piles and (done[0].moves, done[0].recycles) == \
                (saved.moves, saved.recycles) and all(p <= r for p, r in zip(saved.down, done[0].down, strict=False)):
            saved.history, saved.future = [], []
            return saved, saved.to_position(), [], float(elapsed), dealt
    raise SaveError("the undo history does not fit the position")


def remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def read_header(path: Path) -> dict[str, Any] | None:
    """The first line of a save, parsed (None if it cannot be read): for listing and look-up
    without replaying the game. Only a regular file is opened (a named pipe is not waited on)."""
    try:
        first = read_bounded(path, limit=64 * 1024, head=True)
        if b"\n" not in first:  # a start position makes a long first line: read on
            first = read_bounded(path, limit=MAX_HEADER_BYTES, head=True)
        first = first.split(b"\n", 1)[0]
        head = loads_bounded(first)
    except (OSError, ValueError):
        return None
    return head if isinstance(head, dict) else None


def save_files() -> list[Path]:
    """Every save (format 2) in the saves folder, the most recently played first."""
    try:
        entries = [p for p in saves_dir().iterdir() if p.suffix == SUFFIX and ".unreadable-" not in p.name]
    except OSError:
        return []
    dated = []
    for p in entries:
        try:
            dated.append((p.stat().st_mtime, p.name, p))
        except OSError:
            continue
    return [p for _, _, p in sorted(dated, reverse=True)]


def read_save(defn: VariantDef) -> Saved | None:
    """The most recently played unfinished game of this variant that reads back, or None."""
    for path in save_files():
        head = read_header(path)
        if head is None or head.get("variant") != defn.name:
            continue
        try:
            saved = read_save_file(defn, path)
        except SaveError:
            continue
        if saved is not None and not saved.game.won:
            return saved
    return None


# ---------------------------------------------------------------------------------- writing


def _start_of(game: Game) -> tuple[dict[str, Any] | None, list[str]]:
    """Where ``game`` began (None: the deal of its seed, else a position) and the commands that
    bring it from there to where it is: its history, then its redo list played and undone."""
    first = game.copy()
    first.future = []
    while first.history:
        first._unapply(rehide=True)
    start: dict[str, Any] | None = first.to_position()
    if game.seed is not None and first.moves == 0 and first.score == 0:
        deal = Game.new(game.rules, game.seed, game.numbering)
        if deal.key() == first.key():
            start = None
    commands = [notation(game, entry[:3]) for entry in game.history]
    commands += [notation(game, move) for move in reversed(game.future)]
    commands += ["undo"] * len(game.future)
    return start, commands


def migrate_legacy(defn: VariantDef, told: Callable[[str, Path], None]) -> Path | None:
    """Bring this variant's save of format 1 (``saves/<variant>.json``), if any, into its slot in
    format 2: the free slot of its options if that is empty, else its deal's own slot. One that
    cannot be read is moved aside and ``told(reason, where)``. Returns the new save's path.
    Raises nothing: a file that cannot be moved or written stays where it is."""
    path = legacy_path(defn.name)
    if not os.path.lexists(path):
        return None
    try:
        text = _read_text(path)
        if text is None:
            return None
        game, start, commands, elapsed, dealt = from_format_1(defn, _json(text))
    except SaveError as exc:
        with contextlib.suppress(OSError):
            told(str(exc), move_aside(path))
        return None
    if game.won:  # only a hand-made save can hold one: a win removes its save
        remove(path)
        return None
    if start is not None:
        slots = [Slot.for_game(game, named=True, start=start)]
    else:
        slots = [Slot.for_game(game, named=False), Slot.for_game(game, named=True)]
    for slot in slots:
        lock = try_lock(slot)
        if lock is None:
            continue
        try:
            if slot.path().exists():
                continue
            tracker = Tracker(game, elapsed, dealt, slot=slot, lock=lock, log=commands, start=start,
                              say=lambda _m: None)
            tracker._rewrite()
            remove(path)
            return slot.path()
        except OSError:
            return None
        finally:
            lock.release()
    return None


def _say_on_stderr(message: str) -> None:
    print(f"solitaire: {message}", file=sys.stderr)


class Tracker:
    """Keeps one game's save current and its clock running; records the result when it ends.

    Call :meth:`changed` after every accepted command (move, draw, undo, redo, finish): the
    commands since the last call are worked out from the game's history and redo list and
    appended to the save. Problems (a save that cannot be written, statistics that cannot be
    recorded) are told through ``say``, one line each, and never stop the game. The clock
    starts at the first change (not at the deal, nor when a saved game opens again), and
    :meth:`pause` and :meth:`resume` stop and restart it; ``clock`` is for tests.
    """

    def __init__(self, game: Game, elapsed: float = 0.0, dealt: bool = True, enabled: bool = True, *,
                 slot: Slot | None = None, lock: SlotLock | None = None, game_id: str | None = None,
                 log: list[str] | None = None, start: dict[str, Any] | None = None,
                 say: Callable[[str], None] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
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
        self.say = say or _say_on_stderr
        self._written = log is not None  # the file holds the header and self.log
        if log is None:  # a game not read from a save: where it began, and its commands since
            start, log = _start_of(game)
        self.start = start
        self.slot = slot or Slot.for_game(game, named=not dealt, start=start)
        self.lock = lock
        self.game_id = game_id or os.urandom(16).hex()
        self.log: list[str] = list(log)
        self._history = list(game.history)  # the game's history and redo list when last saved
        self._future = list(game.future)
        self._broken = False  # the last write failed: the next one rewrites the file whole
        self.kept = False  # give up or win could not be recorded: the save was kept

    # -- time
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

    def _ms(self) -> int:
        return max(0, int(self.elapsed() * 1000))

    # -- the file
    def header(self) -> dict[str, Any]:
        game = self.game
        return {"format": FORMAT, "id": self.game_id, "variant": game.rules.name,
                "options": dict(game.rules.options), "seed": game.seed, "start": self.start,
                "dealt": self.dealt, "named": self.slot.named,
                **({"numbering": game.numbering} if game.numbering is not None else {})}

    def _own(self) -> bool:
        """Hold the slot's lock (taken now if not yet); False, said once, if another has it."""
        if self.lock is not None and self.lock.held:
            return True
        try:
            self.lock = SlotLock(self.slot).acquire()
            return True
        except SlotBusy as exc:
            self.enabled = False
            self.say(_("{reason}: this game is not saved").format(reason=exc))
        except OSError as exc:
            self._failed(exc)
        return False

    def _failed(self, exc: OSError) -> None:
        if not self._broken:
            where = self.slot.path().parent
            self.say(_("cannot save the game in {path} ({reason}): playing on; the last good save is kept").format(
                path=where, reason=exc.strerror or exc))
        self._broken = True

    def _rewrite(self) -> None:
        ms = self._ms()
        lines = [_canonical(self.header())] + [f"{ms} {c}" for c in self.log]
        atomic_write(self.slot.path(), ("\n".join(lines) + "\n").encode("utf-8"))
        self._written = True

    def _append(self, commands: list[str]) -> None:
        ms = self._ms()
        append(self.slot.path(), "".join(f"{ms} {c}\n" for c in commands).encode("utf-8"))

    def _commands(self) -> list[str] | None:
        """The commands that turned the last saved history and redo list into the game's now,
        or None if they cannot be told (the file is then rewritten whole). The history only
        ever changes at its end, and an entry taken off it is never put back (a redo pushes a
        new one), so the entries still the same objects are the part no command touched: the
        cost is that of the entries that changed, not of the game's length."""
        game = self.game
        old_h, new_h, old_f, new_f = self._history, game.history, self._future, game.future
        k = min(len(old_h), len(new_h))
        while k and old_h[k - 1] is not new_h[k - 1]:
            k -= 1
        for redo_first in (True, False):  # a move played that was also the next redo: either
            out = ["undo"] * (len(old_h) - k)
            pending = [entry[:3] for entry in reversed(old_h[k:])]  # the undone moves, in order
            base = len(old_f)  # how much of the old redo list is left under them
            for entry in new_h[k:]:
                move = entry[:3]
                top = pending[-1] if pending else (old_f[base - 1] if base else None)
                if redo_first and top == move:
                    if pending:
                        pending.pop()
                    else:
                        base -= 1
                    out.append("redo")
                else:
                    pending, base = [], 0
                    out.append(notation(game, move))
            if len(new_f) == base + len(pending) and new_f[base:] == pending \
                    and not (base and new_f[base - 1] != old_f[base - 1]):
                break
        else:
            return None
        del old_h[k:]
        old_h.extend(new_h[k:])
        del old_f[base:]
        old_f.extend(pending)
        return out

    def _save(self) -> None:
        if not self._own():
            return
        commands = self._commands()
        try:
            if commands is None:  # cannot be told: the game as it is, as if set up anew
                self.start, self.log = _start_of(self.game)
                self._history, self._future = list(self.game.history), list(self.game.future)
                self._rewrite()
            else:
                self.log.extend(commands)
                if self._broken or not self._written:
                    self._rewrite()
                elif commands:
                    self._append(commands)
        except OSError as exc:
            self._failed(exc)  # self.log keeps the commands: the next write rewrites the file whole
            return
        if self._broken:
            self._broken = False
            self.say(_("saving the game again"))

    def _record(self, won: bool) -> bool:
        """Record this game (once, by its id); False, said, if the statistics cannot be had."""
        try:
            self.last_result = stats.record_game(self.game, won, self.elapsed(), game_id=self.game_id, say=self.say)
            return True
        except stats.StatsError as exc:
            self.say(_("{reason}: the game is kept in its save").format(reason=exc))
            self.kept = True
            return False

    def _remove(self) -> None:
        try:
            remove(self.slot.path())
        except OSError as exc:
            self.say(_("cannot remove the save of the finished game ({reason})").format(reason=exc.strerror or exc))

    # -- the events
    def changed(self) -> None:
        if self.started is None and not self.paused and self.stopped_at is None:
            self.started = self.clock()  # the first change starts the clock
        if not self.enabled or self.recorded:
            return
        game = self.game
        if game.won:
            self.stopped_at = self.clock()
            self.recorded = True
            self._save()  # the winning moves, so that a win that cannot be recorded is kept
            if not self.dealt or self._record(True):
                self._remove()
            return
        if game.moves or game.history or game.future or self.log:
            self._save()

    def begin(self) -> None:
        """Save a new game before its first move, so that quitting at once comes back to it."""
        if self.enabled and not self.recorded and not self.game.won:
            self._save()

    def abandon(self) -> bool:
        """The player gives this game up for another: it counts as played and lost (if dealt
        and played). False when it could not be recorded: its save is then kept."""
        if not self.enabled or self.recorded:
            return True
        if self.dealt and self.game.history and not self._record(False):
            return False
        self.recorded = True
        if self._own():
            self._remove()
        return True

    def successor(self, game: Game, dealt: bool) -> Tracker:
        """The tracker of the game the table deals after this one (a new deal or the same deal
        again): the same slot for the same deal; the free slot for a new deal left from the
        free slot; else the new deal's own (named) slot, so that no other saved game is touched."""
        if game.seed == self.game.seed and game.numbering == self.game.numbering \
                and dict(game.rules.options) == dict(self.game.rules.options) \
                and dealt == self.dealt and not self.kept:
            slot = self.slot
        else:
            slot = self.slot if not self.slot.named and not self.kept and dealt else Slot.for_game(game, named=True)
        lock = self.lock if slot == self.slot else None
        if lock is None:
            self.close()
        enabled = self.enabled
        if self.kept and slot == self.slot:
            enabled = False
            self.say(_("this game is not saved: the save of the last one is kept"))
        return Tracker(game, dealt=dealt, enabled=enabled, slot=slot, lock=lock, say=self.say, clock=self.clock)

    def close(self) -> None:
        """Let the slot go (the process stops playing this game)."""
        if self.lock is not None:
            self.lock.release()


class Unfinished:
    """One save, as the list and the picker show it."""

    __slots__ = ("error", "path", "saved")

    def __init__(self, path: Path, saved: Saved | None, error: str | None) -> None:
        self.path = path
        self.saved = saved
        self.error = error


def unfinished() -> list[Unfinished]:
    """Every unfinished game saved in a slot, replayed; nothing is moved or changed (the command
    line brings saves of format 1 into their slots first)."""
    from solitaire.core import get_variant

    out = []
    for path in save_files():
        head = read_header(path)
        name = head.get("variant") if head else None
        try:
            if not isinstance(name, str):
                raise SaveError("no header")
            try:
                defn = get_variant(name)
            except SolitaireError:
                raise SaveError(f"a game of {name!r}, which is not installed") from None
            saved = read_save_file(defn, path)
        except SaveError as exc:
            out.append(Unfinished(path, None, str(exc)))
            continue
        if saved is not None and not saved.game.won:
            out.append(Unfinished(path, saved, None))
    return out
