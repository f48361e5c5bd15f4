"""The table's settings kept between runs: ``settings.json`` in the data folder (:mod:`.home`).

One setting so far, the language the table speaks (``L`` at the table cycles through the
languages and back to the locale's). Every command speaks it unless ``--lang`` names another;
with none kept, the locale's language is spoken (docs/table.md, "Language"). A settings file
that cannot be read, or holds a language not shipped, is as if it were not there: the
program never fails over it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solitaire.core.files import FileLimitError, atomic_write, loads_bounded, read_bounded
from solitaire.core.i18n import LANGUAGES

from .home import data_dir

SETTINGS_FILE = "settings.json"
MAX_BYTES = 64 * 1024  # a settings file larger than this is not read

# each language by its own name, as its speakers look for it in a list
NATIVE_NAMES = {"en": "English", "uk": "Українська", "ro": "Română", "el": "Ελληνικά", "ht": "Kreyòl ayisyen",
                "ar": "العربية"}


def settings_file() -> Path:
    return data_dir() / SETTINGS_FILE


def load_settings() -> dict[str, Any]:
    """The settings kept, ``{}`` when there are none or the file cannot be read."""
    try:
        value = loads_bounded(read_bounded(settings_file(), MAX_BYTES))
    except (OSError, ValueError, FileLimitError):  # missing, too large, not JSON
        return {}
    return value if isinstance(value, dict) else {}


def kept_language() -> str | None:
    """The language the table's setting chose, None for the locale's."""
    code = load_settings().get("language")
    return code if isinstance(code, str) and code in LANGUAGES else None


def keep_language(code: str | None) -> None:
    """Keep ``code`` as the language (None: the locale's from now on). Raises OSError."""
    settings = load_settings()
    if code is None:
        settings.pop("language", None)
    else:
        settings["language"] = code
    atomic_write(settings_file(), (json.dumps(settings, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


def next_language(code: str | None) -> str | None:
    """The setting after ``code`` in the cycle: each shipped language in turn, then the locale's."""
    cycle: list[str | None] = [*LANGUAGES, None]
    return cycle[(cycle.index(code) + 1) % len(cycle)] if code in cycle else cycle[0]
