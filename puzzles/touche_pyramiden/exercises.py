""" "Touché in N" exercises mined from seeded two-player play, as plain data.

An exercise is a two-player view of the seat to move with a sure Touché in exactly N
own turns (N = 1 needs at least two plausible fields: fields P's hand can take that
leave a placement of the pattern at most one field short), exactly one key, verified
by the independent checker: its distance, key and pruned solution tree
(puzzles/touche_pyramiden/tree.py) must equal the prover's.  Candidates are the states of
seeded games (``random_states``, SHA-256 driven) and views built from them
(:func:`jokers_seen`, :func:`lifted_views`, :func:`safe_field_views`), so a seed gives
the same list byte for byte.
Exercises are JSON-able dicts; the shared pack format wraps them elsewhere.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import combinations

from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.board import (
    CARD_FIELDS,
    CARD_MASK,
    FIELD_CARD,
    FREE_MASK,
    JOKER,
)
from fechtbuch.engines.touche_pyramiden.patterns import USABLE, mask_fields
from fechtbuch.engines.touche_pyramiden.players import policy_mittel
from fechtbuch.engines.touche_pyramiden.sampling import played_states, random_action, random_states
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase, State
from fechtbuch.engines.touche_pyramiden.touche_in_n import (
    TouchInN,
    TouchNode,
    live_placements,
    near_fields,
    node_of_view,
    with_budget,
)
from fechtbuch.puzzles.touche_pyramiden.tree import PackTree
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck


@dataclass(frozen=True)
class Exercise:
    """One exercise: the view, its only key, the main line and the solution tree."""

    id: str
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
                if leaves_safe_placement(problem, child, n - 1):
                    tags.add("safe-field")
    return sorted(tags)


def leaves_safe_placement(problem: TouchInN, node: TouchNode, turns: int) -> bool:
    """Whether P has a placement whose missing fields, at most ``turns`` and at least
    one a card field, the opponent cannot take: card fields whose card it has seen
    every copy of (with every joker seen), and free fields (taken by the opponent
    only to complete its own pattern)."""
    if node.unseen[JOKER]:
        return False
    taken = node.theirs | node.crowned
    for mask in USABLE[problem.pattern]:
        missing = mask & ~node.mine
        if mask & taken or not missing & ~FREE_MASK or missing.bit_count() > turns:
            continue
        if all(node.unseen[FIELD_CARD[f]] == 0 for f in mask_fields(missing & ~FREE_MASK)):
            return True
    return False


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


def threat_states(count: int, label: str) -> Iterator[State]:
    """States of seeded two-player games in which both seats mostly play the greedy
    threat builder (``mittel``'s policy, seen on the full state) and now and then a
    random action: boards with the near-complete placements that exercises need,
    which purely random play rarely builds."""

    def policy(state: State, actions: list, rng: HashStream):
        if state.phase is Phase.PLAY and rng.below(10) < 7:
            return policy_mittel(state, actions)[0]
        return random_action(state, actions, rng)

    return played_states(2, count, HashStream(f"threats/{label}"), lambda g: f"{label}-{g}", policy)


@dataclass(frozen=True)
class RoundViews:
    """The candidate views of one round: ``views`` are examined for every N still
    wanted, ``built`` (:func:`safe_field_views`: view and the key it was built for)
    for N = 3 only."""

    views: tuple[str, ...]
    built: tuple[tuple[str, str], ...] = ()


def candidate_rounds(seed: str, count: int, deep: bool = False) -> Iterator[RoundViews]:
    """The candidate views of each of ``count`` pairs of states (one of random play,
    one of threat-building play, the same index in each): two-player PLAY views of the
    seat to move, each followed by its variant with every unseen joker swapped into
    the discard pile (after it: an exercise found in the state itself is the one
    kept).  With ``deep`` (mining N = 3) each view is followed by its
    :func:`lifted_views` (views of play alone gave one Touché in 3 in 5,600), and the
    round's views of play have their :func:`safe_field_views` built.  Pair ``i`` does
    not depend on ``count``."""
    sources = (
        random_states(2, count, f"pyramiden-mine-{seed}"),
        threat_states(count, f"pyramiden-mine-{seed}"),
    )
    for pair in zip(*sources, strict=False):
        views: list[str] = []
        built: list[tuple[str, str]] = []
        for state in pair:
            if state.phase is Phase.PLAY and state.pattern is not None:
                found = [notation.format_view(notation.view_of(state, state.to_move))]
                variant = jokers_seen(state)
                if variant is not None:
                    found.append(notation.format_view(notation.view_of(variant, variant.to_move)))
                for view in found:
                    views.append(view)
                    if deep:
                        views.extend(lifted_views(view))
                        built.extend(v for v in safe_field_views(view) if v not in built)
        yield RoundViews(tuple(views), tuple(built))


def candidate_views(seed: str, count: int, deep: bool = False) -> Iterator[str]:
    """The ``views`` of :func:`candidate_rounds`, one after the other (not the built ones)."""
    for round_views in candidate_rounds(seed, count, deep):
        yield from round_views.views


LIFTS = (1, 2)
"""How many of P's pyramids :func:`lifted_views` takes back at a time."""


def lifted_views(position: str) -> Iterator[str]:
    """Views a turn or two of P's earlier than ``position``, built around a placement
    P now has at most one field short: for each placement (in mask order) and each set
    of :data:`LIFTS` of P's pyramids on its card fields (field order), those pyramids
    lifted, each card back in P's hand from the discard pile (the field's card, else a
    joker P played there), and as many cards of P's that have no field in the
    placement going to the discard pile instead (the first in card order; counts stay
    exact).  P then has two or three fields of one placement to fill while the
    opponent replies: the double threats, blocks and order of play that Touché in 3
    is made of.  Nothing is yielded for a view with an unseen joker (the opponent's
    joker lifts a pyramid: a sure Touché in 3 is all but impossible there).
    Distinct texts, deterministic."""
    view = notation.parse_view(position)
    node, pattern = node_of_view(view)
    if node.unseen[JOKER]:
        return
    team = view.config.team_of(view.seat)
    made: set[str] = set()
    for mask in USABLE[pattern]:
        missing = mask & ~node.mine
        if mask & node.crowned or missing.bit_count() > 1 or missing & node.theirs:
            continue
        fields = mask_fields(mask & node.mine & ~FREE_MASK)
        spare = [k for k in view.hand if k != JOKER and not CARD_MASK[k] & mask]
        for lifts in LIFTS:
            if len(spare) < lifts:
                continue
            for lifted in combinations(fields, lifts):
                earlier = _lift(view, team, lifted, spare[:lifts])
                if earlier is not None and earlier not in made:
                    made.add(earlier)
                    yield earlier


def _lift(view: notation.View, team: int, fields: tuple[int, ...], spare: list[int]) -> str | None:
    """``view`` with P's pyramids on ``fields`` lifted (see :func:`lifted_views`)."""
    discard = list(view.discard)
    hand = list(view.hand)
    for f in fields:
        card = FIELD_CARD[f] if FIELD_CARD[f] in discard else JOKER
        if card not in discard:
            return None
        discard.remove(card)
        hand.append(card)
    for k in spare:
        hand.remove(k)
        discard.append(k)
    own = list(view.own)
    for f in fields:
        own[team] &= ~(1 << f)
    earlier = replace(view, hand=tuple(sorted(hand)), discard=tuple(discard), own=tuple(own))
    return notation.format_view(earlier)


def safe_field_views(position: str) -> Iterator[tuple[str, str]]:
    """Views built for Touché in 3 from ``position`` around a *safe field*, one the
    opponent cannot take because it has seen every copy of its card (and every joker).

    For each placement (mask order) with one free field that P's pyramids fill but for
    the free field and two card fields ``a`` and ``b`` (neither the opponent's nor
    crowned), in both orders: P's hand is given the cards of ``a`` and ``b`` (each
    missing one from the unseen cards, for P's first card in hand order that is not a
    joker or one of the two, which becomes unseen), and every unseen copy of ``b``'s
    card goes to the discard pile in place of its first card that is not a joker and
    has no field in the placement (which becomes unseen; counts stay exact).  ``a``'s
    card must stay unseen.  P then wins in 3 by taking ``a`` first (the opponent's
    reply can block only ``a``), then ``b``, then the free field, which the opponent may
    take only to complete its own pattern; taking ``b`` first lets the opponent block
    ``a``, so the key is unique.  Built only where no joker is unseen and the opponent
    has no placement it could complete with two actions (its threats would cost P a
    turn), so the prover usually confirms it; it decides every claim.  Yields each
    view with the key it is built for (taking ``a``); distinct texts, deterministic.
    """
    view = notation.parse_view(position)
    node, pattern = node_of_view(view)
    if node.unseen[JOKER] or live_placements(pattern, node.theirs, node.crowned | node.mine, 2):
        return
    made: set[str] = set()
    for mask in USABLE[pattern]:
        missing = mask & ~node.mine
        if mask & (node.theirs | node.crowned) or missing.bit_count() != 3:
            continue
        if not missing & FREE_MASK:
            continue
        first, second = mask_fields(missing & ~FREE_MASK)
        for a, b in ((first, second), (second, first)):
            built = _with_safe_field(view, list(node.unseen), mask, a, b)
            if built is not None and built not in made:
                made.add(built)
                yield built, notation.format_action(Action(Kind.PLACE, FIELD_CARD[a], a))


def _with_safe_field(
    view: notation.View, unseen: list[int], mask: int, a: int, b: int
) -> str | None:
    """``view`` with P holding the cards of ``a`` and ``b`` and every copy of ``b``'s
    seen (see :func:`safe_field_views`), or ``None`` if the cards do not allow it."""
    card_a, card_b = FIELD_CARD[a], FIELD_CARD[b]
    hand, discard = list(view.hand), list(view.discard)
    for card in (card_a, card_b):
        if card in hand:
            continue
        spare = [k for k in hand if k not in (card_a, card_b, JOKER)]
        if not unseen[card] or not spare:
            return None
        hand.remove(spare[0])
        unseen[spare[0]] += 1
        hand.append(card)
        unseen[card] -= 1
    while unseen[card_b]:
        # a card may leave the discard pile only if the pile still backs the board
        spare = [
            i
            for i, k in enumerate(discard)
            if k != JOKER
            and not CARD_MASK[k] & mask
            and _backs(view, [*discard[:i], card_b, *discard[i + 1 :]])
        ]
        if not spare:
            return None
        unseen[discard[spare[0]]] += 1
        discard[spare[0]] = card_b
        unseen[card_b] -= 1
    if not unseen[card_a]:
        return None  # a safe too: either order would win, no unique key
    return notation.format_view(replace(view, hand=tuple(sorted(hand)), discard=tuple(discard)))


def discard_backs_board(view: notation.View) -> bool:
    """Whether the discard pile holds, for each pyramid of the round on a card field,
    its card or a joker, one card per pyramid: a card played goes face up on the
    discard pile and nothing takes it back within a round (``pyramiden-1``), so a view
    of real play always does.  (A necessary count, not a sufficient one: a joker that
    removed a pyramid backs none.)"""
    return _backs(view, view.discard)


def _backs(view: notation.View, discard: Sequence[int]) -> bool:
    board = 0
    for own in view.own:
        board |= own
    board &= ~FREE_MASK
    counts = [0] * (JOKER + 1)
    for k in discard:
        counts[k] += 1
    short = sum(max(0, (board & CARD_MASK[k]).bit_count() - counts[k]) for k in range(JOKER))
    return short <= counts[JOKER]


@dataclass(frozen=True)
class Proof:
    """Distance, keys, tree and main line of one view under one decider."""

    distance: int | None
    keys: list[str]
    tree: dict
    line: list[str]


def prove(problem: TouchInN, node: TouchNode, max_n: int, wins) -> Proof:
    """Everything an exercise claims, derived with the decider ``wins``."""
    root = with_budget(node, max_n)
    tree = PackTree(problem, wins)
    distance = tree.distance(root, max_n)
    if distance is None:
        return Proof(None, [], {}, [])
    keys = [text for text, _ in tree.keys(root, distance)]
    return Proof(distance, keys, tree.tree(root, distance), tree.main_line(root, distance))


def exercise_id(position: str) -> str:
    return "py-" + hashlib.sha256(position.encode()).hexdigest()[:12]


def difficulty_of(n: int, plausible: int, node: TouchNode, key: str) -> int:
    """1-10: three bands by N (1-3, 4-6, 7-10), raised by more plausible fields, an
    unseen joker (the defence to reckon with) and a joker or exchange key."""
    base = {1: 1, 2: 4, 3: 7}[n]
    extra = (plausible >= 4) + (node.unseen[JOKER] > 0) + (key.startswith(("XX", "tausch")))
    return min(base + extra, 3 * n + (n == 3))


def examine(view: str, max_n: int, max_nodes: int, min_n: int = 1) -> Exercise | None:
    """The exercise of ``view`` with ``min_n <= N <= max_n``, or ``None`` (see the
    module doc)."""
    node, pattern = node_of_view(notation.parse_view(view))
    problem = TouchInN(pattern)
    plausible = plausible_fields(problem, node)
    if len(plausible) < 2 and min_n < 3:
        return None  # N = 1 needs two plausible fields; N = 2 keeps that bar too
    try:
        search = ProofSearch(problem, max_nodes=max_nodes)
        if min_n > 1 and search.wins(with_budget(node, max_n), min_n - 1):
            return None
        claim = prove(problem, node, max_n, search.wins)
        if claim.distance is None or len(claim.keys) != 1:
            return None
        check = prove(problem, node, max_n, ProofCheck(problem, max_nodes=20 * max_nodes).wins)
    except ProofLimit:
        return None
    if check != claim:
        return None
    key = claim.keys[0]
    n = claim.distance
    return Exercise(
        id=exercise_id(view),
        position=view,
        n=n,
        key=key,
        line=claim.line,
        solution=claim.tree,
        tags=tags_of(problem, node, key, n),
        difficulty=difficulty_of(n, len(plausible), node, key),
        pattern=pattern.value,
    )


def earlier_views(position: str) -> Iterator[str]:
    """The view one turn of P's earlier, as far as it can be told: for each of P's
    pyramids in a placement two actions from complete (field order), that pyramid lifted
    and its card back in P's hand from the discard pile, a card of P's with no live
    field going to the discard pile instead (card counts stay exact).  Where the view
    was a sure Touché in 2, its earlier view is often one in 3: the seed of N = 3."""
    view = notation.parse_view(position)
    node, pattern = node_of_view(view)
    team = view.config.team_of(view.seat)
    live = live_placements(pattern, node.mine, node.crowned, 2)
    spare = [k for k in view.hand if k != JOKER and not CARD_MASK[k] & live]
    if not spare:
        return
    for f in mask_fields(node.mine & live):
        card = FIELD_CARD[f]
        if card not in view.discard:
            continue
        hand = list(view.hand)
        hand.remove(spare[0])
        discard = list(view.discard)
        discard.remove(card)
        own = list(view.own)
        own[team] &= ~(1 << f)
        earlier = replace(
            view,
            hand=tuple(sorted([*hand, card])),
            discard=(*discard, spare[0]),
            own=tuple(own),
        )
        yield notation.format_view(earlier)


@dataclass
class Kept:
    """What mining has kept so far: exercises by their board-and-hand class (in the
    order kept), the keys seen (one idea is kept once) and the count per N."""

    found: dict[str, Exercise] = field(default_factory=dict)
    ideas: set[str] = field(default_factory=set)
    counts: dict[int, int] = field(default_factory=dict)

    def full(self, max_n: int, per_n: int | None) -> bool:
        """Every N up to ``max_n`` has ``per_n`` (never with no ``per_n``)."""
        return per_n is not None and all(
            self.counts.get(n, 0) >= per_n for n in range(1, max_n + 1)
        )


Examine = Callable[[str, int, int, int], "Exercise | None"]
""":func:`examine` or a stand-in with the same answers (a cache of a worker's work)."""


def dedup_of(node: TouchNode) -> str:
    """The class an exercise is kept once per: P's and the others' fields, the crowned
    ones and P's hand."""
    return f"{node.mine}/{node.theirs}/{node.crowned}/{node.hand}"


def take_view(
    view: str,
    kept: Kept,
    max_n: int,
    max_nodes: int,
    per_n: int | None = None,
    progress: Callable[[str], None] | None = None,
    examine_view: Examine = examine,
    only_n: int | None = None,
    built_for: str | None = None,
) -> None:
    """Examine one candidate view and keep what it gives (see :func:`mine`): with
    ``only_n`` for that N alone; a view built for the key ``built_for`` not at all
    when that idea is kept already (its examination is the costly kind)."""
    if built_for is not None and built_for in kept.ideas:
        return

    def wanted_for(node: TouchNode) -> list[int]:
        wanted = [n for n in range(1, max_n + 1) if per_n is None or kept.counts.get(n, 0) < per_n]
        return [n for n in wanted if n == 1] if node.unseen[JOKER] else wanted

    def keep(exercise: Exercise, dedup: str) -> None:
        if exercise.key in kept.ideas:
            return  # the same idea a few moves earlier or later, or at another N
        kept.ideas.add(exercise.key)
        kept.counts[exercise.n] = kept.counts.get(exercise.n, 0) + 1
        kept.found[dedup] = exercise
        if progress:
            progress(f"N={exercise.n} key={exercise.key} tags={','.join(exercise.tags)}")

    node, _ = node_of_view(notation.parse_view(view))
    dedup = dedup_of(node)
    wanted = wanted_for(node)
    if only_n is not None:
        wanted = [n for n in wanted if n == only_n]
    if dedup in kept.found or not wanted:
        return
    low = min(wanted)
    if max(wanted) >= 3 and only_n is None:
        low = min(low, 2)  # a Touché in 2 seeds the earlier views
    exercise = examine_view(view, max(wanted), max_nodes, low)
    if exercise is None:
        return
    if exercise.n == 2 and 3 in wanted:
        for earlier in earlier_views(exercise.position):
            before, _ = node_of_view(notation.parse_view(earlier))
            if dedup_of(before) in kept.found or 3 not in wanted_for(before):
                continue
            deeper = examine_view(earlier, 3, max_nodes, 3)
            if deeper is not None:
                keep(deeper, dedup_of(before))
    if exercise.n in wanted_for(node):
        keep(exercise, dedup)


def mine(
    seed: str,
    candidates: int,
    max_n: int,
    max_nodes: int,
    per_n: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[Exercise]:
    """Exercises from ``candidates`` seeded states, deduplicated by board and hand,
    and by the key (the same idea a move later, or at another N), at most ``per_n``
    for each N; sorted by N, then difficulty, then id.  ``progress`` hears every
    exercise kept and the counts every 25 rounds.

    A view in which P has not seen every joker is examined for N = 1 only: the
    opponent's joker lifts any pyramid, so a sure Touché in 2 or 3 is rare there and
    its search is long (in trial runs every N = 2 found had every joker seen).  Once
    every N up to ``max_n`` but one has its ``per_n``, only that N is examined.  With
    ``max_n`` 3, every Touché in 2 found (kept or not) also has its
    :func:`earlier_views` examined for N = 3 right after it, and every view is
    followed by its :func:`lifted_views` (only with ``max_n`` 3: they are built for
    N = 3): states of play alone gave one Touché in 3 in 5,600 views.  Each round's
    views of play also have their :func:`safe_field_views` built (with ``max_n`` 3),
    examined after the round's other views and for N = 3 only.

    ``fechtbuch pyramiden mine`` runs the same steps (:func:`take_round`) in the
    generic mining loop, a round per candidate state pair
    (:mod:`fechtbuch.puzzles.touche_pyramiden.minekind`)."""
    kept = Kept()
    for number, round_views in enumerate(candidate_rounds(seed, candidates, max_n >= 3), 1):
        if kept.full(max_n, per_n):
            break
        take_round(round_views, kept, max_n, max_nodes, per_n, progress)
        if progress and number % 25 == 0:
            progress(
                f"{number} rounds examined: "
                + ", ".join(f"N={n}: {kept.counts.get(n, 0)}" for n in range(1, max_n + 1))
            )
    return sorted(kept.found.values(), key=lambda e: (e.n, e.difficulty, e.id))


def take_round(
    round_views: RoundViews,
    kept: Kept,
    max_n: int,
    max_nodes: int,
    per_n: int | None = None,
    progress: Callable[[str], None] | None = None,
    examine_view: Examine = examine,
) -> None:
    """:func:`take_view` for each view of one round until the pool is full: the
    views of play first, then the built ones (for N = 3 only)."""
    for view in round_views.views:
        if kept.full(max_n, per_n):
            return
        take_view(view, kept, max_n, max_nodes, per_n, progress, examine_view)
    for view, key in round_views.built:
        if kept.full(max_n, per_n):
            return
        take_view(view, kept, max_n, max_nodes, per_n, progress, examine_view, 3, key)
