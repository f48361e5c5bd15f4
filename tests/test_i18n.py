"""The players' languages: the catalogs are complete and match the code, the language follows
the locale or --lang, plural forms are each language's own, games answer to their local
names, the table speaks Ukrainian and Arabic (snapshots) and Greek (a real terminal), and
Arabic is laid out right to left where the terminal does not do it."""

from __future__ import annotations

import asyncio
import gettext
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import test_race_ui as race_ui
from babel.messages.pofile import read_po
from test_pty import program_in_pty, read_until
from test_tui import make_app, snapshot_app

from solitaire.cli import bidi
from solitaire.cli.race.ui import LobbyScreen
from solitaire.cli.settings import NATIVE_NAMES
from solitaire.core import Game, Rules, VariantError, get_variant, i18n, load_variant_text
from solitaire.core.i18n import LANGUAGES, _, catalog, ngettext, pick, set_language, wanted

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "core" / "locale" / "solitaire.pot"
TRANSLATED = [code for code in LANGUAGES if code != "en"]
PLURAL_FORMS = {"uk": 3, "ro": 3, "el": 2, "ht": 1, "ar": 6}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([a-z_]+\))?[sdrif]")


def po_file(code: str) -> Path:
    return ROOT / "core" / "locale" / code / "LC_MESSAGES" / "solitaire.po"


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.fixture
def speak():
    """Speak a language for one test (the autouse ``english`` fixture speaks English after it)."""
    return set_language


# ------------------------------------------------------------------ the catalogs


def test_the_template_is_up_to_date_with_the_code(tmp_path):
    """What Babel extracts from the code now is what core/locale/solitaire.pot holds: a string
    added, changed or removed without `pybabel extract` (docs/design.md, "Languages") fails."""
    fresh = tmp_path / "fresh.pot"
    done = subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
                           "--no-location", "--sort-output", "-o", str(fresh), "."],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with fresh.open("rb") as fp:
        now = {m.id for m in read_po(fp) if m.id}
    with TEMPLATE.open("rb") as fp:
        kept = {m.id for m in read_po(fp) if m.id}
    assert now, "nothing extracted: is babel.cfg right?"
    assert not now - kept, f"strings in the code, not in the template: {sorted(map(str, now - kept))}"
    assert not kept - now, f"strings in the template, no longer in the code: {sorted(map(str, kept - now))}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalog_is_complete_with_no_fuzzy_entry_and_the_english_placeholders(code):
    with TEMPLATE.open("rb") as fp:
        wanted_ids = {m.id for m in read_po(fp) if m.id}
    with po_file(code).open("rb") as fp:
        po = read_po(fp, locale=code)
    assert po.num_plurals == PLURAL_FORMS[code]
    problems = []
    entries = {m.id: m for m in po if m.id}
    problems += [f"missing: {mid!r}" for mid in wanted_ids - set(entries)]
    problems += [f"not in the template (obsolete): {mid!r}" for mid in set(entries) - wanted_ids]
    for mid, m in entries.items():
        if m.fuzzy:
            problems.append(f"fuzzy: {mid!r}")
        if isinstance(mid, tuple):  # plural: every form given; each has the English placeholders,
            english = placeholders(mid[0]) | placeholders(mid[1])  # but a form for one number may leave out the count
            forms = [str(f or "") for f in (m.string if isinstance(m.string, tuple | list) else (m.string,))]
            if len(forms) != po.num_plurals or not all(forms):
                problems.append(f"plural forms missing: {mid!r}")
            for form in forms:
                if not placeholders(form) <= english or len(english - placeholders(form)) > 1:
                    problems.append(f"placeholders of {form!r} differ from {mid!r}")
        else:
            if not m.string:
                problems.append(f"untranslated: {mid!r}")
            elif placeholders(str(m.string)) != placeholders(str(mid)):
                problems.append(f"placeholders of {m.string!r} differ from {mid!r}")
    assert not problems, "\n".join(problems)


def test_a_catalog_check_finds_a_fuzzy_entry_and_a_wrong_placeholder(tmp_path, monkeypatch):
    """The check above is not vacuous: a catalog with a fuzzy entry and a renamed placeholder fails it."""
    broken = po_file("uk").read_text(encoding="utf-8")
    broken = broken.replace('msgstr "{pile}: порожньо"', 'msgstr "{купка}: порожньо"', 1)
    broken = broken.replace('msgid "nothing to undo"', '#, fuzzy\nmsgid "nothing to undo"', 1)
    folder = tmp_path / "uk" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "solitaire.po").write_text(broken, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "po_file", lambda code: folder / "solitaire.po")
    with pytest.raises(AssertionError) as failed:
        test_each_catalog_is_complete_with_no_fuzzy_entry_and_the_english_placeholders("uk")
    assert "fuzzy: 'nothing to undo'" in str(failed.value)
    assert "{купка}: порожньо" in str(failed.value)


@pytest.mark.parametrize(("code", "counts", "forms"), [
    ("uk", [1, 2, 5, 11, 21, 22, 111, 104], [0, 1, 2, 2, 0, 1, 2, 1]),
    ("ar", [0, 1, 2, 3, 10, 11, 99, 100, 102], [0, 1, 2, 3, 3, 4, 4, 5, 5]),
    ("ro", [1, 0, 2, 19, 20, 101, 120], [0, 1, 1, 1, 2, 1, 2]),
    ("el", [1, 0, 2], [0, 1, 1]),
])
def test_plural_forms_are_each_languages_own(code, counts, forms, speak):
    """The catalog's Plural-Forms picks the right form for each count (Ukrainian 3, Arabic 6)."""
    translations = catalog(code)
    assert isinstance(translations, gettext.GNUTranslations)
    assert [translations.plural(n) for n in counts] == forms  # type: ignore[attr-defined]
    speak(code)
    shown = [ngettext("{n} move", "{n} moves", n).format(n=n) for n in counts]
    assert len(set(shown)) > 1 and all(str(n) in text for n, text in zip(counts, shown, strict=True))


def test_ukrainian_and_arabic_counts_read_as_their_players_say_them(speak):
    speak("uk")
    assert [ngettext("{n} move", "{n} moves", n).format(n=n) for n in (1, 3, 5, 21)] == \
        ["1 хід", "3 ходи", "5 ходів", "21 хід"]
    speak("ar")
    assert [ngettext("{pile} has only {n} face-up card", "{pile} has only {n} face-up cards", n).format(pile="t1", n=n)
            for n in (1, 2, 3, 11)] == ["ليس في t1 إلا ورقة مكشوفة واحدة", "ليس في t1 إلا ورقتان مكشوفتان",
                                         "ليس في t1 إلا 3 أوراق مكشوفة", "ليس في t1 إلا 11 ورقة مكشوفة"]


# ------------------------------------------------------------------ which language


@pytest.mark.parametrize(("environ", "languages"), [
    ({"LANG": "el_GR.UTF-8"}, ["el_GR", "el"]),
    ({"LANGUAGE": "uk:ro", "LANG": "el_GR.UTF-8"}, ["uk", "ro"]),  # LANGUAGE first, as gettext reads it
    ({"LC_ALL": "ar_EG.UTF-8@latin", "LC_MESSAGES": "ro_RO", "LANG": "el"}, ["ar_EG", "ar"]),
    ({"LC_MESSAGES": "ht_HT", "LANG": "el"}, ["ht_HT", "ht"]),
    ({"LANG": "C.UTF-8"}, []),
    ({"LANGUAGE": "C:uk"}, []),  # C (or POSIX) ends the list: English
    ({}, []),
])
def test_the_language_is_looked_up_as_gettext_programs_do(environ, languages):
    assert wanted(environ) == languages


def test_the_first_shipped_language_is_chosen_and_english_is_the_fallback():
    assert pick(["fr_FR", "fr", "ro_RO", "ro"]) == "ro"
    assert pick(["de"]) == "en" and pick([]) == "en"


def test_lang_el_gr_makes_the_line_mode_greek(cli, monkeypatch):
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    result = cli("play", "klondike", "--seed", "3", "--plain", input="t1 t2\n")
    assert result.code == 0
    assert "μοιρασιά klondike-3" in result.out and "απορρίφθηκε: το AD δεν μπαίνει πάνω στο AH" in result.out


def test_lang_uk_on_the_command_line_speaks_ukrainian_in_the_line_mode(cli):
    result = cli("--lang", "uk", "play", "klondike", "--seed", "3", "--plain", input="t1 t2\ndraw\nhelp\n")
    assert result.code == 0, result.err
    out = result.out
    assert out.startswith("Косинка (") and "розкладка klondike-3   очки 0   ходи 0" in out
    assert "Введіть хід (напр. 't1 f1', 't2 f1') або 'help'." in out
    assert "відмовлено: AD не лягає на AH" in out
    assert "брати карти з колоди (порожня: перевернути скид назад)" in out  # the help, in the seed's words
    assert "Type a move" not in out and "refused" not in out


def test_lang_overrides_the_locale_anywhere_on_the_line(cli, monkeypatch):
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    result = cli("play", "klondike", "--seed", "3", "--plain", "--lang=ro", input="t1 t2\n")
    assert "refuzat: AD nu merge pe AH" in result.out
    assert "απορρίφθηκε" not in result.out


def test_an_unknown_language_is_one_line_and_status_2(cli):
    result = cli("--lang", "xx", "variants")
    assert (result.code, result.out) == (2, "")
    assert result.err == "solitaire: unknown language 'xx': the languages are en, uk, ro, el, ht, ar\n"
    assert cli("variants", "--lang").err == "solitaire: --lang needs a language, one of: en, uk, ro, el, ht, ar\n"


def test_help_is_translated_at_run_time(cli):
    result = cli("--lang", "uk", "play", "--help")
    assert result.code == 0
    assert "Зіграти гру: стіл у терміналі, інакше рядковий режим." in result.out
    assert "Зіграти сьогоднішню розкладку (однакову для всіх)." in result.out  # an option's help
    assert "Параметри" in result.out  # Typer's own heading
    english = cli("play", "--help").out  # the next command speaks the locale's language again
    assert "Play today's deal (the same for everyone)." in english


def test_clicks_own_words_on_a_help_page_are_translated(cli):
    result = cli("--lang", "uk", "--help")
    assert result.code == 0
    assert result.out.startswith("Використання: solitaire ")
    assert "--help                Показати цю довідку й вийти." in result.out
    assert "Usage:" not in result.out and "Show this message" not in result.out
    assert cli("--lang", "ar", "play", "--help").out.startswith("الاستخدام: solitaire play ")
    english = cli("--help").out
    assert english.startswith("Usage: solitaire ") and "Show this message and exit." in english


@pytest.mark.parametrize(("words", "greek", "english"), [
    (["--bogus"], "Δεν υπάρχει επιλογή --bogus", "No such option: --bogus"),
    (["play", "klondike", "--seed", "x"],
     "Μη έγκυρη τιμή για '--seed': χρειάζεται ακέραιος αριθμός, και αυτό δεν είναι αριθμός",
     "Invalid value for '--seed': Input should be a valid integer, unable to parse string as an integer"),
    (["play", "klondike", "--seed"], "Η επιλογή '--seed' χρειάζεται τιμή.", "Option '--seed' requires an argument."),
    (["play", "klondike", "--ms", "0"], "Μη έγκυρη τιμή για '--ms': χρειάζεται αριθμός τουλάχιστον 1",
     "Invalid value for '--ms': Input should be greater than or equal to 1"),
    (["solve"], "Λείπει το όρισμα 'variant'.", "Missing argument 'variant'."),
    (["stats", "a", "b", "c"], "Απρόσμενα επιπλέον ορίσματα (b c)", "Got unexpected extra argument(s) (b c)"),
    (["playy"], "Δεν υπάρχει εντολή 'playy'. Μήπως εννοούσατε 'play';",
     "No such command 'playy'. Did you mean 'play'?"),
])
def test_clicks_usage_errors_are_one_line_in_the_language(cli, words, greek, english):
    result = cli("--lang", "el", *words)
    assert (result.code, result.out, result.err) == (2, "", f"solitaire: {greek}\n")
    assert cli(*words).err == f"solitaire: {english}\n"  # English as click words it


def test_stats_speak_the_language(cli):
    assert cli("--lang", "el", "stats").out == "Δεν έχει παιχτεί κανένα παιχνίδι ακόμα.\n"
    assert cli("--lang", "ht", "stats", "klondike").out == "Poko gen jwèt klondike ki jwe.\n"


def test_the_json_protocol_keeps_its_fields_and_translates_only_the_error(cli):
    english = cli("play", "klondike", "--seed", "3", "--json", "--new", input="t1 t2\n").json_lines()[1]
    greek = cli("--lang", "el", "play", "klondike", "--seed", "3", "--json", "--new", input="t1 t2\n").json_lines()[1]
    assert greek.keys() == english.keys()
    assert {k: v for k, v in greek.items() if k != "error"} == {k: v for k, v in english.items() if k != "error"}
    assert english["error"].startswith("AD does not go on AH")
    assert greek["error"].startswith("το AD δεν μπαίνει πάνω στο AH")


def test_the_kernels_refusals_are_translated(speak):
    game = Game.new(Rules.of(get_variant("klondike")), 3)
    speak("uk")
    assert game.pick_refusal(game.rules.index["t1"], 2) == "t1 має лише 1 відкриту карту"
    speak("ar")
    assert game.refusal((game.rules.index["t3"], game.rules.index["t3"], 1)) == "لا يمكن نقل t3 إلى نفسها"



def test_a_count_in_a_refusal_takes_the_plural_form_of_its_number(speak):
    """Issue #17: a refusal's count reads in the language's own plural form, never a fixed one."""
    game = Game.new(Rules.of(get_variant("spider")), 1)
    move = (game.rules.index["t1"], game.rules.index["f8"], 1)
    assert game.refusal(move) == "f8 takes 13 cards at once"
    speak("uk")
    assert game.refusal(move) == "f8 приймає 13 карт одразу"
    speak("ro")
    assert game.refusal(move) == "f8 primește 13 cărți deodată"
    held = [ngettext("{pile} holds at most {n} card", "{pile} holds at most {n} cards", n).format(pile="w", n=n)
            for n in (1, 3, 5)]
    assert held == ["w ține cel mult 1 carte", "w ține cel mult 3 cărți", "w ține cel mult 5 cărți"]
    speak("uk")
    held = [ngettext("{pile} holds at most {n} card", "{pile} holds at most {n} cards", n).format(pile="w", n=n)
            for n in (1, 3, 5)]
    assert held == ["w вміщує щонайбільше 1 карту", "w вміщує щонайбільше 3 карти", "w вміщує щонайбільше 5 карт"]


# ------------------------------------------------------------------ the rules in words


def test_rules_klondike_lang_uk_is_ukrainian(cli):
    result = cli("--lang", "uk", "rules", "klondike")
    assert result.code == 0, result.err
    out = result.out
    assert out.startswith("Косинка\n")
    for said in ("База\n", "Стовпці\n", "Скид\n", "Колода\n", "Роздача\n", "Як виграти\n",
                 "Взяття перевертає 1 карту з колоди"):
        assert said in out, said
    words = " ".join(out.split())  # (the paragraphs wrap where the words' lengths say)
    assert "Складається за спаданням з чергуванням кольорів. Порожня купка приймає короля." in words
    assert "на спад" not in out and "Будується" not in out
    assert not {"Foundation", "Tableau", "builds", "face down", "How to win"} & set(out.replace(".", " ").split())


def test_every_game_explains_itself_in_every_language_with_no_english_sentence_left(speak):
    """The rules are made of translated phrases: no section title or sentence of the English
    rules comes back unchanged in another language (pile names and numbers aside)."""
    from solitaire.core import registry
    from solitaire.core.explain import explain

    for defn in registry().sorted():
        rules = Rules.of(defn)
        speak("en")
        english = explain(rules)
        for code in TRANSLATED:
            speak(code)
            local = explain(rules)
            assert [len(s.lines) for s in local] == [len(s.lines) for s in english], (defn.name, code)
            for theirs, ours in zip(local, english, strict=True):
                assert not set(theirs.lines) & set(ours.lines) or code == "ht", (defn.name, code, theirs.lines)
                if ours.title in ("Foundation", "Tableau", "Deal", "How to win", "Scoring", "Stock", "Waste"):
                    assert theirs.title != ours.title, (defn.name, code)


def test_a_third_party_game_is_explained_in_greek_and_its_rule_phrases_too(speak):
    variant = load_variant_text("{name: two, piles: {foundation: {role: foundation, empty: {rank: A}, "
                                "build: {rank: up, suit: same-suit}}, tableau: {role: tableau, count: 2}}, "
                                "deal: [{to: tableau, counts: 26, face-up: 1}]}")
    rules = Rules.of(variant)
    speak("el")
    from solitaire.core.explain import rules_text

    text = rules_text(rules)
    assert "Χτίζεται προς τα πάνω στην ίδια φυλή" in text.replace("\n  ", " ")
    assert "Μοιρασιά" in text and "Πώς κερδίζετε" in text
    assert rules.piles[rules.index["foundation"]].empty.describe() == "έναν άσσο"


# ------------------------------------------------------------------ compiled catalogs


def test_the_build_step_compiles_every_catalog(tmp_path):
    """What the install runs (build_locale.py, named by setup.py): a .mo beside each .po."""
    loader = importlib.util.spec_from_file_location("build_locale", ROOT / "build_locale.py")
    assert loader is not None and loader.loader is not None
    build_locale = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(build_locale)
    compile_catalogs = build_locale.compile_catalogs

    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "core" / "locale", locale, ignore=shutil.ignore_patterns("*.mo"))
    written = compile_catalogs(locale)
    assert sorted(p.parent.parent.name for p in written) == sorted(TRANSLATED)
    with (locale / "uk" / "LC_MESSAGES" / "solitaire.mo").open("rb") as fp:
        uk = gettext.GNUTranslations(fp)
    assert uk.gettext("nothing to undo") == "немає чого скасовувати"
    assert uk.ngettext("{n} move", "{n} moves", 5) == "{n} ходів"


def test_a_catalog_with_no_mo_is_compiled_at_first_use(tmp_path, monkeypatch):
    """An editable install whose .po changed after `pip install -e .` (or a source tree never
    installed): the .po is compiled in memory, so what is read is never stale."""
    folder = tmp_path / "ro" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(po_file("ro"), folder / "solitaire.po")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_loaded", {})
    assert catalog("ro").gettext("nothing to undo") == "nimic de anulat"


# ------------------------------------------------------------------ local names


def test_a_game_answers_to_its_local_names_and_is_shown_by_them(cli):
    assert get_variant("Косинка").name == "klondike" and get_variant("كلوندايك").name == "klondike"
    assert get_variant("ΚΟΥΤΣΌ").name == "calculation"  # case aside
    result = cli("play", "Косинка", "--seed", "2", "--plain")
    assert result.code == 0 and result.out.startswith("Klondike (")  # English: the English title
    assert cli("--lang", "el", "play", "κουτσό", "--seed", "2", "--plain").out.startswith("Κουτσό   μοιρασιά")
    assert get_variant("klondike").local_title("ro") == "Klondike"  # no Romanian title: the title


@pytest.mark.parametrize(("titles", "message"), [
    ("titles: [Косинка]", "titles: expected a mapping, got a list"),
    ("titles: {UK: Косинка}", "titles.UK: a language is a code of two or three lower-case letters"),
    ("titles: {uk: ''}", "titles.uk: expected a title, got"),
])
def test_a_bad_titles_entry_is_a_variant_error_at_its_line(titles, message):
    text = f"name: x\n{titles}\npiles:\n  stock: {{role: stock}}\ndeal:\n  - {{to: stock, rest: true}}\n"
    with pytest.raises(VariantError) as err:
        load_variant_text(text, "x.yaml")
    assert f"x.yaml:2: {message}" in str(err.value)


# ------------------------------------------------------------------ the table


def test_snapshot_klondike_80x24_in_ukrainian(snap_compare, speak):
    speak("uk")
    assert snap_compare(snapshot_app({"draw": 3}, draws=2), terminal_size=(80, 24))


def test_snapshot_klondike_80x24_in_arabic_laid_out_right_to_left(snap_compare, speak, monkeypatch):
    monkeypatch.setenv("SOLITAIRE_BIDI", "visual")
    speak("ar")
    game = Game.new(Rules.of(get_variant("klondike")), 48213)
    game.play("draw")
    assert snap_compare(make_app(game, notice=_("the game is won: n for a new deal, R to play it again")),
                        terminal_size=(80, 24))


def test_a_move_on_the_table_in_a_real_terminal_speaks_greek(solitaire_home):
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG="el_GR.UTF-8", TERM="xterm-256color")
    with program_in_pty(solitaire_home, "play", "klondike", "--seed", "48213", env=env) as (proc, main_fd):
        screen = read_until(main_fd, "κινήσεις 0".encode())
        assert "κινήσεις 0".encode() in screen, screen[-2000:]
        os.write(main_fd, b"d")  # draw: one move
        screen = read_until(main_fd, "κινήσεις 1".encode())
        assert "κινήσεις 1".encode() in screen and "Κλοντάικ".encode() in screen
        os.write(main_fd, b"q")
        proc.wait(timeout=30)
    assert proc.returncode == 0


# ------------------------------------------------------------------ right to left


def test_which_terminals_lay_out_right_to_left_text_themselves():
    assert bidi.terminal_reorders({"VTE_VERSION": "7200"}) and bidi.terminal_reorders({"KONSOLE_VERSION": "230402"})
    assert bidi.terminal_reorders({"MLTERM": "3.9"}) and bidi.terminal_reorders({"TERM_PROGRAM": "Apple_Terminal"})
    assert not bidi.terminal_reorders({"VTE_VERSION": "5402"})  # VTE before 0.58
    assert not bidi.terminal_reorders({"TERM": "xterm-256color"})
    assert bidi.mode({"VTE_VERSION": "7200"}) == "terminal" and bidi.mode({}) == "visual"
    assert bidi.mode({"VTE_VERSION": "7200", "SOLITAIRE_BIDI": "visual"}) == "visual"
    assert bidi.mode({"SOLITAIRE_BIDI": "terminal"}) == "terminal"


def test_only_a_right_to_left_language_is_reordered(speak, monkeypatch):
    monkeypatch.setenv("SOLITAIRE_BIDI", "visual")
    speak("uk")
    assert bidi.for_screen("відмовлено: t1") == "відмовлено: t1"
    speak("ar")
    shown = bidi.for_screen("مرفوض: t1")
    assert shown.startswith("t1 ") and "مرفوض" not in shown  # right to left, and the letters joined
    assert bidi.for_screen_markup("[b]المفاتيح[/b]\n  q  خروج") == \
        f"[b]{bidi.visual('المفاتيح')}[/b]\n{bidi.visual('  q  خروج')}"
    monkeypatch.setenv("SOLITAIRE_BIDI", "terminal")
    assert bidi.for_screen("مرفوض: t1") == "مرفوض: t1"


@pytest.mark.parametrize("layout", ["visual", "terminal"])
def test_arabic_in_a_real_terminal_is_in_the_order_the_terminal_needs(solitaire_home, layout):
    """A terminal that does not reorder gets the words in visual order; one that does (here
    said by SOLITAIRE_BIDI, as by VTE_VERSION in GNOME Terminal) gets them as they are read."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "VTE_VERSION", "KONSOLE_VERSION", "MLTERM",
                        "TERM_PROGRAM")}
    env.update(TERM="xterm-256color", SOLITAIRE_BIDI=layout)
    logical = "النقلات 1"
    with program_in_pty(solitaire_home, "--lang", "ar", "play", "klondike", "--seed", "48213", env=env) as (proc, fd):
        read_until(fd, b"klondike-48213")
        os.write(fd, b"d")
        expected = bidi.visual(logical) if layout == "visual" else logical
        screen = read_until(fd, expected.encode())
        assert expected.encode() in screen, screen[-2000:]
        if layout == "visual":
            assert "النقلات".encode() not in screen
        os.write(fd, b"q")
        proc.wait(timeout=30)
    assert proc.returncode == 0


# ------------------------------------------------------------------ the race


@race_ui.pilot_test
async def test_a_race_notice_and_the_lobby_speak_greek():
    """The race's screens and notices are translated; what goes over the wire stays English."""
    set_language("el")
    server, table, app = await race_ui.host_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await race_ui.until(pilot, lambda: race_ui.on(app, LobbyScreen))
        title = race_ui.plain(app.screen.query_one("#lobby-title"))
        assert "Τραπέζι αγώνα — Κλοντάικ draw 1, ως το τελευταίο φύλλο" in title
        friend = await race_ui.ready_friend(table, server.link(table))
        await race_ui.started(pilot, app, friend)
        await friend.send("offer-draw")
        await race_ui.until(pilot, lambda: "ο/η bob προτείνει ισοπαλία: y δέχεστε, n αρνείστε." in race_ui.status(app),
                            "the offer, in Greek")
        await pilot.press("u")
        assert race_ui.status(app).endswith("χωρίς αναίρεση σε αγώνα")
        await friend.send("decline-draw")
        await race_ui.until(pilot, lambda: race_ui.status(app) == "ο/η bob απέσυρε την πρόταση ισοπαλίας", "withdrawn")
        # the wire keeps its English machine fields
        assert any(m.get("type") == "offer-cancelled" and m.get("reason") == "declined" for m in app.client.messages)
    await friend.close()
    await server.close()


# ------------------------------------------------------------------ the table's language setting


def test_the_tables_language_setting_is_kept_between_runs_and_lang_still_overrides_it(cli, solitaire_home,
                                                                                          monkeypatch):
    """L at the table speaks the next language and keeps it in the data folder; the next run
    speaks it, whatever the locale, unless --lang names another; after the last language the
    setting goes back to the locale's."""
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    game = Game.new(Rules.of(get_variant("klondike")), 3)

    async def pressing_l(times: int) -> None:
        app = make_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            for _press in range(times):
                await pilot.press("L")
                assert NATIVE_NAMES[i18n.language()] in app.message  # said in the language it names

    def press_l(times: int) -> None:
        asyncio.run(asyncio.wait_for(pressing_l(times), 300))

    def rules_title(*words: str) -> str:
        return str(cli(*words, "rules", "klondike").out.splitlines()[0])

    assert rules_title() == "Κλοντάικ"  # nothing kept: the locale's
    set_language("el")
    press_l(1)  # Greek, then L: the next one, Haitian Creole
    assert (solitaire_home / "settings.json").exists()
    assert cli("stats").out == "Poko gen jwèt ki jwe.\n"  # kept: spoken over the locale's Greek
    assert rules_title("--lang", "uk") == "Косинка"  # --lang overrides it for one run
    assert rules_title() != "Косинка"
    set_language("ht")
    press_l(2)  # Arabic, then the locale's again: the setting is gone
    assert rules_title() == "Κλοντάικ"
    set_language("en")
    (solitaire_home / "settings.json").write_text("{not json", encoding="utf-8")
    assert rules_title() == "Κλοντάικ"  # a broken settings file is as none


def test_the_help_screens_rules_in_arabic_are_laid_out_right_to_left(speak, monkeypatch):
    monkeypatch.setenv("SOLITAIRE_BIDI", "visual")
    speak("ar")
    game = Game.new(Rules.of(get_variant("klondike")), 3)

    async def shown() -> str:
        app = make_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            return race_ui.plain(app.screen.query_one("#help-rules"))

    text = asyncio.run(asyncio.wait_for(shown(), 300))
    assert bidi.visual("المهملات") in text and "المهملات" not in text  # the letters joined, right to left


def test_the_rules_counts_take_each_languages_plural_form(cli):
    """A count of piles or cards in the rules is a plural entry: Ukrainian says 7 стовпців and
    104 карти, Romanian 52 de cărți but 104 cărți, Arabic 104 أوراق; English is as it was."""
    ukrainian = " ".join(cli("--lang", "uk", "rules", "klondike").out.split())
    assert "7 стовпців, t1–t7" in ukrainian and "стовпці: 7" not in ukrainian
    assert "2 колоди, 104 карти" in " ".join(cli("--lang", "uk", "rules", "double-klondike").out.split())
    assert "toate cele 52 de cărți" in " ".join(cli("--lang", "ro", "rules", "klondike").out.split()).lower()
    assert "2 pachete, 104 cărți" in " ".join(cli("--lang", "ro", "rules", "double-klondike").out.split())
    assert "رزمتان، 104 أوراق" in " ".join(cli("--lang", "ar", "rules", "double-klondike").out.split())
    english = " ".join(cli("rules", "double-klondike").out.split())
    assert "Two decks, 104 cards." in english and "Nine tableau piles, t1 to t9" in english
    assert "Move all 104 cards to the foundations." in english


@pytest.mark.parametrize("code", ["uk", "ro", "el", "ht", "ar"])
def test_the_solo_tables_keys_line_names_redo_and_fits_the_status_bar(code, speak):
    """The keys line of the solo table fits its status bar at 80x24 (78 columns) and names every
    key of the English line, redo (r) too."""
    from solitaire.cli.tui.app import KEYS_LINE

    speak(code)
    said = _(KEYS_LINE)
    assert said != KEYS_LINE and len(said) <= 78
    assert [word for word in said.split() if len(word) == 1 and word.isascii()] == ["d", "u", "r", "h", "?", "q"]
