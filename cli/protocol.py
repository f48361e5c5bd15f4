"""The ``--json`` machine protocol: one command a line in, one JSON object a line out.

The first line out is the starting state; then one reply per non-blank command line:
``{"ok": bool, "error": str|null, "position": {...}, "score": int, "moves": int, "won": bool, "over": bool}``,
plus ``"hint"`` for ``hint``. Face-down cards show as ``"??"``. ``quit`` or the end of input
ends the process with status 0.
"""

from __future__ import annotations

import json
from typing import IO

from solitaire.core import Game

from .session import Session

MAX_LINE = 10_000  # characters; longer lines are refused, not parsed


def run_json(game: Game, stdin: IO[str], stdout: IO[str], session: Session | None = None) -> None:
    session = session or Session(game)

    def send(obj: dict) -> None:
        stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        stdout.flush()

    send(session.state())
    for line in stdin:
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            reply = session.state()
            reply.update(ok=False, error=f"command too long ({len(line)} characters; at most {MAX_LINE})")
            send(reply)
            continue
        result = session.command(line)
        send(session.state(result))
        if result.quit:
            return
