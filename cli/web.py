"""The table in a browser: ``race host --web`` and ``solitaire serve`` (see docs/table.md).

Built on textual-serve, Textual's own way to serve an app: each browser session gets a fresh
process of *our* command (the race client, or the solo table), whose screen the page draws
and to which it sends keys and clicks. The page cannot name another command: the command is
fixed when the server starts, and the only messages read from a page are keys, mouse, size
and focus (anything else ends the session). What a race's browser sees is what a terminal
client sees: its process is a race client like any other, and the hidden cards stay in the
race server.

Exposed to a network, the server stays safe like the race server: the link's token (random,
compared in constant time) is required for the page and for the session's WebSocket, so a
stranger who finds the port starts nothing; sessions are limited in all and per address,
as are a message's size and a window's size; and textual-serve's file downloads and
directory listings are not served.

A browser is known again by a cookie of ours (random, ``HttpOnly``, ``SameSite=Strict``, sent
only to this server's page and WebSocket): each browser's sessions get a label of their own
(``b1``, ``b2``, ...), never the cookie itself, so the command can give each browser a home of
its own. That is how a race player who closes or reloads the tab is offered the seat back:
the session that ends keeps the seat token in that browser's home, and the browser's next
session finds it there; another browser has another home.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
import shlex
import ssl
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from solitaire.core.i18n import _, shipped

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"  # what textual-serve runs each session with
MAX_MESSAGE = 64 * 1024  # bytes of one message from a page (a paste; keys are a few bytes)
MAX_WIDTH, MAX_HEIGHT = 400, 200  # a window larger than this is drawn at this size
PAGE_TYPES = frozenset({"stdin", "resize", "ping", "blur", "focus"})
MAX_BROWSERS = 4096  # browsers remembered (by their cookie); the oldest is forgotten past this
ENDING_WAIT = 10.0  # seconds a browser's new session waits for its ending one (a reload) to end

log = logging.getLogger("solitaire.web")


class WebError(Exception):
    """The page cannot be served (the address is taken, or not this machine's): one line for people."""


def web_link(host: str, port: int, token: str, tls: bool = False) -> str:
    """The page's address: ``http(s)://HOST:PORT/?token=TOKEN``."""
    if ":" in host and not host.startswith("["):  # an IPv6 address
        host = f"[{host}]"
    return f"{'https' if tls else 'http'}://{host}:{port}/?token={token}"


def command_line(*words: str, env: dict[str, str] | None = None) -> str:
    """A shell command (textual-serve runs one through the shell) running ``solitaire WORDS``
    with this Python, every word quoted."""
    prefix = [f"{k}={shlex.quote(v)}" for k, v in (env or {}).items()]
    return " ".join([*prefix, shlex.join([sys.executable, "-m", "solitaire.cli", *words])])


# a Host header the page's addresses may be built from: a name, an IPv4 or [IPv6] address, a port
# a tag of textual-serve's page that loads from another site (its font, from Google's): the
# page is served with none, so opening the link tells no third party who plays where; the
# page's own fallback fonts (menlo, monospace) are used instead
FOREIGN_TAG = re.compile(r"<link\b[^>]*\bhref=\"https?://[^\"]*\"[^>]*>\s*", re.IGNORECASE)
HOST_HEADER = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")

class WebTable:
    """An aiohttp server on ``host``/``port`` serving ``command`` to browsers through
    textual-serve's page and process bridge.

    ``command(n, browser, lang)`` is the shell command of the n-th session (from 1): the same
    program every time, only its player's number, its browser's label and its language may
    differ (``browser`` is ``b1``, ``b2``, ... for each browser known by its cookie, ``s7`` for
    a session whose WebSocket came without one; ``lang`` is a language shipped, the first the
    browser asks for, else ``en``). ``token`` must be in the page's address and its
    WebSocket's path; ``sessions`` and ``per_address`` bound the processes running at once.
    ``public`` (host, port or None) is what the link names instead of the address listened on
    (the caller resolves 0.0.0.0 to the machine's outward address)."""

    def __init__(self, command: Callable[[int, str, str], str], host: str = "127.0.0.1", port: int = 0, *,
                 token: str | None = None, title: str = "solitaire", sessions: int = 8, per_address: int = 4,
                 ssl_context: ssl.SSLContext | None = None, public: tuple[str, int | None] | None = None) -> None:
        self.command = command
        self.host = host
        self.port = port
        self.token = token or secrets.token_urlsafe(24)
        self.title = title
        self.sessions = sessions
        self.per_address = per_address
        self.ssl = ssl_context
        self.public = public
        self.running: Counter[str] = Counter()  # sessions running, by address
        self.started = 0  # sessions started so far
        self.refused: Counter[str] = Counter()  # why pages or sessions were turned away
        self._runner: Any = None
        self._services: set[Any] = set()
        self._browsers: dict[str, str] = {}  # the SHA-256 of a browser's cookie -> its label
        self._ending: dict[str, set[asyncio.Event]] = {}  # a browser's label -> its sessions ending
        self._browsers_given = 0

    def _next_browser(self) -> int:
        self._browsers_given += 1
        return self._browsers_given

    @property
    def cookie_name(self) -> str:
        """One a port: cookies are a host's, whatever the port, and two tables may share one."""
        return f"solitaire-browser-{self.port}"

    def browser_of(self, cookie: str | None) -> str | None:
        """The label of the browser whose cookie this is (None for one we did not give)."""
        if not cookie or len(cookie) > 64:
            return None
        return self._browsers.get(hashlib.sha256(cookie.encode()).hexdigest())

    def _new_browser(self) -> str:
        cookie = secrets.token_urlsafe(24)
        if len(self._browsers) >= MAX_BROWSERS:
            del self._browsers[next(iter(self._browsers))]
        self._browsers[hashlib.sha256(cookie.encode()).hexdigest()] = f"b{self._next_browser()}"
        return cookie

    # ------------------------------------------------------------------ addresses

    def public_base(self) -> str:
        """``http(s)://HOST:PORT`` as the link names it (``public``, else the address listened on)."""
        host, port = self.host, self.port
        if self.public is not None:
            host, port = self.public[0], self.public[1] or self.port
        return web_link(host, port, "", self.ssl is not None).split("/?", 1)[0]

    def link(self) -> str:
        return f"{self.public_base()}/?token={self.token}"

    def request_base(self, request: Any, websocket: bool = False) -> str:
        """``ws(s)://HOST:PORT`` (or ``http(s)://``) as the browser reached the page: its Host
        header, so a tunnel (``ssh -L 9000:host:8000``) or another name for this machine works;
        the link's own base when the header is missing or not a plain host[:port]."""
        host = request.headers.get("Host", "")
        if not HOST_HEADER.fullmatch(host):
            base = self.public_base()
            return ("ws" + base[4:]) if websocket else base
        secure = self.ssl is not None
        scheme = ("wss" if secure else "ws") if websocket else ("https" if secure else "http")
        return f"{scheme}://{host}"

    # ------------------------------------------------------------------ serving

    async def start(self) -> None:
        import aiohttp_jinja2
        import jinja2
        from aiohttp import web
        from textual_serve import server as ts_server

        base = Path(ts_server.__file__).parent
        app = web.Application(client_max_size=MAX_MESSAGE)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(base / "templates"), autoescape=True)
        app.add_routes([
            web.get("/", self._index),
            web.get("/ws/{token}", self._websocket),
            web.static("/static", base / "static", show_index=False),
        ])
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, ssl_context=self.ssl)
        await site.start()
        if self.port == 0:  # the port the system chose
            self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        for service in list(self._services):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(service.stop(), 5)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _token_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

    async def _index(self, request: Any) -> Any:
        import aiohttp_jinja2
        from aiohttp import web

        if not self._token_ok(request.query.get("token", "")):
            self.refused["bad-token"] += 1
            raise web.HTTPForbidden(text="solitaire: " + _("this page needs its link's token (?token=...)") + "\n")
        context = {
            "font_size": min(max(_int(request.query.get("fontsize", "16"), 16), 8), 40),
            "app_websocket_url": f"{self.request_base(request, websocket=True)}/ws/{self.token}",
            "config": {"static": {"url": "/static/"}},  # relative: under whatever address the page came by
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.text = FOREIGN_TAG.sub("", response.text or "")
        if self.browser_of(request.cookies.get(self.cookie_name)) is None:  # a browser new to us
            response.set_cookie(self.cookie_name, self._new_browser(), path="/", httponly=True, samesite="Strict",
                                secure=self.ssl is not None)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"  # the token stays out of other sites' logs
        return response

    async def _websocket(self, request: Any) -> Any:
        from aiohttp import web
        from textual_serve.app_service import AppService
        from textual_serve.download_manager import DownloadManager

        address = request.remote or "?"
        if not self._token_ok(request.match_info.get("token", "")):
            self.refused["bad-token"] += 1
            raise web.HTTPForbidden(text=_("bad token") + "\n")
        if sum(self.running.values()) >= self.sessions or self.running[address] >= self.per_address:
            self.refused["too-many-sessions"] += 1
            raise web.HTTPServiceUnavailable(text=_("too many sessions at this table") + "\n")
        self.running[address] += 1
        self.started += 1
        browser = self.browser_of(request.cookies.get(self.cookie_name)) or f"s{self.started}"
        ending = list(self._ending.get(browser, ()))
        if ending:  # a reload: the session the page left keeps what it must before this one starts
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ending)), ENDING_WAIT)
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        try:
            await socket.prepare(request)
        except Exception:
            self._session_gone(address)
            raise
        width = min(max(_int(request.query.get("width", "80"), 80), 20), MAX_WIDTH)
        height = min(max(_int(request.query.get("height", "24"), 24), 10), MAX_HEIGHT)
        async def close() -> None:
            await socket.close()

        lang = browser_language(request.headers.get("Accept-Language"))
        service = AppService(self.command(self.started, browser, lang), write_bytes=socket.send_bytes,
                             write_str=socket.send_str, close=close, download_manager=DownloadManager())
        self._services.add(service)
        try:
            await service.start(width, height)
            await self._pump(socket, service)
        except Exception as exc:  # a page's mistake ends its own session, never the server
            log.debug("web session ended: %s", exc)
        finally:
            done = asyncio.Event()
            self._ending.setdefault(browser, set()).add(done)
            try:
                self._services.discard(service)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(service.stop(), 5)
            finally:
                done.set()
                self._ending[browser].discard(done)
                if not self._ending[browser]:
                    del self._ending[browser]
                self._session_gone(address)
            await socket.close()
        return socket

    def _session_gone(self, address: str) -> None:
        self.running[address] -= 1
        if not self.running[address]:
            del self.running[address]

    async def _pump(self, socket: Any, service: Any) -> None:
        """The page's messages to the session: keys and mouse (``stdin``), size, focus and ping;
        anything else, or anything malformed, ends the session."""
        import json

        from aiohttp import WSMsgType

        async for message in socket:
            if message.type != WSMsgType.TEXT:
                return
            envelope = json.loads(message.data)
            if not (isinstance(envelope, list) and envelope and envelope[0] in PAGE_TYPES):
                return
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                await service.set_terminal_size(min(max(_int(data.get("width"), 80), 20), MAX_WIDTH),
                                                min(max(_int(data.get("height"), 24), 10), MAX_HEIGHT))
            elif kind == "ping" and isinstance(data, (str, int, float)):
                await socket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()
            else:
                return


def browser_language(header: str | None) -> str:
    """The language shipped that a browser's ``Accept-Language`` prefers (``el-GR,el;q=0.9,en;q=0.8``),
    else English."""
    wanted: list[tuple[float, int, str]] = []
    for k, item in enumerate((header or "")[:200].split(",")):
        code, _sep, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        found = shipped(code.strip())
        if found is not None and q > 0:
            wanted.append((-q, k, found))
    return min(wanted)[2] if wanted else "en"


def _int(value: Any, default: int) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value) < 6:
        return int(value)
    return default


@contextlib.asynccontextmanager
async def serving(table: WebTable) -> AsyncIterator[WebTable]:
    """The web table started, and closed after (every session's process ended)."""
    try:
        await table.start()
    except OSError as exc:
        raise WebError(_("cannot serve the table on {address} port {port}: {reason}").format(
            address=table.host, port=table.port, reason=exc.strerror or exc)) from None
    try:
        yield table
    finally:
        await table.close()
