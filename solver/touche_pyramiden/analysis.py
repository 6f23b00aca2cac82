"""Touché with pyramids' analysis after a game: the sure Touchés a player held.

For one decision of the seat to act, P, the question is: can P complete the round's
pattern within ``TURNS`` (2) of its own actions, whatever the other seats hold, draw
and play?  The answer lists every action that keeps such a Touché, so a decision is a
miss when P held one and its action was not among them.  Which question is asked
depends on the number of seats:

* **Two players**: the exercises' question (Touché in N,
  :mod:`fechtbuch.engines.touche_pyramiden.touche_in_n`), exact: the public-state
  prover with the opponent and every draw as the adversary, within two own actions.
* **Three to six players, teams too**: first the question that needs no model of the
  hidden cards at all, exact: does one of P's actions complete the pattern now (a
  Touché in 1)?  Only if none does, a sure Touché in 2 is looked for with every other
  seat as an adversary, in a view that gives the adversary more than it can have, so
  that a Touché proved there is sure in the game (:func:`sure_in_two`).

The node limit makes the answer the same on any machine; a question that reaches it
counts as no sure Touché.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fechtbuch.engines.game import Outcome
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.board import FIELD_CARD, FREE_MASK, JOKER, KINDS
from fechtbuch.engines.touche_pyramiden.determinise import determinise, unseen_cards
from fechtbuch.engines.touche_pyramiden.notation import View
from fechtbuch.engines.touche_pyramiden.patterns import THROUGH, USABLE, Pattern, mask_fields
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase
from fechtbuch.engines.touche_pyramiden.touche_in_n import (
    TouchInN,
    near_fields,
    node_of_view,
    with_budget,
)
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_prover import ProofSearch

TURNS = 2
"""Own actions within which a sure Touché is looked for (a Touché in 1 or in 2)."""
MAX_NODES = 20_000
"""Nodes one question may take before it counts as no sure Touché (the prover's nodes
for two players; for more seats the adversary's choices tried by :func:`sure_in_two`)."""

PLACING = (Kind.PLACE, Kind.JOKER_PLACE, Kind.JOKER_REMOVE, Kind.JOKER_REPLACE)
"""The first actions :func:`sure_in_two` tries (an exchange or a pass is not tried)."""


@dataclass(frozen=True)
class SureTouche:
    """A sure Touché the player to act held: in how many own actions at the fewest,
    and every action that keeps one within that many."""

    turns: int
    keys: tuple[Action, ...]


def askable(view: View) -> bool:
    """Whether a decision of ``view`` can be asked: the round in play with its pattern,
    and the viewer to act (any number of seats)."""
    return view.phase is Phase.PLAY and view.pattern is not None and view.seat == view.to_move


def sure_touche(view: View, turns: int = TURNS, max_nodes: int = MAX_NODES) -> SureTouche | None:
    """The fewest own actions (up to ``turns``) to a sure Touché of the seat to act in
    ``view`` with every action that keeps it, or ``None`` (none, or not askable).  Two
    players: the public-state prover; more seats: :func:`touches_now`, then
    :func:`sure_in_two` (see the module docstring)."""
    if not askable(view):
        return None
    if view.config.players == 2:
        return _two_players(view, turns, max_nodes)
    now = touches_now(view)
    if now:
        return SureTouche(1, now)
    if turns < 2:
        return None
    try:
        keys = sure_in_two(view, max_nodes)
    except ProofLimit:
        return None
    return SureTouche(2, keys) if keys else None


def _two_players(view: View, turns: int, max_nodes: int) -> SureTouche | None:
    node, pattern = node_of_view(view)
    problem = TouchInN(pattern)
    search = ProofSearch(problem, max_nodes=max_nodes)
    try:
        for n in range(1, turns + 1):
            root = with_budget(node, n)
            if not search.wins(root, n):
                continue
            held = tuple(
                action
                for action, child in problem.children(root)
                if problem.outcome(child) is Outcome.WIN or (n > 1 and search.wins(child, n - 1))
            )
            return SureTouche(n, held)
    except ProofLimit:
        pass
    return None


def touches_now(view: View) -> tuple[Action, ...]:
    """Every legal action of the seat to act that completes the round's pattern now (a
    Touché in 1), in the rules' order; it needs nothing of the hidden cards (a seat's
    own actions do not depend on the deal)."""
    state = determinise(view)
    return tuple(a for a in rules.legal_actions(state) if rules.crown_choices(state, a))


# ---- a sure Touché in 2 with every other seat as the adversary -----------------------
# After P's first action P draws (the adversary picks the card from the unseen ones);
# then every seat acts once until P's turn comes again.  A member of P's own team can
# only add P's team's pyramids, lift the opponents' or spend cards, none of which can
# take a completion from P, so the adversary lets it do nothing.  Each opposing seat
# with a card in hand is given more than it can have: any unseen card for each action
# (the unseen cards of P's own pile and of the other hands all count as its), so:
#
# * its team may complete a pattern (and P is not sure) whenever some placement lacks
#   at most as many of the team's fields as the team has actions before P's turn, each
#   such field takeable: by its card or a joker if empty, by a joker if another team's,
#   by any card if free;
# * otherwise only two of its actions can touch a completion of P's, and the adversary
#   is given only these: a pyramid on an empty field P would complete on (with that
#   field's card or a joker; never on a free field, and useless against P's joker,
#   which lifts it), or a joker lifting one of P's pyramids.  Any other action (a
#   pyramid elsewhere, an exchange, a pass) leaves P's completions as they are.
#
# P wins when, after every draw and every such series of actions, some card of its
# hand still completes a placement.  Cards are counted: the adversary's jokers and the
# copies of a field's card are the unseen ones.


@dataclass(frozen=True)
class _Option:
    """A completion P may play at its next action: the field it takes and the pyramids
    of P's that a placement through it needs (one of them each, ``supports``)."""

    field: int
    blockable: bool
    """Whether an opposing pyramid on ``field`` stops it (no joker in P's hand to lift
    it again; a free field cannot be blocked)."""
    supports: tuple[int, ...]


def sure_in_two(view: View, max_nodes: int = MAX_NODES) -> tuple[Action, ...]:
    """Every placing action (a card, or a joker placing or lifting) of the seat to act
    after which it completes the pattern at its next action for sure, with every other
    seat as an adversary given any unseen card (see the comment above); ``()`` if none.

    A Touché proved here is sure in the game: the adversary may do at least all that the
    other seats can.  The converse does not hold (a Touché in 2 that rests on what the
    other seats cannot hold is not found), nor is an exchange or a pass tried first.
    :class:`~fechtbuch.solver.andor.ProofLimit` after ``max_nodes`` adversary choices.
    """
    return _InTwo(view, max_nodes).keys()


class _InTwo:
    """One question of :func:`sure_in_two`: the view, the opposing seats' actions before
    P's next turn (per team), and the nodes left."""

    def __init__(self, view: View, max_nodes: int) -> None:
        assert view.pattern is not None
        self.view = view
        self.pattern = view.pattern
        self.crowned = view.crowned
        self.team = view.config.team_of(view.seat)
        self.acts = _opposing_actions(view)
        self.left = max_nodes

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise ProofLimit("sure Touche in 2: node limit")

    def keys(self) -> tuple[Action, ...]:
        view = self.view
        state = determinise(view)
        unseen = [0] * KINDS
        for k in unseen_cards(view):
            unseen[k] += 1
        keys = []
        for action in rules.legal_actions(state):
            if action.kind not in PLACING or rules.crown_choices(state, action):
                continue
            own = list(view.own)
            bit = 1 << action.field
            if action.kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE):
                own = [m & ~bit if t != self.team else m for t, m in enumerate(own)]
            if action.kind is not Kind.JOKER_REMOVE:
                own[self.team] |= bit
            hand = list(view.hand)
            hand.remove(action.card)
            if self.sure_after(tuple(own), hand, unseen):
                keys.append(action)
        return tuple(keys)

    def sure_after(self, own: tuple[int, ...], hand: list[int], unseen: list[int]) -> bool:
        """Whether P completes at its next action after every draw and every series of
        the opposing seats' actions, from the board ``own`` after P's first action."""
        # with every unseen card still the adversary's and no card drawn, P has the least
        # and the adversary the most: a win there is a win after every draw
        if self.holds(own, hand, unseen):
            return True
        if self.view.pile_sizes[self.view.seat] == 0:
            return False
        for card in range(KINDS):
            if unseen[card]:
                left = unseen.copy()
                left[card] -= 1
                if not self.holds(own, [*hand, card], left):
                    return False
        return True

    def holds(self, own: tuple[int, ...], hand: list[int], unseen: list[int]) -> bool:
        """P, with ``hand``, completes at its next action whatever the opposing seats do
        with ``unseen``."""
        self.spend()
        occupied = self.crowned
        for mask in own:
            occupied |= mask
        for other, count in self.acts.items():
            if self.may_complete(own[other], occupied, count, unseen):
                return False
        options = self.options(own[self.team], occupied, hand)
        if not options:
            return False
        spoil = _Spoil(self, options, unseen)
        return not spoil.stops(0, frozenset(), sum(self.acts.values()), unseen[JOKER], {})

    def may_complete(self, theirs: int, occupied: int, count: int, unseen: list[int]) -> bool:
        """Whether an opposing team with the pyramids ``theirs`` and ``count`` actions
        might complete a placement with any unseen cards before P's next turn."""
        joker = unseen[JOKER] > 0
        for missing in _close(self.pattern, theirs, self.crowned, count):
            for f in mask_fields(missing):
                if FREE_MASK >> f & 1:
                    continue  # free fields are empty until crowned: any card takes one
                if occupied >> f & 1:
                    if not joker:
                        break
                elif not (joker or unseen[FIELD_CARD[f]]):
                    break
            else:
                return True
        return False

    def options(self, mine: int, occupied: int, hand: list[int]) -> list[_Option]:
        """The completions P's ``hand`` offers with P's pyramids ``mine``."""
        if not hand:
            return []
        joker = JOKER in hand
        out = []
        for f in near_fields(self.pattern, mine, self.crowned):
            bit = 1 << f
            if FREE_MASK & bit:
                blockable = False
            elif occupied & bit:
                if not joker:
                    continue
                blockable = False  # another team's pyramid: P's joker lifts it and stays
            elif FIELD_CARD[f] in hand or joker:
                blockable = not joker
            else:
                continue
            through = THROUGH[self.pattern][f]
            supports = tuple(m & ~bit for m in through if m & ~(mine | bit) == 0)
            out.append(_Option(f, blockable, supports))
        return out


class _Spoil:
    """Whether the opposing seats' actions can stop every option of P's: a pyramid on a
    blockable field (its card while an unseen copy is left, else a joker: a card serves
    that field alone, a joker any) or a joker lifting one of P's pyramids.  The first
    option still open is stopped in one of the only ways it can be, so every way of
    stopping them all is tried."""

    def __init__(self, question: _InTwo, options: list[_Option], unseen: list[int]) -> None:
        self.question = question
        self.options = options
        self.unseen = unseen

    def stops(
        self, lifted: int, blocked: frozenset[int], moves: int, jokers: int, used: dict
    ) -> bool:
        self.question.spend()
        found = None
        for option in self.options:
            if option.field not in blocked:
                alive = [s for s in option.supports if not s & lifted]
                if alive:
                    found = (option, alive[0])
                    break
        if found is None:
            return True
        if moves == 0:
            return False
        option, support = found
        if option.blockable:
            card = FIELD_CARD[option.field]
            now = blocked | {option.field}
            if self.unseen[card] > used.get(card, 0):
                if self.stops(
                    lifted, now, moves - 1, jokers, {**used, card: used.get(card, 0) + 1}
                ):
                    return True
            elif jokers and self.stops(lifted, now, moves - 1, jokers - 1, used):
                return True
        if jokers:
            for f in mask_fields(support):
                if self.stops(lifted | 1 << f, blocked, moves - 1, jokers - 1, used):
                    return True
        return False


def _opposing_actions(view: View) -> dict[int, int]:
    """Per opposing team, how many of its seats act (with a card in hand) between the
    viewer's action and its next turn."""
    config = view.config
    me = view.seat
    acts: dict[int, int] = {}
    seat = rules.next_seat(config, view.starter, view.leads, me)
    while seat != me:
        team = config.team_of(seat)
        if team != config.team_of(me) and view.hand_sizes[seat] > 0:
            acts[team] = acts.get(team, 0) + 1
        seat = rules.next_seat(config, view.starter, view.leads, seat)
    return acts


@lru_cache(maxsize=1 << 14)
def _close(pattern: Pattern, theirs: int, crowned: int, count: int) -> tuple[int, ...]:
    """The missing fields of every placement free of crowned fields that ``theirs``
    lacks at most ``count`` fields of."""
    out = []
    for mask in USABLE[pattern]:
        if mask & crowned:
            continue
        missing = mask & ~theirs
        if missing and missing.bit_count() <= count:
            out.append(missing)
    return tuple(out)


__all__ = [
    "MAX_NODES",
    "TURNS",
    "SureTouche",
    "askable",
    "sure_in_two",
    "sure_touche",
    "touches_now",
]
