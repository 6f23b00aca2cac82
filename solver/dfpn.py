"""Depth-first proof-number search (df-pn) for "hit within N".

Algorithm: Nagai's df-pn (A. Nagai, "Df-pn algorithm for searching AND/OR
trees and its applications", PhD thesis, Univ. of Tokyo, 2002), the
depth-first reformulation of Allis's proof-number search (L. V. Allis et al.,
"Proof-number search", Artificial Intelligence 66, 1994).  It is written with
an explicit frame stack because numba's cache mis-handles recursion.

Nodes: an OR node is the attacker to move with ``b`` own moves left (this one
included); its children are AND nodes with ``b - 1`` left.  An AND node is the
defender to move; its children are OR nodes with the same ``b``.

Game-independent: the functions marked ``@template()`` are compiled once per game
kernel by :func:`fechtbuch.solver.specialise.specialise` (use :func:`compiled`), so
``gen_moves``, ``make_move`` and the other kernel names below are the game's
(see ``engines/kernel.py`` for what a kernel must satisfy: two players who
alternate, every attacker move spends a turn).

Assumptions, checked by the caller (solver.api): the root is not decided,
``1 <= b <= MAX_BUDGET``.  Exactness under transpositions: the table key is
(position hash, attacker, budget), and the budget strictly falls every two
plies, so the searched graph is acyclic and the graph-history problem cannot
arise.  The key is 64 bits: a collision is astronomically unlikely, and every
published result is confirmed by the independent verifier (solver.minimax).

Leaves are closed exactly and cheaply:
* OR node: an immediate hit proves it; with ``b == 1`` and none, it is disproved.
* AND node: a defender hit disproves it; with ``b == 1`` it is proved iff every
  reply allows an immediate attacker hit (checked without further search).
Other new nodes get heuristic numbers from mobility: OR (1, moves), AND
(replies, 1).

The transposition table is a fixed array of 4-entry buckets (key, pn, dn,
work); a new entry replaces the bucket's entry with the least work, so large
proofs survive.  Limits (nodes) end a call early with the root unresolved;
calls can be repeated with the same table to continue (the time limit is
applied by the caller between calls).
"""

from __future__ import annotations

import hashlib
import sys
import types

import numpy as np
from fechtbuch.engines.compiled import njit
from fechtbuch.engines.kernel import CompiledKernel
from fechtbuch.solver.specialise import specialise, template, unbound

# The kernel's names, bound per game by specialise() (see solver/specialise.py).
gen_moves = make_move = side_to_move = state_hash = unbound
has_immediate_win = is_winning_move = unbound
STATE_SIZE = MAX_MOVES = 0

INF = np.int64(1) << 40
MAX_BUDGET = 8
BUCKET = 4
TT_FIELDS = 4  # key, pn, dn, work
T_KEY, T_PN, T_DN, T_WORK = 0, 1, 2, 3


def _budget_keys() -> np.ndarray:
    keys = np.empty((2, MAX_BUDGET + 1), dtype=np.int64)
    for attacker in range(2):
        for budget in range(MAX_BUDGET + 1):
            text = f"fechtbuch-dfpn-budget/{attacker}/{budget}".encode()
            keys[attacker, budget] = int.from_bytes(
                hashlib.sha256(text).digest()[:8], "little", signed=True
            )
    return keys


BUDGET_KEYS = _budget_keys()


def new_table(megabytes: int = 64) -> np.ndarray:
    """An empty transposition table of about ``megabytes`` (a power-of-two bucket count)."""
    entries = max(BUCKET, (megabytes * 1024 * 1024) // (TT_FIELDS * 8))
    buckets = 1 << (entries // BUCKET).bit_length() - 1
    table = np.zeros((buckets * BUCKET, TT_FIELDS), dtype=np.int64)
    return table


@njit(cache=True, inline="always")
def _tt_index(table, key):
    buckets = table.shape[0] // BUCKET
    base = (key & (buckets - 1)) * BUCKET
    for i in range(base, base + BUCKET):
        if table[i, T_KEY] == key and table[i, T_WORK] > 0:
            return i
    return -1


@njit(cache=True)
def _tt_store(table, key, pn, dn, work):
    buckets = table.shape[0] // BUCKET
    base = (key & (buckets - 1)) * BUCKET
    victim = base
    for i in range(base, base + BUCKET):
        if table[i, T_KEY] == key or table[i, T_WORK] == 0:
            victim = i
            break
        if table[i, T_WORK] < table[victim, T_WORK]:
            victim = i
    table[victim, T_KEY] = key
    table[victim, T_PN] = pn
    table[victim, T_DN] = dn
    table[victim, T_WORK] = max(work, 1)


@njit(cache=True, inline="always")
def _cap(x):
    return INF if x > INF else x


@template()
def _leaf_values(st, is_or, budget, scratch_moves, scratch_state):
    """(pn, dn, nodes) for a node seen for the first time (see the module docstring)."""
    if is_or:
        if has_immediate_win(st):
            return np.int64(0), INF, 0
        if budget == 1:
            return INF, np.int64(0), 0
        n = gen_moves(st, scratch_moves)
        return np.int64(1), np.int64(n), 0
    if has_immediate_win(st):
        return INF, np.int64(0), 0
    n = gen_moves(st, scratch_moves)
    if budget == 1:
        for i in range(n):
            make_move(st, scratch_moves[i], scratch_state)
            if not has_immediate_win(scratch_state):
                return INF, np.int64(0), i + 1
        return np.int64(0), INF, n
    return np.int64(n), np.int64(1), 0


@template()
def search(st0, budget, root_is_or, table, max_nodes):
    """Run df-pn from ``st0``; returns (pn, dn, nodes) of the root.

    ``root_is_or``: the side to move is the attacker.  pn == 0: proved (the
    attacker hits within ``budget``); dn == 0: disproved; otherwise the node
    limit ended the call.
    """
    attacker = side_to_move(st0) if root_is_or else 1 - side_to_move(st0)
    depth = 2 * budget + 2
    states = np.empty((depth, STATE_SIZE), dtype=np.int64)
    moves = np.empty((depth, MAX_MOVES), dtype=np.int32)
    child_pn = np.empty((depth, MAX_MOVES), dtype=np.int64)
    child_dn = np.empty((depth, MAX_MOVES), dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    th_pn = np.zeros(depth, dtype=np.int64)
    th_dn = np.zeros(depth, dtype=np.int64)
    left = np.zeros(depth, dtype=np.int64)
    is_or = np.zeros(depth, dtype=np.bool_)
    chosen = np.zeros(depth, dtype=np.int64)
    work_at_entry = np.zeros(depth, dtype=np.int64)
    scratch_moves = np.empty(MAX_MOVES, dtype=np.int32)
    scratch_state = np.empty(STATE_SIZE, dtype=np.int64)
    child = np.empty(STATE_SIZE, dtype=np.int64)
    nodes = np.int64(0)

    states[0] = st0
    is_or[0] = root_is_or
    left[0] = budget
    th_pn[0] = INF - 1
    th_dn[0] = INF - 1
    root_pn, root_dn, spent = _leaf_values(st0, root_is_or, budget, scratch_moves, scratch_state)
    nodes += spent
    if root_pn == 0 or root_dn == 0:
        return root_pn, root_dn, nodes
    ply = 0
    expand = True
    while True:
        if expand:
            # (re)build the child list of the node at `ply` with their current numbers
            work_at_entry[ply] = nodes
            st = states[ply]
            n = gen_moves(st, moves[ply])
            count[ply] = n
            child_left = left[ply] - 1 if is_or[ply] else left[ply]
            child_is_or = not is_or[ply]
            akey = BUDGET_KEYS[attacker, child_left]
            for i in range(n):
                move = moves[ply, i]
                if is_or[ply] and is_winning_move(st, move):
                    child_pn[ply, i] = 0
                    child_dn[ply, i] = INF
                    continue
                make_move(st, move, child)
                nodes += 1
                entry = _tt_index(table, state_hash(child) ^ akey)
                if entry >= 0:
                    child_pn[ply, i] = table[entry, T_PN]
                    child_dn[ply, i] = table[entry, T_DN]
                else:
                    pn, dn, spent = _leaf_values(
                        child, child_is_or, child_left, scratch_moves, scratch_state
                    )
                    nodes += spent
                    child_pn[ply, i] = pn
                    child_dn[ply, i] = dn
                    if spent > 8:  # exact leaf answers that cost work are worth keeping
                        _tt_store(table, state_hash(child) ^ akey, pn, dn, spent)
            expand = False
        n = count[ply]
        # this node's numbers from its children
        best = 0
        if is_or[ply]:
            pn = INF
            dn = np.int64(0)
            second = INF
            for i in range(n):
                dn = _cap(dn + child_dn[ply, i])
                v = child_pn[ply, i]
                if v < pn:
                    second = pn
                    pn = v
                    best = i
                elif v < second:
                    second = v
        else:
            dn = INF
            pn = np.int64(0)
            second = INF
            for i in range(n):
                pn = _cap(pn + child_pn[ply, i])
                v = child_dn[ply, i]
                if v < dn:
                    second = dn
                    dn = v
                    best = i
                elif v < second:
                    second = v
        if pn >= th_pn[ply] or dn >= th_dn[ply] or nodes >= max_nodes:
            key = state_hash(states[ply]) ^ BUDGET_KEYS[attacker, left[ply]]
            _tt_store(table, key, pn, dn, nodes - work_at_entry[ply])
            if ply == 0:
                return pn, dn, nodes
            ply -= 1
            child_pn[ply, chosen[ply]] = pn
            child_dn[ply, chosen[ply]] = dn
            continue
        # descend into the most proving child with Nagai's thresholds
        chosen[ply] = best
        if is_or[ply]:
            th_pn[ply + 1] = min(th_pn[ply], second + 1)
            th_dn[ply + 1] = _cap(th_dn[ply] - dn + child_dn[ply, best])
            left[ply + 1] = left[ply] - 1
        else:
            th_dn[ply + 1] = min(th_dn[ply], second + 1)
            th_pn[ply + 1] = _cap(th_pn[ply] - pn + child_pn[ply, best])
            left[ply + 1] = left[ply]
        is_or[ply + 1] = not is_or[ply]
        make_move(states[ply], moves[ply, best], states[ply + 1])
        ply += 1
        expand = True


def compiled(kernel: CompiledKernel) -> types.SimpleNamespace:
    """This module's search compiled for one game: ``compiled(kernel).search(...)``."""
    return specialise(sys.modules[__name__], kernel)
