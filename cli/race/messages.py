"""The race protocol's messages: versioned JSON objects over a WebSocket (see docs/race.md).

Every message, both ways, is one JSON object in one text frame with ``"v": 1`` and a
``"type"``. This module has no network code: encoding, decoding with clear refusals, links,
and what one player may see of a game.
"""

from __future__ import annotations

import json
import math
from typing import Any
from urllib.parse import parse_qs, urlsplit

from solitaire.core import Game, Rules
from solitaire.core.files import depth_over
from solitaire.core.i18n import _
from solitaire.core.view import Observation

VERSION = 1
MAX_MESSAGE = 4096  # bytes: the largest message a client may send (the server's max_size)
MAX_DEPTH = 4  # objects and arrays nested in a message, the message itself counted
MAX_NUMBER = 20  # characters of one number (a seat, an id, minutes)
SCHEME = "solitaire"

# what a client may send; every other type is refused with "unknown-type"
CLIENT_TYPES = frozenset({
    "hello", "ready", "unready", "start", "move", "state", "offer-draw", "accept-draw",
    "decline-draw", "resign", "again", "settings", "leave",
})
RACES = ("finish", "timed")
MINUTES = (5, 10, 15)


class BadMessage(Exception):
    """A message the server refuses: ``code`` for programs (English, always), the text for
    people, in the language of the connection it answers (made where the server speaks it,
    :func:`solitaire.core.i18n.speaking`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def encode(type_: str, **fields: Any) -> str:
    return json.dumps({"v": VERSION, "type": type_, **fields}, separators=(",", ":"))


def _number(text: str) -> int | float:
    if len(text) > MAX_NUMBER:
        raise ValueError(f"a number of {len(text)} characters (at most {MAX_NUMBER})")
    if not any(c in text for c in ".eE"):
        return int(text)
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is too large")
    return number


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def _lone_surrogate(obj: Any) -> bool:
    """A string in ``obj`` holds half of a UTF-16 pair (``"\\ud800"``): it has no UTF-8."""
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(obj, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in obj.items())
    if isinstance(obj, list):
        return any(_lone_surrogate(v) for v in obj)
    return False


def decode(raw: str | bytes) -> dict[str, Any]:
    """One client message as a dict with a known ``type``; raise :class:`BadMessage`.

    Bounded before it is parsed: at most :data:`MAX_DEPTH` levels of objects and arrays,
    numbers of at most :data:`MAX_NUMBER` characters, no NaN or Infinity, and every string
    valid Unicode (no lone surrogate), so nothing a client sends can exhaust the parser or
    break a comparison or an echo further on."""
    if isinstance(raw, bytes):
        raise BadMessage("bad-json", _("send JSON in text frames, not binary ones"))
    if depth_over(raw, MAX_DEPTH):  # the kernel's scan, as for positions and saves
        raise BadMessage("bad-json", _("objects and arrays nested more than {n} deep").format(n=MAX_DEPTH))
    try:
        obj = json.loads(raw, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except ValueError as exc:
        raise BadMessage("bad-json", _("not valid JSON: {reason}").format(reason=exc)) from None
    if _lone_surrogate(obj):
        raise BadMessage("bad-json", _("a string holds a lone surrogate (half of a {pair} pair)").format(
            pair="\\uD800-\\uDFFF"))
    if not isinstance(obj, dict):
        raise BadMessage("bad-message", _("a message is a JSON object like {example}").format(
            example='{"v": 1, "type": "ready"}'))
    if obj.get("v") != VERSION:
        raise BadMessage("bad-version", _("this server speaks protocol version {v}: send {field}").format(
            v=VERSION, field=f'"v": {VERSION}'))
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 30 else "?"
        raise BadMessage("unknown-type", _("unknown message type {type}; expected one of {types}").format(
            type=repr(shown), types=", ".join(sorted(CLIENT_TYPES))))
    return obj


def make_link(host: str, port: int, table: str, token: str, tls: bool = False) -> str:
    """The table's link; ``tls`` adds ``&tls=1`` (the client then connects with ``wss://``)."""
    if ":" in host and not host.startswith("["):  # an IPv6 address
        host = f"[{host}]"
    return f"{SCHEME}://{host}:{port}/{table}?token={token}" + ("&tls=1" if tls else "")


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


def link_tls(link: str) -> bool:
    """Whether the table's link asks for TLS (``&tls=1``: connect with ``wss://``)."""
    return parse_qs(urlsplit(link.strip()).query).get("tls", ["0"])[0] == "1"


# ---------------------------------------------------------------------- what a player may see

def public_position(game: Game) -> dict[str, Any]:
    """The player's own position: face-down cards as "??", and never the seed."""
    position = Observation.of(game).to_position()
    del position["seed"]
    return position


def revealed_position(game: Game) -> dict[str, Any]:
    """Every card (for the end of a race), still without the seed."""
    position = game.to_position(hidden=False)
    del position["seed"]
    return position


def progress(game: Game) -> dict[str, int]:
    """A player's progress, counted as the game's ``win:`` counts it (not from one game's piles):
    ``home`` cards on the foundations, ``left`` cards still in the piles the win clears (0 for a
    game won by cards home), ``hidden`` face-down cards outside the stock, ``moves``."""
    rules = game.rules
    piles, down = game.piles, game.down
    return {"home": sum(len(piles[f]) for f in rules.foundations),
            "left": sum(len(piles[p]) for p in rules.win_cleared),
            "hidden": sum(down[p] for p in range(rules.count) if p != rules.stock),
            "moves": game.moves}


def goal(rules: Rules) -> dict[str, Any]:
    """What wins the game, for the players' panels: ``home`` cards home (0: none counted),
    ``clear`` the piles to empty (their names), ``hides`` whether cards are dealt face down
    outside the stock (else the panels leave the face-down count out)."""
    return {"home": rules.win_home, "clear": [rules.names[p] for p in rules.win_cleared],
            "hides": any(p != rules.stock for p in rules.may_hide)}


def standing(game: Game) -> tuple[int, ...]:
    """What a timed race compares when time is up, the best highest: cards home when the
    game's win counts them, then fewer cards left in the piles it clears, then fewer cards
    face down (turned up is nearer a win in every game that hides cards)."""
    rules = game.rules
    counts = progress(game)
    counts_home = rules.win_home > 0 or not rules.win_cleared
    return (counts["home"] if counts_home else 0, -counts["left"], -counts["hidden"])


def own_state(game: Game) -> dict[str, Any]:
    """The fields of the ``play --json`` reply (position, score, moves, won, over)."""
    return {"position": public_position(game), "score": game.score, "moves": game.moves,
            "won": game.won, "over": game.over}
