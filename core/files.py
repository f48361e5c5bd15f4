"""Writing a file so that a crash never leaves half of it: a temporary file, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (creating its folder): a temporary file in the same folder,
    then ``os.replace``, so readers see the old file or the new one, never a part. Raises
    OSError; the temporary file is removed on any failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
