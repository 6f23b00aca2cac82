"""The independent check for any AND/OR problem: plain memoised recursion.

It shares nothing with :mod:`fechtbuch.solver.andor_prover` but the
:class:`~fechtbuch.engines.game.AndOrProblem` and the definitions of
:mod:`fechtbuch.solver.andor` (no proof numbers, no thresholds, no child cache):
``wins`` is the definition of "the attacker wins within ``turns``" written as
recursion, with a memo so that transpositions are not searched twice.  Slow by
design and simple enough to trust.  It takes the problem's own exact leaf test
(``AndOrProblem.wins_at_once``) as part of the problem unless ``leaf_tests=False``;
the tests compare both ways so that the leaf tests are checked by recursion too.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.solver.andor import (
    CycleError,
    ProofLimit,
    every_action_counts,
    require_problem,
    require_turns,
)


class ProofCheck:
    """``wins(state, turns)`` by exhaustive recursion; ``max_nodes`` as in the prover."""

    def __init__(
        self, problem: AndOrProblem, max_nodes: int | None = None, leaf_tests: bool = True
    ):
        self.problem = require_problem(problem)
        self.leaf_tests = leaf_tests
        self.max_nodes = max_nodes
        self.nodes = 0
        self._memo: dict[tuple[Hashable, int], bool] = {}
        self._open: set[tuple[Hashable, int]] = set()
        self._all_count = every_action_counts(self.problem)

    def wins(self, state: Any, turns: int) -> bool:
        """Does the attacker force a win from ``state`` within ``turns`` counting actions?"""
        require_turns(turns)
        problem = self.problem
        outcome = problem.outcome(state)
        if outcome is not None:
            return outcome is Outcome.WIN
        if turns == 0 and self._all_count and problem.attacker_to_act(state):
            return False
        if turns >= 1 and self.leaf_tests:
            at_once = problem.wins_at_once(state)
            if at_once:
                return True
            if at_once is False and turns == 1 and self._all_count:
                return False
        key = (problem.key(state), turns)
        if key in self._memo:
            return self._memo[key]
        if key in self._open:
            raise CycleError(f"cycle without a counting action at {problem.format_state(state)!r}")
        self._open.add(key)
        try:
            answer = self._decide(state, turns)
        finally:
            self._open.discard(key)
        self._memo[key] = answer
        return answer

    def _decide(self, state: Any, turns: int) -> bool:
        problem = self.problem
        attacker = problem.attacker_to_act(state)
        for action, child in problem.children(state):
            self.nodes += 1
            if self.max_nodes is not None and self.nodes > self.max_nodes:
                raise ProofLimit(f"the generic verifier gave up after {self.nodes:,} nodes")
            if attacker:
                if problem.counts_turn(state, action):
                    if turns == 0:
                        continue
                    if self.wins(child, turns - 1):
                        return True
                elif self.wins(child, turns):
                    return True
            elif not self.wins(child, turns):
                return False
        return not attacker
