"""``solitaire play``: resume or deal a game and play it in the mode the terminal calls for.

Free of Typer, so that a plain ``solitaire play ...`` line (read by :mod:`.quickargs`) starts
without loading it; the Typer command in :mod:`.commands` calls the same function.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solitaire.core import Game, VariantDef
from solitaire.core.i18n import N_, _, ngettext

from .common import MS, UNCHECKED, UserError, _start_game, _variant, _variant_options, fail, ms_deal, on_terminal

if TYPE_CHECKING:
    from .saves import Saved, Slot, SlotLock, Tracker, Unfinished


def play_game(variant: str | None = None, seed: int | None = None, position: Path | None = None,
              new: bool = False, deal_code: str | None = None, daily: bool = False, plain: bool = False,
              four_colour: bool = False, hints: bool = False, any_deal: bool = False, json_mode: bool = False,
              extra: tuple[str, ...] | list[str] = (), ms: int | None = None) -> None:
    """Play a game (see ``solitaire play --help``); ``extra`` holds the variant's own options
    as the words of the command line (``--NAME VALUE``); ``ms`` names Microsoft's numbered
    deal of that number. With no game named: list the unfinished games, or on a terminal open
    the picker."""
    from solitaire.core.files import remove_stale_temporaries

    from . import saves

    if variant is None and deal_code is None:
        # (with json_mode: the protocol plays a game, it has no list to speak)
        if seed is not None or ms is not None or position is not None or daily or new or extra or json_mode:
            fail(_("name the game to play, e.g. 'solitaire play klondike', or give --deal CODE"))
        if plain or json_mode or not on_terminal():
            print(unfinished_text(), end="")
            return
        from .tui.picker import pick  # only here: listing never loads Textual

        unfinished()  # saves of format 1 into their slots first, said here, before the picker opens
        choice = pick()
        if choice is None:
            return
        if choice.path is not None:
            return _resume_file(choice.path, four_colour=four_colour, hints=hints, any_deal=any_deal)
        return play_game(choice.variant, four_colour=four_colour, hints=hints, any_deal=any_deal)

    if deal_code is not None:
        from .sharecode import ShareCodeError, decode

        if seed is not None or ms is not None or position is not None or daily:
            fail(_("--deal names the deal: give no --seed, --ms, --position or --daily with it"))
        try:
            defn, code_options, seed, numbering = decode(deal_code)
        except ShareCodeError as exc:
            fail(str(exc))
        if variant is not None and _variant(variant).name != defn.name:
            fail(_("the share code is for {game}, not {named}").format(game=defn.name, named=variant))
        options = _variant_options(defn, list(extra))
        if options:
            fail(_("the share code fixes the options: give none with --deal"))
        options = code_options
        if numbering is not None:  # the code names a Microsoft deal
            ms, seed = seed, None
    else:
        assert variant is not None
        defn = _variant(variant)
        options = _variant_options(defn, list(extra))
        if daily:
            from .sharecode import daily_seed

            if seed is not None or ms is not None or position is not None:
                fail(_("--daily names the deal: give no --seed, --ms or --position with it"))
            seed = daily_seed()
        if ms is not None:
            if seed is not None or position is not None:
                fail(_("--ms names the deal: give no --seed or --position with it"))
            ms_deal(defn, ms)

    table = not (json_mode or plain) and on_terminal()
    if (plain or json_mode) and (four_colour or hints):
        fail(_("{option} is for the full-screen table, not {mode}").format(
            option="--four-colour" if four_colour else "--hints", mode="--json" if json_mode else "--plain"))
    if seed is not None and position is not None:
        fail(_("give --seed or --position, not both"))
    full = defn.resolve_options(options)

    # what to tell the player, one line each: on stderr; the table shows the short form on its
    # status line (80 columns) and prints the whole lines when it closes
    notices: list[tuple[str, str]] = []  # (whole, short)

    def say(message: str) -> None:
        notices.append((message, message))

    remove_stale_temporaries(saves.saves_dir())
    saves.migrate_legacy(defn, say_unreadable(notices, defn.name))
    start_game: Game | None = None
    if position is not None:  # the file is read first: one that cannot be read changes nothing
        start_game = _start_game(defn, options, None, position, any_deal=any_deal)
        slot = saves.Slot.for_game(start_game, named=True, start=start_game.to_position())
    elif ms is not None:
        slot = saves.Slot(defn.name, full, deal=ms, numbering=MS)
    elif seed is not None:
        slot = saves.Slot(defn.name, full, deal=seed)
    else:
        slot = saves.Slot(defn.name, full)

    lock: saves.SlotLock | None = None
    saved: saves.Saved | None = None
    if slot.named:
        lock, saved = _open_slot(defn, slot, notices, say)
        if saved is None and seed is not None:  # the free slot may hold this very deal
            free = slot.free()
            head = saves.read_header(free.path())
            if head is not None and head.get("seed") == seed and head.get("start") is None:
                other, found = _open_slot(defn, free, notices, say)
                if found is not None and found.game.seed == seed and found.dealt:
                    _release(lock)
                    lock, saved, slot = other, found, free
                else:
                    _release(other)
    elif not new:  # the most recently played game of this variant with the options given
        for path in saves.save_files():
            head = saves.read_header(path)
            if head is None or head.get("variant") != defn.name or not isinstance(head.get("options"), dict) \
                    or any(head["options"].get(k) != v for k, v in options.items()):
                continue
            candidate = _slot_of(defn, path, head)
            if candidate is None:
                continue
            try:
                other, found = _open_slot(defn, candidate, notices, say)
            except UserError:  # being played elsewhere: not this one
                continue
            if found is not None:
                lock, saved, slot = other, found, candidate
                break
            _release(other)

    tracker: saves.Tracker | None = None
    if saved is not None and not new:
        tracker = saves.Tracker(saved.game, saved.elapsed, saved.dealt, slot=saved.slot, lock=lock,
                                game_id=saved.game_id, log=saved.log, start=saved.start, say=say)
        # a damaged save met on the way to this one: no new game starts after all
        notices[:] = [(whole.removesuffix(_(STARTING)), short) for whole, short in notices]
        if (seed is not None or ms is not None) and saved.game.history:  # the player named this deal
            said = _("resuming your game of this deal ({moves}); --new deals it again").format(
                moves=_moves(saved.game.moves))
            notices.append((said, said))
    else:
        try:
            game = start_game or _start_game(defn, options, seed, None, any_deal=any_deal, told=say, ms=ms)
        except BaseException:  # a deal that cannot be dealt: the slot is let go, unchanged
            _release(lock)
            raise
        if lock is None:
            try:
                lock, saved = _open_slot(defn, slot, notices, say)
            except UserError:
                if new or slot.named:
                    raise
                # the free slot's game is being played elsewhere: this deal gets its own slot
                slot = saves.Slot.for_game(game, named=True)
                lock, saved = _open_slot(defn, slot, notices, say)
                from .sharecode import code_of

                said = _("your other {game} game is open in another solitaire: this deal is saved "
                         "apart ('solitaire play --deal {code}' resumes it)").format(game=defn.name, code=code_of(game))
                notices.append((said, said))
        if saved is not None:  # --new: the slot's game is given up
            left = saves.Tracker(saved.game, saved.elapsed, saved.dealt, slot=saved.slot, lock=lock,
                                 game_id=saved.game_id, log=saved.log, start=saved.start, say=say)
            if not left.abandon():
                _release(lock)
                fail(_("the saved {game} game cannot be given up now: it is kept; nothing else changed").format(
                    game=defn.name))
            if left.game.history:
                said = _left(left.game, left.dealt)
                notices.append((said, said))
        tracker = saves.Tracker(game, dealt=start_game is None, slot=slot, lock=lock, say=say)
        tracker.begin()
    _run(tracker, notices, table, json_mode, four_colour, hints, any_deal)


def _run(tracker: Tracker, notices: list[tuple[str, str]], table: bool, json_mode: bool,
         four_colour: bool, hints: bool, any_deal: bool) -> None:
    """Play the tracker's game in the mode asked for; let its slot go at the end."""
    game = tracker.game
    defn = game.rules.variant

    from .session import Session

    session = Session(game, tracker)
    unchecked = any(whole == _(UNCHECKED) for whole, _short in notices)  # the deal just dealt
    try:
        if not table:
            for whole, _short in notices:
                print(f"solitaire: {whole}", file=sys.stderr)
            notices.clear()
            tracker.say = _on_stderr
            gc.enable()  # start-up is over (see main); the table turns it back on after its first frame
        if json_mode:
            from .protocol import run_json

            run_json(game, sys.stdin, sys.stdout, session, unchecked=unchecked)
        elif not table:
            from .linemode import run_lines

            run_lines(game, sys.stdin, sys.stdout, session)
        else:
            from .tui.app import run_table  # only here: line and JSON modes never load Textual

            unchecked_deals: set[int | None] = set()

            def next_deal(current: Game) -> Game:  # the table's "new deal": as play would deal
                told: list[str] = []
                dealt = _start_game(defn, dict(current.rules.options), None, None, any_deal=any_deal,
                                    told=told.append)
                if told:
                    unchecked_deals.add(dealt.seed)
                return dealt

            def deal_notice(dealt: Game) -> str | None:  # what the table says of a new deal
                return _(UNCHECKED) if dealt.seed in unchecked_deals else None

            shown = len(notices)
            run_table(tracker, four_colour=four_colour, outline=hints, next_deal=next_deal,
                      notice="; ".join(short for _, short in notices) or None, deal_notice=deal_notice)
            for i, (whole, short) in enumerate(notices):
                if whole != short or i >= shown:  # the table had room for the short form only
                    print(f"solitaire: {whole}", file=sys.stderr)
    finally:
        tracker.close()


def _on_stderr(message: str) -> None:
    print(f"solitaire: {message}", file=sys.stderr)


STARTING = N_("; starting a new game")


def say_unreadable(notices: list[tuple[str, str]], name: str) -> Callable[[str, Path], None]:
    """What to say of a save that could not be read and was moved aside (whole and short)."""

    def told(reason: str, aside: Path) -> None:
        notices.append((_("the saved {game} game could not be read ({reason}); moved it to {path}").format(
                            game=name, reason=reason, path=aside) + _(STARTING),
                        _("the saved {game} game could not be read: moved aside (where: when you quit)").format(
                            game=name)))

    return told


def _release(lock: SlotLock | None) -> None:
    if lock is not None:
        lock.release()


def _slot_of(defn: VariantDef, path: Path, head: dict[str, Any]) -> Slot | None:
    """The slot a save's header names, if the file is where that slot keeps its game."""
    from . import saves

    try:
        options = defn.resolve_options(head.get("options"))
    except Exception:  # a damaged header: left for whoever plays that slot
        return None
    seed, named = head.get("seed"), head.get("named") is True
    if not named:
        slot = saves.Slot(defn.name, options)
    elif head.get("start") is not None:
        slot = saves.Slot(defn.name, options, position=path.stem.rpartition("-position-")[2])
    else:
        numbering = head.get("numbering")
        slot = saves.Slot(defn.name, options, deal=seed if isinstance(seed, int) else None,
                          numbering=numbering if isinstance(numbering, str) else None)
    return slot if slot.path() == path else None


def _open_slot(defn: VariantDef, slot: Slot, notices: list[tuple[str, str]],
               say: Callable[[str], None]) -> tuple[SlotLock | None, Saved | None]:
    """Claim the slot and read its game: (lock, saved game or None). A save that cannot be
    read is moved aside and said; a won one is finished (its win recorded, once). Raise
    UserError when another process plays the slot. A folder that cannot be used gives no lock
    (the game plays on unsaved, and says so when it first tries to save)."""
    from . import saves

    lock: saves.SlotLock | None
    try:
        lock = saves.SlotLock(slot).acquire()
    except saves.SlotBusy as exc:
        fail(_("{reason}: play it there, or name another deal (--seed, --deal)").format(reason=exc))
        raise  # unreachable
    except OSError:
        lock = None
    try:
        saved = saves.read_save_file(defn, slot.path())
    except saves.SaveError as exc:
        if lock is None:  # not ours to move: leave it
            return None, None
        try:
            aside = saves.move_aside(slot.path())
        except OSError as err:
            lock.release()
            fail(_("the saved {game} game cannot be read ({reason}) nor moved aside ({error})").format(
                game=defn.name, reason=exc, error=err))
            raise  # unreachable
        say_unreadable(notices, defn.name)(str(exc), aside)
        return lock, None
    if saved is not None and saved.game.won:  # a win whose recording was cut short: finish it
        done = saves.Tracker(saved.game, saved.elapsed, saved.dealt, slot=saved.slot, lock=lock,
                             game_id=saved.game_id, log=saved.log, start=saved.start, say=say)
        done.changed()
        saved = None
    return lock, saved


def unfinished_text() -> str:
    """The unfinished games, the most recent first, each with how to resume it."""
    from solitaire.core import registry

    from .sharecode import code_of
    from .stats import describe_options, format_time

    lines = []
    for entry in unfinished():
        if entry.error is not None:
            lines.append("  " + _("{file}: cannot be read ({reason})").format(file=entry.path.name, reason=entry.error))
            continue
        assert entry.saved is not None
        game = entry.saved.game
        opts = describe_options(dict(game.rules.options))
        title = game.rules.name + (f" ({opts})" if opts else "")
        code = code_of(game) if entry.saved.start is None else None
        where = _("deal {code}").format(code=code) if code else _("from a position")
        lines.append(f"  {title}: {where}, {_moves(game.moves)}, {format_time(entry.saved.elapsed)}")
        if code:
            lines.append(f"      solitaire play --deal {code}")
        else:
            lines.append(f"      solitaire play {game.rules.name} --position FILE  " + _("(the same position file)"))
    games = ", ".join(d.name for d in registry().sorted())
    if not lines:
        return _("No unfinished games. Start one with 'solitaire play GAME' (games: {games}).").format(
            games=games) + "\n"
    return (_("Unfinished games, the most recently played first:") + "\n" + "\n".join(lines) + "\n"
            + _("Or start one with 'solitaire play GAME' (games: {games}).").format(games=games) + "\n")


def unfinished() -> list[Unfinished]:
    """Every unfinished game saved, replayed (nothing is moved or changed, but saves of format 1
    are brought into their slots first, as playing their game would, and said on stderr)."""
    from solitaire.core import registry

    from . import saves

    for defn in registry().sorted():
        if os.path.lexists(saves.legacy_path(defn.name)):
            told: list[tuple[str, str]] = []
            saves.migrate_legacy(defn, say_unreadable(told, defn.name))
            for whole, _short in told:
                print(f"solitaire: {whole.removesuffix(_(STARTING))}", file=sys.stderr)
    return saves.unfinished()


def _resume_file(path: Path, four_colour: bool = False, hints: bool = False, any_deal: bool = False) -> None:
    """Resume the game saved in ``path`` (the picker's choice) on the table."""
    from . import saves

    head = saves.read_header(path) or {}
    defn = _variant(str(head.get("variant")))
    slot = _slot_of(defn, path, head)
    if slot is None:
        fail(_("{file} is not a save this version can resume").format(file=path.name))
        raise AssertionError  # unreachable
    notices: list[tuple[str, str]] = []

    def say(message: str) -> None:
        notices.append((message, message))

    lock, saved = _open_slot(defn, slot, notices, say)
    if saved is None:
        _release(lock)
        return play_game(defn.name, four_colour=four_colour, hints=hints, any_deal=any_deal)
    tracker = saves.Tracker(saved.game, saved.elapsed, saved.dealt, slot=saved.slot, lock=lock,
                            game_id=saved.game_id, log=saved.log, start=saved.start, say=say)
    _run(tracker, notices, on_terminal(), False, four_colour, hints, any_deal)


def _left(game: Game, dealt: bool) -> str:
    """What became of a saved game the player left for another: one line (it fits 80 columns
    beside a long share code, for the table's status line)."""
    from .sharecode import code_of

    code = code_of(game)
    if dealt and code is not None:
        return _("left your game {code} ({moves}): it counts as lost").format(code=code, moves=_moves(game.moves))
    return _("left your {game} game from a position ({moves}): not counted").format(
        game=game.rules.name, moves=_moves(game.moves))


def _moves(n: int) -> str:
    return ngettext("{n} move", "{n} moves", n).format(n=n)
