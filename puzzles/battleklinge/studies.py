"""Meisterstudien: deep Battleklinge studies mined from endgame tables, as a version-2 pack.

Mining (:func:`mine_pack`): Gold-to-move positions of one material split with equal
material (one student a side by default: natural-looking), a unique key and a forced
hit in exactly d own moves, d = 10 down to 4, found and solved by the tables
(:func:`fechtbuch.engines.battleklinge.tablebase.studies.mine_studies`).  Every tree is
pruned the same way (the pack says ``"solution": "pruned"``): every key and every
defence at the first two defender moves, below them exactly the branch's main line
(the pack format allows more there; verification accepts it as the kind does).  Tags and
difficulty come from the functions mining uses for every pack
(:func:`~fechtbuch.puzzles.battleklinge.claims.derived_fields`).

Verification (:func:`verify_study`, the Battleklinge kind's check of a pruned puzzle
whose position the tables cover) is bounded and exact:

* the **table** re-derives everything: exactly n, the only key, at each node of the
  pruned tree the winning moves (above the cut; below it the fastest key and only
  winning moves), every reply (above the cut; below it the longest defence and only
  legal moves), the main line, and the derived fields;
* **df-pn** (``solver.solve`` without tables, :data:`DFPN_NODES` nodes) re-proves the
  distance and the key set where it reaches (n up to its bound of 8 and within the
  node limit); elsewhere it says nothing and the table's answer stands.

The tables of the study's card set come from the default folder when built there,
else they are built once per process into a temporary folder (K = 1: seconds).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.reach import ReachBudget, find_witness
from fechtbuch.engines.battleklinge.tablebase import Tablebase
from fechtbuch.engines.battleklinge.tablebase.studies import Study, mine_studies
from fechtbuch.puzzles.battleklinge.claims import MAX_N as KIND_MAX_N
from fechtbuch.puzzles.battleklinge.claims import (
    PUZZLE_FIELDS,
    derived_fields,
)
from fechtbuch.puzzles.battleklinge.packkind import KIND
from fechtbuch.puzzles.battleklinge.studycheck import DEEP_SPLIT, SPLIT, dfpn_check
from fechtbuch.puzzles.pack import PackOrder, SolutionMode, build_pack_v2
from fechtbuch.puzzles.packkind import Puzzle

BALANCED_MAX_N = 10
"""The deepest study with one student a side (own moves)."""
DISTANCES = range(BALANCED_MAX_N, 3, -1)
"""Distances mined with one student a side, deepest first."""
MAX_N = KIND_MAX_N
"""The pack's declared range: the deep studies of three students go past 10."""

WITNESS_BUDGET = ReachBudget(attempts=12, playout_plies=160, search_nodes=40_000, landing_depth=3)
"""How hard the miner looks for a game that reaches a study (docs/tablebase.md): 12
start deals, each thinned to one student a side by a playout of at most 160 plies and
arranged by a search of at most 40,000 positions.  A study without a game within it is
passed over; every shipped study needed only the first start deal."""
WITNESS_LABEL = "meisterstudien"
"""Seeds the witness search with the target (not with the pack's seed): a study gets
the same game whatever the seed that visited it."""


def study_witness(pos: Position) -> dict | None:
    """The pack's ``witness`` of a study: a legal game from a start deal of its five
    cards that reaches it (:func:`fechtbuch.engines.battleklinge.reach.find_witness`),
    or None within :data:`WITNESS_BUDGET`."""
    found = find_witness(pos, WITNESS_LABEL, WITNESS_BUDGET)
    if found is None:
        return None
    start, moves = found
    return {"start": start.to_text(), "moves": [m.to_text() for m in moves]}


def longest_win(tables: Tablebase, split: tuple[int, int]) -> int:
    """The longest win (own moves) of a split of the tables."""
    codes = np.unique(tables.split_values(split))
    wins = codes[codes % 2 == 1]
    return int(wins.max() + 1) // 2 if wins.size else 0


def mine_pack(
    tables: Tablebase,
    count: int,
    seed: int,
    command: str,
    distances: range = DISTANCES,
    verify: Callable[[Position, int, Move], list[str] | None] | None = dfpn_check,
    deep: int = 0,
) -> dict:
    """A version-2 pack of ``count`` studies with one student a side and ``deep``
    studies of :data:`DEEP_SPLIT` (one each at the longest distances of that split,
    beyond :data:`BALANCED_MAX_N`; ``tables`` must hold it), deepest first, each with a
    witness game (a study no game reaches within :data:`WITNESS_BUDGET` is passed over
    for the next candidate).  A study df-pn refutes is an error (the tables and df-pn
    disagree), never shipped."""
    studies = []
    if deep:
        longest = longest_win(tables, DEEP_SPLIT)
        studies += mine_studies(
            tables,
            count=deep,
            distances=range(longest, BALANCED_MAX_N, -1),
            split=DEEP_SPLIT,
            label=f"meisterstudien-deep/{seed}",
            full_tree_limit=0,
            witness=study_witness,
        )
    studies += mine_studies(
        tables,
        count=count,
        distances=distances,
        split=SPLIT,
        label=f"meisterstudien/{seed}",
        full_tree_limit=0,
        witness=study_witness,
    )
    puzzles = [study_puzzle(s) for s in studies]
    if verify is not None:
        for puzzle in puzzles:
            pos = Position.from_text(puzzle["position"])
            problems = verify(pos, puzzle["n"], Move.from_text(puzzle["key"]))
            if problems:
                raise AssertionError(f"{puzzle['position']}: {problems}")
    return build_pack_v2(
        KIND,
        puzzles,
        seed=seed,
        command=command,
        max_n=MAX_N if deep else BALANCED_MAX_N,
        order=PackOrder.DEEPEST_FIRST,
        solution=SolutionMode.PRUNED,
    )


def study_puzzle(study: Study) -> Puzzle:
    """The pack puzzle of a mined study: the miner's fields, tags and difficulty from
    the functions every Battleklinge pack uses."""
    puzzle = dict(study.puzzle)
    pos = Position.from_text(puzzle["position"])
    key = Move.from_text(puzzle["key"])
    line = [Move.from_text(m) for m in puzzle["line"]]
    tags, difficulty = derived_fields(puzzle, pos, key, line)
    puzzle["tags"] = tags
    puzzle["difficulty"] = difficulty
    return {k: puzzle[k] for k in PUZZLE_FIELDS if k in puzzle}


# ---- verification -----------------------------------------------------------------
