"""The real program in a pseudo-terminal: the table opens, a key and a mouse click draw
cards, q quits."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time

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


def test_the_table_opens_in_a_terminal_plays_a_move_and_quits_with_q(solitaire_home):
    main_fd, child_fd = pty.openpty()
    env = {**os.environ, "SOLITAIRE_HOME": str(solitaire_home), "TERM": "xterm-256color",
           "COLUMNS": "80", "LINES": "24"}
    import fcntl
    import struct
    import termios

    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-c", PROGRAM, "play", "klondike", "--seed", "48213"],
                            stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env, close_fds=True)
    os.close(child_fd)
    try:
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
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)
    assert proc.returncode == 0
    saved = json.loads((solitaire_home / "saves" / "klondike.json").read_text())
    assert saved["position"]["moves"] == 2 and saved["position"]["seed"] == 48213


def test_an_unreadable_save_is_told_on_the_table_and_in_full_when_it_closes(solitaire_home):
    import fcntl
    import struct
    import termios

    saves = solitaire_home / "saves"
    saves.mkdir(parents=True)
    (saves / "klondike.json").write_text("{not json")
    main_fd, child_fd = pty.openpty()
    env = {**os.environ, "SOLITAIRE_HOME": str(solitaire_home), "TERM": "xterm-256color"}
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-c", PROGRAM, "play", "klondike"],
                            stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env, close_fds=True)
    os.close(child_fd)
    try:
        # the status line (80 columns) has the short form whole
        screen = read_until(main_fd, b"(where: when you quit)")
        assert b"the saved klondike game could not be read: moved aside (where: when you quit)" in screen
        os.write(main_fd, b"q")
        proc.wait(timeout=30)
        after = read_until(main_fd, b"starting a new game", 5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)
    assert proc.returncode == 0
    aside = [p for p in saves.iterdir() if "unreadable" in p.name]
    assert len(aside) == 1 and aside[0].read_text() == "{not json"
    assert f"moved it to {aside[0]}".encode() in after.replace(b"\r\n", b"")
