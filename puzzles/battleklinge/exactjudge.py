"""Exact judgements past the stored part of a pruned Battleklinge exercise tree.

A pruned tree (a version-2 pack, ``"solution": "pruned"``) stops holding every
winning move after the first defences; a move it does not hold there may still
win.  :func:`judge_position` is the one mechanism that says whether it does: the
endgame tables when they cover the position (exact at any distance; for a study with
one student a side they are built on first use, seconds), else df-pn within the
attacker's remaining own moves (at most df-pn's bound).  Two front ends use it:

* :func:`judge_move`, Battleklinge's :attr:`PackKind.judge
  <fechtbuch.puzzles.packkind.PackKind.judge>` (``pack play``, ``pack html``);
* :class:`SolverJudge`, the :class:`~fechtbuch.engines.battleklinge.terminal.session.ExactJudge`
  that ``fechtbuch play --pack`` hands to the terminal session (the engines layer may
  not import the solver).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.game import HitProblem
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.tablebase import Outcome as TableOutcome
from fechtbuch.engines.battleklinge.tablebase import find_tables
from fechtbuch.engines.battleklinge.terminal import session
from fechtbuch.puzzles.battleklinge.studycheck import study_tables
from fechtbuch.puzzles.packkind import JUDGE_NODES, Judgement, Verdict
from fechtbuch.solver import dfpn
from fechtbuch.solver.battleklinge.api import SolveStatus, solve

JUDGE_SECONDS = 60.0
"""df-pn's time per judgement in the terminal session: a person waits at the prompt."""
TABLES = "the endgame tables"
DFPN = "df-pn"


def _tables_for(position: Position, tables: Path | bool, build: bool):
    """Tables covering ``position``: ``tables`` False none, True the default folder, or
    a folder; with ``build``, a study's K = 1 tables are built when none are found."""
    if tables is False:
        return None
    if build:
        return study_tables(position)
    return find_tables(position, None if tables is True else Path(tables))


def judge_position(
    position: Position,
    own_moves_left: int,
    max_nodes: int | None,
    time_limit: float | None,
    tables: Path | bool = True,
    build_tables: bool = False,
) -> Judgement:
    """After an attacker's move (the defender to move in ``position``): is the defender
    hit within ``own_moves_left`` own moves of the attacker, whatever it does?"""
    attacker = 1 - position.turn
    winner = position.winner()
    if winner is not None:
        return Judgement(Verdict.KEEPS if winner == attacker else Verdict.LOSES, "the rules")
    if own_moves_left <= 0:
        return Judgement(Verdict.LOSES, "the rules")
    base = _tables_for(position, tables, build_tables)
    if base is not None:
        probe = base.probe(position)
        if probe.result is TableOutcome.LOSS and probe.distance <= own_moves_left:
            line = tuple(m.to_text() for m in base.main_line(position))
            return Judgement(Verdict.KEEPS, TABLES, line)
        return Judgement(Verdict.LOSES, TABLES)
    result = solve(
        position,
        max_n=min(own_moves_left, dfpn.MAX_BUDGET),
        max_nodes=max_nodes,
        time_limit=time_limit,
    )
    if result.status is not SolveStatus.SOLVED:
        return Judgement(Verdict.UNKNOWN, DFPN, note="the node or time limit")
    if result.loss_in is not None and result.loss_in <= own_moves_left:
        return Judgement(Verdict.KEEPS, DFPN, tuple(m.to_text() for m in result.main_line))
    if own_moves_left > dfpn.MAX_BUDGET:
        return Judgement(Verdict.UNKNOWN, DFPN, note=f"df-pn looks {dfpn.MAX_BUDGET} moves deep")
    return Judgement(Verdict.LOSES, DFPN)


def judge_move(
    problem: HitProblem, state: Position, action: Move, turns: int, max_nodes: int
) -> Judgement:
    """Battleklinge's :attr:`PackKind.judge`: the attacker's ``action`` at ``state`` with
    ``turns`` own moves left (every move spends one).  A study's tables are built on
    first use (seconds), so deep studies are judged exactly beyond df-pn's bound."""
    after = reference.play(state, action)
    return judge_position(after, turns - 1, max_nodes, None, build_tables=True)


@dataclass(frozen=True)
class SolverJudge:
    """:func:`judge_position` as the terminal session's exact judge."""

    tables: Path | bool = True
    """Endgame tables: True for the default folder, a folder, or False for none."""
    time_limit: float | None = JUDGE_SECONDS
    max_nodes: int | None = None

    def after_move(self, position: Position, own_moves_left: int) -> session.Judgement:
        judgement = judge_position(
            position, own_moves_left, self.max_nodes, self.time_limit, self.tables
        )
        defence = None
        if judgement.verdict is Verdict.KEEPS and judgement.line:
            defence = Move.from_text(judgement.line[0])
        return session.Judgement(judgement.verdict, judgement.source, defence)

    def key(self, position: Position, own_moves_left: int) -> Move | None:
        """The fastest move that hits within ``own_moves_left`` (the hint off the tree)."""
        base = _tables_for(position, self.tables, build=False)
        if base is not None:
            probe = base.probe(position)
            if probe.result is TableOutcome.WIN and probe.distance <= own_moves_left:
                return base.main_line(position)[0]
            return None
        result = solve(
            position, max_n=min(own_moves_left, dfpn.MAX_BUDGET), time_limit=self.time_limit
        )
        if result.distance is None or result.distance > own_moves_left:
            return None
        return result.main_line[0]  # the fastest key, ties by notation text


__all__ = ["JUDGE_NODES", "SolverJudge", "judge_move", "judge_position"]
