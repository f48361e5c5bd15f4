"""The ``solitaire`` command's entry point: :func:`main`.

A plain ``solitaire play ...`` line is read by :mod:`.quickargs` and played straight away,
without loading Typer (which, with its checks, costs about 0.1 s); everything else, every mistake and
``--help`` included, goes to the Typer app in :mod:`.commands`. Every user mistake is one
line on stderr and exit status 2, never a traceback. So is a closed stdout (``>&-``), and a
closed stdin (``<&-``) for ``play``, which reads its commands there; a closed stderr drops the
error lines. A reader that stops reading (``| head -1``) ends the command quietly, status 0;
a stdout that cannot be written (a full disk) ends ``play``'s line and JSON modes with one line
on stderr, status 1.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

_UNSET = object()


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status. User errors: one line on stderr, status 2."""
    if sys.stderr is None:  # 2>&-: error lines have nowhere to go (print would send them to stdout)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (stderr for the rest of the run)
    words = list(sys.argv[1:] if argv is None else argv)
    closed = _closed_stream(words)
    if closed:
        print(f"solitaire: {closed}", file=sys.stderr)
        return 2
    # start-up makes a great many objects and almost no garbage: the collector's passes over
    # them cost a sixth of the table's first paint, so it waits: until the table's first frame
    # for a plain `play`, until the command line is read for anything else. So the kernel is
    # imported here, not at the top, and this module costs nothing to import.
    gc.disable()
    previous: Any = _UNSET
    try:
        from solitaire.core.plugins import use_startup_cache

        from .home import startup_cache_file

        previous = use_startup_cache(startup_cache_file())  # for this command only
        rest = _language(words)
        if rest is None:
            return 2
        return _main(rest)
    except KeyboardInterrupt:  # also while the kernel is being imported
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0
    finally:
        if previous is not _UNSET:
            use_startup_cache(previous)
        gc.enable()


def _version() -> None:
    """``solitaire --version``: the package's version and which engine solves."""
    from importlib.metadata import PackageNotFoundError, version

    from solitaire.core.solver import engine_line

    try:
        number = version("solitaire-table")
    except PackageNotFoundError:  # run from a source tree that is not installed
        number = "unknown"
    print(f"solitaire {number} ({engine_line()})")


def _main(words: list[str]) -> int:
    from .common import UserError, is_game
    from .lines import OutputError
    from .quickargs import PLAY, game_first, quick_args

    try:
        if words == ["--version"]:
            _version()
            return 0
        if words[:1] == ["play"]:
            words = ["play", *game_first(PLAY, words[1:], is_game)]
        quick = quick_args(PLAY, words[1:]) if words[:1] == ["play"] else None
        if quick is not None:
            from .playing import play_game

            play_game(**quick)
            return 0
        gc.enable()
        from .commands import run

        return run(words)
    except UserError as exc:
        print(f"solitaire: {_for_terminal(str(exc))}", file=sys.stderr)
        return 2
    except OutputError as exc:  # a full disk: said, and what is still buffered is dropped
        print(f"solitaire: {exc}", file=sys.stderr)
        _drop_stdout()
        return 1
    except KeyboardInterrupt:
        return 130


def _for_terminal(message: str) -> str:
    """A message for stderr: in visual order on a terminal when the language is right to left."""
    if not sys.stderr.isatty():
        return message
    from .bidi import for_screen

    return for_screen(message)


def _language(words: list[str]) -> list[str] | None:
    """Speak the language ``--lang CODE`` names (anywhere before a ``--``), else the locale's;
    the words without it. None (said on stderr) for a language that is not shipped."""
    from solitaire.core.i18n import LANGUAGES, _, set_language

    code: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            rest += words[i:]
            break
        if word == "--lang" or word.startswith("--lang="):
            if word == "--lang":
                i += 1
                if i == len(words):
                    set_language()
                    print("solitaire: " + _("--lang needs a language, one of: {languages}").format(
                        languages=", ".join(LANGUAGES)), file=sys.stderr)
                    return None
                code = words[i]
            else:
                code = word.removeprefix("--lang=")
        else:
            rest.append(word)
        i += 1
    if code is None:  # the table's kept setting, else the locale's (docs/table.md, "Language")
        from .settings import kept_language

        code = kept_language()
    try:
        set_language(code)
    except ValueError:
        set_language()
        print("solitaire: " + _("unknown language {code!r}: the languages are {languages}").format(
            code=code, languages=", ".join(LANGUAGES)), file=sys.stderr)
        return None
    return rest


def _closed_stream(words: list[str]) -> str | None:
    """Why the command cannot run for a standard stream closed at start, or None."""
    if sys.stdout is None:
        return "standard output is closed (>&-): there is nowhere to write"
    if sys.stdin is None and words[:1] == ["play"]:
        return "standard input is closed (<&-): play reads its commands there (give </dev/null for none)"
    return None


def _drop_stdout() -> None:
    """The reader has gone: point stdout at the null device, so that flushing it at exit
    raises nothing more (as the Python documentation advises for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file (a test's capture): nothing to flush
        pass


def __getattr__(name: str) -> Any:
    """``app`` and ``play`` (the Typer app and command) load on first use, for embedders and tests."""
    if name in ("app", "play"):
        from . import commands

        return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
