"""The witness games of the two Touché packs: every exercise carries the round that
reaches it, ``pack verify`` replays it, and an edited move or an edited position is
caught, naming the exercise.  Also the packs' ``mined_by``, which ``pack verify``
prints."""

from __future__ import annotations

import copy
import json

import orjson
import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.engines.touche_duell.game import ToucheDuellGame
from fechtbuch.engines.touche_pyramiden import GAME as PYRAMIDS
from fechtbuch.puzzles.pack import verify_pack
from fechtbuch.puzzles.packkinds import kind_for
from fechtbuch.puzzles.witness import replay_witness

PACKS = {
    "touche-uebungen": ("touche-duell/mining-2026", ToucheDuellGame()),
    "pyramiden-uebungen": ("touche-pyramiden/random-and-threats", PYRAMIDS),
}


def _pack(name: str) -> dict:
    return orjson.loads(data_path("packs", f"{name}.json").read_bytes())


@pytest.mark.parametrize("name", sorted(PACKS))
def test_every_exercise_carries_a_witness_that_reaches_it(name):
    pack = _pack(name)
    assert pack["mined_by"] == PACKS[name][0]
    game = PACKS[name][1]
    kind = kind_for(pack["rules"])
    for puzzle in pack["puzzles"]:
        state, problems = replay_witness(game, puzzle["witness"])
        assert problems == [] and state is not None, puzzle["id"]
        assert game.start_problem(game.parse_state(puzzle["witness"]["start"])) is None
        assert kind.verify_witness(puzzle) == [], puzzle["id"]


def _one_puzzle_pack(name: str) -> tuple[dict, dict]:
    pack = _pack(name)
    puzzle = min(pack["puzzles"], key=lambda p: (len(json.dumps(p["solution"])), p["id"]))
    return {**pack, "puzzles": [puzzle]}, puzzle


def _edited_move(name: str, moves: list[str]) -> list[str]:
    """The witness with its last move changed into one the rules do not allow there."""
    last = moves[-1]
    if name == "touche-uebungen":
        replacement = "a5x5" if last != "a5x5" else "a4x5"
    else:
        replacement = "XX:-a1" if last != "XX:-a1" else "XX:-n8"
    return [*moves[:-1], replacement]


@pytest.mark.parametrize("name", sorted(PACKS))
def test_pack_verify_catches_an_edited_move_and_an_edited_position(name, tmp_path):
    pack, puzzle = _one_puzzle_pack(name)
    assert verify_pack(pack) == []
    label = f"puzzle 1 ({puzzle['id']}): witness"

    moved = copy.deepcopy(pack)
    moved["puzzles"][0]["witness"]["moves"] = _edited_move(name, puzzle["witness"]["moves"])
    problems = verify_pack(moved)
    assert any(p.startswith(label) and "not legal" in p for p in problems), problems

    # the witness now stops one move short: it reaches another position than the
    # exercise's (the same as editing a field of the position)
    short = copy.deepcopy(pack)
    short["puzzles"][0]["witness"]["moves"] = puzzle["witness"]["moves"][:-1]
    problems = verify_pack(short)
    assert any(p.startswith(label) and "reaches" in p for p in problems), problems

    # a field of the position edited (the pile or discard count): the witness no
    # longer reaches it, whatever the proof says of the edited view
    edited = copy.deepcopy(pack)
    position = puzzle["position"]
    if name == "touche-uebungen":
        fields = position.split(" ")
        fields[2] = "1:0" if fields[2] != "1:0" else "0:1"  # the score before the round
        edited["puzzles"][0]["position"] = " ".join(fields)
    else:
        edited["puzzles"][0]["position"] = position.replace(" pass=0 ", " pass=1 ")
    assert edited["puzzles"][0]["position"] != position
    problems = verify_pack(edited)
    assert any(p.startswith(label) and "reaches" in p for p in problems), problems

    missing = copy.deepcopy(pack)
    del missing["puzzles"][0]["witness"]
    assert any(p.startswith(label) and "missing" in p for p in verify_pack(missing))

    path = tmp_path / "edited.json"
    path.write_bytes(dump_json(moved))
    result = CliRunner().invoke(cli.main, ["pack", "verify", str(path)])
    assert result.exit_code == 1 and label in result.output


@pytest.mark.parametrize("name", sorted(PACKS))
def test_pack_verify_prints_mined_by(name, tmp_path):
    pack, _ = _one_puzzle_pack(name)
    path = tmp_path / "one.json"
    path.write_bytes(dump_json(pack))
    text = CliRunner().invoke(cli.main, ["pack", "verify", str(path)])
    assert text.exit_code == 0 and f"mined by: {PACKS[name][0]}" in text.output
    as_json = CliRunner().invoke(cli.main, ["pack", "verify", str(path), "--json"])
    assert json.loads(as_json.output)["mined_by"] == PACKS[name][0]
