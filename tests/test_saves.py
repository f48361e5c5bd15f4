"""Saved games: written after every move, resumed in every mode, moved aside when unreadable."""

from __future__ import annotations

import json

import pytest
from klondike_helpers import near_won

from solitaire.cli import saves
from solitaire.core import Game, get_variant


def save_file(home, variant="klondike"):
    return home / "saves" / f"{variant}.json"


def test_a_move_saves_and_play_resumes_it_with_undo_and_redo(cli, solitaire_home):
    first = cli("play", "klondike", "--json", "--seed", "7", input="draw\ndraw\nundo\n").json_lines()
    assert first[-1]["moves"] == 1
    data = json.loads(save_file(solitaire_home).read_text())
    assert data["position"]["seed"] == 7 and len(data["history"]) == 1 and len(data["future"]) == 1
    again = cli("play", "klondike", "--json", input="redo\nundo\nundo\nundo\n").json_lines()
    assert again[0]["position"] == first[-1]["position"]
    assert [r["ok"] for r in again[1:]] == [True, True, True, False]  # redo, undo twice, then nothing
    assert again[-1]["error"] == "nothing to undo"
    assert again[-1]["position"]["piles"] == first[0]["position"]["piles"]


def test_resume_keeps_the_options_and_plain_mode_resumes_too(cli, solitaire_home):
    cli("play", "klondike", "--json", "--draw", "3", "--seed", "5", input="draw\n")
    out = cli("play", "klondike", "--plain", input="quit\n")
    assert out.code == 0 and "draw 3" in out.out and "deal klondike-d3-5" in out.out and "moves 1" in out.out
    again = cli("play", "klondike", "--json", "--draw", "3", input="").json_lines()
    assert again[0]["moves"] == 1 and again[0]["position"]["options"]["draw"] == 3


def test_new_options_new_flag_and_seed_start_a_new_game(cli, solitaire_home):
    cli("play", "klondike", "--json", "--seed", "5", input="draw\n")
    other = cli("play", "klondike", "--json", "--draw", "3", input="").json_lines()
    assert other[0]["moves"] == 0 and other[0]["position"]["options"]["draw"] == 3
    cli("play", "klondike", "--json", "--seed", "5", input="draw\n")
    fresh = cli("play", "klondike", "--json", "--new", input="").json_lines()
    assert fresh[0]["moves"] == 0
    cli("play", "klondike", "--json", "--seed", "5", input="draw\n")
    seeded = cli("play", "klondike", "--json", "--seed", "9", input="").json_lines()
    assert seeded[0]["moves"] == 0 and seeded[0]["position"]["seed"] == 9
    # each abandoned deal counted as played and lost
    stats = json.loads(cli("stats", "klondike", "--json").out)["stats"]
    assert sum(r["played"] for r in stats) == 3 and sum(r["won"] for r in stats) == 0


@pytest.mark.parametrize("deal", [("--seed", "7"), ("--deal", "klondike-d3-100"), ("--daily",)])
def test_naming_the_saved_deal_again_resumes_it(cli, solitaire_home, deal):
    first = cli("play", "klondike", "--json", *deal, input="draw\n").json_lines()
    again = cli("play", "klondike", "--json", *deal, input="")
    assert again.json_lines()[0]["position"] == first[-1]["position"] and again.json_lines()[0]["moves"] == 1
    assert again.err == "solitaire: resuming your game of this deal (1 move); --new deals it again\n"
    restarted = cli("play", "klondike", "--json", *deal, "--new", input="").json_lines()
    assert restarted[0]["moves"] == 0 and restarted[0]["position"] == first[0]["position"]
    assert json.loads(cli("stats", "--json").out)["stats"][0]["played"] == 1  # --new left it: lost


def test_a_chosen_deal_is_saved_before_its_first_move(cli, solitaire_home):
    from solitaire.cli.sharecode import daily_seed

    cli("play", "klondike", "--json", "--daily", "--draw", "3", input="quit\n")
    again = cli("play", "klondike", "--json", "--daily", "--draw", "3", input="quit\n")
    assert again.code == 0 and again.err == ""  # the untouched deal again: nothing to say
    back = cli("play", "klondike", "--json", input="").json_lines()[0]
    assert back["position"]["seed"] == daily_seed() and back["position"]["options"]["draw"] == 3
    assert json.loads(cli("stats", "--json").out) == {"stats": []}  # an untouched deal is no game


def test_leaving_a_saved_game_for_another_says_so_in_one_line(cli, solitaire_home):
    cli("play", "klondike", "--json", "--draw", "3", "--seed", "5", input="draw\ndraw\n")
    result = cli("play", "klondike", "--json", "--draw", "1", input="")
    assert result.code == 0 and result.json_lines()[0]["moves"] == 0
    assert result.err == "solitaire: left your game klondike-d3-5 (2 moves): it counts as lost\n"


def test_a_share_code_resumes_only_its_own_deal_and_options(cli, solitaire_home):
    cli("play", "klondike", "--json", "--deal", "klondike-d3-48213", input="draw\n")
    plain = cli("play", "klondike", "--json", "--deal", "klondike-48213", input="")  # draw 1: another deal
    start = plain.json_lines()[0]
    assert start["moves"] == 0 and start["position"]["options"]["draw"] == 1
    assert "resuming" not in plain.err and "counts as lost" in plain.err

def test_a_game_that_cannot_start_leaves_the_saved_one_alone(cli, solitaire_home, tmp_path):
    cli("play", "klondike", "--json", "--seed", "5", input="draw\n")
    before = save_file(solitaire_home).read_text()
    result = cli("play", "klondike", "--json", "--position", str(tmp_path / "missing.json"), input="")
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert save_file(solitaire_home).read_text() == before
    assert json.loads(cli("stats", "--json").out) == {"stats": []}


def test_a_saved_game_that_is_already_won_is_not_resumed(cli, solitaire_home):
    defn = get_variant("klondike")
    game = Game.from_position(defn, {**near_won(), "seed": 12})
    game.play("t1 f")
    game.play("t2 f")
    assert game.won
    saves.write_save(game, 10.0, True)  # only a hand-made save can hold one: a win removes the save
    start = cli("play", "klondike", "--json", input="").json_lines()[0]
    assert start["won"] is False and start["moves"] == 0


@pytest.mark.parametrize("mode", ["--plain", "--json"])
@pytest.mark.parametrize("table_only", ["--hints", "--four-colour"])
def test_table_options_are_refused_outside_the_table(cli, solitaire_home, mode, table_only):
    result = cli("play", "klondike", mode, table_only, input="")
    assert result.code == 2 and result.out == ""
    assert result.err == f"solitaire: {table_only} is for the full-screen table, not {mode}\n"
    assert not save_file(solitaire_home).exists()


def test_quitting_before_the_first_move_comes_back_to_the_same_deal(cli, solitaire_home):
    first = cli("play", "klondike", "--json", input="quit\n").json_lines()[0]
    back = cli("play", "klondike", "--json", input="").json_lines()[0]
    assert back["position"] == first["position"] and back["moves"] == 0
    cli("play", "klondike", "--json", "--new", input="")  # leaving an untouched deal costs nothing
    assert json.loads(cli("stats", "--json").out) == {"stats": []}


@pytest.mark.parametrize("garbage", ["{not json", json.dumps({"format": 1, "position": {"variant": "klondike"}}),
                                     "[]"])
def test_an_unreadable_save_is_moved_aside_and_a_new_game_starts(cli, solitaire_home, garbage):
    path = save_file(solitaire_home)
    path.parent.mkdir(parents=True)
    path.write_text(garbage)
    result = cli("play", "klondike", "--json", input="draw\n")
    assert result.code == 0
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "could not be read" in lines[0] and "moved it to" in lines[0]
    aside = [p for p in path.parent.iterdir() if "unreadable" in p.name]
    assert len(aside) == 1 and aside[0].read_text() == garbage and str(aside[0]) in lines[0]
    assert result.json_lines()[0]["moves"] == 0
    assert json.loads(path.read_text())["position"]["moves"] == 1  # the new game's save


def test_a_second_unreadable_save_never_overwrites_the_first(cli, solitaire_home):
    path = save_file(solitaire_home)
    path.parent.mkdir(parents=True)
    for text in ("first", "second"):
        path.write_text(text)
        cli("play", "klondike", "--json", input="")
    kept = sorted(p.read_text() for p in path.parent.iterdir() if "unreadable" in p.name)
    assert kept == ["first", "second"]


def test_a_history_that_does_not_fit_the_position_is_unreadable(solitaire_home):
    defn = get_variant("klondike")
    game = Game.new(defn.rules(), 3)
    game.play("draw")
    data = saves.save_data(game, 1.0, True)
    data["history"] = [[0, 1, 0, 30, 0]] * 3  # three draws of 30 cards each: impossible
    with pytest.raises(saves.SaveError):
        saves.game_from_save(defn, data)


def test_a_won_game_removes_its_save_and_counts_only_if_dealt(cli, solitaire_home, tmp_path):
    pos = tmp_path / "near.json"
    pos.write_text(json.dumps(near_won()))
    out = cli("play", "klondike", "--json", "--position", str(pos), input="t1 f\n").json_lines()
    assert out[-1]["ok"] and save_file(solitaire_home).exists()
    out = cli("play", "klondike", "--json", input="t2 f\n").json_lines()
    assert out[-1]["won"] is True
    assert not save_file(solitaire_home).exists()
    assert json.loads(cli("stats", "--json").out) == {"stats": []}  # a position, not a deal


def test_tracker_records_a_dealt_win(solitaire_home):
    defn = get_variant("klondike")
    game = Game.from_position(defn, {**near_won(), "seed": 12})
    tracker = saves.Tracker(game, elapsed=30.0, dealt=True)
    game.play("t1 f")
    tracker.changed()
    assert saves.read_save(defn) is not None
    game.play("t2 f")
    tracker.changed()
    assert saves.read_save(defn) is None
    assert tracker.last_result["after"]["won"] == 1 and tracker.last_result["after"]["best_time_s"] >= 30


def test_an_atomic_write_that_fails_keeps_the_old_file_and_leaves_nothing_behind(tmp_path):
    import os

    from solitaire.core.files import atomic_write

    target = tmp_path / "deep" / "file.json"
    atomic_write(target, b"old")
    (tmp_path / "deep" / f".file.json.{os.getpid()}-0.tmp").write_bytes(b"a dead writer's")
    with pytest.raises(TypeError):
        atomic_write(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    atomic_write(target, b"new")  # the temporary name in the way is stepped round, not reused
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in target.parent.iterdir()) == [f".file.json.{os.getpid()}-0.tmp", "file.json"]


def test_saves_are_atomic_and_leave_no_temporary_files(solitaire_home):
    game = Game.new(get_variant("klondike").rules(), 4)
    game.play("draw")
    for _ in range(5):
        saves.write_save(game, 2.0, True)
    assert [p.name for p in (solitaire_home / "saves").iterdir()] == ["klondike.json"]
