"""Where the program keeps its files: the user data folder and the cache folder.

Both are ``$SOLITAIRE_HOME`` (the cache in its ``cache`` folder) when it is set, else the
platform's user folders (platformdirs). The saves (:mod:`.saves`), the statistics
(:mod:`.stats`), the race's seats and the start-up cache all live under them; this module
imports nothing of theirs, so each can name the folders without importing another.
"""

from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path


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
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}-{zlib.crc32(os.fsencode(sys.prefix)):08x}"
    return cache_dir() / f"startup-{tag}.marshal"
