"""The compiled retrograde sweep: one pass over every board of a split.

A table under construction keeps two 30-bit masks per board, ``won`` and
``lost`` (deals resolved so far), and one value byte per position.  Step ``t``
of the analysis runs a *win* sweep then a *loss* sweep over every board with
unresolved deals:

* win sweep: a deal is won in ``t`` if some move reaches a child lost within
  ``t - 1`` (in ``t = 1``: a move that hits at once);
* loss sweep: a deal is lost in ``t`` if every move reaches a child won within
  ``t`` (passes included: a deal in which neither hand card moves any piece
  passes with either card).

A deal resolved at step ``t`` has that exact distance: had a faster result
existed, an earlier sweep would have found it.  The 30 deals of one board are
handled together: a move of the board (piece ``s`` to ``q``) is indexed once,
the child's mask is read once, and the card's permutation maps the child's
deals to the parent deals that hold the card.  Boards are split between the
cores with ``prange``; a sweep writes only its own board's mask and values and
reads only the other mask kind, so threads never race.

Value bytes: 0 = no forced result (yet), ``2d - 1`` = won in ``d``, ``2d`` =
lost in ``d`` (distances in own moves of the side to move, up to 127).
"""

from __future__ import annotations

import numpy as np
from fechtbuch.engines.battleklinge.fast import lowest_square, popcount
from fechtbuch.engines.compiled import njit
from numba import prange

WIN_SWEEP = 0
LOSS_SWEEP = 1
ALL_SQUARES = (1 << 25) - 1
ALL_DEALS = (1 << 30) - 1
ENEMY_BANNER = 22
FREE = 23


@njit(inline="always")
def rotate(bb):
    """The bitboard turned 180 degrees (the next mover's frame)."""
    out = np.int64(0)
    while bb:
        sq = lowest_square(bb)
        bb &= bb - 1
        out |= np.int64(1) << (24 - sq)
    return out


@njit(inline="always")
def colex_rank(subset, free, binom):
    """Colex rank of ``subset`` by compressed square numbers within ``free``."""
    rank = np.int64(0)
    i = 1
    while subset:
        low = subset & -subset
        subset ^= low
        rank += binom[popcount(free & (low - 1)), i]
        i += 1
    return rank


@njit(inline="always")
def deposit(compressed, free):
    """The squares of ``free`` picked by the bits of ``compressed`` (in order)."""
    out = np.int64(0)
    j = 0
    while free and (compressed >> j):
        low = free & -free
        free ^= low
        if (compressed >> j) & 1:
            out |= low
        j += 1
    return out


@njit(inline="always")
def child_board(mover_master, mover_students, other_master, other_students, pair_index, binom):
    """Board number, in the next mover's table, after the mover's move (bitboards given
    after the move, in the mover's frame; the other side becomes the mover)."""
    new_master = 24 - lowest_square(other_master)
    new_other_master = 24 - lowest_square(mover_master)
    s1 = rotate(other_students)
    s2 = rotate(mover_students)
    a = popcount(s1)
    b = popcount(s2)
    free = ALL_SQUARES & ~((np.int64(1) << new_master) | (np.int64(1) << new_other_master))
    r1 = colex_rank(s1, free, binom)
    r2 = colex_rank(s2, free & ~s1, binom)
    pair = pair_index[new_master, new_other_master]
    return (pair * binom[FREE, a] + r1) * binom[FREE - a, b] + r2


@njit(inline="always")
def permute(perm, slot, mask):
    """Parent deals (holding ``slot``) whose child deal after playing it is in ``mask``."""
    return (
        perm[slot, 0, mask & 255]
        | perm[slot, 1, (mask >> 8) & 255]
        | perm[slot, 2, (mask >> 16) & 255]
        | perm[slot, 3, (mask >> 24) & 255]
    )


@njit(inline="always")
def mask_from_values(values, board, low_code, high_code, parity):
    """Deals of ``board`` whose value byte is in low..high with the given parity
    (odd: won, even: lost); reads a finished smaller table."""
    mask = np.int64(0)
    base = board * 30
    for d in range(30):
        v = np.int64(values[base + d])
        if v >= low_code and v <= high_code and (v & 1) == parity:
            mask |= np.int64(1) << d
    return mask


@njit(inline="always")
def _sweep_row(
    outer,
    kind,
    step,
    a,
    b,
    c1,
    c2,
    code,
    cap_low,
    cap_high,
    cap_parity,
    won,
    lost,
    values,
    child_masks,
    capture_values,
    targets,
    holds,
    perm,
    pair_mover,
    pair_other,
    pair_index,
    binom,
    combo,
):
    """One outer row of a sweep (one master pair and mover student set, every other
    student set); returns the positions it resolved."""
    total = 0
    pair = outer // c1
    m_sq = pair_mover[pair]
    o_sq = pair_other[pair]
    m_bit = np.int64(1) << m_sq
    o_bit = np.int64(1) << o_sq
    free = ALL_SQUARES & ~(m_bit | o_bit)
    s1 = deposit(combo[a, outer % c1], free)
    free2 = free & ~s1
    own = m_bit | s1
    for r2 in range(c2):
        board = outer * c2 + r2
        open_deals = ALL_DEALS & ~(np.int64(won[board]) | np.int64(lost[board]))
        if open_deals == 0:
            continue
        s2 = deposit(combo[b, r2], free2)
        acc = np.int64(0) if kind == WIN_SWEEP else np.int64(ALL_DEALS)
        movable = 0
        settled = False  # the answer for every open deal is known: stop early
        pieces = own
        while pieces and not settled:
            sq = lowest_square(pieces)
            pieces &= pieces - 1
            s_bit = np.int64(1) << sq
            is_master = sq == m_sq
            union = np.int64(0)
            for slot in range(5):
                tg = targets[slot, sq] & ~own
                if tg:
                    movable |= 1 << slot
                    union |= tg
            while union and not settled:
                to = lowest_square(union)
                union &= union - 1
                t_bit = np.int64(1) << to
                if to == o_sq or (is_master and to == ENEMY_BANNER):
                    # a hit: won in 1 with every deal holding such a card
                    for slot in range(5):
                        if targets[slot, sq] & t_bit:
                            if kind == WIN_SWEEP:
                                if step == 1:
                                    acc |= holds[slot]
                            else:
                                acc &= ~holds[slot]
                    continue
                if step == 1 and kind == WIN_SWEEP:
                    continue  # nothing is lost yet: only hits win in 1
                if is_master:
                    nm, ns1 = t_bit, s1
                else:
                    nm, ns1 = m_bit, (s1 ^ s_bit) | t_bit
                if s2 & t_bit:
                    child = child_board(nm, ns1, o_bit, s2 ^ t_bit, pair_index, binom)
                    x = mask_from_values(capture_values, child, cap_low, cap_high, cap_parity)
                else:
                    child = child_board(nm, ns1, o_bit, s2, pair_index, binom)
                    x = np.int64(child_masks[child])
                for slot in range(5):
                    if targets[slot, sq] & t_bit:
                        p = permute(perm, slot, x)
                        if kind == WIN_SWEEP:
                            acc |= p
                        else:
                            acc &= p | ~holds[slot]
                if kind == WIN_SWEEP:
                    settled = (acc & open_deals) == open_deals
                else:
                    settled = (acc & open_deals) == 0
        if settled:
            if kind == LOSS_SWEEP:
                continue
            # every open deal is won; a deal that must pass has no move, so
            # it cannot be among them: no pass check needed
            movable = 0x1F
        passing = np.int64(ALL_DEALS)
        for slot in range(5):
            if (movable >> slot) & 1:
                passing &= ~holds[slot]
        if passing & open_deals and not (step == 1 and kind == WIN_SWEEP):
            child = child_board(m_bit, s1, o_bit, s2, pair_index, binom)
            x = np.int64(child_masks[child])
            for slot in range(5):
                p = permute(perm, slot, x)
                if kind == WIN_SWEEP:
                    acc |= p & passing
                else:
                    acc &= p | ~(holds[slot] & passing)
        new = acc & open_deals
        if new:
            if kind == WIN_SWEEP:
                won[board] = np.uint32(np.int64(won[board]) | new)
            else:
                lost[board] = np.uint32(np.int64(lost[board]) | new)
            base = board * 30
            rest = new
            while rest:
                d = lowest_square(rest)
                rest &= rest - 1
                values[base + d] = code
            total += popcount(new)
    return total


@njit(parallel=True)
def sweep(
    kind,
    step,
    a,
    b,
    won,
    lost,
    values,
    child_masks,
    capture_values,
    targets,
    holds,
    perm,
    pair_mover,
    pair_other,
    pair_index,
    binom,
    combo,
):
    """One win or loss sweep of step ``step`` over split (a, b), rows shared between
    the cores; returns the number of positions resolved.  ``child_masks`` is the other
    kind's mask array of split (b, a) (lost masks for a win sweep, won masks for a loss
    sweep); ``capture_values`` the value bytes of split (b - 1, a)."""
    c1 = binom[FREE, a]
    c2 = binom[FREE - a, b]
    if kind == WIN_SWEEP:
        code = np.uint8(2 * step - 1)
        cap_low, cap_high, cap_parity = 2, 2 * step - 2, 0
    else:
        code = np.uint8(2 * step)
        cap_low, cap_high, cap_parity = 1, 2 * step - 1, 1
    total = 0
    for outer in prange(pair_mover.shape[0] * c1):
        total += _sweep_row(
            outer,
            kind,
            step,
            a,
            b,
            c1,
            c2,
            code,
            cap_low,
            cap_high,
            cap_parity,
            won,
            lost,
            values,
            child_masks,
            capture_values,
            targets,
            holds,
            perm,
            pair_mover,
            pair_other,
            pair_index,
            binom,
            combo,
        )
    return total


@njit
def sweep_serial(
    kind,
    step,
    a,
    b,
    won,
    lost,
    values,
    child_masks,
    capture_values,
    targets,
    holds,
    perm,
    pair_mover,
    pair_other,
    pair_index,
    binom,
    combo,
):
    """The same sweep on one core: for small splits, where starting the threads and
    their barrier cost more than the work (and a preempted thread on a shared machine
    stalls the other)."""
    c1 = binom[FREE, a]
    c2 = binom[FREE - a, b]
    if kind == WIN_SWEEP:
        code = np.uint8(2 * step - 1)
        cap_low, cap_high, cap_parity = 2, 2 * step - 2, 0
    else:
        code = np.uint8(2 * step)
        cap_low, cap_high, cap_parity = 1, 2 * step - 1, 1
    total = 0
    for outer in range(pair_mover.shape[0] * c1):
        total += _sweep_row(
            outer,
            kind,
            step,
            a,
            b,
            c1,
            c2,
            code,
            cap_low,
            cap_high,
            cap_parity,
            won,
            lost,
            values,
            child_masks,
            capture_values,
            targets,
            holds,
            perm,
            pair_mover,
            pair_other,
            pair_index,
            binom,
            combo,
        )
    return total


PARALLEL_BOARDS = 1_000_000
"""Splits with at least this many boards are swept on both cores."""


@njit(parallel=True)
def value_counts(values, n_boards):
    """Histogram of the value bytes (256 bins), counted per board in parallel."""
    chunks = 64
    per = (n_boards + chunks - 1) // chunks
    hist = np.zeros((chunks, 256), dtype=np.int64)
    for c in prange(chunks):
        start = c * per * 30
        stop = min(n_boards, (c + 1) * per) * 30
        for i in range(start, stop):
            hist[c, values[i]] += 1
    return hist.sum(axis=0)
