"""Walking a pack puzzle's solution tree alongside the game's states (every game).

A solution tree (docs/puzzles.md, "Pack format") is nested objects from action text
to the next node, with a leaf string where a rule decides.  Whose node it is follows
from the state (``AndOrProblem.attacker_to_act``), not from the depth, so these
helpers always carry the state with the node: :class:`TreeNode`.  The terminal loop
(:mod:`fechtbuch.puzzles.treeplay`), ``pack show`` and the version-2 viewer read
trees only through here.  No game is imported.

Play on the tree follows docs/solver.md: the solver's hint is the action that
decides soonest, the adversary's answer the reply that delays it longest, ties by
action text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from fechtbuch.engines.game import AndOrProblem
from fechtbuch.puzzles.packkind import PackKind, Puzzle, tree_child


@dataclass(frozen=True)
class TreeNode:
    """A state of the puzzle's AND/OR problem with the tree stored at it.

    ``tree`` is a dict (play goes on) or a leaf string (a rule decided); ``None``
    when the state left the stored tree."""

    state: Any
    tree: Any
    adversary_moves: int
    """How many adversary actions led here (a pruned tree is full for the first two)."""

    @property
    def is_leaf(self) -> bool:
        return isinstance(self.tree, str)


class PuzzleTree:
    """One puzzle's problem and tree, walked by action text."""

    def __init__(self, kind: PackKind, puzzle: Puzzle):
        self.kind = kind
        self.puzzle = puzzle
        self.problem: AndOrProblem
        self.problem, root_state = kind.problem(puzzle)
        self.root = TreeNode(root_state, puzzle["solution"], 0)
        self._distance: dict[int, int] = {}
        self._legal: dict[Any, dict[str, tuple[Any, Any]]] = {}

    def solver_to_act(self, node: TreeNode) -> bool:
        return self.problem.attacker_to_act(node.state)

    def legal(self, node: TreeNode) -> dict[str, tuple[Any, Any]]:
        """Every legal action at ``node`` by its text, with the action and the next state."""
        problem = self.problem
        key = problem.key(node.state)
        if key not in self._legal:
            self._legal[key] = {
                problem.format_action(node.state, action): (action, child)
                for action, child in problem.children(node.state)
            }
        return self._legal[key]

    def step(self, node: TreeNode, text: str) -> TreeNode:
        """The node after the legal action ``text`` (its ``tree`` ``None`` off the tree)."""
        action, child = self.legal(node)[text]
        sub = tree_child(self.kind, node.tree, text) if isinstance(node.tree, dict) else None
        adversary = 0 if self.problem.attacker_to_act(node.state) else 1
        return TreeNode(child, sub, node.adversary_moves + adversary)

    def tree_actions(self, node: TreeNode) -> Iterator[tuple[str, TreeNode]]:
        """The legal actions at ``node`` that the tree holds (through ``PackKind.child``
        for a game that groups them), in text order, with their nodes."""
        if not isinstance(node.tree, dict):
            return
        for text in sorted(self.legal(node)):
            child = self.step(node, text)
            if child.tree is not None:
                yield text, child

    def distance(self, node: TreeNode) -> int:
        """The solver's own turns to the decision under best play on the stored tree
        (the adversary delaying as long as the tree allows)."""
        if node.is_leaf:
            return 0
        key = id(node.tree)
        if key not in self._distance:
            scores = [score for score, _ in self._scored(node)]
            self._distance[key] = min(scores) if self.solver_to_act(node) else max(scores)
        return self._distance[key]

    def _spent(self, node: TreeNode, text: str) -> int:
        """1 if the solver's action ``text`` spends one of its turns (a parry does not)."""
        if not self.solver_to_act(node):
            return 0
        action, _ = self.legal(node)[text]
        return 1 if self.problem.counts_turn(node.state, action) else 0

    def best_action(self, node: TreeNode) -> str:
        """The solver's stored action that decides soonest (ties by text): the hint."""
        return min(self._scored(node), key=lambda item: item[0])[1]

    def longest_defence(self, node: TreeNode) -> str:
        """The adversary's stored reply that delays the decision longest (ties by text)."""
        return min(self._scored(node), key=lambda item: (-item[0], item[1]))[1]

    def _scored(self, node: TreeNode) -> list[tuple[int, str]]:
        """(the solver's turns to the decision after it, text) per stored action."""
        scored = [
            (self._spent(node, text) + self.distance(child), text)
            for text, child in self.tree_actions(node)
        ]
        if not scored:
            raise ValueError("the stored tree has a node without a legal action")
        return scored

    def main_line(self) -> list[str]:
        """Best action, longest defence, ... from the root to a leaf."""
        node, line = self.root, []
        while not node.is_leaf:
            text = (
                self.best_action(node) if self.solver_to_act(node) else self.longest_defence(node)
            )
            line.append(text)
            node = self.step(node, text)
        return line


def count_nodes(tree: Any) -> tuple[int, int]:
    """(inner nodes, leaves) of a stored tree, whoever acts at them."""
    if not isinstance(tree, dict):
        return 0, 1
    inner, leaves = 1, 0
    for sub in tree.values():
        i, leaf = count_nodes(sub)
        inner += i
        leaves += leaf
    return inner, leaves
