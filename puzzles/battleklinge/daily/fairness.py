"""Fairness of a daily duel's start: no forced hit within K own moves for either side
(the solver, exact) and a balanced engine evaluation (the pinned engine search).

Both checks are deterministic: node limits and pinned weights, never a clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from fechtbuch.engines.battleklinge.cards import COLOR_CHARS
from fechtbuch.engines.battleklinge.position import Position

FAIR_K = 4
"""Fair: neither side can force a hit within this many own moves (docs/daily.md)."""

FAIR_MAX_NODES = 5_000_000
"""Node limit of the fairness proof; a candidate that reaches it counts as unfair."""

FAIR_TABLE_MB = 16
"""Transposition table of the fairness proof (fixed: node counts depend on it)."""

BALANCE_DEPTHS = (5, 6)
"""Plies of the engine's alpha-beta searches (plus quiescence) whose scores are averaged."""

BALANCE_MARGIN = 25
"""Balanced: the averaged score of the start is within +-0.25 students (centi-students)."""

BALANCE_WEIGHTS = (100, 4, 12, 40, 25, 6, 30)
"""The evaluation weights of the balance check, pinned here so that tuning the
engine's ``DEFAULT_WEIGHTS`` does not change published duels."""

BALANCE_TT_BITS = 18
"""Transposition table size (2**18 entries) of the balance search, pinned likewise."""


@dataclass(frozen=True)
class Verdict:
    """The fairness checks on one candidate start position.

    ``fair`` only if the solver proved, within the node limit, that neither
    side forces a hit within ``k`` own moves (and the balance check held).
    """

    fair: bool
    reason: str
    status: str
    distance: int | None
    loss_in: int | None
    nodes: int
    seconds: float
    verified: bool | None = None
    balance: float | None = None


FairnessCheck = Callable[[Position], Verdict]


def solver_verdict(
    position: Position,
    k: int = FAIR_K,
    max_nodes: int = FAIR_MAX_NODES,
    verify: bool = False,
) -> Verdict:
    """Neither side forces a hit within ``k`` own moves (df-pn, node limit, no time limit).

    ``verify`` re-derives the answer with the independent minimax verifier;
    ``verified`` is then False if it disagrees.

    >>> from fechtbuch.engines.battleklinge.position import START_EINSTEIGER
    >>> solver_verdict(Position.from_text(START_EINSTEIGER)).reason
    'no forced hit within 4 own moves for either side'
    """
    from fechtbuch.solver.battleklinge.api import solve

    result = solve(
        position,
        max_n=k,
        max_nodes=max_nodes,
        time_limit=None,
        table_mb=FAIR_TABLE_MB,
        verify=verify,
    )
    mover = COLOR_CHARS[position.turn]
    other = COLOR_CHARS[1 - position.turn]
    if result.status != "solved":
        reason = f"unknown: node limit {max_nodes:,} reached"
    elif result.distance is not None:
        reason = f"{mover} (to move) hits in {result.distance}"
    elif result.loss_in is not None:
        reason = f"{other} hits in {result.loss_in} whatever {mover} plays"
    else:
        reason = f"no forced hit within {k} own moves for either side"
    return Verdict(
        fair=result.status == "solved" and result.distance is None and result.loss_in is None,
        reason=reason,
        status=result.status.value,
        distance=result.distance,
        loss_in=result.loss_in,
        nodes=result.nodes,
        seconds=result.seconds,
        verified=result.verified if verify and result.status == "solved" else None,
    )


def balance_score(position: Position, depths: tuple[int, ...] = BALANCE_DEPTHS) -> float:
    """The engine's score of ``position`` for the side to move, in centi-students:
    the mean of fixed-depth alpha-beta searches at ``depths`` plies (a fresh
    search each, no node or time limit, so deterministic), with the pinned
    weights and table size.  Averaging an odd and an even depth cancels the
    swing of the score between odd and even horizons.

    >>> from fechtbuch.engines.battleklinge.position import START_EINSTEIGER
    >>> balance_score(Position.from_text(START_EINSTEIGER))
    26.0
    """
    import numpy as np

    # the frozen 2026 engine: published duels and packs never change with the engine
    from fechtbuch.engines.battleklinge.baseline.search import Searcher

    weights = np.array(BALANCE_WEIGHTS, dtype=np.int64)
    scores = [
        Searcher(weights=weights, tt_bits=BALANCE_TT_BITS).search(position, max_depth=d).score
        for d in depths
    ]
    return sum(scores) / len(scores)


def fairness(position: Position, verify: bool = False) -> Verdict:
    """All fairness checks of the daily duel, in order; the first failure rejects.

    1. :func:`solver_verdict`: no forced hit within :data:`FAIR_K` own moves;
    2. :func:`balance_score`: within :data:`BALANCE_MARGIN` of 0 (a forced hit
       found by the search scores about 1000 students, far outside).
    """
    verdict = solver_verdict(position, verify=verify)
    if not verdict.fair:
        return verdict
    score = balance_score(position)
    if abs(score) > BALANCE_MARGIN:
        return replace(
            verdict,
            fair=False,
            reason=f"unbalanced: engine score {score / 100:+.3f} students for the side to move "
            f"(margin {BALANCE_MARGIN / 100:.2f})",
            balance=score,
        )
    return replace(verdict, reason=f"{verdict.reason}, balance {score / 100:+.3f}", balance=score)
