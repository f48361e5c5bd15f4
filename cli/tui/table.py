"""The card table: one widget that draws any variant from its declared layout.

The drawing is pure data: :func:`draw` turns a game plus the UI state (cursor, cards picked
up, piles to outline, a drag in flight) into a grid of cells and a list of hit regions, so
the same code serves painting, mouse hit-testing and the tests. Nothing here knows a game by
name: rows come from ``rules.spec.layout``, piles whose ``fan`` is ``down`` fan downwards,
``right`` fans show their top ``show`` cards side by side.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from rich.color import Color
from rich.color_triplet import ColorTriplet
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME

from solitaire.core import Game
from solitaire.core.cards import SUIT, card_symbol, is_red, parse_card
from solitaire.core.i18n import _, ngettext

_CARD_NAME = re.compile(r"\b(?:10|[A2-9TJQK])[CDHS]\b")


def with_symbols(text: str) -> str:
    """A message from the kernel (``6C does not go on 8S``) with its cards spelled as the table
    shows them (``6♣ does not go on 8♠``)."""
    return _CARD_NAME.sub(lambda m: card_symbol(parse_card(m.group())), text)


@dataclass(frozen=True)
class Palette:
    """The table's colours."""

    felt: Style  # the table, and text on it
    face: Color  # a card's face
    picked: Color  # the face of cards picked up
    cursor: Color  # the face of the card under the cursor
    back: Style
    back_cursor: Style  # a back under the cursor
    red: Color
    black: Color
    four: tuple[Color, Color, Color, Color]  # clubs, diamonds, hearts, spades
    outline: Style  # an empty pile
    hint: Style  # the marks round a pile the cards in hand may go to
    cursor_mark: Style  # an empty pile under the cursor
    folded: Style  # the "+N" line of a pile's face-up cards left out


def _rgb(hex_colour: str) -> Color:
    return Color.parse(hex_colour)


def _ansi(name: str) -> Color:
    """One of the terminal's own 16 colours. Textual turns ANSI colours into RGB from its own
    theme before it writes them (then a 16-colour terminal gets the nearest, e.g. bright green
    for green); a colour that carries its RGB value too is left alone, so the terminal shows
    its own green."""
    colour = Color.parse(name)
    r, g, b = DEFAULT_TERMINAL_THEME.ansi_colors[colour.number or 0]
    return colour._replace(triplet=ColorTriplet(r, g, b))


# for terminals with 256 colours or more: RGB values
_FELT_RGB = _rgb("#0b5d1e")
FULL = Palette(
    felt=Style(bgcolor=_FELT_RGB, color=_rgb("#d7ffd7")),
    face=_rgb("#f5f5f0"),
    picked=_rgb("#ffd75f"),
    cursor=_rgb("#87d7ff"),
    back=Style(bgcolor=_rgb("#1c3f94"), color=_rgb("#8fb0ff")),
    back_cursor=Style(bgcolor=_rgb("#2f6fd0"), color=_rgb("#d0e4ff"), bold=True),
    red=_rgb("#c00000"),
    black=_rgb("#000000"),
    four=(_rgb("#006000"), _rgb("#0040c0"), _rgb("#c00000"), _rgb("#000000")),
    outline=Style(bgcolor=_FELT_RGB, color=_rgb("#7fbf8f")),
    hint=Style(bgcolor=_FELT_RGB, color=_rgb("#ffff00"), bold=True),
    cursor_mark=Style(bgcolor=_FELT_RGB, color=_rgb("#87d7ff"), bold=True),
    folded=Style(bgcolor=_rgb("#f5f5f0"), color=_rgb("#606060")),
)
# for terminals with 16 colours: the terminal's own, which RGB values would turn into greys
_GREEN = _ansi("green")
STANDARD = Palette(
    felt=Style(bgcolor=_GREEN, color=_ansi("bright_white")),
    face=_ansi("bright_white"),
    picked=_ansi("bright_yellow"),
    cursor=_ansi("bright_cyan"),
    back=Style(bgcolor=_ansi("blue"), color=_ansi("cyan")),
    back_cursor=Style(bgcolor=_ansi("cyan"), color=_ansi("bright_white"), bold=True),
    red=_ansi("red"),
    black=_ansi("black"),
    four=(_ansi("green"), _ansi("blue"), _ansi("red"), _ansi("black")),
    outline=Style(bgcolor=_GREEN, color=_ansi("white")),
    hint=Style(bgcolor=_GREEN, color=_ansi("bright_yellow"), bold=True),
    cursor_mark=Style(bgcolor=_GREEN, color=_ansi("bright_cyan"), bold=True),
    folded=Style(bgcolor=_ansi("bright_white"), color=_ansi("bright_black")),
)


def palette_for(color_system: str | None) -> Palette:
    """The palette for a console's colour system ("truecolor", "256", "standard", "windows" or
    None, as ``Console.color_system`` says)."""
    return STANDARD if color_system in ("standard", "windows") else FULL


@dataclass
class Hit:
    """A clickable rectangle: pile ``pile``, card ``card`` (index from the bottom, or None for
    the pile itself). Later hits lie on top of earlier ones."""

    x0: int
    y0: int
    x1: int
    y1: int
    pile: int
    card: int | None


@dataclass
class View:
    """What the table shows beside the game itself."""

    cursor: int | None = None
    picked: tuple[int, int] | None = None  # (pile, number of cards)
    outlined: frozenset[int] = frozenset()
    four_colour: bool = False
    drag_at: tuple[int, int] | None = None  # where the picked cards are being dragged


@dataclass
class Geometry:
    col_w: int
    card_w: int
    card_h: int
    left: int
    pile_x: dict[int, int] = field(default_factory=dict)
    pile_y: dict[int, int] = field(default_factory=dict)
    pile_room: dict[int, int] = field(default_factory=dict)  # lines (fan down) or columns (fan right)


def geometry(game: Game, width: int, height: int) -> Geometry:
    rules = game.rules
    layout = rules.spec.layout
    ncols = max((len(row) for row in layout), default=1)
    col_w = max(4, width // ncols)
    card_w = max(3, min(col_w - (2 if col_w >= 8 else 1), 15))
    card_h = 3 if height < 32 else 4 if height < 44 else 5
    left = (width - ncols * col_w) // 2 + (col_w - card_w) // 2
    geo = Geometry(col_w, card_w, card_h, left)
    fanned_rows = [all(rules.piles[rules.index[n]].fan == "down" for n in row if n) for row in layout]
    # a row of covered cards (a pyramid's) may lie under the next one, its top lines showing,
    # when the rows do not fit one under another
    steps = [card_h + 1] * len(layout)
    fan_rows = sum(1 for f in fanned_rows if f)
    if sum(st for st, f in zip(steps, fanned_rows, strict=True) if not f) + fan_rows * (card_h + 2) > height:
        for r, row in enumerate(layout):
            if not fanned_rows[r] and any(row) and all(rules.covered[rules.index[n]] for n in row if n):
                steps[r] = 2
    flat_height = sum(st for st, f in zip(steps, fanned_rows, strict=True) if not f)
    fan_height = max(card_h, (height - flat_height - 1) // max(1, fan_rows)) if fan_rows else 0
    y = 1 if height > flat_height + fan_rows * (card_h + 6) else 0
    for row, fanned, step in zip(layout, fanned_rows, steps, strict=True):  # one flag per row
        for k, name in enumerate(row):
            if name is None:
                continue
            i = rules.index[name]
            geo.pile_x[i] = left + k * col_w
            geo.pile_y[i] = y
            if fanned:
                geo.pile_room[i] = fan_height
            else:  # a right fan may spread over the gaps after it
                gaps = 0
                for later in row[k + 1:]:
                    if later is not None:
                        break
                    gaps += 1
                geo.pile_room[i] = card_w + gaps * col_w + (col_w - card_w)
        y += fan_height + 1 if fanned else step
    return geo


def _fits_across(geo: Geometry, width: int) -> bool:
    return all(x >= 0 and x + geo.card_w <= width for x in geo.pile_x.values())


def _fits_down(game: Game, geo: Geometry, height: int) -> bool:
    """Does every pile lie inside ``height`` lines, a pile fanning down with room for its
    face-down cards folded into one line, a "+N" line and its top card whole?"""
    rules = game.rules
    for i, y in geo.pile_y.items():
        if rules.piles[i].fan == "down":
            if geo.pile_room[i] < geo.card_h + 2 or y + geo.pile_room[i] > height:
                return False
        elif y + geo.card_h > height:
            return False
    return True


def minimum_size(game: Game) -> tuple[int, int]:
    """The smallest table (columns, lines) that shows this game's layout whole."""
    width = next(w for w in range(1, 2000) if _fits_across(geometry(game, w, 24), w))
    height = next(h for h in range(1, 2000) if _fits_down(game, geometry(game, 80, h), h))
    return width, height


def _message(canvas: Canvas, text: str, style: Style) -> None:
    """``text`` centred on the canvas, wrapped to its width."""
    import textwrap  # only for a window too small to play in

    lines = textwrap.wrap(text, max(1, canvas.width))[:canvas.height]
    top = (canvas.height - len(lines)) // 2
    for k, line in enumerate(lines):
        canvas.put((canvas.width - len(line)) // 2, top + k, line, style)


def movable(game: Game, pile: int, n: int) -> bool:
    """May the top ``n`` cards of ``pile`` be picked up together (judged from visible cards)?"""
    return game.can_pick(pile, n)


class Canvas:
    def __init__(self, width: int, height: int, felt: Style = FULL.felt) -> None:
        self.width, self.height = width, height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[felt] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: Style) -> None:
        if not 0 <= y < self.height:
            return
        row, srow = self.chars[y], self.styles[y]
        for k, ch in enumerate(text):
            if 0 <= x + k < self.width:
                row[x + k] = ch
                srow[x + k] = style

    def lines(self) -> list[list[Segment]]:
        out = []
        for row, srow in zip(self.chars, self.styles, strict=True):  # both height rows
            segs: list[Segment] = []
            start = 0
            for k in range(1, len(row) + 1):
                if k == len(row) or srow[k] is not srow[start]:
                    segs.append(Segment("".join(row[start:k]), srow[start]))
                    start = k
            out.append(segs)
        return out


def _face_style(card: int, bg: Color, four: bool, pal: Palette) -> Style:
    colour = pal.four[SUIT[card]] if four else (pal.red if is_red(card) else pal.black)
    return Style(bgcolor=bg, color=colour, bold=True)


def _card(canvas: Canvas, x: int, y: int, w: int, h: int, card: int | None, bg: Color, four: bool,
          pal: Palette, lines: int | None = None, label: str = "", back: Style | None = None) -> None:
    """A card at (x, y): a face (``card``), or a back (``card`` None); only ``lines`` lines."""
    shown = h if lines is None else min(lines, h)
    for k in range(shown):
        if card is None:
            text = ("░" * w) if k % 2 == 0 else ("▒" * w)
            if label and k == h // 2:
                text = label.center(w, "▒" if k % 2 else "░")[:w]
            canvas.put(x, y + k, text, back or pal.back)
            continue
        sym = card_symbol(card)
        if k == 0:
            text = sym.ljust(w)
        elif k == h - 1 and h >= 3:
            text = sym.rjust(w)
        elif k == h // 2 and h >= 3:
            text = sym[-1].center(w)
        else:
            text = " " * w
        canvas.put(x, y + k, text[:w], _face_style(card, bg, four, pal))


def _short(game: Game, i: int) -> str:
    """Pile ``i``'s short name: its group's alias when the group is that one pile, else its name."""
    return cast(str, game.rules.short_name[i])  # typed str | None by Rules, but the alias is used only when set


def _slot(canvas: Canvas, x: int, y: int, w: int, h: int, label: str, style: Style) -> None:
    """An empty pile: a thin outline with the pile's name."""
    if h == 1:
        canvas.put(x, y, f"[{label.center(w - 2)[:w - 2]}]", style)
        return
    canvas.put(x, y, "┌" + "─" * (w - 2) + "┐", style)
    for k in range(1, h - 1):
        inner = label.center(w - 2)[:w - 2] if k == (h - 1) // 2 else " " * (w - 2)
        canvas.put(x, y + k, "│" + inner + "│", style)
    canvas.put(x, y + h - 1, "└" + "─" * (w - 2) + "┘", style)


def _fan_down(canvas: Canvas, hits: list[Hit], top_box: dict[int, tuple[int, int]], game: Game, view: View,
              geo: Geometry, i: int, visible: int, bg_for: Callable[[int], Color], pal: Palette) -> int:
    """Draw pile ``i`` fanned downwards (its first ``visible`` cards); return the line after it.

    Each card shows one line (its rank and suit) and the last shows whole. When the pile is
    longer than its room, the face-down cards shrink to one line with their count, then the
    lowest face-up cards are packed several to a line, so every face-up card stays readable.
    """
    x, y = geo.pile_x[i], geo.pile_y[i]
    w, h = geo.card_w, geo.card_h
    room = geo.pile_room[i]
    cards = game.piles[i]
    four = view.four_colour
    if visible == 0:
        _slot(canvas, x, y, w, h, _short(game, i), pal.cursor_mark if view.cursor == i else pal.outline)
        top_box[i] = (x, y)
        return y + h
    vis_down = min(game.down[i], visible)
    vis_up = visible - vis_down
    down_lines = vis_down if vis_up else vis_down - 1 + h
    up_lines = vis_up - 1 + h if vis_up else 0
    squeeze = vis_down > 1 and down_lines + up_lines > room
    if squeeze:
        down_lines = 1 if vis_up else h
    per_line = max(1, (w + 1) // 4)
    packed = 0
    if vis_up > 1:
        while packed < vis_up - 1 and down_lines + -(-packed // per_line) + (vis_up - 1 - packed) + h > room:
            packed += 1
    row = y
    # face-down cards
    if vis_down:
        shown_down = [vis_down - 1] if squeeze else list(range(vis_down))
        for idx in shown_down:
            last = idx == visible - 1
            back = pal.back_cursor if last and view.cursor == i else pal.back
            _card(canvas, x, row, w, h, None, pal.face, four, pal, lines=None if last else 1, back=back)
            if squeeze:
                canvas.put(x, row, f"{vis_down}".ljust(w, "░")[:w], back)
            row += h if last else 1
    # face-up cards packed several to a line; if even that is too long, the lowest are left
    # out behind a "+N" line, so the top of the pile always shows
    first_up = vis_down
    lines_left = room - down_lines - h - (vis_up - 1 - packed)
    hidden = 0
    if packed and -(-packed // per_line) > lines_left:
        hidden = min(packed, (-(-packed // per_line) - max(lines_left, 1) + 1) * per_line)
        canvas.put(x, row, f"+{hidden}".ljust(w)[:w], pal.folded)
        row += 1
    for start in range(first_up + hidden, first_up + packed, per_line):
        chunk = list(range(start, min(start + per_line, first_up + packed)))
        canvas.put(x, row, " " * w, Style(bgcolor=pal.face))
        for m, idx in enumerate(chunk):
            cx = x + m * 4
            cw = 4 if m < len(chunk) - 1 else w - m * 4
            canvas.put(cx, row, card_symbol(cards[idx]).ljust(cw)[:cw],
                       _face_style(cards[idx], bg_for(idx), four, pal))
            hits.append(Hit(cx, row, cx + cw, row + 1, i, idx))
        row += 1
    # the rest fanned one line each, the last whole
    for idx in range(first_up + packed, visible):
        last = idx == visible - 1
        _card(canvas, x, row, w, h, cards[idx], bg_for(idx), four, pal, lines=None if last else 1)
        hits.append(Hit(x, row, x + w, row + (h if last else 1), i, idx))
        if last:
            top_box[i] = (x, row)
        row += h if last else 1
    if vis_up == 0:
        top_box[i] = (x, row - h)
    return row


def draw(game: Game, view: View, width: int, height: int,
         color_system: str | None = "truecolor",
         window: tuple[int, int] | None = None) -> tuple[Canvas, list[Hit], Geometry]:
    """Paint the table; return the canvas, the hit regions (bottom first) and the geometry.

    ``color_system`` is the terminal's, as the console reports it: it picks the palette. When
    the table does not fit, the canvas holds a message saying so and there are no hit regions;
    ``window`` (the whole terminal's size, the table's included) makes it speak of the window.
    """
    rules = game.rules
    pal = palette_for(color_system)
    geo = geometry(game, width, height)
    canvas = Canvas(width, height, pal.felt)
    if not (_fits_across(geo, width) and _fits_down(game, geo, height)):
        need_w, need_h = minimum_size(game)
        if window is None:
            text = _("window too small: the table needs {need}, it has {size}").format(
                need=f"{need_w}x{need_h}", size=f"{width}x{height}")
        else:  # what the player can act on: the window's size, with the lines around the table
            win_w, win_h = window
            text = _("window too small: it needs {need}, it is {size}").format(
                need=f"{need_w + win_w - width}x{need_h + win_h - height}", size=f"{win_w}x{win_h}")
        _message(canvas, text, pal.felt)
        return canvas, [], Geometry(geo.col_w, geo.card_w, geo.card_h, geo.left)
    hits: list[Hit] = []
    w, h = geo.card_w, geo.card_h
    four = view.four_colour
    picked_pile, picked_n = view.picked if view.picked else (None, 0)
    top_box: dict[int, tuple[int, int]] = {}  # pile -> (x, y) of its top card or slot

    for i in range(rules.count):
        if i not in geo.pile_x:
            continue
        x, y = geo.pile_x[i], geo.pile_y[i]
        spec = rules.piles[i]
        cards = game.piles[i]
        down = game.down[i]
        size = len(cards)
        hits.append(Hit(x, y, x + w, y + h, i, None))
        lifted = picked_n if (i == picked_pile and view.drag_at is None) else 0
        dragged = picked_n if (i == picked_pile and view.drag_at is not None) else 0

        def bg_for(idx: int, lifted: int = lifted, size: int = size, i: int = i) -> Color:  # this pile's
            if lifted and idx >= size - lifted:
                return pal.picked
            if view.cursor == i and idx == size - 1 and not lifted:
                return pal.cursor
            return pal.face

        if not cards:
            style = pal.cursor_mark if view.cursor == i else pal.outline
            label = _short(game, i)
            if spec.role == "stock":
                label = "↺" if game.refusal(rules.draw_move) is None else "·"  # type: ignore[arg-type]
            _slot(canvas, x, y, w, h, label, style)
            top_box[i] = (x, y)
            continue
        if spec.fan == "down":
            _fan_down(canvas, hits, top_box, game, view, geo, i, size - dragged, bg_for, pal)
            continue
        # a pile that does not fan down: its top card, or its top `show` cards fanned right
        visible = size - dragged
        if visible == 0:
            _slot(canvas, x, y, w, h, _short(game, i), pal.outline)
            top_box[i] = (x, y)
            continue
        show = spec.show or 1
        if spec.fan != "right":
            show = 1
        elif w + 3 * (show - 1) > geo.pile_room[i]:  # a narrow window: fewer cards, each still readable
            show = 1 + (geo.pile_room[i] - w) // 3
        shown = list(range(max(0, visible - show), visible))
        step = 4 if geo.pile_room[i] >= w + 4 * (show - 1) else 3
        for k, idx in enumerate(shown):
            cx = x + k * step
            last = k == len(shown) - 1
            if idx < down:
                label = str(visible) if spec.role == "stock" else ""
                back = pal.back_cursor if last and view.cursor == i else pal.back
                _card(canvas, cx, y, w if last else step, h, None, pal.face, four, pal, label=label, back=back)
            else:  # each card is drawn whole; the next one covers all but its left edge
                _card(canvas, cx, y, w, h, cards[idx], bg_for(idx), four, pal)
                if not last:
                    hits.append(Hit(cx, y, cx + step, y + h, i, idx))
            if last:
                hits.append(Hit(cx, y, cx + w, y + h, i, idx))
                top_box[i] = (cx, y)

    # under the stock and the pile it deals to, in the gap before the next row: how many cards
    # each holds, and the redeals left when they are limited
    for i, text in _counts(game, w).items():
        if i in geo.pile_x and rules.piles[i].fan != "down":
            canvas.put(geo.pile_x[i], geo.pile_y[i] + h, text[:w].center(w), pal.outline)
    # outlines round the piles the picked-up cards may go to
    for i in view.outlined:
        if i in top_box:
            x, y = top_box[i]
            for k in range(h):
                canvas.put(x - 1, y + k, "▐", pal.hint)
                canvas.put(x + w, y + k, "▌", pal.hint)
    # a keyboard cursor on a pile with no card under it is marked by its slot; on cards by colour
    # the dragged cards follow the pointer
    if view.drag_at is not None and view.picked is not None:
        p, n = view.picked
        cards = game.piles[p][-n:]
        dx, dy = view.drag_at
        for k, card in enumerate(cards):
            last = k == len(cards) - 1
            _card(canvas, dx, dy + k, w, h, card, pal.picked, four, pal, lines=None if last else 1)
    return canvas, hits, geo


def _counts(game: Game, width: int) -> dict[int, str]:
    """The captions under the stock and the waste (the stock's back shows its own count): the
    redeals left, where they are limited (``2 redeals``, ``no redeal``; ``↺2`` when narrow),
    and the cards in the waste (``3 cards``; ``3`` when narrow)."""
    rules = game.rules
    if rules.stock is None:
        return {}
    wide = width >= 9
    out: dict[int, str] = {}
    redeals = rules.redeals
    if redeals is not None and redeals > 0 and len(rules.draw_targets) == 1:
        left = max(0, redeals - game.recycles)
        said = ngettext("{n} redeal", "{n} redeals", left).format(n=left) if left else _("no redeal")
        out[rules.stock] = said if wide and len(said) <= width else f"↺{left}"  # words that fit, or the sign
    if len(rules.draw_targets) == 1 and rules.draw_targets[0] not in rules.foundation_set:
        n = len(game.piles[rules.draw_targets[0]])
        said = ngettext("{n} card", "{n} cards", n).format(n=n)
        out[rules.draw_targets[0]] = said if wide and len(said) <= width else str(n)
    return out


def hit_test(hits: list[Hit], x: int, y: int) -> Hit | None:
    for hit in reversed(hits):
        if hit.x0 <= x < hit.x1 and hit.y0 <= y < hit.y1:
            return hit
    return None


def pile_at(hits: list[Hit], x: int, y: int, geo: Geometry, game: Game) -> int | None:
    """The pile under (x, y), also below a fanned pile's last card (its whole column)."""
    hit = hit_test(hits, x, y)
    if hit is not None:
        return hit.pile
    for i, px in geo.pile_x.items():
        if (px <= x < px + geo.card_w and game.rules.piles[i].fan == "down"
                and geo.pile_y[i] <= y < geo.pile_y[i] + geo.pile_room[i]):
            return i
    return None
