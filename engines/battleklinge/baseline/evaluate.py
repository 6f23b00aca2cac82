"""Static evaluation of a live position, in centi-students, from the side to move's view.

One student is worth ``100`` (the unit of the rulebook's analysis: "1,0
entspricht einem Schüler").  The evaluation is the sum, for the side to move
minus the same for the opponent, of these features (weights in
:data:`DEFAULT_WEIGHTS`, indices ``W_*``):

``W_STUDENT``   material: each student on the board (fixed at 100, the unit).
``W_MOBILITY``  mobility: each move a school has with its *usable cards*.  The
                side to move counts its hand plus the side card (it takes the
                side card with this move); the other school counts its hand,
                which is what it plays with next.
``W_RACE``      banner race: each step the master has already come toward the
                enemy banner (4 minus the king distance).
``W_BANNER``    banner threat: the master reaches the enemy banner with one of
                its usable cards (for the side to move this is an immediate
                win that search sees first; statically it scores the threat).
``W_ATTACKER``  master safety: each (enemy piece, enemy usable card) pair that
                reaches the master, a penalty.
``W_GUARD``     master safety: each own student on a square next to the master.
``W_HANGING``   each student of the side *not* to move that the side to move
                can take and that no piece of its owner guards (with the
                owner's usable cards after the exchange), a penalty.

The master itself has no material value: losing it ends the game, which
search scores as a win or loss (see :mod:`engines.battleklinge.search`).

How the weights were chosen is recorded in ``docs/strength.md`` (self-play
matches between weight sets at a fixed search budget).

>>> from fechtbuch.engines.battleklinge.position import Position, START_EINSTEIGER
>>> from fechtbuch.engines.battleklinge import fast
>>> start = fast.state_from_position(Position.from_text(START_EINSTEIGER))
>>> int(evaluate(start, DEFAULT_WEIGHTS))  # Gold to move: the side card adds mobility
16
>>> one_up = Position.from_text("ssm1s/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
>>> int(evaluate(fast.state_from_position(one_up), DEFAULT_WEIGHTS))  # a student up
120
"""

from __future__ import annotations

import numpy as np
from fechtbuch.engines.battleklinge.fast import (
    BANNER_BIT,
    F_HAND,
    F_MASTER,
    F_PIECES,
    F_SIDE,
    F_TURN,
    TARGETS,
    count_moves,
    lowest_square,
    popcount,
)
from fechtbuch.engines.compiled import njit

W_STUDENT = 0
W_MOBILITY = 1
W_RACE = 2
W_BANNER = 3
W_ATTACKER = 4
W_GUARD = 5
W_HANGING = 6
NUM_WEIGHTS = 7

WEIGHT_NAMES = ("student", "mobility", "race", "banner", "attacker", "guard", "hanging")

DEFAULT_WEIGHTS = np.array([100, 2, 6, 40, 25, 6, 30], dtype=np.int64)
"""The tuned weights (centi-students); see ``docs/strength.md``."""


def _king_distance_table() -> np.ndarray:
    table = np.zeros((25, 25), dtype=np.int64)
    for a in range(25):
        for b in range(25):
            table[a, b] = max(abs(a % 5 - b % 5), abs(a // 5 - b // 5))
    return table


def _neighbour_table() -> np.ndarray:
    table = np.zeros(25, dtype=np.int64)
    for sq in range(25):
        mask = 0
        for other in range(25):
            if other != sq and KING_DISTANCE[sq, other] == 1:
                mask |= 1 << other
        table[sq] = mask
    return table


KING_DISTANCE = _king_distance_table()
NEIGHBOURS = _neighbour_table()
BANNER_SQUARE = np.array([2, 22], dtype=np.int64)


@njit(cache=True, inline="always")
def reach(color, pieces, cards):
    """Union of squares the pieces of ``color`` reach with the card mask ``cards``."""
    out = np.int64(0)
    while cards:
        card = lowest_square(cards)
        cards &= cards - 1
        bb = pieces
        while bb:
            sq = lowest_square(bb)
            bb &= bb - 1
            out |= TARGETS[color, card, sq]
    return out


@njit(cache=True, inline="always")
def attackers_of(color, pieces, cards, target_sq):
    """Number of (piece, card) pairs of ``color`` that reach ``target_sq``."""
    n = 0
    while cards:
        card = lowest_square(cards)
        cards &= cards - 1
        bb = pieces
        while bb:
            sq = lowest_square(bb)
            bb &= bb - 1
            if TARGETS[color, card, sq] >> target_sq & 1:
                n += 1
    return n


@njit(cache=True)
def _side_terms(st, color, cards, enemy_cards, weights):
    """The evaluation terms of one school (positive is good for ``color``)."""
    enemy = 1 - color
    own = st[F_PIECES + color]
    master = st[F_MASTER + color]
    students = own & ~master
    score = popcount(students) * weights[W_STUDENT]
    score += count_moves(color, own, cards) * weights[W_MOBILITY]
    msq = lowest_square(master)
    score += (4 - KING_DISTANCE[msq, BANNER_SQUARE[enemy]]) * weights[W_RACE]
    banner = BANNER_BIT[enemy]
    if (st[F_PIECES + color] & banner) == 0:
        hits = np.int64(0)
        c = cards
        while c:
            card = lowest_square(c)
            c &= c - 1
            hits |= TARGETS[color, card, msq]
        if hits & banner:
            score += weights[W_BANNER]
    score -= attackers_of(enemy, st[F_PIECES + enemy], enemy_cards, msq) * weights[W_ATTACKER]
    score += popcount(NEIGHBOURS[msq] & students) * weights[W_GUARD]
    return score


@njit(cache=True)
def evaluate(st, weights):
    """Evaluation of a live (undecided) state for the side to move, centi-students."""
    me = st[F_TURN]
    op = 1 - me
    side_bit = np.int64(1) << st[F_SIDE]
    my_cards = st[F_HAND + me] | side_bit
    op_cards = st[F_HAND + op]
    score = _side_terms(st, me, my_cards, op_cards, weights)
    score -= _side_terms(st, op, op_cards, my_cards, weights)
    # Students of the opponent the side to move can take now and the opponent
    # cannot retake (its pieces with its hand, which is what it will play).
    op_students = st[F_PIECES + op] & ~st[F_MASTER + op]
    takeable = reach(me, st[F_PIECES + me], st[F_HAND + me]) & op_students
    if takeable:
        guarded = reach(op, st[F_PIECES + op], op_cards)
        score += popcount(takeable & ~guarded) * weights[W_HANGING]
    return score
