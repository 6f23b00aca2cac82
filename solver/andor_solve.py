"""Solve one root of any :class:`~fechtbuch.engines.game.AndOrProblem`: distance, keys,
main line, solution tree, optional independent verification.

The generic counterpart of ``solver/api.py`` (Battleklinge's compiled solver), used
by the Touché sure-win command.  Terms as in docs/solver.md:

* distance: the smallest ``n <= max_n`` with a forced win within ``n`` attacker turns;
* keys: the root actions that keep the win within the distance;
* main line: the fastest key (its win comes soonest; ties by notation), the
  defender's longest defence (ties by notation), the fastest finish, ... to the end;
* solution tree: an attacker node maps every action that keeps the win within the
  remaining budget to the next node (``"win"`` or ``"win:<tag>"`` where the round
  ends); a defender node maps every reply (including the adversary's hidden
  choices) to the next node.

A node limit yields status ``unknown`` and no claim.  With ``verify`` the
independent :class:`~fechtbuch.solver.andor_verifier.ProofCheck` re-derives the
distance and the keys.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.solver.andor import ProofLimit, keys
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck

FOUND = "found"
NONE = "none"
UNKNOWN = "unknown"
DEFAULT_TREE_NODES = 200_000


@dataclass
class AndOrSolution:
    """The answer for one root; ``status`` is ``found``, ``none`` or ``unknown``."""

    root: str
    max_n: int
    status: str
    distance: int | None = None
    keys: list[str] = field(default_factory=list)
    main_line: list[str] = field(default_factory=list)
    tree: dict | None = None
    tree_nodes: int = 0
    nodes: int = 0
    seconds: float = 0.0
    verified: bool | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "max": self.max_n,
            "status": self.status,
            "distance": self.distance,
            "keys": self.keys,
            "main_line": self.main_line,
            "tree_nodes": self.tree_nodes,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "verified": self.verified,
            "note": self.note,
        }


def outcome_text(problem: AndOrProblem, state: Any) -> str:
    """``win`` or ``win:<tag>`` (the problem's ``outcome_tag`` if it has one)."""
    tag = getattr(problem, "outcome_tag", None)
    return f"win:{tag(state)}" if tag else "win"


class _Prover:
    """Distances of nodes from one persistent df-pn table."""

    def __init__(self, problem: AndOrProblem, max_nodes: int | None):
        self.problem = problem
        self.search = ProofSearch(problem, max_nodes=max_nodes)

    def wins(self, state: Any, turns: int) -> bool:
        if turns < 0:
            return False
        return self.search.wins(state, turns)

    def distance(self, state: Any, budget: int) -> int | None:
        """Smallest ``m <= budget`` with a win (0 allowed: a parry chain to a win)."""
        outcome = self.problem.outcome(state)
        if outcome is not None:
            return 0 if outcome is Outcome.WIN else None
        if not self.wins(state, budget):
            return None
        return next(m for m in range(0, budget + 1) if self.wins(state, m))


def solve_andor(
    problem: AndOrProblem,
    root: Any,
    max_n: int,
    max_nodes: int | None = None,
    verify: bool = False,
    with_tree: bool = True,
    tree_nodes: int = DEFAULT_TREE_NODES,
) -> AndOrSolution:
    """Distance, keys, main line and tree of ``root`` within ``max_n`` attacker turns."""
    start = time.perf_counter()
    prover = _Prover(problem, max_nodes)
    result = AndOrSolution(problem.format_state(root), max_n, UNKNOWN)
    try:
        distance = next((n for n in range(1, max_n + 1) if prover.wins(root, n)), None)
        if distance is None:
            result.status = NONE
        else:
            result.status = FOUND
            result.distance = distance
            key_actions = keys(problem, prover.wins, root, distance)
            result.keys = [problem.format_action(root, a) for a in key_actions]
            result.main_line = main_line(problem, prover, root, distance)
            if with_tree:
                counter = [0]
                result.tree = _tree(problem, prover, root, distance, counter, tree_nodes)
                result.tree_nodes = counter[0]
    except ProofLimit as limit:
        result.status = UNKNOWN
        result.distance, result.keys, result.main_line, result.tree = None, [], [], None
        result.note = str(limit)
    result.nodes = prover.search.nodes
    if verify and result.status != UNKNOWN:
        try:
            result.verified = verify_claim(problem, root, max_n, result, max_nodes)
        except ProofLimit as limit:
            result.verified = False
            result.note = f"verification gave up: {limit}"
    result.seconds = time.perf_counter() - start
    return result


def verify_claim(
    problem: AndOrProblem, root: Any, max_n: int, result: AndOrSolution, max_nodes: int | None
) -> bool:
    """Re-derive distance and keys with the independent memoised recursion."""
    check = ProofCheck(problem, max_nodes=max_nodes)
    if result.status == NONE:
        return not check.wins(root, max_n)
    d = result.distance
    assert d is not None
    if not check.wins(root, d) or (d > 1 and check.wins(root, d - 1)):
        return False
    found = [problem.format_action(root, a) for a in keys(problem, check.wins, root, d)]
    return found == result.keys


def _child_budget(problem: AndOrProblem, state: Any, action: Any, turns: int) -> int:
    if problem.attacker_to_act(state) and problem.counts_turn(state, action):
        return turns - 1
    return turns


def main_line(problem: AndOrProblem, prover: _Prover, root: Any, turns: int) -> list[str]:
    """Fastest key, longest defence, fastest finish, ... (ties by notation text)."""
    line: list[str] = []
    state = root
    while problem.outcome(state) is None:
        attacker = problem.attacker_to_act(state)
        best = None
        for action, child in problem.children(state):
            budget = _child_budget(problem, state, action, turns)
            d = prover.distance(child, budget) if budget >= 0 else None
            if attacker and d is None:
                continue
            if not attacker and d is None:
                raise AssertionError("a defender reply escapes a proved win")
            # spent turns: the counting action itself plus the child's distance
            spent = d + (turns - budget)
            text = problem.format_action(state, action)
            rank = (spent, text) if attacker else (-spent, text)
            if best is None or rank < best[0]:
                best = (rank, text, child, budget)
        assert best is not None
        _, text, state, turns = best
        line.append(text)
        # re-tighten the budget to the child's own distance
        d = prover.distance(state, turns)
        assert d is not None
        turns = d
    return line


def _tree(
    problem: AndOrProblem, prover: _Prover, state: Any, turns: int, counter: list[int], limit: int
) -> dict | str:
    outcome = problem.outcome(state)
    if outcome is not None:
        return outcome_text(problem, state)
    counter[0] += 1
    if counter[0] > limit:
        raise ProofLimit(f"the solution tree has more than {limit:,} nodes")
    attacker = problem.attacker_to_act(state)
    node: dict[str, Any] = {}
    for action, child in problem.children(state):
        budget = _child_budget(problem, state, action, turns)
        if attacker and (budget < 0 or not prover.wins(child, budget)):
            continue
        node[problem.format_action(state, action)] = _tree(
            problem, prover, child, budget, counter, limit
        )
    return dict(sorted(node.items()))
