"""A fast path for ``solitaire play ...`` (and ``deal``, ``variants``, ``stats``, ``solve``): the
arguments read without Typer's checks.

Typer checks and converts every parameter through pydantic, and Typer itself takes a while
to import: together about a tenth of a second, a quarter of the table's start-up budget.
This reader takes only the plain, unambiguous command lines (known options, plain values,
the variant first) and returns ``None`` for anything else (``--help``, an unknown option
before the variant, a repeated option, a value that is not plainly valid, a required
parameter left out), which Typer then parses with its own messages.

It reads from :data:`PLAY`, a copy of what ``play``'s Typer declaration says (its options,
their kinds, defaults and bounds), written out so that this path never imports Typer, and
from :data:`DEAL`, :data:`VARIANTS`, :data:`STATS` and :data:`SOLVE`, which :func:`.commands.run` uses to
skip Typer's checks (it has imported Typer by then). :func:`declared` derives the same from
a declaration, and tests check that the copies agree and that whatever this reader accepts,
Typer reads the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

_WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")  # a plain whole number, no sign, no leading zero
_DECIMAL = re.compile(r"(0|[1-9][0-9]{0,17})(\.[0-9]{1,17})?")  # a plain decimal: no sign, exponent, inf or nan


class Declared(NamedTuple):
    """What the fast path needs of a command's declaration."""

    positional: tuple[str, ...]  # the arguments' parameter names, in order
    options: dict[str, tuple[str, type, int | None, int | None]]  # "--seed": (parameter, kind, min, max)
    # (a kind is text, a whole number, a plain decimal, a flag or a path)
    defaults: dict[str, Any]  # every parameter's default, but the required ones'
    context: str | None  # the parameter Typer passes its context in (the variant's own options)
    required: frozenset[str] = frozenset()  # parameters without a default: the line must give them


PLAY = Declared(
    positional=("variant",),
    options={
        "--seed": ("seed", int, 0, None),
        "--ms": ("ms", int, 1, 1_000_000),
        "--position": ("position", Path, None, None),
        "--new": ("new", bool, None, None),
        "--deal": ("deal_code", str, None, None),
        "--daily": ("daily", bool, None, None),
        "--plain": ("plain", bool, None, None),
        "--four-colour": ("four_colour", bool, None, None),
        "--hints": ("hints", bool, None, None),
        "--any-deal": ("any_deal", bool, None, None),
        "--json": ("json_mode", bool, None, None),
    },
    defaults={"variant": None, "seed": None, "ms": None, "position": None, "new": False, "deal_code": None,
              "daily": False, "plain": False, "four_colour": False, "hints": False, "any_deal": False,
              "json_mode": False},
    context="ctx",
)

DEAL = Declared(
    positional=("variant",),
    options={
        "--seed": ("seed", int, 0, None),
        "--ms": ("ms", int, 1, 1_000_000),
        "--json": ("json_mode", bool, None, None),
    },
    defaults={"seed": None, "ms": None, "json_mode": False},
    context="ctx",
    required=frozenset({"variant"}),
)

SOLVE = Declared(
    positional=("variant",),
    options={
        "--seed": ("seed", int, 0, None),
        "--seeds": ("seeds", str, None, None),
        "--ms": ("ms", int, 1, 1_000_000),
        "--position": ("position", Path, None, None),
        "--timeout": ("timeout", float, None, None),
        "--states": ("states", int, None, None),
        "--jobs": ("jobs", int, None, None),
        "--memory": ("memory", int, None, None),
        "--threads": ("threads", int, None, None),
        "--cluster": ("cluster", str, None, None),
        "--hint": ("hint", bool, None, None),
        "--json": ("json_mode", bool, None, None),
    },
    defaults={"seed": None, "seeds": None, "ms": None, "position": None, "timeout": None, "states": None, "jobs": 1,
              "memory": None, "threads": None, "cluster": None, "hint": False, "json_mode": False},
    context="ctx",
    required=frozenset({"variant"}),
)

VARIANTS = Declared(positional=(), options={"--json": ("json_mode", bool, None, None)},
                    defaults={"json_mode": False}, context=None)

STATS = Declared(positional=("variant",), options={"--json": ("json_mode", bool, None, None)},
                 defaults={"variant": None, "json_mode": False}, context=None)


def declared(command: Callable[..., Any]) -> Declared | None:
    """What a Typer-declared command's signature says, as :class:`Declared` (None when it has
    a parameter this reader does not handle: a callback, an environment variable, a short
    option, a kind other than text, whole number, flag or path, a flag on by default)."""
    import inspect
    import typing

    import typer
    from typer.models import ArgumentInfo, OptionInfo

    kinds = {str: str, str | None: str, int: int, int | None: int, float: float, float | None: float,
             bool: bool, Path: Path, Path | None: Path}
    hints = typing.get_type_hints(command)
    positional: list[str] = []
    options: dict[str, tuple[str, type, int | None, int | None]] = {}
    defaults: dict[str, Any] = {}
    required: set[str] = set()
    context = None
    for name, param in inspect.signature(command).parameters.items():
        info = param.default
        hint = hints.get(name)
        if hint is typer.Context:
            context = name
            continue
        kind = kinds.get(hint)  # type: ignore[arg-type]
        if kind is None or not isinstance(info, (OptionInfo, ArgumentInfo)):
            return None
        if getattr(info, "callback", None) is not None or getattr(info, "envvar", None):
            return None
        if kind is bool and info.default is not False:
            return None
        if info.default is ...:
            required.add(name)
        else:
            defaults[name] = info.default
        if isinstance(info, ArgumentInfo):
            positional.append(name)
            continue
        decls = [d for d in (info.param_decls or ()) if d.startswith("--")]
        if not decls or len(decls) != len(info.param_decls or ()):
            return None
        for decl in decls:
            options[decl] = (name, kind, getattr(info, "min", None), getattr(info, "max", None))
    return Declared(tuple(positional), options, defaults, context, frozenset(required))


def quick_args(command: Declared, args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments Typer would call the command with for ``args`` (the words after
    its name), the context's left-over words as ``extra``; None when the line is not a plain one."""
    values = dict(command.defaults)
    positional = list(command.positional)
    extra: list[str] = []
    seen: set[str] = set()
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word.startswith("-"):
            key, eq, value = word.partition("=")
            if key not in command.options:  # an option of the variant: after the variant only (as Typer)
                if positional or not key.startswith("--") or key == "--" or key == "--help":
                    return None
                extra.append(word)
                continue
            name, kind, low, high = command.options[key]
            if name in seen:
                return None
            seen.add(name)
            if kind is bool:
                if eq:
                    return None
                values[name] = True
                continue
            if not eq:
                if i >= len(args):
                    return None
                value = args[i]
                i += 1
            if not value or value.startswith("-"):
                return None
            if kind is int:
                if not _WHOLE.fullmatch(value):
                    return None
                number = int(value)
                if (low is not None and number < low) or (high is not None and number > high):
                    return None
                values[name] = number
            elif kind is float:
                if not _DECIMAL.fullmatch(value):
                    return None
                values[name] = float(value)
            else:
                values[name] = kind(value)
        elif positional:
            values[positional.pop(0)] = word
        elif extra:
            extra.append(word)  # the value of a variant's option
        else:
            return None
    if (command.context is None and extra) or not command.required <= values.keys():
        return None
    values["extra"] = extra
    return values


def game_first(command: Declared, args: list[str], is_game: Callable[[str], bool]) -> list[str]:
    """``args`` with the game moved to the front when a game's own option comes before it
    (``play --draw 3 klondike``): Typer (and :func:`quick_args`) would take that option's
    first word for the game, since only the game knows its options. The game is the first
    free word (not a value of the command's own options) that ``is_game``; the line is left
    as it is when no unknown option comes first or no such word is found."""
    positional = command.positional[:1]
    if not positional:
        return args
    i = 0
    unknown_first = False
    while i < len(args):
        word = args[i]
        if word == "--":
            return args
        if word.startswith("-"):
            key = word.partition("=")[0]
            known = command.options.get(key)
            if known is None:
                if key not in ("--help", "-h"):
                    unknown_first = True
            elif known[1] is not bool and "=" not in word:
                i += 1  # its value
        elif not unknown_first:
            return args  # the game comes first already
        elif is_game(word):
            return [word, *args[:i], *args[i + 1:]]
        i += 1
    return args
