"""Compiled one-move facts shared by the solvers: immediate hits.

A move is a *hit* (Treffer) if it captures the enemy master or puts the
mover's own master on the enemy banner.  These checks look only at target
bitboards, without making moves, so the search can close leaves cheaply.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.fast import BANNER_BIT, F_MASTER, F_TURN, winning_move
from fechtbuch.engines.compiled import njit


@njit(cache=True)
def has_immediate_hit(st):
    """True if the side to move has a move that hits at once."""
    return winning_move(st) >= 0


@njit(cache=True)
def is_hit_move(st, move):
    """True if ``move`` (legal in ``st``) hits at once."""
    if move & (1 << 14):
        return False
    me = st[F_TURN]
    op = 1 - me
    fr = (move >> 4) & 31
    to_bit = 1 << ((move >> 9) & 31)
    if st[F_MASTER + op] == to_bit:
        return True
    return st[F_MASTER + me] == (1 << fr) and to_bit == BANNER_BIT[op]
