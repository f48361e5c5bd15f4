"""Command lines read with a bound, and user text made safe to show.

:func:`read_lines` is the one reader of the line mode and the ``--json`` protocol: it reads
bytes, so that a line that is not valid text, or is too long, is refused on its own (every
other line still gets its reply), and it never holds more than
:data:`~solitaire.core.limits.MAX_LINE_BYTES` of a line. :func:`shown` is how any text that came
from the user or from a variant file is printed: cut to a bounded prefix, with control
characters written as escapes (so that no terminal sequence is passed through).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import IO, Any

import attrs

from solitaire.core.i18n import _
from solitaire.core.limits import MAX_ECHO_CHARS, MAX_LINE_BYTES

_SKIP_CHUNK = 1 << 16  # bytes read at a time while skipping the rest of a line too long


@attrs.frozen
class Line:
    """One line of input: its text, or why it was refused as it was read (then ``text`` is a
    bounded prefix of it, for the echo)."""

    text: str
    refusal: str | None = None


def _too_long(size: int) -> str:
    return _("command too long ({size} bytes; at most {limit})").format(size=f"{size:,}", limit=f"{MAX_LINE_BYTES:,}")


def read_lines(stdin: IO[str]) -> Iterator[Line]:
    """The lines of ``stdin``, each whole (without its newline) or refused, until its end.

    A text stream with a ``buffer`` (``sys.stdin``) is read as bytes and decoded line by line
    in its own encoding; any other (``io.StringIO``) line by line as text, with the same bound
    in characters.
    """
    raw = getattr(stdin, "buffer", None)
    if raw is None:
        yield from _text_lines(stdin)
        return
    encoding = getattr(stdin, "encoding", None) or "utf-8"
    try:
        codecs.lookup(encoding)
    except LookupError:
        encoding = "utf-8"
    while True:
        data = raw.readline(MAX_LINE_BYTES + 1)
        if not data:
            return
        if not data.endswith(b"\n") and len(data) > MAX_LINE_BYTES:
            size = len(data) + _skip_line(raw)
            prefix = data[:MAX_ECHO_CHARS * 4].decode(encoding, "backslashreplace")[:MAX_ECHO_CHARS + 1]
            yield Line(prefix, _too_long(size))
            continue
        data = data.removesuffix(b"\n").removesuffix(b"\r")
        try:
            line = Line(data.decode(encoding))
        except UnicodeDecodeError as exc:
            line = Line(data.decode(encoding, "backslashreplace"),
                        _("not {encoding} text: byte {byte} at column {column} cannot be read").format(
                            encoding=encoding, byte=f"{data[exc.start]:#04x}", column=exc.start + 1))
        yield line


def _skip_line(stream: Any) -> int:
    """Read and drop the rest of a line (bytes or text); return its length, newline aside."""
    skipped = 0
    while True:
        chunk = stream.readline(_SKIP_CHUNK)
        skipped += len(chunk)
        if not chunk:
            return skipped
        if chunk[-1:] in (b"\n", "\n"):
            return skipped - 1


def _text_lines(stdin: Any) -> Iterator[Line]:
    while True:
        text = stdin.readline(MAX_LINE_BYTES + 1)
        if not text:
            return
        if not text.endswith("\n") and len(text) > MAX_LINE_BYTES:
            size = len(text) + _skip_line(stdin)
            yield Line(text[:MAX_ECHO_CHARS + 1], _("command too long ({size} characters; at most {limit})").format(
                size=f"{size:,}", limit=f"{MAX_LINE_BYTES:,}"))
            continue
        yield Line(text.removesuffix("\n").removesuffix("\r"))


class OutputError(Exception):
    """Standard output cannot be written (a full disk, an I/O error): one line, status 1. A
    reader gone away is a BrokenPipeError instead (status 0)."""


class Output:
    """A text stream whose failed writes are :class:`OutputError`, so that they are told apart
    from the other errors of the system (a save that cannot be written is not stdout's)."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(_("cannot write to standard output: {reason}").format(
                reason=exc.strerror or exc)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(_("cannot write to standard output: {reason}").format(
                reason=exc.strerror or exc)) from None

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding ...: the stream's own
        return getattr(self._stream, name)


def shown(text: str, limit: int = MAX_ECHO_CHARS) -> str:
    """``text`` as it may be printed: at most ``limit`` characters (then ``...``), every
    character that is not printable (control characters, bidirectional overrides) written as
    its Python escape, e.g. ``\\x1b``."""
    cut = text[:limit] if len(text) > limit else text
    if not cut.isprintable():
        cut = "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)
    return cut + "..." if len(text) > limit else cut
