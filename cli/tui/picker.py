"""The game picker: what ``solitaire play`` opens on a terminal when no game is named.

It lists the unfinished games (the most recently played first: resume one) and the installed
games (deal a new one, or resume that game's most recent one as ``solitaire play GAME``
would). Enter (or a click) chooses; escape or q leaves without playing.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, NamedTuple

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from solitaire.core.i18n import _, ngettext

from ..bidi import for_screen


class Choice(NamedTuple):
    """What the player picked: a save to resume (``path``) or a game to play (``variant``)."""

    variant: str | None
    path: Path | None


class Entry(NamedTuple):
    label: str
    choice: Choice


def entries() -> list[Entry]:
    """The picker's lines, in order: the unfinished games, then the installed games."""
    from solitaire.core import registry

    from ..saves import unfinished
    from ..sharecode import code_of
    from ..stats import describe_options, format_time

    out = []
    for item in unfinished():
        if item.saved is None:
            continue  # one that cannot be read is listed by 'solitaire play --plain', with why
        game = item.saved.game
        opts = describe_options(dict(game.rules.options))
        code = code_of(game) if item.saved.start is None else None
        moves = ngettext("{n} move", "{n} moves", game.moves).format(n=game.moves)
        where = _("deal {code}").format(code=code) if code else _("from a position")
        label = _("Resume {game}: {where}, {moves}, {time}").format(
            game=game.rules.variant.local_title() + (f" ({opts})" if opts else ""), where=where, moves=moves,
            time=format_time(item.saved.elapsed))
        out.append(Entry(for_screen(label), Choice(None, item.path)))
    for defn in registry().sorted():
        out.append(Entry(for_screen(_("Play {game}").format(game=defn.local_title())), Choice(defn.name, None)))
    return out


class PickerApp(App[Choice]):
    """Lists :func:`entries`; exits with the chosen one (None if the player leaves)."""

    TITLE = "solitaire"
    CSS = """
    #picker-title { padding: 0 1; text-style: bold; }
    #picker-help { padding: 0 1; color: $text-muted; }
    OptionList { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "leave", "Leave")]

    def __init__(self, items: list[Entry] | None = None) -> None:
        super().__init__()
        self.items = entries() if items is None else items

    def compose(self) -> ComposeResult:
        yield Static(for_screen(_("Choose a game")), id="picker-title")
        yield OptionList(*(Option(e.label, id=str(i)) for i, e in enumerate(self.items)), id="picker")
        yield Static(for_screen(_("enter plays the game chosen; escape or q leaves")), id="picker-help")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.exit(self.items[int(event.option.id or 0)].choice)

    def action_leave(self) -> None:
        self.exit(None)


def pick() -> Choice | None:
    """Open the picker on this terminal; the player's choice, or None."""
    return PickerApp().run()
