"""Writing a file so that a crash never leaves half of it: a temporary file, then a rename."""

from __future__ import annotations

import os
from pathlib import Path

_ATTEMPTS = 1000


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (creating its folder): a temporary file in the same folder,
    then ``os.replace``, so readers see the old file or the new one, never a part. Raises
    OSError; the temporary file is removed on any failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # the temporary file is made here rather than with tempfile.mkstemp, whose import (shutil,
    # bz2, lzma) costs the table's start-up a few milliseconds; O_EXCL makes it ours alone
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for attempt in range(_ATTEMPTS):
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{attempt}.tmp")
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
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
