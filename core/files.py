"""Files the program reads and writes: bounded reads, bounded JSON, atomic writes, appends.

The limits on what is read (every save, position file and statistics file goes through here),
all of them in :mod:`solitaire.core.limits`:

* ``MAX_DATA_FILE_BYTES``: only a regular file of at most this many bytes is read; a named
  pipe, a device (``/dev/zero``) or a folder is refused before anything is read from it.
* ``MAX_JSON_DEPTH``: JSON nested deeper than this is refused before it is parsed.
* ``MAX_JSON_NUMBER_CHARS``: a JSON number written with more characters than this is refused
  before it is converted (the largest number a save holds is a seed, at most 20 digits).

A refusal raises :class:`FileLimitError` with a one-line reason.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
from pathlib import Path
from typing import Any

from .limits import MAX_DATA_FILE_BYTES, MAX_JSON_DEPTH, MAX_JSON_NUMBER_CHARS

_ATTEMPTS = 1000
_TMP_SUFFIX = ".tmp"


class FileLimitError(ValueError):
    """A file or text beyond the limits above, or not a regular file (one-line reason)."""


def read_bounded(path: Path, limit: int = MAX_DATA_FILE_BYTES, head: bool = False) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (with ``head``: its
    first ``limit`` bytes, however long it is). Raises OSError (FileNotFoundError when there is
    none) or FileLimitError. Opening never blocks: a named pipe is opened without waiting for a
    writer, then refused."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "is a folder", str(path))
        if not stat.S_ISREG(info.st_mode):
            raise FileLimitError("not a regular file")
        if info.st_size > limit and not head:
            raise FileLimitError(f"larger than {limit:,} bytes")
        chunks = []
        total = 0
        while True:  # the file may grow while it is read: read no more than the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                if head:
                    return b"".join(chunks)[:limit]
                raise FileLimitError(f"larger than {limit:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _number(text: str) -> str:
    if len(text) > MAX_JSON_NUMBER_CHARS:
        raise FileLimitError(f"a number of {len(text):,} characters ({text[:12]}...); at most {MAX_JSON_NUMBER_CHARS}")
    return text


def _int(text: str) -> int:
    return int(_number(text))


def _float(text: str) -> float:
    return float(_number(text))


def _constant(text: str) -> Any:
    raise FileLimitError(f"{text} is not a JSON number")


_SPECIAL = re.compile(r'["\\\[\]{}]')


def depth_over(text: str, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` deep in the JSON ``text``, brackets
    inside strings aside: one pass over the quotes, backslashes and brackets, before parsing."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = False
    skip = -1  # the character after a backslash in a string
    for match in _SPECIAL.finditer(text):
        i = match.start()
        if i < skip:
            continue
        c = text[i]
        if in_string:
            if c == "\\":
                skip = i + 2
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False


def loads_bounded(text: str | bytes, depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON within the limits; raise FileLimitError for what is beyond them (nesting too
    deep, numbers too long, NaN or Infinity), each checked before anything is built or
    converted, and ValueError (json.JSONDecodeError) for what is not JSON."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if depth_over(text, depth):
        raise FileLimitError(f"JSON nested more than {depth} deep")
    return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)


def _tmp_name(path: Path, attempt: int) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}-{attempt}{_TMP_SUFFIX}")


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (creating its folder): a temporary file in the same folder,
    then ``os.replace``, so readers see the old file or the new one, never a part. Raises
    OSError; the temporary file is removed on any failure. The temporary file's name holds
    the writer's process id, so :func:`remove_stale_temporaries` can tell a dead writer's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # the temporary file is made here rather than with tempfile.mkstemp, whose import (shutil,
    # bz2, lzma) costs the table's start-up a few milliseconds; O_EXCL makes it ours alone
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for attempt in range(_ATTEMPTS):
        tmp = _tmp_name(path, attempt)
        try:
            fd = os.open(tmp, flags, 0o600)
            break
        except FileExistsError:  # another thread's, or a dead process's with this number
            continue
    else:
        raise FileExistsError(f"no free temporary name beside {path}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            # no fsync: os.replace is atomic against crashes of this process, and an fsync per
            # write costs milliseconds (a bot playing over --json saves thousands of moves)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def append(path: Path, data: bytes) -> None:
    """Append ``data`` to ``path`` in one ``write`` (O_APPEND); raise OSError. A short write
    (a full disk) raises OSError too, leaving at most a torn last line for the reader to drop."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
    try:
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(28, "short write (no space left on the device?)", str(path))
    finally:
        os.close(fd)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True  # not a process id we can judge: leave its file
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, under another user
        return True
    return True


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Remove the temporary files :func:`atomic_write` left in ``folder`` when its process
    died mid-write (kill -9, a power cut): those whose writer's process id is no longer
    running. A live writer's, or one whose writer cannot be told, is left. Returns those
    removed; never raises OSError."""
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if not (name.startswith(".") and name.endswith(_TMP_SUFFIX)):
            continue
        stem = name[:-len(_TMP_SUFFIX)]
        pid_part, dash, attempt = stem.rpartition(".")[2].partition("-")
        if not (dash and pid_part.isdigit() and attempt.isdigit()) or len(pid_part) > 10:
            continue
        if _alive(int(pid_part)):
            continue
        try:
            os.unlink(folder / name)
            removed.append(folder / name)
        except OSError:
            pass
    return removed


def move_aside(path: Path) -> Path:
    """Rename the damaged file ``path`` to a new, unused name beside it
    (``NAME.unreadable-STAMP[-K].SUFFIX``) and return that name. Nothing is overwritten:
    ``os.link`` fails where the name is taken (on a file system without links, a rename
    after checking the name is free)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    k = 0
    while True:
        target = path.with_name(f"{path.stem}.unreadable-{stamp}{f'-{k}' if k else ''}{path.suffix}")
        try:
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
