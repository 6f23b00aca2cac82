"""Reaching a Battleklinge position from a legal start deal: witness games by search.

An exercise must be a position some game produces (a *witness*: a legal start and the
moves from it, ``puzzles/witness.py``).  Mined exercises have their self-play round;
positions built elsewhere, such as the endgame studies read from the tables, need a
game found for them.  Both schools cooperate here (the game only has to be legal, not
good), and the search runs in two stages:

1. **Thinning** (:func:`_thin`): from a start deal of the position's five cards, a
   seeded playout in which each school takes enemy students when it can and otherwise
   offers its own surplus students to the enemy's cards, until both schools have the
   target's number of students.  Nothing ever hits (no master is taken, no master
   reaches a banner), and no school loses a student it needs.
2. **Arranging** (:func:`_arrange`): a weighted best-first search (A* with the
   heuristic counted several times over) from there to the target among positions of
   the same material, without captures or hits: pieces walk to their squares and the
   cards rotate into place; its heuristic is the king distance of every piece to its
   square plus the cards out of place, and a small backward search from the target
   (the *landing zone*: every position a few un-moves before it) gives exact
   distances near the end, where the card rotation needs detours.

Everything is seeded by SHA-256 of the target and the attempt number and bounded by
:class:`ReachBudget` (attempts, playout plies, search nodes: no clock), so the same
target always gets the same witness or none, on every machine.  A found game is
replayed with the reference rules before it is returned.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import NamedTuple

from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.cards import BLAU, CARDS, GOLD, Card
from fechtbuch.engines.battleklinge.position import BANNER, Move, Position, iter_squares
from fechtbuch.engines.seeding import HashStream


@dataclass(frozen=True)
class ReachBudget:
    """How hard to look for one position's witness (all counts, no clock)."""

    attempts: int = 12
    """Start deals tried (each with its own thinning playout and arranging search)."""
    playout_plies: int = 160
    """Longest thinning playout; a playout that has not thinned by then is dropped."""
    search_nodes: int = 40_000
    """Positions the arranging search may expand per attempt."""
    landing_depth: int = 3
    """Plies of the backward search from the target (the landing zone)."""


DEFAULT_BUDGET = ReachBudget()


class _State(NamedTuple):
    """A position in the search's own compact form (bitboards and sorted hands)."""

    masters: tuple[int, int]  # square of each school's master
    students: tuple[int, int]  # bitboard of each school's students
    hands: tuple[tuple[Card, Card], tuple[Card, Card]]
    side: Card
    turn: int


def _targets() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """``TARGETS[color][card][square]``: the squares a piece of ``color`` on ``square``
    jumps to with ``card`` (Blau applies the offsets negated: "vorn" faces the enemy)."""
    table = []
    for color in (GOLD, BLAU):
        sign = 1 if color == GOLD else -1
        per_card = []
        for spec in CARDS:
            per_square = []
            for sq in range(25):
                file, rank = sq % 5, sq // 5
                out = []
                for dx, dy in spec.offsets:
                    tf, tr = file + sign * dx, rank + sign * dy
                    if 0 <= tf < 5 and 0 <= tr < 5:
                        out.append(tr * 5 + tf)
                per_square.append(tuple(out))
            per_card.append(tuple(per_square))
        table.append(tuple(per_card))
    return tuple(table)


TARGETS = _targets()


def _to_state(pos: Position) -> _State:
    masters = tuple(next(iter_squares(pos.masters[c])) for c in (GOLD, BLAU))
    return _State(masters, pos.students, pos.hands, pos.side, pos.turn)  # type: ignore[arg-type]


def _to_position(state: _State) -> Position:
    return Position(
        students=state.students,
        masters=(1 << state.masters[GOLD], 1 << state.masters[BLAU]),
        turn=state.turn,
        hands=state.hands,
        side=state.side,
    )


def _hand_after(hand: tuple[Card, Card], used: Card, side: Card) -> tuple[Card, Card]:
    other = hand[1] if hand[0] == used else hand[0]
    return (other, side) if other < side else (side, other)


def _moves(state: _State) -> list[tuple[Card, int | None, int | None, bool]]:
    """Every legal move of the side to move as (card, from, to, hits), in the rules'
    terms: a jump onto an empty or enemy square; a pass (from = to = None) with either
    card only when no piece can jump at all."""
    me = state.turn
    enemy = 1 - me
    own = state.students[me] | 1 << state.masters[me]
    out = []
    for card in state.hands[me]:
        jumps = TARGETS[me][card]
        for sq in (state.masters[me], *iter_squares(state.students[me])):
            for to in jumps[sq]:
                if own >> to & 1:
                    continue
                hits = to == state.masters[enemy] or (
                    sq == state.masters[me] and to == BANNER[enemy]
                )
                out.append((card, sq, to, hits))
    if not out:
        out = [(card, None, None, False) for card in state.hands[me]]
    return out


def _play(state: _State, card: Card, origin: int | None, to: int | None) -> _State:
    """The state after a move that does not hit."""
    me = state.turn
    enemy = 1 - me
    masters = list(state.masters)
    students = list(state.students)
    if origin is not None and to is not None:
        students[enemy] &= ~(1 << to)
        if origin == masters[me]:
            masters[me] = to
        else:
            students[me] = students[me] & ~(1 << origin) | 1 << to
    hands = list(state.hands)
    hands[me] = _hand_after(state.hands[me], card, state.side)
    return _State(
        (masters[0], masters[1]),
        (students[0], students[1]),
        (hands[0], hands[1]),
        card,
        enemy,
    )


def _quiet_children(state: _State, captures: bool) -> list[tuple[Move, _State]]:
    """Moves that do not hit (and, unless ``captures``, take nothing), with their
    states; none when the side to move can only hit."""
    enemy_pieces = state.students[1 - state.turn]
    out = []
    for card, origin, to, hits in _moves(state):
        if hits:
            continue
        if not captures and to is not None and enemy_pieces >> to & 1:
            continue
        move = Move(card) if origin is None else Move(card, origin, to)
        out.append((move, _play(state, card, origin, to)))
    return out


# ---- stage 1: thinning --------------------------------------------------------------


def _start_deals(cards: tuple[Card, ...], rng: HashStream) -> list[Position]:
    """The 30 ways to deal five cards (two, two, side), in a seeded order; each start
    has the side card's school to move, as the rules say."""
    deals = []
    for gold in itertools.combinations(cards, 2):
        rest = [c for c in cards if c not in gold]
        for blau in itertools.combinations(rest, 2):
            side = next(c for c in rest if c not in blau)
            deals.append(Position.start(gold, blau, side))
    return rng.shuffled(deals)


def _attacked(state: _State, color: int) -> int:
    """Squares ``color`` can jump to with its hand cards (as it holds them now)."""
    out = 0
    for card in state.hands[color]:
        jumps = TARGETS[color][card]
        for sq in (state.masters[color], *iter_squares(state.students[color])):
            for to in jumps[sq]:
                out |= 1 << to
    return out


def _thin(
    start: _State, wanted: tuple[int, int], rng: HashStream, plies: int
) -> list[tuple[Move, _State]] | None:
    """A cooperative playout from ``start`` down to ``wanted`` students a school (the
    moves and the states after them), or None within ``plies``."""
    state = start
    path: list[tuple[Move, _State]] = []
    for _ in range(plies):
        counts = (state.students[GOLD].bit_count(), state.students[BLAU].bit_count())
        if counts == wanted:
            return path
        me, enemy = state.turn, 1 - state.turn
        options = []
        for move, child in _quiet_children(state, captures=True):
            lost = counts[enemy] - child.students[enemy].bit_count()
            if lost and counts[enemy] <= wanted[enemy]:
                continue  # the enemy needs this student
            options.append((move, child, lost))
        if not options:
            return None
        takes = [(m, c) for m, c, lost in options if lost]
        offers = []
        if counts[me] > wanted[me]:
            # a surplus student steps where the enemy's cards reach it
            for move, child, _ in options:
                if move.to_sq is None or move.from_sq == state.masters[me]:
                    continue
                if _attacked(child, enemy) >> move.to_sq & 1:
                    offers.append((move, child))
        if takes:
            chosen = rng.choice(takes)
        elif offers and rng.chance(3, 4):
            chosen = rng.choice(offers)
        else:
            chosen = rng.choice([(m, c) for m, c, _ in options])
        path.append(chosen)
        state = chosen[1]
    counts = (state.students[GOLD].bit_count(), state.students[BLAU].bit_count())
    return path if counts == wanted else None


# ---- stage 2: arranging -------------------------------------------------------------


def _king_distance(a: int, b: int) -> int:
    return max(abs(a % 5 - b % 5), abs(a // 5 - b // 5))


def _student_distance(squares: list[int], targets: list[int]) -> int:
    """Fewest king steps that put the students on the target squares (any matching)."""
    if not squares:
        return 0
    return min(
        sum(_king_distance(s, t) for s, t in zip(squares, order, strict=True))
        for order in itertools.permutations(targets)
    )


SIDE_SLOT = 2
"""Where a card lies, beside GOLD's and BLAU's hands."""
GREED = 3
"""The arranging search counts the heuristic this many times beside the plies played:
greedier than A*, so it finds a game (not the shortest) within few nodes."""


def _card_places(state: _State) -> dict[Card, int]:
    """Each card's place: GOLD's hand, BLAU's hand or the side slot."""
    places = {state.side: SIDE_SLOT}
    for color in (GOLD, BLAU):
        for card in state.hands[color]:
            places[card] = color
    return places


class _Heuristic:
    """Estimated plies from a state to the target (not a bound: it only orders)."""

    def __init__(self, target: _State):
        self.target = target
        self.places = _card_places(target)
        self.student_targets = [list(iter_squares(target.students[c])) for c in (GOLD, BLAU)]

    def __call__(self, state: _State) -> int:
        distance = 0
        for color in (GOLD, BLAU):
            distance += _king_distance(state.masters[color], self.target.masters[color])
            distance += _student_distance(
                list(iter_squares(state.students[color])), self.student_targets[color]
            )
        places = _card_places(state)
        misplaced = sum(places[c] != p for c, p in self.places.items())
        return 2 * distance + misplaced


def _predecessors(state: _State) -> list[tuple[Move, _State]]:
    """Positions one quiet move (no capture, no hit) before ``state``, with that move:
    the school that just moved played the side card and took the previous side card
    (one of its hand cards) into its hand."""
    mover = 1 - state.turn
    used = state.side
    own = state.students[mover] | 1 << state.masters[mover]
    occupied = own | state.students[state.turn] | 1 << state.masters[state.turn]
    out = []
    for taken in state.hands[mover]:
        kept = next(c for c in state.hands[mover] if c != taken)
        hand = (kept, used) if kept < used else (used, kept)
        for to in (state.masters[mover], *iter_squares(state.students[mover])):
            for origin in range(25):
                if occupied >> origin & 1 or to not in TARGETS[mover][used][origin]:
                    continue
                masters = list(state.masters)
                students = list(state.students)
                if to == state.masters[mover]:
                    masters[mover] = origin
                else:
                    students[mover] = students[mover] & ~(1 << to) | 1 << origin
                hands = list(state.hands)
                hands[mover] = hand
                before = _State(
                    (masters[0], masters[1]),
                    (students[0], students[1]),
                    (hands[0], hands[1]),
                    taken,
                    mover,
                )
                if _to_position(before).winner() is not None:
                    continue
                out.append((Move(used, origin, to), before))
    return out


def _landing_zone(target: _State, depth: int) -> dict[_State, list[Move]]:
    """Every state within ``depth`` quiet plies before ``target``, with the moves from
    it to the target (the shortest found, breadth first)."""
    zone: dict[_State, list[Move]] = {target: []}
    frontier = [target]
    for _ in range(depth):
        following = []
        for state in frontier:
            for move, before in _predecessors(state):
                if before in zone:
                    continue
                # a forward check: the un-move must be a legal quiet move forward
                if (move, state) not in _quiet_children(before, captures=False):
                    continue
                zone[before] = [move, *zone[state]]
                following.append(before)
        frontier = following
    return zone


def _arrange(
    start: _State, zone: dict[_State, list[Move]], heuristic: _Heuristic, nodes: int
) -> list[Move] | None:
    """Quiet moves from ``start`` into the landing zone and on to the target, or None
    within ``nodes`` expansions (weighted best-first: ties by insertion order)."""
    parents: dict[_State, tuple[_State, Move] | None] = {start: None}
    depth = {start: 0}
    counter = itertools.count()
    queue = [(GREED * heuristic(start), next(counter), start)]
    for _ in range(nodes):
        if not queue:
            return None
        _, _, state = heapq.heappop(queue)
        if state in zone:
            moves = zone[state]
            while parents[state] is not None:
                state, move = parents[state]  # type: ignore[misc]
                moves = [move, *moves]
            return moves
        for move, child in _quiet_children(state, captures=False):
            if child in parents:
                continue
            parents[child] = (state, move)
            depth[child] = depth[state] + 1
            heapq.heappush(queue, (depth[child] + GREED * heuristic(child), next(counter), child))
    return None


# ---- the whole search ---------------------------------------------------------------


def find_witness(
    target: Position, label: str = "", budget: ReachBudget = DEFAULT_BUDGET
) -> tuple[Position, list[Move]] | None:
    """A legal start deal of ``target``'s five cards and the moves from it that reach
    ``target`` exactly (replayed with the reference rules), or None within ``budget``.
    ``label`` seeds the search beside the target's own text (SHA-256)."""
    if target.winner() is not None or not target.masters[GOLD] or not target.masters[BLAU]:
        return None
    goal = _to_state(target)
    wanted = (target.students[GOLD].bit_count(), target.students[BLAU].bit_count())
    if max(wanted) > 4:
        return None
    rng = HashStream(f"battleklinge-reach/{label}/{target.to_text()}")
    deals = _start_deals(target.cards, rng)
    zone = _landing_zone(goal, budget.landing_depth)
    heuristic = _Heuristic(goal)
    for attempt in range(budget.attempts):
        start = deals[attempt % len(deals)]
        playout = HashStream(f"battleklinge-reach/{label}/{target.to_text()}/{attempt}")
        thinned = _thin(_to_state(start), wanted, playout, budget.playout_plies)
        if thinned is None:
            continue
        middle = thinned[-1][1] if thinned else _to_state(start)
        rest = _arrange(middle, zone, heuristic, budget.search_nodes)
        if rest is None:
            continue
        moves = [m for m, _ in thinned] + rest
        if _replays_to(start, moves, target):
            return start, moves
    return None


def _replays_to(start: Position, moves: list[Move], target: Position) -> bool:
    """The reference rules' opinion: every move legal, nothing decided on the way, and
    the last position is ``target``."""
    pos = start
    for move in moves:
        if pos.winner() is not None or move not in reference.legal_moves(pos):
            return False
        pos = reference.play(pos, move)
    return pos == target
