"""``pack verify`` checks every claim a pack makes: each single-field edit of
shipped puzzles that changes a claim fails, naming the puzzle and the field.

The packs here are two shipped puzzles (one N=2, one N=3, in shipped order), so each
verification takes a fraction of a second.  Schema errors (exit 2) are covered in
tests/cli/test_hostile_input.py.
"""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.tags import TAGGERS

SHIPPED = json.loads(data_path("packs", "fechtuebungen.json").read_bytes())
SMALL = {**SHIPPED, "puzzles": [SHIPPED["puzzles"][0], SHIPPED["puzzles"][25]]}


def _add_tag(p: dict) -> None:
    extra = next(t for t in TAGGERS if t not in p["tags"])
    p["tags"] = [t for t in TAGGERS if t in p["tags"] or t == extra]


def _other_key(p: dict) -> None:
    p["key"] = "volte:a1b2" if p["key"] != "volte:a1b2" else "stoss:a1a2"


def _drop_defence(p: dict) -> None:
    defender = p["solution"][p["key"]]
    defender.pop(sorted(defender)[0])


def _retarget_hit(p: dict) -> None:
    """A hit deep in the tree moved to another key: a wrong attacker node."""
    node = p["solution"][p["key"]]
    reply = sorted(node)[0]
    attacker = node[reply]
    move = sorted(attacker)[0]
    attacker["ausfall:a1a3" if move != "ausfall:a1a3" else "ausfall:a1a2"] = attacker.pop(move)
    node[reply] = dict(sorted(attacker.items()))


# (label, which puzzle (0 or 1), the edit, the field named in the problem)
EDITS = [
    ("tag removed", 0, lambda p: p["tags"].pop(), "tags:"),
    ("tag added", 0, _add_tag, "tags:"),
    ("nonsense tag", 1, lambda p: p["tags"].append("nonsense-tag"), "tags:"),
    ("tags reordered", 1, lambda p: p["tags"].reverse(), "tags:"),
    (
        "difficulty up",
        0,
        lambda p: p.update(difficulty=round(p["difficulty"] + 0.1, 1)),
        "difficulty:",
    ),
    (
        "difficulty down",
        1,
        lambda p: p.update(difficulty=round(p["difficulty"] - 0.1, 1)),
        "difficulty:",
    ),
    ("n 2 -> 3", 0, lambda p: p.update(n=3), "n:"),
    ("n 3 -> 2", 1, lambda p: p.update(n=2), "n:"),
    ("n 2 -> 1", 0, lambda p: p.update(n=1), "n:"),
    ("key", 0, _other_key, "key:"),
    ("line cut short", 1, lambda p: p.update(line=p["line"][:-2]), "line:"),
    ("line reply", 1, lambda p: p["line"].__setitem__(1, "volte:a1b2"), "line:"),
    ("tree defence removed", 0, _drop_defence, "solution:"),
    ("tree attacker node", 1, _retarget_hit, "solution:"),
    ("id", 0, lambda p: p.update(id="p-000000000000"), "id:"),
    ("attacker", 1, lambda p: p.update(attacker="gb"[p["attacker"] == "g"]), "attacker:"),
    ("cards reordered", 0, lambda p: p["cards"].reverse(), "cards:"),
]


def verify(pack: dict, tmp_path) -> tuple[int, str]:
    path = tmp_path / "pack.json"
    path.write_bytes(dump_json(pack))
    result = CliRunner().invoke(cli.main, ["pack", "verify", str(path)])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout


def test_the_small_pack_verifies(tmp_path):
    status, out = verify(SMALL, tmp_path)
    assert status == 0 and "2 puzzles, 0 problems: OK" in out, out


@pytest.mark.parametrize("label, which, edit, field", EDITS, ids=[e[0] for e in EDITS])
def test_every_single_field_edit_fails_naming_puzzle_and_field(tmp_path, label, which, edit, field):
    pack = copy.deepcopy(SMALL)
    puzzle = pack["puzzles"][which]
    original_id = puzzle["id"]
    edit(puzzle)
    status, out = verify(pack, tmp_path)
    assert status == 1 and "FAILED" in out, (label, out)
    named = [line for line in out.splitlines() if line.startswith(f"puzzle {which + 1} (")]
    assert any(field in line for line in named), (label, out)
    assert any(original_id in line or puzzle["id"] in line for line in named)


def test_order_and_duplicates_are_claims_too(tmp_path):
    swapped = copy.deepcopy(SMALL)
    swapped["puzzles"].reverse()
    status, out = verify(swapped, tmp_path)
    assert status == 1 and "puzzles: not ordered by n, difficulty, id" in out
    twice = copy.deepcopy(SMALL)
    twice["puzzles"].insert(1, copy.deepcopy(twice["puzzles"][0]))
    status, out = verify(twice, tmp_path)
    assert status == 1 and "puzzle 2 (" in out and "id: same id as puzzle 1" in out


def test_an_empty_pack_is_not_a_pack(tmp_path):
    status, _ = verify({**SMALL, "puzzles": []}, tmp_path)
    assert status == 2
