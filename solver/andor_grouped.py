"""Answers for any :class:`~fechtbuch.engines.game.AndOrProblem`: distance, keys, main
line and solution tree, found by the generic df-pn and optionally re-derived by the
independent verifier (the terms of :mod:`fechtbuch.solver.andor`).

The solution tree (JSON, from the attacker's side): an attacker node maps each key
(an action that keeps the win within the remaining turns) to ``"win"`` when it wins
at once, or to the node after it.  A defender node is
``{"replies": [{"actions": [...], "then": node}, ...]}``: every reply of the
defender (or adversary) listed once, replies whose subtrees are equal grouped
together (a hidden-card adversary has hundreds of replies that all lead to the same
answer), groups in the order of their first action's text.  Node and time limits
give status ``unknown`` and no claims.
"""

from __future__ import annotations

import json
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.solver.andor import ProofLimit, distance, keys
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck

DEFAULT_MAX_NODES = 5_000_000


class _Timed(AndOrProblem):
    """``problem`` with a deadline: listing children past it raises ``ProofLimit``."""

    def __init__(self, problem: AndOrProblem, deadline: float | None):
        self.inner = problem
        self.deadline = deadline

    def attacker_to_act(self, state):
        return self.inner.attacker_to_act(state)

    def outcome(self, state):
        return self.inner.outcome(state)

    def children(self, state) -> Sequence:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ProofLimit("the time limit was reached")
        return self.inner.children(state)

    def counts_turn(self, state, action) -> bool:
        return self.inner.counts_turn(state, action)

    def wins_at_once(self, state) -> bool | None:
        return self.inner.wins_at_once(state)

    def key(self, state) -> Hashable:
        return self.inner.key(state)

    def format_state(self, state) -> str:
        return self.inner.format_state(state)

    def format_action(self, state, action) -> str:
        return self.inner.format_action(state, action)


@dataclass
class AndOrAnswer:
    """The answer for one root; ``status`` is ``"solved"`` or ``"unknown"``."""

    status: str
    max_n: int
    distance: int | None = None
    keys: list[str] = field(default_factory=list)
    main_line: list[str] = field(default_factory=list)
    tree: dict | None = None
    nodes: int = 0
    seconds: float = 0.0
    verified: bool | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "max": self.max_n,
            "distance": self.distance,
            "keys": self.keys,
            "main_line": self.main_line,
            "tree": self.tree,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "verified": self.verified,
            "note": self.note,
        }


class Solution:
    """Distance, keys, main line and tree of one problem, with one df-pn table."""

    def __init__(self, problem: AndOrProblem, max_nodes: int | None, deadline: float | None):
        self.problem = _Timed(problem, deadline)
        self.search = ProofSearch(self.problem, max_nodes=max_nodes)
        self.wins = self.search.wins

    def distance(self, state, bound: int) -> int | None:
        return distance(self.wins, state, bound)

    def keys(self, state, turns: int) -> list:
        return keys(self.problem, self.wins, state, turns)

    def _text(self, state, action) -> str:
        return self.problem.format_action(state, action)

    def _left(self, state, action, turns: int) -> int:
        return turns - 1 if self.problem.counts_turn(state, action) else turns

    def tree(self, state, turns: int) -> dict:
        """The solution tree of an attacker node won within ``turns``."""
        problem = self.problem
        out: dict[str, Any] = {}
        children = dict((self._text(state, a), (a, c)) for a, c in problem.children(state))
        for action in self.keys(state, turns):
            text = self._text(state, action)
            child = children[text][1]
            out[text] = self._subtree(child, self._left(state, action, turns))
        return dict(sorted(out.items()))

    def _subtree(self, state, turns: int):
        problem = self.problem
        if problem.outcome(state) is Outcome.WIN:
            return "win"
        if problem.attacker_to_act(state):
            return self.tree(state, turns)
        groups: dict[str, tuple[list[str], Any]] = {}
        for action, child in problem.children(state):
            sub = self._subtree(child, turns)
            code = json.dumps(sub, sort_keys=True)
            groups.setdefault(code, ([], sub))[0].append(self._text(state, action))
        replies = [{"actions": sorted(actions), "then": sub} for actions, sub in groups.values()]
        replies.sort(key=lambda g: g["actions"][0])
        return {"replies": replies}

    def _node_distance(self, state, bound: int) -> int:
        """Turns the attacker needs from ``state`` (0 when already won)."""
        if self.problem.outcome(state) is Outcome.WIN:
            return 0
        for n in range(bound + 1):
            if self.wins(state, n):
                return n
        raise AssertionError("main line left the proof")

    def main_line(self, state, turns: int) -> list[str]:
        """Fastest key, longest defence, fastest finish ... (ties by action text)."""
        problem = self.problem
        line: list[str] = []
        while problem.outcome(state) is None:
            best = None
            for action, child in problem.children(state):
                text = self._text(state, action)
                if problem.attacker_to_act(state):
                    left = self._left(state, action, turns)
                    if left < 0 or not self.wins(child, left):
                        continue
                    score = (self._node_distance(child, left), text)
                else:
                    score = (-self._node_distance(child, turns), text)
                if best is None or score < best[0]:
                    best = (score, text, action, child)
            if best is None:
                break
            _, text, action, child = best
            line.append(text)
            if problem.attacker_to_act(state):
                turns = self._left(state, action, turns)
            state = child
        return line


def solve_problem(
    problem: AndOrProblem,
    root: Any,
    max_n: int,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    time_limit: float | None = None,
    verify: bool = False,
    verify_max_nodes: int | None = None,
    with_tree: bool = True,
) -> AndOrAnswer:
    """Everything about ``root`` within ``max_n`` attacker turns."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    solution = Solution(problem, max_nodes, deadline)
    answer = AndOrAnswer(status="unknown", max_n=max_n)
    try:
        dist = solution.distance(root, max_n)
        answer.distance = dist
        if dist is not None:
            answer.keys = sorted(solution._text(root, a) for a in solution.keys(root, dist))
            answer.main_line = solution.main_line(root, dist)
            if with_tree:
                answer.tree = solution.tree(root, dist)
        answer.status = "solved"
    except ProofLimit as limit:
        answer.note = str(limit)
        answer.distance = None
        answer.keys, answer.main_line, answer.tree = [], [], None
    answer.nodes = solution.search.nodes
    if verify and answer.status == "solved":
        check = ProofCheck(_Timed(problem, deadline), max_nodes=verify_max_nodes)
        try:
            again = distance(check.wins, root, max_n)
            same = again == answer.distance
            if same and again is not None:
                found = sorted(
                    solution._text(root, a) for a in keys(check.problem, check.wins, root, again)
                )
                same = found == answer.keys
            answer.verified = same
        except ProofLimit as limit:
            answer.verified = None
            answer.note = f"not verified: {limit}"
    answer.seconds = time.monotonic() - started
    return answer
