"""Solution trees of "Touché in N" exercises in the pack format (version 2, pruned).

A tree is nested objects from action text to the next node; a leaf is
``"win:<pattern>"`` (P completes the round's pattern).  Whose node it is follows
from the state (``TouchInN.attacker_to_act``).  The pruned tree of a pack
(``"solution": "pruned"``, docs/puzzles.md) is complete for the first
:data:`~fechtbuch.puzzles.pack.FULL_DEFENCES` adversary moves on every path (an
adversary move is any action at a node that is not P's: the opponent's card, or the
card P draws):

* at P's nodes above the cut, every key (P's actions that keep the sure Touché
  within the turns left);
* at the adversary's nodes above the cut, every reply, replies with equal subtrees
  under one key: their action texts joined by a space, sorted (:func:`tree_child`
  finds an action's group);
* below the cut (after two adversary moves: usually the opponent's card and P's
  draw), one action per node, the branch's main line: P's fastest key, the
  adversary's longest defence (P's draws included), ties by action text.

The tree is a pure function of the position and the decider (``wins(state, turns)``),
so the prover's tree and the independent verifier's must be equal byte for byte;
:func:`cut_problems` checks the completeness above the cut on its own (``pack
verify`` names the node where a key or a reply is missing).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fechtbuch.engines.game import Outcome
from fechtbuch.engines.touche_pyramiden.touche_in_n import TouchInN, TouchNode
from fechtbuch.puzzles.pack import FULL_DEFENCES

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
        return self._node(root, turns, FULL_DEFENCES)

    def _node(self, state: TouchNode, turns: int, full: int) -> Any:
        """The tree at ``state`` with ``full`` adversary moves still to hold in full."""
        problem = self.problem
        if problem.outcome(state) is Outcome.WIN:
            return win_leaf(problem)
        if full <= 0:
            return self.line(state, turns)
        if problem.attacker_to_act(state):
            return {
                text: self._node(child, turns - 1, full) for text, child in self.keys(state, turns)
            }
        groups: dict[str, tuple[list[str], Any]] = {}
        for action, child in problem.children(state):
            sub = self._node(child, turns, full - 1)
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
            completions = [problem.format_action(state, a) for a in problem.completions(state)]
            if completions:  # distance 0: the fastest key, the others need no proof
                result = {min(completions): win_leaf(problem)}
                self._lines[memo] = result
                return result
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
            # the longest defence, ties by text: replies in text order, so the first one
            # that lasts all ``turns`` (no defence lasts longer) ends the search; the
            # replies after it are not asked (the root's proof already covers them)
            replies = sorted(
                (
                    (problem.format_action(state, action), child)
                    for action, child in problem.children(state)
                ),
                key=lambda item: item[0],
            )
            best = None
            for text, child in replies:
                dist = self.distance(child, turns)
                if dist is None:
                    raise AssertionError("a defence refutes the proof")
                if best is None or dist > best[0]:
                    best = (dist, text, child)
                if dist == turns:
                    break
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


def cut_problems(
    problem: TouchInN, wins: Decide, root: TouchNode, tree: Any, turns: int
) -> list[str]:
    """Where ``tree`` is not complete above the cut (module doc): a P node whose
    actions are not exactly the keys, an adversary node whose groups do not list
    every legal reply exactly once; below the cut, a node with no action.  One line
    per problem, naming the path."""
    helper = PackTree(problem, wins)
    problems: list[str] = []

    def walk(state: TouchNode, node: Any, turns: int, full: int, path: str) -> None:
        where = path or "root"
        if problem.outcome(state) is Outcome.WIN:
            if node != win_leaf(problem):
                problems.append(f"{where}: a completion must be marked {win_leaf(problem)!r}")
            return
        if not isinstance(node, dict) or not node:
            problems.append(f"{where}: a node must be a non-empty object")
            return
        if full <= 0:
            return  # below the cut: the equality with the main line is checked elsewhere
        children = {problem.format_action(state, a): c for a, c in problem.children(state)}
        if problem.attacker_to_act(state):
            keys = {text: child for text, child in helper.keys(state, turns)}
            if set(node) != set(keys):
                missing = sorted(set(keys) - set(node))
                extra = sorted(set(node) - set(keys))
                problems.append(f"{where}: keys differ (missing {missing}, not keys {extra})")
            for text, sub in node.items():
                if text in keys:
                    walk(keys[text], sub, turns - 1, full, f"{path} {text}".strip())
            return
        listed: dict[str, str] = {}
        for group in node:
            for text in group.split(GROUP_SEPARATOR):
                if text in listed:
                    problems.append(f"{where}: reply {text} listed twice")
                listed[text] = group
        missing = sorted(set(children) - set(listed))
        extra = sorted(set(listed) - set(children))
        if missing or extra:
            problems.append(
                f"{where}: replies differ from the legal ones (missing {missing[:5]}"
                f"{' ...' if len(missing) > 5 else ''}, not legal {extra[:5]})"
            )
        for text, group in listed.items():
            if text in children:
                walk(children[text], node[group], turns, full - 1, f"{path} {text}".strip())

    walk(root, tree, turns, FULL_DEFENCES, "")
    return problems
