"""Picking up and putting down cards with the mouse and the keys: one :class:`Hand`, held by
the solo table (:class:`~solitaire.cli.tui.app.SolitaireApp`) and by the race's table screen,
which differ only in how a chosen move is made (:meth:`TableHost.submit`: played through the
session here, or sent to the race server) and in how the stock is turned.

What may be picked up and where it may go is the kernel's to say (:meth:`Game.can_pick`,
:meth:`Game.most_to_pick`, :meth:`Game.targets`, :meth:`Game.home_move`); nothing here reads
the rules' tables.
"""

from __future__ import annotations

from typing import Protocol

from solitaire.core import Game, Move
from solitaire.core.i18n import _
from solitaire.core.rules import PAIR

from .table import View


class TableHost(Protocol):
    """What a :class:`Hand` needs of the screen that holds it."""

    def table_game(self) -> Game | None:
        """The game on the table (None: there is none to play, e.g. when watching)."""
        ...

    def locked(self) -> bool:
        """No picking up or putting down now (e.g. while Finish plays the cards home)."""
        ...

    def submit(self, move: Move) -> None:
        """Make a move the player chose (it may still be refused)."""
        ...

    def turn_stock(self) -> None:
        """Draw, or turn the waste back."""
        ...

    def say(self, text: str) -> None:
        """Set the status line's message ("" clears it)."""
        ...

    def refresh_view(self) -> None:
        """Draw the table and the status line again."""
        ...


class Hand:
    """The cursor and the cards in hand, over one :class:`View`."""

    def __init__(self, host: TableHost, view: View) -> None:
        self.host = host
        self.view = view
        self.flexible = False  # picked up by key: put down as many of them as fit where they go

    def _game(self) -> Game | None:
        host = self.host
        return None if host.locked() else host.table_game()

    # -- what the table shows
    def destinations(self) -> frozenset[int]:
        """The piles the cards in hand may go to (all of them, or fewer when picked up by key)."""
        game = self.host.table_game()
        if game is None or self.view.picked is None:
            return frozenset()
        src, n = self.view.picked
        counts = range(1, n + 1) if self.flexible else (n,)
        return frozenset(d for k in counts for d in game.targets(src, k))

    def drop_stale(self) -> None:
        """Let go of cards in hand that may no longer be picked up (the board changed)."""
        game = self.host.table_game()
        if self.view.picked is not None and (game is None or not game.can_pick(*self.view.picked)):
            self.view.picked = None

    # -- picking up and putting down
    def pick(self, pile: int, n: int, flexible: bool = False) -> None:
        """Pick up the top ``n`` cards of ``pile``; ``flexible``: the keyboard's pick-up, which
        may put down fewer of them (as many as fit where they go)."""
        game = self._game()
        if game is None:
            return
        self.flexible = flexible
        if game.can_pick(pile, n):
            self.view.picked = (pile, n)
            self.host.say("")
        else:  # the kernel's reason, as the line mode gives it
            self.host.say(game.pick_refusal(pile, n) or f"{game.rules.names[pile]} gives no card")
        self.host.refresh_view()

    def put(self, dst: int, flexible: bool = False) -> None:
        """Put the cards in hand on ``dst``; ``flexible`` tries fewer cards if all do not fit."""
        game = self._game()
        if game is None or self.view.picked is None:
            return
        src, n = self.view.picked
        if dst == src:
            self.let_go()
            return
        if flexible:
            n = next((k for k in range(n, 0, -1) if dst in game.targets(src, k)), n)
        rules = game.rules
        if n == 1 and src in rules.pair_sources and dst in rules.pair_sources:  # a card put on its mate: the pair
            pair = (min(src, dst), max(src, dst), PAIR)
            if game.refusal(pair) is None or game.refusal((src, dst, 1)) is not None:
                self.host.submit(pair)
                return
        self.host.submit((src, dst, n))

    def send_home(self, pile: int) -> None:
        """Send the top card of ``pile`` to a foundation that takes it."""
        game = self._game()
        if game is None:
            return
        self.view.picked = None
        move = game.home_move(pile)
        if move is not None:
            self.host.submit(move)
            return
        self.host.say(_("no foundation takes that card") if game.piles[pile]
                      else _("{pile} is empty").format(pile=game.rules.names[pile]))
        self.host.refresh_view()

    def let_go(self) -> None:
        self.view.picked = None
        self.host.say("")
        self.host.refresh_view()

    # -- the mouse (TableView's messages)
    def clicked(self, pile: int, card: int | None, chain: int) -> None:
        game = self._game()
        if game is None:
            return
        self.view.cursor = pile
        if game.rules.role[pile] == "stock" and self.view.picked is not None and pile in game.rules.pair_sources:
            self.put(pile)  # a card put on an open stock's top card: the pair
        elif game.rules.role[pile] == "stock":  # every click draws, quick ones too
            if self.view.picked is not None:
                self.view.picked = None
                self.host.refresh_view()
            else:
                self.host.turn_stock()
        elif chain >= 2 and card is not None and card == len(game.piles[pile]) - 1:
            self.send_home(pile)  # a double-click sends the card clicked home: only the top card can go
        elif self.view.picked is not None:
            self.put(pile)
        elif card is None:
            self.host.refresh_view()
        else:
            self.pick(pile, len(game.piles[pile]) - card)

    def dropped(self, src: int, n: int, dst: int | None) -> None:
        if self._game() is None or dst is None or dst == src:
            self.view.picked = None
            self.host.refresh_view()
            return
        self.view.picked = (src, n)
        self.view.cursor = dst
        self.put(dst)
        if self.view.picked is not None:  # not put down: let go
            self.view.picked = None
            self.host.refresh_view()

    # -- the keys
    def move_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor across the layout's rows and columns, wrapping round."""
        game = self.host.table_game()
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
        self.host.say("")
        self.host.refresh_view()

    def select(self) -> None:
        """Space or enter at the cursor: pick up as many cards as may go together, put the
        cards in hand down, or turn the stock."""
        game = self._game()
        cur = self.view.cursor
        if game is None or cur is None:
            return
        if game.rules.role[cur] == "stock" and not (self.view.picked is not None and cur in game.rules.pair_sources):
            if self.view.picked is not None:
                self.let_go()  # as a click on the stock does: the stock takes no cards
            else:
                self.host.turn_stock()
            return
        if self.view.picked is not None:
            self.put(cur, flexible=self.flexible)
            return
        n = game.most_to_pick(cur)
        self.pick(cur, n or 1, flexible=bool(n))

    def home(self) -> None:
        if self.view.cursor is not None:
            self.send_home(self.view.cursor)

    def toggle_colours(self) -> None:
        self.view.four_colour = not self.view.four_colour
        self.host.say(_("four colours: clubs green, diamonds blue") if self.view.four_colour
                      else _("two colours: red and black"))
        self.host.refresh_view()
