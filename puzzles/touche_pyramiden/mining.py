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

from fechtbuch.engines.touche_pyramiden import GAME, notation
from fechtbuch.engines.touche_pyramiden.board import (
    CARD_FIELDS,
    CARD_MASK,
    FIELD_CARD,
    FREE_MASK,
    JOKER,
)
from fechtbuch.engines.touche_pyramiden.patterns import USABLE, mask_fields
from fechtbuch.engines.touche_pyramiden.players import policy_mittel
from fechtbuch.engines.touche_pyramiden.reachable import reachability_problem
from fechtbuch.engines.touche_pyramiden.sampling import random_action
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
from fechtbuch.puzzles.touche_pyramiden.motifs import CATALOGUE_V1, PyramidFacts
from fechtbuch.puzzles.touche_pyramiden.tree import PackTree
from fechtbuch.puzzles.touche_pyramiden.witnesses import (
    Slot,
    Trail,
    dealt,
    held_slot,
    moved_card,
    played_trails,
    provenance,
    replay_view,
    swapped,
    unseen_slots,
)
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.andor_verifier import ProofCheck


@dataclass(frozen=True)
class MinedPuzzle:
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
    witness: dict | None = None
    """The round that reaches the position (:class:`~fechtbuch.puzzles.touche_pyramiden.
    witnesses.Trail`): its deal and the actions since; every kept exercise has one."""

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
    """The exercise's tags (motif catalogue version 1)."""
    return CATALOGUE_V1.tags_of_facts(PyramidFacts(problem, node, key, n))


def jokers_seen(state: State, trail: Trail) -> Trail | None:
    """The round of ``state`` (``trail``) played again with every joker P has not seen
    in the place of a card P has: each unseen joker (in the opponent's hand, then P's
    pile, then the opponent's pile) changes places in the deal with the card of the
    latest placement not yet changed, which is made with the joker on the same field
    instead.  The board stays, the card goes where the joker was (unseen), and the
    round is replayed; ``None`` if no joker is unseen, a card to change is not a plain
    placement, or the replay fails.  Without an unseen joker the opponent cannot lift
    a pyramid, so double threats decide and N = 2, 3 exercises become common."""
    p = state.to_move
    q = 1 - p
    spare = [i for i, k in enumerate(state.discard) if k != JOKER]
    changed = 0
    while True:
        # slots are looked up again after each change: a hand's slots follow its
        # sorted order, which a card changing places can reorder
        origin = provenance(trail)
        piles = [dealt(trail.start, s)[origin.drawn[s] :] for s in (0, 1)]
        jokers: list[Slot] = [
            (q, slot) for slot in origin.held[q] if dealt(trail.start, q)[slot] == JOKER
        ]
        for seat in (p, q):
            jokers += [
                (seat, origin.drawn[seat] + i) for i, k in enumerate(piles[seat]) if k == JOKER
            ]
        if not jokers:
            break
        if not spare:
            return None
        index, slot = origin.played[spare.pop()]
        action = trail.actions[index]
        if action.kind is not Kind.PLACE:
            return None
        actions = list(trail.actions)
        actions[index] = Action(Kind.JOKER_PLACE, JOKER, action.field)
        trail = Trail(swapped(trail.start, slot, jokers[0]), tuple(actions))
        changed += 1
    if not changed or trail.replay() is None:
        return None
    return trail


def _threat_policy(state: State, actions: list, rng: HashStream):
    if state.phase is Phase.PLAY and rng.below(10) < 7:
        return policy_mittel(state, actions)[0]
    return random_action(state, actions, rng)


def threat_states(count: int, label: str) -> Iterator[tuple[State, Trail]]:
    """States of seeded two-player games in which both seats mostly play the greedy
    threat builder (``mittel``'s policy, seen on the full state) and now and then a
    random action: boards with the near-complete placements that exercises need,
    which purely random play rarely builds.  Each with its round's trail."""
    return played_trails(
        2, count, HashStream(f"threats/{label}"), lambda g: f"{label}-{g}", _threat_policy
    )


def random_trails(count: int, label: str) -> Iterator[tuple[State, Trail]]:
    """``sampling.random_states(2, count, label)`` with each state's round trail."""
    return played_trails(
        2, count, HashStream(f"states/{label}/2"), lambda g: f"{label}-2-{g}", random_action
    )


MINED_BY = "touche-pyramiden/random-and-threats"
"""The pack's ``mined_by``: the policies that play the candidate games, by their role
(half the rounds uniform random play, half the threat builder of
:func:`threat_states`; neither is a frozen copy: a change of ``mittel``'s greedy
policy changes the candidates)."""


@dataclass(frozen=True)
class RoundViews:
    """The candidate views of one round: ``views`` are examined for every N still
    wanted, ``built`` (:func:`safe_field_views`: view and the key it was built for)
    for N = 3 only."""

    views: tuple[str, ...]
    built: tuple[tuple[str, str], ...] = ()
    trails: dict[str, Trail] = field(default_factory=dict)
    """The round that reaches each view (its witness game)."""


def candidate_rounds(seed: str, count: int, deep: bool = False) -> Iterator[RoundViews]:
    """The candidate views of each of ``count`` pairs of states (one of random play,
    one of threat-building play, the same index in each): two-player PLAY views of the
    seat to move, each followed by its variant with every unseen joker made seen
    (:func:`jokers_seen`; after it: an exercise found in the state itself is the one
    kept).  With ``deep`` (mining N = 3) each view is followed by its
    :func:`lifted_views` (views of play alone gave one Touché in 3 in 5,600), and the
    round's views of play have their :func:`safe_field_views` built.  Every view comes
    with the round that reaches it.  Pair ``i`` does not depend on ``count``."""
    label = f"pyramiden-mine-{seed}"
    sources = (random_trails(count, label), threat_states(count, label))
    for pair in zip(*sources, strict=False):
        views: list[str] = []
        built: list[tuple[str, str]] = []
        trails: dict[str, Trail] = {}
        for state, trail in pair:
            if state.phase is Phase.PLAY and state.pattern is not None:
                found = [(notation.format_view(notation.view_of(state, state.to_move)), trail)]
                variant = jokers_seen(state, trail)
                made = None if variant is None else replay_view(variant)
                if made is not None:
                    found.append(made)
                for view, reached in found:
                    views.append(view)
                    trails.setdefault(view, reached)
                    if deep:
                        for earlier, lifted in lifted_views(view, reached):
                            views.append(earlier)
                            trails.setdefault(earlier, lifted)
                        for text, key, safe in safe_field_views(view, reached):
                            if (text, key) not in built:
                                built.append((text, key))
                                trails.setdefault(text, safe)
        yield RoundViews(tuple(views), tuple(built), trails)


def candidate_views(seed: str, count: int, deep: bool = False) -> Iterator[str]:
    """The ``views`` of :func:`candidate_rounds`, one after the other (not the built ones)."""
    for round_views in candidate_rounds(seed, count, deep):
        yield from round_views.views


LIFTS = (1, 2)
"""How many of P's pyramids :func:`lifted_views` takes back at a time."""


def lifted_views(position: str, trail: Trail) -> Iterator[tuple[str, Trail]]:
    """Views a turn or two of P's earlier than ``position``, built around a placement
    P now has at most one field short: for each placement (in mask order) and each set
    of :data:`LIFTS` of P's pyramids on its card fields (field order), the round
    played again with those pyramids never placed: each card P placed there changes
    places in the deal with a card P holds that has no field in the placement (the
    first in card order), which P plays at that turn instead (on its first field that
    is empty then, else exchanged if it is dead), so the card is back in P's hand.  P
    then has two or three fields of one placement to fill while the opponent replies:
    the double threats, blocks and order of play that Touché in 3 is made of.
    Nothing is yielded for a view with an unseen joker (the opponent's joker lifts a
    pyramid: a sure Touché in 3 is all but impossible there).  Distinct texts, each
    with its trail, deterministic."""
    view = notation.parse_view(position)
    node, pattern = node_of_view(view)
    if node.unseen[JOKER]:
        return
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
                earlier = _lift(trail, view.seat, lifted, spare[:lifts])
                if earlier is not None and earlier[0] not in made:
                    made.add(earlier[0])
                    yield earlier


def _lift(
    trail: Trail, seat: int, fields: Sequence[int], spare: Sequence[int]
) -> tuple[str, Trail] | None:
    """``trail`` played again with ``seat``'s pyramids on ``fields`` never placed, a
    card of ``spare`` played in the place of each (see :func:`lifted_views`)."""
    for field_, card in zip(fields, spare, strict=True):
        origin = provenance(trail)
        touching = [
            (at, index)
            for at, (index, _) in enumerate(origin.played)
            if trail.actions[index].field == field_
        ]
        # the pyramid standing there: the last action on the field, a placement of seat's
        if not touching:
            return None
        at, index = touching[-1]
        action = trail.actions[index]
        into = held_slot(trail, origin, seat, card)
        if action.kind not in (Kind.PLACE, Kind.JOKER_PLACE) or into is None:
            return None
        if origin.played[at][1][0] != seat:
            return None
        for edited in moved_card(trail, origin, at, into):
            if edited.replay() is not None:
                trail = edited
                break
        else:
            return None
    return replay_view(trail)


def safe_field_views(position: str, trail: Trail) -> Iterator[tuple[str, str, Trail]]:
    """Views built for Touché in 3 from ``position`` around a *safe field*, one the
    opponent cannot take because it has seen every copy of its card (and every joker).

    For each placement (mask order) with one free field that P's pyramids fill but for
    the free field and two card fields ``a`` and ``b`` (neither the opponent's nor
    crowned), in both orders, the round is played again (its trail edited): P is
    dealt the cards of ``a`` and ``b`` it lacks (each changes places in the deal with
    P's first card in hand order that is not a joker or one of the two, taken from an
    unseen copy: a pile's undrawn cards first), and every unseen copy of ``b``'s card
    is played instead of the first card on the discard pile that is not a joker and
    has no field in the placement (the two change places in the deal; the copy goes
    on ``b``'s other field, or is exchanged if it is dead then).  ``a``'s card must
    stay unseen.  P then wins in 3 by taking ``a`` first (the opponent's reply can
    block only ``a``), then ``b``, then the free field, which the opponent may take
    only to complete its own pattern; taking ``b`` first lets the opponent block
    ``a``, so the key is unique.  Built only where no joker is unseen and the opponent
    has no placement it could complete with two actions (its threats would cost P a
    turn), so the prover usually confirms it; it decides every claim.  Yields each
    view with the key it is built for (taking ``a``) and its trail; distinct texts,
    deterministic.
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
            built = _with_safe_field(view, trail, mask, a, b)
            if built is not None and built[0] not in made:
                made.add(built[0])
                key = notation.format_action(Action(Kind.PLACE, FIELD_CARD[a], a))
                yield built[0], key, built[1]


def _with_safe_field(
    view: notation.View, trail: Trail, mask: int, a: int, b: int
) -> tuple[str, Trail] | None:
    """The round of ``view`` played again with P holding the cards of ``a`` and ``b``
    and every copy of ``b``'s seen (see :func:`safe_field_views`), or ``None``."""
    card_a, card_b = FIELD_CARD[a], FIELD_CARD[b]
    seat = view.seat
    hand = list(view.hand)
    for card in (card_a, card_b):
        if card in hand:
            continue
        spare = [k for k in hand if k not in (card_a, card_b, JOKER)]
        origin = provenance(trail)
        unseen = unseen_slots(trail, origin, seat, card)
        mine = held_slot(trail, origin, seat, spare[0]) if spare else None
        if not unseen or mine is None:
            return None
        trail = Trail(swapped(trail.start, mine, unseen[0]), trail.actions)
        hand.remove(spare[0])
        hand.append(card)
    other = next(f for f in CARD_FIELDS[card_b] if f != b)
    while True:
        origin = provenance(trail)
        unseen = unseen_slots(trail, origin, seat, card_b)
        if not unseen:
            break
        discard = [dealt(trail.start, s)[q] for _, (s, q) in origin.played]
        for at, card in enumerate(discard):
            if card == JOKER or CARD_MASK[card] & mask:
                continue
            fields = () if mask >> other & 1 else (other,)
            edited = next(
                (t for t in moved_card(trail, origin, at, unseen[0], fields) if t.replay()),
                None,
            )
            if edited is not None:
                trail = edited
                break
        else:
            return None
    made = replay_view(trail)
    if made is None:
        return None
    node, _ = node_of_view(notation.parse_view(made[0]))
    if not node.unseen[card_a] or node.mine & mask != mask & ~(1 << a | 1 << b) & ~FREE_MASK:
        return None  # a safe too (either order would win), or the placement changed
    if (node.mine | node.theirs | node.crowned) & (1 << a | 1 << b):
        return None
    return made


def reachable(position: str) -> bool:
    """Whether ``position`` passes the reachability test of
    :mod:`fechtbuch.engines.touche_pyramiden.reachable` (necessary for any position of
    real play; mining runs it on every candidate before a proof, and the witness game
    shows the rest)."""
    return reachability_problem(notation.parse_view(position)) is None


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


def puzzle_id(position: str) -> str:
    return "py-" + hashlib.sha256(position.encode()).hexdigest()[:12]


def difficulty_of(n: int, plausible: int, node: TouchNode, key: str) -> int:
    """1-10: three bands by N (1-3, 4-6, 7-10), raised by more plausible fields, an
    unseen joker (the defence to reckon with) and a joker or exchange key."""
    base = {1: 1, 2: 4, 3: 7}[n]
    extra = (plausible >= 4) + (node.unseen[JOKER] > 0) + (key.startswith(("XX", "tausch")))
    return min(base + extra, 3 * n + (n == 3))


def examine(view: str, max_n: int, max_nodes: int, min_n: int = 1) -> MinedPuzzle | None:
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
    return MinedPuzzle(
        id=puzzle_id(view),
        position=view,
        n=n,
        key=key,
        line=claim.line,
        solution=claim.tree,
        tags=tags_of(problem, node, key, n),
        difficulty=difficulty_of(n, len(plausible), node, key),
        pattern=pattern.value,
    )


def earlier_views(position: str, trail: Trail) -> Iterator[tuple[str, Trail]]:
    """The view one turn of P's earlier, as far as it can be told: for each of P's
    pyramids in a placement two actions from complete (field order), the round played
    again without it (its card changes places in the deal with P's first card that
    has no live field, which P plays at that turn instead; see :func:`lifted_views`),
    so its card is back in P's hand.  Where the view was a sure Touché in 2, its
    earlier view is often one in 3: the seed of N = 3."""
    view = notation.parse_view(position)
    node, pattern = node_of_view(view)
    live = live_placements(pattern, node.mine, node.crowned, 2)
    spare = [k for k in view.hand if k != JOKER and not CARD_MASK[k] & live]
    if not spare:
        return
    for f in mask_fields(node.mine & live):
        earlier = _lift(trail, view.seat, (f,), spare[:1])
        if earlier is not None:
            yield earlier


@dataclass
class Kept:
    """What mining has kept so far: exercises by their board-and-hand class (in the
    order kept), the keys seen (one idea is kept once) and the count per N."""

    found: dict[str, MinedPuzzle] = field(default_factory=dict)
    ideas: set[str] = field(default_factory=set)
    counts: dict[int, int] = field(default_factory=dict)

    def full(self, max_n: int, per_n: int | None) -> bool:
        """Every N up to ``max_n`` has ``per_n`` (never with no ``per_n``)."""
        return per_n is not None and all(
            self.counts.get(n, 0) >= per_n for n in range(1, max_n + 1)
        )


DEEP_TAG_CAP = 4
"""At most this many exercises with N = 3 share a tag (but for :data:`DEEP_TAGS_EVERY`):
built views repeat one motif readily (the pack of session 4 had six safe-field views
of one board among its twelve N = 3)."""
DEEP_TAGS_EVERY = frozenset({"in-3", "joker-defence-exhausted"})
"""Tags every N = 3 exercise has (views with an unseen joker are examined for N = 1
only), so no cap applies to them."""


def full_tag(kept: Kept, tag: str) -> bool:
    """Whether :data:`DEEP_TAG_CAP` exercises with N = 3 carry ``tag`` already."""
    return sum(e.n == 3 and tag in e.tags for e in kept.found.values()) >= DEEP_TAG_CAP


def crowded(kept: Kept, exercise: MinedPuzzle) -> bool:
    """Whether keeping ``exercise`` (N = 3) would give one of its tags more than
    :data:`DEEP_TAG_CAP` exercises with N = 3."""
    deep = [e for e in kept.found.values() if e.n == 3]
    return any(
        sum(tag in e.tags for e in deep) >= DEEP_TAG_CAP
        for tag in exercise.tags
        if tag not in DEEP_TAGS_EVERY
    )


Examine = Callable[[str, int, int, int], "MinedPuzzle | None"]
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
    trail: Trail | None = None,
) -> None:
    """Examine one candidate view and keep what it gives (see :func:`mine`): with
    ``only_n`` for that N alone; a view built for the key ``built_for`` not at all
    when that idea is kept already (its examination is the costly kind).  Only a
    view with the ``trail`` of a round that reaches it from a start the game accepts
    (``start_problem``: not after a round without a point) is examined, and only when
    it passes the reachability test (:func:`reachable`) too; the exercise carries the
    trail as its witness."""
    if built_for is not None and built_for in kept.ideas:
        return
    if trail is None or GAME.start_problem(trail.start) is not None or not reachable(view):
        return

    def wanted_for(node: TouchNode) -> list[int]:
        wanted = [n for n in range(1, max_n + 1) if per_n is None or kept.counts.get(n, 0) < per_n]
        return [n for n in wanted if n == 1] if node.unseen[JOKER] else wanted

    def keep(exercise: MinedPuzzle, dedup: str, reached: Trail) -> None:
        if exercise.key in kept.ideas:
            return  # the same idea a few moves earlier or later, or at another N
        if exercise.n == 3 and crowded(kept, exercise):
            return
        exercise = replace(exercise, witness=reached.witness())
        kept.ideas.add(exercise.key)
        kept.counts[exercise.n] = kept.counts.get(exercise.n, 0) + 1
        kept.found[dedup] = exercise
        if progress:
            progress(f"N={exercise.n} key={exercise.key} tags={','.join(exercise.tags)}")

    node, pattern = node_of_view(notation.parse_view(view))
    dedup = dedup_of(node)
    wanted = wanted_for(node)
    if only_n is not None:
        wanted = [n for n in wanted if n == only_n]
    if wanted == [3] and full_tag(kept, pattern.value):
        wanted = []  # its N = 3 would carry a tag that has its four already
    if built_for is not None and full_tag(kept, "safe-field"):
        # the built views are made for the safe field; once four are kept, proving
        # them (a whole tree each time one is confirmed) is the cost of mining
        wanted = []
    if dedup in kept.found or not wanted:
        return
    low = min(wanted)
    if max(wanted) >= 3 and only_n is None:
        low = min(low, 2)  # a Touché in 2 seeds the earlier views
    exercise = examine_view(view, max(wanted), max_nodes, low)
    if exercise is None:
        return
    if exercise.n == 2 and 3 in wanted:
        for earlier, lifted in earlier_views(exercise.position, trail):
            before, _ = node_of_view(notation.parse_view(earlier))
            if dedup_of(before) in kept.found or 3 not in wanted_for(before):
                continue
            if not reachable(earlier):
                continue
            deeper = examine_view(earlier, 3, max_nodes, 3)
            if deeper is not None:
                keep(deeper, dedup_of(before), lifted)
    if exercise.n in wanted_for(node):
        keep(exercise, dedup, trail)


def mine(
    seed: str,
    candidates: int,
    max_n: int,
    max_nodes: int,
    per_n: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[MinedPuzzle]:
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
    trails = round_views.trails
    for view in round_views.views:
        if kept.full(max_n, per_n):
            return
        take_view(
            view, kept, max_n, max_nodes, per_n, progress, examine_view, trail=trails.get(view)
        )
    for view, key in round_views.built:
        if kept.full(max_n, per_n):
            return
        take_view(
            view, kept, max_n, max_nodes, per_n, progress, examine_view, 3, key, trails.get(view)
        )
