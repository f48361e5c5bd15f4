"""Share codes: one word naming a deal, e.g. ``klondike-d3-48213``.

A code is the variant's name, one token per option that differs from its default, and the
seed, joined by ``-``. An option token is the shortest prefix of the option's name that no
other option of the variant shares, followed by the value: ``d3`` (draw 3), ``red2`` (2
redeals), ``redu`` (unlimited), ``rel`` (a switch turned on; ``rel0`` turns one off).
Defaults are left out, so the plain deal is just ``klondike-48213``. A deal of a public
numbering the variant declares has that numbering's tag before its number: ``freecell-ms617``
is Microsoft's numbered deal 617 (``--ms 617``); codes without a tag are the kernel's deals.

>>> from solitaire.core import get_variant
>>> encode(get_variant("klondike"), {"draw": 3}, 48213)
'klondike-d3-48213'
>>> decode("klondike-d3-48213")[1:]
({'draw': 3}, 48213, None)
>>> encode(get_variant("freecell"), {"cells": 3}, 617, numbering="microsoft")
'freecell-c3-ms617'
>>> decode("freecell-c3-ms617")[1:]
({'cells': 3}, 617, 'microsoft')
"""

from __future__ import annotations

import datetime
from typing import Any

from solitaire.core import OptionError, Rules, SolitaireError, VariantDef, get_variant
from solitaire.core.i18n import _
from solitaire.core.shuffle import MAX_SEED

DAILY_SEEDS = 1_000_000_000
TAGS = {"microsoft": "ms"}  # a numbering's tag before the deal number in a code


class ShareCodeError(ValueError):
    """A code that names no deal (the message says why, in one line)."""


def _prefixes(defn: VariantDef) -> dict[str, str]:
    names = [o.name.replace("_", "") for o in defn.options]
    out = {}
    for o, name in zip(defn.options, names, strict=True):
        others = [n for n in names if n != name]
        k = 1
        while k < len(name) and any(n.startswith(name[:k]) for n in others):
            k += 1
        out[o.name] = name[:k].lower()
    return out


def _value(option: Any, value: Any) -> str:
    if option.kind == "flag":
        return "" if value else "0"
    if option.kind == "count" and value is None:
        return "u"
    return str(value).lower()


def encode(defn: VariantDef, options: dict[str, Any], seed: int, numbering: str | None = None) -> str:
    """The code of deal ``seed`` of ``defn`` under ``options`` (given or full); of deal number
    ``seed`` of that public numbering when ``numbering`` is given."""
    values = defn.resolve_options(options)
    prefixes = _prefixes(defn)
    parts = [defn.name]
    for o in defn.options:
        if values[o.name] != o.default:
            parts.append(prefixes[o.name] + _value(o, values[o.name]))
    parts.append(f"{TAGS[numbering] if numbering else ''}{seed}")
    return "-".join(parts)


def code_of(game: Any) -> str | None:
    """The code of a dealt :class:`~solitaire.core.Game`; None for one set up from a position."""
    if game.seed is None:
        return None
    return encode(game.rules.variant, dict(game.rules.options), game.seed, game.numbering)


def decode(code: str) -> tuple[VariantDef, dict[str, Any], int, str | None]:
    """(variant, options given by the code, seed, the seed's numbering or None); raise
    ShareCodeError."""
    text = code.strip().lower()
    parts = text.split("-")
    last = parts[-1]
    numbering = next((name for name, tag in TAGS.items() if last.startswith(tag)), None)
    number = last[len(TAGS[numbering]):] if numbering else last
    if len(parts) < 2 or not number.isdigit():
        raise ShareCodeError(_("bad share code {code!r}: expected VARIANT[-OPTION...]-NUMBER, "
                               "e.g. klondike-d3-48213 (or freecell-ms617 for a Microsoft deal)").format(code=code))
    seed = int(number)
    if seed > MAX_SEED:
        raise ShareCodeError(_("bad share code {code!r}: the deal number is above {max}").format(
            code=code, max=MAX_SEED))
    defn = None
    for k in range(len(parts) - 1, 0, -1):
        try:
            defn = get_variant("-".join(parts[:k]))
        except SolitaireError:
            continue
        break
    if defn is None:
        raise ShareCodeError(_("bad share code {code!r}: it names no installed variant").format(code=code))
    prefixes = _prefixes(defn)
    options: dict[str, Any] = {}
    for token in parts[k:-1]:
        matches = sorted(((p, name) for name, p in prefixes.items() if token.startswith(p)),
                         key=lambda pn: -len(pn[0]))
        for p, name in matches:
            option = defn.option(name)
            raw = token[len(p):]
            try:
                if option.kind == "flag":
                    if raw not in ("", "0"):
                        raise OptionError("bad switch")
                    value: Any = raw == ""
                elif option.kind == "count" and raw == "u":
                    value = option.parse("unlimited")
                else:
                    value = option.parse(raw)
            except OptionError:
                continue
            if name in options:
                raise ShareCodeError(_("bad share code {code!r}: option {name} given twice").format(
                    code=code, name=name))
            options[name] = value
            break
        else:
            raise ShareCodeError(_("bad share code {code!r}: {token!r} is not an option of {game}").format(
                code=code, token=token, game=defn.name))
    try:
        Rules.of(defn, options)
    except SolitaireError as exc:
        raise ShareCodeError(_("bad share code {code!r}: {reason}").format(code=code, reason=exc)) from None
    if numbering is not None:
        from solitaire.core.shuffle import NUMBERINGS

        known = NUMBERINGS[numbering]
        if defn.numbering != numbering:
            raise ShareCodeError(_("bad share code {code!r}: {game} has no {numbering} deal numbers").format(
                code=code, game=defn.name, numbering=numbering))
        if not known.first <= seed <= known.last:
            raise ShareCodeError(_("bad share code {code!r}: a {numbering} deal number is from "
                                   "{first} to {last}").format(code=code, numbering=numbering,
                                                               first=known.first, last=known.last))
    return defn, options, seed, numbering


def daily_seed(day: datetime.date | None = None) -> int:
    """The deal of the day (UTC): the same number for everyone, every variant."""
    if day is None:
        day = datetime.datetime.now(datetime.UTC).date()
    import hashlib

    digest = hashlib.sha256(f"solitaire-daily-{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % DAILY_SEEDS
