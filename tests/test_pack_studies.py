"""Tablebase studies in a version-2 pack: pruned trees, deepest first, verified.

The studies' trees come from the endgame tables (engines/battleklinge/tablebase/
studies.py, pruned there); the pack's verification re-derives them with the
table-less minimax verifier (puzzles/battleklinge/packkind.py).  Two independent
readings of "pruned: every defence at the first two defender moves, the branch's
main line below" must agree.
"""

from __future__ import annotations

import pytest
from fechtbuch.engines.battleklinge.cards import CARD_SETS
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.tablebase import studies
from fechtbuch.engines.battleklinge.tablebase.build import build
from fechtbuch.engines.battleklinge.tablebase.probe import Tablebase
from fechtbuch.puzzles.battleklinge.packkind import KIND, derived_fields
from fechtbuch.puzzles.pack import PackOrder, SolutionMode, build_pack_v2, verify_pack


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables") / "einsteiger"
    build(CARD_SETS["einsteiger"], 1, folder)
    return Tablebase.open(folder)


def test_pruned_studies_from_the_tables_verify(tables, monkeypatch):
    monkeypatch.setattr(studies, "FULL_TREE_LIMIT", 0)  # prune every tree
    mined = studies.mine_studies(tables, count=2, distances=range(6, 4, -1))
    assert [s.distance for s in mined] == [6, 5] and not any(s.tree_complete for s in mined)
    puzzles = []
    for study in mined:
        puzzle = dict(study.puzzle)
        pos, key = Position.from_text(puzzle["position"]), Move.from_text(puzzle["key"])
        line = [Move.from_text(m) for m in puzzle["line"]]
        puzzle["tags"], puzzle["difficulty"] = derived_fields(puzzle, pos, key, line)
        puzzles.append(puzzle)
    pack = build_pack_v2(
        KIND,
        puzzles,
        seed=0,
        command="tests/test_pack_studies.py",
        max_n=10,
        order=PackOrder.DEEPEST_FIRST,
        solution=SolutionMode.PRUNED,
    )
    assert [p["n"] for p in pack["puzzles"]] == [6, 5]
    assert verify_pack(pack) == []
    # the same trees claimed complete are not
    full = dict(pack, solution=SolutionMode.FULL.value)
    assert any("winning moves differ" in p or "replies differ" in p for p in verify_pack(full))
