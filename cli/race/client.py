"""Race clients: :class:`RaceClient` (asyncio, for programs and tests) and the ``--json``
bridge of ``solitaire race host|join`` (a command a line in, a JSON object a line out).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import sys
import threading
from typing import IO, Any, AsyncIterator

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .messages import VERSION, parse_link


class RaceError(Exception):
    """The table refused us (wrong token, bad link, no server): one line for the user."""


class RaceRefused(RaceError):
    """The table answered the hello with an error (a wrong token, a stale seat token)."""


class RaceClient:
    """One connection to a table: ``join``, then ``send`` and ``next``; keeps every message received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []  # everything received, in order
        self.welcome: dict[str, Any] = {}
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._reader: asyncio.Task | None = None

    @classmethod
    async def join(cls, link: str, name: str = "player", *, seat_token: str | None = None,
                   host_key: str | None = None, **kwargs: Any) -> "RaceClient":
        """Connect and say hello; raise RaceError when refused."""
        try:
            host, port, table, token = parse_link(link)
        except ValueError as exc:
            raise RaceError(str(exc)) from None
        try:
            ws = await connect(f"ws://{host}:{port}/{table}", proxy=None, compression=None,
                               open_timeout=10, **kwargs)
        except (OSError, asyncio.TimeoutError, TimeoutError) as exc:
            raise RaceError(f"cannot reach the table at {host}:{port}: {exc}") from None
        client = cls(ws)
        hello: dict[str, Any] = {"v": VERSION, "type": "hello", "token": token, "name": name}
        if seat_token is not None:
            hello["seat_token"] = seat_token
        if host_key is not None:
            hello["host_key"] = host_key
        await ws.send(json.dumps(hello))
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        except (ConnectionClosed, asyncio.TimeoutError, TimeoutError):
            await ws.close()
            raise RaceError("the table closed the connection before welcoming us") from None
        client.messages.append(first)
        if first.get("type") != "welcome":
            await ws.close()
            raise RaceRefused(f"the table refused: {first.get('error', first)}")
        client.welcome = first
        client._reader = asyncio.get_running_loop().create_task(client._read())
        return client

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                self.messages.append(msg)
                self._queue.put_nowait(msg)
        except ConnectionClosed:
            pass
        finally:
            self._queue.put_nowait(None)

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

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            await self._reader


# ---------------------------------------------------------------------- the --json bridge

SIMPLE = frozenset({"ready", "unready", "start", "offer-draw", "accept-draw", "decline-draw", "resign",
                    "again", "state"})  # commands of one word: the message type is the word
SETTING_FLAGS = {"--variant": "variant", "--race": "race", "--minutes": "minutes", "--seconds": "seconds"}


def settings_command(words: list[str]) -> dict[str, Any]:
    """``change-settings [--variant V] [--draw N] [--race R] [--minutes M] [--OPTION V]`` as a message."""
    msg: dict[str, Any] = {"type": "settings", "options": {}}
    i = 0
    while i < len(words):
        flag = words[i]
        if not flag.startswith("--") or i + 1 >= len(words):
            raise ValueError("change-settings takes --variant V, --race finish|timed, --minutes M and "
                             "variant options like --draw N, each with a value")
        value: Any = words[i + 1]
        if flag in SETTING_FLAGS:
            key = SETTING_FLAGS[flag]
            if key in ("minutes", "seconds"):
                if not value.isdigit():
                    raise ValueError(f"{flag} needs a whole number, got {value!r}")
                value = int(value)
            msg[key] = value
        else:
            msg["options"][flag[2:].replace("-", "_")] = value
        i += 2
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


async def run_bridge(link: str, name: str, stdin: IO[str], stdout: IO[str], *, host_key: str | None = None,
                     seat_token: str | None = None) -> int:
    """Play a race a line at a time: returns the exit status. stdin is read in a thread, so the
    table's events are printed as they come while the program thinks."""

    def emit(obj: dict[str, Any]) -> None:
        stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        stdout.flush()

    client = await RaceClient.join(link, name, host_key=host_key, seat_token=seat_token)
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def read_stdin() -> None:
        try:
            for line in stdin:
                loop.call_soon_threadsafe(lines.put_nowait, line)
        except (ValueError, OSError):
            pass
        loop.call_soon_threadsafe(lines.put_nowait, None)

    emit(as_line(client.welcome))
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
            emit(line)
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
                emit({"ok": False, "error": f"command too long ({len(line)} characters; at most 1000)"})
                continue
            msg = line_message(line)
            if isinstance(msg, str):
                emit({"ok": False, "error": msg})
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
                try:
                    await asyncio.wait_for(answered.wait(), 5)
                except (asyncio.TimeoutError, TimeoutError):
                    pass
            await client.ws.close()
        await printer
    code, reason = client.ws.close_code, client.ws.close_reason
    if not quitting:
        emit({"event": "closed", "code": code, "reason": reason or None})
        return 1
    return 0


def run_join(link: str, name: str, seat_token: str | None = None) -> int:
    return asyncio.run(run_bridge(link, name, sys.stdin, sys.stdout, seat_token=seat_token))


@contextlib.asynccontextmanager
async def hosted_table(settings: Any, port: int, seconds_allowed: bool = False) -> AsyncIterator[tuple[Any, Any]]:
    """A race server on this machine with one table open (``race host``): yields the server and
    the table, and closes the server after."""
    from .server import RaceServer

    server = RaceServer(port=port, allow_seconds=seconds_allowed)
    try:
        await server.start()
    except OSError as exc:
        raise RaceError(f"cannot open a table on port {port}: {exc.strerror or exc}") from None
    try:
        yield server, server.open_table(settings)
    finally:
        await server.close()


def run_host(settings: Any, name: str, port: int, seconds_allowed: bool = False) -> int:
    async def main() -> int:
        async with hosted_table(settings, port, seconds_allowed) as (server, table):
            link = server.link(table)
            sys.stdout.write(json.dumps({"event": "opened", "table": table.id, "link": link,
                                         "port": server.port, "settings": settings.as_json()},
                                        separators=(",", ":")) + "\n")
            sys.stdout.flush()
            return await run_bridge(link, name, sys.stdin, sys.stdout, host_key=table.host_key)

    return asyncio.run(main())
