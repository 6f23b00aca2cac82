"""fechtbuch pyramiden: play driven through stdin (2, 3, 4 players with the computer, and
hotseat), and the other commands with their errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.touche_pyramiden.record import read_record


def run(*args, lines=(), color=False):
    result = CliRunner().invoke(
        cli.main,
        ["pyramiden", *map(str, args)],
        input="".join(f"{x}\n" for x in lines),
        color=color,
    )
    assert "Traceback" not in result.output, result.output[-2000:]
    return result


@pytest.mark.parametrize(
    ("players", "extra"),
    [
        (2, ["--pattern", "kvadrat"]),
        (3, ["--rounds", "4"]),
        (4, ["--teams", "2", "--seat", "1", "--pattern", "kombination"]),
    ],
)
def test_play_against_the_computer(players, extra, tmp_path):
    record = tmp_path / "game.txt"
    # "1" takes the first action of the numbered list every time; one "?" and one
    # bad action are answered without losing the turn
    lines = ["?", "ZZ:q9", "7H:c3@"] + ["1"] * 3000
    result = run(
        "play",
        "--players",
        players,
        "--strength",
        "mittel",
        "--plain",
        "--seed",
        f"e2e{players}",
        "--record",
        record,
        *extra,
        lines=lines,
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Game over. Points:" in out and "Game saved" in out
    assert "Error: action" in out and "1) " in out
    assert "\x1b[" not in out  # --plain: no colours
    game = read_record(record)
    final = game.states()[-1]
    assert final.phase.value == "ende" and f"Players: {players}" in record.read_text()
    expected = ["mittel"] * players
    expected[1 if players == 4 else 0] = "mensch"
    assert [v for k, v in game.headers] == expected


def test_play_hotseat_hides_hands_between_turns(tmp_path):
    lines = []
    for _ in range(400):
        lines += ["", "1"]
    result = run(
        "play",
        "--players",
        "2",
        "--hotseat",
        "--plain",
        "--seed",
        "hot",
        "--pattern",
        "kvadrat",
        "--record",
        tmp_path / "hot.txt",
        lines=lines,
    )
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Game over" in out
    # every hand is shown only after its seat took the keyboard
    chunks = out.split("), then Enter")
    for before, after in zip(chunks[:-1], chunks[1:], strict=True):
        seat = before.rsplit("Pass the keyboard to seat ", 1)[1].split(" ")[0]
        shown = [line for line in after.splitlines() if line.startswith("Hand of seat")]
        assert all(line.startswith(f"Hand of seat {seat} ") for line in shown)
    assert [v for _, v in read_record(tmp_path / "hot.txt").headers] == ["mensch", "mensch"]


def test_play_quit_and_colours():
    result = run("play", "--players", "2", "--seed", "q", lines=["q"], color=True)
    assert result.exit_code == 0 and "Game resigned" in result.output
    assert "\x1b[" in result.output  # colours on a terminal unless --plain
    plain = run("play", "--players", "2", "--seed", "q", "--plain", lines=["q"], color=True)
    assert "\x1b[" not in plain.output


def test_play_end_of_input_gives_up_as_in_every_game():
    result = run("play", "--players", "2", "--plain", "--seed", "eof", lines=[])
    assert result.exit_code == 0 and result.output.endswith("Game resigned.\n")


def test_new_show_and_json():
    new = run("new", "--players", "4", "--teams", "2", "--seed", "abend", "--json")
    data = json.loads(new.output)
    assert data["shuffles"] == ["abend/runde1", "abend/runde2", "abend/runde3"]
    state = run("new", "--players", "4", "--teams", "2", "--seed", "abend").output.strip()
    assert state == data["state"]
    shown = run("show", state, "--plain")
    assert shown.exit_code == 0 and " 8   **  AS" in shown.output
    for seat in range(4):
        view = json.loads(run("show", state, "--seat", seat, "--json").output)
        assert view["seat"] == seat and "sicht=" in view["view"]
        again = run("show", view["view"], "--plain")
        assert again.exit_code == 0 and f"Hand of seat {seat}" in again.output


def test_match_replay_and_bench(tmp_path):
    match = run(
        "match", "mittel", "leicht", "--players", "2", "--games", "2", "--seed", "m", "--json"
    )
    data = json.loads(match.output)
    assert data["games"] == 2 and data["a"] == "mittel"
    text = run("match", "leicht", "leicht", "--games", "1", "--players", "4")
    assert "seconds per move: leicht" in text.output and "points: leicht" in text.output
    path = tmp_path / "r.txt"
    run("play", "--players", "2", "--plain", "--seed", "r", "--record", path, lines=["q"])
    replay = json.loads(run("replay", path, "--json").output)
    assert replay["result"] == "*"
    bench = json.loads(run("bench", "--players", "3", "--states", "300", "--json").output)
    assert bench["states"] == 300 and bench["states_per_second"] > 0


def test_a_match_of_meister_with_its_budget_and_six_players(tmp_path):
    """--rollouts gives meister its budget and the log keeps it (a resumed match plays
    with the same budget); six players are two teams of three."""
    log = tmp_path / "m.jsonl"
    args = ["match", "meister", "stark", "--players", "6", "--games", "2", "--rollouts", "6"]
    first = json.loads(run(*args, "--seed", "s6", "--json", "--log", log).output)
    assert first["games"] == 2 and first["a"] == "meister" and "6 players" in first["game"]
    assert first["points_per_game"] is None  # two games are too few for an interval
    assert '"rollouts":6' in log.read_text()
    both = run(*args, "--movetime", "0.1")
    assert both.exit_code == 2 and "give one of --rollouts and --movetime" in both.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "--players", "4", "--teams", "3"], "teams: 4 players allow 4, 2 teams"),
        (["new", "--seed", "a b"], "seed"),
        (["show", "pyramiden-1 x"], "state"),
        (["play", "--players", "2", "--seat", "3"], "seat"),
        (["replay", "/nonexistent/file"], "record: no such file"),
    ],
)
def test_errors_are_one_line_with_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output


def test_record_is_not_overwritten_without_force(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("keep")
    result = run("play", "--players", "2", "--seed", "x", "--record", path, lines=["q"])
    assert result.exit_code == 2 and "exists" in result.output and path.read_text() == "keep"


def test_help_has_examples():
    for command in ["play", "new", "show", "match", "replay", "bench"]:
        assert "Example" in run(command, "--help").output
