"""One player's commands against one game: shared by the line mode and the JSON protocol."""

from __future__ import annotations

from typing import Any

import attrs

from solitaire.core import Game, MoveRecord, SolitaireError


def help_text(game: Game) -> str:
    """The commands, with moves written in this game's own pile names."""
    rules = game.rules
    shown = ", ".join(f"'{m}'" for m in game.move_examples())
    groups = [g.prefix for g in rules.spec.groups if g.prefix and len(g.piles) > 1]
    lines = [f"Moves:  SRC DST [N]   {f'e.g. {shown}' if shown else 'a pile to take from, one to put on'}",
             "                      N: how many cards, when it is not clear",
             f"        piles:        {game.pile_list()}"]
    if groups:
        lines.append(f"                      a group's name ('{groups[0]}') means any of it that takes the card")
    if rules.draw_move is not None:
        again = rules.redeals != 0 and len(rules.draw_targets) == 1  # only a waste turns back
        lines.append(f"        draw (or s)   turn cards from the stock{' (empty: turn the waste back)' if again else ''}")
    lines.append("Other:  undo, redo, hint, finish (play every card home), help, quit (or q)")
    return "\n".join(lines)


@attrs.define
class Reply:
    """The outcome of one command."""

    ok: bool
    error: str | None = None
    records: list[MoveRecord] = attrs.field(factory=list)
    hint: str | None = None
    has_hint: bool = False
    quit: bool = False
    message: str | None = None
    is_help: bool = False


class Session:
    def __init__(self, game: Game, tracker: Any = None) -> None:
        self.game = game
        self.tracker = tracker  # saves.Tracker: told after every accepted change

    def command(self, line: str) -> Reply:
        reply = self._command(line)
        if reply.ok and self.tracker is not None and (reply.records or self._undone):
            self.tracker.changed()
        return reply

    def _command(self, line: str) -> Reply:
        self._undone = False
        text = " ".join(line.strip().split())
        word = text.lower()
        game = self.game
        try:
            if word in ("quit", "q"):
                return Reply(ok=True, quit=True)
            if word in ("help", "?"):
                return Reply(ok=True, message=help_text(game), is_help=True)
            if game.won and word != "hint":  # the win is recorded: undoing it would unsay that
                return Reply(ok=False, error="the game is won, and a win is final: 'quit', then play a new deal")
            if word == "undo":
                game.undo()
                self._undone = True
                return Reply(ok=True)
            if word == "redo":
                return Reply(ok=True, records=[game.redo()])
            if word == "hint":
                # the solver's hint: it solves guesses of the hidden cards, never the real ones
                from solitaire.core.solver import player_hint

                text, _ = player_hint(game)
                return Reply(ok=True, hint=text, has_hint=True,
                             message=f"hint: {text}" if text else "hint: no useful move")
            if word == "finish":
                return Reply(ok=True, records=game.finish())
            first = word.split(" ", 1)[0]
            if first in ("undo", "redo", "hint", "finish", "quit", "help"):
                return Reply(ok=False, error=f"'{first}' takes no arguments")
            return Reply(ok=True, records=[game.play(text)])
        except SolitaireError as exc:
            return Reply(ok=False, error=str(exc))

    def state(self, reply: Reply | None = None) -> dict[str, Any]:
        """The JSON protocol's reply object (face-down cards hidden)."""
        game = self.game
        out: dict[str, Any] = {
            "ok": True if reply is None else reply.ok,
            "error": None if reply is None else reply.error,
            "position": game.to_position(hidden=True),
            "score": game.score,
            "moves": game.moves,
            "won": game.won,
            "over": game.over,  # no legal move is left (won or lost)
        }
        if reply is not None and reply.has_hint:
            out["hint"] = reply.hint
        return out
