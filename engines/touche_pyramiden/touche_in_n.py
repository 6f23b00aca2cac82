""" "Touché in N" for two players: the public-state AND/OR view of the player to move.

The attacker P is the seat to move of a two-player PLAY state.  A node holds only
what P knows: the board, P's hand, the multiset of *unseen* cards (the deck minus
P's hand minus the discard pile), the opponent's hand size and both pile sizes.
The adversary plays both chance and the opponent:

* whenever P draws, the adversary picks the card from the unseen ones (an AND node
  per card drawn);
* whenever the opponent acts, it may play any unseen card (jokers included) that a
  hand of its size could hold, exchange one unseen dead card, or pass with an empty
  hand; a completion of its own is a loss for P and is decided at once.

docs/touche-pyramiden.md ("Touché in N") explains why a win in this view is
exactly a win "whatever the opponent holds and draws".  Every P action spends one
of the N turns (``counts_turn`` keeps the default), so the generic df-pn closes the
last defence at once.

Nodes are small immutable values (:class:`TouchNode`); the unseen multiset is a
``bytes`` of 53 counts, whose hash Python caches.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import AndOrProblem, Outcome
from fechtbuch.engines.touche_pyramiden import notation
from fechtbuch.engines.touche_pyramiden.board import (
    ALL_MASK,
    CARD_FIELD_MASK,
    CARD_FIELDS,
    CARD_MASK,
    FIELD_CARD,
    FREE_MASK,
    JOKER,
    KINDS,
    card_text,
    field_name,
    full_deck,
)
from fechtbuch.engines.touche_pyramiden.patterns import THROUGH, USABLE, Pattern, mask_fields
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase

P_TO_ACT = 0
P_DRAWS = 1
OPP_TO_ACT = 2
WON = 3
LOST = 4

PHASE_NAMES = {
    P_TO_ACT: "p",
    P_DRAWS: "zieht",
    OPP_TO_ACT: "gegner",
    WON: "gewonnen",
    LOST: "verloren",
}


class TouchViewError(InputError):
    """A view that is not a two-player PLAY position of the seat to move."""


@dataclass(frozen=True)
class TouchNode:
    """One node of the public-state view (what P knows, plus whose turn it is)."""

    mine: int
    """P's (team's) pyramids."""
    theirs: int
    """The opponent's pyramids."""
    crowned: int
    hand: tuple[int, ...]
    """P's hand, sorted card kinds."""
    unseen: bytes
    """Count per card kind (53) of the cards P has not seen: the opponent's hand and
    pile and P's own pile."""
    opp_hand: int
    my_pile: int
    opp_pile: int
    phase: int
    draws: int = 0
    """Cards P still draws (phase ``P_DRAWS``)."""
    passes: int = 0
    budget: int = 0
    """P's actions still allowed (the horizon of the question), or 0: not tracked.
    With a budget, :meth:`TouchInN.key` groups states that differ only in what can no
    longer matter within it (see :func:`grouped_key`); 0 keeps the exact key."""


@dataclass(frozen=True)
class Draw:
    """The adversary gives P this card from its pile."""

    card: int


NodeAction = Action | Draw


def format_node_action(action: NodeAction) -> str:
    """Actions in the game's notation; a draw as ``zieht:7H``."""
    if isinstance(action, Draw):
        return f"zieht:{card_text(action.card)}"
    return notation.format_action(action)


# ---- building the root ---------------------------------------------------------------
def node_of_view(view: notation.View) -> tuple[TouchNode, Pattern]:
    """The root node of ``view``: a two-player PLAY view of the seat to move."""
    if view.config.players != 2:
        raise TouchViewError(
            f"view: Touché in N is for two players, got spieler={view.config.players}"
        )
    if view.phase is not Phase.PLAY or view.pattern is None:
        raise TouchViewError("view: the round must be in play with its pattern chosen (muster=)")
    if view.seat != view.to_move:
        raise TouchViewError(
            f"view: sicht={view.seat} but zug={view.to_move}; P must be the seat to move"
        )
    counts = [0] * KINDS
    for k in full_deck():
        counts[k] += 1
    for k in view.hand + view.discard:
        counts[k] -= 1
    if min(counts) < 0:
        raise TouchViewError("view: hand and ablage hold more copies of a card than the deck")
    opp = 1 - view.seat
    node = TouchNode(
        mine=view.own[view.seat],
        theirs=view.own[opp],
        crowned=view.crowned,
        hand=tuple(sorted(view.hand)),
        unseen=bytes(counts),
        opp_hand=view.hand_sizes[opp],
        my_pile=view.pile_sizes[view.seat],
        opp_pile=view.pile_sizes[opp],
        phase=P_TO_ACT,
        passes=view.passes,
    )
    if sum(counts) != node.opp_hand + node.my_pile + node.opp_pile:
        raise TouchViewError("view: unseen cards do not match the hidden hand and pile sizes")
    return node, view.pattern


def parse_touch_view(text: str) -> tuple[TouchNode, Pattern, notation.View]:
    """A view (``sicht=``) or a full state (seen by its seat to move), as a root node."""
    if " sicht=" in text:
        view = notation.parse_view(text)
    else:
        state = notation.parse_state(text)
        view = notation.view_of(state, state.to_move)
    node, pattern = node_of_view(view)
    return node, pattern, view


# ---- the rules of the view --------------------------------------------------------------
def _completes(pattern: Pattern, own: int, field: int) -> bool:
    mine = own | (1 << field)
    for mask in THROUGH[pattern][field]:
        if mask & ~mine == 0:
            return True
    return False


@cache
def _sub_multisets(cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    found = set()
    for size in range(1, len(cards) + 1):
        found.update(combinations(cards, size))
    return tuple(sorted(found))


@lru_cache(maxsize=1 << 16)
def near_fields(pattern: Pattern, own: int, crowned: int) -> tuple[int, ...]:
    """The fields (not crowned) that each complete some placement of ``own`` alone."""
    out = set()
    for mask in USABLE[pattern]:
        missing = mask & ~own
        if missing and not missing & (missing - 1) and not missing & crowned:
            out.add(missing.bit_length() - 1)
    return tuple(sorted(out))


def opponent_can_complete(pattern: Pattern, node: TouchNode) -> bool:
    """Whether some hand of the opponent's size drawn from the unseen cards completes
    the pattern now (one field missing, and a card that may take it)."""
    if node.opp_hand == 0:
        return False
    unseen = node.unseen
    joker = unseen[JOKER] > 0
    for f in near_fields(pattern, node.theirs, node.crowned):
        if FREE_MASK >> f & 1:
            return True
        if joker or (not node.mine >> f & 1 and unseen[FIELD_CARD[f]]):
            return True
    return False


def opponent_action_count(node: TouchNode) -> int:
    """How many actions :meth:`TouchInN.children` lists for the opponent (without
    building them)."""
    if node.opp_hand == 0:
        return 1
    occ = node.mine | node.theirs | node.crowned
    empty = ALL_MASK & ~occ
    unseen = node.unseen
    count = 0
    for k in range(JOKER):
        if unseen[k]:
            free = CARD_MASK[k] & empty
            count += free.bit_count() if free else 1  # a dead card: its exchange
    if unseen[JOKER]:
        count += 2 * node.mine.bit_count() + (empty & CARD_FIELD_MASK).bit_count()
    return count


class TouchInN(AndOrProblem[TouchNode, NodeAction]):
    """The AND/OR problem of one round's pattern; P is the attacker."""

    def __init__(self, pattern: Pattern):
        self.pattern = pattern
        self.through = THROUGH[pattern]

    # ---- the seam ------------------------------------------------------------------
    def attacker_to_act(self, state: TouchNode) -> bool:
        return state.phase == P_TO_ACT

    def outcome(self, state: TouchNode) -> Outcome | None:
        if state.phase == WON:
            return Outcome.WIN
        if state.phase == LOST:
            return Outcome.LOSS
        return None

    def key(self, state: TouchNode) -> Hashable:
        if not state.budget:
            return state
        return grouped_key(self.pattern, state)

    def wins_at_once(self, state: TouchNode) -> bool:
        """P's hand completes a placement now (after pending draws too: they only add
        cards, and nothing of the opponent's comes between), or, at the opponent's
        turn, still does after every reply (a double threat it cannot stop)."""
        phase = state.phase
        if phase == P_TO_ACT:
            return completes_now(self.pattern, state)  # exact both ways
        if phase == P_DRAWS and completes_now(self.pattern, state):
            return True
        if phase == OPP_TO_ACT and completes_after_any_reply(self.pattern, state):
            return True
        return None

    def format_state(self, state: TouchNode) -> str:
        return format_node(state)

    def format_action(self, state: TouchNode, action: NodeAction) -> str:
        return format_node_action(action)

    def children(self, state: TouchNode) -> Sequence[tuple[NodeAction, TouchNode]]:
        phase = state.phase
        if phase == P_TO_ACT:
            return self._ordered(
                state, [(a, self._after_p(state, a)) for a in self.p_actions(state)]
            )
        if phase == P_DRAWS:
            return LazyChildren(lambda: iter(self._draws(state)), sum(1 for c in state.unseen if c))
        if phase == OPP_TO_ACT:
            return LazyChildren(lambda: self._opponent(state), opponent_action_count(state))
        return []

    # ---- P ---------------------------------------------------------------------------
    def _ordered(
        self, node: TouchNode, children: list[tuple[Action, TouchNode]]
    ) -> list[tuple[Action, TouchNode]]:
        """P's actions for the search: wins first, then by the threats they leave (the
        placements through the field one field short), so df-pn, which opens the first
        of equal children, tries the double threats that keys are made of first."""

        def threat_rank(item: tuple[Action, TouchNode]) -> int:
            action, child = item
            if child.phase == WON:
                return -1000
            if action.field < 0 or child.mine == node.mine:
                return 0
            mine = child.mine
            return -sum(1 for m in self.through[action.field] if (m & ~mine).bit_count() == 1)

        return sorted(children, key=threat_rank)

    def p_actions(self, node: TouchNode) -> list[Action]:
        """P's legal actions (the game's rules, in its canonical order)."""
        occ = node.mine | node.theirs | node.crowned
        empty = ALL_MASK & ~occ
        kinds = sorted(set(node.hand))
        out: list[Action] = []
        for k in kinds:
            if k == JOKER:
                continue
            for f in CARD_FIELDS[k]:
                if empty >> f & 1:
                    out.append(Action(Kind.PLACE, k, f))
        if JOKER in node.hand:
            out.extend(
                Action(Kind.JOKER_PLACE, JOKER, f) for f in mask_fields(empty & CARD_FIELD_MASK)
            )
            theirs = mask_fields(node.theirs)
            out.extend(Action(Kind.JOKER_REMOVE, JOKER, f) for f in theirs)
            out.extend(Action(Kind.JOKER_REPLACE, JOKER, f) for f in theirs)
        free = [f for f in mask_fields(FREE_MASK & empty) if _completes(self.pattern, node.mine, f)]
        out.extend(Action(Kind.FREE, k, f) for k in kinds for f in free)
        dead = tuple(k for k in node.hand if k != JOKER and CARD_MASK[k] & ~occ == 0)
        if dead:
            out.extend(Action(Kind.EXCHANGE, cards=c) for c in _sub_multisets(dead))
        if not out:
            out.append(Action(Kind.PASS))
        return out

    def completions(self, node: TouchNode) -> list[Action]:
        """P's actions that complete the pattern now (the children that are ``WON``,
        in no particular order), made from the near fields alone: a main line needs
        only the first of them, not the hundred children of a joker."""
        if not completes_now(self.pattern, node):
            return []
        occ = node.mine | node.theirs | node.crowned
        kinds = sorted(set(node.hand))
        joker = JOKER in node.hand
        out: list[Action] = []
        for f in near_fields(self.pattern, node.mine, node.crowned):
            if FREE_MASK >> f & 1:
                if not occ >> f & 1:
                    out.extend(Action(Kind.FREE, k, f) for k in kinds)
            elif node.theirs >> f & 1:
                if joker:
                    out.append(Action(Kind.JOKER_REPLACE, JOKER, f))
            elif not occ >> f & 1:
                if FIELD_CARD[f] in node.hand:
                    out.append(Action(Kind.PLACE, FIELD_CARD[f], f))
                if joker:
                    out.append(Action(Kind.JOKER_PLACE, JOKER, f))
        return out

    def _after_p(self, node: TouchNode, action: Action) -> TouchNode:
        kind = action.kind
        if kind is Kind.PASS:
            if node.passes + 1 >= 2:
                return _replace(node, phase=LOST)
            return self._to_opponent(_replace(node, draws=0), node.passes + 1)
        hand = list(node.hand)
        mine, theirs = node.mine, node.theirs
        if kind is Kind.EXCHANGE:
            for c in action.cards:
                hand.remove(c)
            drawn = min(len(action.cards), node.my_pile)
        else:
            hand.remove(action.card)
            drawn = min(1, node.my_pile)
            bit = 1 << action.field
            if kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE):
                theirs &= ~bit
            if kind is not Kind.JOKER_REMOVE:
                if _completes(self.pattern, mine, action.field):
                    return _replace(node, mine=mine | bit, theirs=theirs, phase=WON)
                mine |= bit
        after = TouchNode(
            mine,
            theirs,
            node.crowned,
            tuple(hand),
            node.unseen,
            node.opp_hand,
            node.my_pile,
            node.opp_pile,
            OPP_TO_ACT,
            drawn,
            0,
            max(node.budget - 1, 0),
        )
        return self._to_opponent(after, 0)

    def _draws(self, node: TouchNode) -> list[tuple[NodeAction, TouchNode]]:
        """The adversary picks P's next card.  P's draw is put after the opponent's
        reply: both are the adversary's, nothing of P's lies between them, and the
        pairs (draw, reply) open to it are the same in either order."""
        out = []
        unseen = node.unseen
        useful = completing_kinds(self.pattern, node)
        for k in sorted(range(KINDS), key=lambda k: k in useful):
            if not unseen[k]:
                continue
            hand = tuple(sorted(node.hand + (k,)))
            draws = node.draws - 1
            after = TouchNode(
                node.mine,
                node.theirs,
                node.crowned,
                hand,
                _less(unseen, k),
                node.opp_hand,
                node.my_pile - 1,
                node.opp_pile,
                P_DRAWS if draws else P_TO_ACT,
                draws,
                node.passes,
                node.budget,
            )
            out.append((Draw(k), after))
        return out

    def _to_opponent(self, node: TouchNode, passes: int) -> TouchNode:
        """The opponent's turn, with P's draws (``draws``) still to come after it."""
        after = node
        if node.phase != OPP_TO_ACT or node.passes != passes:
            after = _replace(node, phase=OPP_TO_ACT, passes=passes)
        if opponent_can_complete(self.pattern, after):
            return _replace(after, phase=LOST)
        if not after.opp_hand and not after.opp_pile and not after.hand and not after.my_pile:
            return _replace(after, phase=LOST)  # every card played: the round ends, no point
        return after

    # ---- the opponent (the adversary) ----------------------------------------------------
    def _opponent(self, node: TouchNode) -> Iterator[tuple[NodeAction, TouchNode]]:
        """Every action of some opponent hand drawn from the unseen cards.  Its own
        completions were decided on entry (``LOST``), so none is listed here."""
        if node.opp_hand == 0:
            passes = node.passes + 1
            if passes >= 2:
                yield Action(Kind.PASS), _replace(node, phase=LOST)
            else:
                yield (
                    Action(Kind.PASS),
                    self._to_p(node, node.unseen, node.theirs, node.mine, passes),
                )
            return
        occ = node.mine | node.theirs | node.crowned
        empty = ALL_MASK & ~occ
        unseen = node.unseen
        mine, theirs = node.mine, node.theirs
        joker = unseen[JOKER] > 0
        # blocks first (the fields that complete a placement of P's, then joker
        # removals): df-pn tries children in this order, and they refute most keys
        near = 0
        for f in near_fields(self.pattern, mine, node.crowned):
            near |= 1 << f
        near &= empty & CARD_FIELD_MASK
        for f in mask_fields(near):
            k = FIELD_CARD[f]
            if unseen[k]:
                after = self._to_p(node, _less(unseen, k), theirs | 1 << f, mine, 0)
                yield Action(Kind.PLACE, k, f), after
        if joker:
            less = _less(unseen, JOKER)
            for f in mask_fields(mine):
                bit = 1 << f
                yield (
                    Action(Kind.JOKER_REMOVE, JOKER, f),
                    self._to_p(node, less, theirs, mine & ~bit, 0),
                )
                yield (
                    Action(Kind.JOKER_REPLACE, JOKER, f),
                    self._to_p(node, less, theirs | bit, mine & ~bit, 0),
                )
            for f in mask_fields(near):
                yield (
                    Action(Kind.JOKER_PLACE, JOKER, f),
                    self._to_p(node, less, theirs | 1 << f, mine, 0),
                )
        for k in range(JOKER):
            if not unseen[k]:
                continue
            fields = [f for f in CARD_FIELDS[k] if empty >> f & 1 and not near >> f & 1]
            if not fields:
                continue
            less = _less(unseen, k)
            for f in fields:
                yield Action(Kind.PLACE, k, f), self._to_p(node, less, theirs | 1 << f, mine, 0)
        if joker:
            less = _less(unseen, JOKER)
            for f in mask_fields(empty & CARD_FIELD_MASK & ~near):
                yield (
                    Action(Kind.JOKER_PLACE, JOKER, f),
                    self._to_p(node, less, theirs | 1 << f, mine, 0),
                )
        for k in range(JOKER):
            if unseen[k] and CARD_MASK[k] & ~occ == 0:
                # one dead card exchanged stands for every exchange (docs: Touché in N)
                yield (
                    Action(Kind.EXCHANGE, cards=(k,)),
                    self._to_p(node, _less(unseen, k), theirs, mine, 0),
                )

    def _to_p(
        self, node: TouchNode, unseen: bytes, theirs: int, mine: int, passes: int
    ) -> TouchNode:
        """After an opponent action: a card played or exchanged is replaced from its
        pile (its hand keeps its size) or, with an empty pile, its hand shrinks; a pass
        (only with an empty hand) changes no count."""
        opp_hand, opp_pile = node.opp_hand, node.opp_pile
        if not passes:
            if opp_pile:
                opp_pile -= 1
            else:
                opp_hand -= 1
        after = TouchNode(
            mine,
            theirs,
            node.crowned,
            node.hand,
            unseen,
            opp_hand,
            node.my_pile,
            opp_pile,
            P_DRAWS if node.draws else P_TO_ACT,
            node.draws,
            passes,
            node.budget,
        )
        if not opp_hand and not opp_pile and not node.hand and not node.my_pile:
            return _replace(after, phase=LOST)  # every card played: the round ends, no point
        return after


class LazyChildren(Sequence):
    """Children made only as far as they are read.

    The generic deciders close a defender node with no attacker turn left by asking
    whether *every* reply is already won; here no reply of the adversary ever is, so
    the first reply answers and the other few hundred need not be built."""

    def __init__(self, make: Callable[[], Iterator], length: int | None):
        self._make = make
        self._length = length
        self._items: list | None = None

    def _all(self) -> list:
        if self._items is None:
            self._items = list(self._make())
        return self._items

    def __iter__(self):
        if self._items is not None:
            return iter(self._items)
        return self._make()

    def __len__(self) -> int:
        if self._length is None:
            self._length = len(self._all())
        return self._length

    def __getitem__(self, i):
        return self._all()[i]


@lru_cache(maxsize=1 << 16)
def _less(unseen: bytes, kind: int) -> bytes:
    counts = bytearray(unseen)
    counts[kind] -= 1
    return bytes(counts)


def _replace(node: TouchNode, **changes) -> TouchNode:
    values = dict(node.__dict__)
    values.update(changes)
    return TouchNode(**values)


def format_node(node: TouchNode) -> str:
    """A compact text of a node (for messages and main lines, not parsed back)."""
    board = notation.format_board((node.mine, node.theirs), node.crowned)
    hand = ",".join(card_text(k) for k in node.hand) or "-"
    return (
        f"{PHASE_NAMES[node.phase]} brett={board} hand={hand} gegner=#{node.opp_hand} "
        f"stapel=#{node.my_pile}/#{node.opp_pile} ungesehen=#{sum(node.unseen)}"
    )


def completes_now(pattern: Pattern, node: TouchNode) -> bool:
    """Whether P's hand completes a placement of ``pattern`` with one action now: a
    near field (:func:`near_fields`) that is free (any card), the opponent's (a joker
    replaces it) or empty with its card or a joker in the hand."""
    return _completes_with(pattern, node.mine, node.theirs, node.crowned, node.hand)


def _completes_with(pattern: Pattern, mine: int, theirs: int, crowned: int, hand) -> bool:
    if not hand:
        return False
    joker = hand[-1] == JOKER
    for f in near_fields(pattern, mine, crowned):
        if FREE_MASK >> f & 1 or joker:
            return True
        if not theirs >> f & 1 and FIELD_CARD[f] in hand:
            return True
    return False


def completes_after_any_reply(pattern: Pattern, node: TouchNode) -> bool:
    """At the opponent's turn (its own completion already ruled out): whether P's hand
    completes after every reply.  Only replies that touch P's near fields can change
    that: a card or joker on an empty near field, a joker lifting (or replacing) a
    pyramid of a placement one field short; every other reply leaves P's pyramids, the
    near fields and P's hand as they are."""
    if not completes_now(pattern, node):
        return False
    if node.opp_hand == 0:
        return True  # it can only pass
    unseen = node.unseen
    joker = unseen[JOKER] > 0
    mine, theirs = node.mine, node.theirs
    empty = ALL_MASK & ~(mine | theirs | node.crowned)
    for f in near_fields(pattern, mine, node.crowned):
        if empty >> f & 1 and not FREE_MASK >> f & 1 and (joker or unseen[FIELD_CARD[f]]):
            if not _completes_with(pattern, mine, theirs | 1 << f, node.crowned, node.hand):
                return False
    if joker:
        held = 0  # P's pyramids in a placement one field short
        for mask in USABLE[pattern]:
            missing = mask & ~mine
            if missing and not missing & (missing - 1) and not missing & node.crowned:
                held |= mask & mine
        for f in mask_fields(held):
            bit = 1 << f
            for after in (theirs, theirs | bit):  # lifted, or replaced by its own
                if not _completes_with(pattern, mine & ~bit, after, node.crowned, node.hand):
                    return False
    return True


def completing_kinds(pattern: Pattern, node: TouchNode) -> frozenset[int]:
    """Card kinds that would let P complete now if drawn (a joker always may)."""
    out = {JOKER}
    for f in near_fields(pattern, node.mine, node.crowned):
        if FREE_MASK >> f & 1:
            return frozenset(range(KINDS))
        out.add(FIELD_CARD[f])
    return frozenset(out)


# ---- grouping what cannot matter within the budget ---------------------------------------
BLANK = -1
"""A card of no live field, in a grouped key (:func:`grouped_key`)."""

RESERVE_PER_TURN = 6
"""Blank unseen cards needed per turn of budget before blanks are grouped (see
:func:`grouped_key`): P draws at most five cards a turn (an exchange of five dead
cards) and the opponent plays one."""


@lru_cache(maxsize=1 << 18)
def live_placements(pattern: Pattern, own: int, crowned: int, actions: int) -> int:
    """The union of every usable placement (no crowned field) that a colour holding
    ``own`` can still complete with ``actions`` actions (each adds one field: a card,
    a joker, a joker replacing the other colour's pyramid, the free field last)."""
    if actions <= 0:
        return 0
    out = 0
    for mask in USABLE[pattern]:
        if not mask & crowned and (mask & ~own).bit_count() <= actions:
            out |= mask
    return out


def live_fields(pattern: Pattern, node: TouchNode) -> int:
    """The fields that can matter within the node's budget: every placement P can
    complete with the actions left, and every placement the opponent can complete
    with the replies it makes before P's last action."""
    budget = node.budget
    replies = budget if node.phase == OPP_TO_ACT else budget - 1
    return live_placements(pattern, node.mine, node.crowned, budget) | live_placements(
        pattern, node.theirs, node.crowned, replies
    )


@lru_cache(maxsize=1 << 12)
def live_kinds(live: int) -> tuple[int, ...]:
    """The card kinds with a field in ``live`` (and the joker, always live)."""
    return tuple(k for k in range(JOKER) if CARD_MASK[k] & live) + (JOKER,)


def grouped_key(pattern: Pattern, node: TouchNode) -> Hashable:
    """The transposition key of a node with a budget: equal for nodes that differ only
    in what cannot matter before P's budget runs out.

    Outside the live fields (:func:`live_fields`) no placement can be completed by
    either colour in time, and an action there never makes one completable (it
    shortens a placement by one field while using one of the side's actions), so
    pyramids there and the identity of *blank* cards (no field live, not a joker) do
    not matter: a blank card is only ever a card to spend a turn with (placed outside,
    or exchanged when dead) or the "any card" of a free field.  The key keeps the live
    fields, both colours' pyramids on them, P's hand and the unseen cards with blanks
    counted, not named, and every count.  The one way the blanks' fields could still
    matter is an exchange of several dead cards at once, which draws several cards;
    while the adversary has blanks to give for every draw it can make within the
    budget (``RESERVE_PER_TURN`` per turn) such an exchange brings P only blanks, so
    below that reserve the exact node is the key.
    ``tests/unit/test_touche_pyramiden_touch_in_n.py`` checks grouped against exact keys
    on random views."""
    live = live_fields(pattern, node)
    kinds = live_kinds(live)
    all_unseen = node.unseen
    unseen = bytes([all_unseen[k] for k in kinds])
    blanks = sum(all_unseen) - sum(unseen)
    if blanks < RESERVE_PER_TURN * node.budget:
        return node
    hand = tuple(sorted(k if k == JOKER or CARD_MASK[k] & live else BLANK for k in node.hand))
    return (
        live,
        node.mine & live,
        node.theirs & live,
        hand,
        unseen,
        blanks,
        node.opp_hand,
        node.my_pile,
        node.opp_pile,
        node.phase,
        node.draws,
        node.passes,
        node.budget,
    )


def with_budget(node: TouchNode, turns: int) -> TouchNode:
    """``node`` as the root of a question about ``turns`` of P's actions (grouped keys)."""
    return _replace(node, budget=turns)


def threat_fields(pattern: Pattern, own: int, occupied: int) -> list[int]:
    """Empty fields that would complete a placement of ``own`` at once (for tags)."""
    out = set()
    for mask in USABLE[pattern]:
        missing = mask & ~own
        if missing and not missing & (missing - 1) and not missing & occupied:
            out.add(missing.bit_length() - 1)
    return sorted(out)


__all__ = [
    "Draw",
    "TouchInN",
    "TouchNode",
    "TouchViewError",
    "field_name",
    "format_node",
    "format_node_action",
    "node_of_view",
    "opponent_can_complete",
    "parse_touch_view",
    "threat_fields",
    "with_budget",
]
