"""The line mode: the board as text, one command a line, for a terminal or a script."""

from __future__ import annotations

from typing import IO

from rich.console import Console

from solitaire.core import Game

from .render import render
from .session import Session


def run_lines(game: Game, stdin: IO[str], stdout: IO[str], session: Session | None = None) -> None:
    console = Console(file=stdout, highlight=False, soft_wrap=True)
    interactive = stdin.isatty() and stdout.isatty()
    session = session or Session(game)
    console.print(render(game), end="")
    examples = [game.move_text(m) for m in game.legal_moves()[:2]]
    shown = ", ".join(f"'{e}'" for e in examples)
    console.print(f"Type a move (e.g. {shown}), or 'help'." if examples else "Type 'help' for the notation.",
                  style="dim")
    finish_told = False
    while True:
        if interactive:
            try:
                line = input("> ")
            except EOFError:
                console.print()
                return
        else:
            line = stdin.readline()
            if not line:
                return
            console.print(f"> {line.strip()}", style="dim")
        if not line.strip():
            continue
        reply = session.command(line)
        if reply.quit:
            return
        if not reply.ok:
            console.print(f"refused: {reply.error}", style="yellow")
            continue
        if reply.message:
            console.print(reply.message)
            if reply.has_hint or reply.is_help:
                continue
        for record in reply.records:
            if record.turned:
                console.print(f"{record.move}: {record.turned} turned face up", style="dim")
        console.print(render(game), end="")
        if game.won:
            console.print(f"You won! Score {game.score} in {game.moves} moves.", style="bold green")
            return
        if not finish_told and game.finish_ready() is None and game.finish_moves() is not None:
            console.print("Every card is face up: type 'finish' to play them home.", style="green")
            finish_told = True
        elif game.over:
            console.print("No moves are left. Type 'undo' to go back, or 'quit'.", style="yellow")
