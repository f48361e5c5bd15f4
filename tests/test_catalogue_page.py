"""docs/games/index.md lists every installed game with its family, deck and the page of its
rules; the page names the game. docs/games/index.LANG.md is the same page in each of the site's
other languages: the same table, each game's title as that language says it (its YAML's
``titles:`` or ``translations:``, else as written), the words around it translated here
(``WORDS``). Regenerate all six with ``python tests/test_catalogue_page.py`` after adding a game
(and its section on its family's page)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
"""


# the page's words in each of the site's other languages: (head, tail), as HEAD and TAIL; each
# heading carries the English one's anchor, so a link to it is the same in every language
WORDS: dict[str, tuple[str, str]] = {
    "uk": ("""# Каталог {#the-catalogue}

Кожна гра, яку встановлює solitaire, за родинами. Кожна — один файл YAML
(`variants/FAMILY/GAME.yaml`); `solitaire rules GAME` виводить її правила словами, `solitaire
variants` перелічує ігри, а посилання веде на сторінку родини. Тест звіряє цю таблицю зі
встановленими іграми (її пише `python tests/test_catalogue_page.py`).

| Гра | `solitaire play` | Родина | Карт | Звідки |
|---|---|---|---|---|
""", """
Приклад гри, виданої окремим пакетом, `examples/solitaire-yukon` (див. [Як написати
гру](../write-a-variant.md)), — теж Юкон: встановлений поруч із вбудованим, він відгукується на
`solitaire-yukon:yukon`, і `solitaire variants` про це каже.

## Чого немає в каталозі {#not-in-the-catalogue}

- **Gaps** (Montana) чекає двох речей, яких ядро ще не вміє сказати: див.
  [Ігри на прибирання карт](removal.md#gaps-not-yet-built-in).
"""),
    "ro": ("""# Catalogul {#the-catalogue}

Fiecare joc pe care îl instalează solitaire, pe familii. Fiecare este un singur fișier YAML
(`variants/FAMILY/GAME.yaml`); `solitaire rules GAME` îi afișează regulile în cuvinte,
`solitaire variants` le enumeră, iar legătura duce la pagina familiei. Un test verifică acest
tabel cu jocurile instalate (îl scrie `python tests/test_catalogue_page.py`).

| Joc | `solitaire play` | Familie | Cărți | De la |
|---|---|---|---|---|
""", """
Exemplul de joc publicat ca pachet separat, `examples/solitaire-yukon` (vezi [Scrie un
joc](../write-a-variant.md)), este tot un Yukon: instalat lângă cel inclus, răspunde la
`solitaire-yukon:yukon`, iar `solitaire variants` spune asta.

## Ce nu este în catalog {#not-in-the-catalogue}

- **Gaps** (Montana) așteaptă două lucruri pe care nucleul nu le poate spune încă: vezi
  [Jocuri de eliminare](removal.md#gaps-not-yet-built-in).
"""),
    "el": ("""# Ο κατάλογος {#the-catalogue}

Κάθε παιχνίδι που εγκαθιστά το solitaire, ανά οικογένεια. Το καθένα είναι ένα αρχείο YAML
(`variants/FAMILY/GAME.yaml`)· το `solitaire rules GAME` τυπώνει τους κανόνες του με λόγια, το
`solitaire variants` τα απαριθμεί, και ο σύνδεσμος οδηγεί στη σελίδα της οικογένειας. Ένα τεστ
ελέγχει αυτόν τον πίνακα με τα εγκατεστημένα παιχνίδια (τον γράφει το `python
tests/test_catalogue_page.py`).

| Παιχνίδι | `solitaire play` | Οικογένεια | Φύλλα | Από |
|---|---|---|---|---|
""", """
Το παράδειγμα παιχνιδιού που δημοσιεύεται ως δικό του πακέτο, το `examples/solitaire-yukon`
(δείτε [Γράψτε ένα παιχνίδι](../write-a-variant.md)), είναι κι αυτό ένα Yukon: εγκατεστημένο
δίπλα στο ενσωματωμένο, απαντά στο `solitaire-yukon:yukon`, και το `solitaire variants` το λέει.

## Τι δεν είναι στον κατάλογο {#not-in-the-catalogue}

- **Gaps** (Montana): περιμένει δύο πράγματα που ο πυρήνας δεν μπορεί ακόμη να πει· δείτε
  [Παιχνίδια αφαίρεσης](removal.md#gaps-not-yet-built-in).
"""),
    "ht": ("""# Katalòg la {#the-catalogue}

Chak jwèt solitaire enstale, pa fanmi. Chak jwèt se yon sèl fichye YAML
(`variants/FAMILY/GAME.yaml`); `solitaire rules GAME` ekri règ li an mo, `solitaire variants`
bay lis yo, e lyen an mennen sou paj fanmi an. Yon tès konpare tab sa a ak jwèt ki enstale yo
(`python tests/test_catalogue_page.py` ekri li).

| Jwèt | `solitaire play` | Fanmi | Kat | Sous |
|---|---|---|---|---|
""", """
Egzanp yon jwèt ki pibliye nan pwòp pakè pa li, `examples/solitaire-yukon` (gade [Ekri yon
jwèt](../write-a-variant.md)), se yon Yukon tou: lè li enstale bò kote sa ki vini ak solitaire
a, li reponn a `solitaire-yukon:yukon`, e `solitaire variants` di sa.

## Sa ki pa nan katalòg la {#not-in-the-catalogue}

- **Gaps** (Montana) ap tann de bagay nwayo a poko ka di: gade
  [Jwèt pou retire kat](removal.md#gaps-not-yet-built-in).
"""),
    "ar": ("""# الفهرس {#the-catalogue}

كل لعبة يثبّتها solitaire، مرتبة حسب العائلة. كل لعبة ملف YAML واحد
(`variants/FAMILY/GAME.yaml`)؛ يطبع `solitaire rules GAME` قواعدها بالكلمات، ويسردها
`solitaire variants`، ويقود الرابط إلى صفحة العائلة. يقارن اختبارٌ هذا الجدول بالألعاب
المثبّتة (يكتبه `python tests/test_catalogue_page.py`).

| اللعبة | `solitaire play` | العائلة | الأوراق | المصدر |
|---|---|---|---|---|
""", """
مثال اللعبة المنشورة في حزمة خاصة بها، `examples/solitaire-yukon` (انظر [اكتب
لعبة](../write-a-variant.md))، هي أيضًا من نوع Yukon: إذا ثُبّتت بجانب اللعبة المدمجة فإنها
تستجيب للاسم `solitaire-yukon:yukon`، ويذكر `solitaire variants` ذلك.

## ما ليس في الفهرس {#not-in-the-catalogue}

- **Gaps** (Montana) تنتظر أمرين لا تستطيع النواة التعبير عنهما بعد: انظر
  [ألعاب الإزالة](removal.md#gaps-not-yet-built-in).
"""),
}


def page_of(name: str, title: str) -> Path | None:
    """The page that tells the game's rules: its own (Klondike, Calculation), else the family
    page that names it (`NAME`, `solitaire play NAME`) or has a section titled by it."""
    own = DOCS / f"{name}.md"
    if own.exists():
        return own
    for page in [*sorted((DOCS / "games").glob("*.md")), DOCS / "klondike.md", DOCS / "calculation.md"]:
        if page == INDEX or "." in page.stem:  # this page, or a translation (golf.uk.md)
            continue
        text = page.read_text()
        if f"`{name}`" in text or re.search(rf"solitaire play {re.escape(name)}\b", text) \
                or re.search(rf"^#+ {re.escape(title)}$", text, flags=re.M):
            return page
    return None


def table(lang: str | None = None) -> str:
    """The page in English (``lang`` None) or in language ``lang`` (a key of ``WORDS``)."""
    head, tail = (HEAD, TAIL) if lang is None else WORDS[lang]
    rows = []
    built_in = [d for d in registry().sorted() if d.provider == "solitaire-table"]
    for defn in sorted(built_in, key=lambda d: (d.family, d.title)):
        page = page_of(defn.name, defn.title)
        where = None if page is None else page.name if page.parent.name == "games" else f"../{page.name}"
        title = defn.title if lang is None else defn.local_title(lang)
        link = "(no page)" if where is None else f"[{title}]({where})"
        rows.append(f"| {link} | `{defn.name}` | {defn.family} | {len(Rules.of(defn).deck)} | {defn.provider} |")
    return head + "\n".join(rows) + "\n" + tail


def translated(lang: str) -> Path:
    return INDEX.with_name(f"index.{lang}.md")


def test_the_catalogue_page_lists_every_installed_game_with_the_page_of_its_rules():
    assert INDEX.read_text() == table(), "docs/games/index.md is stale: run python tests/test_catalogue_page.py"
    assert "(no page)" not in INDEX.read_text()
    assert INDEX.read_text().count("\n| [") >= 50


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_catalogue_page_in_each_language(lang):
    page = translated(lang)
    assert page.exists() and page.read_text(encoding="utf-8") == table(lang), (
        f"{page.relative_to(DOCS.parent)} is stale: run python tests/test_catalogue_page.py")
    english = INDEX.read_text().splitlines()
    local = page.read_text(encoding="utf-8").splitlines()
    # the same rows, in the same order, to the same pages: only the words differ
    assert re.findall(r"\]\(([^)]+)\)", "\n".join(local)) == re.findall(r"\]\(([^)]+)\)", "\n".join(english))
    assert [line.split("|")[2:] for line in local if line.startswith("| [")] == [
        line.split("|")[2:] for line in english if line.startswith("| [")]
    # the headings carry the English anchors; the words are not the English ones
    assert re.findall(r"\{#([a-z0-9-]+)\}", WORDS[lang][0] + WORDS[lang][1]) == ["the-catalogue",
                                                                                 "not-in-the-catalogue"]
    assert HEAD.splitlines()[2] not in page.read_text(encoding="utf-8")


def test_a_game_is_named_in_the_language_where_it_gives_a_title():
    from solitaire.core import get_variant

    klondike, calculation = get_variant("klondike"), get_variant("calculation")
    assert f"| [{klondike.titles['uk']}](../klondike.md) | `klondike` |" in translated("uk").read_text(encoding="utf-8")
    assert f"| [{calculation.titles['el']}](../calculation.md) | `calculation` |" in translated("el").read_text(
        encoding="utf-8")
    said = calculation.local_title("uk")  # from its translations block
    page = translated("uk").read_text(encoding="utf-8")
    assert said != calculation.title and f"| [{said}](../calculation.md) | `calculation` |" in page


if __name__ == "__main__":
    INDEX.write_text(table())
    for code in WORDS:
        translated(code).write_text(table(code), encoding="utf-8")
