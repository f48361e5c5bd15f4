"""Fuzzing the files the program reads back: saved games and position files, mutated.

A real save (written by the tracker as a game is played) and a real position file are mutated
at the byte and the line level: bytes flipped, cut, doubled or dropped, lines swapped or
repeated, numbers made huge, brackets nested deep. Reading one back must either give a game
that keeps the kernel's invariants (every card once, and undo and redo either work or refuse
in the kernel's words), or refuse with the module's own error and a one-line reason; nothing
else may come out. The budget is in examples, not seconds.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire.cli import saves
from solitaire.core import Game, PositionError, Rules, SolitaireError, get_variant
from solitaire.core.position import position_json, read_position_file

KLONDIKE = get_variant("klondike")
FUZZ = settings(max_examples=int(os.environ.get("SOLITAIRE_FUZZ_EXAMPLES", "150")), deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def played(seed: int, steps: int) -> Game:
    """A game of Klondike some legal moves in, each move its first legal one that is not a draw
    when there is one (so that cards move between piles, not only through the stock)."""
    game = Game.new(Rules.of(KLONDIKE, {}), seed)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(game.move_text(next((m for m in moves if m[2]), moves[0])))
    return game


@st.composite
def mutations(draw: st.DrawFn, text: bytes) -> bytes:
    """``text`` with one to four mutations of the kinds above."""
    data = bytearray(text)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "drop", "lines", "number", "deep"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "cut":
            del data[at:]
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
                [b"\n", b"\xff", b"\"", b"[", b"}", b"NaN", b"-1", b"undo", b"redo", b"t9 f9"]))
        elif kind == "drop" and data:
            del data[at:at + draw(st.integers(1, 16))]
        elif kind == "lines":
            lines = bytes(data).split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if draw(st.booleans()):
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines.insert(j, lines[i])
            data = bytearray(b"\n".join(lines))
        elif kind == "number":
            data[at:at] = b"9" * draw(st.sampled_from([25, 45, 5000]))
        elif kind == "deep":
            depth = draw(st.sampled_from([30, 5000]))
            data[at:at] = b"[" * depth + b"]" * depth
    return bytes(data)


def check_game(game: Game) -> None:
    """The kernel's invariants on a game read back, and on its undo and redo."""
    cards = Counter(c for pile in game.piles for c in pile)
    assert sorted(cards) == list(range(52)) and set(cards.values()) == {1}
    for step in ("undo", "redo"):
        with contextlib.suppress(SolitaireError):  # refused in the kernel's words: fine
            game.undo() if step == "undo" else game.redo()
        cards = Counter(c for pile in game.piles for c in pile)
        assert sorted(cards) == list(range(52)) and set(cards.values()) == {1}


@pytest.fixture(scope="module")
def base_save(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, bytes]:
    """A real save's file name and bytes: deal 5, twelve moves in (each a random legal one,
    draws only where nothing else moves), the last one undone."""
    home = tmp_path_factory.mktemp("fuzz-home")
    old = os.environ.get("SOLITAIRE_HOME")
    os.environ["SOLITAIRE_HOME"] = str(home)
    try:
        game = Game.new(Rules.of(KLONDIKE, {}), 5)
        tracker = saves.Tracker(game, dealt=True)
        tracker.begin()
        pick = random.Random(5)
        for _ in range(12):
            moves = game.legal_moves()
            game.play(game.move_text(pick.choice([m for m in moves if m[2]] or moves)))
            tracker.changed()
        game.undo()
        tracker.changed()
        path = tracker.slot.path()
        data = path.read_bytes()
        tracker.close()
        return path.name, data
    finally:
        if old is None:
            del os.environ["SOLITAIRE_HOME"]
        else:
            os.environ["SOLITAIRE_HOME"] = old


def test_the_base_save_reads_back_as_it_was_played(base_save, tmp_path):
    name, data = base_save
    path = tmp_path / name
    path.write_bytes(data)
    saved = saves.read_save_file(KLONDIKE, path)
    assert saved is not None and saved.game.moves == 11 and saved.game.future  # the undone move is redoable
    check_game(saved.game)


@FUZZ
@given(data=st.data())
def test_a_mutated_save_reads_back_whole_or_is_refused_in_one_line(base_save, tmp_path, data):
    name, text = base_save
    path = tmp_path / name
    path.write_bytes(data.draw(mutations(text)))
    try:
        saved = saves.read_save_file(KLONDIKE, path)
    except saves.SaveError as exc:
        reason = str(exc)
        assert reason and "\n" not in reason
        return
    if saved is not None:
        check_game(saved.game)


@FUZZ
@given(seed=st.integers(0, 2000), steps=st.integers(0, 30), data=st.data())
def test_a_mutated_position_file_loads_whole_or_is_refused_in_one_line(tmp_path, seed, steps, data):
    text = position_json(played(seed, steps).to_position()).encode("utf-8")
    path = tmp_path / "position.json"
    path.write_bytes(data.draw(mutations(text)))
    try:
        game = Game.from_position(KLONDIKE, read_position_file(path))
    except PositionError as exc:
        reason = str(exc)
        assert reason and "\n" not in reason
        return
    check_game(game)


def test_the_fuzzers_reach_both_outcomes(base_save, tmp_path):
    """A mutation that keeps the save whole and one that breaks it: the property above sees
    both kinds of file, so it cannot pass by refusing everything."""
    name, text = base_save
    path = tmp_path / name
    head, _, rest = text.partition(b"\n")
    path.write_bytes(head + b"\n" + rest[: rest.rfind(b"\n", 0, len(rest) - 1) + 1])  # the last line gone
    saved = saves.read_save_file(KLONDIKE, path)
    assert saved is not None and saved.game.moves == 12 and not saved.game.future
    path.write_bytes(text.replace(b"\n", b"\n9" + b"9" * 60 + b" t1 f\n", 1))
    with pytest.raises(saves.SaveError):
        saves.read_save_file(KLONDIKE, path)
