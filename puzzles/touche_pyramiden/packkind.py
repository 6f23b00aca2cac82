"""The pyramid game's :class:`~fechtbuch.puzzles.packkind.PackKind`: "Touché in N" packs.

Packs are version 2 with ``rules`` ``"touche-pyramiden"`` and pruned solution trees
(puzzles/touche_pyramiden/tree.py: every key and every reply, in groups of equal subtrees,
for the first two adversary moves, then the branch's main line; ``cut_problems``
names a missing key or reply).  A puzzle's own field is
``pattern`` (the round's pattern, also in the position).  Verification re-derives
every derived field with the independent verifier (``ProofCheck``): exactly N, the
only key, the tree, the main line, id, pattern, tags, difficulty, and for N = 1 at
least two plausible fields.

The problem handed to play and the viewer is :class:`PackProblem`: the view's
AND/OR problem whose states also carry the puzzle's view, so that a state can be
drawn (board, hand, sizes) without anything else.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.engines.touche_pyramiden import GAME, notation, textboard
from fechtbuch.engines.touche_pyramiden.board import CARD_MASK, JOKER, card_text, field_name
from fechtbuch.engines.touche_pyramiden.reachable import reachability_problem
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase
from fechtbuch.engines.touche_pyramiden.touche_in_n import (
    P_TO_ACT,
    Draw,
    NodeAction,
    TouchInN,
    TouchNode,
    node_of_view,
    with_budget,
)
from fechtbuch.puzzles.andorjudge import judge_andor
from fechtbuch.puzzles.packkind import PackKind, Puzzle, schema_part
from fechtbuch.puzzles.touche_pyramiden.mining import (
    difficulty_of,
    plausible_fields,
    prove,
    puzzle_id,
    tags_of,
)
from fechtbuch.puzzles.touche_pyramiden.svg import Hand, board_svg
from fechtbuch.puzzles.touche_pyramiden.tree import FULL_DEFENCES, cut_problems, tree_child
from fechtbuch.puzzles.witness import replay_witness
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_verifier import ProofCheck

RULES = "touche-pyramiden"
MAX_N = 3
"""The deepest N a pyramid pack may claim (the verifier's work grows steeply with N)."""
VERIFY_MAX_NODES = 20_000_000
"""A bound on one puzzle's verification, so a hostile pack cannot run for ever."""


@dataclass(frozen=True)
class PackState:
    """A node of the view with the puzzle's view it came from (for drawing)."""

    node: TouchNode
    base: notation.View


class PackProblem(AndOrProblem[PackState, NodeAction]):
    """:class:`TouchInN` over :class:`PackState` (same answers, drawable states)."""

    def __init__(self, inner: TouchInN):
        self.inner = inner

    def attacker_to_act(self, state: PackState) -> bool:
        return self.inner.attacker_to_act(state.node)

    def outcome(self, state: PackState) -> Outcome | None:
        return self.inner.outcome(state.node)

    def children(self, state: PackState) -> Sequence[tuple[NodeAction, PackState]]:
        return [(a, PackState(c, state.base)) for a, c in self.inner.children(state.node)]

    def wins_at_once(self, state: PackState) -> bool | None:
        return self.inner.wins_at_once(state.node)

    def key(self, state: PackState) -> Hashable:
        # the exact node: play and the viewer list actions by key, and grouped keys
        # join states whose action texts differ
        return state.node

    def format_state(self, state: PackState) -> str:
        return self.inner.format_state(state.node)

    def format_action(self, state: PackState, action: NodeAction) -> str:
        return self.inner.format_action(state.node, action)


def view_of_state(state: PackState) -> notation.View:
    """The puzzle's view with the board, P's hand and the sizes of ``state``."""
    base, node = state.base, state.node
    p, q = base.seat, 1 - base.seat
    own = [0, 0]
    own[base.config.team_of(p)] = node.mine
    own[base.config.team_of(q)] = node.theirs
    hands = [0, 0]
    hands[p], hands[q] = len(node.hand), node.opp_hand
    piles = [0, 0]
    piles[p], piles[q] = node.my_pile, node.opp_pile
    return replace(
        base,
        phase=Phase.PLAY,
        to_move=p if node.phase == P_TO_ACT else q,
        own=tuple(own),
        crowned=node.crowned,
        hand=node.hand,
        hand_sizes=tuple(hands),
        pile_sizes=tuple(piles),
    )


def board_text(state: PackState, colour: bool) -> str:
    return textboard.render(view_of_state(state), colour=colour)


def state_svg(state: PackState) -> str:
    """The board with the player's hand under it (its dead cards marked) and its team."""
    view = view_of_state(state)
    title = f"Touché in N, {view.pattern.value if view.pattern else ''}"
    words = None  # the pack page's words for the board's name (svg.py)
    if view.pattern:
        pattern = {"key": f"pp.tp.pattern.{view.pattern.value}"}
        words = {"key": "pp.tp.board", "args": {"pattern": pattern}}
    occupied = view.crowned
    for mask in view.own:
        occupied |= mask
    dead = {card_text(k) for k in view.hand if k < JOKER and CARD_MASK[k] & ~occupied == 0}
    hand = Hand(
        tuple(card_text(k) for k in view.hand), frozenset(dead), view.config.team_of(view.seat)
    )
    return board_svg(view.own, view.crowned, title, words, hand)


def page_action(state: PackState, action: Action) -> dict:
    """An action as the version-2 pack page offers it (``packplay.js``): ``act`` and
    its card and field (the drawing's ``data-card`` and ``data-field``): ``place`` (a
    card on a field, a joker's and a free field's too), ``remove`` and ``replace`` (a
    joker lifting a pyramid, and putting an own one there); or ``exchange`` with the
    dead cards it exchanges; or ``pass``."""
    kind = action.kind
    if kind is Kind.EXCHANGE:
        return {"act": "exchange", "cards": [card_text(k) for k in action.cards]}
    if kind is Kind.PASS:
        return {"act": "pass"}
    act = {Kind.JOKER_REMOVE: "remove", Kind.JOKER_REPLACE: "replace"}.get(kind, "place")
    return {"act": act, "card": card_text(action.card), "field": field_name(action.field)}


def page_reply(state: PackState, action: NodeAction) -> dict:
    """The adversary's choice as the version-2 pack page words it (``packplay.js``):
    the card the player draws (``act`` ``draw``, ``card``), or the opponent's action in
    :func:`page_action`'s parts with its team (``team``, the colour of its pyramids on
    the drawing)."""
    if isinstance(action, Draw):
        return {"act": "draw", "card": card_text(action.card)}
    base = state.base
    return {**page_action(state, action), "team": base.config.team_of(1 - base.seat)}


def problem_of(puzzle: Puzzle) -> tuple[PackProblem, PackState]:
    view = notation.parse_view(puzzle["position"])
    node, pattern = node_of_view(view)
    return PackProblem(TouchInN(pattern)), PackState(with_budget(node, puzzle["n"]), view)


def duplicate_class(puzzle: Puzzle) -> Hashable:
    """The board, P's hand and the pattern: the same exercise whatever the sizes say."""
    try:
        node, pattern = node_of_view(notation.parse_view(puzzle["position"]))
    except InputError:
        return None
    return (pattern.value, node.mine, node.theirs, node.crowned, node.hand)


def verify_puzzle(puzzle: Puzzle, max_n: int = MAX_N) -> list[str]:
    """As :func:`verify_pruned` for a pack that claims full trees: the tree is always
    pruned here, so that claim is a problem of its own."""
    problems = verify_pruned(puzzle, max_n)
    return [*problems, 'solution: pyramid packs carry pruned trees ("solution": "pruned")']


def verify_pruned(puzzle: Puzzle, max_n: int = MAX_N) -> list[str]:
    """Re-prove one puzzle and re-derive every derived field; one line per problem."""
    try:
        view = notation.parse_view(puzzle["position"])
        node, pattern = node_of_view(view)
    except InputError as err:
        return [f"position: {err}"]
    n = puzzle["n"]
    if not 1 <= n <= min(max_n, MAX_N):
        return [f"n: {n} is outside this pack's range 1-{min(max_n, MAX_N)}"]
    problems = []
    if puzzle.get("pattern") != pattern.value:
        problems.append(f"pattern: expected {pattern.value}")
    if puzzle["id"] != puzzle_id(puzzle["position"]):
        problems.append(f"id: expected {puzzle_id(puzzle['position'])}")
    problem = TouchInN(pattern)
    plausible = plausible_fields(problem, node)
    if n == 1 and len(plausible) < 2:
        problems.append("position: fewer than two plausible fields (a trivial Touché in 1)")
    decider = ProofCheck(problem, max_nodes=VERIFY_MAX_NODES).wins
    try:
        check = prove(problem, node, n, decider)
        cut = cut_problems(problem, decider, with_budget(node, n), puzzle["solution"], n)
    except ProofLimit as limit:
        return [*problems, f"n: not verified ({limit})"]
    if check.distance != n:
        return [*problems, f"n: the sure Touché takes {check.distance or 'more than ' + str(n)}"]
    if check.keys != [puzzle["key"]]:
        return [*problems, f"key: the keys are {check.keys}"]
    problems += [f"solution: {text}" for text in cut]
    if not cut and puzzle["solution"] != check.tree:
        problems.append("solution: not the pruned solution tree (below the cut: the main line)")
    if puzzle["line"] != check.line:
        problems.append(f"line: not the main line; expected {' '.join(check.line)}")
    tags = tags_of(problem, node, puzzle["key"], n)
    if puzzle["tags"] != tags:
        problems.append(f"tags: {puzzle['tags']} but recomputed {tags}")
    difficulty = difficulty_of(n, len(plausible), node, puzzle["key"])
    if puzzle["difficulty"] != difficulty:
        problems.append(f"difficulty: {puzzle['difficulty']} but recomputed {difficulty}")
    return problems


def child(node: dict, action: str):
    return tree_child(node, action)


def verify_witness(puzzle: Puzzle) -> list[str]:
    """Replay the puzzle's witness (a round from its deal) with the reference rules
    and check that the full state it reaches shows exactly the puzzle's view to the
    seat to move (the same board, discard pile, sizes and hand; the replayed deal is
    a concrete one consistent with the view), and that the view passes the
    reachability test.  One line per problem, each starting with ``witness``."""
    if "witness" not in puzzle:
        return ["witness: missing (every exercise carries the round that reaches it)"]
    state, problems = replay_witness(GAME, puzzle["witness"])
    if state is None:
        return problems
    if state.phase is not Phase.PLAY:
        return [f"witness: reaches phase {state.phase.value!r}, not a turn of play"]
    reached = notation.format_view(notation.view_of(state, state.to_move))
    if reached != puzzle["position"]:
        return ["witness: reaches another position than the exercise's view"]
    problem = reachability_problem(notation.view_of(state, state.to_move))
    if problem is not None:  # a witness refutes the test: the test is wrong
        return [f"witness: reached, yet the reachability test says: {problem}"]
    return []


KIND = PackKind(
    rules=RULES,
    title="Touché pyramids",
    version=2,
    max_n=MAX_N,
    verify_puzzle=verify_puzzle,
    verify_pruned=verify_pruned,
    duplicate_class=duplicate_class,
    problem=problem_of,
    board_text=board_text,
    board_svg=state_svg,
    page_action=page_action,
    page_reply=page_reply,
    child=child,
    full_defences=FULL_DEFENCES,  # the tree holds every reply of the first two adversary moves
    judge=judge_andor,
    verify_witness=verify_witness,
    puzzle_schema=schema_part(__package__),
)
