"""The table in a browser: ``race host --web`` and ``solitaire serve``, opened in headless
Chromium (Debian's ``chromium``, driven by Playwright for Python with the system browser).

The browser tests are skipped, with the reason, where Playwright or Chromium cannot run; with
``SOLITAIRE_REQUIRE_BROWSER=1`` (set by .ci/run) they fail instead. They wait on what the page
receives (its WebSocket's frames), never on the clock. The server's own guards (the token,
the session limits, what a page may send) are tested without a browser.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from solitaire.cli.web import WebTable
from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import card_symbol

DEAL = 1298  # the race's deal (race host --deal-seed): the test knows every face-down card
WAIT = 60_000  # ms: generous, for a loaded machine; every wait is for a state, not a time
ESCAPE = re.compile(r"\x1b(?:\[[0-9;?$]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


def chromium() -> str:
    """The system's Chromium and Playwright, or skip (fail when CI requires the browser)."""
    why = None
    path = shutil.which("chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        why = "Playwright for Python is not installed (pip install -e '.[test]')"
    if why is None and path is None:
        why = "no chromium on PATH (Debian: apt-get install chromium)"
    if why is not None:
        if os.environ.get("SOLITAIRE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"SOLITAIRE_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    assert path is not None
    return path


class Page:
    """A headless Chromium page on ``url``, and the text of every frame its WebSocket received."""

    def __init__(self, browser: Any, url: str) -> None:
        # a Browser, or a BrowserContext that has its own viewport (and its own TLS trust)
        self.page = browser.new_page(viewport={"width": 1280, "height": 800}) if hasattr(browser, "contexts") \
            else browser.new_page()
        self.frames: list[str] = []
        with self.page.expect_websocket(timeout=WAIT) as opened:
            self.page.goto(url)
        self.ws = opened.value
        self.ws.on("framereceived", self._received)

    def _received(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))

    def text(self) -> str:
        """What the page was sent, without the terminal's escape sequences."""
        return ESCAPE.sub("", "".join(self.frames))

    def wait_for(self, needle: str) -> None:
        """Until ``needle`` has been drawn: Playwright waits for each next frame (a state)."""
        for _ in range(10_000):  # frames: a table that never draws it fails, however it fails
            if needle in self.text():
                return
            self.ws.wait_for_event("framereceived", timeout=WAIT)
        raise AssertionError(f"the page never showed {needle!r}")

    def press(self, key: str) -> None:
        """A key typed into the page's terminal (focused first, as a player's click would)."""
        self.page.locator(".xterm-helper-textarea").focus()
        self.page.keyboard.press(key)


@pytest.fixture
def browser() -> Iterator[Any]:
    path = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        try:
            chrome = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        except Exception as exc:  # a chromium that cannot start here (no sandbox, no libraries)
            if os.environ.get("SOLITAIRE_REQUIRE_BROWSER") == "1":
                raise
            pytest.skip(f"chromium cannot run here: {str(exc).splitlines()[0]}")
        try:
            yield chrome
        finally:
            chrome.close()


def events(proc: subprocess.Popen[str]) -> Iterator[dict[str, Any]]:
    """The host's JSON events, each waited for at most WAIT ms (a bound on a wait, not a timing)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    while True:
        line = lines.get(timeout=WAIT / 1000)
        if line is None:
            raise AssertionError("the host ended")
        yield json.loads(line)


def until(stream: Iterator[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    for event in stream:
        if all(event.get(k) == v for k, v in fields.items()):
            return event
    raise AssertionError(fields)


def test_race_host_web_plays_in_a_browser_that_never_sees_a_hidden_card(browser, tmp_path):
    env = {**os.environ, "SOLITAIRE_HOME": str(tmp_path)}
    host = subprocess.Popen([sys.executable, "-m", "solitaire.cli", "race", "host", "--web", "--json",
                             "--deal-seed", str(DEAL), "--name", "ann"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    assert host.stdin is not None
    try:
        stream = events(host)
        opened = until(stream, event="opened")
        token = opened["link"].split("token=")[1]
        assert opened["web"].startswith("http://127.0.0.1:") and opened["web"].endswith(f"/?token={token}")
        page = Page(browser, opened["web"])
        page.wait_for("guest 1 (you)")  # the lobby, drawn in the page
        assert "Ready (r)" in page.text() and opened["web"] in page.text()  # its button, the page's link
        page.press("r")
        table = until(stream, event="table")
        while not any(p["name"] == "guest 1" and p["ready"] for p in table["players"]):
            table = until(stream, event="table")
        host.stdin.write("start\n")
        host.stdin.flush()
        until(stream, event="start")
        page.wait_for("Race 1 Klondike")  # the race screen's title
        page.press("d")  # draw: the browser plays a move
        moved = until(stream, event="progress", seat=1)
        assert moved["moves"] == 1
        page.wait_for(" moves 1")

        game = Game.new(Rules.of(get_variant("klondike"), {}), DEAL)
        game.play("draw")
        hidden = {card_symbol(c) for pile, down in zip(game.piles, game.down, strict=True) for c in pile[:down]}
        shown = {card_symbol(pile[-1]) for pile, down in zip(game.piles, game.down, strict=True)
                 if len(pile) > down}
        text = page.text()
        assert len(hidden) == 24 + 21 - 1  # the stock (less the card drawn) and the columns' backs
        assert shown & set(re.findall(r"(?:10|[A2-9JQK])[♠♥♦♣]", text))  # the check can see cards
        leaked = {c for c in hidden if c in text}
        assert not leaked, f"the page was sent face-down cards: {sorted(leaked)}"
    finally:
        stop(host, ask=host.stdin.close)


def host_web(tmp_path: Any) -> subprocess.Popen[str]:
    env = {**os.environ, "SOLITAIRE_HOME": str(tmp_path)}
    return subprocess.Popen([sys.executable, "-m", "solitaire.cli", "race", "host", "--web", "--json",
                             "--deal-seed", str(DEAL), "--name", "ann"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)


def test_a_page_reached_by_another_address_connects_by_that_address(browser, tmp_path):
    """The link says 127.0.0.1; the page opened as localhost (as through a tunnel or another
    name for the machine) loads its script and opens its WebSocket by localhost, and plays."""
    host = host_web(tmp_path)
    assert host.stdin is not None
    try:
        stream = events(host)
        opened = until(stream, event="opened")
        assert opened["web"].startswith("http://127.0.0.1:")
        other = opened["web"].replace("http://127.0.0.1:", "http://localhost:", 1)
        page = Page(browser, other)
        assert page.ws.url.startswith("ws://localhost:"), page.ws.url
        page.wait_for("guest 1 (you)")  # the lobby, drawn: the script and the session came
    finally:
        stop(host, ask=host.stdin.close)


def test_a_browser_that_closes_or_reloads_the_tab_is_offered_its_seat_back(browser, tmp_path):
    """#15: the seat token stays on the host's machine, in that browser's home (known by our
    cookie); the same browser's next page offers the seat back, another browser's does not."""
    host = host_web(tmp_path)
    assert host.stdin is not None
    try:
        stream = events(host)
        opened = until(stream, event="opened")
        mine = browser.new_context(viewport={"width": 1280, "height": 800})  # one browser: its pages share cookies
        first = Page(mine, opened["web"])
        first.wait_for("guest 1 (you)")
        first.press("r")
        table = until(stream, event="table")
        while not any(p["name"] == "guest 1" and p["ready"] for p in table["players"]):
            table = until(stream, event="table")
        host.stdin.write("start\n")
        host.stdin.flush()
        until(stream, event="start")
        first.wait_for("Race 1 Klondike")
        first.press("d")
        assert until(stream, event="progress", seat=1)["moves"] == 1
        first.page.close()  # the tab closed: the seat is kept 60 s
        until(stream, event="disconnected", seat=1)

        again = Page(mine, opened["web"])  # the link opened again, in the same browser
        again.wait_for("You left seat 1 at this table")
        again.press("y")
        until(stream, event="reconnected", seat=1)
        again.wait_for("Race 1 Klondike")
        again.wait_for(" moves 1")  # the same game, where it was left
        assert "guest 2" not in again.text()  # nobody new sat down

        with again.page.expect_websocket(timeout=WAIT) as reopened:  # reloading: the same offer
            again.page.reload()
        again.ws = reopened.value
        again.frames.clear()
        again.ws.on("framereceived", again._received)
        until(stream, event="disconnected", seat=1)
        again.wait_for("You left seat 1 at this table")
        again.press("y")
        until(stream, event="reconnected", seat=1)
        again.wait_for(" moves 1")

        # another machine's browser (a Greek one: its table speaks Greek)
        other = browser.new_context(viewport={"width": 1280, "height": 800}, locale="el-GR")
        stranger = Page(other, opened["web"])
        stranger.wait_for("Παρακολουθείτε αυτόν τον αγώνα")  # "You are watching this race": a newcomer
        assert "You left seat" not in stranger.text() and "Αφήσατε" not in stranger.text()
        cookies = {c["name"]: c["value"] for c in mine.cookies()}
        assert not set(cookies.values()) & {c["value"] for c in other.cookies()}  # each browser its own
        cookie = next(c for c in mine.cookies() if c["name"].startswith("solitaire-browser-"))
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"  # the page's scripts cannot read it
        other.close()
        mine.close()
    finally:
        stop(host, ask=host.stdin.close)


def stop(server: subprocess.Popen[str], ask: Callable[[], None] | None = None) -> None:
    """End a server the test started: asked first (``ask``, or a SIGTERM; a race host ends
    when its standard input closes), killed if it does not go."""
    (ask or server.terminate)()
    try:
        server.wait(30)
    finally:
        if server.poll() is None:
            server.kill()


def test_serve_plays_solo_in_a_browser(browser, tmp_path):
    env = {**os.environ, "SOLITAIRE_HOME": str(tmp_path)}
    server = subprocess.Popen([sys.executable, "-m", "solitaire.cli", "serve", "klondike", "--draw", "3"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert server.stdout is not None
        link = server.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{32}", link), link
        page = Page(browser, link)
        page.wait_for("moves 0")  # the solo table's status line, drawn in the page
        assert "Klondike klondike-d3-" in page.text()  # the game served, with its options
        page.press("d")  # draw: a move played in the browser
        page.wait_for("moves 1")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]  # no save, no statistics here:
        # the browser's game lives in a home of its own
    finally:
        stop(server)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_serve_with_a_certificate_serves_the_page_over_https(browser, tmp_path):
    """--cert and --key: the link is https://, and the page (and its WebSocket, wss://) plays."""
    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    home = tmp_path / "home"
    env = {**os.environ, "SOLITAIRE_HOME": str(home)}
    command = [sys.executable, "-m", "solitaire.cli", "serve", "klondike", "--cert", cert, "--key", key]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert server.stdout is not None
        link = server.stdout.readline().strip()
        assert re.fullmatch(r"https://127\.0\.0\.1:\d+/\?token=[\w-]{32}", link), link
        # the certificate is our own, self-signed
        context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 800})
        page = Page(context, link)
        assert page.ws.url.startswith("wss://"), page.ws.url
        page.wait_for("moves 0")
        page.press("d")
        page.wait_for("moves 1")
        context.close()
    finally:
        stop(server)


# --------------------------------------------------------------------------- without a browser


def test_the_page_and_its_session_need_the_token_and_sessions_are_limited():
    import aiohttp

    async def go() -> None:
        waiting = shlex.join([sys.executable, "-c", "import sys; sys.stdin.buffer.read(1)"])
        table = WebTable(lambda _n, _browser, _lang: waiting, sessions=1, per_address=1)
        await table.start()
        base = f"http://127.0.0.1:{table.port}"
        async with aiohttp.ClientSession() as http:
            for url in (f"{base}/", f"{base}/?token=wrong", f"{base}/?token={table.token}x"):
                async with http.get(url) as response:
                    assert response.status == 403
            async with http.get(f"{base}/?token={table.token}") as response:
                assert response.status == 200
                page = await response.text()
                assert f"ws://127.0.0.1:{table.port}/ws/{table.token}" in page
                assert "googleapis" not in page and "https://" not in page  # nothing from another site
                assert 'href="/static/css/xterm.css"' in page  # its own stylesheet stays
            for sent, expected in ((f"localhost:{table.port}", f"ws://localhost:{table.port}/ws/"),
                                   ("localhost:9000", "ws://localhost:9000/ws/"),  # ssh -L 9000:...
                                   ("bad host\"><script>", f"ws://127.0.0.1:{table.port}/ws/")):
                async with http.get(f"{base}/?token={table.token}", headers={"Host": sent}) as response:
                    assert response.status == 200
                    page = await response.text()
                    assert expected + table.token in page and "<script>x" not in page, sent
                    assert 'src="/static/js/textual.js"' in page  # relative: any address serves it
            async with http.get(f"{base}/static/") as response:
                assert response.status in (403, 404)  # no directory listing
            async with http.get(f"{base}/download/x") as response:
                assert response.status == 404  # nor textual-serve's downloads
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{base}/ws/wrong")
            assert refused.value.status == 403
            first = await http.ws_connect(f"{base}/ws/{table.token}")
            while table.started < 1:
                await asyncio.sleep(0)
            with pytest.raises(aiohttp.WSServerHandshakeError) as full:
                await http.ws_connect(f"{base}/ws/{table.token}")
            assert full.value.status == 503 and table.refused["too-many-sessions"] == 1
            await first.send_str(json.dumps(["run", "rm -rf /"]))  # not a page's message: the session ends
            closed = await first.receive()
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            while table.running:
                await asyncio.sleep(0)
            second = await http.ws_connect(f"{base}/ws/{table.token}")  # its place is free again
            await second.send_str("not json")
            assert (await second.receive()).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        await table.close()

    asyncio.run(asyncio.wait_for(go(), 60))


def test_a_browsers_session_speaks_the_first_shipped_language_it_asks_for():
    from solitaire.cli.web import browser_language

    assert browser_language("el-GR,el;q=0.9,en;q=0.8") == "el"
    assert browser_language("de-DE,de;q=0.9,ro;q=0.5,uk;q=0.7") == "uk"  # by preference, not by place
    assert browser_language("fr, en;q=0.1") == "en"
    assert browser_language("ar;q=0, ht") == "ht"  # q=0: not wanted
    for nothing in (None, "", "x" * 5000, "el;q=oops", ";;,,"):
        assert browser_language(nothing) == "en"


def test_serve_refuses_bad_input_in_one_line(cli):
    for args, message in [
        (("serve", "nosuch"), "unknown variant 'nosuch'"),
        (("serve", "klondike", "--draw", "9"), "--draw must be one of 1, 3"),
        (("serve", "--port", "70000"), "--port must be a whole number from 0 to 65535"),
        (("serve", "--key", "k.pem"), "--key goes with --cert"),
        (("serve", "--sessions", "0"), "--sessions is a whole number from 1 to 64"),
        (("serve", "--public", "a/b"), "--public is HOST or HOST:PORT"),
    ]:
        result = cli(*args)
        assert result.code == 2, args
        assert result.err.count("\n") == 1 and message in result.err, result.err


def test_serve_on_a_port_in_use_says_so_in_one_line(cli):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port))
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"solitaire: cannot serve the table on 127.0.0.1 port {port}: ")
    assert result.err.count("\n") == 1, result.err
