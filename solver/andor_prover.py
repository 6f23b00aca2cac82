"""df-pn for any AND/OR problem, in pure Python (game-independent).

The same algorithm as the compiled :mod:`fechtbuch.solver.dfpn` (Nagai's df-pn with
Allis's proof and disproof numbers), written plainly with recursion and a dict as
the transposition table, against :class:`~fechtbuch.engines.game.AndOrProblem`
only.  It is what a game without a compiled kernel is solved with, and the
compiled solver is cross-checked against it (tests/unit/test_andor.py).

Nodes are (state, turns left) with the terms of :mod:`fechtbuch.solver.andor`.
The table is keyed by ``(problem.key(state), turns)`` and is exact: keys are the
problem's own, and with the no-cycle assumption of ``andor`` the graph is
acyclic, so the graph-history problem cannot arise (a cycle on the current path
raises :class:`~fechtbuch.solver.andor.CycleError`).  New nodes start at (1, 1)
unless decided, except nodes with no attacker turn left, which are decided at
once by plain recursion over the free (non-counting) actions: an OR node whose
actions all spend a turn (``problem.needs_turn``) is lost, the defender's last
reply is won iff every reply ends in a win.  Likewise an attacker node with one
turn left whose actions all spend it is won iff one action leads to such a won
node, and a node is decided by the problem's ``wins_at_once`` leaf test where it
makes a claim.  Without these rules df-pn with uniform numbers would open every
sibling of a node before finishing one.  No game knowledge, no move ordering
beyond the problem's.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.solver.andor import (
    CycleError,
    ProofLimit,
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
        self._free: dict[Hashable, bool] = {}
        self._path_free: set[Hashable] = set()

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
        if turns == 0:
            # no counting action left: only free actions (a parry) remain, so the
            # subgraph is small and acyclic; decide it at once rather than let
            # df-pn open every sibling with uniform numbers
            return (0, INF) if self._free_win(state) else (INF, 0)
        if turns == 1 and self.problem.attacker_to_act(state) and self.problem.needs_turn(state):
            if at_once is False:
                return INF, 0  # the problem's claim: no action wins at once
            # the attacker's last action: won iff one of them leads to a node won with
            # no turn left, so the replies after the others need not be searched
            for _, child in self.problem.iter_children(state):
                self.nodes += 1
                if self._free_win(child):
                    return 0, INF
            return INF, 0
        return 1, 1

    def _free_win(self, state: Any) -> bool:
        """Does the attacker win from ``state`` with no counting action left?"""
        problem = self.problem
        outcome = problem.outcome(state)
        if outcome is not None:
            return outcome is Outcome.WIN
        attacker = problem.attacker_to_act(state)
        if attacker and problem.needs_turn(state):
            return False
        key = problem.key(state)
        known = self._free.get(key)
        if known is not None:
            return known
        if key in self._path_free:
            raise CycleError(f"cycle without a counting action at {problem.format_state(state)!r}")
        self._path_free.add(key)
        try:
            # lazily: the first reply that escapes (or free action that wins) settles it
            answer = not attacker
            for action, child in problem.iter_children(state):
                self.nodes += 1
                if attacker and problem.counts_turn(state, action):
                    continue
                if self._free_win(child) is attacker:
                    answer = attacker
                    break
        finally:
            self._path_free.discard(key)
        self._free[key] = answer
        return answer

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
