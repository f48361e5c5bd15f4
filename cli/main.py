"""The ``solitaire`` command's entry point: :func:`main`.

A plain ``solitaire play ...`` line is read by :mod:`.quickargs` and played straight away,
without loading Typer (which, with its checks, costs about 0.1 s); everything else, every mistake and
``--help`` included, goes to the Typer app in :mod:`.commands`. Every user mistake is one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

_UNSET = object()


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status. User errors: one line on stderr, status 2."""
    # start-up makes a great many objects and almost no garbage: the collector's passes over
    # them cost a sixth of the table's first paint, so it waits: until the table's first frame
    # for a plain `play`, until the command line is read for anything else. So the kernel is
    # imported here, not at the top, and this module costs nothing to import.
    gc.disable()
    previous: Any = _UNSET
    try:
        from solitaire.core.plugins import use_startup_cache

        from .saves import startup_cache_file

        previous = use_startup_cache(startup_cache_file())  # for this command only
        return _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:  # also while the kernel is being imported
        return 130
    finally:
        if previous is not _UNSET:
            use_startup_cache(previous)
        gc.enable()


def _main(words: list[str]) -> int:
    from .common import UserError
    from .quickargs import PLAY, quick_args

    try:
        quick = quick_args(PLAY, words[1:]) if words[:1] == ["play"] else None
        if quick is not None:
            from .playing import play_game

            play_game(**quick)
            return 0
        gc.enable()
        from .commands import run

        return run(words)
    except UserError as exc:
        print(f"solitaire: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def __getattr__(name: str) -> Any:
    """``app`` and ``play`` (the Typer app and command) load on first use, for embedders and tests."""
    if name in ("app", "play"):
        from . import commands

        return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
