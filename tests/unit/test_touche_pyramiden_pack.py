"""The shipped "Touché in N" pack of the pyramid game: it verifies, and its recorded
command makes it.

Re-running the whole recorded command takes minutes (docs/performance.md), so the
test re-runs it on a prefix of the candidate states: mining is a deterministic scan
in candidate order, so every exercise found in the prefix must be in the pack, byte
for byte, and the pack's first puzzles of each N found there must come out the same.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter

import pytest
from fechtbuch.commands.touche_pyramiden.mine import build_pack
from fechtbuch.engines.files import dump_json
from fechtbuch.engines.paths import data_file
from fechtbuch.puzzles.touche_pyramiden.mining import mine
from fechtbuch.puzzles.touche_pyramiden.packkind import KIND, MAX_N

PACK = "pyramiden-uebungen.json"
PREFIX = 60
"""Candidate states re-mined by the test (the recorded command scans more)."""


@pytest.fixture(scope="module")
def pack() -> dict:
    return json.loads(data_file("packs", PACK).read_bytes())


def _options(command: str) -> dict[str, str]:
    words = shlex.split(command)
    assert words[:3] == ["fechtbuch", "pyramiden", "mine"]
    return dict(zip(words[3::2], words[4::2], strict=True))


def test_envelope_and_counts(pack):
    assert pack["format"] == "fechtbuch-pack" and pack["version"] == 2
    assert pack["rules"] == "touche-pyramiden" and pack["solution"] == "pruned"
    assert pack["order"] == "n,difficulty,id" and pack["max_n"] <= MAX_N
    counts = Counter(p["n"] for p in pack["puzzles"])
    assert pack["max_n"] == 3 and counts == {1: 12, 2: 12, 3: 12}
    # N = 3 keeps its variety: at most four per tag (but for the two every N = 3 has)
    deep = Counter(t for p in pack["puzzles"] if p["n"] == 3 for t in p["tags"])
    assert all(k <= 4 for t, k in deep.items() if t not in ("in-3", "joker-defence-exhausted"))
    keys = [(p["n"], p["difficulty"], p["id"]) for p in pack["puzzles"]]
    assert keys == sorted(keys) and len({p["id"] for p in pack["puzzles"]}) == len(keys)
    classes = [KIND.duplicate_class(p) for p in pack["puzzles"]]
    assert len(set(classes)) == len(classes)


def test_every_position_is_one_real_play_can_reach(pack):
    """Each exercise passes the reachability test and carries the round that reaches it
    (replayed with the reference rules: the views of play, and the views built by
    editing a round of play, not a position)."""
    from fechtbuch.engines.touche_pyramiden import notation
    from fechtbuch.engines.touche_pyramiden.reachable import reachability_problem
    from fechtbuch.puzzles.touche_pyramiden.packkind import verify_witness

    for puzzle in pack["puzzles"]:
        assert reachability_problem(notation.parse_view(puzzle["position"])) is None
        assert verify_witness(puzzle) == [], puzzle["id"]


def test_the_unreachable_positions_of_the_old_pack_are_rejected(pack):
    """The 19 exercises of the pack before session 6 that no game reaches (kept in
    tests/data) fail the reachability test, and none of them is shipped again."""
    from pathlib import Path

    from fechtbuch.engines.touche_pyramiden import notation
    from fechtbuch.engines.touche_pyramiden.reachable import reachability_problem

    old = json.loads(
        (Path(__file__).parents[1] / "data" / "pyramiden-unreachable.json").read_text()
    )
    assert len(old["positions"]) == 19
    shipped = {p["position"] for p in pack["puzzles"]}
    for entry in old["positions"]:
        assert reachability_problem(notation.parse_view(entry["position"])) is not None
        assert entry["position"] not in shipped


@pytest.mark.slow
def test_every_puzzle_verifies(pack):
    for puzzle in pack["puzzles"]:
        assert KIND.verify_pruned(puzzle, pack["max_n"]) == [], puzzle["id"]


@pytest.mark.slow
def test_recorded_command_remakes_the_pack_on_a_prefix(pack):
    options = _options(pack["command"])
    found = mine(
        options["--seed"],
        PREFIX,
        int(options["--max"]),
        int(options["--max-nodes"]),
        int(options["--per-n"]) if "--per-n" in options else None,
    )
    assert found, "the prefix holds exercises"
    shipped = {p["id"]: p for p in pack["puzzles"]}
    for exercise in found:
        assert shipped[exercise.id] == exercise.to_json()
    # the same function writes the file: the pack's bytes are its own dump
    remade = build_pack(
        [_as_exercise(p) for p in pack["puzzles"]],
        int(options["--seed"]),
        int(options["--max"]),
        pack["command"],
    )
    assert dump_json(remade) == data_file("packs", PACK).read_bytes()


def _as_exercise(puzzle: dict):
    from fechtbuch.puzzles.touche_pyramiden.mining import MinedPuzzle

    return MinedPuzzle(**puzzle)
