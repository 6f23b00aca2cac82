"""The AND/OR solve layer: everything about one root of any
:class:`~fechtbuch.engines.game.AndOrProblem` (distance, keys, main line, solution
tree, optional independent verification), from one persistent df-pn table.

Terms as in docs/solver.md ("The AND/OR solve layer"):

* distance: the smallest ``n <= max_n`` with a forced win within ``n`` attacker turns
  (0 when the root is won with actions that spend no turn: a Touché parry, or the
  forced ``-`` of a last attack that cannot be made, after which the round is won);
* keys: the root actions that keep the win within the distance;
* main line: the fastest key (its win comes soonest, counting the key itself when it
  spends a turn; ties by notation), the defender's longest defence (ties by
  notation), the fastest finish, ... to the end;
* solution tree: an attacker node maps every action that keeps the win within the
  remaining budget to the next node (``"win"`` or ``"win:<tag>"`` where the round
  ends); a defender node lists every reply (including the adversary's hidden
  choices), either as ``{reply: node}`` (:attr:`Replies.FLAT`) or with replies whose
  subtrees are equal grouped, ``{"replies": [{"actions": [...], "then": node}]}``
  (:attr:`Replies.GROUPED`: a hidden-card adversary has hundreds of replies that
  all lead to the same answer).

A node, tree-size or time limit yields status ``unknown`` and no claim.  With
``verify`` the independent :class:`~fechtbuch.solver.andor_verifier.ProofCheck`
re-derives the distance and the keys; a verifier that reaches its own limit gives
``verified = None`` (no verdict), never a claim either way.

Two front doors share all of it and differ only in their :class:`Style`:
:func:`solve_andor` (flat trees, keys in the problem's order: the Touché duel's
``touche solve`` and its exercises) and :func:`solve_problem` (grouped trees, keys
by text, a time limit: the pyramid game's ``pyramiden solve``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.solver.andor import ProofLimit, keys
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck

DEFAULT_TREE_NODES = 200_000
DEFAULT_MAX_NODES = 5_000_000
"""The node limit of ``pyramiden solve`` (:func:`solve_problem`'s default)."""


class Status(str, Enum):
    """What a solve found: a win within the bound, none, or no claim (a limit)."""

    FOUND = "found"
    NONE = "none"
    UNKNOWN = "unknown"


FOUND, NONE, UNKNOWN = Status.FOUND, Status.NONE, Status.UNKNOWN


class Replies(Enum):
    """How a defender node of the solution tree lists its replies."""

    FLAT = "flat"  # {reply text: node}
    GROUPED = "grouped"  # {"replies": [{"actions": [...], "then": node}, ...]}


@dataclass(frozen=True)
class Style:
    """What the two front doors do differently.

    ``replies`` and ``keys_by_text`` are what the answer shows.  The other fields fix
    the order in which the df-pn table is asked its questions: the answers do not
    depend on it, but the node count does (the table persists, so an earlier
    question can make a later one cheaper), and both commands report it; each front
    door keeps the order it was written with, so its figures stay the same.
    """

    replies: Replies
    keys_by_text: bool
    """Keys sorted by notation text (else in the problem's order)."""
    root_bound_first: bool
    """The root's distance asks ``wins(root, max_n)`` first (one question settles
    "none"), then ``1, 2, ...``; else ``1, 2, ...`` up to the first win."""
    replies_bound_first: bool
    """On the main line, a defender reply's distance asks ``wins(reply, turns)``
    first (an attacker action's always does: it must win within the budget)."""
    line_retightens: bool
    """After each main-line step the budget falls to the new node's own distance
    (else only a counting attacker action lowers it)."""
    tree_keys_first: bool
    """An attacker node of the tree asks for all its keys before it builds their
    subtrees (else key by key, each subtree at once)."""


FLAT = Style(
    replies=Replies.FLAT,
    keys_by_text=False,
    root_bound_first=False,
    replies_bound_first=True,
    line_retightens=True,
    tree_keys_first=False,
)
GROUPED = Style(
    replies=Replies.GROUPED,
    keys_by_text=True,
    root_bound_first=True,
    replies_bound_first=False,
    line_retightens=False,
    tree_keys_first=True,
)


@dataclass
class AndOrSolution:
    """The answer for one root (``status``: found, none or unknown)."""

    root: str
    max_n: int
    status: Status
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
        """The fields of ``touche solve --json`` (the tree goes to its own file)."""
        return {
            "root": self.root,
            "max": self.max_n,
            "status": self.status.value,
            "distance": self.distance,
            "keys": self.keys,
            "main_line": self.main_line,
            "tree_nodes": self.tree_nodes,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "verified": self.verified,
            "note": self.note,
        }


@dataclass
class AndOrAnswer:
    """:func:`solve_problem`'s answer: status ``solved`` (``distance`` ``None``: no
    win within ``max_n``) or ``unknown``, the tree inside its JSON."""

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

    @classmethod
    def of(cls, solution: AndOrSolution) -> AndOrAnswer:
        return cls(
            status="unknown" if solution.status is UNKNOWN else "solved",
            max_n=solution.max_n,
            distance=solution.distance,
            keys=solution.keys,
            main_line=solution.main_line,
            tree=solution.tree,
            nodes=solution.nodes,
            seconds=solution.seconds,
            verified=solution.verified,
            note=solution.note,
        )

    def to_json(self) -> dict[str, Any]:
        """The fields of ``pyramiden solve --json``."""
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


def outcome_text(problem: AndOrProblem, state: Any) -> str:
    """``win`` or ``win:<tag>`` (the problem's ``outcome_tag`` if it has one)."""
    tag = getattr(problem, "outcome_tag", None)
    return f"win:{tag(state)}" if tag else "win"


class _Timed(AndOrProblem):
    """``problem`` with a deadline: listing children past it raises ``ProofLimit``.
    Every hint of the problem's is passed on (``needs_turn``, ``iter_children``,
    ``counts_turn``, ``wins_at_once``), so a time limit changes no node count."""

    def __init__(self, problem: AndOrProblem, deadline: float):
        self.inner = problem
        self.deadline = deadline

    def attacker_to_act(self, state):
        return self.inner.attacker_to_act(state)

    def outcome(self, state):
        return self.inner.outcome(state)

    def _check(self) -> None:
        if time.monotonic() > self.deadline:
            raise ProofLimit("the time limit was reached")

    def children(self, state) -> Sequence:
        self._check()
        return self.inner.children(state)

    def iter_children(self, state) -> Iterator:
        self._check()
        return self.inner.iter_children(state)

    def counts_turn(self, state, action) -> bool:
        return self.inner.counts_turn(state, action)

    def needs_turn(self, state) -> bool:
        return self.inner.needs_turn(state)

    def wins_at_once(self, state) -> bool | None:
        return self.inner.wins_at_once(state)

    def key(self, state) -> Hashable:
        return self.inner.key(state)

    def format_state(self, state) -> str:
        return self.inner.format_state(state)

    def format_action(self, state, action) -> str:
        return self.inner.format_action(state, action)


class _Solver:
    """The questions about one root, asked of one persistent df-pn table."""

    def __init__(
        self, problem: AndOrProblem, style: Style, max_nodes: int | None, leaves: AndOrProblem
    ):
        self.problem = problem
        self.leaves = leaves  # the unwrapped problem, whose outcome_tag names the leaves
        self.style = style
        self.search = ProofSearch(problem, max_nodes=max_nodes)

    def wins(self, state: Any, turns: int) -> bool:
        return turns >= 0 and self.search.wins(state, turns)

    def budget_after(self, state: Any, action: Any, turns: int) -> int:
        """The turns left after ``action`` (an attacker's counting action spends one)."""
        if self.problem.attacker_to_act(state) and self.problem.counts_turn(state, action):
            return turns - 1
        return turns

    def text(self, state: Any, action: Any) -> str:
        return self.problem.format_action(state, action)

    def root_distance(self, root: Any, max_n: int) -> int | None:
        """The smallest ``n`` in ``0..max_n`` with a win, or ``None``.  0 is asked too: a
        root won by actions that spend no turn must not be called a win in 1 (for a
        root whose every action spends a turn the question costs no node)."""
        if self.style.root_bound_first and not self.wins(root, max_n):
            return None
        return next((n for n in range(max_n + 1) if self.wins(root, n)), None)

    def distance(self, state: Any, bound: int, bound_first: bool) -> int | None:
        """The smallest ``m`` in ``0..bound`` with a win (0: won already, or by free
        actions such as a parry chain), or ``None``."""
        outcome = self.problem.outcome(state)
        if outcome is not None:
            return 0 if outcome is Outcome.WIN else None
        if bound_first and not self.wins(state, bound):
            return None
        return next((m for m in range(bound + 1) if self.wins(state, m)), None)

    def keys(self, state: Any, turns: int) -> list[str]:
        found = [self.text(state, a) for a in keys(self.problem, self.wins, state, turns)]
        return sorted(found) if self.style.keys_by_text else found

    def main_line(self, root: Any, turns: int) -> list[str]:
        """Fastest key, longest defence, fastest finish, ... (ties by notation text)."""
        problem, style = self.problem, self.style
        line: list[str] = []
        state = root
        while problem.outcome(state) is None:
            attacker = problem.attacker_to_act(state)
            bound_first = attacker or style.replies_bound_first
            best = None
            for action, child in problem.children(state):
                budget = self.budget_after(state, action, turns)
                d = self.distance(child, budget, bound_first) if budget >= 0 else None
                if d is None:
                    if attacker:
                        continue
                    raise AssertionError("a defender reply escapes a proved win")
                spent = d + (turns - budget)  # the counting action itself, then the child's
                text = self.text(state, action)
                rank = (spent, text) if attacker else (-spent, text)
                if best is None or rank < best[0]:
                    best = (rank, text, child, budget, d)
            assert best is not None, "the main line left the proof"
            _, text, state, budget, d = best
            line.append(text)
            turns = budget
            if style.line_retightens:
                # asked again rather than reused: the prover counts the nodes of its
                # leaf rules on every question, so this keeps the reported count
                again = self.distance(state, budget, bound_first=True)
                assert again == d
                turns = d
        return line

    def tree(self, state: Any, turns: int, limit: int | None) -> tuple[dict, int]:
        """The solution tree of an attacker node won within ``turns`` and its number
        of inner nodes; more than ``limit`` of them raise ``ProofLimit``."""
        counter = [0]
        return self._node(state, turns, counter, limit), counter[0]

    def _node(self, state: Any, turns: int, counter: list[int], limit: int | None) -> Any:
        problem = self.problem
        outcome = problem.outcome(state)
        if outcome is not None:
            assert outcome is Outcome.WIN, "a lost node in a solution tree"
            return outcome_text(self.leaves, state)
        counter[0] += 1
        if limit is not None and counter[0] > limit:
            raise ProofLimit(f"the solution tree has more than {limit:,} nodes")
        if problem.attacker_to_act(state):
            return self._attacker_node(state, turns, counter, limit)
        replies = [
            (self.text(state, action), self._node(child, turns, counter, limit))
            for action, child in problem.children(state)
        ]
        if self.style.replies is Replies.FLAT:
            return dict(sorted(dict(replies).items()))
        return _grouped(replies)

    def _attacker_node(self, state: Any, turns: int, counter: list[int], limit: int | None):
        node: dict[str, Any] = {}
        if self.style.tree_keys_first:
            winning = set(self.keys(state, turns))
        for action, child in self.problem.children(state):
            budget = self.budget_after(state, action, turns)
            text = self.text(state, action)
            if self.style.tree_keys_first:
                if text not in winning:
                    continue
            elif budget < 0 or not self.wins(child, budget):
                continue
            node[text] = self._node(child, budget, counter, limit)
        return dict(sorted(node.items()))


def _grouped(replies: list[tuple[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """``{"replies": [...]}``: replies with equal subtrees in one group, actions and
    groups in notation order."""
    groups: dict[str, tuple[list[str], Any]] = {}
    for text, sub in replies:
        code = json.dumps(sub, sort_keys=True)
        groups.setdefault(code, ([], sub))[0].append(text)
    listed = [{"actions": sorted(actions), "then": sub} for actions, sub in groups.values()]
    listed.sort(key=lambda group: group["actions"][0])
    return {"replies": listed}


def solve(
    problem: AndOrProblem,
    root: Any,
    max_n: int,
    style: Style,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    verify: bool = False,
    verify_max_nodes: int | None = None,
    with_tree: bool = True,
    tree_nodes: int | None = DEFAULT_TREE_NODES,
) -> AndOrSolution:
    """Distance, keys, main line and tree of ``root`` within ``max_n`` attacker turns.

    ``max_nodes`` limits the prover, ``verify_max_nodes`` the verifier, ``tree_nodes``
    the tree's inner nodes, ``time_limit`` (seconds) all three together.
    """
    started = time.perf_counter()
    original = problem
    if time_limit is not None:
        problem = _Timed(problem, time.monotonic() + time_limit)
    solver = _Solver(problem, style, max_nodes, leaves=original)
    result = AndOrSolution(problem.format_state(root), max_n, UNKNOWN)
    try:
        distance = solver.root_distance(root, max_n)
        if distance is None:
            result.status = NONE
        else:
            result.distance = distance
            result.keys = solver.keys(root, distance)
            result.main_line = solver.main_line(root, distance)
            if with_tree:
                result.tree, result.tree_nodes = solver.tree(root, distance, tree_nodes)
            result.status = FOUND
    except ProofLimit as limit:
        result.status = UNKNOWN
        result.distance, result.keys, result.main_line, result.tree = None, [], [], None
        result.note = str(limit)
    result.nodes = solver.search.nodes
    if verify and result.status is not UNKNOWN:
        try:
            result.verified = _verified(problem, root, max_n, result, style, verify_max_nodes)
        except ProofLimit as limit:
            result.verified = None
            result.note = f"not verified: {limit}"
    result.seconds = time.perf_counter() - started
    return result


def _verified(
    problem: AndOrProblem,
    root: Any,
    max_n: int,
    result: AndOrSolution,
    style: Style,
    max_nodes: int | None,
) -> bool:
    """Re-derive the distance and the keys with the independent memoised recursion."""
    check = ProofCheck(problem, max_nodes=max_nodes)
    d = result.distance
    if d is None:
        return not check.wins(root, max_n)
    if not check.wins(root, d) or (d > 0 and check.wins(root, d - 1)):
        return False
    found = [problem.format_action(root, a) for a in keys(problem, check.wins, root, d)]
    return (sorted(found) if style.keys_by_text else found) == result.keys


def solve_andor(
    problem: AndOrProblem,
    root: Any,
    max_n: int,
    max_nodes: int | None = None,
    verify: bool = False,
    with_tree: bool = True,
    tree_nodes: int = DEFAULT_TREE_NODES,
) -> AndOrSolution:
    """:func:`solve` with flat trees and keys in the problem's order; the verifier
    has the prover's node limit."""
    return solve(
        problem,
        root,
        max_n,
        FLAT,
        max_nodes=max_nodes,
        verify=verify,
        verify_max_nodes=max_nodes,
        with_tree=with_tree,
        tree_nodes=tree_nodes,
    )


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
    """:func:`solve` with grouped trees, keys by text and no tree-size limit."""
    solution = solve(
        problem,
        root,
        max_n,
        GROUPED,
        max_nodes=max_nodes,
        time_limit=time_limit,
        verify=verify,
        verify_max_nodes=verify_max_nodes,
        with_tree=with_tree,
        tree_nodes=None,
    )
    return AndOrAnswer.of(solution)
