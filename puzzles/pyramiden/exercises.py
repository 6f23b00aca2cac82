""" "Touché in N" exercises mined from seeded two-player play, as plain data.

An exercise is a two-player view of the seat to move with a sure Touché in exactly N
own turns (N = 1 needs at least two plausible fields: fields P's hand can take that
leave a placement of the pattern at most one field short), exactly one key, verified
by the independent checker.  Candidates are the states of seeded random games
(``random_states``, SHA-256 driven), so a seed gives the same list byte for byte.
Exercises are JSON-able dicts; the shared pack format wraps them elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace

from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.board import CARD_FIELDS, FREE_MASK, JOKER
from fechtbuch.engines.touche_pyramiden.patterns import USABLE
from fechtbuch.engines.touche_pyramiden.sampling import random_states
from fechtbuch.engines.touche_pyramiden.state import Phase, State
from fechtbuch.engines.touche_pyramiden.touche_in_n import (
    TouchInN,
    TouchNode,
    near_fields,
    node_of_view,
)
from fechtbuch.solver.andor_grouped import solve_problem


@dataclass(frozen=True)
class Exercise:
    """One exercise: the view, its only key, the main line and the solution tree."""

    position: str
    n: int
    key: str
    line: list[str]
    solution: dict
    tags: list[str]
    difficulty: int
    pattern: str

    def to_json(self) -> dict:
        return asdict(self)


def plausible_fields(problem: TouchInN, node: TouchNode) -> list[int]:
    """Fields P's hand can take now that lie in a placement of the pattern missing at
    most two of P's fields (so one move leaves it one short, or completes it)."""
    occ = node.mine | node.theirs | node.crowned
    takeable = 0
    for k in set(node.hand):
        if k == JOKER:
            takeable |= ~occ & ~FREE_MASK
        else:
            for f in CARD_FIELDS[k]:
                takeable |= 1 << f
    takeable &= ~occ
    out = 0
    for mask in USABLE[problem.pattern]:
        missing = mask & ~node.mine
        if missing & occ & ~FREE_MASK or missing.bit_count() > 2:
            continue
        out |= missing & (takeable | FREE_MASK)
    free_ok = near_fields(problem.pattern, node.mine, node.crowned)
    fields = [f for f in range(112) if out >> f & 1 and (not FREE_MASK >> f & 1 or f in free_ok)]
    return fields


def tags_of(problem: TouchInN, node: TouchNode, key: str, n: int) -> list[str]:
    tags = {f"in-{n}", problem.pattern.value}
    if key.startswith("XX:=") or key.startswith("XX:-"):
        tags.add("joker-removal")
    elif key.startswith("XX:"):
        tags.add("joker")
    if key.startswith("tausch:"):
        tags.add("dead-card-exchange")
    field = key.rsplit(":", 1)[-1].lstrip("=-")[:2]
    if not key.startswith("tausch") and field in ("a1", "n1", "g4", "h4", "g5", "h5", "a8", "n8"):
        tags.add("free-field")
    if node.unseen[JOKER] == 0:
        tags.add("joker-defence-exhausted")
    if n >= 2:
        for action, child in problem.children(node):
            if problem.format_action(node, action) == key:
                if len(near_fields(problem.pattern, child.mine, child.crowned)) >= 2:
                    tags.add("double-threat")
    return sorted(tags)


def jokers_seen(state: State) -> State | None:
    """``state`` with every joker P has not seen swapped with a card of the discard pile
    (the latest non-jokers), or ``None`` if none is unseen or the pile is too short.
    Card counts stay exact; without an unseen joker the opponent cannot lift a
    pyramid, so double threats decide and N = 2, 3 exercises become common."""
    p = state.to_move
    q = 1 - p
    discard = list(state.discard)
    spare = [i for i, k in enumerate(discard) if k != JOKER]
    holders = [("hand", q), ("pile", p), ("pile", q)]
    hands, piles = [list(h) for h in state.hands], [list(x) for x in state.piles]
    swapped = 0
    for where, seat in holders:
        cards = hands[seat] if where == "hand" else piles[seat]
        for i, k in enumerate(cards):
            if k == JOKER:
                if not spare:
                    return None
                j = spare.pop()
                cards[i], discard[j] = discard[j], JOKER
                swapped += 1
    if not swapped:
        return None
    return replace(
        state,
        hands=tuple(tuple(sorted(h)) for h in hands),
        piles=tuple(tuple(x) for x in piles),
        discard=tuple(discard),
    )


def candidate_views(seed: str, count: int) -> Iterator[str]:
    """Two-player PLAY views of the seat to move from seeded random games, each
    followed by its variant with every unseen joker swapped into the discard pile."""
    for state in random_states(2, count, f"pyramiden-mine-{seed}"):
        if state.phase is Phase.PLAY and state.pattern is not None:
            yield notation.format_view(notation.view_of(state, state.to_move))
            variant = jokers_seen(state)
            if variant is not None:
                yield notation.format_view(notation.view_of(variant, variant.to_move))


def examine(view: str, max_n: int, max_nodes: int) -> Exercise | None:
    """The exercise of ``view``, or ``None`` if it is not one (see the module doc)."""
    node, pattern = node_of_view(notation.parse_view(view))
    problem = TouchInN(pattern)
    plausible = plausible_fields(problem, node)
    if len(plausible) < 2:
        return None
    answer = solve_problem(
        problem, node, max_n, max_nodes=max_nodes, verify=True, verify_max_nodes=20 * max_nodes
    )
    if answer.status != "solved" or answer.distance is None or len(answer.keys) != 1:
        return None
    if answer.verified is not True:
        return None
    key = answer.keys[0]
    n = answer.distance
    difficulty = 10 * n + min(9, len(plausible)) + (3 if node.unseen[JOKER] else 0)
    if key.startswith("XX") or key.startswith("tausch"):
        difficulty += 3
    return Exercise(
        position=view,
        n=n,
        key=key,
        line=answer.main_line,
        solution=answer.tree or {},
        tags=tags_of(problem, node, key, n),
        difficulty=difficulty,
        pattern=pattern.value,
    )


def mine(
    seed: str,
    candidates: int,
    max_n: int,
    max_nodes: int,
    per_n: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[Exercise]:
    """Exercises from ``candidates`` seeded states, deduplicated by board and hand,
    and by P's pyramids with the key (the same idea a move later), at most ``per_n``
    for each N; sorted by N, then difficulty, then position."""
    found: dict[str, Exercise] = {}
    ideas: set[tuple[int, str]] = set()
    counts: dict[int, int] = {}
    for view in candidate_views(seed, candidates):
        node, _ = node_of_view(notation.parse_view(view))
        dedup = f"{node.mine}/{node.theirs}/{node.crowned}/{node.hand}"
        if dedup in found:
            continue
        exercise = examine(view, max_n, max_nodes)
        if exercise is None:
            continue
        if per_n is not None and counts.get(exercise.n, 0) >= per_n:
            continue
        if (node.mine, exercise.key) in ideas:
            continue  # the same idea one opponent move later
        ideas.add((node.mine, exercise.key))
        counts[exercise.n] = counts.get(exercise.n, 0) + 1
        found[dedup] = exercise
        if progress:
            progress(f"N={exercise.n} key={exercise.key} tags={','.join(exercise.tags)}")
    return sorted(found.values(), key=lambda e: (e.n, e.difficulty, e.position))
