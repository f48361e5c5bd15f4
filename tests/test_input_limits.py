"""The line mode and the JSON protocol survive any input: markup, bad bytes, huge lines, deep or
huge JSON, closed and broken streams. Each case is run through the real command (in-process
with the ``cli`` fixture, or as a subprocess where the streams themselves are the point)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.cli import saves
from solitaire.cli.linemode import run_lines
from solitaire.cli.lines import Line, read_lines, shown
from solitaire.cli.protocol import run_json
from solitaire.core import Game, Rules, get_variant, load_variant_text
from solitaire.core.limits import MAX_ECHO_CHARS, MAX_JSON_DEPTH, MAX_JSON_NUMBER_CHARS, MAX_LINE_BYTES

ROOT = Path(__file__).resolve().parent.parent
PLAY = ["play", "klondike", "--seed", "1", "--new"]
SOLITAIRE = [sys.executable, "-m", "solitaire.cli"]
# deal 1: t7's top card, 8S, cannot go home; t1 (7D) cannot go on t2 (6D): two refusals that
# leave the deal as it was, and 't1 t7' (7D on 8S) is a legal move
LEGAL = "t1 t7"


def run(args: list[str], stdin: bytes, env: dict[str, str] | None = None,
        shell_redirect: str = "") -> subprocess.CompletedProcess[bytes]:
    """The real program in a subprocess; ``shell_redirect`` (e.g. ``<&-``) closes its streams."""
    environ = {**os.environ, **(env or {})}
    if shell_redirect:
        command = " ".join(shlex.quote(a) for a in SOLITAIRE + args) + " " + shell_redirect
        return subprocess.run(["sh", "-c", command], input=stdin, capture_output=True, env=environ, timeout=120)
    return subprocess.run(SOLITAIRE + args, input=stdin, capture_output=True, env=environ, timeout=120)


def replies(out: bytes | str) -> list[dict[str, Any]]:
    text = out.decode() if isinstance(out, bytes) else out
    return [json.loads(line) for line in text.splitlines()]


# ---------------------------------------------------------------------------- 1. markup


MARKUP = ["[/]", "t1 [/x]", "[bold]t7 f[/bold]", "[link=x]t1[/link] t7", ":smile: t1", "t1 :joy:",
          "\x1b[2J\x1b[31mred", "t1\x07 t7", "a\u202eb"]


@pytest.mark.parametrize("text", MARKUP)
def test_typed_markup_is_refused_as_typed_in_the_line_mode(cli, text):
    result = cli(*PLAY, "--plain", input=f"{text}\n{LEGAL}\n")
    assert result.code == 0, result.err
    assert result.err == ""
    lines = result.out.splitlines()
    echo = lines.index(f"> {shown(text)}")  # the echo is the text itself, control characters escaped
    assert lines[echo + 1].startswith("refused: ")
    assert "\x1b" not in result.out and "\x07" not in result.out and "\u202e" not in result.out
    assert "moves 1" in result.out  # the next line is still played


def test_markup_in_a_variant_file_is_shown_as_written(tmp_path):
    """A title and a pile alias from a variant file are plain text to the line mode (its
    board, its help, the refusals that quote them)."""
    yaml = textwrap.dedent("""\
        name: brackets
        title: "[/] Brackets [bold] :smile: \\u202e \\e[2J"
        description: A test variant with markup in its names.
        piles:
          stock: {role: stock, draw: {count: 1, to: waste}}
          waste: {role: waste, alias: "[/]"}
          foundation: {role: foundation, count: 4, build: {rank: up, suit: same-suit}, empty: {rank: A}}
          tableau: {role: tableau, count: 7, build: {rank: down, suit: alternate-colour}, empty: {rank: K}}
        deal:
          - {to: tableau, counts: [1, 2, 3, 4, 5, 6, 7], face-up: 1}
          - {to: stock, rest: true}
        """)
    defn = load_variant_text(yaml)
    out = io.StringIO()
    run_lines(Game.new(Rules.of(defn, {}), 1), io.StringIO("help\n[/] t1\n[/x] t1\n"), out)
    text = out.getvalue()
    assert text.startswith("[/] Brackets [bold] :smile: \\u202e \\x1b[2J")  # YAML's \e is ESC: escaped
    assert "\x1b" not in text and "\u202e" not in text
    assert "waste ([/])" in text  # the help's pile list
    assert "> [/] t1\nrefused: waste is empty\n" in text
    assert "refused: unknown pile '[/x]': piles are stock, waste ([/]), f1..f4, t1..t7" in text


# ---------------------------------------------------------------------------- 2. deep JSON, long numbers


def deep(n: int) -> str:
    return "[" * n + "]" * n


@pytest.mark.parametrize("text, message", [
    pytest.param(deep(100_000), f"JSON nested more than {MAX_JSON_DEPTH} deep; a position nests 4 deep", id="deep"),
    pytest.param('{"variant": "klondike", "piles": {}, "x": ' + deep(5_000) + "}",
     f"JSON nested more than {MAX_JSON_DEPTH} deep", id="deep-in-a-key"),
    pytest.param('{"variant": "klondike", "piles": {}, "score": ' + "9" * 5000 + "}",
     f"a number of 5,000 characters (999999999999...); at most {MAX_JSON_NUMBER_CHARS}", id="long-int"),
    pytest.param('{"variant": "klondike", "piles": {}, "score": 1.' + "5" * 5000 + "}",
     f"a number of 5,002 characters (1.5555555555...); at most {MAX_JSON_NUMBER_CHARS}", id="long-float"),
    pytest.param('{"variant": "klondike", "piles": {}, "score": NaN}', "NaN is not a JSON number", id="nan"),
    pytest.param('{"variant": "klondike", "piles": {}, "score": -Infinity}', "-Infinity is not a JSON number",
                 id="infinity"),
])
def test_a_position_file_too_deep_or_with_a_huge_number_is_refused_in_one_line(cli, tmp_path, text, message):
    path = tmp_path / "position.json"
    path.write_text(text)
    for args in (["play", "klondike", "--position", str(path), "--json"],
                 ["play", "klondike", "--position", str(path), "--plain"],
                 ["solve", "klondike", "--position", str(path)]):
        result = cli(*args, input="t1 t7\n")
        assert (result.code, result.out) == (2, ""), args
        assert result.err.startswith(f"solitaire: {path}: ") and message in result.err, result.err
        assert result.err.count("\n") == 1


def test_brackets_inside_strings_do_not_count_as_nesting(cli, tmp_path):
    path = tmp_path / "strings.json"
    path.write_text('{"variant": "klondike \\" [[[[' + "[" * 100 + '", "piles": {}}')
    result = cli("play", "klondike", "--position", str(path), "--json")
    assert result.code == 2
    assert "the position is for 'klondike" in result.err  # refused for what it says, not for its brackets
    assert "nested" not in result.err


def test_deep_json_and_huge_numbers_sent_as_commands_are_refused_one_line_each(cli):
    lines = [deep(4_000), '{"move": ' + "9" * 5000 + "}", "t7 t3 " + "9" * 5000, "9" * 9_000, LEGAL]
    result = cli(*PLAY, "--json", input="".join(line + "\n" for line in lines))
    assert result.code == 0 and result.err == ""
    got = result.json_lines()
    assert len(got) == 1 + len(lines)
    start = got[0]
    for reply in got[1:-1]:
        assert reply["ok"] is False and "\n" not in reply["error"]
        assert len(reply["error"]) < 200  # the quoted input is a bounded prefix
        assert reply["position"] == start["position"]
    assert got[-1]["ok"] is True and got[-1]["moves"] == 1


# ---------------------------------------------------------------------------- 3. bad bytes


@pytest.mark.parametrize("mode", ["--json", "--plain"])
def test_invalid_utf8_gets_a_one_line_refusal_and_every_line_its_reply(mode):
    stdin = b"t7 f\n\xff\n" + "t1 \u00e9\n".encode("latin-1") + b"\xc3\n" + f"{LEGAL}\r\n".encode()
    result = run([*PLAY, mode], stdin, env={"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C"})
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    if mode == "--json":
        got = replies(result.stdout)
        assert [r["ok"] for r in got] == [True, False, False, False, False, True]
        assert got[1]["error"] == "no foundation pile takes 8S"  # the reply to the line before is there
        assert got[2]["error"] == "not utf-8 text: byte 0xff at column 1 cannot be read"
        assert got[3]["error"] == "not utf-8 text: byte 0xe9 at column 4 cannot be read"
        assert all(r["position"] == got[0]["position"] for r in got[1:5])
        assert got[5]["moves"] == 1
    else:
        out = result.stdout.decode()
        assert "> \\xff\nrefused: not utf-8 text: byte 0xff at column 1 cannot be read\n" in out
        assert "> t1 \\xe9\nrefused: not utf-8 text: byte 0xe9 at column 4 cannot be read\n" in out
        assert "refused: no foundation pile takes 8S" in out
        assert "moves 1" in out


# ---------------------------------------------------------------------------- 4. closed and broken streams


@pytest.mark.parametrize("mode", ["--json", "--plain"])
def test_a_closed_stdin_is_one_line_and_status_2(mode):
    result = run([*PLAY, mode], b"", shell_redirect="<&-")
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr == (b"solitaire: standard input is closed (<&-): play reads its commands there "
                             b"(give </dev/null for none)\n")


@pytest.mark.parametrize("args", [[*PLAY, "--json"], [*PLAY, "--plain"], ["variants"], ["deal", "klondike"]])
def test_a_closed_stdout_is_one_line_and_status_2(args):
    result = run(args, b"t1 t7\n", shell_redirect=">&-")
    assert result.returncode == 2
    assert result.stderr == b"solitaire: standard output is closed (>&-): there is nowhere to write\n"


def test_a_closed_stderr_keeps_errors_off_stdout():
    result = run(["play", "nosuch", "--json"], b"", shell_redirect="2>&-")
    assert (result.returncode, result.stdout) == (2, b"")
    played = run([*PLAY, "--json"], b"t1 t7\n", shell_redirect="2>&-")
    assert played.returncode == 0 and [r["moves"] for r in replies(played.stdout)] == [0, 1]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("mode", ["--json", "--plain"])
def test_a_stdout_that_cannot_be_written_is_one_line_and_status_1(mode, solitaire_home):
    result = run([*PLAY, mode], b"t1 t7\n", shell_redirect=">/dev/full")
    assert result.returncode == 1
    assert result.stderr == b"solitaire: cannot write to standard output: No space left on device\n"
    assert saves.read_save(get_variant("klondike")) is not None  # the game is saved as ever


@pytest.mark.parametrize("mode", ["--json", "--plain"])
def test_a_reader_that_stops_reading_ends_the_game_quietly_and_keeps_the_save(mode, solitaire_home):
    """As ``| head -1``: the start is read, then the pipe is closed while replies come. The
    protocol plays ``t1 t7`` (and saves it) before it finds it cannot reply; the line mode
    stops at its echo of the line, before playing it. Either way the save is whole."""
    process = subprocess.Popen(SOLITAIRE + PLAY + [mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=os.environ.copy())
    assert process.stdout is not None and process.stdin is not None
    start = process.stdout.readline()
    while mode == "--plain" and not start.startswith(b"Type a move"):  # the whole board first
        start = process.stdout.readline()
        assert start
    process.stdout.close()
    try:
        process.stdin.write(f"{LEGAL}\n".encode() + b"undo\nredo\n" * 3000)
        process.stdin.flush()
    except BrokenPipeError:  # it may have ended already
        pass
    with contextlib.suppress(BrokenPipeError):
        process.stdin.close()
    assert process.stderr is not None
    err = process.stderr.read()
    assert process.wait(timeout=120) == 0
    assert err == b""
    saved = saves.read_save(get_variant("klondike"))
    assert saved is not None and saved.game.moves == (1 if mode == "--json" else 0)


# ---------------------------------------------------------------------------- 5. bounded lines


def test_the_reader_refuses_a_long_line_without_holding_it_and_reads_on():
    tail = b"x" * (3 * MAX_LINE_BYTES)
    data = (b"a" * MAX_LINE_BYTES + b"\n"  # exactly the limit: read
            + b"b" * (MAX_LINE_BYTES + 1) + b"\n"  # one past: refused
            + b"c" * 5_000_000 + b"\n" + b"t1 t7\n" + tail)  # the last line has no newline
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    lines = list(read_lines(stream))
    assert [line.refusal for line in lines] == [
        None, f"command too long ({MAX_LINE_BYTES + 1:,} bytes; at most {MAX_LINE_BYTES:,})",
        "command too long (5,000,000 bytes; at most 10,000)", None,
        f"command too long ({len(tail):,} bytes; at most {MAX_LINE_BYTES:,})"]
    assert lines[0].text == "a" * MAX_LINE_BYTES
    assert lines[3] == Line("t1 t7")
    assert all(len(line.text) <= MAX_ECHO_CHARS + 1 for line in lines if line.refusal)


def test_a_long_line_in_the_line_mode_is_refused_and_echoed_as_a_bounded_prefix(cli):
    result = cli(*PLAY, "--plain", input="t" * 2_000_000 + "\n" + LEGAL + "\n")
    assert result.code == 0
    lines = result.out.splitlines()
    assert f"> {'t' * MAX_ECHO_CHARS}..." in lines
    assert "refused: command too long (2,000,000 characters; at most 10,000)" in lines
    assert max(len(line) for line in lines) < 200
    assert "moves 1" in result.out


PEAK = """
import resource, subprocess, sys
# started before any big buffer exists (Linux keeps a child's peak from before its exec), fed in chunks
child = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
chunk = b"t" * 1_000_000
for _ in range(int(sys.argv[1]) // len(chunk)):
    child.stdin.write(chunk)
child.stdin.write(b"t" * (int(sys.argv[1]) % len(chunk)) + b"\\n" + sys.argv[2].encode() + b"\\n")
child.stdin.close()
out = child.stdout.read()
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if child.wait() == 0 else -1  # KiB on Linux
print(child.returncode, peak, len(out), out.decode().splitlines()[-1][:300])
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
@pytest.mark.parametrize("mode", ["--json", "--plain"])
def test_memory_stays_bounded_for_a_line_of_many_megabytes(mode):
    """Peak memory (the child's own, measured by a parent that runs nothing else) for a 40 MB
    line against a 1-byte one: holding the line would add at least 40 MB."""
    def peak(size: int) -> tuple[int, int]:
        done = subprocess.run([sys.executable, "-c", PEAK, str(size), "quit", *SOLITAIRE, *PLAY, mode],
                              capture_output=True, check=True, timeout=300, env=os.environ.copy())
        code, kib, out_bytes, _ = done.stdout.decode().split(" ", 3)
        assert code == "0"
        return int(kib), int(out_bytes)

    small, small_out = peak(1)
    big, big_out = peak(40_000_000)
    assert big - small < 20_000, (small, big)  # KiB: far under the 40 MB line
    assert big_out - small_out < 1_000  # the reply: a bounded refusal, not an echo


# ---------------------------------------------------------------------------- 7. the limits are stated


def test_the_limits_page_states_every_limit():
    page = (ROOT / "docs" / "reference" / "limits.md").read_text(encoding="utf-8")
    for value in (f"{MAX_LINE_BYTES:,}", str(MAX_ECHO_CHARS), str(MAX_JSON_DEPTH), str(MAX_JSON_NUMBER_CHARS)):
        assert value in page
    for name in ("MAX_LINE_BYTES", "MAX_ECHO_CHARS", "MAX_JSON_DEPTH", "MAX_JSON_NUMBER_CHARS"):
        assert f"`{name}`" in page
    for section in ("## Variant files", "## Saved games and position files", "## The race server"):
        assert section in page
    assert "See below." not in page


def test_run_json_answers_every_line_of_a_stream():
    """The Python entry point, over a byte stream as ``sys.stdin`` is."""
    game = Game.new(Rules.of(get_variant("klondike"), {}), 1)
    stream = io.TextIOWrapper(io.BytesIO(b"t7 f\n\n\xff\n[/]\n" + LEGAL.encode() + b"\nquit\nt1 t2\n"),
                              encoding="utf-8")
    out = io.StringIO()
    run_json(game, stream, out)
    got = replies(out.getvalue())
    assert [r["ok"] for r in got] == [True, False, False, False, True, True]  # blank: none; after quit: none
    assert game.moves == 1


# ---------------------------------------------------------------------------- on a real terminal


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_markup_and_bad_bytes_typed_at_a_terminal_are_refused(solitaire_home):
    """The line mode on a terminal reads with input(): markup and a byte that is not UTF-8
    (under a strict locale) are refused, and the next line is played."""
    from test_pty import program_in_pty, read_until

    env = {**os.environ, "TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8:strict"}
    with program_in_pty(solitaire_home, *PLAY, "--plain", env=env) as (proc, fd):
        assert b"> " in read_until(fd, b"> ")
        os.write(fd, b"t1 [/x]\r")
        assert b"refused: unknown pile '[/x]'" in read_until(fd, b"refused: unknown pile")
        os.write(fd, b"t1 \xff\r")
        said = read_until(fd, b"cannot be read")
        assert b"refused: not utf-8 text: byte 0xff at column 4 cannot be read" in said, said
        os.write(fd, f"{LEGAL}\r".encode())
        assert b"moves 1" in read_until(fd, b"moves 1")
        os.write(fd, b"quit\r")
        assert proc.wait(timeout=60) == 0


# ---------------------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(data=st.lists(st.binary(max_size=30) | st.sampled_from([b"x" * MAX_LINE_BYTES, b"y" * (MAX_LINE_BYTES + 1),
                                                                b"\r", b"\xff", "é".encode()]),
                     max_size=12).map(b"".join))
def test_the_reader_yields_one_line_per_newline_whole_or_refused(data: bytes) -> None:
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    lines = list(read_lines(stream))
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()  # a final newline ends the last line, it starts none
    assert len(lines) == len(parts)
    for part, line in zip(parts, lines, strict=False):
        body = part.removesuffix(b"\r")
        if len(part) > MAX_LINE_BYTES:
            assert line.refusal is not None and line.refusal.startswith("command too long")
            assert f"({len(part):,} bytes" in line.refusal
        else:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                assert line.refusal is not None and line.refusal.startswith("not utf-8 text: byte ")
            else:
                assert line == Line(text)


@settings(max_examples=300, deadline=None)
@given(text=st.text(), limit=st.integers(1, 80))
def test_shown_text_is_printable_and_bounded(text: str, limit: int) -> None:
    out = shown(text, limit)
    assert out.isprintable()
    assert len(out) <= limit * 10 + 3  # the longest escape is \U0010ffff
    if text.isprintable() and len(text) <= limit:
        assert out == text
    if len(text) > limit:
        assert out.endswith("...")
