"""fechtbuch pyramiden play --pack: an exercise played through stdin on its tree, and
the version-2 pack commands (verify, html) on a pyramid pack."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.commands.touche_pyramiden.mine import build_pack
from fechtbuch.engines.files import dump_json
from fechtbuch.puzzles.touche_pyramiden.mining import mine


@pytest.fixture(scope="module")
def pack_file(tmp_path_factory):
    exercises = mine("1", 300, 1, 20_000)[:3]
    path = tmp_path_factory.mktemp("pack") / "kleine.json"
    path.write_bytes(dump_json(build_pack(exercises, 1, 1, "fechtbuch pyramiden mine (test)")))
    return path


def _play(pack_file, *lines, extra=()):
    return CliRunner().invoke(
        cli.main,
        ["pyramiden", "play", "--pack", str(pack_file), "--plain", *extra],
        input="".join(f"{x}\n" for x in lines),
    )


def test_play_an_exercise_through_stdin(pack_file):
    puzzle = json.loads(pack_file.read_text())["puzzles"][0]
    result = _play(pack_file, "legal", "nonsense", puzzle["key"])
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Exercise 1 of 3." in out and "Hand of seat" in out
    assert "Not a legal action here: 'nonsense'" in out and "Legal: " in out
    assert f"Solved: win:{puzzle['pattern']}." in out


def test_play_refuses_a_losing_action_and_shows_a_key(pack_file):
    puzzle = json.loads(pack_file.read_text())["puzzles"][1]
    legal = _play(pack_file, "legal", extra=("--puzzle", puzzle["id"])).output
    other = next(
        a for a in legal.split("Legal: ")[1].split("\n")[0].split(", ") if a != puzzle["key"]
    )
    result = _play(pack_file, other, "solution", puzzle["key"], extra=("--puzzle", "2"))
    assert result.exit_code == 0, result.output[-2000:]
    assert "The sure path is lost" in result.output
    assert f"A key: {puzzle['key']}" in result.output and "Solved with help" in result.output


def test_play_quits_at_end_of_input_and_rejects_other_games_options(pack_file):
    stopped = _play(pack_file)
    assert stopped.exit_code == 0 and stopped.output.rstrip().endswith("Stopped.")
    lone = CliRunner().invoke(cli.main, ["pyramiden", "play", "--puzzle", "2"])
    assert lone.exit_code == 2 and "--puzzle: only with --pack" in lone.output
    seat = _play(pack_file, extra=("--seat", "1"))
    assert seat.exit_code == 2 and "--seat: not used with --pack" in seat.output


def test_pack_verify_and_html_take_a_pyramid_pack(pack_file, tmp_path):
    verify = CliRunner().invoke(cli.main, ["pack", "verify", str(pack_file)])
    assert verify.exit_code == 0, verify.output[-2000:]
    page = tmp_path / "p.html"
    html = CliRunner().invoke(cli.main, ["pack", "html", str(pack_file), "-o", str(page)])
    assert html.exit_code == 0, html.output[-2000:]
    assert "<svg" in page.read_text()
