"""df-pn for any AND/OR problem, in pure Python (game-independent).

The same algorithm as the compiled :mod:`fechtbuch.solver.dfpn` (Nagai's df-pn with
Allis's proof and disproof numbers), written plainly with recursion and a dict as
the transposition table, against :class:`~fechtbuch.engines.game.AndOrProblem`
only.  It is what a game without a compiled kernel is solved with, and the
compiled solver is cross-checked against it (tests/test_andor.py).

Nodes are (state, turns left) with the terms of :mod:`fechtbuch.solver.andor`.
The table is keyed by ``(problem.key(state), turns)`` and is exact: keys are the
problem's own, and with the no-cycle assumption of ``andor`` the graph is
acyclic, so the graph-history problem cannot arise (a cycle on the current path
raises :class:`~fechtbuch.solver.andor.CycleError`).  New nodes start at (1, 1)
unless decided, except the defender's last reply (no attacker turn left, and every
attacker action spends one), which is closed at once: won iff every reply ends in
a win; likewise an attacker node with one turn left is won iff one of its actions
wins at once, and a node is decided by the problem's ``wins_at_once`` leaf test
where it makes a claim.  Without these rules df-pn with uniform numbers would open every
sibling of a node before finishing one.  No game knowledge, no move ordering beyond the
problem's.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.solver.andor import (
    CycleError,
    ProofLimit,
    every_action_counts,
    path_key,
    require_problem,
    require_turns,
)

INF = 1 << 40

_Child = tuple[Any, int, tuple[Hashable, int]]
"""(state, turns left, table key) of a child node."""


class ProofSearch:
    """df-pn over one problem; the table persists across :meth:`wins` calls.

    ``max_nodes`` limits the node count over the object's life (``None``: no
    limit); reaching it raises :class:`~fechtbuch.solver.andor.ProofLimit`.
    """

    def __init__(self, problem: AndOrProblem, max_nodes: int | None = None):
        self.problem = require_problem(problem)
        self.max_nodes = max_nodes
        self.nodes = 0
        self._table: dict[tuple[Hashable, int], tuple[int, int]] = {}
        self._children: dict[tuple[Hashable, int], list[_Child]] = {}
        self._path: set[tuple[Hashable, int]] = set()
        self._all_count = every_action_counts(self.problem)

    def wins(self, state: Any, turns: int) -> bool:
        """Does the attacker force a win from ``state`` within ``turns`` counting actions?"""
        require_turns(turns)
        key = path_key(self.problem, state, turns)
        self._mid(state, turns, key, INF - 1, INF - 1)
        pn, dn = self._table[key]
        assert pn == 0 or dn == 0, "df-pn ended with an open root"
        return pn == 0

    # ---- internals ----------------------------------------------------------
    def _initial(self, state: Any, turns: int) -> tuple[int, int]:
        outcome = self.problem.outcome(state)
        if outcome is Outcome.WIN:
            return 0, INF
        if outcome is Outcome.LOSS:
            return INF, 0
        at_once = self.problem.wins_at_once(state) if turns >= 1 else None
        if at_once:
            return 0, INF  # the problem's own leaf test: the next action wins
        if turns == 0 and self._all_count:
            if self.problem.attacker_to_act(state):
                return INF, 0  # no action left to the attacker
            # the defender's last reply: won only if every reply ends the game in a win
            replies = self.problem.children(state)
            self.nodes += len(replies)
            if all(self.problem.outcome(child) is Outcome.WIN for _, child in replies):
                return 0, INF
            return INF, 0
        if turns == 1 and self._all_count and self.problem.attacker_to_act(state):
            if at_once is False:
                return INF, 0
            # the attacker's last action: won iff one of them wins at once, so the
            # defender's replies after the others need not be listed
            actions = self.problem.children(state)
            self.nodes += len(actions)
            if any(self.problem.outcome(child) is Outcome.WIN for _, child in actions):
                return 0, INF
            return INF, 0
        return 1, 1

    def _expand(self, key: tuple[Hashable, int], state: Any, turns: int) -> list[_Child]:
        """The children of a live node (OR nodes at 0 turns lose their counting
        actions); a child seen for the first time enters the table with its
        initial numbers."""
        cached = self._children.get(key)
        if cached is not None:
            return cached
        problem = self.problem
        is_or = problem.attacker_to_act(state)
        result = []
        for action, child in problem.children(state):
            child_turns = turns
            if is_or and problem.counts_turn(state, action):
                if turns == 0:
                    continue
                child_turns = turns - 1
            child_key = path_key(problem, child, child_turns)
            if child_key not in self._table:
                self._table[child_key] = self._initial(child, child_turns)
            result.append((child, child_turns, child_key))
        self.nodes += len(result)
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise ProofLimit(f"the generic prover gave up after {self.nodes:,} nodes")
        self._children[key] = result
        return result

    def _mid(self, state: Any, turns: int, key: tuple[Hashable, int], th_pn: int, th_dn: int):
        pn, dn = self._table.setdefault(key, self._initial(state, turns))
        if pn == 0 or dn == 0 or self.problem.outcome(state) is not None:
            self._table[key] = (pn, dn)
            return
        if key in self._path:
            raise CycleError(
                f"cycle without a counting action at {self.problem.format_state(state)!r}"
            )
        self._path.add(key)
        try:
            is_or = self.problem.attacker_to_act(state)
            children = self._expand(key, state, turns)
            table = self._table
            while True:
                values = [table[child_key] for _, _, child_key in children]
                pn, dn, best, second = _combine(values, is_or)
                self._table[key] = (pn, dn)
                if pn >= th_pn or dn >= th_dn:
                    return
                child, child_turns, child_key = children[best]
                c_pn, c_dn = values[best]
                if is_or:
                    c_th_pn = min(th_pn, second + 1)
                    c_th_dn = min(INF, th_dn - dn + c_dn)
                else:
                    c_th_dn = min(th_dn, second + 1)
                    c_th_pn = min(INF, th_pn - pn + c_pn)
                self._mid(child, child_turns, child_key, c_th_pn, c_th_dn)
        finally:
            self._path.discard(key)


def _combine(values: list[tuple[int, int]], is_or: bool) -> tuple[int, int, int, int]:
    """(pn, dn, index of the most proving child, the runner-up's number)."""
    # OR: pn is the least child pn, dn the sum of the child dn (AND: the other way)
    if is_or:
        ordered = [v[0] for v in values]
        dn = min(INF, sum(v[1] for v in values))
    else:
        ordered = [v[1] for v in values]
        pn = min(INF, sum(v[0] for v in values))
    best, first, second = 0, INF, INF
    for i, v in enumerate(ordered):
        if v < first:
            best, first, second = i, v, first
        elif v < second:
            second = v
    if is_or:
        pn = first
    else:
        dn = first
    return pn, dn, best, second
