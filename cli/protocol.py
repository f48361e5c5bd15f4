"""The ``--json`` machine protocol: one command a line in, one JSON object a line out.

The first line out is the starting state; then one reply per non-blank command line:
``{"ok": bool, "error": str|null, "position": {...}, "score": int, "moves": int, "won": bool, "over": bool}``,
plus ``"hint"`` for ``hint``; the starting state of a new deal the solver did not win carries
``"unchecked": true``. Face-down cards show as ``"??"``. ``quit`` or the end of input
ends the process with status 0. Lines are read by :func:`.lines.read_lines`: a line too long
or not valid text is refused like a bad command, and changes nothing.
"""

from __future__ import annotations

import json
from typing import IO, Any

from solitaire.core import Game

from .lines import Line, Output, read_lines
from .session import Session


def answer(session: Session, line: Line) -> tuple[dict[str, Any] | None, bool]:
    """The reply to one line (``None`` for a blank line), and whether the session ends."""
    if line.refusal is not None:
        reply = session.state()
        reply.update(ok=False, error=line.refusal)
        return reply, False
    if not line.text.strip():
        return None, False
    result = session.command(line.text)
    return session.state(result), result.quit


def run_json(game: Game, stdin: IO[str], stdout: IO[str], session: Session | None = None,
             unchecked: bool = False) -> None:
    """Speak the protocol; ``unchecked``: the game is a new deal nobody knows to be winnable
    (neither a shipped pool nor the live search won it), said in the first line."""
    session = session or Session(game)
    out = Output(stdout)

    def send(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        out.flush()

    first = session.state()
    if unchecked:
        first["unchecked"] = True
    send(first)
    for line in read_lines(stdin):
        reply, done = answer(session, line)
        if reply is not None:
            send(reply)
        if done:
            return
