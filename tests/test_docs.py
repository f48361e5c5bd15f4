"""The documentation tells the truth: its examples run, its tables match the code, and the site
builds with ``mkdocs build --strict``.

Every example file under docs/examples/ is replayed through the real CLI (or the kernel) and
compared with what the pages show. After a deliberate change to the CLI's output, re-record
the examples with ``python docs/examples/record.py`` and review the diff.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer
import yaml
from typer.core import TyperGroup

from solitaire.cli.main import app
from solitaire.core import Game, Rules, SolitaireError, get_variant, shuffled_deck
from solitaire.core.cards import card_name

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
RECORD_HINT = "if the change is deliberate, run `python docs/examples/record.py` and review the diff"


def matched(pattern: str, text: str) -> re.Match[str]:
    """``re.match``, failing the test when the text does not match."""
    found = re.match(pattern, text)
    assert found is not None, (pattern, text)
    return found


def load_module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


record = load_module(EXAMPLES / "record.py")


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The body of the section with this heading, up to the next heading of its level or above."""
    match = re.search(rf"^(#+) {re.escape(heading)}\s*$", text, re.M)
    assert match, f"no section {heading!r}"
    level = len(match.group(1))
    rest = text[match.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[:end.start()] if end else rest


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the Markdown tables in ``text`` (header rows left out), as stripped cells."""
    rows: list[list[str]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        if re.fullmatch(r"\|[-| :]+\|", line):
            rows.pop()  # the line above was the header
            continue
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def code(cell: str) -> list[str]:
    """The `code` spans of a table cell."""
    return re.findall(r"`([^`]+)`", cell)


def transcript(name: str):
    return record.parse_transcript((EXAMPLES / name).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the site


# the site's languages: English at the root, each other one under /LANG/ (mkdocs.yml's i18n plugin)
SITE_LANGUAGES = ("uk", "ro", "el", "ht", "ar")
# the pages a player reads, each to be translated into every language of the site
PLAYER_PAGES = sorted(["index.md", "table.md", "race.md", "klondike.md", "calculation.md",
                       *(f"games/{p.name}" for p in (DOCS / "games").glob("*.md") if "." not in p.stem)])
# the languages whose translations of PLAYER_PAGES must all be there: the test below lists what
# is missing, and fails for a language named here (add each one once its translators are done)
REQUIRED: set[str] = set(SITE_LANGUAGES)


def build_site(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the site whose mkdocs.yml is in ``root``, run from there."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(root / "mkdocs.yml"),
         "--site-dir", str(site)],
        cwd=root, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built once with ``--strict`` for the tests that read it."""
    out: Path = tmp_path_factory.mktemp("site")
    proc = build_site(ROOT, out)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def test_mkdocs_builds_strictly(site):
    protocol = (site / "reference" / "protocol" / "index.html").read_text(encoding="utf-8")
    assert "waste is empty" in protocol  # the recorded session was included, not just linked
    assert "0x9E3779B97F4A7C15" in (site / "design" / "index.html").read_text(encoding="utf-8")


def html_tag(page: Path) -> str:
    return matched(r"(?s).*?(<html[^>]*>)", page.read_text(encoding="utf-8")).group(1)


def body_tag(page: Path) -> str:
    """The page's ``<body ...>``, where material says the direction (``dir="rtl"``)."""
    return matched(r"(?s).*?(<body[^>]*>)", page.read_text(encoding="utf-8")).group(1)


def test_the_site_is_in_six_languages_with_a_switch(site):
    assert 'lang="en"' in html_tag(site / "index.html")
    home = (site / "index.html").read_text(encoding="utf-8")
    for lang in SITE_LANGUAGES:
        page = site / lang / "index.html"
        assert page.is_file(), f"no {lang} site"
        assert f'lang="{lang}"' in html_tag(page)
        assert f'hreflang="{lang}"' in home  # the language switch offers it
        assert 'hreflang="en"' in page.read_text(encoding="utf-8")  # and the way back
    # the switch leads to the same page in the other language
    table = (site / "uk" / "table" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../../ar/table/" hreflang="ar"' in table and '<a href="../../table/" hreflang="en"' in table
    # a translated home page is the translation; a page nobody translated is the English one
    assert "Встановлення і гра" in (site / "uk" / "index.html").read_text(encoding="utf-8")
    assert (site / "uk" / "reference" / "cli" / "index.html").is_file()
    # each language's nav and site name in its own words
    uk_home = (site / "uk" / "index.html").read_text(encoding="utf-8")
    assert "Командний рядок" in uk_home and "solitaire: пасьянси" in uk_home


def test_the_arabic_site_is_right_to_left(site):
    for page in ["index.html", "table/index.html", "games/index.html", "reference/cli/index.html"]:
        assert 'dir="rtl"' in body_tag(site / "ar" / page), page
        assert 'dir="ltr"' in body_tag(site / "uk" / page), page
    assert 'dir="ltr"' in body_tag(site / "index.html")


def test_haitian_creole_has_material_s_words(site):
    """Material ships no Haitian Creole: docs/overrides/partials/languages/ht.html does."""
    page = (site / "ht" / "index.html").read_text(encoding="utf-8")
    assert 'placeholder="Chèche"' in page
    assert 'placeholder="Search"' in (site / "index.html").read_text(encoding="utf-8")


def test_the_english_site_builds_with_no_translation_present(tmp_path):
    """Before any translation lands (or with every one taken out), the strict build passes."""
    root = tmp_path / "repo"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in ("docs", "site", ".venv", ".git"):
            (root / entry.name).symlink_to(entry)
    for path in DOCS.rglob("*"):
        if path.is_file() and not translation_of(path.relative_to(DOCS)):
            (root / "docs" / path.relative_to(DOCS)).parent.mkdir(parents=True, exist_ok=True)
            (root / "docs" / path.relative_to(DOCS)).symlink_to(path)
    assert not list((root / "docs").rglob("*.uk.md"))
    proc = build_site(root, tmp_path / "site")
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    assert (tmp_path / "site" / "uk" / "table" / "index.html").is_file()  # in English, under /uk/


# --------------------------------------------------------------------------- translations


def translation_of(page: Path) -> tuple[str, str] | None:
    """(the English page, the language) of a translation ``X.LANG.md``, else None."""
    parts = page.name.split(".")
    if len(parts) == 3 and parts[2] == "md":
        return str(page.with_name(f"{parts[0]}.md")), parts[1]
    return None


def translations() -> list[tuple[str, str]]:
    """Every translated page, as (its path under docs/, its language)."""
    out = []
    for path in sorted(DOCS.rglob("*.md")):
        found = translation_of(path.relative_to(DOCS))
        if found:
            out.append((str(path.relative_to(DOCS)), found[1]))
    return out


def slug(words: str) -> str:
    """The id the toc extension gives a heading (its default ``slugify``): ASCII letters, digits,
    ``_`` and ``-``, lower case, runs of spaces as one ``-``."""
    ascii_words = unicodedata.normalize("NFKD", words).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", ascii_words).strip().lower())


def heading_ids(text: str) -> list[str]:
    """The anchors of a page's headings, in order: an explicit ``{#id}``, else the id the toc
    extension makes of the heading's words. Code blocks are not headings."""
    ids, fence = [], None
    for line in text.splitlines():
        opening = re.match(r"\s*(```+|~~~+)", line)
        if opening:
            marker = opening.group(1)[0] * 3
            fence = None if fence == marker else (marker if fence is None else fence)
            continue
        if fence is not None:
            continue
        heading = re.match(r"#{1,6} (.*?)\s*$", line)
        if not heading:
            continue
        words = heading.group(1)
        explicit = re.search(r"\{:?\s*#([\w-]+)[^}]*\}\s*$", words)
        if explicit:
            ids.append(explicit.group(1))
        else:
            words = re.sub(r"`([^`]*)`", r"\1", words)
            words = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", words)
            ids.append(slug(words))
    return ids


def test_every_translation_has_its_english_page_and_a_language_of_the_site():
    for page, lang in translations():
        english = translation_of(Path(page))
        assert english and (DOCS / english[0]).is_file(), f"docs/{page} translates no English page"
        assert lang in SITE_LANGUAGES, f"docs/{page}: {lang} is not a language of the site ({SITE_LANGUAGES})"


@pytest.mark.parametrize("page,lang", translations())
def test_a_translation_has_the_english_headings_anchors_in_order(page, lang):
    english = translation_of(Path(page))
    assert english
    theirs, ours = heading_ids(page_text(english[0])), heading_ids(page_text(page))
    assert ours == theirs, (f"docs/{page}: give each heading the English page's anchor, in its order "
                            f"(## Правила {{#rules}}): {ours} != {theirs}")


def page_text(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def test_heading_ids_are_the_ones_the_site_makes(site):
    """The anchors read from the source are the built page's heading ids."""
    for path in sorted(DOCS.rglob("*.md")):
        name = str(path.relative_to(DOCS))
        if translation_of(Path(name)):
            continue
        built = (site / name.removesuffix(".md").removesuffix("index") / "index.html").read_text(encoding="utf-8")
        shown = re.findall(r'<h[1-6] id="([^"]+)"', built)
        assert heading_ids(page_text(name)) == shown, name
    built = (site / "uk" / "index.html").read_text(encoding="utf-8")
    assert heading_ids(page_text("index.uk.md")) == re.findall(r'<h[1-6] id="([^"]+)"', built)


@pytest.mark.parametrize("lang", SITE_LANGUAGES)
def test_every_player_page_is_translated(lang):
    """The pages a player reads, in each language; not yet required of a language outside
    REQUIRED (skipped there, with the list of what is missing)."""
    missing = [page for page in PLAYER_PAGES
               if not (DOCS / page).with_name(f"{Path(page).stem}.{lang}.md").is_file()]
    if lang not in REQUIRED:
        if missing:
            pytest.skip(f"{lang} not yet required (REQUIRED in tests/test_docs.py); missing: {', '.join(missing)}")
        return
    assert not missing, f"not translated into {lang}: {', '.join(missing)}"


def nav_files(nav: list[Any]) -> list[str]:
    out: list[str] = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        out += nav_files(value) if isinstance(value, list) else [value]
    return out


def test_every_page_is_in_the_nav_and_every_nav_entry_exists():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = nav_files(config["nav"])
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")
                   if not translation_of(p.relative_to(DOCS)))  # a translation is its English page's
    assert sorted(listed) == pages


def test_every_example_file_is_shown_and_tested():
    shown = "".join(p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md"))
    tested = {"deal-6.json", "endgame.json", "endgame-finish.txt", "protocol-session.txt",
              "protocol-reply.json", "protocol_client.py", "protocol-client.txt", "shuffle.py"}
    files = {p.name for p in EXAMPLES.iterdir() if p.is_file()} - {"record.py"}
    assert files == tested, "a new example needs a test here (and an old one's test must go)"
    for name in files:
        assert f'--8<-- "{name}"' in shown, f"docs/examples/{name} is not shown on any page"


# --------------------------------------------------------------------------- README


def test_readme_has_exactly_the_two_setup_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```sh\n(.*?)^```", readme, re.M | re.S)
    assert len(blocks) == 2, blocks
    play, test = (b.strip() for b in blocks)
    assert "\n" not in play and "\n" not in test, "each set-up command is one line to copy"
    assert play.startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    assert play.endswith("pip install -e . && solitaire play klondike --draw 3")
    assert test.endswith("pip install -e '.[test]' && pytest")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"pip install (--quiet )?-e '\.\[test\]'", ci)
    assert re.search(r"^python -m pytest", ci, re.M)


def test_readme_links_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert links
    for link in links:
        assert (ROOT / link).is_file(), link


# --------------------------------------------------------------------------- positions


def test_deal_example_is_what_deal_json_prints(cli):
    result = cli(*["deal", "klondike", "--seed", "6", "--json"])
    assert result.code == 0, result.err
    shown = json.loads((EXAMPLES / "deal-6.json").read_text(encoding="utf-8"))
    assert shown == json.loads(result.out), RECORD_HINT
    assert "solitaire deal klondike --seed 6 --json" in page("reference/position.md")


def test_endgame_example_loads_and_finishes():
    data = json.loads((EXAMPLES / "endgame.json").read_text(encoding="utf-8"))
    game = Game.from_position(get_variant("klondike"), data)
    assert game.to_position() == data  # nothing in the example is dropped or defaulted
    assert game.finish_ready() is None
    game.finish()
    assert game.won


@pytest.mark.parametrize("name", ["endgame-finish.txt", "protocol-session.txt"])
def test_transcripts_replay(cli, monkeypatch, name):
    args, inputs, expected = transcript(name)
    monkeypatch.chdir(EXAMPLES)
    result = cli(*args, input="".join(line + "\n" for line in inputs))
    assert result.code == 0, result.err
    out = [line.rstrip() for line in result.out.splitlines()]
    if "--json" in args:
        assert [json.loads(line) for line in out] == [json.loads(line) for line in expected], RECORD_HINT
    else:
        assert out == expected, RECORD_HINT


# the refusals of position.md's table: each a change to endgame.json (or the file's text)
Change = Callable[[dict[str, Any]], None]


def _set(path: Sequence[str], value: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _delete(path: Sequence[str]) -> Change:
    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


def _piles(**piles: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        for name, value in piles.items():
            data["piles"][name] = value
    return change


def _foundation_insert(data):
    data["piles"]["t3"]["up"] = []  # KC moves into the middle of f1
    data["piles"]["f1"]["up"].insert(5, "KC")


def _redeals(data):
    data["options"]["redeals"] = 1
    data["recycles"] = 2


NO_FILE = object()
BAD_JSON = object()
POSITION_REFUSALS = {
    "no such file": NO_FILE,
    "not valid JSON: Expecting ',' delimiter": BAD_JSON,
    "a position is a JSON object with keys variant, piles ...": [1, 2],
    "unknown key 'colour' in the position; expected: variant, seed, numbering, options, piles, score, moves, "
    "recycles, base":
        _set(["colour"], "red"),
    "the position has no 'piles'": _delete(["piles"]),
    "the position is for 'calculation', not 'klondike'": _set(["variant"], "calculation"),
    'options must be an object, e.g. {"draw": 3}': _set(["options"], 3),
    "options: klondike has no option --speed; its options: --draw, --redeals, --relaxed":
        _set(["options", "speed"], 2),
    "options: --draw must be one of 1, 3, got 2": _set(["options", "draw"], 2),
    "seed must be null or a whole number from 0 to 18446744073709551615, got -1": _set(["seed"], -1),
    'piles must be an object of pile name to {"down": [...], "up": [...]}': _set(["piles"], []),
    "unknown pile 't8'; klondike has stock, waste, f1, f2, f3, f4, t1, t2, t3, t4, t5, t6, t7":
        _piles(t8={"up": []}),
    "pile 't7' is missing (every pile must be present, even if empty)": _delete(["piles", "t7"]),
    't7 must be an object {"down": [...], "up": [...]}': _piles(t7={"down": [], "up": [], "fan": 1}),
    "t7.up must be a list of cards": _piles(t7={"up": "KH"}),
    "t7.up: unknown card '1H': expected a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), e.g. 'TH'":
        _piles(t7={"up": ["1H"]}),
    "t1.down has a hidden card '??': a position to load must show every card":
        _piles(t1={"down": ["??"], "up": ["KS", "QD", "JS"]}),
    "KH appears twice (in f3 and t7)": _piles(t7={"up": ["KH"]}),
    "the stock's cards are face down: stock.up must be empty": _piles(t5={}, stock={"up": ["QS"]}),
    "waste cannot hold face-down cards": _piles(t5={}, waste={"down": ["QS"]}),
    "t5 ends with a face-down card: a non-empty tableau pile ends face up": _piles(t5={"down": ["QS"]}),
    "f2 cannot start with 2D: it starts with an Ace":
        _piles(f2={"up": ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"]}, t6={"up": ["AD"]}),
    "f1 is out of order: KC does not go on 5C (f1 builds up in the same suit)": _foundation_insert,
    "2 cards are missing: QD, JS": _piles(t1={"up": ["KS"]}),
    "score must be a whole number, got '480'": _set(["score"], "480"),
    "score must be at least 0, got -5": _set(["score"], -5),
    "moves must be at least 0, got -1": _set(["moves"], -1),
    "recycles is 2 but the options allow only 1 redeal(s)": _redeals,
}


def documented_position_refusals() -> list[str]:
    rows = table_rows(section(page("reference/position.md"), "Validation"))
    out = []
    for row in rows:
        spans = code(row[1])
        assert len(spans) == 1 and spans[0].startswith("solitaire: game.json"), row
        out.append(spans[0])
    return out


def test_every_documented_position_refusal_is_tested():
    messages = [re.sub(r"^solitaire: game\.json(:\d+)?: ", "", m) for m in documented_position_refusals()]
    assert sorted(messages) == sorted(POSITION_REFUSALS)


@pytest.mark.parametrize("documented", documented_position_refusals())
def test_position_refusals_are_as_documented(cli, tmp_path, monkeypatch, documented):
    message = re.sub(r"^solitaire: game\.json(:\d+)?: ", "", documented)
    change = POSITION_REFUSALS[message]
    text = (EXAMPLES / "endgame.json").read_text(encoding="utf-8")
    path = tmp_path / "game.json"
    if change is BAD_JSON:
        path.write_text(text.replace('"options": {"draw": 3, "redeals": null, "relaxed": false},\n',
                                     '"options": {"draw": 3, "redeals": null, "relaxed": false}\n'))
    elif callable(change):
        data = json.loads(text)
        change(data)
        path.write_text(json.dumps(data))
    elif change is not NO_FILE:
        path.write_text(json.dumps(change))
    monkeypatch.chdir(tmp_path)
    result = cli("play", "klondike", "--position", "game.json", input="quit\n")
    assert (result.code, result.err.strip(), result.out) == (2, documented, "")


def test_a_pile_over_its_capacity_is_refused_as_documented(cli):
    shown = re.search(r"also refuses a pile\s+that holds more, e\.g\. `([^`]+)`",
                      page("reference/position.md"))
    assert shown
    result = cli("deal", "calculation", "--seed", "1", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    stock = data["piles"]["stock"]["down"]
    data["piles"]["waste"]["up"] += [stock.pop(), stock.pop()]
    with pytest.raises(SolitaireError) as refusal:
        Game.from_position(get_variant("calculation"), data)
    assert str(refusal.value) == shown.group(1)


def test_seed_and_position_together_are_refused_as_documented(cli, monkeypatch):
    monkeypatch.chdir(EXAMPLES)
    result = cli("play", "klondike", "--seed", "3", "--position", "endgame.json")
    assert result.code == 2
    assert f"`{result.err.strip()}`" in page("reference/position.md")


def test_hidden_cards_cannot_be_loaded():
    game = Game.new(Rules.of(get_variant("klondike"), {}), 6)
    with pytest.raises(SolitaireError, match="must show every card"):
        Game.from_position(get_variant("klondike"), game.to_position(hidden=True))


# --------------------------------------------------------------------------- the protocol


def test_protocol_reply_example_is_the_first_reply():
    _args, _, expected = transcript("protocol-session.txt")
    shown = json.loads((EXAMPLES / "protocol-reply.json").read_text(encoding="utf-8"))
    assert shown == json.loads(expected[0]), RECORD_HINT


def test_protocol_reply_keys_are_documented(cli):
    result = cli("play", "klondike", "--seed", "6", "--json", input="hint\n")
    first, hint = result.json_lines()
    documented = {code(row[0])[0] for row in table_rows(section(page("reference/protocol.md"), "A reply"))}
    assert documented == set(hint)
    assert set(first) == set(hint) - {"hint"}


def test_protocol_session_narrative_matches_the_recording():
    _, inputs, expected = transcript("protocol-session.txt")
    replies = [json.loads(line) for line in expected]
    text = section(page("reference/protocol.md"), "An example session")
    assert f"the hint suggests `{replies[1]['hint']}`" in text
    assert replies[2]["score"] == 15 and "score 15" in text
    assert replies[3]["score"] == 20 and "score 20" in text
    for command, reply in zip(inputs, replies[1:], strict=False):
        if not reply["ok"]:
            assert f"`{command}` is refused with `{reply['error']}`" in " ".join(text.split())
    assert replies[-1]["moves"] == replies[-3]["moves"] - 1  # undo took the draw back


def test_protocol_refuses_long_lines_and_bad_options_as_documented(cli):
    text = page("reference/protocol.md")
    result = cli("play", "klondike", "--seed", "6", "--json", input="x" * 10_001 + "\n")
    reply = result.json_lines()[-1]
    assert reply["ok"] is False and reply["error"] == "command too long (10,001 characters; at most 10,000)"
    assert "A line longer than 10,000 bytes is refused" in " ".join(text.split())
    result = cli("play", "klondike", "--json", "--draw", "2")
    assert result.code == 2 and result.out == ""
    assert f"`{result.err.strip()}`" in text


def test_protocol_client_example_runs(tmp_path):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    # the timeout is a hang guard only: under a full load the example has taken over 2 minutes
    proc = subprocess.run([sys.executable, "protocol_client.py"], cwd=EXAMPLES, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (EXAMPLES / "protocol-client.txt").read_text(encoding="utf-8"), RECORD_HINT


# --------------------------------------------------------------------------- notation


def notation_examples() -> list[tuple[str, str]]:
    rows = table_rows(section(page("reference/notation.md"), "Examples"))
    return [(code(typed)[0], result) for typed, result in rows]


@pytest.mark.parametrize("typed,result", notation_examples())
def test_notation_examples(cli, typed, result):
    """Each example is typed at the start of deal 6, through the protocol and through Game.play."""
    reply = cli("play", "klondike", "--seed", "6", "--json", input=typed + "\n").json_lines()[1]
    game = Game.new(Rules.of(get_variant("klondike"), {}), 6)
    if result.startswith("refused: "):
        message = code(result)[0]
        assert (reply["ok"], reply["error"]) == (False, message)
        with pytest.raises(SolitaireError) as refusal:
            game.play(typed)
        assert str(refusal.value) == message
    else:
        assert result.startswith("plays "), result
        assert reply["ok"] is True and reply["error"] is None
        record_ = game.play(typed)
        assert record_.move == code(result)[0]
        points = re.search(r"\(\+(\d+)", result)
        if points:
            assert record_.score == int(points.group(1))


def test_notation_example_deal_is_described_right():
    game = Game.new(Rules.of(get_variant("klondike"), {}), 6)
    text = section(page("reference/notation.md"), "Examples")
    for i in range(1, 8):
        top = card_name(game.piles[game.rules.index[f"t{i}"]][-1])
        assert f"t{i} `{top}`" in text


# --------------------------------------------------------------------------- Klondike


def test_klondike_scoring_table_matches_the_rules(klondike):
    rows = table_rows(section(page("klondike.md"), "Scoring"))
    rules1, rules3 = Rules.of(klondike, {"draw": 1}), Rules.of(klondike, {"draw": 3, "relaxed": True})
    groups = {g: rules3.group_piles[g][0] for g in rules3.group_piles}
    seen = 0
    for event, points in rows:
        value = int(points.replace("+", ""))
        pair = re.fullmatch(r"`(\w+)` → `(\w+)`.*", event)
        if pair:
            src, dst = groups[pair.group(1)], groups[pair.group(2)]
            assert rules3.score_move[src][dst] == value, event
        elif event == "A face-down card turns face up":
            assert rules1.turn_up == value
        elif event == "Waste turned back into the stock, `--draw 3`":
            assert rules3.recycle_points == value
        elif event == "Waste turned back into the stock, `--draw 1`":
            assert rules1.recycle_points == value
        else:
            raise AssertionError(f"unchecked row {event!r}")
        seen += 1
    assert seen == 7
    # and every scored pair of piles is in the table
    scored = {(a, b) for a in groups for b in groups if rules3.score_move[groups[a]][groups[b]]}
    shown = {matched(r"`(\w+)` → `(\w+)`", e).groups() for e, _ in rows if "→" in e}
    assert scored == shown
    assert rules1.floor == 0 and "The score never goes below 0." in page("klondike.md")


def test_klondike_options_table_matches_the_variant(klondike):
    rows = table_rows(section(page("klondike.md"), "Options"))
    assert [code(r[0])[0] for r in rows] == [o.flag for o in klondike.options]
    for row, option in zip(rows, klondike.options, strict=True):  # as many, just checked
        shown_default = row[2].strip("`")
        assert shown_default == ("off" if option.kind == "flag" else option.show(option.default))


def test_klondike_undo_example(cli):
    replies = cli("play", "klondike", "--seed", "6", "--json", input="t7 f\nundo\nredo\n").json_lines()
    played, undone, redone = replies[1:]
    assert (played["score"], undone["score"], redone["score"]) == (15, 0, 10)
    assert undone["position"]["piles"]["t7"]["up"] == ["4H", "AD"]  # the four stays face up
    text = " ".join(section(page("klondike.md"), "Undo and redo").split())
    assert "for 15 points" in text and "score 0" in text and "for 10." in text


def test_klondike_redeal_refusal_as_documented(cli):
    commands = ["draw"] * 24 + ["draw"] + ["draw"] * 24 + ["draw"]
    replies = cli("play", "klondike", "--seed", "6", "--redeals", "1", "--json",
                  input="\n".join(commands) + "\n").json_lines()
    assert all(r["ok"] for r in replies[:-1])
    assert replies[-1]["ok"] is False
    assert f"`{replies[-1]['error']}`" in page("klondike.md")


def _endgame() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "endgame.json").read_text(encoding="utf-8"))
    return data


def test_klondike_finish_refusals_as_documented(klondike):
    listed = code(section(page("klondike.md"), "Finishing").split("refused with the reason:")[1])
    changes: list[Change] = [
        lambda d: d["piles"].update(t1={"down": ["KS"], "up": ["QD", "JS"]}),
        lambda d: d["piles"].update(t1={"up": ["JS", "KS", "QD"]}),  # JS under the KS it must go before
    ]
    reasons = []
    for change in changes:
        data = _endgame()
        change(data)
        game = Game.from_position(klondike, data)
        with pytest.raises(SolitaireError) as refused:
            game.finish()
        reasons.append(str(refused.value))
    assert reasons == listed
    # the stock and the waste are played out too
    for change in (lambda d: d["piles"].update(t1={"up": ["KS", "QD"]}, stock={"down": ["JS"]}),
                   lambda d: d["piles"].update(t1={"up": ["KS", "QD"]}, waste={"up": ["JS"]})):
        data = _endgame()
        change(data)
        game = Game.from_position(klondike, data)
        game.finish()
        assert game.won


def test_klondike_line_mode_messages_as_documented(cli, tmp_path, monkeypatch):
    text = page("klondike.md")
    monkeypatch.chdir(tmp_path)
    # one card from the end: after the move, every card is face up
    data = _endgame()
    data["piles"]["t1"] = {"up": ["KS", "QD"]}
    data["piles"]["waste"] = {"up": ["JS"]}
    (tmp_path / "near.json").write_text(json.dumps(data))
    out = cli("play", "klondike", "--position", "near.json", input="w f4\nquit\n").out
    told = "Every card is face up: type 'finish' to play them home."
    assert told in out and f"`{told}`" in text
    # stuck: kings on top of their queens, jacks on their tens, nothing to draw
    stuck: dict[str, Any] = {"variant": "klondike", "piles": {"stock": {}, "waste": {"up": ["JS"]}}}
    names = "A23456789T"
    stuck["piles"].update({
        "f1": {"up": [r + "C" for r in names[:9]]}, "f2": {"up": [r + "D" for r in names[:9]]},
        "f3": {"up": [r + "H" for r in names[:9]]}, "f4": {"up": [r + "S" for r in names]},
        "t1": {"down": ["QC"], "up": ["KC"]}, "t2": {"down": ["QD"], "up": ["KD"]},
        "t3": {"down": ["QH"], "up": ["KH"]}, "t4": {"down": ["QS"], "up": ["KS"]},
        "t5": {"down": ["TC"], "up": ["JC"]}, "t6": {"down": ["TD"], "up": ["JD"]},
        "t7": {"down": ["TH"], "up": ["JH"]},
    })
    (tmp_path / "stuck.json").write_text(json.dumps(stuck))
    out = cli("play", "klondike", "--position", "stuck.json", input="w f\nquit\n").out
    none_left = "No moves are left. Type 'undo' to go back, or 'quit'."
    assert none_left in out and f"`{none_left}`" in text
    won = [line for line in (EXAMPLES / "endgame-finish.txt").read_text().splitlines() if line.startswith("You won")]
    assert len(won) == 1 and f"`{won[0]}`" in text


def test_klondike_declaration_is_included():
    assert '--8<-- "variants/klondike/klondike.yaml"' in page("klondike.md")


# --------------------------------------------------------------------------- the command line


def cli_commands() -> list[tuple[str, Any]]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)  # the app has subcommands
    return sorted(group.commands.items())


@pytest.mark.parametrize("name,command", cli_commands())
def test_every_command_and_option_is_documented(name, command):
    text = page("reference/cli.md")
    assert f"[`{name}`](#{name})" in text.split("\n## ")[0], f"{name} is not in the command table"
    body = section(text, name)
    for param in command.params:
        for opt in param.opts:
            if opt.startswith("--"):
                assert f"`{opt}" in body, f"solitaire {name} {opt} is not documented"
            elif param.param_type_name == "argument":
                assert f"`{param.name.upper()}`" in body, f"solitaire {name}'s {param.name} is not documented"


def test_cli_documents_only_real_commands():
    text = page("reference/cli.md")
    documented = set(re.findall(r"^## (\w+)$", text, re.M))
    assert documented == {name for name, _ in cli_commands()}


def test_cli_unknown_option_message_as_documented(cli):
    result = cli("play", "klondike", "--speed", "2")
    assert result.code == 2
    assert f"`{result.err.strip()}`" in page("reference/cli.md")


# --------------------------------------------------------------------------- design


def test_reference_shuffle_deals_what_the_kernel_deals():
    shuffle = load_module(EXAMPLES / "shuffle.py")
    for seed in [*range(300), 2**32, 2**63, 2**64 - 1]:
        assert shuffle.shuffled(seed) == shuffled_deck(seed), seed


def test_design_shuffle_claims():
    text = page("design.md")
    first = " ".join(card_name(c) for c in shuffled_deck(1)[:5])
    assert f"Deal 1 starts `{first}`" in text
    game = Game.new(Rules.of(get_variant("klondike"), {}), 1)
    assert card_name(game.piles[game.rules.index["t1"]][0]) == "7D"  # "t1 gets the seven of diamonds"
    assert card_name(game.piles[game.rules.index["t2"]][0]) == "9C"  # "the nine of clubs ... bottom of t2"
    shuffle_source = (EXAMPLES / "shuffle.py").read_text(encoding="utf-8")
    for constant in re.findall(r"0x[0-9A-F]{16}", text):
        assert constant in shuffle_source


def test_every_dependency_is_explained():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    names = {re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].lower() for req in wanted}
    rows = table_rows(section(page("design.md"), "Dependencies, and why each"))
    explained = {n.strip().lower() for row in rows for n in row[0].split(",")}
    missing = sorted(names - explained)
    assert not missing, f"say in docs/design.md why the project depends on {missing}"


def test_plugin_entry_point_in_design_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"]["solitaire"]["klondike"] == "solitaire.variants.klondike"
    assert 'klondike = "solitaire.variants.klondike"' in page("design.md")
