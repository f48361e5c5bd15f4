"""Right-to-left text (Arabic) at a terminal: the words put in the order they are seen.

Text is kept in logical order (the order it is read and typed). Most terminals (xterm, the
Linux console, Alacritty, kitty, WezTerm, Windows Terminal, tmux) show it cell by cell from the
left, as it comes: Arabic then reads backwards, its letters unjoined. A few lay it out themselves
(Konsole, mlterm, macOS Terminal; GNOME Terminal and the other VTE terminals since 0.58). So in
a right-to-left language each message is shown either as it is (``terminal``: the terminal
reorders it) or in visual order, its letters joined (``visual``: Arabic letters shaped into
their presentation forms by arabic-reshaper, then each line laid out right to left by
python-bidi, the Unicode bidirectional algorithm). ``SOLITAIRE_BIDI=visual`` or ``terminal``
says which; by default (``auto``) it is ``terminal`` in the terminals known to reorder and
``visual`` everywhere else (see docs/table.md, "Right to left").

Only the words are reordered (status line, header labels, help, notices, the line mode's
messages on a terminal): the table's cards and piles keep their places, and text written to a
file or a pipe stays in logical order.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from solitaire.core.i18n import right_to_left

MODES = ("auto", "visual", "terminal")
VTE_BIDI = 5800  # VTE_VERSION of VTE 0.58, the first that lays out bidirectional text
_BOLD_LINE = re.compile(r"(\s*)\[b\](.*)\[/b\](\s*)")


def terminal_reorders(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal the environment names lays out right-to-left text itself."""
    env = os.environ if environ is None else environ
    vte = env.get("VTE_VERSION", "")
    return bool(env.get("KONSOLE_VERSION") or env.get("MLTERM") or env.get("TERM_PROGRAM") == "Apple_Terminal"
                or (vte.isdigit() and int(vte) >= VTE_BIDI))


def mode(environ: Mapping[str, str] | None = None) -> str:
    """``visual`` or ``terminal``: who puts right-to-left text in the order it is seen."""
    env = os.environ if environ is None else environ
    asked = env.get("SOLITAIRE_BIDI", "auto").strip().lower()
    if asked in ("visual", "terminal"):
        return asked
    return "terminal" if terminal_reorders(env) else "visual"


def reorders() -> bool:
    """Whether the words shown now are to be put in visual order (a right-to-left language,
    and a terminal that does not do it)."""
    return right_to_left() and mode() == "visual"


def visual(text: str) -> str:
    """``text`` in visual order, each line a right-to-left paragraph, Arabic letters joined."""
    import arabic_reshaper  # type: ignore[import-untyped]  # (no type information shipped)
    from bidi import get_display  # type: ignore[import-untyped]

    return "\n".join(get_display(arabic_reshaper.reshape(line), base_dir="R") for line in text.split("\n"))


def for_screen(text: str) -> str:
    """``text`` (words in the language in use) as a terminal is to be given it."""
    return visual(text) if reorders() and text else text


def for_screen_markup(text: str) -> str:
    """As :func:`for_screen`, for Textual markup whose only tags are lines in bold (``[b]...[/b]``)."""
    if not reorders():
        return text
    out = []
    for line in text.split("\n"):
        bold = _BOLD_LINE.fullmatch(line)
        out.append(f"{bold[1]}[b]{visual(bold[2])}[/b]{bold[3]}" if bold else visual(line) if line.strip() else line)
    return "\n".join(out)
