"""Alpha-beta search: negamax with iterative deepening, a transposition table,
move ordering and node limits, compiled with numba; plus an exact hit search.

Scores are centi-students from the side to move's view (see
:mod:`engines.battleklinge.evaluate`).  A won game scores ``WIN - ply`` where
``ply`` counts half-moves from the search root to the winning move, so a
shorter hit scores higher; :func:`hit_moves` converts back to "own moves".

The hot loop (:func:`~fechtbuch.engines.battleklinge.negamax.negamax`, the
compiled kernel; this module is its driver) keeps an explicit stack (one row per ply of
``states``, ``moves``, bounds and best values) because numba's on-disk cache
mis-handles recursion.  Move ordering: the transposition-table move, then
moves that capture, then the two killer moves of the ply, then the history
score of (colour, card, from, to).  Below the nominal depth a quiescence
search resolves captures (stand-pat on the static evaluation).  A node whose
side to move has an immediately winning move (capturing the enemy master, or
its master stepping onto the enemy banner) is scored at once.

Search features (bits ``FEAT_*`` of negamax.py, all on by default): PVS at
every node, late-move reductions and threat extensions.

Time limits: the compiled kernel cannot read a clock, so the driver gives each
root-move call a node budget from the time left and the nodes per second
measured so far in this search, and reads the clock between root moves and
between iterations.  An iteration cut short never counts as complete: the
result keeps the last completed depth, and takes a move from the cut iteration
only when that move was proved better than the previous best at the new depth.

Determinism: with a node limit (and no time limit) every result depends only
on the position, the limits and the weights; the table starts empty for each
:class:`Searcher`.

>>> from fechtbuch.engines.battleklinge.position import Position
>>> pos = Position.from_text("2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte")
>>> result = Searcher().search(pos, max_depth=3)
>>> result.move.to_text(), result.score == WIN - 1
('ausfall:c3c5', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from fechtbuch.engines.battleklinge.evaluate import DEFAULT_WEIGHTS, NUM_WEIGHTS
from fechtbuch.engines.battleklinge.fast import (
    F_HASH,
    MAX_MOVES,
    NO_WINNER,
    STATE_SIZE,
    decode_move,
    encode_move,
    gen_moves,
    make_move,
    state_from_position,
    winner,
)
from fechtbuch.engines.battleklinge.negamax import (  # noqa: F401  (re-exported)
    FEAT_ALL,
    INF,
    LEAF_QUIESCE,
    LEAF_STATIC,
    LEAF_ZERO,
    MATE_BOUND,
    MAX_PLY,
    S_ABORTED,
    S_EXTPLY,
    S_FEATURES,
    S_LEAF,
    S_LIMIT,
    S_NODES,
    STACK_ROWS,
    STATS_SIZE,
    WIN,
    negamax,
)
from fechtbuch.engines.battleklinge.position import Move, Position


@dataclass
class SearchResult:
    """What a search found: the best move, its score (side to move, centi-students),
    the completed depth, nodes, seconds, and for ``all_scores`` searches every root
    move's exact score."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    scores: dict[Move, int] = field(default_factory=dict)
    pv: list[Move] = field(default_factory=list)
    """The principal variation (the best move first), read from the table."""

    @property
    def students(self) -> float:
        return score_to_students(self.score)


def score_to_students(score: int) -> float:
    """Centi-students to students; forced results are clamped to +-100 students."""
    if score > MATE_BOUND:
        return 100.0
    if score < -MATE_BOUND:
        return -100.0
    return score / 100.0


def hit_moves(score: int) -> int | None:
    """For a forced-result score, the number of own moves until the hit (negative:
    the opponent hits in that many of its moves); None for an ordinary score.

    >>> hit_moves(WIN - 1), hit_moves(WIN - 3), hit_moves(-(WIN - 2)), hit_moves(40)
    (1, 2, -1, None)
    """
    if score > MATE_BOUND:
        return (WIN - score + 1) // 2
    if score < -MATE_BOUND:
        return -((WIN + score) // 2)
    return None


def format_score(score: int) -> str:
    """Human form of a score: ``+1.25``, or ``#2`` / ``-#1`` for a forced hit.

    >>> format_score(125), format_score(-40), format_score(WIN - 3), format_score(-(WIN - 2))
    ('+1.25', '-0.40', '#2', '-#1')
    """
    hits = hit_moves(score)
    if hits is None:
        return f"{score / 100:+.2f}"
    return f"#{hits}" if hits > 0 else f"-#{-hits}"


class Searcher:
    """Search state for one player in one game: the transposition table, killers,
    history and the evaluation weights.  Not shared between processes."""

    def __init__(
        self, weights: np.ndarray = DEFAULT_WEIGHTS, tt_bits: int = 18, features: int = FEAT_ALL
    ):
        w = np.zeros(NUM_WEIGHTS, dtype=np.int64)
        given = np.asarray(weights, dtype=np.int64)
        w[: len(given)] = given  # a short (pre-square-table) vector means zero tables
        self.weights = w
        self.features = features
        self.rate = 3e6
        """Nodes per second, measured by each timed search (for the node budgets of
        time limits); a first guess before any."""
        size = 1 << tt_bits
        self.tt_key = np.zeros(size, dtype=np.int64)
        self.tt_move = np.zeros(size, dtype=np.int32)
        self.tt_score = np.zeros(size, dtype=np.int32)
        self.tt_depth = np.zeros(size, dtype=np.int16)
        self.tt_flag = np.zeros(size, dtype=np.int8)
        rows = MAX_PLY + 2
        self.states = np.zeros((rows, STATE_SIZE), dtype=np.int64)
        self.moves = np.zeros((rows, MAX_MOVES), dtype=np.int32)
        self.keys = np.zeros((rows, MAX_MOVES), dtype=np.int64)
        self.stack = np.zeros((STACK_ROWS, rows), dtype=np.int64)
        self.killers = np.full((MAX_PLY + 8, 2), -1, dtype=np.int32)
        self.history = np.zeros((2, 16, 25, 25), dtype=np.int64)
        self.stats = np.zeros(STATS_SIZE, dtype=np.int64)
        self.stats[S_LIMIT] = np.iinfo(np.int64).max  # value() alone runs unlimited
        self.stats[S_FEATURES] = features
        self.stats[S_EXTPLY] = MAX_PLY

    def value(
        self, st: np.ndarray, depth: int, alpha: int, beta: int, ply: int, leaf: int = LEAF_QUIESCE
    ) -> tuple[int, int]:
        """One alpha-beta call: (score, best move code) of ``st`` for its side to move."""
        self.stats[S_LEAF] = leaf
        score, move = negamax(
            st, depth, alpha, beta, ply, self.states, self.moves, self.keys, self.stack,
            self.tt_key, self.tt_move, self.tt_score, self.tt_depth, self.tt_flag,
            self.killers, self.history, self.weights, self.stats,
        )  # fmt: skip
        return int(score), int(move)

    def search(
        self,
        position: Position,
        max_depth: int = 32,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        root_moves: list[Move] | None = None,
        all_scores: bool = False,
        on_iteration: Callable[[int, Move, int, int, float], None] | None = None,
    ) -> SearchResult:
        """Iterative deepening from depth 1 to ``max_depth`` within the limits.

        ``on_iteration(depth, move, score, nodes, seconds)`` is called after each
        completed iteration (for benchmarks: when was the key move first found).

        ``root_moves`` restricts the moves considered at the root (default: all
        legal moves).  ``all_scores`` searches every root move with a full
        window so that ``result.scores`` holds exact values (slower; used by
        the weaker strengths and the analysis).  With ``time_limit`` (seconds)
        the result depends on the machine's speed; with only node and depth
        limits it is deterministic.
        """
        started = time.perf_counter()
        st = state_from_position(position)
        if winner(st) != NO_WINNER:
            raise ValueError("search: the position is already decided")
        legal = _legal_codes(st)
        codes = [encode_move(m) for m in root_moves] if root_moves is not None else legal
        if not codes or any(c not in legal for c in codes):
            raise ValueError("search: root_moves must be non-empty legal moves")
        self.stats[S_NODES] = 0
        self.stats[S_ABORTED] = 0
        self.stats[S_FEATURES] = self.features
        node_cap = max_nodes if max_nodes is not None else np.iinfo(np.int64).max
        deadline = started + time_limit if time_limit is not None else None
        order = list(codes)
        best_code, best_score, done_depth = order[0], -INF, 0
        scores: dict[int, int] = {}
        for depth in range(1, max_depth + 1):
            self.stats[S_EXTPLY] = depth
            it = self._root_iteration(st, order, depth, all_scores, node_cap, started, deadline)
            if not it.complete:
                # a cut iteration counts only if it proved a new move better than the
                # previous best (searched first); otherwise keep the last depth
                first = order[0]
                if it.best is not None and it.best != first and first in it.scores:
                    if all_scores and it.score <= it.scores[first]:
                        break
                    best_code, best_score = it.best, it.score
                break
            best_code, best_score, done_depth = it.best, it.score, depth
            scores = it.scores
            if on_iteration is not None:
                on_iteration(
                    depth, decode_move(best_code), int(best_score), int(self.stats[S_NODES]),
                    time.perf_counter() - started,
                )  # fmt: skip
            # best first, the rest by this iteration's scores (stable: ties keep order)
            order.sort(key=lambda c: -(INF + 1) if c == best_code else -scores.get(c, -INF))
            if abs(best_score) > MATE_BOUND and not all_scores:
                if WIN - abs(best_score) <= depth:
                    break  # a forced result within the full-width horizon is final
            if deadline is not None and time.perf_counter() - started > NEXT_ITERATION * (
                deadline - started
            ):
                break  # the next iteration would most likely not finish
        return SearchResult(
            move=decode_move(best_code),
            score=int(best_score),
            depth=done_depth,
            nodes=int(self.stats[S_NODES]),
            seconds=time.perf_counter() - started,
            scores={decode_move(c): int(v) for c, v in scores.items()} if all_scores else {},
            pv=self.principal_variation(st, best_code),
        )

    def _root_iteration(
        self, st, order, depth, all_scores, node_cap, started, deadline
    ) -> _Iteration:
        """One root iteration, full window; PVS over the root moves."""
        child = np.zeros(STATE_SIZE, dtype=np.int64)
        alpha, beta = -INF, INF
        out = _Iteration(best=None, score=-INF, scores={}, complete=True)
        for i, code in enumerate(order):
            make_move(st, code, child)
            # depth 1 always completes (a searched move and a true score, whatever the
            # node budget or the clock say; it costs a few nodes per root move)
            if depth == 1:
                self.stats[S_LIMIT] = np.iinfo(np.int64).max
            else:
                self._set_limit(node_cap, started, deadline)
            if all_scores:
                v = -self.value(child, depth - 1, -INF, INF, 1)[0]
            elif i == 0:
                v = -self.value(child, depth - 1, -beta, -alpha, 1)[0]
            else:
                v = -self.value(child, depth - 1, -alpha - 1, -alpha, 1)[0]
                if v > alpha and not self.stats[S_ABORTED]:
                    v = -self.value(child, depth - 1, -beta, -alpha, 1)[0]
            if deadline is not None:
                self._measure_rate(started)
            if self.stats[S_ABORTED]:
                out.complete = False
                break
            out.scores[code] = v
            if out.best is None or (v > out.score and (all_scores or v > alpha)):
                out.best, out.score = code, v
            if v > alpha:
                alpha = v
            if (
                deadline is not None
                and depth > 1
                and time.perf_counter() > deadline
                and i < len(order) - 1
            ):
                out.complete = False
                break
        return out

    def _set_limit(self, node_cap: int, started: float, deadline: float | None) -> None:
        """The kernel's node limit for the next call: the cap, and under a time limit
        the nodes the time left allows at the measured rate."""
        limit = node_cap
        if deadline is not None:
            left = max(0.0, deadline - time.perf_counter())
            limit = min(limit, int(self.stats[S_NODES]) + int(left * self.rate) + 1)
        self.stats[S_LIMIT] = limit

    def _measure_rate(self, started: float) -> None:
        elapsed = time.perf_counter() - started
        if elapsed > 0.005 and self.stats[S_NODES] > 10_000:
            self.rate = float(self.stats[S_NODES]) / elapsed

    def principal_variation(self, st: np.ndarray, first: int, max_len: int = 16) -> list[Move]:
        """The best move, then the table's best moves as long as they are legal and
        the game goes on (no repetition, at most ``max_len`` moves)."""
        line = [first]
        cur = np.zeros(STATE_SIZE, dtype=np.int64)
        make_move(st, first, cur)
        seen = {int(st[F_HASH])}
        while len(line) < max_len and winner(cur) == NO_WINNER:
            h = int(cur[F_HASH])
            if h in seen:
                break
            seen.add(h)
            code = self._probe_move(h)
            if code is None or code not in _legal_codes(cur):
                break
            line.append(code)
            nxt = np.zeros(STATE_SIZE, dtype=np.int64)
            make_move(cur, code, nxt)
            cur = nxt
        return [decode_move(c) for c in line]

    def _probe_move(self, h: int) -> int | None:
        mask = self.tt_key.shape[0] - 1
        slot = h & mask
        if int(self.tt_key[slot]) == h and self.tt_move[slot] >= 0:
            return int(self.tt_move[slot])
        return None


NEXT_ITERATION = 0.5
"""Under a time limit, no new iteration starts after this share of the time."""


@dataclass
class _Iteration:
    best: int | None
    score: int
    scores: dict[int, int]
    complete: bool


def _legal_codes(st: np.ndarray) -> list[int]:
    out = np.empty(MAX_MOVES, dtype=np.int32)
    n = gen_moves(st, out)
    return [int(c) for c in out[:n]]


# ---- exact hit search -------------------------------------------------------


class HitSearch:
    """Exact forced-hit questions by full-width fixed-depth alpha-beta with a zero
    evaluation (no quiescence), so a score beyond MATE_BOUND is a proof.

    ``distance(pos, n)``: smallest k <= n such that the side to move hits within
    k own moves, else None.  ``loses_within(pos, n)``: the side to move cannot
    avoid the opponent's hit within n of the opponent's moves.  Both are exact;
    they are checked against the pure-Python oracle in the tests.

    >>> from fechtbuch.engines.battleklinge.position import Position
    >>> hs = HitSearch()
    >>> hs.distance(Position.from_text("2m2/5/5/2M2/5 g ausfall,volte bindung,stoss riposte"), 3)
    3
    """

    def __init__(self, tt_bits: int = 16):
        self.tt_bits = tt_bits

    def _searcher(self) -> Searcher:
        # fresh tables per question: entries of a deeper question carry values of
        # another horizon, harmless for the threshold tests but not worth the doubt
        return Searcher(weights=np.zeros_like(DEFAULT_WEIGHTS), tt_bits=self.tt_bits)

    def _state_value(self, st: np.ndarray, plies: int, threshold: int) -> int:
        searcher = self._searcher()
        searcher.stats[:] = 0
        searcher.stats[S_LIMIT] = np.iinfo(np.int64).max
        return searcher.value(st, plies, threshold - 1, INF, 0, leaf=LEAF_ZERO)[0]

    def distance(self, position: Position, max_n: int) -> int | None:
        st = state_from_position(position)
        if winner(st) != NO_WINNER:
            return None
        plies = 2 * max_n - 1
        value = self._state_value(st, plies, WIN - plies)
        if value >= WIN - plies:
            return (WIN - value + 1) // 2
        return None

    def loses_within(self, position: Position, n: int) -> bool:
        """True if the opponent of the side to move forces a hit within n of its moves."""
        st = state_from_position(position)
        w = winner(st)
        if w != NO_WINNER:
            return w != position.turn
        if n <= 0:
            return False
        plies = 2 * n
        searcher = self._searcher()
        searcher.stats[:] = 0
        searcher.stats[S_LIMIT] = np.iinfo(np.int64).max
        # value <= -(WIN - plies) means the opponent's hit comes at ply <= plies
        value = searcher.value(st, plies, -INF, -(WIN - plies) + 1, 0, leaf=LEAF_ZERO)[0]
        return value <= -(WIN - plies)

    def keys(self, position: Position, distance: int) -> list[Move]:
        """All first moves after which the side to move still hits within ``distance``."""
        from fechtbuch.engines.battleklinge import fast

        keys = []
        for move in fast.legal_moves(position):
            child = fast.play(position, move)
            if child.winner() == position.turn or (
                distance > 1 and self.loses_within(child, distance - 1)
            ):
                keys.append(move)
        return keys
