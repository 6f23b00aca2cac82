"""Meisterstudien: deep Battleklinge studies mined from endgame tables, as a version-2 pack.

Mining (:func:`mine_pack`): Gold-to-move positions of one material split with equal
material (one student a side by default: natural-looking), a unique key and a forced
hit in exactly d own moves, d = 10 down to 4, found and solved by the tables
(:func:`fechtbuch.engines.battleklinge.tablebase.studies.mine_studies`).  Every tree is
pruned the same way (the pack says ``"solution": "pruned"``): every key and every
defence at the first two defender moves, below them exactly the branch's main line
(the pack format allows more there; verification accepts it as the kind does).  Tags and
difficulty come from the functions mining uses for every pack
(:func:`~fechtbuch.puzzles.battleklinge.packkind.derived_fields`).

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

import atexit
import shutil
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
from fechtbuch.engines.battleklinge.position import Move, NotationError, Position
from fechtbuch.engines.battleklinge.reach import ReachBudget, find_witness
from fechtbuch.engines.battleklinge.reference import play
from fechtbuch.engines.battleklinge.tablebase import Outcome, Tablebase, build, find_tables
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase.studies import Study, mine_studies
from fechtbuch.puzzles.battleklinge.packkind import (
    HIT,
    KIND,
    PUZZLE_FIELDS,
    derived_field_problems,
    derived_fields,
    identity_problems,
    parse_claim,
)
from fechtbuch.puzzles.battleklinge.packkind import MAX_N as KIND_MAX_N
from fechtbuch.puzzles.pack import FULL_DEFENCES, PackOrder, SolutionMode, build_pack_v2
from fechtbuch.puzzles.packkind import Puzzle

BALANCED_MAX_N = 10
"""The deepest study with one student a side (own moves)."""
DISTANCES = range(BALANCED_MAX_N, 3, -1)
"""Distances mined with one student a side, deepest first."""
MAX_N = KIND_MAX_N
"""The pack's declared range: the deep studies of three students go past 10."""
DEEP_SPLIT = (3, 1)
"""Material of the deep studies: three students against one.  Verification builds
their tables on demand when none are built (:func:`on_demand_splits`: (3, 1) and every
split it needs, 1.42 G positions, minutes on two cores), as it builds K = 1 for the
balanced ones (seconds); any other material needs built tables."""

DFPN_NODES = 5_000_000
"""df-pn's node limit per study in verification (seconds): every shipped study up to
its bound of 8 own moves needed at most 2.5 M nodes; the tables cover the rest."""
SPLIT = (1, 1)
"""Material of the studies: one student a side (balanced)."""
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


def _split_of(pos: Position) -> tuple[int, int]:
    return pos.students[pos.turn].bit_count(), pos.students[1 - pos.turn].bit_count()


def on_demand_splits(pos: Position) -> list[tuple[int, int]] | None:
    """The splits verification builds when no built tables cover ``pos``: K = 1 for at
    most one student a side, :data:`DEEP_SPLIT` and what it needs for the material of
    the deep studies; None for any other material (built tables only)."""
    split = _split_of(pos)
    if max(split) <= 1:
        return ix.splits(1)
    if split in ix.group_of(DEEP_SPLIT):
        return ix.required_splits([DEEP_SPLIT])
    return None


def study_tables(pos: Position) -> Tablebase | None:
    """Tables covering ``pos``: the default folder's, else built once per process into a
    temporary folder (:func:`on_demand_splits`; None when too large)."""
    found = find_tables(pos)
    if found is not None:
        return found
    needed = on_demand_splits(pos)
    if needed is None:
        return None
    tables = _tables_built_here(pos.cards, tuple(needed))
    return tables if tables.covers(pos) else None


@cache
def _tables_built_here(cards: tuple, needed: tuple[tuple[int, int], ...]) -> Tablebase:
    """The splits ``needed`` (in build order) of ``cards``, built once per process into a
    temporary folder removed at exit: the tables are a pure function of their cards and
    splits, so a pack's studies share them."""
    folder = Path(tempfile.mkdtemp(prefix="fechtbuch-study-tables-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    k = max(max(split) for split in needed)
    build(cards, k, folder / "tables", only=None if k <= 1 else [needed[-1]])
    return Tablebase.open(folder / "tables")


def dfpn_check(pos: Position, n: int, key: Move) -> list[str] | None:
    """df-pn's opinion: problems with the claim (exactly n, only ``key``), or None when
    df-pn did not reach a verdict within :data:`DFPN_NODES`."""
    from fechtbuch.solver import dfpn
    from fechtbuch.solver.battleklinge.api import solve

    if n > dfpn.MAX_BUDGET:
        return None  # beyond df-pn's bound (8 own moves): the table alone answers
    answer = solve(pos, max_n=n, max_nodes=DFPN_NODES)
    if answer.status != "solved":
        return None
    if answer.distance != n:
        return [f"n: df-pn finds distance {answer.distance}, not {n}"]
    if answer.keys != [key]:
        return [f"key: df-pn finds the keys {[k.to_text() for k in answer.keys]}"]
    return []


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


class _TableView:
    """The table's answers in notation text (docs/solver.md terms and tie-breaks)."""

    def __init__(self, tables: Tablebase):
        self.tables = tables

    def wins(self, pos: Position, budget: int) -> dict[str, int]:
        """Moves keeping a hit within ``budget``, with the distance each keeps."""
        return {
            m.to_text(): r.distance  # type: ignore[misc]
            for m, r in self.tables.move_results(pos)
            if r.result is Outcome.WIN and r.distance <= budget  # type: ignore[operator]
        }

    def replies(self, pos: Position) -> dict[str, int]:
        """Every reply with the attacker's distance after it (all are lost)."""
        return {m.to_text(): r.distance for m, r in self.tables.move_results(pos)}  # type: ignore[misc]


def verify_study(puzzle: Puzzle, max_n: int) -> list[str]:
    """Re-derive a pruned study with the tables and df-pn (module docstring); one line
    per problem.  None of the checks searches beyond the tables' probes and df-pn's
    node limit, so it is bounded."""
    claim = parse_claim(puzzle, max_n)
    if isinstance(claim, list):
        return claim
    pos, key, line, n = claim.pos, claim.key, claim.line, puzzle["n"]
    tables = study_tables(pos)
    if tables is None:
        return ["position: no endgame tables cover it (build them with fechtbuch tb build)"]
    problems = identity_problems(puzzle, pos, key, line)
    result = tables.probe(pos)
    if result.result is not Outcome.WIN or result.distance != n:
        return problems + [f"n: the tables say {result}, not a win in {n}"]
    view = _TableView(tables)
    keys = sorted(view.wins(pos, n))
    if keys != [puzzle["key"]]:
        return problems + [f"key: keys are {keys}, expected only {puzzle['key']!r}"]
    dfpn = dfpn_check(pos, n, key)
    problems += dfpn or []
    tree_problems: list[str] = []
    _walk(view, pos, puzzle["solution"], n, FULL_DEFENCES, "", tree_problems)
    problems += [f"solution: {p}" for p in tree_problems]
    expected_line = [m.to_text() for m in tables.main_line(pos)]
    if puzzle["line"] != expected_line:
        problems.append(f"line: not the main line; expected {' '.join(expected_line)}")
        return problems
    if tree_problems:
        return problems
    return problems + derived_field_problems(puzzle, pos, key, line)


def _first(distances: dict[str, int], pick: Callable) -> str:
    """The move with the best distance (``pick`` = min or max), ties by text."""
    best = pick(distances.values())
    return min(m for m, d in distances.items() if d == best)


def _walk(view: _TableView, pos: Position, node, budget: int, full: int, path: str, out) -> None:
    """An attacker node of a pruned tree against the tables; the same rules and messages
    as the kind's minimax check (packkind.verify_pruned_tree)."""
    where = path or "root"
    if not isinstance(node, dict) or not node:
        out.append(f"{where}: attacker node must be a non-empty object")
        return
    if list(node) != sorted(node):
        out.append(f"{where}: keys are not sorted")
    wins = view.wins(pos, budget)
    if full > 0:
        allowed = set(wins)
        if set(node) != allowed:
            missing = sorted(allowed - set(node))
            extra = sorted(set(node) - allowed)
            out.append(f"{where}: winning moves differ (missing {missing}, not winning {extra})")
    else:  # at least the branch's main line: its fastest key, any other winning move
        fastest = _first(wins, min) if wins else None
        if fastest not in node:
            out.append(f"{where}: below the cut the main line key {fastest!r} is missing")
        extra = sorted(set(node) - set(wins))
        if extra:
            out.append(f"{where}: not winning {extra}")
        allowed = set(wins)
    moves = {m.to_text(): m for m, _ in view.tables.move_results(pos)}
    for text, sub in node.items():
        if text not in allowed:
            continue
        after = play(pos, moves[text])
        step = f"{path} {text}".strip()
        if after.winner() is not None:
            if sub != HIT:
                out.append(f'{step}: a hit must be marked "hit"')
            continue
        if not isinstance(sub, dict) or not sub:
            out.append(f"{step}: defender node must be a non-empty object")
            continue
        replies = view.replies(after)
        if full > 0:
            if set(sub) != set(replies):
                out.append(f"{step}: defender replies differ from the legal moves")
        else:  # at least the longest defence, any other legal reply
            longest = _first(replies, max)
            if longest not in sub:
                out.append(f"{step}: below the cut the longest defence {longest!r} is missing")
            if not set(sub) <= set(replies):
                out.append(f"{step}: not legal {sorted(set(sub) - set(replies))}")
        if list(sub) != sorted(sub):
            out.append(f"{step}: keys are not sorted")
        reply_moves = {m.to_text(): m for m, _ in view.tables.move_results(after)}
        for reply, attacker_node in sub.items():
            if reply in reply_moves:
                child = play(after, reply_moves[reply])
                _walk(view, child, attacker_node, budget - 1, full - 1, f"{step} {reply}", out)


def covered_by_tables(puzzle: Puzzle) -> bool:
    """True if tables for the puzzle's position can be built on demand
    (:func:`on_demand_splits`) or built tables cover it: :func:`verify_study` applies."""
    try:
        pos = Position.from_text(puzzle["position"])
    except NotationError:
        return False
    if pos.winner() is not None:
        return False
    return on_demand_splits(pos) is not None or find_tables(pos) is not None
