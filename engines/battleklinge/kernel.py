"""Battleklinge's compiled kernel for the proof search: fast.py plus one-move facts.

A move is a *hit* (Treffer) if it captures the enemy master or puts the mover's
own master on the enemy banner.  The checks here look only at target bitboards,
without making moves, so the search closes leaves cheaply.  :data:`KERNEL`
bundles them with fast.py's generator for ``fechtbuch.solver`` (see
``engines/kernel.py``); the solver gets it from ``BattleklingeGame.kernel()``.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.fast import (
    BANNER_BIT,
    F_HASH,
    F_MASTER,
    F_TURN,
    move_is_pass,
    move_origin,
    move_target,
    winning_move,
)
from fechtbuch.engines.compiled import njit
from fechtbuch.engines.kernel import CompiledKernel


@njit(cache=True)
def has_immediate_hit(st):
    """True if the side to move has a move that hits at once."""
    return winning_move(st) >= 0


@njit(cache=True)
def is_hit_move(st, move):
    """True if ``move`` (legal in ``st``) hits at once."""
    if move_is_pass(move):
        return False
    me = st[F_TURN]
    op = 1 - me
    to_bit = 1 << move_target(move)
    if st[F_MASTER + op] == to_bit:
        return True
    return st[F_MASTER + me] == (1 << move_origin(move)) and to_bit == BANNER_BIT[op]


@njit(cache=True, inline="always")
def side_to_move(st):
    return st[F_TURN]


@njit(cache=True, inline="always")
def state_hash(st):
    return st[F_HASH]


KERNEL = CompiledKernel(
    name="battleklinge",
    state_size=fast.STATE_SIZE,
    max_moves=fast.MAX_MOVES,
    gen_moves=fast.gen_moves,
    make_move=fast.make_move,
    side_to_move=side_to_move,
    state_hash=state_hash,
    winner=fast.winner,
    has_immediate_win=has_immediate_hit,
    is_winning_move=is_hit_move,
    encode_state=fast.state_from_position,
    decode_move=fast.decode_move,
    encode_move=fast.encode_move,
)
