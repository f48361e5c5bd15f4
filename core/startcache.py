"""The start-up cache: the plugin list and the parsed variant files, kept from the last run.

Finding the plugins reads every installed distribution's metadata (``importlib.metadata``
and the ``email`` parser it brings), and every variant file is parsed with PyYAML: about
30 ms of a table's start-up that give the same answer run after run. The cache keeps both
answers with stamps of what they were made from, and uses an answer only while every stamp
is unchanged:

* **the plugin list**: the interpreter (version and prefix), ``sys.path`` (each entry made
  absolute, so ``''`` is the current folder), the names of the ``*.dist-info`` and
  ``*.egg-info`` folders in each entry, and each one's ``entry_points.txt`` (time, size and
  inode; a zip file on the path is stamped whole). These are exactly what
  ``importlib.metadata`` reads to find entry points: installing or removing a distribution
  adds or removes a folder name, and upgrading one rewrites its ``entry_points.txt``, so a
  stale list is never used. Where a finder other than Python's own can supply distributions
  (a zipapp, say), nothing is cached.
* **a variant file's parsed tree** (with its line numbers, for error messages), and whether
  it passed every load-time check (each option branch resolved and compiled): the file's
  absolute path, time, size and inode, everything above, and the stamps of the kernel
  modules that parse and check (``cards``, ``errors``, ``rules``, ``spec``, ``yamlsource``
  and this one). A file that passed is checked again only when it or that code changes;
  the rules for the options played are compiled when first asked for, as always.

A stamp less than two seconds old when an answer is made is not trusted (a file written
twice within the clock's granularity shows one time), so that answer is not kept: the next
run works it out again. The stamps are taken before the work, so a change made during it
makes them stale, never the answer. A missing, unreadable or corrupt cache file counts as
empty, and one that cannot be written is skipped: the cache changes how fast, never what.
Nothing is cached unless asked for (:func:`solitaire.core.plugins.use_startup_cache`); the
command line asks for it, in the user's cache folder.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from . import yamlsource
from .yamlsource import LDict, LList

FORMAT = 1
RACY_NS = 2_000_000_000  # stamps younger than this are not trusted
_INFO = (".dist-info", ".egg-info")
_SCALARS = (str, int, float, bool, bytes, type(None))


class _Uncachable(Exception):
    """A tree holding a value the cache file cannot keep (a date, a set)."""


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _code_modules() -> list[Any]:
    """The modules whose code decides what a file parses to and whether it passes the checks."""
    from . import cards, errors, rules, spec

    return [cards, errors, rules, spec, yamlsource, sys.modules[__name__]]


def own_finders_only() -> bool:
    """Only finders that look for distributions on ``sys.path`` can supply them: Python's own
    and its backport's (``importlib_metadata``, which some libraries install)."""
    from importlib.machinery import PathFinder

    return all(f is PathFinder or (type(f).__module__, type(f).__name__) == ("importlib_metadata", "MetadataPathFinder")
               for f in sys.meta_path if hasattr(f, "find_distributions"))


def environment() -> tuple[tuple, int]:
    """The stamps every cached answer depends on (the interpreter, ``sys.path`` and what is
    installed on it, the modules that make and keep trees) and the newest time among them."""
    entries: list[tuple] = []
    newest = 0
    for entry in sys.path:
        if not isinstance(entry, str):
            entries.append((repr(entry), None))
            continue
        folder = os.path.abspath(entry or ".")
        try:
            st = os.stat(folder)
        except OSError:
            entries.append((folder, None))
            continue
        if not stat.S_ISDIR(st.st_mode):  # a zip file: its own stamp covers what is inside
            entries.append((folder, (st.st_mtime_ns, st.st_size, st.st_ino)))
            newest = max(newest, st.st_mtime_ns)
            continue
        # a folder: the names of the distributions in it, not its time (a busy current folder
        # would change that on every run), and each one's entry points
        try:
            with os.scandir(folder) as found:
                names = sorted(e.name for e in found if e.name.lower().endswith(_INFO))
        except OSError:
            names = []
        if folder.lower().endswith(".egg"):
            names.append("EGG-INFO")
        infos = tuple((name, _stamp(os.path.join(folder, name, "entry_points.txt"))) for name in names)
        newest = max([newest, *(info[1][0] for info in infos if info[1])])
        entries.append((folder, infos))
    code = tuple((module.__name__, _stamp(module.__file__)) for module in _code_modules())
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


def _decode(value: Any) -> Any:
    if type(value) is not tuple:
        return value
    if value[0] == "d":
        _, line, keys, key_lines, values = value
        out = LDict(zip(keys, map(_decode, values)))
        out.line = line
        out.key_lines = dict(zip(keys, key_lines))
        return out
    _, line, item_lines, items = value
    seq = LList(map(_decode, items))
    seq.line = line
    seq.item_lines = list(item_lines)
    return seq


class StartupCache:
    """One cache file: read when made, written by :meth:`save` if anything new was learnt."""

    def __init__(self, file: str | os.PathLike[str]) -> None:
        self.file = os.fspath(file)
        self.usable = own_finders_only()
        self.env, self._newest = environment() if self.usable else ((), 0)
        self.plugins: dict[str, list[tuple[str, str, str]]] = {}
        self.trees: dict[str, tuple[Any, Any]] = {}
        self.hits = 0
        self._dirty = False
        if self.usable:
            self._read()

    def _read(self) -> None:
        try:
            with open(self.file, "rb") as f:
                data = marshal.load(f)
            if type(data) is not dict or data.get("env") != self.env:
                return
            plugins, trees = data["plugins"], data["trees"]
            if type(plugins) is not dict or type(trees) is not dict:
                return
            for group, found in plugins.items():
                self.plugins[group] = [(str(p), str(n), str(v)) for p, n, v in found]
            self.trees = trees
        except (OSError, EOFError, ValueError, TypeError, KeyError):  # missing or corrupt: empty
            self.plugins, self.trees = {}, {}

    def entry_points(self, group: str, find: Callable[[], list[tuple[str, str, str]]]) -> list[tuple[str, str, str]]:
        """``(provider, name, value)`` of the group's entry points: kept, else ``find()``."""
        if group in self.plugins:
            self.hits += 1
            return list(self.plugins[group])
        found = [tuple(item) for item in find()]
        if self.usable:
            self.plugins[group] = found  # type: ignore[assignment]
            self._dirty = True
        return found  # type: ignore[return-value]

    def tree(self, path: Path, parse: Callable[[Path], Any]) -> Any:
        """The parsed tree of a variant file: kept, else ``parse(path)`` (errors not kept)."""
        if not self.usable:
            return parse(path)
        key = os.path.abspath(path)
        stamp = _stamp(key)
        kept = self.trees.get(key)
        if stamp is not None and type(kept) is tuple and len(kept) == 3 and kept[0] == stamp:
            try:
                tree = _decode(kept[1])
            except (TypeError, ValueError, IndexError):  # a corrupt entry: parse the file again
                pass
            else:
                self.hits += 1
                return tree
        tree = parse(path)
        self.trees.pop(key, None)
        if stamp is not None and stamp[0] < time.time_ns() - RACY_NS:
            try:
                self.trees[key] = (stamp, _encode(tree), False)
            except _Uncachable:
                pass
        self._dirty = True
        return tree

    def checked(self, path: Path) -> bool:
        """Did this file's kept tree pass every load-time check (all option branches) under
        this same code? Then they need not run again."""
        kept = self.trees.get(os.path.abspath(path))
        return type(kept) is tuple and len(kept) == 3 and kept[2] is True

    def mark_checked(self, path: Path) -> None:
        """The tree just returned for ``path`` passed every load-time check."""
        key = os.path.abspath(path)
        kept = self.trees.get(key)
        if type(kept) is tuple and len(kept) == 3 and kept[2] is not True:
            self.trees[key] = (kept[0], kept[1], True)
            self._dirty = True

    def save(self) -> None:
        """Write what was learnt, unless the installed set changed moments ago (atomic; a
        folder that cannot be written is skipped silently)."""
        if not (self.usable and self._dirty) or self._newest >= time.time_ns() - RACY_NS:
            return
        data = {"env": self.env, "plugins": self.plugins, "trees": self.trees}
        folder = os.path.dirname(self.file) or "."
        try:
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".startup.", suffix=".tmp", dir=folder)
            try:
                with os.fdopen(fd, "wb") as f:
                    marshal.dump(data, f)
                os.replace(tmp, self.file)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except (OSError, ValueError):
            return
        self._dirty = False
