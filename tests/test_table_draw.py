"""The table's drawing, through :func:`draw`: the palette for 16-colour terminals, and the
message a window too small for the layout gets instead of piles drawn off the screen."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.color import Color, ColorSystem, ColorType
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import MONOKAI
from textual.color import Color as TextualColor
from textual.filter import ANSIToTruecolor

from solitaire.cli.tui.table import STANDARD, Canvas, Hit, View, draw, minimum_size, pile_at
from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import card_symbol, is_red

DEALS = [("klondike", {}), ("klondike", {"draw": 3}), ("calculation", {})]


def deal(variant: str, options: dict[str, Any], seed: int = 1, moves: int = 0) -> Game:
    game = Game.new(Rules.of(get_variant(variant), options), seed)
    for k in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[(k * 7919) % len(legal)])
    return game


def text_of(canvas) -> list[str]:
    return ["".join(row) for row in canvas.chars]


def background(style: Style) -> Color:
    """A style's background colour (every style of the table has one)."""
    assert style.bgcolor is not None, style
    return style.bgcolor


def foreground(style: Style) -> Color:
    """A style's foreground colour."""
    assert style.color is not None, style
    return style.color


def felt_cells(canvas: Canvas, hits: list[Hit]) -> Iterator[tuple[int, int]]:
    """(x, y) of blank table: no card, no slot, no hit region over it."""
    for y in range(canvas.height):
        for x in range(canvas.width):
            if canvas.chars[y][x] == " " and not any(h.x0 <= x < h.x1 and h.y0 <= y < h.y1 for h in hits):
                yield x, y


# ---------------------------------------------------------------- 16 colours

@pytest.mark.parametrize("system", ["standard", "windows"])
def test_with_16_colours_the_felt_is_the_terminals_green_and_cards_use_named_colours(system):
    game = deal("klondike", {}, moves=30)
    canvas, hits, _ = draw(game, View(), 80, 22, color_system=system)
    felt = list(felt_cells(canvas, hits))
    assert len(felt) > 500
    for x, y in felt:
        bg = background(canvas.styles[y][x])
        assert (bg.name, bg.type, bg.number) == ("green", ColorType.STANDARD, 2)
    faces = backs = reds = blacks = 0
    for hit in hits:
        style = canvas.styles[hit.y0][hit.x0]
        if hit.card is None:
            continue
        if hit.card < game.down[hit.pile]:
            assert background(style).name == "blue"
            backs += 1
            continue
        card = game.piles[hit.pile][hit.card]
        assert background(style).name == "bright_white"
        assert foreground(style).name == ("red" if is_red(card) else "black")
        faces += 1
        reds += is_red(card)
        blacks += not is_red(card)
    assert faces and reds and blacks
    # backs of the stock and the tableau's face-down cards (which have no hit region)
    for y, line in enumerate(text_of(canvas)):
        for x, ch in enumerate(line):
            if ch in "░▒":
                assert background(canvas.styles[y][x]).name == "blue"
                backs += 1
    assert backs


def test_with_16_colours_every_style_is_a_named_terminal_colour_and_survives_textuals_filter():
    """Textual turns ANSI colours into RGB from its own theme (a 16-colour terminal then gets
    the nearest: bright green for green); the table's colours must come through as they are."""
    game = deal("klondike", {}, moves=60)
    view = View(cursor=3, picked=(6, 1), outlined=frozenset({7, 8}), four_colour=True)
    canvas, _, _ = draw(game, view, 80, 22, color_system="standard")
    styles = {style for row in canvas.styles for style in row}
    assert len(styles) > 5
    ansi = ANSIToTruecolor(MONOKAI)
    for style in styles:
        assert style.bgcolor is not None
        for colour in (style.color, style.bgcolor):
            assert colour is None or colour.type == ColorType.STANDARD, (style, colour)
        (segment,) = ansi.apply([Segment(" ", style)], TextualColor(0, 0, 0))
        assert segment.style == style
    felt = STANDARD.felt.render("x", color_system=ColorSystem.STANDARD)
    assert re.search(r"\x1b\[[0-9;]*\b42m", felt) and "100" not in felt


def test_the_16_colour_palette_keeps_every_part_of_the_table_apart():
    pal = STANDARD
    backgrounds = [background(pal.felt), pal.face, pal.picked, pal.cursor,
                   background(pal.back), background(pal.back_cursor)]
    assert len({c.number for c in backgrounds}) == len(backgrounds)
    for bg in (pal.face, pal.picked, pal.cursor):  # the ink of a card differs from its face
        for ink in (pal.red, pal.black, *pal.four):
            assert ink.number != bg.number
    assert len({c.number for c in pal.four}) == 4 and pal.red.number != pal.black.number
    for style in (pal.felt, pal.outline, pal.hint, pal.cursor_mark, pal.back, pal.back_cursor, pal.folded):
        assert foreground(style).number != background(style).number
    assert len({foreground(style).number for style in (pal.outline, pal.hint, pal.cursor_mark)}) == 3


@pytest.mark.parametrize("system", ["truecolor", "256", None])
def test_with_256_colours_or_more_the_palette_stays_rgb(system):
    game = deal("klondike", {})
    canvas, hits, _ = draw(game, View(), 80, 22, color_system=system)
    x, y = next(felt_cells(canvas, hits))
    felt = background(canvas.styles[y][x])
    assert felt.triplet is not None and felt.triplet.hex == "#0b5d1e"
    assert felt.type == ColorType.TRUECOLOR


# ---------------------------------------------------------------- too small

@pytest.mark.parametrize("variant, options", DEALS)
def test_the_smallest_table_is_the_layout_at_its_smallest_cards(variant, options):
    # seven columns of 3-column cards one column apart; a row of cards, a gap line, then the
    # fanned row with room for a folded line, a "+N" line and a card of 3 lines, and a spare line
    assert minimum_size(deal(variant, options)) == (28, 10)


@pytest.mark.parametrize("variant, options", DEALS)
@pytest.mark.parametrize("size", [(20, 8), (27, 10), (28, 9), (27, 40), (200, 9)])
def test_a_table_too_small_for_the_layout_says_so_and_takes_no_clicks(variant, options, size):
    game = deal(variant, options, moves=20)
    width, height = size
    canvas, hits, geo = draw(game, View(cursor=1), width, height)
    assert hits == []
    assert not geo.pile_x and not geo.pile_y
    words = " ".join(" ".join(text_of(canvas)).split())
    assert words == f"window too small: the table needs 28x10, it has {width}x{height}"
    assert all(pile_at(hits, x, y, geo, game) is None for y in range(height) for x in range(width))
    # centred: as many blank lines above the message as below (give or take one)
    lines = [k for k, line in enumerate(text_of(canvas)) if line.strip()]
    assert abs(lines[0] - (height - 1 - lines[-1])) <= 1


@pytest.mark.parametrize("variant, options", DEALS)
def test_at_exactly_the_smallest_size_every_pile_is_on_the_table(variant, options):
    game = deal(variant, options)
    width, height = minimum_size(game)
    canvas, hits, _geo = draw(game, View(), width, height)
    assert {h.pile for h in hits} == set(range(game.rules.count))
    assert "too small" not in " ".join(text_of(canvas))
    for hit in hits:
        assert 0 <= hit.x0 < hit.x1 <= width and 0 <= hit.y0 < hit.y1 <= height


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(DEALS), seed=st.integers(0, 10**6), moves=st.integers(0, 200),
       extra=st.sampled_from([(0, 0), (1, 0), (0, 1), (6, 0), (7, 2)]))
def test_at_the_smallest_sizes_every_pile_and_every_top_card_shows_and_none_overlap(which, seed, moves, extra):
    variant, options = which
    game = deal(variant, options, seed, moves)
    width, height = minimum_size(game)
    width, height = width + extra[0], height + extra[1]
    canvas, hits, _ = draw(game, View(), width, height)
    text = text_of(canvas)
    assert {h.pile for h in hits} == set(range(game.rules.count))
    for hit in hits:
        assert 0 <= hit.x0 < hit.x1 <= width and 0 <= hit.y0 < hit.y1 <= height
    # no two piles' regions overlap (a waste fanned right leaves the next pile alone)
    for a in hits:
        for b in hits:
            if a.pile < b.pile:
                assert a.x1 <= b.x0 or b.x1 <= a.x0 or a.y1 <= b.y0 or b.y1 <= a.y0, (a, b)
    # every pile's top card shows its rank and suit where a click finds it
    for pile, cards in enumerate(game.piles):
        if not cards or game.down[pile] == len(cards):
            continue
        top = [h for h in hits if h.pile == pile and h.card == len(cards) - 1]
        assert top, pile
        symbol = card_symbol(cards[-1])
        assert text[top[-1].y0][top[-1].x0:top[-1].x0 + len(symbol)] == symbol


# ---------------------------------------------------------------- the real program

@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_in_a_16_colour_terminal_the_felt_is_green(solitaire_home):
    from test_pty import program_in_pty, read_until

    env = {k: v for k, v in os.environ.items() if k not in ("COLORTERM", "NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm"
    with program_in_pty(solitaire_home, "play", "klondike", "--seed", "48213", env=env) as (proc, main_fd):
        screen = read_until(main_fd, b"klondike-48213")
        assert b"klondike-48213" in screen, screen[-2000:]
        screen += read_until(main_fd, b"\x1b[97;42m", 5)  # the felt: bright white on green
        os.write(main_fd, b"q")
        proc.wait(timeout=30)
    params = [set(p.split(b";")) for p in re.findall(rb"\x1b\[([0-9;]*)m", screen)]
    assert sum(b"42" in p for p in params) > 20  # the felt, line after line
    assert not any(b"100" in p for p in params)  # no grey (bright black) background anywhere
    assert not any(b"38" in p or b"48" in p for p in params)  # 16 colours only: no 256-colour codes
    assert proc.returncode == 0


# ---------------------------------------------------------------- the stock's and the waste's counts


def caption(game: Game, pile: str, width: int = 80, height: int = 24) -> str:
    canvas, _, geo = draw(game, View(), width, height)
    i = game.rules.index[pile]
    x, y = geo.pile_x[i], geo.pile_y[i] + geo.card_h
    return text_of(canvas)[y][x:x + geo.card_w].strip()


@pytest.mark.parametrize("size", [(80, 24), (132, 43), (28, 12)])
def test_the_waste_says_how_many_cards_it_holds_and_the_stock_the_redeals_left(size):
    game = Game.new(Rules.of(get_variant("klondike"), {"draw": 3, "redeals": 2}), 5)
    wide = geometry_width(game, *size) >= 9
    assert caption(game, "waste", *size) == ("0 cards" if wide else "0")
    assert caption(game, "stock", *size) == ("2 redeals" if wide else "↺2")
    for _ in range(8):  # 24 cards, 3 at a time: the stock is empty, then turned back
        game.play("draw")
    assert caption(game, "waste", *size) == ("24 cards" if wide else "24")
    game.play("draw")
    assert caption(game, "stock", *size) == ("1 redeal" if wide else "↺1")
    for _ in range(9):
        game.play("draw")
    assert caption(game, "stock", *size) == ("no redeal" if wide else "↺0")


def geometry_width(game: Game, width: int, height: int) -> int:
    return draw(game, View(), width, height)[2].card_w


def test_unlimited_redeals_leave_the_stock_without_a_caption():
    game = Game.new(Rules.of(get_variant("klondike"), {"redeals": "unlimited"}), 5)
    game.play("draw")
    assert caption(game, "stock") == "" and caption(game, "waste") == "1 card"
