"""The real program in a pseudo-terminal: the table opens, a key and a mouse click draw
cards, q quits."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

PROGRAM = "import sys; from solitaire.cli.main import main; sys.exit(main(sys.argv[1:]))"
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def read_until(fd: int, needle: bytes, limit_s: float = 30.0) -> bytes:
    """Read the terminal's output until ``needle`` shows (a generous limit, not a timing test)."""
    out = b""
    end = time.monotonic() + limit_s
    while needle not in out and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


@contextmanager
def program_in_pty(home, *args: str, env: dict[str, str] | None = None):
    """The real program on an 80x24 pseudo-terminal, with ``home`` as its SOLITAIRE_HOME (and
    ``env``, else this environment with a 256-colour TERM): yields the process and the
    terminal's side to read and type on; kills the process if it is still running after."""
    import fcntl
    import struct
    import termios

    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**(env if env is not None else {**os.environ, "TERM": "xterm-256color"}),
           "SOLITAIRE_HOME": str(home), "COLUMNS": "80", "LINES": "24"}
    proc = subprocess.Popen([sys.executable, "-c", PROGRAM, *args],
                            stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env, close_fds=True)
    os.close(child_fd)
    try:
        yield proc, main_fd
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)


def test_the_table_opens_in_a_terminal_plays_a_move_and_quits_with_q(solitaire_home):
    with program_in_pty(solitaire_home, "play", "klondike", "--seed", "48213") as (proc, main_fd):
        screen = read_until(main_fd, b"klondike-48213")
        assert b"klondike-48213" in screen, screen[-2000:]
        read_until(main_fd, b"moves 0", 5)
        os.write(main_fd, b"d")  # draw: one move
        screen = read_until(main_fd, b"moves 1")
        assert b"moves 1" in screen
        # a real mouse click (SGR mouse report, 1-based column;row) on the stock: the
        # header is screen line 1, the table's first card line is screen line 3
        os.write(main_fd, b"\x1b[<0;4;3M\x1b[<0;4;3m")
        screen = read_until(main_fd, b"moves 2")
        assert b"moves 2" in screen
        os.write(main_fd, b"q")
        proc.wait(timeout=30)
        read_until(main_fd, b"\x00", 1)
    assert proc.returncode == 0
    from solitaire.cli.saves import read_save
    from solitaire.core import get_variant

    saved = read_save(get_variant("klondike"))
    assert saved is not None and saved.game.moves == 2 and saved.game.seed == 48213


def test_an_unreadable_save_is_told_on_the_table_and_in_full_when_it_closes(solitaire_home):
    saves = solitaire_home / "saves"
    saves.mkdir(parents=True)
    (saves / "klondike.json").write_text("{not json")
    with program_in_pty(solitaire_home, "play", "klondike") as (proc, main_fd):
        # the status line (80 columns) has the short form whole
        screen = read_until(main_fd, b"(where: when you quit)")
        assert b"the saved klondike game could not be read: moved aside (where: when you quit)" in screen
        os.write(main_fd, b"q")
        proc.wait(timeout=30)
        after = read_until(main_fd, b"starting a new game", 5)
    assert proc.returncode == 0
    aside = [p for p in saves.iterdir() if "unreadable" in p.name]
    assert len(aside) == 1 and aside[0].read_text() == "{not json"
    assert f"moved it to {aside[0]}".encode() in after.replace(b"\r\n", b"")
