"""One player's commands against one game: shared by the line mode and the JSON protocol."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import attrs

from solitaire.core import Game, Move, MoveRecord, SolitaireError
from solitaire.core.i18n import N_, _
from solitaire.core.view import Observation


def help_text(game: Game) -> str:
    """The commands, with moves written in this game's own pile names."""
    rules = game.rules
    shown = ", ".join(f"'{m}'" for m in game.move_examples())
    groups = [g.prefix for g in rules.spec.groups if g.prefix and len(g.piles) > 1]
    margin, pad = " " * 8, " " * 22  # the columns: the heading, then the command, then what it does
    example = _("e.g. {moves}").format(moves=shown) if shown else _("a pile to take from, one to put on")
    lines = [_("Moves:").ljust(8) + "SRC DST [N]   " + example,
             pad + _("N: how many cards, when it is not clear"),
             margin + _("piles:").ljust(14) + game.pile_list()]
    if groups:
        lines.append(pad + _("a group's name ('{group}') means any of it that takes the card").format(group=groups[0]))
    if rules.pair_home is not None:
        lines.append("        " + _("a pair:       its two piles, in either order; one pile alone: its card to "
                                    "{pile}").format(pile=rules.names[rules.pair_home]))
    if rules.draw_move is not None:
        again = rules.redeals != 0 and len(rules.draw_targets) == 1  # only a waste turns back
        lines.append(margin + _("draw (or s)").ljust(14) + (_("turn cards from the stock (empty: turn the waste back)")
                                                            if again else _("turn cards from the stock")))
    lines.append(_("Other:").ljust(8) + _("undo, redo, hint, finish (play every card home), help, quit (or q)"))
    return "\n".join(lines)


WON_IS_FINAL = N_("the game is won, and a win is final: 'quit', then play a new deal")


class Listener(Protocol):
    """What a session tells of each accepted change (``saves.Tracker`` is one)."""

    def changed(self) -> None: ...


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
    undone: bool = False  # a move was taken back (it has no record)
    won_final: bool = False  # refused because the game is won: a front end may say it its own way


class Session:
    """The command layer every front end goes through (the line mode, the JSON protocol, the
    table, the race server): a win is final, undo and redo, finish, and the moves, each
    answered with a :class:`Reply` holding the kernel's move records (:class:`MoveRecord`). ``listener``
    (the save's tracker) is told of every accepted change. ``no_undo``/``no_hints``: the reason
    given when undo and redo, or hints, are not allowed here (a race), else ``None``.
    ``autoplay``: after each move and draw, send home the cards that are safe to send
    (:func:`solitaire.core.solver.safe_home_move`), their records after the move's."""

    def __init__(self, game: Game, tracker: Listener | None = None, *,
                 no_undo: str | None = None, no_hints: str | None = None, autoplay: bool = False) -> None:
        self.game = game
        self.tracker = tracker
        self.no_undo = no_undo
        self.no_hints = no_hints
        self.autoplay = autoplay

    # -- the commands
    def move(self, move: Move | str, autoplay: bool = True) -> Reply:
        """Play one move (a tuple, or notation such as ``t7 f`` or ``draw``), then the safe
        moves home if autoplay is on (``autoplay=False``: not after this one)."""
        def play() -> Reply:
            records = [self.game.play(move)]
            if self.autoplay and autoplay:
                records += self._safe_home()
            return Reply(ok=True, records=records)

        return self._do(play)

    def safe_home(self) -> Reply:
        """Send home now every card that is safe to send (what autoplay does after a move)."""
        return self._do(lambda: Reply(ok=True, records=self._safe_home()))

    def _safe_home(self) -> list[MoveRecord]:
        from solitaire.core.solver import safe_home_move  # the solver's rule, from the rules' tables

        records = []
        game = self.game
        while not game.won:
            move = safe_home_move(game)
            if move is None:
                break
            records.append(game.play(move))
        return records

    def draw(self) -> Reply:
        """The stock's action: draw, or turn the waste back."""
        move = self.game.rules.draw_move
        if move is None:
            return Reply(ok=False, error=_("this game has no stock to draw from"))
        return self.move(move)

    def undo(self) -> Reply:
        if self.no_undo is not None:
            return Reply(ok=False, error=self.no_undo)
        return self._do(lambda: (self.game.undo(), Reply(ok=True, undone=True))[1])

    def redo(self) -> Reply:
        if self.no_undo is not None:
            return Reply(ok=False, error=self.no_undo)
        return self._do(lambda: Reply(ok=True, records=[self.game.redo()]))

    def finish(self) -> Reply:
        """Play every card home at once (:meth:`Game.finish`)."""
        return self._do(lambda: Reply(ok=True, records=self.game.finish()))

    def finish_plan(self) -> list[Move] | Reply:
        """The moves that play every card home, for a front end that shows them one by one
        (each then played with :meth:`move`), or the refusal."""
        game = self.game
        if game.won:
            return Reply(ok=False, error=_(WON_IS_FINAL), won_final=True)
        reason = game.finish_ready()
        moves = game.finish_moves() if reason is None else None
        if moves is None:
            return Reply(ok=False, error=reason or _("the cards cannot all be played straight home from here"))
        return moves

    def hint(self, stop: Callable[[], bool] | None = None) -> Reply:
        """The solver's hint: it solves guesses of the hidden cards, never the real ones.
        ``stop`` (asked now and then) gives up early; it may run on a copy in a thread."""
        if self.no_hints is not None:
            return Reply(ok=False, error=self.no_hints)
        from solitaire.core.solver import player_hint

        text, _moves = player_hint(self.game, stop=stop)
        return Reply(ok=True, hint=text, has_hint=True,
                     message=_("hint: {move}").format(move=text) if text else _("hint: no useful move"))

    def _do(self, change: Callable[[], Reply]) -> Reply:
        """Make an accepted change, or give the reason it is refused; a win is final (it has
        been recorded: undoing it would unsay that)."""
        if self.game.won:
            return Reply(ok=False, error=_(WON_IS_FINAL), won_final=True)
        try:
            reply = change()
        except SolitaireError as exc:
            return Reply(ok=False, error=str(exc))
        if self.tracker is not None and (reply.records or reply.undone):
            self.tracker.changed()
        return reply

    # -- commands as typed
    def command(self, line: str) -> Reply:
        """A line as the line mode and the JSON protocol read it: a game command (:meth:`act`),
        ``help`` or ``quit``."""
        word = " ".join(line.strip().split()).lower()
        if word in ("quit", "q"):
            return Reply(ok=True, quit=True)
        if word in ("help", "?"):
            return Reply(ok=True, message=help_text(self.game), is_help=True)
        if word.split(" ", 1)[0] in ("quit", "help"):
            return Reply(ok=False, error=_("'{word}' takes no arguments").format(word=word.split(" ", 1)[0]))
        return self.act(line)

    def act(self, line: str) -> Reply:
        """A game command in words: a move in notation, ``draw``, ``undo``, ``redo``,
        ``finish`` or ``hint`` (what the race server takes)."""
        text = " ".join(line.strip().split())
        word = text.lower()
        if word == "hint":
            return self.hint()
        actions: dict[str, Callable[[], Reply]] = {"undo": self.undo, "redo": self.redo, "finish": self.finish}
        if word in actions:
            return actions[word]()
        first = word.split(" ", 1)[0]
        if first in ("undo", "redo", "hint", "finish"):
            return Reply(ok=False, error=_("'{word}' takes no arguments").format(word=first))
        return self.move(text)

    def state(self, reply: Reply | None = None) -> dict[str, Any]:
        """The JSON protocol's reply object (face-down cards hidden)."""
        game = self.game
        out: dict[str, Any] = {
            "ok": True if reply is None else reply.ok,
            "error": None if reply is None else reply.error,
            "position": Observation.of(game).to_position(),  # what the player sees
            "score": game.score,
            "moves": game.moves,
            "won": game.won,
            "over": game.over,  # no legal move is left (won or lost)
        }
        if reply is not None and reply.has_hint:
            out["hint"] = reply.hint
        return out
