"""The compiled kernel a game may offer to the compiled proof search.

A game whose rules are also written as numba kernels (Battleklinge's
``engines/battleklinge/fast.py``) bundles them in a :class:`CompiledKernel`.  The
compiled df-pn and minimax of ``solver/`` are written once against these names and
*specialised* per kernel (``fechtbuch.solver.specialise.specialise``): the kernel's
functions become the globals of a fresh copy of the solver code, so numba compiles
direct calls (and inlines them) exactly as if the solver had imported the game,
and each game's copy is cached under its own name.  That is why the solver never
imports a game at import time, and why another game with a kernel plugs in by
building one of these.

What the compiled solvers assume of a kernel (checked by nothing but the
conformance test, so state it here): two players who alternate, one move per
turn; every attacker move spends one of the attacker's N turns; a state is a flat
``int64`` array of ``state_size`` words; a move is an ``int32`` code;
``gen_moves`` is only called on states that are not decided.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Jitted = Any
"""A numba dispatcher (``fechtbuch.engines.compiled.njit``-decorated function)."""

NO_WINNER = -1
"""What ``winner`` returns while the game goes on."""


@dataclass(frozen=True)
class CompiledKernel:
    """The compiled rules of one game, as the compiled solvers call them."""

    name: str
    """A Python identifier; part of the cache names of the specialised solver code."""
    state_size: int
    """Words of the ``int64`` state array."""
    max_moves: int
    """An upper bound on the number of legal moves (the size of move buffers)."""
    gen_moves: Jitted
    """``gen_moves(st, out) -> n``: the legal move codes of a live state into ``out``."""
    make_move: Jitted
    """``make_move(st, move, out)``: the state after ``move`` into ``out`` (copy-make)."""
    side_to_move: Jitted
    """``side_to_move(st) -> 0 or 1``."""
    state_hash: Jitted
    """``state_hash(st) -> int64``: a 64-bit hash, equal for equal states."""
    winner: Jitted
    """``winner(st) -> player``, or :data:`NO_WINNER` while the game goes on."""
    has_immediate_win: Jitted
    """``has_immediate_win(st) -> bool``: the side to move wins with its next move."""
    is_winning_move: Jitted
    """``is_winning_move(st, move) -> bool``: this legal move wins at once."""
    encode_state: Callable[[Any], Any]
    """The game's state (as its :class:`~fechtbuch.engines.game.Game` has it) as an array."""
    decode_move: Callable[[int], Any]
    """A move code as the game's action."""
    encode_move: Callable[[Any], int]
    """The game's action as a move code."""
