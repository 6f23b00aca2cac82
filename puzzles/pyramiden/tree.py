"""Solution trees of "Touché in N" exercises in the pack format (version 2, pruned).

A tree is nested objects from action text to the next node; a leaf is
``"win:<pattern>"`` (P completes the round's pattern).  Whose node it is follows
from the state (``TouchInN.attacker_to_act``).  The pruned tree of a pack
(``"solution": "pruned"``) holds:

* at the root, every key (P's actions that keep the sure Touché within N);
* after each key, every reply of the adversary's first move (the opponent's card),
  replies with equal subtrees under one key: their action texts joined by a space,
  sorted (:func:`tree_child` finds an action's group);
* below that, one action per node, the branch's main line: P's fastest key, the
  adversary's longest defence (P's draws included), ties by action text.

The tree is a pure function of the position and the decider (``wins(state, turns)``),
so the prover's tree and the independent verifier's must be equal byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fechtbuch.engines.game import Outcome
from fechtbuch.engines.touche_pyramiden.touche_in_n import TouchInN, TouchNode

Decide = Callable[[Any, int], bool]

GROUP_SEPARATOR = " "


def win_leaf(problem: TouchInN) -> str:
    return f"win:{problem.pattern.value}"


class PackTree:
    """Builds pruned trees and main lines with one decider (prover or verifier)."""

    def __init__(self, problem: TouchInN, wins: Decide):
        self.problem = problem
        self.wins = wins
        self._lines: dict[tuple[TouchNode, int], Any] = {}

    def distance(self, state: TouchNode, bound: int) -> int | None:
        """Turns P needs from ``state`` (0 when won), or ``None`` beyond ``bound``."""
        if self.problem.outcome(state) is Outcome.WIN:
            return 0
        return next((n for n in range(1, bound + 1) if self.wins(state, n)), None)

    def keys(self, state: TouchNode, turns: int) -> list[tuple[str, TouchNode]]:
        """P's actions that keep the win within ``turns``, by text."""
        out = []
        for action, child in self.problem.children(state):
            if self.problem.outcome(child) is Outcome.WIN or (
                turns > 1 and self.wins(child, turns - 1)
            ):
                out.append((self.problem.format_action(state, action), child))
        return sorted(out, key=lambda item: item[0])

    def tree(self, root: TouchNode, turns: int) -> dict:
        """The pruned solution tree of a root won within ``turns``."""
        out: dict[str, Any] = {}
        for text, child in self.keys(root, turns):
            out[text] = self._first_reply(child, turns - 1)
        return out

    def _first_reply(self, state: TouchNode, turns: int) -> Any:
        problem = self.problem
        if problem.outcome(state) is Outcome.WIN:
            return win_leaf(problem)
        groups: dict[str, tuple[list[str], Any]] = {}
        for action, child in problem.children(state):
            sub = self.line(child, turns)
            code = json.dumps(sub, sort_keys=True)
            groups.setdefault(code, ([], sub))[0].append(problem.format_action(state, action))
        return {
            GROUP_SEPARATOR.join(sorted(texts)): sub
            for texts, sub in sorted(groups.values(), key=lambda g: sorted(g[0])[0])
        }

    def line(self, state: TouchNode, turns: int) -> Any:
        """One action per node down to the win: the fastest key, the longest defence."""
        memo = (state, turns)
        if memo in self._lines:
            return self._lines[memo]
        problem = self.problem
        if problem.outcome(state) is Outcome.WIN:
            result: Any = win_leaf(problem)
        elif problem.attacker_to_act(state):
            best = None
            for text, child in self.keys(state, turns):
                score = (self.distance(child, turns - 1), text)
                if best is None or score < best[0]:
                    best = (score, text, child)
            if best is None:
                raise AssertionError("the main line left the proof")
            _, text, child = best
            result = {text: self.line(child, turns - 1)}
        else:
            best = None
            for action, child in problem.children(state):
                text = problem.format_action(state, action)
                dist = self.distance(child, turns)
                if dist is None:
                    raise AssertionError("a defence refutes the proof")
                score = (-dist, text)
                if best is None or score < best[0]:
                    best = (score, text, child)
            _, text, child = best
            result = {text: self.line(child, turns)}
        self._lines[memo] = result
        return result

    def main_line(self, root: TouchNode, turns: int) -> list[str]:
        """The actions of the root's main line (the tree's one-action-per-node path)."""
        out = []
        node: Any = self.line(root, turns)
        while isinstance(node, dict):
            (text, node), *_ = node.items()
            out.append(text)
        return out


def tree_child(node: dict, action: str) -> Any:
    """The subtree after ``action`` (an exact key, or the group that lists it)."""
    if action in node:
        return node[action]
    for key, sub in node.items():
        if GROUP_SEPARATOR in key and action in key.split(GROUP_SEPARATOR):
            return sub
    return None
