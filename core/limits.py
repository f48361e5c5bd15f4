"""The limits the program puts on its input: one named constant each, stated in
docs/reference/limits.md. Plain constants only, so that any module may import them cheaply."""

from __future__ import annotations

MAX_LINE_BYTES = 10_000
"""The longest command line read by the line mode and the ``--json`` protocol, in bytes
(without its newline). A longer line is refused as it is read, without being held: the rest of
it is skipped up to the next newline."""

MAX_ECHO_CHARS = 60
"""The most characters of a user's input that is shown back (the line mode's echo of a
command, and a refusal quoting what was typed); a longer text is cut and ends with ``...``."""

MAX_JSON_DEPTH = 20
"""The deepest nesting of arrays and objects in a JSON document read as a position (a position
nests 4 deep); deeper is refused before it is parsed."""

MAX_JSON_NUMBER_CHARS = 40
"""The most characters in one number of a JSON document read as a position (a seed, at most
2**64 - 1, has 20 digits); a longer number is refused, not converted."""
