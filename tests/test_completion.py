"""Shell completion: Typer's, through the real entry point (a subprocess, as a shell runs it)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def complete(words: str, cword: int) -> list[str]:
    env = {**os.environ, "_SOLITAIRE_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    proc = subprocess.run([sys.executable, "-m", "solitaire.cli"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_commands_and_play_options_complete():
    assert complete("solitaire pl", 1) == ["play"]
    assert "--four-colour" in complete("solitaire play --fo", 2)
    assert complete("solitaire race ho", 2) == ["host"]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_show_completion_prints_the_script_for_a_shell(shell):
    proc = subprocess.run([sys.executable, "-m", "solitaire.cli", "--show-completion", shell],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "_SOLITAIRE_COMPLETE" in proc.stdout, proc.stderr


def test_the_options_are_listed_in_help(cli):
    out = cli("--help").out
    assert "--install-completion" in out and "--show-completion" in out
