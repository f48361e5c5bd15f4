"""The authoritative race server: it deals, holds every player's game, checks every move with
the kernel and sends each connection only what its player may see.

One :class:`RaceServer` (a websockets server on 127.0.0.1) holds any number of
:class:`Table` objects; ``solitaire race host`` runs one server with one table in the same
process as the host's own client. The protocol is in docs/race.md.

Hostile input never reaches the tables: frames over ``max_size`` are closed by websockets
(1009), every message is decoded and refused with a clear ``error`` when malformed, each
connection has a token bucket (a flood is told ``flood`` and disconnected) and its own
bounded send queue and sender task, so a client that never reads is cut off (``slow``)
without ever holding up a broadcast to the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import secrets
import ssl as ssl_module
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

import attrs
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from solitaire.core import Game, Rules, SolitaireError, get_variant
from solitaire.core.i18n import N_, _, ngettext, shipped, speaking

from ..session import Session
from .messages import (
    MAX_MESSAGE,
    MINUTES,
    RACES,
    BadMessage,
    decode,
    encode,
    goal,
    make_link,
    own_state,
    progress,
    revealed_position,
    standing,
)

MAX_SEATS = 4
NAME_LENGTH = 24
PING_EVERY = 16  # messages written between two pings


@attrs.define
class Settings:
    """What is played at a table: the variant, its options, the kind of race and its length."""

    variant: str = "klondike"
    options: dict[str, Any] = attrs.field(factory=dict)
    race: str = "finish"
    seconds: int | None = None  # timed races only

    def as_json(self) -> dict[str, Any]:
        minutes = self.seconds / 60 if self.seconds is not None else None
        if minutes is not None and minutes == int(minutes):
            minutes = int(minutes)
        return {"variant": self.variant, "options": dict(self.options), "race": self.race,
                "minutes": minutes, "seconds": self.seconds}

    @classmethod
    def parse(cls, data: dict[str, Any], allow_seconds: bool = False) -> Settings:
        """Settings from a ``settings`` message or the command line; raise BadMessage."""
        variant = data.get("variant", "klondike")
        if not isinstance(variant, str):
            raise BadMessage("bad-settings", _("variant must be a name, e.g. {example}").format(example='"klondike"'))
        try:
            defn = get_variant(variant)
        except SolitaireError as exc:
            raise BadMessage("bad-settings", str(exc)) from None
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise BadMessage("bad-settings", _("options must be an object, e.g. {example}").format(
                example='{"draw": 3}'))
        try:
            for name in options:
                if not any(o.name == name for o in defn.options):
                    raise BadMessage("bad-settings", defn.unknown_option_message(str(name)))
            parsed = {name: defn.option(name).parse(value) for name, value in options.items()}
            defn.resolve_options(parsed)
        except SolitaireError as exc:
            raise BadMessage("bad-settings", str(exc)) from None
        race = data.get("race", "finish")
        if race not in RACES:
            raise BadMessage("bad-settings", _("race must be one of {races}, got {given}").format(
                races=", ".join(RACES), given=repr(str(race)[:20])))
        minutes, seconds = data.get("minutes"), data.get("seconds")
        if race == "finish":
            if minutes is not None or seconds is not None:
                raise BadMessage("bad-settings", _("minutes are for a timed race (race {timed})").format(
                    timed='"timed"'))
            return cls(defn.name, parsed, race, None)
        if seconds is not None:
            if not allow_seconds:
                raise BadMessage("bad-settings", _("minutes must be one of {minutes}").format(
                    minutes=", ".join(map(str, MINUTES))))
            if not isinstance(seconds, int) or isinstance(seconds, bool) or not 1 <= seconds <= 3600:
                raise BadMessage("bad-settings", _("seconds must be a whole number from 1 to 3600"))
            return cls(defn.name, parsed, race, seconds)
        minutes = 5 if minutes is None else minutes
        if minutes not in MINUTES or isinstance(minutes, bool):
            raise BadMessage("bad-settings", _("minutes must be one of {minutes}").format(
                    minutes=", ".join(map(str, MINUTES))))
        return cls(defn.name, parsed, race, int(minutes) * 60)


def close_reason(text: str) -> str:
    """``text`` cut to what a WebSocket close frame holds (123 bytes of UTF-8; 120 here)."""
    return text.encode("utf-8")[:120].decode("utf-8", "ignore")


def clean_name(name: Any) -> str:
    if not isinstance(name, str) or not "".join(name.split()):
        return "player"
    return " ".join("".join(ch for ch in name if ch.isprintable()).split())[:NAME_LENGTH] or "player"


class Connection:
    """One WebSocket: a token bucket for what comes in, a bounded queue for what goes out.

    Everything sent goes through :meth:`send`, which never waits: the message joins the
    connection's queue, and its own sender task writes it. Every 16 messages the sender pings;
    a pong means the client has read everything sent before that ping. A client more than
    ``max_behind`` messages behind (queued, or written and not yet confirmed by a pong) is
    cut off (``slow``), whether the bytes sit in our queue or in the kernel's buffers."""

    def __init__(self, server: RaceServer, ws: ServerConnection) -> None:
        self.server = server
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.tokens = float(server.burst)
        self.opened = self.stamp = server.clock()
        self.address: str = ws.remote_address[0] if ws.remote_address else "?"
        self.hello = False  # said hello and was welcomed
        self.player: Player | None = None
        self.table: Table | None = None
        self.closed_reason: str | None = None
        self.leaving = False  # said "leave" (quit on purpose) before closing
        self.name = "player"  # from the hello; seats a spectator when the lobby opens again
        self.lang = "en"  # the hello's language (a shipped one): the reasons sent are in it
        self.queued = 0  # messages given to send()
        self.written = 0  # messages written to the socket
        self.confirmed = 0  # messages the client has read: all written before its last pong
        self._pinged = 0  # self.written at the last ping
        self.sender = asyncio.get_running_loop().create_task(self._send_loop())

    def allow(self) -> bool:
        """Take a token for one incoming message; False when the client floods."""
        now = self.server.clock()
        self.tokens = min(float(self.server.burst), self.tokens + (now - self.stamp) * self.server.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def closing(self) -> bool:
        """Whether this connection is being closed: ``closed_reason`` is set, by any task at
        any await (a method, so that a check before an await says nothing of one after it)."""
        return self.closed_reason is not None

    @property
    def behind(self) -> int:
        """Messages sent to this client that it has not been seen to read."""
        return self.queued - self.confirmed

    def send(self, type_: str, **fields: Any) -> None:
        """Queue a message; never waits. Too far behind means the client is not reading: cut it off."""
        if self.closed_reason is None:
            self.send_text(encode(type_, **fields))

    def send_text(self, text: str) -> None:
        """Queue an encoded message (a broadcast encodes once for everyone)."""
        if self.closed_reason is not None:
            return
        if self.behind >= self.server.max_behind:
            most = self.server.max_behind
            self.kill("slow", lambda: ngettext(
                "more than {n} message unread", "more than {n} messages unread", most).format(n=most))
            return
        self.queued += 1
        self.queue.put_nowait(text)

    def kill(self, reason: str, why: str | Callable[[], str] = "", **params: Any) -> None:
        """Drop the connection now, telling the client why in the close frame when it can:
        ``reason`` (a code), and ``why`` (an English text marked with N_, formatted with
        ``params``) in the client's language."""
        if self.closed_reason is not None:
            return
        self.closed_reason = reason
        self.server.kills[reason] += 1
        self.sender.cancel()
        if self.player is not None:
            self.player.cut_off = (reason, why, params)
        if self.table is not None:  # gone from the table at once; the socket closes meanwhile
            self.table.disconnect(self)
        with speaking(self.lang):
            text = f"{reason}: {why() if callable(why) else _(why).format(**params)}" if why else reason
        self.server.spawn(self._close(1008, close_reason(text)))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(TimeoutError, ConnectionClosed, OSError):
            await asyncio.wait_for(self.ws.close(code, reason), self.server.close_timeout)
        transport = getattr(self.ws, "transport", None)
        if transport is not None and not transport.is_closing():
            transport.abort()

    async def _ping(self) -> None:
        self._pinged = self.written
        try:
            pong = await asyncio.wait_for(self.ws.ping(), self.server.send_timeout)
        except TimeoutError:
            self.kill("slow", N_("a send blocked for {seconds} s"), seconds=f"{self.server.send_timeout:g}")
            return
        written = self.written

        def ponged(future: asyncio.Future[float]) -> None:
            if not future.cancelled() and future.exception() is None:
                self.confirmed = max(self.confirmed, written)

        asyncio.ensure_future(pong).add_done_callback(ponged)

    async def _send_loop(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    return
                try:
                    await asyncio.wait_for(self.ws.send(text), self.server.send_timeout)
                except TimeoutError:
                    self.kill("slow", N_("a send blocked for {seconds} s"), seconds=f"{self.server.send_timeout:g}")
                    return
                self.written += 1
                if self.written - self._pinged >= PING_EVERY:
                    await self._ping()
        except ConnectionClosed:
            return

    async def flush_and_close(self, code: int, reason: str) -> None:
        """Send what is queued (briefly), then close with ``code``."""
        self.queue.put_nowait(None)
        if not self.sender.done():
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                await asyncio.wait_for(asyncio.shield(self.sender), self.server.close_timeout)
        if self.closed_reason is None:
            self.closed_reason = reason
        await self._close(code, reason)

    async def alive(self) -> bool:
        """Whether the client answers a ping within ``probe_timeout`` (a half-open connection does not)."""
        if self.closed_reason is not None:
            return False
        try:
            pong = await asyncio.wait_for(self.ws.ping(), self.server.probe_timeout)
            await asyncio.wait_for(pong, self.server.probe_timeout)
        except (TimeoutError, ConnectionClosed, OSError):
            return False
        return True

    def stop(self) -> None:
        self.sender.cancel()


@attrs.define(eq=False)
class Player:
    id: int
    name: str
    token: str  # the seat token: resumes this seat after a lost connection
    host: bool = False
    ready: bool = False
    conn: Connection | None = None
    game: Game | None = None
    status: str = "waiting"  # waiting, racing, won, lost, drawn, resigned
    gone: bool = False  # the reconnection window ran out
    cut_off: tuple[str, str | Callable[[], str], dict[str, Any]] | None = None  # why the server last cut
    # this seat's connection off: the code, the English text (N_, or a function saying it) and its fields

    def cut_off_text(self) -> str:
        """Why the server last cut this seat's connection off, in the language spoken here."""
        if self.cut_off is None:
            return ""
        reason, why, params = self.cut_off
        return f"{reason}: {why() if callable(why) else _(why).format(**params)}" if why else reason
    timer: asyncio.TimerHandle | None = None

    def progress(self) -> dict[str, Any]:
        return progress(self.game) if self.game is not None else {"home": 0, "left": 0, "hidden": 0, "moves": 0}


class Table:
    def __init__(self, server: RaceServer, table_id: str, settings: Settings) -> None:
        self.server = server
        self.id = table_id
        self.token = secrets.token_urlsafe(24)  # in the link: lets anyone with the link join
        self.host_key = secrets.token_urlsafe(24)  # only the host's own client has it
        self.settings = settings
        self.state = "lobby"  # lobby, racing, ended
        self.players: list[Player] = []
        self.spectators: list[Connection] = []
        self.score: dict[int, dict[str, Any]] = {}
        self.race_no = 0
        self.offer: set[int] | None = None  # ids of the players who accept the draw offered
        self.deadline: float | None = None  # time.monotonic() when a timed race ends
        self.clock: asyncio.TimerHandle | None = None
        self.seed: int | None = None  # held here only; never sent
        self.unchecked = False  # the deal is not proved won (the solver ran out of time)
        self.result: dict[str, Any] | None = None
        self.end_message: dict[str, Any] | None = None  # the last race's end, for one who comes back
        self._ids = itertools.count(1)

    # ------------------------------------------------------------------ views

    def seat(self, player: Player) -> int:
        return self.players.index(player)

    def connections(self) -> list[Connection]:
        out = [p.conn for p in self.players if p.conn is not None]
        return out + self.spectators

    def broadcast(self, type_: str, **fields: Any) -> None:
        text = encode(type_, **fields)
        for conn in self.connections():
            conn.send_text(text)

    def score_list(self) -> list[dict[str, Any]]:
        return [{"id": pid, **s, "points": s["wins"] + s["draws"] / 2} for pid, s in self.score.items()]

    def view(self) -> dict[str, Any]:
        players = []
        for i, p in enumerate(self.players):
            entry = {"seat": i, "id": p.id, "name": p.name, "host": p.host, "ready": p.ready,
                     "connected": p.conn is not None, "status": p.status}
            if self.state != "lobby":
                entry.update(p.progress())
            players.append(entry)
        rules = Rules.of(get_variant(self.settings.variant), self.settings.options)
        out = {"table": self.id, "state": self.state, "race": self.race_no, "settings": self.settings.as_json(),
               "win": goal(rules), "players": players, "spectators": len(self.spectators),
               "score": self.score_list()}
        if self.state != "lobby" and self.unchecked:
            out["unchecked"] = True  # as `play --json` says of a deal nobody knows to be winnable
        if self.state == "racing" and self.deadline is not None:
            out["seconds_left"] = round(max(0.0, self.deadline - time.monotonic()), 1)
        return out

    def announce(self) -> None:
        self.broadcast("table", **self.view())

    # ------------------------------------------------------------------ joining

    def find_seat(self, seat_token: str) -> Player:
        """The seat this seat token holds; raise BadMessage (``bad-seat-token``)."""
        given = seat_token.encode()
        found = None
        for p in self.players:  # every seat compared, in constant time each
            if hmac.compare_digest(p.token.encode(), given) and not p.gone:
                found = p
        if found is None:
            raise BadMessage("bad-seat-token", _("no seat at this table has that seat token (it is used up "
                                                 "once the seat is taken back, and its 60 s may be over)"))
        return found

    def join(self, conn: Connection, hello: dict[str, Any], resume: Player | None = None) -> None:
        name = conn.name
        conn.hello = True
        if resume is not None:
            self._resume(conn, resume)
            return
        host = isinstance(hello.get("host_key"), str) and hmac.compare_digest(
            hello["host_key"].encode(), self.host_key.encode())
        if host and any(p.host for p in self.players):
            raise BadMessage("bad-token", _("the host is already seated; use the seat token to come back"))
        conn.table = self
        if self.state == "lobby" and len(self.players) < MAX_SEATS:
            self._seat(conn, name, host)
        else:
            self.spectators.append(conn)
            conn.send("welcome", role="spectator", seat=None, seat_token=None, host=False, **self.view())
        self.announce()

    def _seat(self, conn: Connection, name: str, host: bool) -> Player:
        player = Player(next(self._ids), name, secrets.token_urlsafe(24), host=host, conn=conn)
        self.players.insert(0, player) if host else self.players.append(player)
        self.score.setdefault(player.id, {"name": name, "wins": 0, "draws": 0, "losses": 0})
        conn.player = player
        conn.table = self
        conn.send("welcome", role="player", seat=self.seat(player), seat_token=player.token, host=host,
                  **self.view())
        return player

    def _resume(self, conn: Connection, player: Player) -> None:
        old = player.conn
        if old is not None:  # a half-open old connection: the new one wins
            old.player = None
            old.kill("replaced")
        if player.timer is not None:
            player.timer.cancel()
            player.timer = None
        player.token = secrets.token_urlsafe(24)  # a seat token takes the seat back once: a copy is stale
        player.conn = conn
        conn.player = player
        conn.table = self
        fields = self.view()
        if player.game is not None:
            fields["own"] = own_state(player.game)
        conn.send("welcome", role="player", seat=self.seat(player), seat_token=player.token, host=player.host,
                  resumed=True, **fields)
        if self.state == "ended" and self.end_message is not None:  # it ended while this player was away
            conn.send("end", **self.end_message)
        self.broadcast("reconnected", seat=self.seat(player), name=player.name)
        self.announce()

    def disconnect(self, conn: Connection) -> None:
        if conn in self.spectators:
            self.spectators.remove(conn)
            self.announce()
            return
        player = conn.player
        if player is None or player.conn is not conn:
            return
        player.conn = None
        window = self.server.reconnect_window
        player.timer = asyncio.get_running_loop().call_later(window, self._gone, player)
        fields: dict[str, Any] = {"reason": "left"} if conn.leaving else {}
        self.broadcast("disconnected", seat=self.seat(player), name=player.name, seconds=window, **fields)
        self.announce()

    def _gone(self, player: Player) -> None:
        """The reconnection window ran out: in a race that is resigning; else the seat is freed."""
        player.timer = None
        if player.conn is not None or player not in self.players:
            return
        player.gone = True
        if self.state == "racing" and player.status == "racing":
            self._resign(player, "left")
        if self.state != "racing" and player in self.players:
            self.players.remove(player)
            self.announce()

    # ------------------------------------------------------------------ commands

    def handle(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        rid = msg.get("id")
        extra = {"id": rid} if isinstance(rid, (int, str)) and not isinstance(rid, bool) else {}

        def refuse(code: str, text: str) -> None:
            conn.send("error", re=kind, code=code, error=text, **extra)

        def ack(**fields: Any) -> None:
            conn.send("ack", re=kind, ok=True, error=None, **extra, **fields)

        if kind == "hello":
            return refuse("already-joined", _("this connection has already said hello"))
        player = conn.player
        if kind == "state":
            fields = self.view()
            if player is not None and player.game is not None:
                fields["own"] = own_state(player.game)
            return ack(**fields)
        if kind == "leave":  # about to close on purpose: the others are told "left", not "lost"
            conn.leaving = True
            return ack()
        if player is None:
            return refuse("spectator", _("spectators watch: they cannot {command}").format(
                command=kind.replace("-", " ")))
        seat = msg.get("seat")
        if seat is not None and seat != self.seat(player):
            return refuse("not-your-seat", _("you sit at seat {seat}: you cannot act for seat {other}").format(
                seat=self.seat(player), other=repr(seat)))
        handler = getattr(self, "_cmd_" + kind.replace("-", "_"))
        error = handler(player, msg, conn, extra)
        if error is not None:
            refuse(*error)
        elif kind != "move":
            ack()

    def _cmd_ready(self, player: Player, msg: dict[str, Any], conn: Connection,
                   extra: dict[str, Any]) -> tuple[str, str] | None:
        if self.state != "lobby":
            return ("not-lobby", _("ready is for the lobby, before the start"))
        player.ready = True
        self.announce()
        return None

    def _cmd_unready(self, player: Player, msg: dict[str, Any], conn: Connection,
                     extra: dict[str, Any]) -> tuple[str, str] | None:
        if self.state != "lobby":
            return ("not-lobby", _("unready is for the lobby, before the start"))
        player.ready = False
        self.announce()
        return None

    def _cmd_start(self, player: Player, msg: dict[str, Any], conn: Connection,
                   extra: dict[str, Any]) -> tuple[str, str] | None:
        if not player.host:
            return ("not-host", _("only the host starts the race"))
        if self.state != "lobby":
            return ("not-lobby", _("the race has already started") if self.state == "racing"
                    else _("the race is over: 'again' or change the settings"))
        friends = [p for p in self.players if not p.host]
        if not friends:
            return ("no-friends", _("at least one friend must be seated to start"))
        waiting = [p.name for p in friends if not p.ready or p.conn is None]
        if waiting:
            return ("not-ready", _("not everyone is ready: {names}").format(names=", ".join(waiting)))
        self._deal()
        return None

    def _cmd_move(self, player: Player, msg: dict[str, Any], conn: Connection,
                  extra: dict[str, Any]) -> tuple[str, str] | None:
        if self.state != "racing" or player.status != "racing" or player.game is None:
            return ("not-racing", _("you are not racing now") if self.state == "racing"
                    else _("there is no race on: moves wait for the start"))
        text = msg.get("move")
        if not isinstance(text, str) or len(text) > 100:
            return ("bad-move", _("a move is text in notation, e.g. {example}").format(
                example='{"type": "move", "move": "t7 t3"}'))
        game = player.game
        # the command layer every front end uses: a win is final, finish; no undo, no hints
        reply = Session(game, no_undo=_("no undo in a race"), no_hints=_("no hints in a race")).act(
            "hint" if text.strip() == "?" else text)
        conn.send("reply", re="move", ok=reply.ok, error=reply.error, **extra, **own_state(game))
        if not reply.records:
            return None
        if self.offer is not None:
            self._cancel_offer("move", player)
        self.broadcast("progress", seat=self.seat(player), name=player.name, status=player.status,
                       **player.progress())
        if game.won:
            self._end("won", [player])
        return None

    def _cmd_offer_draw(self, player: Player, msg: dict[str, Any], conn: Connection,
                        extra: dict[str, Any]) -> tuple[str, str] | None:
        if self.state != "racing" or player.status != "racing":
            return ("not-racing", _("only a player still racing may offer a draw"))
        if self.offer is not None:
            return ("offer-pending", _("a draw is already offered: accept-draw or decline-draw"))
        self.offer = {player.id}
        self.broadcast("offer", seat=self.seat(player), name=player.name)
        self._check_offer()
        return None

    def _cmd_accept_draw(self, player: Player, msg: dict[str, Any], conn: Connection,
                         extra: dict[str, Any]) -> tuple[str, str] | None:
        if self.offer is None:
            return ("no-offer", _("no draw is offered"))
        if player.status != "racing":
            return ("not-racing", _("only a player still racing may accept a draw"))
        self.offer.add(player.id)
        self.broadcast("offer-accepted", seat=self.seat(player), name=player.name)
        self._check_offer()
        return None

    def _cmd_decline_draw(self, player: Player, msg: dict[str, Any], conn: Connection,
                          extra: dict[str, Any]) -> tuple[str, str] | None:
        if self.offer is None:
            return ("no-offer", _("no draw is offered"))
        if player.status != "racing":
            return ("not-racing", _("only a player still racing may decline a draw"))
        self._cancel_offer("declined", player)
        return None

    def _cmd_resign(self, player: Player, msg: dict[str, Any], conn: Connection,
                    extra: dict[str, Any]) -> tuple[str, str] | None:
        if self.state != "racing" or player.status != "racing":
            return ("not-racing", _("only a player still racing may resign"))
        self._resign(player, "resigned")
        return None

    def _cmd_again(self, player: Player, msg: dict[str, Any], conn: Connection,
                   extra: dict[str, Any]) -> tuple[str, str] | None:
        if not player.host:
            return ("not-host", _("only the host deals again"))
        if self.state != "ended":
            return ("not-ended", _("'again' is for after a race"))
        if len(self.players) < 2:
            return ("no-friends", _("at least one friend must be seated to race again"))
        self.players = self.players[-1:] + self.players[:-1]  # each moves one seat along
        self._deal()
        return None

    def _cmd_settings(self, player: Player, msg: dict[str, Any], conn: Connection,
                      extra: dict[str, Any]) -> tuple[str, str] | None:
        if not player.host:
            return ("not-host", _("only the host changes the settings"))
        if self.state == "racing":
            return ("racing", _("the settings change between races, not during one"))
        try:
            settings = Settings.parse({k: v for k, v in msg.items() if k in
                                       ("variant", "options", "race", "minutes", "seconds")},
                                      allow_seconds=self.server.allow_seconds)
        except BadMessage as exc:
            return (exc.code, str(exc))
        self.settings = settings
        self.state = "lobby"
        for p in self.players:
            p.ready = False
            p.status = "waiting"
            p.game = None
        while self.spectators and len(self.players) < MAX_SEATS:  # newcomers may sit down now
            newcomer = self.spectators.pop(0)
            self._seat(newcomer, newcomer.name, False)
        self.announce()
        return None

    # ------------------------------------------------------------------ the race

    def _deal(self) -> None:
        defn = get_variant(self.settings.variant)
        options = self.settings.options
        if self.server.deal_seed is not None:  # tests only: never reachable from the wire
            dealt = self.server.deal_seed(self.settings)
            seed, proved = dealt if isinstance(dealt, tuple) else (dealt, True)
        else:
            from solitaire.core.solver import winnable_seed

            seed, proved = winnable_seed(defn, options)
        self.seed = seed
        self.unchecked = not proved
        rules = Rules.of(defn, options)
        self.race_no += 1
        self.state = "racing"
        self.offer = None
        self.result = self.end_message = None
        for p in self.players:
            p.game = Game.new(rules, seed)
            p.status = "racing"
            p.ready = False
        if self.settings.race == "timed" and self.settings.seconds is not None:
            self.deadline = time.monotonic() + self.settings.seconds
            self.clock = asyncio.get_running_loop().call_later(self.settings.seconds, self._time_up)
        else:
            self.deadline = None
        view = self.view()
        for p in self.players:  # every table turns up at the same instant
            if p.conn is not None:
                p.conn.send("start", seat=self.seat(p), own=own_state(p.game), **view)  # type: ignore[arg-type]
            if p.gone:
                self._resign(p, "left")
        for conn in self.spectators:
            conn.send("start", seat=None, **view)

    def _racing(self) -> list[Player]:
        return [p for p in self.players if p.status == "racing"]

    def _resign(self, player: Player, reason: str) -> None:
        player.status = "resigned"
        self.broadcast("resigned", seat=self.seat(player), name=player.name, reason=reason)
        left = self._racing()
        if len(left) == 1:
            self._end("last-left", left)
        elif not left:
            self._end("all-resigned", [])
        else:
            self._check_offer()

    def _check_offer(self) -> None:
        if self.offer is not None and self.state == "racing" and all(p.id in self.offer for p in self._racing()):
            self._end("draw-agreed", self._racing(), draw=True)

    def _cancel_offer(self, reason: str, player: Player) -> None:
        self.offer = None
        self.broadcast("offer-cancelled", reason=reason, seat=self.seat(player), name=player.name)

    def _time_up(self) -> None:
        self.clock = None
        if self.state != "racing":
            return
        racing = self._racing()
        # the game's own measure (cards home, or cards cleared), then fewer cards face down
        best = max((standing(p.game) for p in racing if p.game is not None), default=None)
        top = [p for p in racing if p.game is not None and standing(p.game) == best]
        self._end("time", top, draw=len(top) > 1)

    def _end(self, reason: str, winners: list[Player], draw: bool = False) -> None:
        self.state = "ended"
        self.offer = None
        if self.clock is not None:
            self.clock.cancel()
            self.clock = None
        for p in self.players:
            if p in winners:
                p.status = "drawn" if draw else "won"
            else:
                p.status = "lost"
            entry = self.score[p.id]
            entry["name"] = p.name
            entry["draws" if p.status == "drawn" else "wins" if p.status == "won" else "losses"] += 1
        tables = []
        for i, p in enumerate(self.players):
            tables.append({"seat": i, "id": p.id, "name": p.name, "result": p.status, **p.progress(),
                           "position": revealed_position(p.game) if p.game is not None else None})
        self.result = {"reason": reason, "winners": [self.seat(p) for p in winners], "draw": draw}
        self.end_message = {**self.result, "tables": tables, "score": self.score_list()}
        self.broadcast("end", **self.end_message)
        for p in list(self.players):
            if p.gone:
                self.players.remove(p)
        self.announce()


class RaceServer:
    """A websockets server on ``host`` (loopback by default) holding race tables.

    The limits, each a keyword: ``max_size`` bytes a message; ``rate`` messages a second
    after a ``burst``; ``max_behind`` messages a client may leave unread; ``send_timeout``
    seconds one send may block; ``hello_timeout`` seconds to say hello; ``per_address`` and
    ``max_connections`` connections open at once, from one address and in all. ``clock``
    (``time.monotonic`` by default) times the rates and the hello;
    tests pass a fake one and call :meth:`sweep`. ``ssl`` (an :class:`ssl.SSLContext`) serves
    ``wss://``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, reconnect_window: float = 60.0,
                 max_size: int = MAX_MESSAGE, rate: float = 100.0, burst: int = 200, max_behind: int = 256,
                 send_timeout: float = 10.0, hello_timeout: float = 10.0, per_address: int = 16,
                 max_connections: int = 1024, probe_timeout: float = 5.0, close_timeout: float = 2.0,
                 allow_seconds: bool = False, clock: Callable[[], float] = time.monotonic,
                 ssl: ssl_module.SSLContext | None = None, public: tuple[str, int | None] | None = None) -> None:
        self.host = host
        self.port = port
        self.reconnect_window = reconnect_window
        self.max_size = max_size
        self.rate = rate
        self.burst = burst
        self.max_behind = max_behind
        self.send_timeout = send_timeout
        self.hello_timeout = hello_timeout
        self.per_address = per_address
        self.max_connections = max_connections
        self.probe_timeout = probe_timeout
        self.close_timeout = close_timeout
        self.allow_seconds = allow_seconds
        self.clock = clock
        self.ssl = ssl
        self.public = public  # (host, port or None): what the link names instead of host:port
        self.tables: dict[str, Table] = {}
        # Tests only: a function Settings -> seed (or (seed, proved)) that replaces the winnable
        # deal. Set it on the object; no message can reach it.
        self.deal_seed: Callable[[Settings], int | tuple[int, bool]] | None = None
        self.kills: Counter[str] = Counter()  # why connections were cut off (flood, slow, ...)
        self.connections: set[Connection] = set()
        self.by_address: Counter[str] = Counter()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._server: Any = None

    async def start(self) -> RaceServer:
        self._server = await serve(self._handler, self.host, self.port, max_size=self.max_size,
                                   max_queue=16, write_limit=32 * 1024, compression=None,
                                   ping_interval=20, ping_timeout=20, close_timeout=self.close_timeout,
                                   open_timeout=self.hello_timeout, ssl=self.ssl, server_header=None)
        self.port = self._server.sockets[0].getsockname()[1]
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        return self

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a task the server holds until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.sweep()

    def sweep(self) -> None:
        """Drop each connection that has not said hello within ``hello_timeout`` (by ``clock``)."""
        now = self.clock()
        for conn in list(self.connections):
            if not conn.hello and conn.closed_reason is None and now - conn.opened >= self.hello_timeout:
                with speaking(conn.lang):
                    conn.send("error", re="hello", code="no-hello",
                              error=ngettext("say hello within {seconds} second of connecting",
                                                 "say hello within {seconds} seconds of connecting",
                                                 int(t) if (t := self.hello_timeout) == int(t) else 2).format(
                                  seconds=f"{self.hello_timeout:g}"))
                conn.closed_reason = "no-hello"
                self.kills["no-hello"] += 1
                self.spawn(conn.flush_and_close(1008, "no hello"))

    async def close(self, reason: str | Callable[[], str] = "") -> None:
        """Close every connection (1001, with ``reason``: one line for people, or what makes it,
        called in each connection's language), then the server."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            for p in table.players:
                if p.timer is not None:
                    p.timer.cancel()
            if table.clock is not None:
                table.clock.cancel()
        if self._server is not None:
            for conn in list(self.connections):
                conn.closed_reason = conn.closed_reason or "closing"
                with speaking(conn.lang):
                    text = reason() if callable(reason) else reason
                self.spawn(conn.flush_and_close(1001, close_reason(text)))
            self._server.close(close_connections=False)
            if self._tasks:
                await asyncio.wait(set(self._tasks), timeout=self.close_timeout + 1)
            self._server.close()
            await self._server.wait_closed()

    async def __aenter__(self) -> RaceServer:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def open_table(self, settings: Settings | None = None) -> Table:
        table = Table(self, secrets.token_urlsafe(6), settings or Settings())
        self.tables[table.id] = table
        return table

    def link(self, table: Table) -> str:
        host, port = self.public or (self.host, None)
        return make_link(host, port or self.port, table.id, table.token, tls=self.ssl is not None)

    async def _handler(self, ws: ServerConnection) -> None:
        with speaking("en"):  # every text sent speaks the connection's language: English until its hello
            await self._connection(ws)

    async def _connection(self, ws: ServerConnection) -> None:
        conn = Connection(self, ws)
        if len(self.connections) >= self.max_connections or self.by_address[conn.address] >= self.per_address:
            conn.send("error", re="hello", code="too-many-connections",
                      error=_("too many connections open from your address (or to this server)"))
            self.kills["too-many"] += 1
            await conn.flush_and_close(1008, "too many connections")
            return
        self.connections.add(conn)
        self.by_address[conn.address] += 1
        try:
            await self._serve(conn)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(conn)
            self.by_address[conn.address] -= 1
            if self.by_address[conn.address] <= 0:
                del self.by_address[conn.address]
            if conn.table is not None:
                conn.table.disconnect(conn)
            conn.stop()

    async def _serve(self, conn: Connection) -> None:
        ws = conn.ws
        raw = await ws.recv()
        if conn.closing():  # the hello came too late
            return
        table = self.tables.get(ws.request.path.strip("/").split("?")[0]) if ws.request else None
        try:
            hello = decode(raw)
        except BadMessage as exc:
            conn.send("error", re="hello", code=exc.code, error=str(exc))
            return await conn.flush_and_close(1008, exc.code)
        conn.lang = shipped(hello.get("lang")) or "en"  # a language not shipped is ignored: English
        with speaking(conn.lang):  # from here on, every text this connection is sent
            try:
                table = await self._hello(conn, table, hello)
            except BadMessage as exc:
                conn.send("error", re="hello", code=exc.code, error=str(exc))
                return await conn.flush_and_close(1008, exc.code)
            async for raw in ws:
                if conn.closing():  # nothing more it sends counts (the sweeper or a send may have cut it off)
                    return
                if not conn.allow():
                    conn.send("error", code="flood", error=_("too many messages (more than {n} a second): "
                                                             "disconnected").format(n=f"{self.rate:g}"))
                    self.kills["flood"] += 1
                    conn.closed_reason = "flood"
                    return await conn.flush_and_close(1008, "flood")
                try:
                    msg = decode(raw)
                except BadMessage as exc:
                    conn.send("error", code=exc.code, error=str(exc))
                    continue
                table.handle(conn, msg)

    async def _hello(self, conn: Connection, table: Table | None, hello: dict[str, Any]) -> Table:
        """Seat (or seat again, or let watch) the connection that said ``hello``; raise BadMessage."""
        if hello["type"] != "hello":
            raise BadMessage("no-hello", _("the first message must be {example}").format(
                example='{"v": 1, "type": "hello", "token": ...}'))
        token = hello.get("token")
        if table is None or not isinstance(token, str) or not hmac.compare_digest(
                token.encode(), table.token.encode()):
            raise BadMessage("bad-token", _("no table here has that token: check the link"))
        conn.name = clean_name(hello.get("name"))
        resume = None
        if hello.get("seat_token") is not None:
            if not isinstance(hello["seat_token"], str):
                raise BadMessage("bad-seat-token", _("seat_token is the text of a welcome's seat_token"))
            resume = table.find_seat(hello["seat_token"])
            if resume.conn is not None and await resume.conn.alive():
                raise BadMessage("seat-taken", _("that seat is connected and answering: a seat token takes "
                                                 "a seat back only once its connection is lost"))
            table.find_seat(hello["seat_token"])  # still valid after the wait
        table.join(conn, hello, resume)
        return table
