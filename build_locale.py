"""The install's step that compiles the translations: each ``core/locale/<lang>/LC_MESSAGES/*.po``
into the ``.mo`` beside it, which the wheel ships (package data) and an editable install reads
in place. Kept in its own module, ``setup.py`` only names it (see docs/design.md, "Languages").
"""

from __future__ import annotations

from pathlib import Path

from setuptools.command.build_py import build_py

LOCALE = Path(__file__).resolve().parent / "core" / "locale"


def compile_catalogs(locale: Path = LOCALE) -> list[Path]:
    """Write the ``.mo`` of every ``.po`` under ``locale`` (fuzzy entries left out); return them."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as fp:
            catalog = read_po(fp, locale=po.parent.parent.name)
        mo = po.with_suffix(".mo")
        with mo.open("wb") as fp:
            write_mo(fp, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class BuildPyWithLocale(build_py):
    """setuptools' ``build_py``, which first compiles the catalogs (for a wheel, an sdist's
    build and ``pip install -e .`` alike: the editable install runs it too)."""

    def run(self) -> None:
        compile_catalogs()
        super().run()
