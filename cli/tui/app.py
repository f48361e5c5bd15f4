"""The full-screen table (Textual): ``solitaire play VARIANT`` on a terminal.

The app owns the interaction state (cursor, cards picked up, hints); the :class:`TableView`
widget draws the game with :mod:`.table` and posts what the mouse did as messages; the game
itself (:class:`solitaire.core.Game`) knows nothing of the UI. Every accepted change goes
through :meth:`SolitaireApp.after_change`, which saves the game and notices a win.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from solitaire.core import Game, Move, Rules, SolitaireError
from solitaire.core.i18n import LANGUAGES, N_, _

from ..bidi import for_screen, for_screen_markup
from ..common import fresh_seed
from ..saves import Tracker
from ..session import Reply, Session
from ..stats import format_time, new_bests
from .controls import Hand
from .table import Geometry, Hit, View, draw, hit_test, pile_at, with_symbols

KEYS_LINE = N_("arrows move  space pick/put  d draw  u undo  r redo  h hint  ? help  q quit")

HELP_TEXT = N_("""\
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
  u, r           undo, redo           h       hint
  n, R           new deal, restart    o       outline where cards may go
                 twice if the game has moves (then a dealt one is lost)
  c              four-colour suits    A       autoplay: safe cards go home
  ?              this help            p       pause (the cards hidden)
  y              copy the share code  q       quit (play resumes the game)
""")


def start_of(game: Game) -> Game:
    """The position this game started from (the deal), with no history."""
    first = game.copy()
    while first.history:
        first.pop()
    first.future = []
    return first


def random_deal(current: Game) -> Game:
    """A new deal under the same rules."""
    return Game.new(current.rules, fresh_seed())


WON_LINE = N_("won — n for a new deal, R to play it again, q to quit")
WON_REFUSAL = N_("the game is won: n for a new deal, R to play it again")
CONFIRM_S = 4.0  # n and R: the second press must come within this many seconds


def share_code(game: Game) -> str:
    from ..sharecode import code_of

    return code_of(game) or _("position")


def fit_header(width: int, title: str, code: str, clock: str, moves: int, score: int, hints: bool) -> Text:
    """The header's line in ``width`` columns. The least important parts go first: the
    variant's title, then "hints on", then wide spacing, then the long labels ("moves 12"
    becomes "12 mv"), then the share code; the time, moves and score always show."""
    forms = [(True, True, True, False, 3), (False, True, True, False, 3), (False, True, False, False, 3),
             (False, True, False, False, 2), (False, True, False, True, 2), (False, False, False, False, 3),
             (False, False, False, True, 2), (False, False, False, True, 1)]
    line = Text()
    for with_title, with_code, with_hints, short, gap in forms:
        sep = " " * gap
        line = Text()
        if with_title:
            line.append(f" {for_screen(title)} ", style="bold")
        else:
            line.append(" ")
        if with_code:
            line.append(code, style="bold cyan")
            line.append(sep)
        line.append(clock)
        labels = ((_("{moves} mv").format(moves=moves), _("{score} pts").format(score=score)) if short
                  else (_("moves {moves}").format(moves=moves), _("score {score}").format(score=score)))
        line.append(sep + for_screen(labels[0]) + sep + for_screen(labels[1]))
        if with_hints and hints:
            line.append(sep + for_screen(_("hints on")), style="yellow")
        if line.cell_len <= width:
            break
    return line


class TableView(Widget):
    """Draws the table; turns mouse clicks and drags into messages for the app."""

    class PileClicked(Message):
        def __init__(self, pile: int, card: int | None, chain: int) -> None:
            super().__init__()
            self.pile, self.card, self.chain = pile, card, chain

    class Dropped(Message):
        def __init__(self, src: int, n: int, dst: int | None) -> None:
            super().__init__()
            self.src, self.n, self.dst = src, n, dst

    DEFAULT_CSS = "TableView { width: 1fr; height: 1fr; }"

    def __init__(self, game: Game, view: View, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.view = view
        self.hits: list[Hit] = []
        self.geo: Geometry | None = None
        self._lines: list[Strip] = []
        self._key: Any = None
        self._press: tuple[int, int, int, int] | None = None  # pile, n, x, y
        self._dragging = False
        self._swallow_click = False

    # -- drawing
    def update_table(self) -> None:
        self._key = None
        self.refresh()

    def _paint(self) -> None:
        size = self.size
        key = (size.width, size.height, id(self.game))
        if key == self._key:
            return
        canvas, self.hits, self.geo = draw(self.game, self.view, size.width, size.height,
                                           self.app.console.color_system, (self.app.size.width, self.app.size.height))
        self._lines = [Strip(segs, size.width) for segs in canvas.lines()]
        self._key = key

    def render_line(self, y: int) -> Strip:
        self._paint()
        if 0 <= y < len(self._lines):
            return self._lines[y]
        return Strip.blank(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        self.update_table()

    def point_of(self, pile: int, card: int | None = None) -> tuple[int, int]:
        """A point inside pile ``pile`` (on card ``card`` if given, else its top): for tests."""
        self._paint()
        found = [h for h in self.hits if h.pile == pile and (card is None or h.card == card)]
        if not found:
            raise LookupError(f"pile {pile} card {card} is not on screen")
        hit = found[-1]
        return (hit.x0 + 1, hit.y0)

    # -- mouse
    def _where(self, event: events.MouseEvent) -> tuple[int, int]:
        return event.x, event.y

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._swallow_click = False
        self._press = None
        x, y = self._where(event)
        hit = hit_test(self.hits, x, y)
        if hit is None or hit.card is None:
            return
        n = len(self.game.piles[hit.pile]) - hit.card
        if self.game.can_pick(hit.pile, n):
            self._press = (hit.pile, n, x, y)
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._press is None:
            return
        pile, n, x0, y0 = self._press
        x, y = self._where(event)
        if not self._dragging and (x, y) == (x0, y0):
            return
        self._dragging = True
        self.view.picked = (pile, n)
        self.view.drag_at = (x - 1, y)
        self.update_table()

    def on_mouse_up(self, event: events.MouseUp) -> None:
        press, self._press = self._press, None
        self.capture_mouse(False)
        if press is None or not self._dragging:
            return
        self._dragging = False
        self._swallow_click = True
        self.view.drag_at = None
        x, y = self._where(event)
        assert self.geo is not None
        dst = pile_at(self.hits, x, y, self.geo, self.game)
        self.post_message(self.Dropped(press[0], press[1], dst))

    def on_click(self, event: events.Click) -> None:
        if self._swallow_click:
            self._swallow_click = False
            return
        x, y = self._where(event)
        hit = hit_test(self.hits, x, y)
        if hit is not None:
            self.post_message(self.PileClicked(hit.pile, hit.card, event.chain))
            return
        if self.geo is not None:
            pile = pile_at(self.hits, x, y, self.geo, self.game)
            if pile is not None:
                self.post_message(self.PileClicked(pile, None, event.chain))


TABLE_BINDINGS: list[Binding | tuple[str, str] | tuple[str, str, str]] = [
    Binding("left", "cursor(-1, 0)", show=False),
    Binding("right", "cursor(1, 0)", show=False),
    Binding("up", "cursor(0, -1)", show=False),
    Binding("down", "cursor(0, 1)", show=False),
    Binding("space,enter", "select", show=False),
    Binding("escape", "let_go", show=False),
    Binding("d,s", "draw", show=False),
    Binding("a", "home", show=False),
    Binding("f", "finish", show=False),
    Binding("c", "toggle_colours", show=False),
]


def replay_escape(app: App[Any], event: events.Key) -> None:
    """A key typed right after escape reaches the app with escape as one key, alt+KEY
    (terminals send both as one sequence): play it as the two keys it was."""
    if event.key.startswith("alt+") and len(event.key) > 4:
        event.stop()
        event.prevent_default()
        key = event.key[4:]
        if key.startswith("shift+") and len(key) == 7:
            key = key[6:].upper()
        app.simulate_key("escape")
        app.simulate_key(key)


class HeaderInfo(Static):
    """The header's line: drawn for the width it has (see :func:`fit_header`)."""

    def render(self) -> Text:
        app = self.app
        return app.header_text(self.size.width) if isinstance(app, SolitaireApp) else Text()


class FinishButton(Static):
    """The header's Finish: a plain clickable label. (Textual's Button would do, but its style
    sheet is larger than the rest of the table's put together, and parsing it would delay the
    first paint; the win screen, shown later, uses real buttons.) Styled in solitaire.tcss."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        app = self.app
        if isinstance(app, SolitaireApp):
            app.action_finish()


class HelpScreen(ModalScreen[None]):
    """The keys and clicks, then the game's rules in words (given ``rules``), scrolled with the
    arrow keys, the page keys or the mouse wheel. q quits here too, as the status line says;
    escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,enter,space", "close", "Close"),
        Binding("q", "app.quit", "Quit")]
    RULES_WIDTH = 72  # the rules' lines, within the help's box (78 wide) and its scroll bar

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        close = _("escape or ? closes this help; q quits")
        with Vertical(id="help"):
            with VerticalScroll(id="help-body"):
                yield Static(for_screen_markup(_(HELP_TEXT)), id="help-text")
                if self.rules is not None:
                    from solitaire.core.explain import rules_text

                    yield Static("[b]" + for_screen(_("Rules")) + "[/b]", id="help-rules-title")
                    lines = rules_text(self.rules, self.RULES_WIDTH).split("\n")  # right to left laid out too
                    yield Static(Text("\n".join(for_screen(line) if line.strip() else line for line in lines)),
                                 id="help-rules")
                    # the table's setting, after the rules (the keys above fill 80x24 already)
                    yield Static("\n" + for_screen(_("  L              the language, kept between runs: {languages}")
                                                     .format(languages=", ".join(LANGUAGES))), id="help-settings")
                    close = _("↑ ↓ scroll to the rules; escape or ? closes this help; q quits")
            yield Static(f"[dim]{for_screen(close)}[/dim]", id="help-close")

    def action_close(self) -> None:
        self.dismiss(None)


class PauseScreen(ModalScreen[None]):
    """The game paused: the clock stopped and the cards hidden (the screen is opaque) until
    p, escape or space; q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p,escape,space,enter", "close", "Go on"), Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        with Vertical(id="pause"):
            paused = _("Paused: the clock is stopped.\n\np (or escape) to go on; q quits (the game is saved).")
            yield Static(for_screen(paused), id="pause-text")

    def action_close(self) -> None:
        self.dismiss(None)


class WinScreen(ModalScreen[str]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New deal"), Binding("R,s", "choose('same')", "Play it again"),
        Binding("q", "choose('quit')", "Quit"), Binding("escape", "choose('close')", "Close")]

    def __init__(self, summary: str) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="win"):
            yield Static(for_screen(_("You won!")), id="win-title")
            yield Static(for_screen(self.summary), id="win-text")
            with Horizontal(id="win-buttons"):
                yield Button(for_screen(_("New deal (n)")), id="new", variant="primary")
                yield Button(for_screen(_("Play it again (R)")), id="same")
                yield Button(for_screen(_("Quit (q)")), id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class HandKeys:
    """The keys and mouse events a table passes straight to its :class:`Hand`, for the solo
    table and the race screen alike; each host has its own ``hand`` and ``action_draw``."""

    hand: Hand

    def action_cursor(self, dx: int, dy: int) -> None:
        self.hand.move_cursor(dx, dy)

    def action_select(self) -> None:
        self.hand.select()

    def action_let_go(self) -> None:
        self.hand.let_go()

    def action_home(self) -> None:
        self.hand.home()

    def action_toggle_colours(self) -> None:
        self.hand.toggle_colours()

    def on_table_view_pile_clicked(self, event: TableView.PileClicked) -> None:
        self.hand.clicked(event.pile, event.card, event.chain)

    def on_table_view_dropped(self, event: TableView.Dropped) -> None:
        self.hand.dropped(event.src, event.n, event.dst)

    def turn_stock(self) -> None:
        self.action_draw()

    def action_draw(self) -> None:
        raise NotImplementedError  # each host draws in its own way


class SolitaireApp(HandKeys, App[None]):
    CSS_PATH = "solitaire.tcss"
    TITLE = "solitaire"
    BINDINGS: ClassVar[list[BindingType]] = [
        *TABLE_BINDINGS,
        Binding("u,ctrl+z", "undo", show=False),
        Binding("r,ctrl+y", "redo", show=False),
        Binding("h", "hint", show=False),
        Binding("o", "toggle_outline", show=False),
        Binding("A", "toggle_autoplay", show=False),
        Binding("n", "new_deal", show=False),
        Binding("R", "restart", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("p", "pause", show=False),
        Binding("y", "copy_code", show=False),
        Binding("L", "language", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, tracker: Tracker, *, outline: bool = False, four_colour: bool = False,
                 autoplay: bool = False, tick: bool = True, clock: Callable[[], float] = time.monotonic,
                 finish_delay: float = 0.06, finish_ticks: Callable[[float, Callable[[], None]], Any] | None = None,
                 next_deal: Callable[[Game], Game] | None = None, notice: str | None = None,
                 deal_notice: Callable[[Game], str | None] | None = None) -> None:
        """``notice``: a message for the status line when the table opens (e.g. that a save
        could not be read), which would be hidden if printed before the full screen;
        ``deal_notice``: what to say of a deal ``next_deal`` gave (None: nothing);
        ``finish_ticks(delay, step)``: what calls ``step`` every ``delay`` seconds while Finish
        plays the cards home, returning a timer with ``stop()`` (Textual's ``set_interval`` by
        default; tests give one they tick by hand)."""
        super().__init__()
        self.next_deal = next_deal or random_deal
        self.deal_notice = deal_notice
        self.tracker = tracker
        self.outline = outline
        self.tick = tick
        self.finish_delay = finish_delay
        self.finish_ticks = finish_ticks
        self.view = View(four_colour=four_colour)
        game = tracker.game
        if notice is None and game.history:  # a saved game opened again: say so
            notice = _("your saved game, resumed at move {moves}: n deals a new one").format(moves=game.moves)
        self.message = notice or ""
        self._finishing: list[Move] = []
        self._finish_known: tuple[Any, bool] | None = None  # (position, whether finish plays it out)
        self._finish_timer: Any = None
        self.won_summary: str | None = None
        self.clock = clock  # for the time a second n or R may take (tests use a fake one)
        self.autoplay = autoplay  # cards safe to send home go by themselves after each move
        self.session = Session(tracker.game, tracker, autoplay=autoplay)  # every change of the game goes through it
        self.hand = Hand(self, self.view)  # the cursor and the cards in hand
        # the hint being worked out; any change of the game drops it (_drop_hint)
        self._hint: Worker[Any] | None = None
        self._confirm: tuple[str, float, str] | None = None  # n or R pressed once: key, when, message

    @property
    def game(self) -> Game:
        return self.session.game

    def table_game(self) -> Game:
        return self.session.game

    # -- layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="header"):
            yield HeaderInfo(id="info")
            yield FinishButton(_("Finish"), id="finish")
        yield TableView(self.game, self.view, id="table")
        yield Static(id="status")

    def on_mount(self) -> None:
        rules = self.game.rules
        self.view.cursor = rules.draw_targets[0] if rules.draw_targets else 0
        if rules.stock is not None:
            self.view.cursor = rules.stock
        if self.tick:
            self.set_interval(1.0, self.refresh_header)
        self.refresh_view()
        if not gc.isenabled():  # `solitaire play` paused the collector for the start-up
            self.call_after_refresh(_collect_again)

    @property
    def table(self) -> TableView:
        return self.query_one(TableView)

    def refresh_header(self) -> None:
        self.query_one("#info", HeaderInfo).refresh()

    def header_text(self, width: int) -> Text:
        game = self.game
        code = _("deal #{number}").format(number=game.seed) if game.numbering is not None \
            else share_code(game)  # Microsoft's deal N
        return fit_header(width, game.rules.variant.local_title(), code, format_time(self.tracker.elapsed()),
                          game.moves, game.score, self.outline)

    def refresh_view(self) -> None:
        game = self.game
        view = self.view
        if view.picked is not None and self.outline:
            view.outlined = self.hand.destinations()
        elif view.picked is None:
            view.outlined = frozenset()
        self.refresh_header()
        ready = self.finish_available()
        self.query_one("#finish", FinishButton).display = ready
        status = _("playing every card home ...") if self._finishing else self.message
        if not status:
            if game.won:
                status = _(WON_LINE)
            elif ready:
                status = _("Every card can go home: press f (or Finish) to play them all there.")
            elif not game.won and game.over:
                status = _("No moves are left: u to undo, R to restart, n for a new deal.")
            else:
                status = _(KEYS_LINE)
        bold = bool(self.message or self._finishing)
        self.query_one("#status", Static).update(Text(for_screen(status), style="bold" if bold else "dim"))
        table = self.table
        table.game = game
        table.update_table()

    def say(self, message: str) -> None:
        """Set the status line's message; its cards are spelled with symbols, as the table shows them."""
        self.message = with_symbols(message)

    def finish_available(self) -> bool:
        """Whether f would play every card home from here (worked out once per position: the
        status line asks at every refresh)."""
        game = self.game
        if self._finishing or game.won or game.finish_ready() is not None:
            return False
        key = (id(game), game.key())
        if self._finish_known is None or self._finish_known[0] != key:
            self._finish_known = (key, game.finish_moves() is not None)
        return self._finish_known[1]

    # -- playing: every change goes through the session
    def answer(self, reply: Reply) -> bool:
        """Show what the session answered: a refusal in the status line (the cards stay in
        hand), or the change made."""
        if not reply.ok:
            if reply.won_final:  # a win is final (it has been recorded), even where a card could come back
                self.view.picked = None
            self.say(_(WON_REFUSAL) if reply.won_final else reply.error or "")
            self.refresh_view()
            return False
        self.view.picked = None
        self.say("")
        self.after_change()
        return True

    def submit(self, move: Move) -> None:
        self.answer(self.session.move(move))

    def locked(self) -> bool:
        """Finish is playing the cards home: nothing else acts on the game meanwhile."""
        return bool(self._finishing)

    def after_change(self) -> None:
        self._drop_hint()
        self._cancel_confirm()
        self.refresh_view()
        if self.game.won and not self._finishing:
            self.show_win()

    def show_win(self) -> None:
        game = self.game
        lines = [_("Time   {time}").format(time=format_time(self.tracker.elapsed())),
                 _("Moves  {moves}").format(moves=game.moves), _("Score  {score}").format(score=game.score)]
        result = self.tracker.last_result
        if result is not None:
            bests = new_bests(result)
            after = result["after"]
            best = {"time": _("time"), "moves": _("moves"), "score": _("score")}
            lines.append(_("New best: {bests}!").format(bests=", ".join(best[b] for b in bests)) if bests
                         else _("No new best this time."))
            lines.append(_("Won {won} of {played}; streak {streak}").format(
                won=after["won"], played=after["played"], streak=after["streak"]))
        else:
            lines.append(_("A position, not a deal: not counted."))
        self.won_summary = "\n".join(lines)
        self.push_screen(WinScreen(self.won_summary), self._after_win)

    def _after_win(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_deal()
        elif choice == "same":
            self.action_restart()
        elif choice == "quit":
            self.exit()
        else:  # escape: the won table stays, and the status line says what next
            self.say("")
            self.refresh_view()

    # -- actions (keys): the cursor, picking up and the mouse are HandKeys'
    def action_draw(self) -> None:
        if self.locked():
            return
        self.view.picked = None
        self.answer(self.session.draw())

    def action_undo(self) -> None:
        if not self.locked():
            self.view.picked = None
            self.answer(self.session.undo())

    def action_redo(self) -> None:
        if not self.locked():
            self.view.picked = None
            self.answer(self.session.redo())

    def action_hint(self) -> None:
        """The solver's hint, as the line mode and the JSON protocol give it: a fraction of a
        second in the compiled core (which lets go of Python's lock while it searches), seconds
        in the Python engine, so a thread works it out on a copy of the game while the table
        stays live; a change of the game meanwhile makes it out of date, and it is dropped."""
        if self.locked():
            return
        game = self.game.copy()
        worker = self.run_worker(lambda: _think(game), thread=True, exclusive=True, group="hint",
                                 exit_on_error=False)
        self._hint = worker
        self.say(_("hint: thinking…"))
        self.refresh_view()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._hint:  # an answer dropped by a change of the game
            return
        if event.state == WorkerState.ERROR:
            self._hint = None
            self.say(_("hint: none ({reason})").format(reason=event.worker.error))
            self.refresh_view()
            return
        if event.state != WorkerState.SUCCESS:
            return
        self._hint = None
        text = event.worker.result
        if text is None:
            self.say(_("hint: no useful move"))
        else:
            self.say(_("hint: {move}").format(move=text))
            try:
                src, dst, n = self.game.parse_move(text)
            except SolitaireError:
                src, dst, n = -1, -1, -1
            if n == 0 and self.game.rules.stock is not None and self.view.picked is None:
                self.view.cursor = self.game.rules.stock  # "draw": space (or a click) does it
            if n > 0 and self.view.picked is None:  # pick up the hinted cards, unless some are in hand
                self.view.picked = (src, n)
                self.hand.flexible = False
                self.view.cursor = dst
        self.refresh_view()

    def action_toggle_outline(self) -> None:
        self.outline = not self.outline
        self.say(_("hints on: the piles the picked-up cards may go to are outlined") if self.outline
                 else _("hints off"))
        self.refresh_view()

    def action_copy_code(self) -> None:
        """Copy the share code to the clipboard through the terminal (OSC 52: most terminals
        take it; some, like macOS Terminal, ignore it)."""
        code = share_code(self.game)
        self.copy_to_clipboard(code)
        self.say(_("copied {code} (if the terminal lets programs copy)").format(code=code))
        self.refresh_view()

    def action_language(self) -> None:
        """L: speak the next language (after the last, the locale's again), kept between runs
        (:mod:`solitaire.cli.settings`); ``--lang`` still overrides it for one run."""
        from solitaire.core.i18n import language, set_language

        from ..settings import NATIVE_NAMES, keep_language, kept_language, next_language

        code = next_language(kept_language() or language())
        try:
            keep_language(code)
        except OSError as exc:
            self.say(_("the language could not be kept: {reason}").format(reason=exc.strerror or exc))
            self.refresh_view()
            return
        name = NATIVE_NAMES[set_language(code)]
        self.say(_("language: {name}, kept for the next runs (L: the next one)").format(name=name) if code
                 else _("language: the locale's, {name} (L: the next one)").format(name=name))
        self.refresh_view()

    def goodbye(self) -> str | None:
        """The line to print once the table has closed: where the game went."""
        game = self.game
        if game.won or not self.tracker.enabled:
            return None
        return _("your game is saved: 'solitaire play {game}' resumes it").format(game=game.rules.name)

    def action_toggle_autoplay(self) -> None:
        """Autoplay on or off: when on, the cards safe to send home go there after each move
        and draw (and at once, when turned on)."""
        if self.locked():
            return
        self.autoplay = self.session.autoplay = not self.autoplay
        if not self.autoplay:
            self.say(_("autoplay off"))
            self.refresh_view()
            return
        reply = self.session.safe_home() if not self.game.won else None
        self.say(_("autoplay on: cards safe to send home go there by themselves"))
        if reply is not None and reply.records:
            self.after_change()
        else:
            self.refresh_view()

    def action_finish(self) -> None:
        if self.locked():
            return
        plan = self.session.finish_plan()
        if isinstance(plan, Reply):
            self.answer(plan)
            return
        self.view.picked = None
        self._finishing = plan
        self.say("")
        self._finish_timer = (self.finish_ticks or self.set_interval)(self.finish_delay, self._finish_step)

    def _finish_step(self) -> None:
        if not self._finishing:
            return
        if not self.session.move(self._finishing.pop(0), autoplay=False).ok:
            self._finishing = []
        if not self._finishing:
            if self._finish_timer is not None:
                self._finish_timer.stop()
            self.say("")
        self.after_change()

    def _start(self, game: Game, dealt: bool) -> None:
        self.tracker.abandon()
        self.tracker = self.tracker.successor(game, dealt=dealt)  # its slot: see saves.Tracker.successor
        self.tracker.begin()  # saved before its first move, as `play` saves a new deal
        self.session = Session(game, self.tracker, autoplay=self.autoplay)
        self.view.picked = None
        self._finishing = []
        if self._finish_timer is not None:
            self._finish_timer.stop()
            self._finish_timer = None
        self._drop_hint()
        self._confirm = None
        self.say("")
        self.refresh_view()

    def _drop_hint(self) -> None:
        """The game changed: a hint still being worked out is out of date, so its thread stops
        (at the solver's next guess) rather than compete with the table for the interpreter."""
        if self._hint is not None:
            self._hint = None
            self.workers.cancel_group(self, "hint")

    def _confirmed(self, key: str, question: str) -> bool:
        """Whether to leave this game now. At once when it has no moves or is won; otherwise
        the first press of ``key`` only asks (``question``: one slip would cost a game, counted
        as lost), and a second press of it, with nothing else between, within CONFIRM_S seconds, does it."""
        game = self.game
        if not game.history or game.won:
            return True
        now = self.clock()
        pending = self._confirm
        if pending is not None and pending[0] == key and now - pending[1] <= CONFIRM_S:
            self._confirm = None
            return True
        lost = _("; this game counts as lost") if self.tracker.dealt and self.tracker.enabled else ""
        message = question.format(key=key) + lost
        pending = self._confirm = (key, now, message)
        self.say(message)
        self.refresh_view()
        self.set_timer(CONFIRM_S, self.lapse_confirm)
        return False

    def lapse_confirm(self) -> None:
        """When the time for a second n or R is up (by :attr:`clock`), the question goes from
        the status line; a timer calls this CONFIRM_S seconds after the first press."""
        pending = self._confirm
        if pending is None:
            return
        left = CONFIRM_S - (self.clock() - pending[1])
        if left < 0:
            self._cancel_confirm()
        else:  # a timer a hair early: look again when the time is up
            self.set_timer(max(left, 0.05), self.lapse_confirm)

    def _cancel_confirm(self) -> None:
        """Anything else done after a first n or R: the question lapses."""
        pending, self._confirm = self._confirm, None
        if pending is not None and self.message == pending[2]:
            self.say("")
            self.refresh_view()

    def action_new_deal(self) -> None:
        if not self.locked() and self._confirmed("n", _("press {key} again for a new deal")):
            game = self.next_deal(self.game)
            self._start(game, dealt=True)
            notice = self.deal_notice(game) if self.deal_notice is not None else None
            if notice:  # e.g. a deal the solver did not win in time
                self.say(notice)
                self.refresh_view()

    def action_restart(self) -> None:
        if not self.locked() and self._confirmed("R", _("press {key} again to restart this deal")):
            self._start(start_of(self.game), dealt=self.tracker.dealt)

    def action_help(self) -> None:
        """The help, with the clock stopped while it shows."""
        self._paused(HelpScreen(self.game.rules))

    def action_pause(self) -> None:
        self._paused(PauseScreen())

    def _paused(self, screen: ModalScreen[None]) -> None:
        tracker = self.tracker
        tracker.pause()
        self.push_screen(screen, lambda _: tracker.resume())

    def on_key(self, event: events.Key) -> None:
        if self._confirm is not None and event.key != self._confirm[0]:
            self._cancel_confirm()
        replay_escape(self, event)

    @on(TableView.PileClicked)
    @on(TableView.Dropped)
    def _mouse_played(self) -> None:
        """A click or a drop (handled then by TableControls): a first n or R lapses."""
        self._cancel_confirm()


def _think(game: Game) -> str | None:
    """The solver's hint for ``game`` (a copy: this runs in a thread). It stops early when the
    worker is cancelled (a newer hint, or the program quitting, which waits for its threads)."""
    from textual.worker import get_current_worker

    worker = get_current_worker()
    return Session(game).hint(stop=lambda: worker.is_cancelled).hint


def _collect_again() -> None:
    """After the first frame: the objects of the start-up (modules, style sheets, tables) live
    as long as the program, so they leave the collector's generations for good (``freeze``),
    and later collections, while playing, only look at what play makes."""
    gc.freeze()
    gc.enable()


def run_table(tracker: Tracker, *, four_colour: bool = False, outline: bool = False,
              next_deal: Callable[[Game], Game] | None = None, notice: str | None = None,
              deal_notice: Callable[[Game], str | None] | None = None) -> None:
    """Open the table on this terminal and play until the player quits; ``notice`` shows in
    the status line as it opens, ``deal_notice`` of each new deal."""
    app = SolitaireApp(tracker, four_colour=four_colour, outline=outline, next_deal=next_deal, notice=notice,
                       deal_notice=deal_notice)
    app.run()
    said = app.goodbye()
    if said is not None:
        print(f"solitaire: {said}", file=sys.stderr)
