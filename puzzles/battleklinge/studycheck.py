"""How a Meisterstudie is checked: the endgame tables it is read from (found, or built on
demand for its material), df-pn where it reaches, and every claim of the puzzle walked
against the tables.  The pack kind verifies studies with it; mining them is
:mod:`.studies`.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

from fechtbuch.engines.battleklinge.position import Move, NotationError, Position
from fechtbuch.engines.battleklinge.reference import play
from fechtbuch.engines.battleklinge.tablebase import (
    Outcome,
    Tablebase,
    TbResult,
    build,
    find_tables,
)
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.puzzles.battleklinge.claims import (
    HIT,
    derived_field_problems,
    identity_problems,
    line_problems,
    parse_claim,
)
from fechtbuch.puzzles.pack import FULL_DEFENCES
from fechtbuch.puzzles.packkind import Puzzle

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


class _TableView:
    """The table's answers in notation text (docs/solver.md terms and tie-breaks), each
    position's moves probed once per study (a node's winning moves, its move list and
    the replies below it all read the same probes)."""

    def __init__(self, tables: Tablebase):
        self.tables = tables
        self._probed: dict[Position, list[tuple[str, Move, TbResult]]] = {}

    def results(self, pos: Position) -> list[tuple[str, Move, TbResult]]:
        """Every legal move of ``pos`` as (text, move, the mover's result after it)."""
        found = self._probed.get(pos)
        if found is None:
            found = [(m.to_text(), m, r) for m, r in self.tables.move_results(pos)]
            self._probed[pos] = found
        return found

    def moves(self, pos: Position) -> dict[str, Move]:
        return {text: m for text, m, _ in self.results(pos)}

    def wins(self, pos: Position, budget: int) -> dict[str, int]:
        """Moves keeping a hit within ``budget``, with the distance each keeps."""
        return {
            text: r.distance  # type: ignore[misc]
            for text, _, r in self.results(pos)
            if r.result is Outcome.WIN and r.distance <= budget  # type: ignore[operator]
        }

    def replies(self, pos: Position) -> dict[str, int]:
        """Every reply with the attacker's distance after it (all are lost)."""
        return {text: r.distance for text, _, r in self.results(pos)}  # type: ignore[misc]


def verify_study(puzzle: Puzzle, max_n: int) -> list[str]:
    """Re-derive a pruned study with the tables and df-pn (module docstring); one line
    per problem.

    The claim's own fields come first: the identity fields (id, attacker, cards), the
    line against the tree, and the derived fields (tags, difficulty) recomputed from
    them.  They need no table and no search (the difficulty of n >= 8 is the top of
    its scale: :func:`~fechtbuch.puzzles.battleklinge.rating.puzzle_difficulty`), so
    an edited study is refused at once, before its tables are opened (or built on
    demand: minutes for the deep material).  Then the tables answer n, the key, the
    tree and the main line, and df-pn confirms up to its bound within
    :data:`DFPN_NODES`: nothing searches beyond the tables' probes and that limit."""
    claim = parse_claim(puzzle, max_n)
    if isinstance(claim, list):
        return claim
    pos, key, line, n = claim.pos, claim.key, claim.line, puzzle["n"]
    problems = identity_problems(puzzle, pos, key, line) + line_problems(line, puzzle["solution"])
    if problems:
        return problems
    problems = derived_field_problems(puzzle, pos, key, line)
    if problems:
        return problems
    tables = study_tables(pos)
    if tables is None:
        return ["position: no endgame tables cover it (build them with fechtbuch tb build)"]
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
    moves = view.moves(pos)
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
        reply_moves = view.moves(after)
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
