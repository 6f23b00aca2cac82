""":attr:`PackKind.judge <fechtbuch.puzzles.packkind.PackKind.judge>` for any game whose
pack problem is an AND/OR problem: the generic prover (``solve_andor``) with the turns
left.

The question is about one action at one solver node, and ``solve_andor`` answers for
a root at which the solver is to act, so the node is wrapped as a root that offers
only that action (:class:`_OnlyAction`); everything below is the game's own problem.
The wrapped root has a key of its own, so a state equal to the node met again deeper
in the search keeps all its actions: restricting the solver there could only turn
wins into losses, and a loss must never be claimed wrongly.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.puzzles.packkind import Judgement, Verdict
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_solve import FOUND, NONE, solve_andor
from fechtbuch.solver.andor_verifier import ProofCheck

SOURCE = "the AND/OR prover"


@dataclass(frozen=True)
class _Root:
    state: Any
    action: Any
    child: Any


_ROOT_KEY = ("fechtbuch.puzzles.andorjudge", "root")


class _OnlyAction(AndOrProblem):
    """``inner`` with a root :class:`_Root` at which the solver has one action."""

    def __init__(self, inner: AndOrProblem):
        self.inner = inner

    def attacker_to_act(self, state) -> bool:
        return True if isinstance(state, _Root) else self.inner.attacker_to_act(state)

    def outcome(self, state) -> Outcome | None:
        return None if isinstance(state, _Root) else self.inner.outcome(state)

    def children(self, state) -> Sequence[tuple[Any, Any]]:
        if isinstance(state, _Root):
            return [(state.action, state.child)]
        return self.inner.children(state)

    def iter_children(self, state) -> Iterator[tuple[Any, Any]]:
        if isinstance(state, _Root):
            return iter(self.children(state))
        return self.inner.iter_children(state)

    def counts_turn(self, state, action) -> bool:
        return self.inner.counts_turn(state.state if isinstance(state, _Root) else state, action)

    def needs_turn(self, state) -> bool:
        if isinstance(state, _Root):
            return self.counts_turn(state, state.action)
        return self.inner.needs_turn(state)

    def wins_at_once(self, state) -> bool | None:
        return None if isinstance(state, _Root) else self.inner.wins_at_once(state)

    def key(self, state) -> Hashable:
        return _ROOT_KEY if isinstance(state, _Root) else self.inner.key(state)

    def format_state(self, state) -> str:
        return self.inner.format_state(state.state if isinstance(state, _Root) else state)

    def format_action(self, state, action) -> str:
        return self.inner.format_action(state.state if isinstance(state, _Root) else state, action)


def judge_andor(
    problem: AndOrProblem, state: Any, action: Any, turns: int, max_nodes: int
) -> Judgement:
    """Does ``action`` at the solver's ``state`` keep a sure win within ``turns``?"""
    child = next(c for a, c in problem.children(state) if a == action)
    outcome = problem.outcome(child)
    if outcome is Outcome.WIN:
        return Judgement(Verdict.KEEPS, "the rules")
    if outcome is not None:
        return Judgement(Verdict.LOSES, "the rules")
    spends = problem.counts_turn(state, action)
    if spends and turns == 0:
        return Judgement(Verdict.LOSES, "the rules")
    if turns == 0:  # a free action (a parry) with no turn left: decided by the recursion
        try:
            wins = ProofCheck(problem, max_nodes=max_nodes).wins(child, 0)
        except ProofLimit as limit:
            return Judgement(Verdict.UNKNOWN, SOURCE, note=str(limit))
        return Judgement(Verdict.KEEPS if wins else Verdict.LOSES, SOURCE)
    wrapped = _OnlyAction(problem)
    result = solve_andor(wrapped, _Root(state, action, child), turns, max_nodes, with_tree=False)
    if result.status == FOUND:
        return Judgement(Verdict.KEEPS, SOURCE, tuple(result.main_line[1:]))
    if result.status == NONE:
        return Judgement(Verdict.LOSES, SOURCE)
    return Judgement(Verdict.UNKNOWN, SOURCE, note=result.note)
