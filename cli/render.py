"""The line-mode board: the variant's declared layout as text, red suits in red.

A :class:`rich.text.Text`, so nothing in it is read as markup; names and titles from a variant
file go through :func:`.lines.shown` (bounded, control characters escaped)."""

from __future__ import annotations

from typing import cast

from rich.text import Text

from solitaire.core import Game
from solitaire.core.cards import card_name, is_red
from solitaire.core.i18n import _, ngettext

from .lines import shown as _safe

CELL = 4  # width of one card column


def _card(text: Text, card: int) -> None:
    text.append(card_name(card), style="bold red" if is_red(card) else "bold")


def _pile_summary(game: Game, i: int, reveal: bool) -> Text:
    """A pile that does not fan down: its name and its top card(s)."""
    rules = game.rules
    spec = rules.piles[i]
    pile = game.piles[i]
    out = Text()
    short = cast(str, rules.short_name[i])  # typed str | None by Rules, but the alias is used only when set
    out.append(_safe(short) + " ", style="dim")
    if spec.role == "stock" and not reveal:
        out.append(f"[{len(pile)}]" if pile else "[  ]")
        if pile and game.down[i] < len(pile) and i in rules.sources:  # an open stock whose top card plays
            out.append(" ")
            _card(out, pile[-1])
        if rules.redeals:  # a limited number of redeals (none at all is said by the rules page)
            left = rules.redeals - game.recycles
            out.append(" " + ngettext("{n} redeal left", "{n} redeals left", left).format(n=left), style="dim")
        return out
    if not pile:
        out.append("--", style="dim")
        return out
    show = spec.show or 1
    if reveal and spec.role == "stock":
        show = len(pile)
    down = game.down[i]
    shown = pile[max(0, len(pile) - show):]
    start = len(pile) - len(shown)
    for k, card in enumerate(shown):
        if k:
            out.append(" ")
        if start + k < down and not reveal:
            out.append("##", style="blue")
        else:
            _card(out, card)
    if len(pile) > len(shown):
        out.append(f" ({len(pile)})", style="dim")
    return out


def render(game: Game, reveal: bool = False) -> Text:
    """The whole table. ``reveal`` shows face-down cards (for ``solitaire deal``)."""
    rules = game.rules
    out = Text()
    title = _safe(rules.variant.local_title())  # a variant file's text: no control characters, bounded
    opts = _safe(rules.describe_options(), 200)
    out.append(f"{title}", style="bold")
    if opts:
        out.append(f" ({opts})")
    if game.seed is not None:
        from .sharecode import code_of

        if game.numbering is not None:  # a deal of a public numbering: deal #N and its share code
            out.append("   " + _("deal #{number}").format(number=game.seed) + f" {code_of(game)}")
        else:
            out.append("   " + _("deal {code}").format(code=code_of(game)))
    out.append("   " + _("score {score}   moves {moves}").format(score=game.score, moves=game.moves) + "\n")
    for row in rules.spec.layout:
        names = [n for n in row if n is not None]
        fanned = bool(names) and all(rules.piles[rules.index[n]].fan == "down" for n in names)
        out.append("\n")
        if not fanned:
            for k, name in enumerate(row):
                if name is None:
                    out.append("    ")
                    continue
                if k:
                    out.append("   ")
                out.append_text(_pile_summary(game, rules.index[name], reveal))
            out.append("\n")
            continue
        indices = [rules.index[n] for n in names]
        for i in indices:
            out.append(_safe(rules.names[i]).ljust(CELL), style="dim")
        out.append("\n")
        depth = max((len(game.piles[i]) for i in indices), default=0)
        for row_no in range(max(depth, 1)):
            line = Text()
            for i in indices:
                pile = game.piles[i]
                if row_no < len(pile):
                    if row_no < game.down[i] and not reveal:
                        line.append("##", style="blue")
                    else:
                        _card(line, pile[row_no])
                    line.append(" " * (CELL - 2))
                elif row_no == 0:
                    line.append("--".ljust(CELL), style="dim")
                else:
                    line.append(" " * CELL)
            line.rstrip()
            out.append_text(line)
            out.append("\n")
    return out
