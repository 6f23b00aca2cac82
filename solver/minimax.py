"""The independent verifier: plain exhaustive minimax over a move budget.

It shares nothing with the proof-number search but the game's kernel: no
transposition table, no heuristics, no move ordering; it visits moves in
generator order and stops a node only when its value is settled (an
attacker node at its first winning move, a defender node at its first
refutation).  Slow by design, simple enough to trust.

Definitions (as in docs/solver.md): the attacker has a *hit within n* if it
wins with its n-th own move at the latest, whatever the defence; n own moves
span 2n-1 plies.

Game-independent: :func:`compiled` specialises the search for one game's
:class:`~fechtbuch.engines.kernel.CompiledKernel` (see solver/specialise.py), and
every function here takes that kernel.
"""

from __future__ import annotations

import sys
import types

import numpy as np
from fechtbuch.engines.kernel import NO_WINNER, CompiledKernel
from fechtbuch.solver.specialise import specialise, template, unbound

# The kernel's names, bound per game by specialise() (see solver/specialise.py).
gen_moves = make_move = side_to_move = winner = unbound
STATE_SIZE = MAX_MOVES = 0

UNLIMITED = np.int64(2**62)


class VerifierLimit(Exception):
    """The verifier reached its node limit before an answer (it has no table, so deep
    bounds cost exponentially)."""


@template()
def _search(st0, budget, attacker_to_move, max_nodes):
    """Minimax with an explicit stack; returns (attacker wins within budget, nodes,
    finished): ``finished`` is False when ``max_nodes`` ended the search.

    ``attacker_to_move``: True if the side to move in ``st0`` is the attacker
    (an OR root); False if the side to move defends (an AND root) and the
    attacker, its opponent, has ``budget`` own moves after this reply.
    """
    plies = 2 * budget + 1
    states = np.empty((plies + 1, STATE_SIZE), dtype=np.int64)
    moves = np.empty((plies + 1, MAX_MOVES), dtype=np.int32)
    count = np.zeros(plies + 1, dtype=np.int64)
    index = np.zeros(plies + 1, dtype=np.int64)
    left = np.zeros(plies + 1, dtype=np.int64)  # attacker moves left, this one included
    is_or = np.zeros(plies + 1, dtype=np.bool_)
    attacker = side_to_move(st0) if attacker_to_move else 1 - side_to_move(st0)
    states[0] = st0
    is_or[0] = attacker_to_move
    left[0] = budget
    count[0] = gen_moves(states[0], moves[0])
    index[0] = 0
    nodes = 0
    ply = 0
    result = False
    returning = False
    while True:
        if returning:
            # a child finished with `result`; settle or continue this node
            if is_or[ply] == result:
                # OR node with a winning child, or AND node with a refuted child
                if ply == 0:
                    return result, nodes, True
                ply -= 1
                continue
            returning = False
        if index[ply] == count[ply]:
            result = not is_or[ply]  # OR: no move wins; AND: every reply loses
            if ply == 0:
                return result, nodes, True
            ply -= 1
            returning = True
            continue
        move = moves[ply, index[ply]]
        index[ply] += 1
        child = states[ply + 1]
        make_move(states[ply], move, child)
        nodes += 1
        if nodes > max_nodes:
            return False, nodes, False
        who = winner(child)
        if who != NO_WINNER:
            result = who == attacker
            returning = True
            continue
        if is_or[ply]:
            if left[ply] == 1:
                continue  # the last attacker move did not hit: this move fails
            left[ply + 1] = left[ply] - 1
        else:
            left[ply + 1] = left[ply]
        is_or[ply + 1] = not is_or[ply]
        ply += 1
        count[ply] = gen_moves(states[ply], moves[ply])
        index[ply] = 0


def compiled(kernel: CompiledKernel) -> types.SimpleNamespace:
    """This module's search compiled for one game: ``compiled(kernel)._search(...)``."""
    return specialise(sys.modules[__name__], kernel)


def _run(
    kernel: CompiledKernel,
    st: np.ndarray,
    budget: int,
    attacker_to_move: bool,
    max_nodes: int | None,
):
    if budget < 1:
        return False, 0
    if kernel.winner(st) != NO_WINNER:
        raise ValueError("position is already decided")
    limit = UNLIMITED if max_nodes is None else np.int64(max_nodes)
    answer, nodes, finished = compiled(kernel)._search(st, budget, attacker_to_move, limit)
    if not finished:
        raise VerifierLimit(f"the verifier gave up after {int(nodes):,} nodes")
    return bool(answer), int(nodes)


def hit_within(
    kernel: CompiledKernel, st: np.ndarray, budget: int, max_nodes: int | None = None
) -> tuple[bool, int]:
    """Does the side to move hit within ``budget`` own moves? Returns (answer, nodes);
    raises :class:`VerifierLimit` past ``max_nodes``."""
    return _run(kernel, st, budget, True, max_nodes)


def lost_within(
    kernel: CompiledKernel, st: np.ndarray, budget: int, max_nodes: int | None = None
) -> tuple[bool, int]:
    """Is every move of the side to move answered by a hit within ``budget``
    opponent moves?  Returns (answer, nodes); raises :class:`VerifierLimit`."""
    return _run(kernel, st, budget, False, max_nodes)
