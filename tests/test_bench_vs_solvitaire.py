"""benchmarks/bench_vs_solvitaire.py without Solvitaire: our deal written as Solvitaire's JSON
deal (checked against the expected text of fixed deals, which Solvitaire itself printed back
card for card when it was built here), its answer line read, and the by-turns loop run against
a stand-in binary that answers what the test tells it to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from script_helpers import load_script

bench = load_script("bench_vs_solvitaire")

# Klondike seed 12345 as Solvitaire's deal: bottom card first, face-down cards in lower case,
# the stock's top card (the first turned) last.
KLONDIKE_12345: dict[str, Any] = {
    "tableau piles": [
        ["6H"],
        ["9h", "8S"],
        ["6s", "7d", "3D"],
        ["9s", "10d", "Qd", "9C"],
        ["As", "2d", "7s", "9d", "JC"],
        ["10c", "5c", "8c", "4c", "Qs", "3S"],
        ["Kd", "8d", "3c", "4d", "10s", "Ad", "JD"],
    ],
    "stock": ["8H", "5D", "JS", "4S", "10H", "KS", "AC", "3H", "7C", "6D", "AH", "KC", "QH", "4H", "2C", "5S",
              "KH", "5H", "QC", "2H", "7H", "6C", "JH", "2S"],
}


def test_klondike_deal_converts_card_for_card() -> None:
    for game in ("klondike-draw1", "klondike-draw3", "klondike-draw1-strict"):
        assert bench.to_solvitaire(bench.deal(bench.GAMES[game], 12345)) == KLONDIKE_12345


def test_the_stock_top_is_the_first_card_turned() -> None:
    game = bench.deal(bench.GAMES["klondike-draw3"], 12345)
    game.push(game.legal_moves()[0])  # the draw: three cards, 2S first, 6C on top
    position = bench.to_solvitaire(game)
    assert position["waste"] == ["2S", "JH", "6C"]
    assert position["stock"] == KLONDIKE_12345["stock"][:-3]


def test_freecell_and_golf_deals() -> None:
    freecell = bench.to_solvitaire(bench.deal(bench.GAMES["freecell"], 7))
    assert list(freecell) == ["tableau piles"]  # empty cells and foundations are left out
    assert [len(p) for p in freecell["tableau piles"]] == [7, 7, 7, 7, 6, 6, 6, 6]
    cards = [c for p in freecell["tableau piles"] for c in p]
    assert len(set(cards)) == 52 and all(c[-1] in "CDHS" for c in cards)  # all face up
    golf = bench.deal(bench.GAMES["golf"], 5)
    out = bench.to_solvitaire(golf)
    assert out["hole"] == "QC"
    assert out["tableau piles"][0] == ["8S", "9S", "10C", "6S", "10D"]
    assert out["stock"] == ["7C", "7D", "AH", "4C", "5H", "AS", "4H", "5C", "3D", "JD", "KH", "QH", "3C", "AD",
                            "JS", "JC"]


def test_a_card_in_a_free_cell_cannot_be_said() -> None:
    game = bench.deal(bench.GAMES["freecell"], 7)
    to_cell = next(m for m in game.legal_moves() if game.rules.names[m[1]].startswith("c"))
    game.push(to_cell)
    with pytest.raises(bench.ConversionError, match="no free cells"):
        bench.to_solvitaire(game)


def test_card_names() -> None:
    assert bench.solvitaire_card("TH") == "10H"
    assert bench.solvitaire_card("TH", face_down=True) == "10h"
    assert bench.solvitaire_card("AS") == "AS"


def test_the_answer_line() -> None:
    assert bench.parse_classify(", solved, 12, 142, 88, 54, 39, 0, 49, 53, 88, 88, solved\n") == ("win", 12, 142)
    assert bench.parse_classify("[info] x\n, unsolvable, 3, 9, 9, 0, 0, 0, 1, 1, 2, 0, unsolvable")[0] == "unwinnable"
    assert bench.parse_classify(", timed-out, 10000, 5, 5, 0, 0, 0, 1, 1, 2, 0, timed-out")[0] == "unknown"
    # smart-solvability: the streamlined run timed out, the exact run proved it; summed
    smart = ", timed-out, 1000, 500, 1, 1, 1, 1, 1, 1, 1, 1, unsolvable, 20, 70, 1, 1, 1, 1, 1, 1, 1, 1, unsolvable"
    assert bench.parse_classify(smart) == ("unwinnable", 1020, 570)
    smart_won = ", solved, 12, 40, 1, 1, 1, 1, 1, 1, 1, 1, , , , , , , , , , , , solved"
    assert bench.parse_classify(smart_won) == ("win", 12, 40)
    with pytest.raises(ValueError, match="no answer"):
        bench.parse_classify("Error parsing deal file: Incorrect number of tableau piles")


def _stand_in(tmp_path: Path, answer: str) -> Path:
    """A Solvitaire that keeps the files it was given (deal, rules) and answers ``answer``."""
    script = tmp_path / "solvitaire"
    script.write_text(f"""#!/bin/sh
for a; do case $a in *.json) cp "$a" "{tmp_path}/seen-$(basename "$a")";; esac; done
echo "$@" > "{tmp_path}/args.txt"
echo ", {answer}, 3, 42, 40, 2, 0, 0, 10, 10, 5, 0, {answer}"
""")
    script.chmod(0o755)
    return script


# two deals of Klondike draw 1 (relaxed) that the greedy pass wins in under 100 states
QUICK = "343043868,539572182"


def test_by_turns_against_a_stand_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = _stand_in(tmp_path, "solved")
    code = bench.main(["--solvitaire", str(binary), "--game", "klondike-draw1", "--seeds", QUICK,
                       "--timeout", "60", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert [line["first"] for line in lines[:2]] == ["ours", "solvitaire"]  # by turns
    for line in lines[:2]:
        assert line["ours"]["result"] == "win" and line["ours"]["replays"] is True
        assert line["solvitaire"]["result"] == "win" and line["solvitaire"]["states"] == 42
        seen = json.loads((tmp_path / f"seen-deal-{line['seed']}.json").read_text())
        game = bench.deal(bench.GAMES["klondike-draw1"], line["seed"])
        assert seen == bench.to_solvitaire(game)
    args = (tmp_path / "args.txt").read_text().split()
    assert args[:2] == ["--type", "klondike-deal-1"] and "--timeout" in args
    assert args[args.index("--timeout") + 1] == "60000"  # milliseconds
    summary = lines[-1]
    assert summary["results"]["ours"]["won"] == 100.0 and summary["results"]["solvitaire"]["won"] == 100.0
    assert summary["win_against_proof"] == []


def test_a_win_against_a_proof_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = _stand_in(tmp_path, "unsolvable")
    code = bench.main(["--solvitaire", str(binary), "--game", "klondike-draw1-strict", "--seeds", QUICK,
                       "--timeout", "60"])
    out = capsys.readouterr().out
    assert code == 1
    assert "win against proof: [343043868, 539572182]" in out
    rules = json.loads((tmp_path / "seen-rules.json").read_text())  # custom rules: no foundation return
    assert rules["foundations"] == {"removable": False} and rules["stock"]["deal count"] == 1


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, reason in ((["--seeds", "1,x"], "--seeds takes whole numbers"),
                         (["--seeds", "1", "--solvitaire", str(tmp_path / "none")], "is not an executable"),
                         (["--seeds", "1"], "--solvitaire PATH is needed")):
        with pytest.raises(SystemExit) as exit_:
            bench.main(argv)
        assert exit_.value.code == 2
        assert reason in capsys.readouterr().err
