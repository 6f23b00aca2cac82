"""The solve API: distance, keys, lines and solution trees for a position.

Definitions (binding, docs/solver.md):

* hit within N: the side to move wins with its N-th own move at the latest,
  whatever the defence (N own moves span 2N-1 plies);
* distance: the smallest such N (``None`` when there is none within the bound);
* keys: every first move after which the hit within the distance is still forced;
* loss in N: every move of the side to move is answered by a hit within N
  opponent moves;
* longest defence: the defender replies that delay the hit longest; ties are
  broken by the move's notation text, ascending (so output is reproducible);
* main line: key, longest defence, the fastest finish, ... to the hit (the
  fastest key is the one whose hit comes soonest, ties by notation text).

Every answer comes from df-pn (:mod:`solver.dfpn`), or, when asked with ``tables``,
from an endgame table that covers the position (exact at any distance; the result
says so); ``verify=True`` re-derives
the distance, the key set and the loss with the independent minimax verifier
(:mod:`solver.minimax`).  Hitting a limit (nodes, time) gives status
``"unknown"`` and no claims, never a wrong answer.

>>> from fechtbuch.engines.battleklinge.position import Position
>>> r = solve(Position.from_text("2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte"), max_n=2)
>>> r.distance, [k.to_text() for k in r.keys]
(1, ['ausfall:c3c5'])
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.cards import COLOR_NAMES
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.tablebase.probe import Outcome, Tablebase, find_tables
from fechtbuch.engines.battleklinge.tablebase.studies import TreeTooLarge, solution_tree
from fechtbuch.engines.errors import InputError
from fechtbuch.solver import dfpn, minimax

KERNEL = GAME.kernel()
is_hit_move = KERNEL.is_winning_move

DEFAULT_MAX_NODES = 50_000_000
DEFAULT_TABLE_MB = 64
"""Transposition table of `fechtbuch solve` and of the solver everywhere but the bench."""
DEFAULT_VERIFY_NODES = 500_000_000
"""About half a minute of plain minimax: enough for every bound up to 5 and most of 6."""
CHUNK_NODES = 2_000_000


class SolveStatus(str, enum.Enum):
    """Whether :func:`solve` answered (``solved``) or a limit ended it first (``unknown``).

    A ``str`` so that JSON output and comparisons with the text stay as they were."""

    SOLVED = "solved"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


HIT = "hit"
"""How a solution tree marks a move that hits at once."""


@dataclass(frozen=True)
class SolutionTree:
    """An attacker node of a solution tree: every winning move (notation, sorted), each
    with ``None`` if it hits at once, else every defender reply (notation, sorted)
    with the attacker node after it.

    :meth:`to_json` gives the tree format of packs (docs/solver.md) and ``solve --tree``:
    ``{"move": "hit" | {"reply": {...}}}``."""

    moves: tuple[tuple[str, tuple[tuple[str, SolutionTree], ...] | None], ...]

    def to_json(self) -> dict:
        return {
            move: HIT if replies is None else {reply: node.to_json() for reply, node in replies}
            for move, replies in self.moves
        }

    @classmethod
    def from_json(cls, data: dict) -> SolutionTree:
        """The inverse of :meth:`to_json` (shape only; solver.verify checks the content)."""
        return cls(
            tuple(
                (
                    move,
                    None
                    if sub == HIT
                    else tuple((reply, cls.from_json(node)) for reply, node in sub.items()),
                )
                for move, sub in data.items()
            )
        )


class SolverLimit(Exception):
    """A node or time limit ended the search before an answer."""


class UnsolvablePosition(InputError):
    """The solver cannot take this position (decided, or a bound out of range)."""


def _text(code: int) -> str:
    return fast.decode_move(code).to_text()


class Prover:
    """df-pn with one transposition table and shared limits, for many queries.

    ``won(st, b)``: the side to move hits within b; ``lost(st, b)``: the side
    to move is hit within b opponent moves.  Raises :class:`SolverLimit`.
    """

    def __init__(
        self,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        table_mb: int = DEFAULT_TABLE_MB,
    ):
        self.table = dfpn.new_table(table_mb)
        self._search = dfpn.compiled(KERNEL).search
        self.max_nodes = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.nodes = 0
        self._memo: dict[tuple[int, int, bool], bool] = {}

    def _prove(self, st: np.ndarray, budget: int, root_is_or: bool) -> bool:
        if budget < 1:
            return False
        memo_key = (int(st[fast.F_HASH]), budget, root_is_or)
        if memo_key in self._memo:
            return self._memo[memo_key]
        while True:
            remaining = self.max_nodes - self.nodes
            if remaining <= 0 or (self.deadline is not None and time.monotonic() > self.deadline):
                raise SolverLimit
            chunk = min(remaining, CHUNK_NODES)
            pn, dn, nodes = self._search(st, budget, root_is_or, self.table, chunk)
            self.nodes += int(nodes)
            if pn == 0 or dn == 0:
                self._memo[memo_key] = pn == 0
                return pn == 0

    def won(self, st: np.ndarray, budget: int) -> bool:
        return self._prove(st, budget, True)

    def lost(self, st: np.ndarray, budget: int) -> bool:
        return self._prove(st, budget, False)

    def distance(self, st: np.ndarray, bound: int) -> int | None:
        """Smallest b <= bound with a hit for the side to move."""
        if not self.won(st, bound):
            return None
        return next(b for b in range(1, bound + 1) if self.won(st, b))

    def loss_distance(self, st: np.ndarray, bound: int) -> int | None:
        """Smallest b <= bound such that the side to move is hit within b."""
        if not self.lost(st, bound):
            return None
        return next(b for b in range(1, bound + 1) if self.lost(st, b))

    # ---- lines and trees ------------------------------------------------
    def winning_moves(self, st: np.ndarray, budget: int) -> list[tuple[int, np.ndarray | None]]:
        """Every move that hits at once or keeps a hit within ``budget`` (this move included)."""
        result = []
        for code, child in fast.children(st):
            if is_hit_move(st, code):
                result.append((code, None))
            elif budget >= 2 and self.lost(child, budget - 1):
                result.append((code, child))
        return sorted(result, key=lambda item: _text(item[0]))

    def attack_line(self, st: np.ndarray, budget: int) -> list[int]:
        """Fastest key, longest defence, fastest finish, ... from an attacker node."""
        line: list[int] = []
        while True:
            best = None
            for code, child in self.winning_moves(st, budget):
                speed = 0 if child is None else self.loss_distance(child, budget - 1)
                if best is None or speed < best[0]:
                    best = (speed, code, child)
            assert best is not None, "attack_line called on a node without a hit"
            speed, code, child = best
            line.append(code)
            if child is None:
                return line
            reply, st = self.longest_defence_step(child, speed)
            line.append(reply)
            budget = speed

    def longest_defence_step(self, st: np.ndarray, budget: int) -> tuple[int, np.ndarray]:
        """The reply (defender to move, lost within ``budget``) that delays the hit longest."""
        best = None
        for code, child in sorted(fast.children(st), key=lambda item: _text(item[0])):
            delay = self.distance(child, budget)
            assert delay is not None
            if best is None or delay > best[0]:
                best = (delay, code, child)
        assert best is not None
        return best[1], best[2]

    def tree(self, st: np.ndarray, budget: int) -> SolutionTree:
        """Solution tree of an attacker node (the solver's format), keys sorted."""
        moves = []
        for code, child in self.winning_moves(st, budget):
            replies = None
            if child is not None:
                replies = tuple(
                    (_text(reply), self.tree(grandchild, budget - 1))
                    for reply, grandchild in sorted(fast.children(child), key=lambda c: _text(c[0]))
                )
            moves.append((_text(code), replies))
        return SolutionTree(tuple(sorted(moves, key=lambda item: item[0])))


@dataclass
class SolveResult:
    """The answer for one position; see the module docstring for the terms."""

    position: Position
    max: int
    status: SolveStatus
    distance: int | None = None
    keys: list[Move] = field(default_factory=list)
    loss_in: int | None = None
    main_line: list[Move] = field(default_factory=list)
    longest_defence: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    verified: bool = False
    verifier_nodes: int = 0
    verify_note: str = ""
    from_tables: bool = False
    """The answer was read from an endgame table: exact at any distance, even beyond max."""
    draw: bool = False
    """From a table: neither side can force a hit, however long the game goes."""
    _prover: Prover | None = field(default=None, repr=False, compare=False)
    _tables: Tablebase | None = field(default=None, repr=False, compare=False)

    def tree(self) -> SolutionTree | None:
        """The solution tree for the side to move (None without a hit).

        Building it continues under the same node and time limits; reaching one
        raises :class:`SolverLimit` rather than returning a partial tree."""
        if self.distance is None:
            return None
        if self._tables is not None:
            try:
                return SolutionTree.from_json(solution_tree(self._tables, self.position))
            except TreeTooLarge as large:
                raise SolverLimit(str(large)) from None
        if self._prover is None:
            return None
        return self._prover.tree(fast.state_from_position(self.position), self.distance)

    def to_json(self) -> dict:
        return (
            {
                "position": self.position.to_text(),
                "max": self.max,
                "status": self.status.value,
                "distance": self.distance,
                "keys": [m.to_text() for m in self.keys],
                "loss_in": self.loss_in,
                "main_line": [m.to_text() for m in self.main_line],
                "longest_defence": [m.to_text() for m in self.longest_defence],
                "nodes": self.nodes,
                "seconds": round(self.seconds, 6),
                "verified": self.verified,
            }
            | ({"verify_note": self.verify_note} if self.verify_note else {})
            | ({"source": "tablebase", "draw": self.draw} if self.from_tables else {})
        )

    def summary(self) -> str:
        """The human-readable answer, one or two sentences."""
        mover = COLOR_NAMES[self.position.turn]
        if self.status is not SolveStatus.SOLVED:
            return (
                f"Unknown: a limit was reached after {self.nodes:,} nodes ({self.seconds:.2f} s)."
            )
        line = " ".join(m.to_text() for m in self.main_line)
        if self.from_tables:
            return "From the endgame tables (exact at any distance): " + self._answer(mover, line)
        return self._answer(mover, line)

    def _answer(self, mover: str, line: str) -> str:
        if self.draw:
            return "Neither side can force a hit: a draw with best play."
        if self.distance is not None:
            keys = ", ".join(m.to_text() for m in self.keys)
            which = (
                "the only winning move"
                if len(self.keys) == 1
                else f"{len(self.keys)} winning moves"
            )
            label = "Key" if len(self.keys) == 1 else "Keys"
            return f"{mover} hits in {self.distance}. {label}: {keys} ({which}). Main line: {line}"
        if self.loss_in is not None:
            defence = " ".join(m.to_text() for m in self.longest_defence)
            return (
                f"{mover} to move is hit in {self.loss_in} at the latest; "
                f"longest defence: {defence}. Main line: {line}"
            )
        return f"No forced hit within {self.max} own moves for either side."


def solve(
    position: Position,
    max_n: int = 3,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    table_mb: int = DEFAULT_TABLE_MB,
    verify: bool = False,
    verify_max_nodes: int | None = DEFAULT_VERIFY_NODES,
    tables: Path | bool = False,
) -> SolveResult:
    """Solve ``position`` up to ``max_n`` own moves for either side.

    Rejects decided positions and bounds outside 1..MAX_BUDGET at once.  With
    ``tables`` (True: the default folder, or a folder), a table that covers the
    position answers instead of df-pn; off by default, so that mining and the daily
    duel never depend on which tables a machine happens to have.
    """
    if position.winner() is not None:
        winner = COLOR_NAMES[position.winner()]
        raise UnsolvablePosition(
            f"position: already decided ({winner} has hit): {position.to_text()!r}"
        )
    if not 1 <= max_n <= dfpn.MAX_BUDGET:
        raise UnsolvablePosition(f"max: must be 1 to {dfpn.MAX_BUDGET}, got {max_n}")
    started = time.perf_counter()
    if tables is not False:
        base = find_tables(position, None if tables is True else Path(tables))
        if base is not None:
            result = _from_tables(position, max_n, base)
            if verify:
                _cross_check(result, table_mb, verify_max_nodes)
            result.seconds = time.perf_counter() - started
            return result
    prover = Prover(max_nodes=max_nodes, time_limit=time_limit, table_mb=table_mb)
    result = SolveResult(position=position, max=max_n, status=SolveStatus.UNKNOWN, _prover=prover)
    st = fast.state_from_position(position)
    try:
        distance = prover.distance(st, max_n)
        if distance is not None:
            result.keys = [fast.decode_move(c) for c, _ in prover.winning_moves(st, distance)]
            line = prover.attack_line(st, distance)
            result.main_line = [fast.decode_move(c) for c in line]
            result.longest_defence = result.main_line[1::2]
        else:
            loss = prover.loss_distance(st, max_n)
            result.loss_in = loss
            if loss is not None:
                reply, child = prover.longest_defence_step(st, loss)
                line = [reply] + prover.attack_line(child, prover.distance(child, loss))
                result.main_line = [fast.decode_move(c) for c in line]
                result.longest_defence = result.main_line[0::2]
        result.distance = distance
        result.status = SolveStatus.SOLVED
    except SolverLimit:
        # an unknown result makes no claims: drop whatever was found before the limit
        result.distance, result.loss_in = None, None
        result.keys, result.main_line, result.longest_defence = [], [], []
    result.nodes = prover.nodes
    if verify and result.status is SolveStatus.SOLVED:
        try:
            result.verified, result.verifier_nodes = verify_result(result, verify_max_nodes)
        except minimax.VerifierLimit as limit:
            result.verified, result.verify_note = False, str(limit)
    result.seconds = time.perf_counter() - started
    return result


def _from_tables(position: Position, max_n: int, base: Tablebase) -> SolveResult:
    probe = base.probe(position)
    result = SolveResult(
        position=position, max=max_n, status=SolveStatus.SOLVED, from_tables=True, _tables=base
    )
    if probe.result is Outcome.DRAW:
        result.draw = True
        return result
    result.main_line = base.main_line(position)
    if probe.result is Outcome.WIN:
        result.distance = probe.distance
        result.keys = sorted(base.best_moves(position), key=Move.to_text)
        result.longest_defence = result.main_line[1::2]
    else:
        result.loss_in = probe.distance
        result.longest_defence = result.main_line[0::2]
    return result


def _cross_check(result: SolveResult, table_mb: int, verify_max_nodes: int | None) -> None:
    """--verify for a table's answer: df-pn, searched to the table's distance (at most
    MAX_BUDGET), must give the same distance, keys and loss; a draw or a deeper result
    must show no forced hit within the bound for either side."""
    depth = result.distance or result.loss_in or 0
    bound = min(max(depth, result.max), dfpn.MAX_BUDGET)
    searched = solve(
        result.position, max_n=bound, table_mb=table_mb, verify_max_nodes=verify_max_nodes
    )
    within = depth <= bound and depth > 0
    result.verifier_nodes = searched.nodes
    result.verified = (
        searched.status is SolveStatus.SOLVED
        and searched.distance == (result.distance if within else None)
        and searched.loss_in == (result.loss_in if within else None)
        and sorted(searched.keys, key=Move.to_text) == (result.keys if within else [])
    )
    if not result.verified:
        result.verify_note = f"df-pn disagrees with the table (bound {bound})"
    elif not within:
        result.verify_note = f"df-pn agrees up to {bound} own moves, where it reaches"


def verify_result(result: SolveResult, max_nodes: int | None = None) -> tuple[bool, int]:
    """Re-derive distance, keys and loss with the minimax verifier; (agrees, nodes).

    Raises :class:`solver.minimax.VerifierLimit` when it needs more than
    ``max_nodes`` in all (the verifier has no table: deep bounds are costly)."""
    st = fast.state_from_position(result.position)
    nodes = 0

    def left() -> int | None:
        return None if max_nodes is None else max(1, max_nodes - nodes)

    def hit(state, b):
        nonlocal nodes
        answer, spent = minimax.hit_within(KERNEL, state, b, left())
        nodes += spent
        return answer

    def lost(state, b):
        nonlocal nodes
        answer, spent = minimax.lost_within(KERNEL, state, b, left())
        nodes += spent
        return answer

    d, bound = result.distance, result.max
    if d is None:
        ok = not hit(st, bound)
    else:
        ok = hit(st, d) and not hit(st, d - 1)
        keys = set()
        for code, child in fast.children(st):
            if is_hit_move(st, code) or (d >= 2 and lost(child, d - 1)):
                keys.add(fast.decode_move(code))
        ok = ok and keys == set(result.keys)
    if result.loss_in is None:
        ok = ok and (d is not None or not lost(st, bound))
    else:
        ok = ok and lost(st, result.loss_in) and not lost(st, result.loss_in - 1)
    return ok, nodes
