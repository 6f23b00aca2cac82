"""Frozen 2026 copy of search.py (the driver; HitSearch stays live).

Alpha-beta search: negamax with iterative deepening, a transposition table,
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
from dataclasses import dataclass, field

import numpy as np
from fechtbuch.engines.battleklinge.baseline.evaluate import DEFAULT_WEIGHTS
from fechtbuch.engines.battleklinge.baseline.negamax import (
    INF,
    LEAF_QUIESCE,
    MATE_BOUND,
    MAX_PLY,
    S_ABORTED,
    S_LEAF,
    S_LIMIT,
    S_NODES,
    WIN,
    negamax,
)
from fechtbuch.engines.battleklinge.fast import (
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

    def __init__(self, weights: np.ndarray = DEFAULT_WEIGHTS, tt_bits: int = 18):
        self.weights = np.asarray(weights, dtype=np.int64)
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
        self.stack = np.zeros((8, rows), dtype=np.int64)
        self.killers = np.full((MAX_PLY + 8, 2), -1, dtype=np.int32)
        self.history = np.zeros((2, 16, 25, 25), dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)
        self.stats[S_LIMIT] = np.iinfo(np.int64).max  # value() alone runs unlimited

    def value(
        self, st: np.ndarray, depth: int, alpha: int, beta: int, ply: int, leaf: int = LEAF_QUIESCE
    ) -> tuple[int, int]:
        """One alpha-beta call: (score, best move code) of ``st`` for its side to move."""
        self.stats[S_LEAF] = leaf
        s = self.stack
        score, move = negamax(
            st, depth, alpha, beta, ply,
            self.states, self.moves, self.keys, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7],
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
    ) -> SearchResult:
        """Iterative deepening from depth 1 to ``max_depth`` within the limits.

        ``root_moves`` restricts the moves considered at the root (default: all
        legal moves).  ``all_scores`` searches every root move with a full
        window so that ``result.scores`` holds exact values (slower; used by
        the weaker strengths and the analysis).  With ``time_limit`` the result
        depends on the machine's speed; with only node and depth limits it is
        deterministic.
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
        self.stats[S_LIMIT] = max_nodes if max_nodes is not None else np.iinfo(np.int64).max
        child = np.zeros(STATE_SIZE, dtype=np.int64)
        order = list(codes)
        best_code, best_score, done_depth = order[0], -INF, 0
        scores: dict[int, int] = {}
        for depth in range(1, max_depth + 1):
            alpha = -INF
            iteration_best, iteration_score = None, -INF
            iteration_scores: dict[int, int] = {}
            complete = True
            for i, code in enumerate(order):
                make_move(st, code, child)
                if all_scores or i == 0:
                    v = -self.value(child, depth - 1, -INF, INF, 1)[0]
                else:
                    v = -self.value(child, depth - 1, -alpha - 1, -alpha, 1)[0]
                    if v > alpha and not self.stats[S_ABORTED]:
                        v = -self.value(child, depth - 1, -INF, -alpha, 1)[0]
                if self.stats[S_ABORTED] or (
                    time_limit is not None and time.perf_counter() - started > time_limit and i
                ):
                    complete = not self.stats[S_ABORTED] and i == len(order) - 1
                    if not self.stats[S_ABORTED]:
                        iteration_scores[code] = v
                        if v > iteration_score:
                            iteration_best, iteration_score = code, v
                    break
                iteration_scores[code] = v
                if v > iteration_score:
                    iteration_best, iteration_score = code, v
                if v > alpha:
                    alpha = v
            if not complete:
                # a partial iteration counts only if it proved a new move better than
                # the previous best (searched first); otherwise keep the last depth
                if (
                    iteration_best is not None
                    and iteration_best != order[0]
                    and order[0] in iteration_scores
                    and iteration_score > iteration_scores[order[0]]
                ):
                    best_code, best_score = iteration_best, iteration_score
                break
            best_code, best_score, done_depth = iteration_best, iteration_score, depth
            scores = iteration_scores
            # best first, the rest by this iteration's scores (stable: ties keep order)
            order.sort(key=lambda c: -(INF + 1) if c == best_code else -iteration_scores[c])
            if abs(best_score) > MATE_BOUND and not all_scores:
                if WIN - abs(best_score) <= depth:
                    break  # a forced result within the full-width horizon is final
            if time_limit is not None and time.perf_counter() - started > time_limit / 3:
                break
        return SearchResult(
            move=decode_move(best_code),
            score=int(best_score),
            depth=done_depth,
            nodes=int(self.stats[S_NODES]),
            seconds=time.perf_counter() - started,
            scores={decode_move(c): int(v) for c, v in scores.items()} if all_scores else {},
        )


def _legal_codes(st: np.ndarray) -> list[int]:
    out = np.empty(MAX_MOVES, dtype=np.int32)
    n = gen_moves(st, out)
    return [int(c) for c in out[:n]]
