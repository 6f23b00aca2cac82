"""Witness games of pyramid exercises: the round that reaches each candidate view.

Every candidate view of mining comes with a :class:`Trail`: the deal of its round
(the state right after the deal, :func:`~fechtbuch.engines.touche_pyramiden.
reachable.start_problem`) and the actions played since.  Views of seeded play have
the round they were played in (:func:`played_trails`).  Views *built* from them (a
joker made seen, a pyramid lifted, a safe field) are not edited positions any more
but edited games: the deal is rearranged (two cards change places, which the
shuffle allows) and one action of the round changes to use the moved card, then the
round is replayed with the rules, every action checked.  The view is whatever that
replay reaches, so it is a position of a legal game by construction; a change that
makes any action illegal, or ends the round early, gives no view.

Card identities: each seat's cards are its *slots*, the five dealt into its hand
(in hand order) and then its pile (top first).  :func:`provenance` follows the round
and says which slot each played card came from and which slots each seat still
holds, so that swapping two slots of the deal moves exactly one physical card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.board import (
    CARD_FIELDS,
    CARD_MASK,
    FREE_MASK,
    HAND_SIZE,
    JOKER,
)
from fechtbuch.engines.touche_pyramiden.sampling import random_config
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Action, Kind, Phase, State

Slot = tuple[int, int]
"""(seat, index into the seat's dealt cards: 0-4 the hand, then the pile)."""

PLAYING = (Kind.PLACE, Kind.JOKER_PLACE, Kind.JOKER_REMOVE, Kind.JOKER_REPLACE, Kind.FREE)


@dataclass(frozen=True)
class Trail:
    """One round so far: its deal and the actions played since."""

    start: State
    actions: tuple[Action, ...] = ()

    @classmethod
    def of_witness(cls, witness: dict) -> Trail:
        """The trail a pack's ``witness`` field writes (its texts parsed, not checked)."""
        start = notation.parse_state(witness["start"])
        return cls(start, tuple(notation.parse_action(a) for a in witness["moves"]))

    def then(self, action: Action) -> Trail:
        return Trail(self.start, (*self.actions, action))

    def witness(self) -> dict:
        """The pack's ``witness`` field (docs/puzzles.md)."""
        return {
            "start": notation.format_state(self.start),
            "moves": [notation.format_action(a) for a in self.actions],
        }

    def replay(self) -> State | None:
        """The state the actions reach from the deal with every action checked, or
        ``None`` when one is illegal or the round ends before the last one."""
        state = self.start
        for action in self.actions:
            if state.round != self.start.round or not legal(state, action):
                return None
            state = rules.apply_unchecked(state, action)
        if state.round != self.start.round or state.phase is not Phase.PLAY:
            return None
        return state


def legal(state: State, action: Action) -> bool:
    """Whether ``action`` is legal in ``state``: the placing actions and exchanges by
    their conditions (card in hand, field empty or the opponent's, cards dead), as
    ``rules.legal_actions`` lists them, without listing every action of the turn;
    anything else by the rules themselves.  (Mining replays many edited rounds; the
    pack verifier replays the shipped witnesses with the reference rules.)"""
    if state.phase is not Phase.PLAY or action.crown:
        return rules.is_legal(state, action)
    kind = action.kind
    hand = state.hands[state.to_move]
    occupied = state.occupied
    if kind is Kind.EXCHANGE:
        cards = list(hand)
        for card in action.cards:
            if card not in cards or card == JOKER or CARD_MASK[card] & ~occupied:
                return False
            cards.remove(card)
        return bool(action.cards)
    if kind not in PLAYING or action.card not in hand:
        return False
    bit = 1 << action.field
    if kind is Kind.PLACE:
        return action.card != JOKER and bool(CARD_MASK[action.card] & bit & ~occupied)
    if kind is Kind.JOKER_PLACE:
        return action.card == JOKER and not bit & (occupied | FREE_MASK)
    if kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE):
        team = state.config.team_of(state.to_move)
        theirs = 0
        for other, mask in enumerate(state.own):
            if other != team:
                theirs |= mask
        return action.card == JOKER and bool(theirs & bit)
    return rules.is_legal(state, action)


def dealt(start: State, seat: int) -> list[int]:
    """The seat's slots: its dealt hand, then its pile top first."""
    return [*start.hands[seat], *start.piles[seat]]


@dataclass(frozen=True)
class Provenance:
    """Which slot each played card came from, in discard order (``played[i]`` is the
    action index and slot of ``discard[i]``), and the slots each seat holds now."""

    played: tuple[tuple[int, Slot], ...]
    held: tuple[tuple[int, ...], ...]
    drawn: tuple[int, ...]
    """Per seat, how many slots it has taken (hand and drawn cards)."""


def provenance(trail: Trail) -> Provenance:
    """Follow ``trail`` (legal, see :meth:`Trail.replay`) card by card."""
    start = trail.start
    seats = start.config.players
    cards = [dealt(start, s) for s in range(seats)]
    held = [list(range(min(HAND_SIZE, len(cards[s])))) for s in range(seats)]
    drawn = [len(h) for h in held]
    played: list[tuple[int, Slot]] = []
    state = start
    for index, action in enumerate(trail.actions):
        seat = state.to_move
        spent: tuple[int, ...] = ()
        if action.kind in PLAYING:
            spent = (action.card,)
        elif action.kind is Kind.EXCHANGE:
            spent = action.cards
        for card in spent:
            slot = min(q for q in held[seat] if cards[seat][q] == card)
            held[seat].remove(slot)
            played.append((index, (seat, slot)))
        for _ in spent:
            if drawn[seat] < len(cards[seat]):
                held[seat].append(drawn[seat])
                drawn[seat] += 1
        state = rules.apply_unchecked(state, action)
    return Provenance(tuple(played), tuple(tuple(sorted(h)) for h in held), tuple(drawn))


def swapped(start: State, one: Slot, other: Slot) -> State:
    """The deal with the cards of two slots exchanged (hands stay sorted)."""
    cards = {s: dealt(start, s) for s in {one[0], other[0]}}
    a, b = cards[one[0]][one[1]], cards[other[0]][other[1]]
    cards[one[0]][one[1]] = b
    cards[other[0]][other[1]] = a
    hands, piles = list(start.hands), list(start.piles)
    for seat, seq in cards.items():
        hands[seat] = tuple(sorted(seq[:HAND_SIZE]))
        piles[seat] = tuple(seq[HAND_SIZE:])
    return replace(start, hands=tuple(hands), piles=tuple(piles))


def unseen_slots(trail: Trail, origin: Provenance, viewer: int, card: int) -> list[Slot]:
    """Slots holding ``card`` that ``viewer`` has not seen at the end of ``trail``: the
    piles' cards not drawn yet (first), then the other seats' hands."""
    start = trail.start
    seats = range(start.config.players)
    out = [
        (s, q)
        for s in seats
        for q in range(origin.drawn[s], len(dealt(start, s)))
        if dealt(start, s)[q] == card
    ]
    out += [
        (s, q) for s in seats if s != viewer for q in origin.held[s] if dealt(start, s)[q] == card
    ]
    return out


def held_slot(trail: Trail, origin: Provenance, seat: int, card: int) -> Slot | None:
    """A slot of ``card`` that ``seat`` holds at the end of ``trail``."""
    for q in origin.held[seat]:
        if dealt(trail.start, seat)[q] == card:
            return (seat, q)
    return None


def replay_view(trail: Trail) -> tuple[str, Trail] | None:
    """The two-player PLAY view of the seat to move that ``trail`` reaches, with the
    trail, or ``None`` (illegal, or the round is over)."""
    state = trail.replay()
    if state is None or state.pattern is None:
        return None
    return notation.format_view(notation.view_of(state, state.to_move)), trail


def play_instead(
    trail: Trail, index: int, card: int, fields: tuple[int, ...], seat: int
) -> Iterator[Action]:
    """Actions with ``card`` that could replace action ``index`` of ``seat``: placed on
    one of ``fields`` (in order), else exchanged if it is dead there."""
    state = trail.start
    for action in trail.actions[:index]:
        state = rules.apply_unchecked(state, action)
    occupied = state.occupied
    for field in fields:
        if not occupied >> field & 1:
            kind = Kind.JOKER_PLACE if card == JOKER else Kind.PLACE
            yield Action(kind, card, field)
    if card != JOKER and all(occupied >> f & 1 for f in CARD_FIELDS[card]):
        yield Action(Kind.EXCHANGE, cards=(card,))


def moved_card(
    trail: Trail, origin: Provenance, at: int, into: Slot, fields: tuple[int, ...] | None = None
) -> Iterator[Trail]:
    """Trails in which the card of slot ``into`` takes the place of the card played at
    discard position ``at`` (their slots swapped in the deal), played at the same
    turn on one of ``fields`` (default: the card's own fields) or exchanged when
    dead, the played card going where the other was.  Only single plays change."""
    index, slot = origin.played[at]
    action = trail.actions[index]
    if action.kind is Kind.EXCHANGE and len(action.cards) > 1:
        return
    if action.kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE, Kind.FREE):
        return
    card = dealt(trail.start, into[0])[into[1]]
    start = swapped(trail.start, slot, into)
    seat = slot[0]
    options = fields if fields is not None else (() if card == JOKER else CARD_FIELDS[card])
    for new in play_instead(Trail(start, trail.actions), index, card, options, seat):
        actions = (*trail.actions[:index], new, *trail.actions[index + 1 :])
        yield Trail(start, actions)


Policy = Callable[[State, list[Action], HashStream], Action]


def played_trails(
    players: int, count: int, rng: HashStream, game_seed: Callable[[int], str], policy: Policy
) -> Iterator[tuple[State, Trail]]:
    """:func:`~fechtbuch.engines.touche_pyramiden.sampling.played_states` with the
    trail of each state's round (the same states, drawn from ``rng`` the same way)."""
    produced = 0
    game = 0
    while True:
        config = random_config(players, rng)
        state = rules.new_game(config, game_seed(game))
        game += 1
        trail = Trail(state)
        while state.phase is not Phase.OVER:
            yield state, trail
            produced += 1
            if produced >= count:
                return
            actions = rules.legal_actions(state)
            action = policy(state, actions, rng)
            after = rules.apply_unchecked(state, action)
            trail = Trail(after) if after.round != state.round else trail.then(action)
            state = after
