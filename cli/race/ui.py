"""The full-screen race table (Textual): ``solitaire race host`` and ``race join`` on a terminal.

Three screens follow the table's state as the server announces it: the **lobby** (the link,
who is seated and ready, Ready and Start), the **race** (your own table, drawn with the
solo table's :class:`~solitaire.cli.tui.app.TableView` and played with its
:class:`~solitaire.cli.tui.app.TableControls`, and every opponent's progress) and
the **end** (the result, the match score and every table, revealed by the server).

The server is authoritative: every move goes to it through :class:`RaceClient`, and the
table shown is rebuilt from the position it sends back. That position has face-down cards as
``"??"``; it is read as an :class:`~solitaire.core.view.Observation` (what the player sees),
and the table drawn is that view dealt with stand-ins in the face-down places: the unseen
cards in card order, so they tell nothing the face-up cards do not. No stand-in is ever
shown: the table widget draws face-down cards as backs, moves are judged here only on face-up
cards, and no move is played on this board (each goes to the server, and the board is
rebuilt from its reply, which brings any card turned up). No undo, no hints: those keys are
refused with a one-line notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import sys
import textwrap
from collections.abc import Callable
from typing import Any, ClassVar

import attrs
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static
from websockets.exceptions import ConnectionClosed, WebSocketException

from solitaire.core import Game, Move, get_variant
from solitaire.core.i18n import N_, _
from solitaire.core.view import Observation

from ..bidi import for_screen, for_screen_markup, reorders
from ..common import UNCHECKED
from ..tui.app import TABLE_BINDINGS, HandKeys, HelpScreen, TableView, replay_escape
from ..tui.controls import Hand
from ..tui.table import View, with_symbols
from .client import (
    LOOPBACK_HINT,
    RaceClient,
    RaceError,
    RaceRefused,
    hosted_table,
    leaving_notice,
    remember_seat,
    settings_command,
)

REJOIN_SECONDS = 60.0  # after a dropped connection, how long to keep trying the seat (the table keeps it 60 s)
KEYS_LINE = N_("arrows move  space pick/put  d draw  f finish  = offer draw  x resign  ? help")
FINISH_LINE = N_("Every card outside the stock is face up: press f to play them all home.")
RACE_HELP = N_("""\
[b]Mouse[/b]
  click a card         pick it up, with the cards on it
  click a pile         put the cards there; click them again to let go
  drag and drop        the same in one gesture
  click the stock      draw (or turn the waste back, if the game allows)
  double-click a card  send it to a foundation

[b]Keys[/b]
  ← ↑ ↓ →        move the cursor      escape  let go
  space, enter   pick up / put down   a       send the card home
  d, s           draw                 f       finish (all cards face up)
  =              offer a draw         y, n    accept, decline (or withdraw)
  x              resign               c       four-colour suits
  ?              this help            q       leave the race (asks first)

No undo, redo or hints in a race: the first to put every card home wins.
""")
REASONS = {
    "won": N_("{winners} put every card home"),
    "time": N_("the time is up"),
    "draw-agreed": N_("a draw, agreed by everyone still racing"),
    "last-left": N_("{winners}: the last one racing"),
    "all-resigned": N_("everyone resigned"),
}
# how near a win a player is (see RaceApp.measure): cards home, or cards left to clear
MEASURES = {"home": N_("home"), "left": N_("left")}
# a player's state as the server names it (a machine field), as the screen says it
STATES = {"waiting": N_("waiting"), "racing": N_("racing"), "won": N_("won"), "lost": N_("lost"),
          "resigned": N_("resigned"), "drawn": N_("drawn"), "away": N_("away")}


class Words:
    """Lines of text made of parts (words and a style), written in reading order and given to
    the screen in the order it is seen (see :mod:`..bidi`): in a right-to-left language that the
    terminal does not lay out, each line's parts come in the other order, each in visual order.
    A ``raw`` part (a link, a column of digits) is left as it is."""

    def __init__(self) -> None:
        self.lines: list[list[tuple[str, str, bool]]] = [[]]

    def add(self, text: str, style: str = "", raw: bool = False) -> Words:
        for k, piece in enumerate(text.split("\n")):
            if k:
                self.lines.append([])
            if piece:
                self.lines[-1].append((piece, style, raw))
        return self

    def text(self) -> Text:
        rtl = reorders()
        out = Text()
        for k, parts in enumerate(self.lines):
            if k:
                out.append("\n")
            for words, style, raw in reversed(parts) if rtl else parts:
                out.append(words if raw or not rtl else for_screen(words), style=style)
        return out


def wrap(text: str, width: int) -> str:
    """``text`` broken into lines of at most ``width`` where its words will be reordered (the
    screen would otherwise break the reordered line, the first line shown holding the last
    words); as it is elsewhere, for the screen to break."""
    if not reorders():
        return text
    return "\n".join(line for paragraph in text.split("\n") for line in (textwrap.wrap(paragraph, width) or [""]))


def said(text: str, style: str = "") -> Text:
    """One line of words (a notice, a title) as the screen is to be given it."""
    return Text(for_screen(text), style=style)


def right_aligned(screen: Screen[Any]) -> None:
    """In a right-to-left language put in visual order here, the screen's words to the right."""
    if reorders():
        for widget in screen.query(Static):
            if widget.id not in ("table", "end-table"):
                widget.styles.text_align = "right"
        for row in screen.query(".buttons"):
            row.styles.align_horizontal = "right"


def focus_reading_first(screen: Screen[Any]) -> None:
    """Focus the button a reader meets first (the rightmost shown, in a right-to-left language),
    as the first one is focused otherwise."""
    if reorders():
        for row in screen.query(".buttons"):
            shown = [b for b in row.query(Button) if b.display]
            if shown:
                screen.set_focus(shown[-1])
                return


def in_reading_order(buttons: list[Button]) -> list[Button]:
    """A row of buttons, the first where a reader starts: on the right in a right-to-left language."""
    return buttons[::-1] if reorders() else buttons


def race_of(screen: Screen[Any]) -> RaceApp:
    """The race app a screen of it belongs to."""
    app = screen.app
    assert isinstance(app, RaceApp)
    return app


def observed(position: dict[str, Any]) -> Observation:
    """What the player sees of a position the server sent (its face-down cards ``"??"``);
    whatever a face-down place held, nothing of it is kept."""
    return Observation.from_position(get_variant(position["variant"]), position)


def display_game(seen: Observation) -> Game:
    """The table to draw: ``seen`` with stand-ins in the face-down places (the unseen cards in
    card order). The table draws them as backs and nothing plays a move on this game, so none
    is ever shown (see the module's note)."""
    return seen.deal(list(seen.unseen()))


def revealed(position: dict[str, Any]) -> Game:
    """A table the server revealed at the end, every card face up so it shows."""
    game = Game.from_position(get_variant(position["variant"]), position)
    game.down = [0] * len(game.down)
    return game


def settings_text(settings: dict[str, Any]) -> str:
    """``klondike draw 3, timed 10 min``."""
    defn = get_variant(settings["variant"])
    opts = " ".join(f"{k} {v}" for k, v in settings.get("options", {}).items())
    kind = _("timed {minutes} min").format(minutes=settings["minutes"]) if settings.get("race") == "timed" \
        else _("to the last card")
    return f"{defn.local_title()}{' ' + opts if opts else ''}, {kind}"


def settings_flags(settings: dict[str, Any]) -> str:
    """The settings as the flags of the Change settings box (``--variant klondike --draw 3``)."""
    words = [f"--variant {settings['variant']}", f"--race {settings['race']}"]
    if settings.get("race") == "timed" and settings.get("seconds") is not None:
        if settings["seconds"] % 60 == 0:
            words.append(f"--minutes {settings['seconds'] // 60}")
        else:
            words.append(f"--seconds {settings['seconds']}")
    for k, v in settings.get("options", {}).items():
        words.append(f"--{k} {v}")
    return " ".join(words)


def clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


# --------------------------------------------------------------------------- small screens


class RaceHelpScreen(HelpScreen):
    """The race table's keys and clicks; q leaves the race, asking first, as on the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,enter,space", "close", _("Close")),
        Binding("q", "leave", _("Leave"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            yield Static(for_screen_markup(_(RACE_HELP)), id="help-text")
            yield Static("[dim]{}[/dim]".format(for_screen(_("escape or ? closes this help; q leaves the race"))),
                         id="help-close")

    def action_leave(self) -> None:
        self.dismiss(None)
        app = self.app
        if isinstance(app, RaceApp):
            app.action_leave()


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or enter yes, n or escape no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", _("Yes")), Binding("n,escape", "answer(False)", _("No"))]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(Words().add(wrap(self.question, 60)).text(), id="question")
            with Horizontal(classes="buttons"):
                yield from in_reading_order([Button(for_screen(_("Yes (y)")), id="yes", variant="error"),
                                             Button(for_screen(_("No (n)")), id="no")])

    def on_mount(self) -> None:
        right_aligned(self)
        focus_reading_first(self)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class SettingsScreen(ModalScreen["str | None"]):
    """The host's Change settings: the settings as command-line flags, edited in one line."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, flags: str) -> None:
        super().__init__()
        self.flags = flags

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            yield Static(Words().add(wrap(_("Change settings: --variant V, --race finish|timed, --minutes 5|10|15 "
                                            "and the game's options (e.g. --draw 3). Enter to apply, escape to "
                                            "cancel."), 60)).text())
            yield Input(self.flags, id="flags")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


# --------------------------------------------------------------------------- the lobby


class LobbyScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "app.ready", _("Ready")), Binding("s", "app.start", _("Start")),
        Binding("c", "app.change_settings", _("Settings")), Binding("y", "app.copy_link", _("Copy the link")),
        Binding("q", "app.leave", _("Quit"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(id="lobby-title")
            yield Static(id="lobby-link")
            yield Static(id="lobby-players")
            with Horizontal(classes="buttons"):
                yield from in_reading_order([
                    Button(for_screen(_("Ready (r)")), id="ready", variant="primary"),
                    Button(for_screen(_("Start (s)")), id="start", variant="success"),
                    Button(for_screen(_("Settings (c)")), id="settings"),
                    Button(for_screen(_("Quit (q)")), id="quit")])
        yield Static(id="status")

    def on_mount(self) -> None:
        right_aligned(self)
        self.refresh_view()
        focus_reading_first(self)

    def refresh_view(self) -> None:
        app = race_of(self)
        table = app.table
        self.query_one("#lobby-title", Static).update(said(
            _("Race table — {settings}").format(settings=settings_text(table["settings"])), style="bold"))
        link = Words().add(wrap(_("Send this link to up to three friends (y copies it):"), 76) + "\n", style="dim")
        if not app.web_only:
            link.add(app.link, style="bold cyan", raw=True)
        if app.web is not None:
            link.add("" if app.web_only else "\n" + wrap(_("or, to play in a web browser, this one:"), 76) + "\n",
                     style="dim")
            link.add(app.web, style="bold cyan", raw=True)
        if app.is_host and app.link.startswith(("solitaire://127.0.0.1:", "solitaire://[::1]:")):
            hint = _(LOOPBACK_HINT)
            link.add("\n" + wrap(f"{hint[:1].upper()}{hint[1:]}.", 76), style="dim")
        self.query_one("#lobby-link", Static).update(link.text())
        lines = Words()
        for p in table["players"]:
            mine = p["id"] == app.my_id
            state = _("host") if p["host"] else (_("ready") if p["ready"] else _("not ready"))
            if not p["connected"]:
                state = _("{state}, away").format(state=state)
            you = " " + _("(you)") if mine else ""
            lines.add(f" {p['seat'] + 1}. ").add(f"{p['name']}{you}", style="bold" if mine else "")
            lines.add(f"  {state}", style="green" if p["ready"] or p["host"] else "yellow").add("\n")
        watching = table.get("spectators", 0)
        lines.add(" " + (_("watching: {n}").format(n=watching) if watching else _("nobody is watching")) + "\n",
                  style="dim")
        if len(table["players"]) < 2:
            lines.add(" " + _("waiting for a friend to sit down ..."), style="dim")
        self.query_one("#lobby-players", Static).update(lines.text())
        ready = self.query_one("#ready", Button)
        ready.display = app.role == "player" and not app.is_host
        ready.label = for_screen(_("Not ready (r)") if app.me_ready() else _("Ready (r)"))
        start = self.query_one("#start", Button)
        start.display = settings = app.is_host
        start.disabled = not app.can_start()
        self.query_one("#settings", Button).display = settings
        self.query_one("#status", Static).update(said(app.notice or app.lobby_hint(), style="bold"))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button does what its key does (run_action is a coroutine: awaited, it acts)."""
        actions = {"ready": "ready", "start": "start", "settings": "change_settings", "quit": "leave"}
        await self.app.run_action(actions[event.button.id or "quit"])


# --------------------------------------------------------------------------- the race


class RaceScreen(HandKeys, Screen[None]):
    """Your own table (driven by the server), the others' progress, the clock."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *TABLE_BINDINGS,
        Binding("u,ctrl+z", "refuse('undo')", show=False),
        Binding("r,ctrl+y", "refuse('redo')", show=False),
        Binding("h,o", "refuse('hints')", show=False),
        Binding("equals_sign", "app.offer_draw", show=False),
        Binding("y", "app.answer_draw(True)", show=False),
        Binding("n", "app.answer_draw(False)", show=False),
        Binding("x", "app.resign", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("q", "app.leave", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view = View()
        self.hand = Hand(self, self.view)  # the cursor and the cards in hand, as at the solo table

    def compose(self) -> ComposeResult:
        app = race_of(self)
        yield Static(id="race-info")
        with Horizontal(id="race-body"):
            if app.board is not None:
                yield TableView(app.board, self.view, id="table")
            else:
                yield Static(Words().add(wrap(_("You are watching this race: each player's progress is on the "
                                                "right; every table shows at the end."), 48)).text(), id="watching")
            yield Static(id="progress")
        yield Static(id="status")

    def on_mount(self) -> None:
        right_aligned(self)
        game = self.game
        if game is not None:
            rules = game.rules
            self.view.cursor = rules.stock if rules.stock is not None else 0
        self.refresh_view()

    @property
    def race(self) -> RaceApp:
        return race_of(self)

    @property
    def game(self) -> Game | None:
        return self.race.board

    def table_game(self) -> Game | None:
        return self.race.board

    def locked(self) -> bool:
        return self.race.board is None

    @property
    def table_view(self) -> TableView:
        return self.query_one(TableView)

    def refresh_view(self) -> None:
        app = race_of(self)
        table = app.table
        info = Words()
        info.add(" " + _("Race {n}").format(n=table.get("race", 1)) + " ", style="bold")
        info.add(settings_text(table["settings"]))
        left = app.seconds_left()
        if left is not None:
            info.add("   " + _("{clock} left").format(clock=clock(left)), style="bold yellow")
        if app.own is not None:
            info.add("   " + _("moves {moves}   score {score}").format(moves=app.own["moves"], score=app.own["score"]))
        self.query_one("#race-info", Static).update(info.text())
        self.query_one("#progress", Static).update(app.progress_text())
        # a standing draw offer always shows, before any notice
        told = [part for part in (app.offer_text(), with_symbols(app.notice)) if part]
        status = "  ".join(told) or _(FINISH_LINE if self.finish_ready() else KEYS_LINE)
        self.query_one("#status", Static).update(said(status, style="bold" if told else "dim"))
        if self.game is not None:
            view = self.table_view
            view.game = self.game
            self.hand.drop_stale()
            view.update_table()

    def say(self, text: str) -> None:
        self.race.notice = text

    def finish_ready(self) -> bool:
        """Whether f would play every card home, as far as this board shows: every card
        outside the stock face up, and, when the stock is empty too, a way home found."""
        game = self.game
        if game is None or game.finish_ready() is not None:
            return False
        stock = game.rules.stock
        if stock is not None and game.piles[stock]:
            return True  # the stock's cards are not shown here: the server finds the way
        return game.finish_moves() is not None

    def action_help(self) -> None:
        self.app.push_screen(RaceHelpScreen())

    # -- moves: all sent to the server
    def send(self, text: str) -> None:
        self.view.picked = None
        race = self.race
        race.notice = ""
        race.run_worker(race.send_move(text))
        self.refresh_view()

    def submit(self, move: Move) -> None:
        game = self.game
        if game is None:
            return
        src, dst, n = move
        seen = self.race.seen
        # judged here only on face-up cards (those moved and the one they go on, never a
        # stand-in) of a board the server has brought up to date (no move unanswered)
        face_up = (seen is not None and 0 < n <= len(seen.up[src])
                   and (bool(seen.up[dst]) or seen.down[dst] == 0))
        reason = game.refusal(move) if face_up and not self.race.unanswered else None
        if reason is not None:  # refused here, as at the solo table: the cards stay in hand
            self.say(reason)
            self.refresh_view()
            return
        self.send(game.move_text(move))  # the server judges it in the end

    # -- keys: the cursor, picking up and the mouse are HandKeys'
    def action_draw(self) -> None:
        if self.game is None:
            return
        if self.game.rules.draw_move is None:
            self.say(_("this game has no stock"))
            self.refresh_view()
            return
        self.send("draw")

    def action_finish(self) -> None:
        if self.game is not None:
            self.send("finish")

    def action_refuse(self, what: str) -> None:
        said = {"undo": _("no undo in a race"), "redo": _("no redo in a race"), "hints": _("no hints in a race")}
        self.say(said.get(what, what))
        self.refresh_view()


# --------------------------------------------------------------------------- the end


class EndScreen(Screen[None]):
    """The result, the match score and every table (1-4 or left/right choose the table shown)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "show_table(-1)", show=False), Binding("right", "show_table(1)", show=False),
        Binding("1", "pick_table(0)", show=False), Binding("2", "pick_table(1)", show=False),
        Binding("3", "pick_table(2)", show=False), Binding("4", "pick_table(3)", show=False),
        Binding("g", "app.again", _("Again")), Binding("c", "app.change_settings", _("Settings")),
        Binding("q", "app.leave", _("Quit"))]

    def __init__(self) -> None:
        super().__init__()
        app = race_of(self)
        end = app.end or {"tables": []}
        self.games = [revealed(t["position"]) if t.get("position") else None for t in end["tables"]]
        self.shown = next((k for k, t in enumerate(end["tables"]) if t["id"] == app.my_id), 0)

    def compose(self) -> ComposeResult:
        with Horizontal(id="end-body"):
            with Vertical(id="end-side"):
                yield Static(id="end-title")
                yield Static(id="end-text")
                with Horizontal(classes="buttons"):
                    # their keys are on the status line: the labels fit the side panel at 80 columns
                    yield from in_reading_order([Button(for_screen(_("Again")), id="again", variant="primary"),
                                                 Button(for_screen(_("Settings")), id="settings"),
                                                 Button(for_screen(_("Quit")), id="quit")])
            game = self.games[self.shown] if self.games and self.games[self.shown] else None
            if game is not None:
                yield TableView(game, View(), id="end-table")
        yield Static(id="status")

    def on_mount(self) -> None:
        right_aligned(self)
        self.refresh_view()
        focus_reading_first(self)

    def refresh_view(self) -> None:
        app = race_of(self)
        end = app.end or {"tables": [], "score": [], "winners": [], "reason": "", "draw": False}
        self.query_one("#end-title", Static).update(Words().add(wrap(app.headline(), 32), style="bold yellow").text())
        text = Words()
        text.add(wrap(app.reason_text(), 32) + "\n\n")
        label, count = app.measure()
        text.add(wrap(_("Tables (1-4 to see one):"), 32) + "\n", style="bold")
        measure, moves = _(MEASURES[label]), _("moves")  # each over its column of the rows below
        text.add(f"{measure[-24:]:>24}", style="bold").add(f" {moves[:6]:>4}", style="bold").add("\n")
        for k, t in enumerate(end["tables"]):
            style = "bold" if k == self.shown else ""
            result = _(STATES[t["result"]]) if t["result"] in STATES else t["result"]
            mark = ("◀" if reorders() else "▶") if k == self.shown else " "  # it points at the row
            text.add(mark, style=style, raw=True).add(f"{k + 1} ", style=style)
            text.add(f"{t['name'][:10]:10}", style=style).add(f" {result[:6]:6} ", style=style)
            text.add(f"{count(t):3}", style=style).add(f" {t['moves']:4}", style=style).add("\n")
        text.add("\n" + wrap(_("Match: points, won-drawn-lost"), 32) + "\n", style="bold")
        for s in end["score"]:
            points = f"{s['points']:g}"
            text.add(f"  {s['name'][:10]:10}").add(f" {points:>4}").add(f"  {s['wins']}-{s['draws']}-{s['losses']}")
            text.add("\n")
        self.query_one("#end-text", Static).update(text.text())
        for bid in ("again", "settings"):
            self.query_one(f"#{bid}", Button).display = app.is_host
        hint = _("g again, c change settings, q quit") if app.is_host else _("waiting for the host ... q quits")
        self.query_one("#status", Static).update(said(app.notice or hint, style="bold" if app.notice else "dim"))
        shown = self.games[self.shown] if self.games else None
        if shown is not None:
            for view in self.query("#end-table").results(TableView):
                view.game = shown
                view.update_table()

    def action_pick_table(self, k: int) -> None:
        if 0 <= k < len(self.games):
            self.shown = k
            self.refresh_view()

    def action_show_table(self, step: int) -> None:
        if self.games:
            self.action_pick_table((self.shown + step) % len(self.games))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button does what its key does (run_action is a coroutine: awaited, it acts)."""
        actions = {"again": "again", "settings": "change_settings", "quit": "leave"}
        await self.app.run_action(actions[event.button.id or "quit"])


# --------------------------------------------------------------------------- the app


CSS = """
Screen { background: #0b5d1e; }
#status { dock: bottom; height: 1; background: #063814; color: #e8ffe8; padding: 0 1; }
#race-info { dock: top; height: 1; background: #063814; color: #e8ffe8; }
#race-body { height: 1fr; }
#table { width: 1fr; height: 1fr; }
#watching { width: 1fr; padding: 1 2; color: #e8ffe8; }
#progress { width: 24; height: 1fr; background: #063814; color: #e8ffe8; padding: 0 1; }
#lobby { padding: 1 2; height: 1fr; color: #e8ffe8; }
#lobby-title, #lobby-link, #lobby-players { height: auto; margin: 0 0 1 0; }
.buttons { height: auto; }
.buttons Button { margin: 0 1 0 0; min-width: 10; }
#end-body { height: 1fr; }
#end-side { width: 34; padding: 0 1; background: #063814; color: #e8ffe8; }
#end-title { height: auto; margin: 1 0; }
#end-text { height: auto; }
#end-table { width: 1fr; height: 1fr; }
#end-side .buttons Button { min-width: 0; }
ConfirmScreen, SettingsScreen { align: center middle; background: $background 40%; }
.box { width: 64; height: auto; border: round #ffd75f; background: #102a18; padding: 0 1; }
#question { margin: 1 0; }
RaceHelpScreen { align: center middle; background: $background 40%; }
#help { width: 78; height: auto; max-height: 22; border: round #ffd75f; background: #102a18; padding: 0 1; }
"""


@attrs.frozen
class Comeback:
    """A seat this browser left at the table less than 60 s ago, to offer back before joining."""

    name: str  # to join with
    seat: int
    ago: int  # seconds since it was left
    token: str  # its seat token
    connect: dict[str, Any]  # how to connect (the host's own TLS context, on loopback)


class RaceApp(App[None]):
    """One player's (or spectator's) view of a race table, fed by its :class:`RaceClient`."""

    CSS = CSS
    TITLE = "solitaire race"

    def __init__(self, client: RaceClient | None, link: str, *, tick: bool = True, web: str | None = None,
                 web_only: bool = False, comeback: Comeback | None = None) -> None:
        """``client`` None: the app joins itself, first asking whether to take back the seat
        ``comeback`` (a browser's session, whose questions can only be asked on its screen)."""
        super().__init__()
        self.link = link
        self.web = web  # the table's page for browsers (race host --web)
        self.web_only = web_only  # this table runs in a browser: its link is the page's
        self.tick = tick
        self.comeback = comeback
        self.seen: Observation | None = None  # what the player sees of the own table
        self.board: Game | None = None  # the table drawn: ``seen`` with stand-ins face down
        self.end: dict[str, Any] | None = None
        self.offer: dict[str, Any] | None = None  # {"by": name, "seat": seat, "accepted": [seats]}
        self.unanswered = 0  # moves sent that the server has not answered yet
        self.notice = ""
        self.deadline: float | None = None
        self.closed = False
        self.leaving = False  # quit with q: the table is told "left", not "lost the connection"
        self.rejoining = False  # after a dropped connection, while coming back to the seat
        self._rejoined_at: float | None = None
        self.base: Screen[Any] | None = None
        self.client: RaceClient
        self.joined = client is not None
        if client is not None:
            self._sit(client)

    def _sit(self, client: RaceClient) -> None:
        """Take the table as the welcome on ``client`` tells it."""
        self.client = client
        self.joined = True
        welcome = client.welcome
        self.role: str = welcome.get("role", "spectator")
        self.is_host: bool = bool(welcome.get("host"))
        self.table: dict[str, Any] = {k: v for k, v in welcome.items() if k not in ("v", "type", "own")}
        seat = welcome.get("seat")
        self.my_id: int | None = self.table["players"][seat]["id"] if seat is not None else None
        self.own: dict[str, Any] | None = welcome.get("own")
        if self.own:
            self.show_own(self.own["position"])
        self._note_clock(self.table)

    # -- what the screens show
    def show_own(self, position: dict[str, Any]) -> None:
        """Draw the own table from ``position``, as the server sent it."""
        self.seen = observed(position)
        self.board = display_game(self.seen)

    def seconds_left(self) -> float | None:
        if self.deadline is None or self.table.get("state") != "racing":
            return None
        return max(0.0, self.deadline - asyncio.get_running_loop().time())

    def _note_clock(self, fields: dict[str, Any]) -> None:
        if "seconds_left" in fields:
            self.deadline = asyncio.get_running_loop().time() + fields["seconds_left"]

    def me(self) -> dict[str, Any] | None:
        return next((p for p in self.table["players"] if p["id"] == self.my_id), None)

    def me_ready(self) -> bool:
        me = self.me()
        return bool(me and me["ready"])

    def can_start(self) -> bool:
        friends = [p for p in self.table["players"] if not p["host"]]
        return self.is_host and bool(friends) and all(p["ready"] and p["connected"] for p in friends)

    def lobby_hint(self) -> str:
        if self.role == "spectator":
            return _("You are watching: you sit down when the host changes the settings. q quits.")
        if self.is_host:
            return _("s starts when every friend is ready; c settings; q closes the table")
        return _("r when you are ready; the host starts the race. q quits.")

    def measure(self) -> tuple[str, Callable[[dict[str, Any]], int]]:
        """How near a win a player is, as this game's win counts it: cards ``home``, or cards
        ``left`` in the piles it clears (Golf, TriPeaks)."""
        win = self.table.get("win") or {"home": 1, "clear": []}
        if win["clear"] and not win["home"]:
            return "left", lambda p: int(p.get("left", 0))
        return "home", lambda p: int(p.get("home", 0))

    def progress_text(self) -> Text:
        text = Words()
        text.add(_("Players") + "\n", style="bold")
        for p in self.table["players"]:
            mine = p["id"] == self.my_id
            name = _("you") if mine else p["name"]
            text.add(f"{name[:14]:14} ", style="bold" if mine else "")
            status = p["status"] if p.get("connected", True) else "away"
            text.add(f"{_(STATES[status]) if status in STATES else status}",
                     style="green" if status in ("racing", "won") else "yellow").add("\n")
            label, count = self.measure()
            text.add(f" {_(MEASURES[label])} {count(p):2}")
            if (self.table.get("win") or {}).get("hides", True):
                text.add("  " + _("down {n}").format(n=f"{p.get('hidden', 0):2}"))
            text.add("\n " + _("moves {n}").format(n=p.get("moves", 0)) + "\n")
        watching = self.table.get("spectators", 0)
        if watching:
            text.add("\n" + _("watching: {n}").format(n=watching) + "\n", style="dim")
        return text.text()

    def offer_text(self) -> str:
        if self.offer is None:
            return ""
        me = self.me()
        if me is not None and self.offer["seat"] == me["seat"]:  # by seat: names may repeat
            return _("You offered a draw; waiting for the others (n withdraws it).")
        if me is not None and me["seat"] in self.offer["accepted"]:
            return _("You accepted the draw offered; waiting for the others.")
        return _("{name} offers a draw: y accepts, n declines.").format(name=self.offer["by"])

    def headline(self) -> str:
        end = self.end or {}
        seats = [t["id"] for t in end.get("tables", [])]
        winners = [seats[s] for s in end.get("winners", []) if s < len(seats)]
        if end.get("draw"):
            return _("A draw!") if self.my_id in winners else _("A draw between {names}.").format(
                names=self._names(end))
        if self.my_id is not None and self.my_id in seats:
            return _("You won!") if self.my_id in winners else _("You lost.")
        return _("{names} won.").format(names=self._names(end)) if winners else _("Nobody won.")

    def _names(self, end: dict[str, Any]) -> str:
        tables = end.get("tables", [])
        return ", ".join(tables[s]["name"] for s in end.get("winners", []) if s < len(tables)) or _("nobody")

    def reason_text(self) -> str:
        end = self.end or {}
        reason: str = end.get("reason", "")
        return (_(REASONS[reason]) if reason in REASONS else reason).format(winners=self._names(end))

    # -- screens
    def on_mount(self) -> None:
        if not self.joined and self.comeback is not None:
            back = self.comeback
            self.push_screen(ConfirmScreen(_("You left seat {seat} at this table {ago} s ago. Take it back?").format(
                seat=back.seat, ago=back.ago)), self._answered)
            return
        self._begin()

    def _begin(self) -> None:
        self.show_state()
        self.run_worker(self._listen(), exclusive=True, group="listen")
        if self.tick:
            self.set_interval(1.0, self._tick)

    def _answered(self, yes: bool | None) -> None:
        self.run_worker(self._join(bool(yes)))

    async def _join(self, take_back: bool) -> None:
        """Join the table: with the seat token of ``comeback`` if ``take_back`` (one the table
        refuses is said, with its reason, and the app joins as a newcomer), else as a newcomer."""
        back = self.comeback
        assert back is not None
        notice = ""
        client = None
        if take_back:
            try:
                client = await RaceClient.join(self.link, back.name, seat_token=back.token, **back.connect)
            except RaceError as exc:
                notice = _("Could not take the seat back: {reason}").format(reason=exc)
        if client is None:
            try:
                client = await RaceClient.join(self.link, back.name, **back.connect)
            except RaceError as exc:
                self.exit(return_code=2, message=f"solitaire: {exc}")
                return
        self._sit(client)
        self._begin()
        self.notice = notice
        self.refresh_base()

    def _tick(self) -> None:
        if isinstance(self.base, RaceScreen) and self.deadline is not None:
            self.refresh_base()

    def show_state(self) -> None:
        state = self.table.get("state", "lobby")
        if state == "racing":
            kind: type[Screen[Any]] = RaceScreen
        elif state == "ended" and self.end is not None:
            kind = EndScreen
        else:
            kind = LobbyScreen
        if isinstance(self.base, kind):
            self.refresh_base()
            return
        while self.base is not None and self.screen is not self.base and len(self.screen_stack) > 2:
            self.pop_screen()  # a question on top of the old screen no longer applies
        screen = kind()
        if self.base is None:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)
        self.base = screen

    def refresh_base(self) -> None:
        if self.base is not None:
            with contextlib.suppress(NoMatches):  # not composed yet: its on_mount shows the latest state
                self.base.refresh_view()  # type: ignore[attr-defined]

    # -- the connection
    async def _listen(self) -> None:
        while True:
            msg = await self.client.next(timeout=None)  # type: ignore[arg-type]
            if msg is None:
                failed = await self._come_back()
                if failed is None:
                    continue
                self._connection_closed(failed or None)
                return
            self.handle(msg)

    def _connection_closed(self, notice: str | None = None) -> None:
        self.closed = True
        reason = self.client.ws.close_reason  # e.g. "the host (ann) quit"
        closed = _("The table closed the connection: {reason}. q quits.").format(reason=reason) if reason \
            else _("The table closed the connection. q quits.")
        self.notice = notice or closed
        self.refresh_base()

    async def _come_back(self) -> str | None:
        """After a dropped connection (not one the table closed), rejoin the same seat with its
        seat token, trying for as long as the table keeps a seat (60 s). None when back, else
        why not ("" when there was nothing to try). Once back, a second drop within
        REJOIN_SECONDS is not retried (another program holding the same seat token would
        otherwise take the seat back and forth): the notice says how to come back by hand."""
        old = self.client
        token, me = old.seat_token, self.me()
        if token is None or me is None or old.ws.close_code not in (None, 1006):  # 1006: no closing handshake
            return ""
        loop = asyncio.get_running_loop()
        if self._rejoined_at is not None and loop.time() - self._rejoined_at < REJOIN_SECONDS:
            return _("Lost the connection again. q quits; within 60 s, "
                     "solitaire race join {link} --resume {token} takes the seat back.").format(
                link=self.link, token=token)
        self.rejoining = True
        self.notice = _("Lost the connection: coming back to your seat...")
        self.refresh_base()
        give_up = loop.time() + REJOIN_SECONDS
        try:
            while True:
                try:
                    client = await RaceClient.join(self.link, me["name"], seat_token=token)
                    break
                except RaceError as exc:
                    if isinstance(exc, RaceRefused) or loop.time() >= give_up:  # the seat is gone
                        return _("Could not come back: {reason}. q quits.").format(reason=exc)
                except (OSError, WebSocketException) as exc:  # a handshake cut short: try again
                    if loop.time() >= give_up:
                        return _("Could not come back: {reason}. q quits.").format(reason=exc)
                await asyncio.sleep(1.0)
        finally:
            self.rejoining = False
        self.client = client
        self._rejoined_at = loop.time()
        await old.close()
        self.closed = False
        self.offer = None  # an offer made meanwhile was cancelled or answered without us
        self.handle(client.welcome)
        self.notice = _("Back at the table.")
        self.refresh_base()
        return None

    def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        fields = {k: v for k, v in msg.items() if k not in ("v", "type")}
        if kind in ("table", "welcome", "start") or (kind == "ack" and "players" in msg):
            if kind == "welcome":  # seated after a change of settings
                self.client.welcome = msg  # its seat token is the one to come back with
                self.role = msg.get("role", self.role)
                self.is_host = bool(msg.get("host"))
            if kind in ("welcome", "start") and msg.get("seat") is not None:
                self.my_id = msg["players"][msg["seat"]]["id"]
            for key in ("table", "state", "race", "settings", "win", "players", "spectators", "score"):
                if key in fields:
                    self.table[key] = fields[key]
            self._note_clock(fields)
            if kind == "start":
                self.end = None
                self.offer = None
                self.notice = UNCHECKED if fields.get("unchecked") else ""
                self.deadline = self.deadline if "seconds_left" in fields else None
            if "own" in fields:
                self.own = fields["own"]
                self.show_own(fields["own"]["position"])
            if kind == "table" and self.table.get("state") == "lobby":
                self.own = self.board = self.seen = None
                self.end = None
            self.show_state()
            return
        if kind == "reply":
            self.unanswered = max(0, self.unanswered - 1)
            self.own = {k: fields[k] for k in ("position", "score", "moves", "won", "over")}
            self.show_own(fields["position"])
            self.notice = "" if fields.get("ok") else str(fields.get("error"))
        elif kind == "progress":
            for p in self.table["players"]:
                if p["seat"] == msg["seat"]:
                    p.update({k: msg[k] for k in ("status", "home", "left", "hidden", "moves") if k in msg})
        elif kind == "error":
            if msg.get("re") == "move":
                self.unanswered = max(0, self.unanswered - 1)
            self.notice = str(msg.get("error"))
        elif kind == "offer":
            self.offer = {"by": msg["name"], "seat": msg.get("seat"), "accepted": [msg.get("seat")]}
        elif kind == "offer-accepted" and self.offer is not None:
            self.offer["accepted"].append(msg.get("seat"))
        elif kind == "offer-cancelled":
            offer, self.offer = self.offer, None
            me = self.me()
            mine = me is not None and msg.get("seat") == me["seat"]  # by seat: names may repeat
            offerer = offer is not None and offer["seat"] == msg.get("seat")  # took their own back
            name = msg["name"]
            if msg.get("reason") != "declined":
                self.notice = _("the draw offer is off: you moved") if mine else \
                    _("the draw offer is off: {name} moved").format(name=name)
            elif offerer:
                self.notice = _("you withdrew your draw offer") if mine else \
                    _("{name} withdrew the draw offer").format(name=name)
            else:
                self.notice = _("you declined the draw") if mine else _("{name} declined the draw").format(name=name)
        elif kind == "resigned":
            self.notice = (_("{name} resigned") if msg.get("reason") == "resigned" else _("{name} left the race")) \
                .format(name=msg["name"])
        elif kind == "disconnected":
            text = _("{name} left ({seconds} s to come back)") if msg.get("reason") == "left" else \
                _("{name} lost the connection ({seconds} s to come back)")
            self.notice = text.format(name=msg["name"], seconds=f"{msg.get('seconds', 60):g}")
        elif kind == "reconnected":
            me = self.me()
            self.notice = _("Back at the table.") if me and me["seat"] == msg.get("seat") else \
                _("{name} is back").format(name=msg["name"])
        elif kind == "end":
            self.end = fields
            self.offer = None
            self.notice = ""
            self.table["state"] = "ended"
            self.show_state()
            return
        self.refresh_base()

    async def send(self, type_: str, **fields: Any) -> None:
        if self.rejoining:
            self.notice = _("Coming back to your seat: try again in a moment.")
            self.refresh_base()
            return
        if self.closed:
            self._connection_closed()
            return
        try:
            await self.client.send(type_, **fields)
        except ConnectionClosed:
            self._connection_closed()

    async def send_move(self, text: str) -> None:
        self.unanswered += 1
        await self.send("move", move=text)

    # -- actions shared by the screens
    async def action_ready(self) -> None:
        if self.role != "player" or self.is_host:
            return
        await self.send("unready" if self.me_ready() else "ready")

    async def action_start(self) -> None:
        if not self.is_host:
            return
        self.notice = ""
        await self.send("start")

    async def action_again(self) -> None:
        if self.is_host:
            await self.send("again")

    def action_copy_link(self) -> None:
        """Copy the table's link through the terminal (OSC 52: most terminals take it)."""
        self.copy_to_clipboard(self.web if self.web_only and self.web else self.link)
        self.notice = _("copied the link (if the terminal lets programs copy): send it to your friends")
        self.refresh_base()

    def action_change_settings(self) -> None:
        if not self.is_host:
            return

        def apply(flags: str | None) -> None:
            if flags is None:
                return
            try:
                msg = settings_command(shlex.split(flags))
            except ValueError as exc:
                self.notice = str(exc)
                self.refresh_base()
                return
            msg.pop("type")
            self.notice = ""
            self.run_worker(self.send("settings", **msg))

        self.push_screen(SettingsScreen(settings_flags(self.table["settings"])), apply)

    async def action_offer_draw(self) -> None:
        if self.offer is not None:
            self.notice = _("a draw is already offered: y accepts, n declines")
            self.refresh_base()
            return
        await self.send("offer-draw")
        self.notice = ""  # the offer, once the table announces it, says the rest
        self.refresh_base()

    async def action_answer_draw(self, yes: bool) -> None:
        if self.offer is None:
            self.notice = _("no draw is offered (= offers one)")
            self.refresh_base()
            return
        await self.send("accept-draw" if yes else "decline-draw")

    def action_resign(self) -> None:
        def answer(yes: bool | None) -> None:
            if yes:
                self.run_worker(self.send("resign"))

        self.push_screen(ConfirmScreen(_("Resign this race? You lose it; the others race on.")), answer)

    def action_leave(self) -> None:
        racing = self.table.get("state") == "racing" and self.role == "player"
        if self.closed or not (self.is_host or racing):
            self.leaving = True
            self.exit()
            return
        question = (_("Quit? This closes the table for everyone.") if self.is_host else
                    _("Leave the race? After 60 seconds away it counts as resigning."))
        self.push_screen(ConfirmScreen(question), self._leave_if)

    def _leave_if(self, yes: bool | None) -> None:
        if yes:
            self.leaving = True
            self.exit()

    def on_key(self, event: events.Key) -> None:
        replay_escape(self, event)


# --------------------------------------------------------------------------- from the command line


async def race_ui(link: str, name: str, *, host_key: str | None = None, seat_token: str | None = None,
                  via: str | None = None, web: str | None = None, web_only: bool = False,
                  comeback: Comeback | None = None, **connect: Any) -> int:
    client = None
    if comeback is None:
        client = await RaceClient.join(via or link, name, host_key=host_key, seat_token=seat_token, **connect)
    app = RaceApp(client, link, web=web, web_only=web_only, comeback=comeback)
    try:
        await app.run_async()
    finally:
        if app.joined and app.leaving:  # quit with q: the table tells the others "left"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(app.client.leave(), 3)
        if client is not None:
            await client.close()
        if app.joined and app.client is not client:  # joined by the app, or came back after a drop
            await app.client.close()
    if app.return_code:  # could not join (a browser's session asked first): the reason, in one line
        return app.return_code
    if web_only:  # a browser's session: its process ends with the page, nobody reads a notice, but
        if app.joined and not app.closed:  # its next session (its home is the browser's) offers the seat back
            remember_seat(link, app.client)
        return 0
    notice = None if app.closed else leaving_notice(link, app.client)
    if notice is not None:  # how to take the seat back, once the screen is the terminal's again
        print(f"solitaire: {notice}", file=sys.stderr, flush=True)
    return 0


def run_join_ui(link: str, name: str, seat_token: str | None = None, cafile: str | None = None,
                web: str | None = None, comeback: dict[str, Any] | None = None) -> int:
    """``race join``'s table; ``web``: this is a browser's session of ``race host --web`` on the
    host's machine, the page's link shown (the race's own link is the host's loopback one);
    ``comeback`` (``seat``, ``ago``, ``token``): the seat this browser left, offered back."""
    connect: dict[str, Any] = {"cafile": cafile}
    if web is not None and link.rstrip().endswith("&tls=1"):
        from .client import own_connection_context

        connect = {"ssl": own_connection_context()}  # the host's own server, on loopback
    back = None if comeback is None else Comeback(name, int(comeback["seat"]), int(comeback["ago"]),
                                                  str(comeback["token"]), connect)
    return asyncio.run(race_ui(link, name, seat_token=seat_token, web=web, web_only=web is not None,
                               comeback=back, **connect))


def run_host_ui(settings: Any, name: str, port: int, seconds_allowed: bool = False, network: Any = None) -> int:
    from .client import link_for_host, own_connection, web_table

    async def main() -> int:
        async with hosted_table(settings, port, seconds_allowed, network) as (server, table), \
                web_table(server, table, network) as web:
            return await race_ui(server.link(table), name, host_key=table.host_key,
                                 via=link_for_host(server, table), web=web.link() if web else None,
                                 **own_connection(server))

    return asyncio.run(main())
