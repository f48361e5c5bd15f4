"""The players' languages: gettext through the standard library, for the kernel and every front end.

Every string a player reads is written in English in the code, wrapped in :func:`_` (or
:func:`ngettext` when it holds a count, :func:`N_` where it is only marked, to be translated
where it is shown), extracted by Babel into ``locale/solitaire.pot`` and translated in
``locale/<lang>/LC_MESSAGES/solitaire.po`` beside this module. The install compiles each
``.po`` into its ``.mo`` (``build_locale.py``, a setuptools build step); a catalog whose ``.mo``
is missing or older than its ``.po`` (a source tree edited after ``pip install -e .``) is
compiled in memory at first use when Babel is installed, else its ``.mo`` (if any) is used.

The language is the one the user's locale names, looked up as gettext programs look it up
(``LANGUAGE``, a list separated by colons, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; ``C``
or ``POSIX`` means English), unless :func:`set_language` names one (``--lang CODE``). English
is the fallback for a language, or an entry, without a translation.

A server answering people in their own languages renders each answer with :func:`speaking`:
within it, in that thread or asyncio task alone, :func:`_` and :func:`ngettext` speak the
language named, the process's own language unchanged everywhere else.
"""

from __future__ import annotations

import contextlib
import gettext
import io
import os
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

DOMAIN = "solitaire"
LOCALE_DIR = Path(__file__).parent / "locale"
# the languages shipped, English (the code's own) first
LANGUAGES = ("en", "uk", "ro", "el", "ht", "ar")
# the languages written right to left (see solitaire.cli.bidi)
RIGHT_TO_LEFT = frozenset({"ar"})
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current: gettext.NullTranslations = gettext.NullTranslations()
_code = "en"
_loaded: dict[str, gettext.NullTranslations] = {}
# the language spoken in this thread or task only (see speaking), over the process's
_speaking: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar("solitaire_speaking", default=None)


def _(message: str) -> str:
    """``message`` in the current language (the English text itself when untranslated)."""
    spoken = _speaking.get()
    return (_current if spoken is None else spoken[1]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that the current language uses for ``n``."""
    spoken = _speaking.get()
    return (_current if spoken is None else spoken[1]).ngettext(singular, plural, n)


def shipped(code: object) -> str | None:
    """``code`` if it names a language shipped (``el``, ``el_GR``, ``el-GR``: ``el``), else None."""
    if not isinstance(code, str) or not 0 < len(code) <= 16:
        return None
    base = code.replace("-", "_").split("_", 1)[0].lower()
    return base if base in LANGUAGES else None


@contextlib.contextmanager
def speaking(code: str) -> Iterator[str]:
    """Within: speak ``code`` (a language shipped; English for any other) in this thread or
    asyncio task alone, e.g. to render a server's answer to one connection; the process's
    language (:func:`set_language`) is unchanged, here after and everywhere else."""
    chosen = shipped(code) or "en"
    token = _speaking.set((chosen, catalog(chosen)))
    try:
        yield chosen
    finally:
        _speaking.reset(token)


def N_(message: str) -> str:  # (gettext's own name for a marker)
    """Mark ``message`` for extraction only: it is translated where it is shown, with :func:`_`."""
    return message


def language() -> str:
    """The code of the language in use (``en`` when none of the user's is shipped)."""
    spoken = _speaking.get()
    return _code if spoken is None else spoken[0]


def right_to_left() -> bool:
    """Whether the language in use is written right to left."""
    return language() in RIGHT_TO_LEFT


def wanted(environ: dict[str, str] | os._Environ[str] | None = None) -> list[str]:
    """The languages the environment asks for, in order, as gettext reads them: the first of
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, split at colons; each
    ``ll_CC.ENCODING@MODIFIER`` gives ``ll_CC`` then ``ll``; ``C``/``POSIX`` ends the list."""
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = env.get(name)
        if value:
            break
    else:
        return []
    out: list[str] = []
    for item in value.split(":"):
        code = item.split("@", 1)[0].split(".", 1)[0]
        if code in ("C", "POSIX"):
            break
        for each in (code, code.split("_", 1)[0]):
            if each and each not in out:
                out.append(each)
    return out


def pick(codes: list[str]) -> str:
    """The first shipped language among ``codes`` (``ll`` or ``ll_CC``), else English."""
    for code in codes:
        base = code.replace("-", "_").split("_", 1)[0].lower()
        if base in LANGUAGES:
            return base
    return "en"


def set_language(code: str | None = None) -> str:
    """Speak ``code`` (one of :data:`LANGUAGES`) from now on, or with ``None`` the language
    the environment asks for; return the code in use. Raise ValueError for a code not shipped."""
    global _current, _code
    if code is None:
        chosen = pick(wanted())
    else:
        chosen = code.replace("-", "_").split("_", 1)[0].lower()
        if chosen not in LANGUAGES:
            raise ValueError(code)
    _current = catalog(chosen)
    _code = chosen
    return chosen


def catalog(code: str) -> gettext.NullTranslations:
    """The translations of one language (kept once loaded); English's is the identity."""
    if code == "en":
        return gettext.NullTranslations()
    if code not in _loaded:
        _loaded[code] = _load(code)
    return _loaded[code]


def _load(code: str) -> gettext.NullTranslations:
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        compiled = compile_po(po)
        if compiled is not None:
            return gettext.GNUTranslations(io.BytesIO(compiled))
    if mo.exists():
        with mo.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    return gettext.NullTranslations()


def compile_po(po: Path) -> bytes | None:
    """The ``.mo`` bytes of a ``.po`` file (fuzzy entries left out, as msgfmt does), or None
    when Babel is not installed."""
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:
        return None
    with po.open("rb") as fp:
        messages = read_po(fp, locale=po.parent.parent.name)
    out = io.BytesIO()
    write_mo(out, messages, use_fuzzy=False)
    return out.getvalue()


set_language()
