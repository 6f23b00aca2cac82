"""Exact judgements past the stored part of a pruned exercise tree (``play --pack``).

A pruned tree (a version-2 pack, ``"solution": "pruned"``) stops holding every
winning move after the first defences; a move it does not hold there may still
win.  The terminal session (engines layer, which may not import the solver) asks
an :class:`~fechtbuch.engines.battleklinge.terminal.session.ExactJudge`; this is
the one ``fechtbuch play`` passes: the endgame tables when they cover the position
(exact at any distance), else df-pn within the attacker's remaining own moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.terminal.session import Judgement, Verdict
from fechtbuch.solver import dfpn
from fechtbuch.solver.api import SolveResult, SolveStatus, solve

JUDGE_SECONDS = 60.0
"""df-pn's time per judgement: a person waits for it at the prompt."""


@dataclass(frozen=True)
class SolverJudge:
    """The solver as an exact judge (see the module docstring)."""

    tables: Path | bool = True
    """Endgame tables: True for the default folder, a folder, or False for none."""
    time_limit: float | None = JUDGE_SECONDS

    def after_move(self, position: Position, own_moves_left: int) -> Judgement:
        result = self._solve(position, own_moves_left)
        source = _source(result)
        if result.status is not SolveStatus.SOLVED:
            return Judgement(Verdict.UNKNOWN, source)
        if result.loss_in is not None and result.loss_in <= own_moves_left:
            return Judgement(Verdict.FORCED, source, result.longest_defence[0])
        if own_moves_left > dfpn.MAX_BUDGET and not result.from_tables:
            return Judgement(Verdict.UNKNOWN, source)  # df-pn looked only MAX_BUDGET deep
        return Judgement(Verdict.NOT_FORCED, source)

    def key(self, position: Position, own_moves_left: int) -> Move | None:
        result = self._solve(position, own_moves_left)
        if result.distance is None or result.distance > own_moves_left:
            return None
        return result.main_line[0]  # the fastest key, ties by notation text

    def _solve(self, position: Position, own_moves_left: int) -> SolveResult:
        return solve(
            position,
            max_n=min(own_moves_left, dfpn.MAX_BUDGET),
            time_limit=self.time_limit,
            tables=self.tables,
        )


def _source(result: SolveResult) -> str:
    return "the endgame tables" if result.from_tables else "df-pn"
