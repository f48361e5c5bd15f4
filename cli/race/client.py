"""Race clients: :class:`RaceClient` (asyncio, for programs and tests) and the ``--json``
bridge of ``solitaire race host|join`` (a command a line in, a JSON object a line out).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import shlex
import socket
import ssl
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any, ClassVar

import attrs
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from solitaire.core.files import atomic_write
from solitaire.core.i18n import N_, _, language, ngettext

from .messages import MAX_MESSAGE, VERSION, link_tls, parse_link


class RaceError(Exception):
    """The table refused us (wrong token, bad link, no server): one line for the user."""


class RaceRefused(RaceError):
    """The table answered the hello with an error (a wrong token, a stale seat token)."""


class RaceClient:
    """One connection to a table: ``join``, then ``send`` and ``next``; keeps every message received."""

    trusted: ClassVar[dict[tuple[str, int], str]] = {}  # (host, port) -> the certificate file trusted for it

    def __init__(self, ws: ClientConnection, *, keep: bool = True, queue_limit: int = 0) -> None:
        self.ws = ws
        self.keep = keep
        self.messages: list[dict[str, Any]] = []  # everything received, in order (when ``keep``)
        self.welcome: dict[str, Any] = {}
        # queue_limit > 0 bounds what is read ahead: once full, reading the socket waits (the
        # server then sees this client fall behind, and may cut it off, rather than wait for it)
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(queue_limit)
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def join(cls, link: str, name: str = "player", *, seat_token: str | None = None,
                   host_key: str | None = None, cafile: str | None = None, keep: bool = True,
                   queue_limit: int = 0, lang: str | None = None, **kwargs: Any) -> RaceClient:
        """Connect and say hello; raise RaceError when refused. A link with ``tls=1`` connects
        with ``wss://``, checking the table's certificate against the system's authorities, or
        against ``cafile`` (a self-signed certificate the host sent). The hello says ``lang``
        (by default the language in use here), the language the table's reasons come in."""
        try:
            host, port, table, token = parse_link(link)
        except ValueError as exc:
            raise RaceError(str(exc)) from None
        hello: dict[str, Any] = {"v": VERSION, "type": "hello", "token": token, "name": name,
                                 "lang": language() if lang is None else lang}
        if seat_token is not None:
            hello["seat_token"] = seat_token
        if host_key is not None:
            hello["host_key"] = host_key
        text = json.dumps(hello)
        if len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
            raise RaceError(ngettext(
                "the name is too long ({n} character): a name at the table is at most 24 characters",
                "the name is too long ({n} characters): a name at the table is at most 24 characters",
                len(name)).format(n=len(name)))
        tls = link_tls(link)
        if tls:
            cafile = cafile or cls.trusted.get((host, port))
            try:
                kwargs.setdefault("ssl", ssl.create_default_context(cafile=cafile))
            except (OSError, ssl.SSLError) as exc:
                raise RaceError(_("cannot read the certificate {file}: {reason}").format(
                    file=cafile, reason=exc)) from None
        where = f"[{host}]" if ":" in host else host
        try:
            ws = await connect(f"{'wss' if tls else 'ws'}://{where}:{port}/{table}", proxy=None,
                               compression=None, open_timeout=10, **kwargs)
        except ssl.SSLCertVerificationError as exc:
            raise RaceError(_("the table at {host}:{port} has a certificate we cannot trust ({reason}); if the host "
                              "sent you theirs, give it with --cafile").format(host=host, port=port,
                                                                              reason=exc.verify_message)) from None
        except (OSError, TimeoutError) as exc:
            raise RaceError(_("cannot reach the table at {host}:{port}: {reason}").format(
                host=host, port=port, reason=exc)) from None
        except Exception as exc:  # an HTTP refusal, a broken handshake
            raise RaceError(_("the table at {host}:{port} did not accept the connection: {reason}").format(
                host=host, port=port, reason=exc)) from None
        if tls and cafile is not None:
            cls.trusted[(host, port)] = cafile  # coming back after a drop trusts it again
        client = cls(ws, keep=keep, queue_limit=queue_limit)
        await ws.send(text)
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        except (ConnectionClosed, TimeoutError):
            why = f" ({ws.close_code} {ws.close_reason})" if ws.close_code not in (None, 1006) else ""
            await ws.close()
            raise RaceError(_("the table closed the connection before welcoming us{why}").format(why=why)) from None
        if keep:
            client.messages.append(first)
        if first.get("type") != "welcome":
            await ws.close()
            raise RaceRefused(_("the table refused: {reason}").format(reason=first.get("error", first)))
        client.welcome = first
        client._reader = asyncio.get_running_loop().create_task(client._read())
        return client

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if self.keep:
                    self.messages.append(msg)
                if msg.get("type") == "welcome":  # seated later (settings changed): its seat token counts
                    self.welcome = msg
                await self._queue.put(msg)
        except ConnectionClosed:
            pass
        except asyncio.CancelledError:
            if not self._queue.full():
                self._queue.put_nowait(None)
            raise  # shut down: nobody may be left to make room
        await self._queue.put(None)  # the end, once the reader has made room

    @property
    def seat_token(self) -> str | None:
        return self.welcome.get("seat_token")

    async def send(self, type_: str, **fields: Any) -> None:
        await self.ws.send(json.dumps({"v": VERSION, "type": type_, **fields}))

    async def next(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next message, or None once the connection is closed."""
        return await asyncio.wait_for(self._queue.get(), timeout)

    async def wait(self, type_: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        """Skip to the next message of this type (whose fields equal ``match``)."""
        async def scan() -> dict[str, Any]:
            while True:
                msg = await self._queue.get()
                if msg is None:
                    raise ConnectionError(f"closed while waiting for {type_!r}")
                if msg.get("type") == type_ and all(msg.get(k) == v for k, v in match.items()):
                    return msg
        return await asyncio.wait_for(scan(), timeout)

    async def leave(self) -> None:
        """Quit on purpose: say so (the others read "left", not "lost the connection"), then close."""
        with contextlib.suppress(ConnectionClosed):
            await self.send("leave")
        await self.close()

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            await self._reader


# ---------------------------------------------------------------------- a seat left, to come back to

SEAT_SECONDS = 60.0  # as long as the table keeps a seat for one who left


def seats_file() -> Path:
    from ..home import data_dir

    return data_dir() / "race-seats.json"


def seat_key(link: str) -> str:
    host, port, table, _token = parse_link(link)
    return f"{host}:{port}/{table}"


def _read_seats(now: float) -> dict[str, dict[str, Any]]:
    try:
        seats = json.loads(seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(seats, dict):
        return {}
    return {k: v for k, v in seats.items() if isinstance(v, dict) and isinstance(v.get("token"), str)
            and isinstance(v.get("left"), (int, float)) and 0 <= now - v["left"] < SEAT_SECONDS}


def remember_seat(link: str, client: RaceClient, now: float | None = None) -> str | None:
    """On leaving a seat (not the host's): keep its seat token on this machine for 60 s, and
    return the command that takes the seat back (None for a spectator or the host)."""
    welcome = client.welcome
    token, seat = welcome.get("seat_token"), welcome.get("seat")
    if welcome.get("role") != "player" or welcome.get("host") or not isinstance(token, str):
        return None
    now = time.time() if now is None else now
    seats = _read_seats(now)
    seats[seat_key(link)] = {"token": token, "seat": seat, "left": now}
    with contextlib.suppress(OSError):  # not being able to remember never stops leaving
        atomic_write(seats_file(), json.dumps(seats).encode())
    return f"solitaire race join {shlex.quote(link)} --resume {token}"


def left_seat(link: str, now: float | None = None) -> dict[str, Any] | None:
    """The seat left at this table from this machine less than 60 s ago: ``token``, ``seat``, ``left``."""
    try:
        return _read_seats(time.time() if now is None else now).get(seat_key(link))
    except ValueError:
        return None


def leaving_notice(link: str, client: RaceClient) -> str | None:
    """The line said on leaving a seat: how to take it back within the 60 s."""
    command = remember_seat(link, client)
    if command is None:
        return None
    return _("you left seat {seat}: within 60 s, {command} takes it back").format(
        seat=client.welcome.get("seat"), command=command)


# ---------------------------------------------------------------------- the --json bridge

SIMPLE = frozenset({"ready", "unready", "start", "offer-draw", "accept-draw", "decline-draw", "resign",
                    "again", "state"})  # commands of one word: the message type is the word
SETTING_FLAGS = {"--variant": "variant", "--race": "race", "--minutes": "minutes", "--seconds": "seconds"}


def settings_command(words: list[str]) -> dict[str, Any]:
    """``change-settings [--variant V] [--race R] [--minutes M] [--OPTION V] [--FLAG]`` as a message:
    the variant's own options (``--draw 3``, a bare ``--relaxed`` for a switch) go as they are
    given; the table checks them against the variant's declaration."""
    msg: dict[str, Any] = {"type": "settings", "options": {}}
    i = 0
    while i < len(words):
        flag = words[i]
        key, eq, given = flag.partition("=")
        if not key.startswith("--") or len(key) < 3:
            raise ValueError(_("change-settings takes --variant V, --race finish|timed, --minutes M and "
                               "the variant's options like --draw N or a bare --FLAG"))
        bare = not eq and (i + 1 >= len(words) or words[i + 1].startswith("--"))
        value: Any = given if eq else True if bare else words[i + 1]
        i += 1 if eq or bare else 2
        if key in SETTING_FLAGS:
            name = SETTING_FLAGS[key]
            if bare:
                raise ValueError(_("{flag} needs a value").format(flag=key))
            if name in ("minutes", "seconds"):
                if not value.isdigit():
                    raise ValueError(_("{flag} needs a whole number, got {value!r}").format(flag=key, value=value))
                value = int(value)
            msg[name] = value
        else:
            msg["options"][key[2:].replace("-", "_")] = value
    return msg


def line_message(line: str) -> dict[str, Any] | str:
    """A command line as a message to send, or an error text. Unknown words are moves."""
    text = " ".join(line.split())
    word = text.split(" ", 1)[0].lower()
    if word in SIMPLE:
        if text.lower() != word:
            return f"'{word}' takes no arguments"
        return {"type": word}
    if word == "change-settings":
        try:
            return settings_command(shlex.split(text)[1:])
        except ValueError as exc:
            return str(exc)
    return {"type": "move", "move": text}


def as_line(msg: dict[str, Any]) -> dict[str, Any]:
    """What the bridge prints for a server message: a reply to our command, or an event."""
    kind = msg.get("type")
    body = {k: v for k, v in msg.items() if k not in ("v", "type", "re", "id")}
    if kind == "reply":  # a move: the play --json reply
        return {k: body.get(k) for k in ("ok", "error", "position", "score", "moves", "won", "over")}
    if kind == "ack":
        return {"ok": True, "error": None, "command": msg.get("re"), **{k: v for k, v in body.items()
                                                                       if k not in ("ok", "error")}}
    if kind == "error" and msg.get("re") not in (None, "hello"):
        return {"ok": False, "error": msg.get("error"), "command": msg.get("re"), "code": msg.get("code")}
    return {"event": kind, **body}


LOOPBACK_HINT = N_("the table is open to this machine only: --bind 0.0.0.0 opens it to your network "
                   "(docs/race.md: across the internet)")
OUT_LINES = 64  # lines the bridge holds for its stdout before it stops reading the table


class Output:
    """The bridge's stdout, written by a thread of its own so that the event loop (which in
    ``race host`` also runs the table) never waits on a pipe nobody reads. At most ``limit``
    lines wait: :meth:`put` then waits for room, the bridge stops reading its connection, and
    the table sees this client fall behind (and cuts it off) instead of stalling."""

    def __init__(self, stream: IO[str], limit: int = OUT_LINES) -> None:
        self.stream = stream
        self.limit = limit
        self.waiting = 0
        self._loop = asyncio.get_running_loop()
        self._room = asyncio.Event()
        self._lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        try:  # a real file: write its descriptor directly, so that a write blocked for good
            self._fd: int | None = stream.fileno()  # never holds the buffer's lock at exit
            stream.flush()
        except (AttributeError, OSError, ValueError):
            self._fd = None
        threading.Thread(target=self._write, daemon=True).start()

    def _write(self) -> None:
        while True:
            line = self._lines.get()
            try:
                if self._fd is not None:
                    data = line.encode()
                    while data:
                        data = data[os.write(self._fd, data):]
                else:
                    self.stream.write(line)
                    self.stream.flush()
            except (OSError, ValueError):
                pass
            self._loop.call_soon_threadsafe(self._written)

    def _written(self) -> None:
        self.waiting -= 1
        self._room.set()

    async def put(self, obj: dict[str, Any]) -> None:
        while self.waiting >= self.limit:
            self._room.clear()
            await self._room.wait()
        self.waiting += 1
        self._lines.put(json.dumps(obj, separators=(",", ":")) + "\n")

    async def drain(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until every line is written."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self.waiting:
                    self._room.clear()
                    await self._room.wait()


async def run_bridge(link: str, name: str, stdin: IO[str], stdout: IO[str], *, host_key: str | None = None,
                     seat_token: str | None = None, cafile: str | None = None, **connect: Any) -> int:
    """Play a race a line at a time: returns the exit status. stdin is read in a thread, so the
    table's events are printed as they come while the program thinks; stdout is written by
    :class:`Output`, so a program that stops reading never holds up the table."""
    client = await RaceClient.join(link, name, host_key=host_key, seat_token=seat_token, cafile=cafile,
                                   keep=False, queue_limit=16, **connect)
    out = Output(stdout)
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def read_stdin() -> None:
        try:
            for line in stdin:
                loop.call_soon_threadsafe(lines.put_nowait, line)
        except (ValueError, OSError):
            pass
        except RuntimeError:  # the loop closed while this thread waited (the race is over)
            return
        # (the loop may have closed by now too: then nobody waits for the end of the input)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(lines.put_nowait, None)

    await out.put(as_line(client.welcome))
    threading.Thread(target=read_stdin, daemon=True).start()

    pending = 0  # commands sent whose reply has not come yet
    answered = asyncio.Event()

    async def pump() -> None:
        nonlocal pending
        while True:
            msg = await client._queue.get()
            if msg is None:
                answered.set()
                return
            line = as_line(msg)
            await out.put(line)
            if "event" not in line:
                pending -= 1
                if pending <= 0:
                    answered.set()

    printer = asyncio.create_task(pump())
    quitting = False
    try:
        while True:
            getter = asyncio.ensure_future(lines.get())
            done, _ = await asyncio.wait({getter, printer}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break  # the table closed the connection
            line = getter.result()
            if line is None or line.strip().lower() in ("quit", "q"):
                quitting = True
                break
            if not line.strip():
                continue
            if len(line) > 1000:
                await out.put({"ok": False, "error": f"command too long ({len(line)} characters; at most 1000)"})
                continue
            msg = line_message(line)
            if isinstance(msg, str):
                await out.put({"ok": False, "error": msg})
                continue
            try:
                pending += 1
                answered.clear()
                await client.send(msg.pop("type"), **msg)
            except ConnectionClosed:
                break
    finally:
        if quitting:
            if pending > 0:  # the replies to the last commands, before leaving
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(answered.wait(), 5)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(client.leave(), 3)
        await asyncio.wait({printer}, timeout=3)  # the last events (unless stdout is not read)
        printer.cancel()
    code, reason = client.ws.close_code, client.ws.close_reason
    if not quitting:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(out.put({"event": "closed", "code": code, "reason": reason or None}), 1)
    await out.drain(2)
    if quitting:
        notice = leaving_notice(link, client)
        if notice is not None:
            print(f"solitaire: {notice}", file=sys.stderr, flush=True)
    return 0 if quitting else 1


def run_join(link: str, name: str, seat_token: str | None = None, cafile: str | None = None) -> int:
    return asyncio.run(run_bridge(link, name, sys.stdin, sys.stdout, seat_token=seat_token, cafile=cafile))


@attrs.define
class Network:
    """Where ``race host`` listens and what its link names (see docs/race.md)."""

    bind: str = "127.0.0.1"
    public: tuple[str, int | None] | None = None  # --public HOST[:PORT]
    cert: str | None = None
    key: str | None = None
    web: bool = False  # --web: serve the table to browsers too
    web_port: int = 0  # --web-port
    deal_seed: int | None = None  # --deal-seed (tests only: the deal the test knows)

    def link_host(self) -> tuple[str, int | None] | None:
        """What the link names instead of the address listened on: ``--public``, or for
        ``--bind 0.0.0.0`` (``::``) this machine's outward address; None: the address itself."""
        if self.public is not None:
            return self.public
        if self.bind in ("0.0.0.0", "::", ""):
            return (outward_address(self.bind == "::"), None)
        return None

    def ssl_context(self) -> ssl.SSLContext | None:
        if self.cert is None:
            return None
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(self.cert, self.key)
        except (OSError, ssl.SSLError) as exc:
            reason = tls_reason(exc, self.key is not None)
            said = _("cannot use the certificate {cert} with the key {key}: {reason}") if self.key \
                else _("cannot use the certificate {cert}: {reason}")
            raise RaceError(said.format(cert=self.cert, key=self.key, reason=reason)) from None
        return context


def tls_reason(exc: OSError, keyed: bool) -> str:
    """Why a certificate and key could not be loaded, in words (OpenSSL's own is "[SSL] PEM
    lib (_ssl.c:3905)" for a file that is not PEM, or a certificate file with no key in it)."""
    if isinstance(exc, ssl.SSLError):
        if exc.reason == "KEY_VALUES_MISMATCH":
            return _("the key does not belong to the certificate")
        if exc.library == "SSL" and "PEM lib" in str(exc):
            return _("the key file is not a PEM private key, or the certificate file is not a PEM "
                     "certificate") if keyed else \
                _("it is not a PEM file holding the certificate and its private key (give the key "
                  "with --key if it is in a file of its own)")
    return str(getattr(exc, "strerror", None) or exc)


@contextlib.asynccontextmanager
async def hosted_table(settings: Any, port: int, seconds_allowed: bool = False,
                       network: Network | None = None) -> AsyncIterator[tuple[Any, Any]]:
    """A race server on this machine with one table open (``race host``): yields the server and
    the table, and closes the server after, telling everyone why (the host quit, or was cut off)."""
    from .server import RaceServer

    network = network or Network()
    server = RaceServer(network.bind, port, allow_seconds=seconds_allowed, ssl=network.ssl_context(),
                        public=network.link_host())
    if network.deal_seed is not None:
        seed = network.deal_seed
        server.deal_seed = lambda _settings: seed
    try:
        await server.start()
    except OSError as exc:
        raise RaceError(_("cannot open a table on {address} port {port}: {reason}").format(
            address=network.bind, port=port, reason=exc.strerror or exc)) from None
    if network.bind in ("127.0.0.1", "::1", "localhost") and network.public is None:
        print(f"solitaire: {_(LOOPBACK_HINT)}", file=sys.stderr, flush=True)
    table = server.open_table(settings)
    try:
        yield server, table
    finally:
        host = next((p for p in table.players if p.host), None)

        def reason() -> str:  # said to each connection in its own language
            who = _("the host ({name})").format(name=host.name) if host is not None else _("the host")
            if host is not None and host.cut_off:
                return _("{who} was cut off ({why})").format(who=who, why=host.cut_off_text())
            return _("{who} quit").format(who=who)

        await server.close(reason)


def outward_address(ipv6: bool = False) -> str:
    """This machine's address on the network it would reach the internet by (no packet is sent:
    a UDP socket is only pointed at a public address), or loopback when there is none."""
    family, probe, fallback = ((socket.AF_INET6, "2001:4860:4860::8888", "::1") if ipv6
                               else (socket.AF_INET, "192.0.2.1", "127.0.0.1"))
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))
            return str(sock.getsockname()[0])
    except OSError:
        return fallback


@contextlib.asynccontextmanager
async def web_table(server: Any, table: Any, network: Network | None) -> AsyncIterator[Any]:
    """With ``--web``, the table's page for browsers (a :class:`solitaire.cli.web.WebTable`
    whose every session is a ``race join`` of this table on loopback); else None."""
    if network is None or not network.web:
        yield None
        return
    import tempfile

    from ..web import WebError, WebTable, command_line, serving

    loopback = link_for_host(server, table)
    holder: list[Any] = []
    # each browser's sessions get a home of their own, where a session that leaves a seat keeps
    # its seat token (race-seats.json) for the browser's next session to offer back
    homes = tempfile.TemporaryDirectory(prefix="solitaire-race-web-")

    def command(n: int, browser: str, lang: str) -> str:  # the table in the browser's language
        home = Path(homes.name) / browser
        home.mkdir(mode=0o700, exist_ok=True)
        return command_line("race", "join", loopback, "--name", f"guest {n}", "--web-session", holder[0].link(),
                            env={"SOLITAIRE_HOME": str(home), "LANGUAGE": lang, "SOLITAIRE_BIDI": "visual"})

    named = network.link_host()  # the race link's host (--public's port is the race's, not the page's)
    web = WebTable(command, network.bind, network.web_port, token=table.token, title="solitaire race",
                   sessions=8, per_address=4, ssl_context=network.ssl_context(),
                   public=(named[0], None) if named is not None else None)
    holder.append(web)
    try:
        async with serving(web):
            yield web
    except WebError as exc:
        raise RaceError(str(exc)) from None
    finally:
        homes.cleanup()


def own_connection_context() -> ssl.SSLContext:
    """A TLS context for the host's own server on loopback (its certificate names another host)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def run_host(settings: Any, name: str, port: int, seconds_allowed: bool = False,
             network: Network | None = None) -> int:
    async def main() -> int:
        async with hosted_table(settings, port, seconds_allowed, network) as (server, table), \
                web_table(server, table, network) as web:
            link = server.link(table)
            opened = {"event": "opened", "table": table.id, "link": link, "port": server.port,
                      "settings": settings.as_json()}
            if web is not None:
                opened["web"] = web.link()
            sys.stdout.write(json.dumps(opened, separators=(",", ":")) + "\n")
            sys.stdout.flush()
            return await run_bridge(link_for_host(server, table), name, sys.stdin, sys.stdout,
                                    host_key=table.host_key, **own_connection(server))

    return asyncio.run(main())


def own_connection(server: Any) -> dict[str, Any]:
    """How the host's client connects to its own server over TLS: on loopback, to this very
    process, whose certificate may name another host (the public one), so it is not checked."""
    if server.ssl is None:
        return {}
    return {"ssl": own_connection_context()}


def link_for_host(server: Any, table: Any) -> str:
    """The link the host's own client uses: the address the server listens on, not the public one
    (a router's forwarded port is seldom reachable from inside)."""
    from .messages import make_link

    host = server.host
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return make_link(host, server.port, table.id, table.token, tls=server.ssl is not None)
