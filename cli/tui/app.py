"""The full-screen table (Textual): ``solitaire play VARIANT`` on a terminal.

The app owns the interaction state (cursor, cards picked up, hints); the :class:`TableView`
widget draws the game with :mod:`.table` and posts what the mouse did as messages; the game
itself (:class:`solitaire.core.Game`) knows nothing of the UI. Every accepted change goes
through :meth:`SolitaireApp.after_change`, which saves the game and notices a win.
"""

from __future__ import annotations

import gc
import time
from typing import Any, Callable

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from solitaire.core import Game, SolitaireError

from ..common import fresh_seed
from ..saves import Tracker
from ..stats import format_time, new_bests
from .table import Geometry, Hit, View, draw, hit_test, movable, pile_at

KEYS_LINE = "arrows move  space pick/put  d draw  u undo  r redo  h hint  ? help  q quit"

HELP_TEXT = """\
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
  c              four-colour suits    ?       this help
  q              quit (the game is saved: play resumes it)
"""


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


WON_LINE = "won — n for a new deal, R to play it again, q to quit"
WON_REFUSAL = "the game is won: n for a new deal, R to play it again"
CONFIRM_S = 4.0  # n and R: the second press must come within this many seconds


def share_code(game: Game) -> str:
    from ..sharecode import code_of

    return code_of(game) or "position"


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
            line.append(f" {title} ", style="bold")
        else:
            line.append(" ")
        if with_code:
            line.append(code, style="bold cyan")
            line.append(sep)
        line.append(clock)
        line.append(sep + (f"{moves} mv{sep}{score} pts" if short else f"moves {moves}{sep}score {score}"))
        if with_hints and hints:
            line.append(f"{sep}hints on", style="yellow")
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
                                           self.app.console.color_system, tuple(self.app.size))
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
        if movable(self.game, hit.pile, n):
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


TABLE_BINDINGS = [
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


class TableControls:
    """Picking up and putting down cards with the mouse and keys, around a :class:`TableView`:
    shared by :class:`SolitaireApp` and the race's table screen, which differ in how a move is
    made (:meth:`submit`: played here, or sent to the race server) and in ``action_draw`` and
    ``action_finish``. The host class has ``game`` (None: no table to play), ``view`` (a
    :class:`View`), ``flexible``, ``say`` (sets the status line) and ``refresh_view``."""

    view: View
    flexible: bool

    def submit(self, move: tuple[int, int, int]) -> None:
        """Make a move the player chose (it may still be refused)."""
        raise NotImplementedError

    def locked(self) -> bool:
        """No picking up or putting down now."""
        return self.game is None  # type: ignore[attr-defined]

    def pick(self, pile: int, n: int, flexible: bool = False) -> None:
        """Pick up the top ``n`` cards of ``pile``; ``flexible``: the keyboard's pick-up, which
        may put down fewer of them (as many as fit where they go)."""
        game: Game = self.game  # type: ignore[attr-defined]
        self.flexible = flexible
        if movable(game, pile, n):
            self.view.picked = (pile, n)
            self.say("")
        elif not game.piles[pile]:
            self.say(f"{game.rules.names[pile]} is empty")
        else:  # the kernel's reason, as the line mode gives it
            self.say(game.pick_refusal(pile, n) or f"cannot pick up {'that card' if n == 1 else f'those {n} cards'} "
                     f"from {game.rules.names[pile]}")
        self.refresh_view()

    def put(self, dst: int, flexible: bool = False) -> None:
        """Put the picked-up cards on ``dst``; ``flexible`` tries fewer cards if all do not fit."""
        game: Game = self.game  # type: ignore[attr-defined]
        assert self.view.picked is not None
        src, n = self.view.picked
        if dst == src:
            self.view.picked = None
            self.say("")
            self.refresh_view()
            return
        if flexible:
            n = next((k for k in range(n, 0, -1) if game.refusal((src, dst, k)) is None), n)
        self.submit((src, dst, n))

    def send_home(self, pile: int) -> None:
        if self.locked():
            return
        game: Game = self.game  # type: ignore[attr-defined]
        self.view.picked = None
        for f in game.rules.foundations:
            if game.refusal((pile, f, 1)) is None:
                self.submit((pile, f, 1))
                return
        self.say("no foundation takes that card" if game.piles[pile] else f"{game.rules.names[pile]} is empty")
        self.refresh_view()

    def on_table_view_pile_clicked(self, event: TableView.PileClicked) -> None:
        if self.locked():
            return
        game: Game = self.game  # type: ignore[attr-defined]
        pile = event.pile
        self.view.cursor = pile
        if game.rules.role[pile] == "stock":  # every click draws, quick ones too
            if self.view.picked is not None:
                self.view.picked = None
                self.refresh_view()
            else:
                self.action_draw()  # type: ignore[attr-defined]
        elif event.chain >= 2 and event.card is not None and event.card == len(game.piles[pile]) - 1:
            # a double-click sends the card clicked home: only the top card can go
            self.send_home(pile)
        elif self.view.picked is not None:
            self.put(pile)
        elif event.card is None:
            self.refresh_view()
        else:
            self.pick(pile, len(game.piles[pile]) - event.card)

    def on_table_view_dropped(self, event: TableView.Dropped) -> None:
        self.view.picked = (event.src, event.n)
        if self.locked() or event.dst is None or event.dst == event.src:
            self.view.picked = None
            self.refresh_view()
            return
        self.view.cursor = event.dst
        self.put(event.dst)
        if self.view.picked is not None:  # not put down: let go
            self.view.picked = None
            self.refresh_view()

    # -- keys
    def action_cursor(self, dx: int, dy: int) -> None:
        game: Game | None = self.game  # type: ignore[attr-defined]
        if game is None:
            return
        rules = game.rules
        grid = [[rules.index[n] if n is not None else -1 for n in row] for row in rules.spec.layout]
        cur = self.view.cursor if self.view.cursor is not None else 0
        r, c = next(((r, row.index(cur)) for r, row in enumerate(grid) if cur in row), (0, 0))
        if dx:
            cells = [k for k, v in enumerate(grid[r]) if v >= 0]
            pos = cells.index(c) if c in cells else 0
            c = cells[(pos + dx) % len(cells)]
        if dy:
            r = (r + dy) % len(grid)
            cells = [k for k, v in enumerate(grid[r]) if v >= 0]
            c = min(cells, key=lambda k: (abs(k - c), k))
        self.view.cursor = grid[r][c]
        self.say("")
        self.refresh_view()

    def action_select(self) -> None:
        cur = self.view.cursor
        if self.locked() or cur is None:
            return
        game: Game = self.game  # type: ignore[attr-defined]
        if self.view.picked is not None and game.rules.role[cur] == "stock":
            self.action_let_go()  # as a click on the stock does: the stock takes no cards
            return
        if self.view.picked is not None:
            self.put(cur, flexible=self.flexible)
            return
        if game.rules.role[cur] == "stock":
            self.action_draw()  # type: ignore[attr-defined]
            return
        up = len(game.piles[cur]) - game.down[cur]
        for n in range(up, 0, -1):
            if movable(game, cur, n):
                self.pick(cur, n, flexible=True)
                return
        self.pick(cur, 1)

    def action_let_go(self) -> None:
        self.view.picked = None
        self.say("")
        self.refresh_view()

    def action_home(self) -> None:
        if self.game is not None and self.view.cursor is not None:  # type: ignore[attr-defined]
            self.send_home(self.view.cursor)

    def action_toggle_colours(self) -> None:
        self.view.four_colour = not self.view.four_colour
        self.say("four colours: clubs green, diamonds blue" if self.view.four_colour else "two colours: red and black")
        self.refresh_view()

    def say(self, message: str) -> None:
        raise NotImplementedError

    def refresh_view(self) -> None:
        raise NotImplementedError


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
        return self.app.header_text(self.size.width)  # type: ignore[attr-defined, no-any-return]


class FinishButton(Static):
    """The header's Finish: a plain clickable label. (Textual's Button would do, but its style
    sheet is larger than the rest of the table's put together, and parsing it would delay the
    first paint; the win screen, shown later, uses real buttons.) Styled in solitaire.tcss."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.app.action_finish()  # type: ignore[attr-defined]


class HelpScreen(ModalScreen[None]):
    """The keys and clicks. q quits here too, as the status line says; escape closes."""

    BINDINGS = [Binding("escape,question_mark,f1,enter,space", "close", "Close"),
                Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            yield Static(HELP_TEXT, id="help-text")
            yield Static("[dim]escape or ? closes this help; q quits[/dim]", id="help-close")

    def action_close(self) -> None:
        self.dismiss(None)


class WinScreen(ModalScreen[str]):
    BINDINGS = [Binding("n", "choose('new')", "New deal"), Binding("s", "choose('same')", "Same deal"),
                Binding("q", "choose('quit')", "Quit"), Binding("escape", "choose('close')", "Close")]

    def __init__(self, summary: str) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="win"):
            yield Static("You won!", id="win-title")
            yield Static(self.summary, id="win-text")
            with Horizontal(id="win-buttons"):
                yield Button("New deal (n)", id="new", variant="primary")
                yield Button("Same deal (s)", id="same")
                yield Button("Quit (q)", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class SolitaireApp(TableControls, App[None]):
    CSS_PATH = "solitaire.tcss"
    TITLE = "solitaire"
    BINDINGS = TABLE_BINDINGS + [
        Binding("u,ctrl+z", "undo", show=False),
        Binding("r,ctrl+y", "redo", show=False),
        Binding("h", "hint", show=False),
        Binding("o", "toggle_outline", show=False),
        Binding("n", "new_deal", show=False),
        Binding("R", "restart", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, tracker: Tracker, *, outline: bool = False, four_colour: bool = False,
                 tick: bool = True, finish_delay: float = 0.06,
                 next_deal: Callable[[Game], Game] | None = None, notice: str | None = None) -> None:
        """``notice``: a message for the status line when the table opens (e.g. that a save
        could not be read), which would be hidden if printed before the full screen."""
        super().__init__()
        self.next_deal = next_deal or random_deal
        self.tracker = tracker
        self.outline = outline
        self.tick = tick
        self.finish_delay = finish_delay
        self.view = View(four_colour=four_colour)
        self.message = notice or ""
        self._finishing: list[Any] = []
        self._finish_timer: Any = None
        self.won_summary: str | None = None
        self.flexible = False  # the cards in hand were picked up by key: put down as many as fit
        # the hint being worked out; any change of the game drops it (_drop_hint)
        self._hint: Worker[Any] | None = None
        self._confirm: tuple[str, float, str] | None = None  # n or R pressed once: key, when, message

    @property
    def game(self) -> Game:
        return self.tracker.game

    # -- layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="header"):
            yield HeaderInfo(id="info")
            yield FinishButton("Finish", id="finish")
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
        return fit_header(width, game.rules.variant.title, share_code(game), format_time(self.tracker.elapsed()),
                          game.moves, game.score, self.outline)

    def refresh_view(self) -> None:
        game = self.game
        view = self.view
        if view.picked is not None and self.outline:
            src, n = view.picked
            counts = range(1, n + 1) if self.flexible else (n,)
            view.outlined = frozenset(d for d in range(game.rules.count)
                                      if d != src and any(game.refusal((src, d, k)) is None for k in counts))
        elif view.picked is None:
            view.outlined = frozenset()
        self.refresh_header()
        ready = self.finish_available()
        self.query_one("#finish", FinishButton).display = ready
        status = "playing every card home ..." if self._finishing else self.message
        if not status:
            if game.won:
                status = WON_LINE
            elif ready:
                status = "Every card is face up: press f (or Finish) to play them home."
            elif not game.won and game.over:
                status = "No moves are left: u to undo, R to restart, n for a new deal."
            else:
                status = KEYS_LINE
        bold = bool(self.message or self._finishing)
        self.query_one("#status", Static).update(Text(status, style="bold" if bold else "dim"))
        table = self.table
        table.game = game
        table.update_table()

    def say(self, message: str) -> None:
        self.message = message

    def finish_available(self) -> bool:
        game = self.game
        return (not self._finishing and not game.won and game.finish_ready() is None
                and game.finish_moves() is not None)

    # -- playing
    def play(self, move: tuple[int, int, int]) -> bool:
        if self.game.won:  # a win is final (it has been recorded), even where a card could come back
            self.view.picked = None
            self.say(WON_REFUSAL)
            self.refresh_view()
            return False
        try:
            self.game.play(move)
        except SolitaireError as exc:
            self.say(str(exc))
            self.refresh_view()
            return False
        self.view.picked = None
        self.after_change()
        return True

    def submit(self, move: tuple[int, int, int]) -> None:
        reason = self.game.refusal(move)
        if reason is not None:
            self.say(reason)
            self.refresh_view()
            return
        self.say("")
        self.play(move)

    def locked(self) -> bool:
        """Finish is playing the cards home: nothing else acts on the game meanwhile."""
        return bool(self._finishing)

    def after_change(self) -> None:
        self._drop_hint()
        self._cancel_confirm()
        self.tracker.changed()
        self.refresh_view()
        if self.game.won and not self._finishing:
            self.show_win()

    def show_win(self) -> None:
        game = self.game
        lines = [f"Time   {format_time(self.tracker.elapsed())}", f"Moves  {game.moves}", f"Score  {game.score}"]
        result = self.tracker.last_result
        if result is not None:
            bests = new_bests(result)
            after = result["after"]
            lines.append("New best: " + ", ".join(bests) + "!" if bests else "No new best this time.")
            lines.append(f"Won {after['won']} of {after['played']}; streak {after['streak']}")
        else:
            lines.append("A position, not a deal: not counted.")
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

    # -- actions (keys)
    def action_draw(self) -> None:
        if self.locked():
            return
        move = self.game.rules.draw_move
        self.view.picked = None
        if move is None:
            self.say("this game has no stock")
            self.refresh_view()
            return
        self.say("")
        self.play(move)

    def action_undo(self) -> None:
        self._plain(self.game.undo)

    def action_redo(self) -> None:
        self._plain(self.game.redo)

    def _plain(self, fn: Any) -> None:
        if self.locked():
            return
        self.view.picked = None
        if self.game.won:  # a win is final: it has been recorded
            self.say(WON_REFUSAL)
            self.refresh_view()
            return
        try:
            fn()
        except SolitaireError as exc:
            self.say(str(exc))
            self.refresh_view()
            return
        self.say("")
        self.after_change()

    def action_hint(self) -> None:
        """The solver's hint, as the line mode and the JSON protocol give it: it takes a second
        or more, so a thread works it out on a copy of the game while the table stays live;
        a change of the game meanwhile makes it out of date, and it is dropped."""
        if self.locked():
            return
        game = self.game.copy()
        worker = self.run_worker(lambda: _think(game), thread=True, exclusive=True, group="hint",
                                 exit_on_error=False)
        self._hint = worker
        self.say("hint: thinking…")
        self.refresh_view()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._hint:  # an answer dropped by a change of the game
            return
        if event.state == WorkerState.ERROR:
            self._hint = None
            self.say(f"hint: none ({event.worker.error})")
            self.refresh_view()
            return
        if event.state != WorkerState.SUCCESS:
            return
        self._hint = None
        text = event.worker.result
        if text is None:
            self.say("hint: no useful move")
        else:
            self.say(f"hint: {text}")
            try:
                src, dst, n = self.game.parse_move(text)
            except SolitaireError:
                src, dst, n = -1, -1, -1
            if n == 0 and self.game.rules.stock is not None and self.view.picked is None:
                self.view.cursor = self.game.rules.stock  # "draw": space (or a click) does it
            if n > 0 and self.view.picked is None:  # pick up the hinted cards, unless some are in hand
                self.view.picked = (src, n)
                self.flexible = False
                self.view.cursor = dst
        self.refresh_view()

    def action_toggle_outline(self) -> None:
        self.outline = not self.outline
        self.say("hints on: the piles the picked-up cards may go to are outlined" if self.outline
                 else "hints off")
        self.refresh_view()

    def action_finish(self) -> None:
        if self.locked():
            return
        if self.game.won:
            self.say(WON_REFUSAL)
            self.refresh_view()
            return
        if not self.finish_available():
            reason = self.game.finish_ready() or "the cards cannot all be played straight home from here"
            self.say(reason)
            self.refresh_view()
            return
        self.view.picked = None
        self._finishing = list(self.game.finish_moves() or [])
        self.say("")
        self._finish_timer = self.set_interval(self.finish_delay, self._finish_step)

    def _finish_step(self) -> None:
        if not self._finishing:
            return
        move = self._finishing.pop(0)
        try:
            self.game.play(move)
        except SolitaireError:
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
        now = time.monotonic()
        pending = self._confirm
        if pending is not None and pending[0] == key and now - pending[1] <= CONFIRM_S:
            self._confirm = None
            return True
        lost = "; this game counts as lost" if self.tracker.dealt and self.tracker.enabled else ""
        message = f"press {key} again {question}{lost}"
        pending = self._confirm = (key, now, message)
        self.say(message)
        self.refresh_view()
        self.set_timer(CONFIRM_S, lambda: self._lapse(pending))
        return False

    def _lapse(self, pending: tuple[str, float, str]) -> None:
        """The time for a second n or R is up: the question goes from the status line."""
        if self._confirm is pending:
            self._cancel_confirm()

    def _cancel_confirm(self) -> None:
        """Anything else done after a first n or R: the question lapses."""
        pending, self._confirm = self._confirm, None
        if pending is not None and self.message == pending[2]:
            self.say("")
            self.refresh_view()

    def action_new_deal(self) -> None:
        if not self.locked() and self._confirmed("n", "for a new deal"):
            self._start(self.next_deal(self.game), dealt=True)

    def action_restart(self) -> None:
        if not self.locked() and self._confirmed("R", "to restart this deal"):
            self._start(start_of(self.game), dealt=self.tracker.dealt)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

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

    from solitaire.core import solver

    worker = get_current_worker()
    return solver.player_hint(game, stop=lambda: worker.is_cancelled)[0]


def _collect_again() -> None:
    """After the first frame: the objects of the start-up (modules, style sheets, tables) live
    as long as the program, so they leave the collector's generations for good (``freeze``),
    and later collections, while playing, only look at what play makes."""
    gc.freeze()
    gc.enable()


def run_table(tracker: Tracker, *, four_colour: bool = False, outline: bool = False,
              next_deal: Callable[[Game], Game] | None = None, notice: str | None = None) -> None:
    """Open the table on this terminal and play until the player quits; ``notice`` shows in
    the status line as it opens."""
    SolitaireApp(tracker, four_colour=four_colour, outline=outline, next_deal=next_deal, notice=notice).run()
