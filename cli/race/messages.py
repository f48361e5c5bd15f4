"""The race protocol's messages: versioned JSON objects over a WebSocket (see docs/race.md).

Every message, both ways, is one JSON object in one text frame with ``"v": 1`` and a
``"type"``. This module has no network code: encoding, decoding with clear refusals, links,
and what one player may see of a game.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

from solitaire.core import Game

VERSION = 1
MAX_MESSAGE = 4096  # bytes: the largest message a client may send (the server's max_size)
SCHEME = "solitaire"

# what a client may send; every other type is refused with "unknown-type"
CLIENT_TYPES = frozenset({
    "hello", "ready", "unready", "start", "move", "state", "offer-draw", "accept-draw",
    "decline-draw", "resign", "again", "settings",
})
RACES = ("finish", "timed")
MINUTES = (5, 10, 15)


class BadMessage(Exception):
    """A message the server refuses: ``code`` for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def encode(type_: str, **fields: Any) -> str:
    return json.dumps({"v": VERSION, "type": type_, **fields}, separators=(",", ":"))


def decode(raw: str | bytes) -> dict[str, Any]:
    """One client message as a dict with a known ``type``; raise :class:`BadMessage`."""
    if isinstance(raw, bytes):
        raise BadMessage("bad-json", "send JSON in text frames, not binary ones")
    try:
        obj = json.loads(raw)
    except ValueError as exc:
        raise BadMessage("bad-json", f"not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise BadMessage("bad-message", 'a message is a JSON object like {"v": 1, "type": "ready"}')
    if obj.get("v") != VERSION:
        raise BadMessage("bad-version", f"this server speaks protocol version {VERSION}: send \"v\": {VERSION}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 30 else "?"
        raise BadMessage("unknown-type", f"unknown message type {shown!r}; "
                         f"expected one of {', '.join(sorted(CLIENT_TYPES))}")
    return obj


def make_link(host: str, port: int, table: str, token: str) -> str:
    return f"{SCHEME}://{host}:{port}/{table}?token={token}"


def parse_link(link: str) -> tuple[str, int, str, str]:
    """``(host, port, table, token)`` from a table's link; raise ValueError with the reason."""
    parts = urlsplit(link.strip())
    if parts.scheme != SCHEME:
        raise ValueError(f"a table's link starts with {SCHEME}://, got {link[:40]!r}")
    try:
        port = parts.port
    except ValueError:
        port = None
    if not parts.hostname or port is None:
        raise ValueError("the link needs a host and a port, e.g. solitaire://127.0.0.1:8765/TABLE?token=...")
    table = parts.path.strip("/")
    token = parse_qs(parts.query).get("token", [""])[0]
    if not table or not token:
        raise ValueError("the link needs a table and a token, e.g. solitaire://127.0.0.1:8765/TABLE?token=...")
    return parts.hostname, port, table, token


# ---------------------------------------------------------------------- what a player may see

def public_position(game: Game) -> dict[str, Any]:
    """The player's own position: face-down cards as "??", and never the seed."""
    position = game.to_position(hidden=True)
    del position["seed"]
    return position


def revealed_position(game: Game) -> dict[str, Any]:
    """Every card (for the end of a race), still without the seed."""
    position = game.to_position(hidden=False)
    del position["seed"]
    return position


def foundation_cards(game: Game) -> int:
    return sum(len(game.piles[f]) for f in game.rules.foundations)


def face_up_tableau(game: Game) -> int:
    return sum(len(p) - d for p, d, role in zip(game.piles, game.down, game.rules.role) if role == "tableau")


def own_state(game: Game) -> dict[str, Any]:
    """The fields of the ``play --json`` reply (position, score, moves, won, over)."""
    return {"position": public_position(game), "score": game.score, "moves": game.moves,
            "won": game.won, "over": game.over}
