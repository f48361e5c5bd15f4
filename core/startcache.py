"""The start-up cache: the plugin list and the parsed variant files, kept from the last run.

Finding the plugins reads every installed distribution's metadata (``importlib.metadata``
and the ``email`` parser it brings), and every variant file is parsed with PyYAML and
checked under every option set: some 40 ms of a table's start-up that give the same answer
run after run. The cache keeps the answers with stamps of what they were made from, and
uses an answer only while every stamp is unchanged. A stamp is a file's modification time,
change time, size and inode (the change time cannot be set by a program, so a file
rewritten in place with its old time restored still shows as changed).

* **The plugin list**: the interpreter (version and prefix); ``sys.path``, each entry made
  absolute (``''`` is the current folder); in each entry, the names of the ``*.dist-info``
  and ``*.egg-info`` folders and each one's stamp (a reinstall makes a new folder), and,
  for those with entry points, ``entry_points.txt`` and the metadata that names the
  provider; a zip file on the path is stamped whole. That is everything
  ``importlib.metadata`` reads to find entry points, so installing, removing, upgrading
  or editing a plugin is seen at the next start. Where a finder other than Python's own
  (or its ``importlib_metadata`` backport) can supply distributions, or ``sys.path`` holds
  something other than a path, nothing is cached.
* **A variant file's parsed tree** (with its line numbers, for error messages), and whether
  it passed every load-time check (each option branch resolved and compiled): the file's
  path and stamp, everything above, and the stamps of the kernel modules that parse and
  check (``cards``, ``errors``, ``rules``, ``spec``, ``yamlsource`` and this one). A file
  that passed is not checked again until it or that code changes; the rules for the
  options played are compiled when first asked for, as always.

A stamp whose modification time is less than two seconds old when an answer is made is
not trusted (a file written twice within the clock's granularity shows one time), so that
answer is not kept and the next run works it out again. Stamps are taken before the work,
so a change made during it makes them stale, never the answer (the clock is :func:`now_ns`,
which tests set). The file carries a checksum:
a missing, unreadable, damaged or foreign file counts as empty, one that cannot be written
is skipped, and a tree that cannot be kept (a date, a set) is parsed every time. A kept
tree is held to the parser's limits (:mod:`.limits`) as it is read back, since ``marshal``
keeps a shared object once and a forged entry could otherwise expand past them: an entry
past a limit, or of a shape the parser does not make, is damaged, and the file is parsed
again. The cache changes how fast, never what. Nothing is cached unless asked for
(:func:`solitaire.core.plugins.use_startup_cache`); the command line asks for it, with one
file per Python environment in the user's cache folder.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import limits, yamlsource
from .files import atomic_write
from .yamlsource import LDict, LList

FORMAT = 1
RACY_NS = 2_000_000_000  # stamps younger than this are not trusted
MAX_BYTES = 32 << 20  # a cache file larger than this is not ours (each tree is of a file of at most 64 KiB)
_INFO = (".dist-info", ".egg-info")
_SCALARS = (str, int, float, bool, bytes, type(None))


def now_ns() -> int:
    """The clock the two-second rule reads (tests set it rather than wait)."""
    return time.time_ns()


class _Uncachable(Exception):
    """A tree holding a value the cache file cannot keep (a date, a set)."""


def _stamp(path: str | None) -> tuple[int, int, int, int] | None:
    """A file's (modification time, change time, size, inode); None if it is not there.
    The change time cannot be set by a program, so a file rewritten in place with its old
    modification time restored (``cp -p``, ``touch -r``) still shows as changed."""
    if not path:  # a module without a file (frozen, say): nothing to stamp
        return None
    try:
        return _stamp_of(os.stat(path))
    except OSError:
        return None


def _stamp_of(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def _code_modules() -> list[Any]:
    """The modules whose code decides what a file parses to and whether it passes the checks."""
    from . import cards, errors, rules, spec

    return [cards, errors, limits, rules, spec, yamlsource, sys.modules[__name__]]


def own_finders_only() -> bool:
    """Only finders that look for distributions on ``sys.path`` can supply them: Python's own
    and its backport's (``importlib_metadata``, which some libraries install)."""
    from importlib.machinery import PathFinder

    return all(f is PathFinder or (type(f).__module__, type(f).__name__) == ("importlib_metadata", "MetadataPathFinder")
               for f in sys.meta_path if hasattr(f, "find_distributions"))


def environment() -> tuple[tuple[Any, ...], int] | None:
    """The stamps every cached answer depends on (the interpreter, ``sys.path`` and what is
    installed on it, the modules that make and check trees) and the newest modification
    time among them; None when ``sys.path`` holds an entry that is not a path."""
    entries: list[tuple[Any, ...]] = []
    newest = 0
    for listed in sys.path:
        entry: object = listed  # typed as text, but a program may put anything in sys.path
        if isinstance(entry, os.PathLike):
            entry = os.fspath(entry)
        if not isinstance(entry, str):
            return None
        folder = os.path.abspath(entry or ".")
        try:
            st = os.stat(folder)
        except OSError:
            entries.append((folder, None))
            continue
        if not stat.S_ISDIR(st.st_mode):  # a zip file: its own stamp covers what is inside
            entries.append((folder, _stamp_of(st)))
            newest = max(newest, st.st_mtime_ns)
            continue
        # a folder: the distributions in it (not its own time: a busy current folder would
        # change that on every run), each one's folder (a reinstall makes a new one) and, for
        # those with entry points, the entry points and the metadata that names the provider
        try:
            with os.scandir(folder) as found:
                names = sorted(e.name for e in found if e.name.lower().endswith(_INFO))
        except OSError:
            names = []
        if folder.lower().endswith(".egg"):
            names.append("EGG-INFO")
        infos = []
        for name in names:
            dist = os.path.join(folder, name)
            stamps = [_stamp(dist), _stamp(os.path.join(dist, "entry_points.txt"))]
            if stamps[1] is not None:
                stamps += [_stamp(os.path.join(dist, "METADATA")), _stamp(os.path.join(dist, "PKG-INFO"))]
            newest = max([newest, *(stamp[0] for stamp in stamps if stamp)])
            infos.append((name, tuple(stamps)))
        entries.append((folder, tuple(infos)))
    code = tuple((module.__name__, _stamp(getattr(module, "__file__", None))) for module in _code_modules())
    newest = max([newest, *(stamp[0] for _, stamp in code if stamp)])
    return (FORMAT, sys.version, sys.prefix, tuple(entries), code), newest


def _encode(value: Any) -> Any:
    """A parsed tree as plain tuples the ``marshal`` module can keep (its line numbers too)."""
    if isinstance(value, LDict):
        keys = tuple(value)
        for key in keys:
            if type(key) not in _SCALARS:
                raise _Uncachable
        return ("d", value.line, keys, tuple(value.key_lines[k] for k in keys),
                tuple(_encode(value[k]) for k in keys))
    if isinstance(value, LList):
        return ("l", value.line, tuple(value.item_lines), tuple(_encode(v) for v in value))
    if type(value) not in _SCALARS:
        raise _Uncachable
    return value


class _Damaged(Exception):
    """A kept tree that the parser could not have made: past a limit, or not of our shape."""


def _decode(value: Any, budget: list[int] | None = None, depth: int = 1) -> Any:
    """The tree :func:`_encode` kept, held to the parser's limits (values, depth, number
    length): ``marshal`` keeps shared objects once, so a forged or damaged entry could
    otherwise expand into more than any file could say; raise :class:`_Damaged`."""
    if budget is None:
        budget = [limits.MAX_VALUES]
    budget[0] -= 1
    kind = type(value)
    if budget[0] < 0 or depth > limits.MAX_DEPTH + (kind is not tuple):  # a scalar may sit below the deepest list
        raise _Damaged
    if kind is not tuple:
        # no number as long as MAX_NUMBER_CHARS, even in hex, has more bits
        if kind not in _SCALARS or (kind is int and value.bit_length() > 4 * limits.MAX_NUMBER_CHARS):
            raise _Damaged
        return value
    if value[0] == "d":
        _, line, keys, key_lines, values = value
        if not (type(keys) is tuple and type(key_lines) is tuple and type(values) is tuple
                and len(keys) == len(key_lines) == len(values)):
            raise _Damaged
        for key in keys:  # keys are values too (and plain ones)
            _decode(key, budget, depth + 1)
        out = LDict(zip(keys, [_decode(v, budget, depth + 1) for v in values], strict=True))  # lengths checked
        out.line = line
        out.key_lines = dict(zip(keys, key_lines, strict=True))
        return out
    if value[0] != "l":
        raise _Damaged
    _, line, item_lines, items = value
    if not (type(item_lines) is tuple and type(items) is tuple and len(item_lines) == len(items)):
        raise _Damaged
    seq = LList([_decode(v, budget, depth + 1) for v in items])
    seq.line = line
    seq.item_lines = list(item_lines)
    return seq


class StartupCache:
    """One cache file: read when made, written by :meth:`save` if anything new was learnt.

    The file is ``MAGIC``, the payload's length and CRC-32, then the payload (``marshal``):
    a damaged file fails the check and counts as empty, rather than being unmarshalled into
    something wrong (or into an error, or gigabytes: ``marshal`` trusts its input)."""

    MAGIC = b"solitaire-startup\n"

    def __init__(self, file: str | os.PathLike[str]) -> None:
        self.file = os.fspath(file)
        found = environment() if own_finders_only() else None
        self.usable = found is not None
        self.env, self._newest = found or ((), 0)
        self.plugins: dict[str, list[tuple[str, str, str]]] = {}
        self.trees: dict[str, tuple[Any, Any, bool]] = {}
        self.hits = 0
        self._used: set[str] = set()  # the files asked for this run: only they are written back
        self._dirty = False
        if self.usable:
            self._read()

    def _read(self) -> None:
        import zlib

        try:
            with open(self.file, "rb") as f:
                blob = f.read(MAX_BYTES + 1)
            if len(blob) > MAX_BYTES:  # not one we wrote: read no further
                return
            head = len(self.MAGIC)
            if blob[:head] != self.MAGIC or len(blob) < head + 8:
                return
            size, crc = int.from_bytes(blob[head:head + 4], "big"), int.from_bytes(blob[head + 4:head + 8], "big")
            payload = blob[head + 8:]
            if len(payload) != size or zlib.crc32(payload) != crc:
                return
            data = marshal.loads(payload)
            if type(data) is not dict or data.get("env") != self.env:
                return
            plugins, trees = data["plugins"], data["trees"]
            if type(plugins) is not dict or type(trees) is not dict:
                return
            self.plugins = {str(group): [(str(p), str(n), str(v)) for p, n, v in found]
                            for group, found in plugins.items()}
            self.trees = trees
        except Exception:  # missing, unreadable or not ours: the cache is empty, never an error
            self.plugins, self.trees = {}, {}

    def entry_points(self, group: str, find: Callable[[], list[tuple[str, str, str]]]) -> list[tuple[str, str, str]]:
        """``(provider, name, value)`` of the group's entry points: kept, else ``find()``."""
        if group in self.plugins:
            self.hits += 1
            return list(self.plugins[group])
        found = [(provider, name, value) for provider, name, value in find()]
        if self.usable:
            self.plugins[group] = found
            self._dirty = True
        return found

    def tree(self, path: Path, parse: Callable[[Path], Any]) -> Any:
        """The parsed tree of a variant file: kept, else ``parse(path)`` (errors not kept)."""
        if not self.usable:
            return parse(path)
        key = os.path.abspath(path)
        self._used.add(key)
        stamp = _stamp(key)
        kept = self._kept(key)
        if stamp is not None and kept is not None and kept[0] == stamp:
            try:
                tree = _decode(kept[1])
            except Exception:  # a damaged entry (or one nested too deep): parse the file again
                pass
            else:
                self.hits += 1
                return tree
        tree = parse(path)
        self.trees.pop(key, None)
        self._dirty = True
        if stamp is not None and stamp[0] < now_ns() - RACY_NS:
            with contextlib.suppress(_Uncachable, RecursionError):  # a date, a set, or nested beyond the stack
                self.trees[key] = (stamp, _encode(tree), False)
        return tree

    def _kept(self, key: str) -> tuple[Any, Any, Any] | None:
        """The entry kept for a file, if it has the shape this module writes: (stamp, tree, checked)."""
        kept = self.trees.get(key)
        return kept if type(kept) is tuple and len(kept) == 3 else None

    def checked(self, path: Path) -> bool:
        """Did this file's kept tree pass every load-time check (all option branches) under
        this same code? Then they need not run again."""
        kept = self._kept(os.path.abspath(path))
        return kept is not None and kept[2] is True

    def mark_checked(self, path: Path) -> None:
        """The tree just returned for ``path`` passed every load-time check."""
        key = os.path.abspath(path)
        kept = self._kept(key)
        if kept is not None and kept[2] is not True:
            self.trees[key] = (kept[0], kept[1], True)
            self._dirty = True

    def save(self) -> None:
        """Write what was learnt, unless the installed set changed moments ago (atomic; a
        folder that cannot be written is skipped silently). Only the files asked for in this
        run are kept, so files no longer registered leave the cache."""
        if not (self.usable and self._dirty) or self._newest >= now_ns() - RACY_NS:
            return
        import zlib

        trees = {key: self.trees[key] for key in self._used if key in self.trees}
        try:
            payload = marshal.dumps({"env": self.env, "plugins": self.plugins, "trees": trees})
        except ValueError:  # nested too deep for marshal: keep nothing rather than fail
            return
        blob = self.MAGIC + len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big") + payload
        try:
            atomic_write(Path(self.file), blob)
        except OSError:  # a read-only or missing folder: no cache, no error
            return
        self._dirty = False
