"""The line mode: the board as text, one command a line, for a terminal or a script.

Everything printed is plain text to Rich (no markup, no emoji codes): what the user typed,
pile names and titles from a variant file, and refusals quoting either, go through
:func:`.lines.shown`, which bounds them and writes control characters as escapes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, cast

from rich.console import Console

from solitaire.core import Game
from solitaire.core.i18n import _, ngettext
from solitaire.core.limits import MAX_ECHO_CHARS, MAX_LINE_BYTES

from .bidi import for_screen
from .lines import Line, Output, read_lines, shown
from .render import render
from .session import Session


class _Console(Console):
    """Rich's console, except that a reader gone away (``| head -1``) is a BrokenPipeError for
    :func:`solitaire.cli.main.main` to end on quietly, as for ``--json`` (Rich would exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def _typed(console: Console) -> Iterator[Line]:
    """Lines typed at a terminal, with line editing; ends at end of input."""
    while True:
        try:
            text = input("> ")
        except EOFError:
            console.print()
            return
        except UnicodeDecodeError as exc:
            yield Line("", _("not {encoding} text: byte {byte} at column {column} cannot be read").format(
                encoding=exc.encoding.replace("_", "-"), byte=f"{exc.object[exc.start]:#04x}", column=exc.start + 1))
            continue
        if len(text.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
            yield Line(text[:MAX_ECHO_CHARS + 1], _("command too long (at most {limit} bytes)").format(
                limit=f"{MAX_LINE_BYTES:,}"))
            continue
        yield Line(text)


def run_lines(game: Game, stdin: IO[str], stdout: IO[str], session: Session | None = None) -> None:
    console = _Console(file=cast(IO[str], Output(stdout)), highlight=False, soft_wrap=True, markup=False, emoji=False)
    interactive = stdin.isatty() and stdout.isatty()
    # words for a terminal in visual order when the language is right to left (see .bidi); a file keeps them logical
    say = for_screen if stdout.isatty() else str
    session = session or Session(game)
    console.print(render(game), end="")
    examples = [game.move_text(m) for m in game.legal_moves()[:2]]
    said = ", ".join(f"'{e}'" for e in examples)
    console.print(say(shown(_("Type a move (e.g. {moves}), or 'help'.").format(moves=said), 200) if examples
                      else _("Type 'help' for the notation.")), style="dim")
    finish_told = False
    for line in _typed(console) if interactive else read_lines(stdin):
        if not interactive:
            console.print(f"> {shown(line.text.strip())}", style="dim")
        if line.refusal is not None:
            console.print(say(_("refused: {reason}").format(reason=line.refusal)), style="yellow")
            continue
        if not line.text.strip():
            continue
        reply = session.command(line.text)
        if reply.quit:
            return
        if not reply.ok:
            console.print(say(_("refused: {reason}").format(reason=shown(reply.error or "", 400))), style="yellow")
            continue
        if reply.message:
            console.print(say("\n".join(shown(part, 400) for part in reply.message.split("\n"))))
            if reply.has_hint or reply.is_help:
                continue
        for record in reply.records:
            if record.turned:
                console.print(say(_("{move}: {card} turned face up").format(
                    move=shown(record.move, 200), card=record.turned)), style="dim")
            if record.filled:
                pile, card = record.filled.split(" ", 1)
                console.print(say(_("{move}: {pile} filled from {source} with {card}").format(
                    move=shown(record.move, 200), pile=record.src, source=pile, card=card)), style="dim")
        console.print(render(game), end="")
        if game.won:
            won = ngettext("You won! Score {score} in {moves} move.", "You won! Score {score} in {moves} moves.",
                           game.moves)
            console.print(say(won.format(score=game.score, moves=game.moves)), style="bold green")
            return
        if not finish_told and game.finish_ready() is None and game.finish_moves() is not None:
            console.print(say(_("Every card is face up: type 'finish' to play them home.")), style="green")
            finish_told = True
        elif game.over:
            console.print(say(_("No moves are left. Type 'undo' to go back, or 'quit'.")), style="yellow")
