"""A fast path for ``solitaire play ...``: its arguments read straight from the command's own
declaration (the ``typer.Option`` defaults of its signature), without Typer's parsing.

Typer checks and converts every parameter through pydantic, whose import and adapters cost
about a tenth of a second: a third of the table's start-up budget. This reader takes only the
plain, unambiguous command lines (known options, plain values, the variant first) and returns
``None`` for anything else (``--help``, an unknown option before the variant, a repeated
option, a value that is not plainly valid), which Typer then parses with its own messages.
A test checks that whatever it accepts, Typer reads the same way.
"""

from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from typer.models import ArgumentInfo, OptionInfo

_WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")  # a plain whole number, no sign, no leading zero
_KINDS = {str: str, Optional[str]: str, int: int, Optional[int]: int, bool: bool,
          Path: Path, Optional[Path]: Path}


def quick_args(command: Callable[..., Any], args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments Typer would call ``command`` with for ``args`` (the words after
    the command's name), or None when the line is not a plain one."""
    hints = typing.get_type_hints(command)
    options: dict[str, tuple[str, type, OptionInfo]] = {}  # "--seed" -> (parameter, kind, info)
    positional: list[str] = []
    values: dict[str, Any] = {}
    context = None
    for name, param in inspect.signature(command).parameters.items():
        info = param.default
        hint = hints.get(name)
        if hint is typer.Context:
            context = name
            continue
        kind = _KINDS.get(hint)  # type: ignore[arg-type]
        if kind is None or not isinstance(info, (OptionInfo, ArgumentInfo)) or info.default is ...:
            return None
        if getattr(info, "callback", None) is not None or getattr(info, "envvar", None):
            return None
        values[name] = info.default
        if isinstance(info, ArgumentInfo):
            positional.append(name)
            continue
        decls = [d for d in (info.param_decls or ()) if d.startswith("--")]
        if not decls or len(decls) != len(info.param_decls or ()):
            return None
        for decl in decls:
            options[decl] = (name, kind, info)
    extra: list[str] = []
    seen: set[str] = set()
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word.startswith("-"):
            key, eq, value = word.partition("=")
            if key not in options:  # an option of the variant: after the variant only (as Typer)
                if positional or not key.startswith("--") or key == "--" or key == "--help":
                    return None
                extra.append(word)
                continue
            name, kind, info = options[key]
            if name in seen:
                return None
            seen.add(name)
            if kind is bool:
                if eq or info.default is not False:
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
                if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
                    return None
                values[name] = number
            else:
                values[name] = kind(value)
        elif positional:
            values[positional.pop(0)] = word
        elif extra:
            extra.append(word)  # the value of a variant's option
        else:
            return None
    if context is not None:
        values[context] = _Context(extra)
    elif extra:
        return None
    return values


class _Context:
    """What the command reads of Typer's context: the words left for the variant's options."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
