"""The solver as the players' and the analysis' source of exact forced-hit answers.

engines/ may not import solver/, so ``engines.battleklinge.players`` asks a
:class:`~fechtbuch.engines.battleklinge.players.HitOracle`; this is the fast one,
which the game's player factory (``solver/battleklinge/players.py``) gives every player.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.search import HitSearch
from fechtbuch.solver.battleklinge.api import solve


class SolverHits:
    """The forced-hit questions of the players (a ``HitOracle``), answered by the solver.

    ``distance`` and ``keys`` come from ``solver.solve`` (df-pn, exact when its
    status is ``"solved"``).  Should the solver ever report ``"unknown"`` (its
    node limit was hit), the exact full-width :class:`HitSearch` answers
    instead, so the guarantees never rest on a budget.  Keys are returned in
    the move generator's order, so the choice does not depend on the order
    in which the solver found them.
    """

    def __init__(self, max_nodes: int = 2_000_000, fallback: HitSearch | None = None):
        self.max_nodes = max_nodes
        self.fallback = fallback or HitSearch()

    def _solve(self, pos: Position, max_n: int):
        return solve(pos, max_n=max_n, max_nodes=self.max_nodes)

    def distance(self, pos: Position, max_n: int) -> int | None:
        if pos.winner() is not None:
            return None
        result = self._solve(pos, max_n)
        if result.status != "solved":
            return self.fallback.distance(pos, max_n)
        return result.distance

    def keys(self, pos: Position, distance: int) -> list[Move]:
        result = self._solve(pos, distance)
        if result.status != "solved" or result.distance != distance:
            return self.fallback.keys(pos, distance)
        keys = set(result.keys)
        return [m for m in fast.legal_moves(pos) if m in keys]
