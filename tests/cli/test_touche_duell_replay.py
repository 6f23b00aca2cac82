"""``fechtbuch touche replay``: a record replayed step by step, checked by both rule books."""

from __future__ import annotations

import json

import pytest
from fechtbuch.engines.touche_duell import reference
from fechtbuch.engines.touche_duell.match import play_game
from fechtbuch.engines.touche_duell.notation import format_position
from fechtbuch.engines.touche_duell.state import Level, Ruleset
from support.clirun import assert_one_line_error, run


@pytest.fixture(scope="module")
def game():
    """A whole short game at fortgeschritten (lunges, retreats, several rounds)."""
    _, record = play_game("stark", "mittel", "replay", 0, Ruleset(Level.FORTGESCHRITTEN, True))
    assert len(record.shuffles) >= 3
    return record


def test_replay_json_walks_every_action_and_verifies(tmp_path, game):
    path = tmp_path / "duel.txt"
    path.write_text(game.to_text())
    result = run("touche", "replay", path, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verified"] is True and data["disagreements"] == []
    assert [s["action"] for s in data["steps"]] == game.to_text().split("\n\n", 1)[1].split()
    positions = [format_position(p) for p in game.positions()]
    assert data["final"] == positions[-1]
    # every position of the record appears, as a deal or as the position after a step
    shown = [r["position"] for r in data["rounds"]] + [s["after"] for s in data["steps"]]
    assert sorted(shown) == sorted(positions)
    assert [r["number"] for r in data["rounds"]] == list(range(1, len(game.shuffles) + 1))
    assert data["result"] == game.result()


def test_replay_text_and_board(tmp_path, game):
    path = tmp_path / "duel.txt"
    path.write_text(game.to_text())
    text = run("touche", "replay", path)
    assert text.exit_code == 0
    lines = text.output.splitlines()
    assert lines[0].startswith("round 1 (shuffle replay/0/1")
    assert (
        lines[-1]
        == f"verified: {len(game.actions)} actions replay exactly (fast and reference rules)"
    )
    board = run("touche", "replay", path, "--board")
    assert board.output.count("distance ") == len(game.actions)


def test_replay_reports_a_disagreement_of_the_rule_books(tmp_path, game, monkeypatch):
    path = tmp_path / "duel.txt"
    path.write_text(game.to_text())
    real = reference.apply

    def off_by_one_square(position, action):
        after = real(position, action)
        return after._replace(squares=(after.squares[0], after.squares[1] + 1))

    monkeypatch.setattr(reference, "apply", off_by_one_square)
    result = run("touche", "replay", path, "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["verified"] is False
    assert data["disagreements"][0].startswith("ply 1 (")


def test_replay_bad_records_are_one_line(tmp_path, game):
    illegal = tmp_path / "illegal.txt"
    illegal.write_text(game.to_text().replace("\n\n", "\n\na5x5\n", 1))
    assert "line" in assert_one_line_error(run("touche", "replay", illegal))
    wrong_result = tmp_path / "result.txt"
    wrong_result.write_text(game.to_text().replace(f"Result: {game.result()}", "Result: 0:3"))
    assert "Result" in assert_one_line_error(run("touche", "replay", wrong_result))
    assert_one_line_error(run("touche", "replay", tmp_path / "missing.txt"))
