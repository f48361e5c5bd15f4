"""docs/games/index.md lists every installed game with its family, deck and the page of its
rules; the page names the game. Regenerate the table with ``python tests/test_catalogue_page.py``
after adding a game (and its section on its family's page)."""

from __future__ import annotations

import re
from pathlib import Path

from solitaire.core import Rules, registry

DOCS = Path(__file__).resolve().parent.parent / "docs"
INDEX = DOCS / "games" / "index.md"
HEAD = """# The catalogue

Every game solitaire installs, by family. Each is one YAML file
(`variants/FAMILY/GAME.yaml`); `solitaire rules GAME` prints its rules in words, `solitaire
variants` lists them, and the link gives the family's page. A test checks this table against
the installed games (`python tests/test_catalogue_page.py` writes it).

| Game | `solitaire play` | Family | Cards | From |
|---|---|---|---|---|
"""

TAIL = """
The example of a game published as a package of its own, `examples/solitaire-yukon` (see
[Write a variant](../write-a-variant.md)), is a Yukon too: installed beside the built-in one it
answers to `solitaire-yukon:yukon`, and `solitaire variants` says so.

## Not in the catalogue

- **Gaps** (Montana) waits for two things the kernel cannot say yet: see
  [Removal games](removal.md#gaps-not-yet-built-in).
- **Alpha Star**: neither PySolFC nor Aisleriot plays a game of that name, nor does any source
  we could check give its rules; we will not make rules up and call them a classic. A game
  whose rules are known is one YAML file away ([Write a variant](../write-a-variant.md)).
"""


def page_of(name: str, title: str) -> Path | None:
    """The page that tells the game's rules: its own (Klondike, Calculation), else the family
    page that names it (`NAME`, `solitaire play NAME`) or has a section titled by it."""
    own = DOCS / f"{name}.md"
    if own.exists():
        return own
    for page in [*sorted((DOCS / "games").glob("*.md")), DOCS / "klondike.md", DOCS / "calculation.md"]:
        if page == INDEX:
            continue
        text = page.read_text()
        if f"`{name}`" in text or re.search(rf"solitaire play {re.escape(name)}\b", text) \
                or re.search(rf"^#+ {re.escape(title)}$", text, flags=re.M):
            return page
    return None


def table() -> str:
    rows = []
    built_in = [d for d in registry().sorted() if d.provider == "solitaire-table"]
    for defn in sorted(built_in, key=lambda d: (d.family, d.title)):
        page = page_of(defn.name, defn.title)
        where = None if page is None else page.name if page.parent.name == "games" else f"../{page.name}"
        link = "(no page)" if where is None else f"[{defn.title}]({where})"
        rows.append(f"| {link} | `{defn.name}` | {defn.family} | {len(Rules.of(defn).deck)} | {defn.provider} |")
    return HEAD + "\n".join(rows) + "\n" + TAIL


def test_the_catalogue_page_lists_every_installed_game_with_the_page_of_its_rules():
    assert INDEX.read_text() == table(), "docs/games/index.md is stale: run python tests/test_catalogue_page.py"
    assert "(no page)" not in INDEX.read_text()
    assert INDEX.read_text().count("\n| [") >= 50


if __name__ == "__main__":
    INDEX.write_text(table())
