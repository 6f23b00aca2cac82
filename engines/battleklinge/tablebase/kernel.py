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
reads only the other mask kind, so threads never race.  Mirror-closed card sets
store only half the boards (index.Layout): a child whose master pair is stored as
its mirror image is reflected on the way (:func:`child_board`).  The win and the
loss sweep are one loop; :func:`_merge` is the only place where they differ.

Value bytes: 0 = no forced result (yet), ``2d - 1`` = won in ``d``, ``2d`` =
lost in ``d`` (distances in own moves of the side to move, up to 127).
"""

from __future__ import annotations

import math

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
def to_child(sq, flip):
    """A square in the next mover's frame: turned 180 degrees, and mirrored if ``flip``."""
    turned = 24 - sq
    if flip:
        file = turned % 5
        return turned - file + 4 - file
    return turned


@njit(inline="always")
def remap(bb, flip):
    """A bitboard in the next mover's frame (:func:`to_child`)."""
    out = np.int64(0)
    while bb:
        sq = lowest_square(bb)
        bb &= bb - 1
        out |= np.int64(1) << to_child(sq, flip)
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
def child_board(
    mover_master,
    mover_students,
    other_master,
    other_students,
    pair_index,
    pair_flip,
    binom,
):
    """Board number, in the next mover's table, after the mover's move (squares and
    bitboards given after the move, in the mover's frame; the other side becomes the
    mover), and whether the stored board is the child's mirror image.

    ``pair_flip`` says which master pairs are stored as their mirror image."""
    flip = pair_flip[24 - other_master, 24 - mover_master]
    new_master = to_child(other_master, flip)
    new_other_master = to_child(mover_master, flip)
    s1 = remap(other_students, flip)
    s2 = remap(mover_students, flip)
    a = popcount(s1)
    b = popcount(s2)
    free = ALL_SQUARES & ~((np.int64(1) << new_master) | (np.int64(1) << new_other_master))
    r1 = colex_rank(s1, free, binom)
    r2 = colex_rank(s2, free & ~s1, binom)
    pair = pair_index[new_master, new_other_master]
    return (pair * binom[FREE, a] + r1) * binom[FREE - a, b] + r2, flip


@njit(inline="always")
def permute_mask(table, mask):
    """A 30-bit deal mask through a deal permutation given as four byte tables."""
    return (
        table[0, mask & 255]
        | table[1, (mask >> 8) & 255]
        | table[2, (mask >> 16) & 255]
        | table[3, (mask >> 24) & 255]
    )


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
def child_mask(board, flip, masks, mask_mirror, sigma_identity):
    """A quiet child's deal mask, in the child's own deals (a mirrored board's deals are
    those of the mirror image: permute them back unless every card is symmetric)."""
    x = np.int64(masks[board])
    if flip and not sigma_identity:
        x = permute_mask(mask_mirror, x)
    return x


@njit(inline="always")
def capture_mask(board, flip, values, low_code, high_code, parity, mask_mirror, sigma_identity):
    """The same for a capture's child, read from the value bytes of a finished table."""
    x = mask_from_values(values, board, low_code, high_code, parity)
    if flip and not sigma_identity:
        x = permute_mask(mask_mirror, x)
    return x


@njit(inline="always")
def _merge(kind, acc, child_deals, holding):
    """Fold one move's child result into the accumulator of the board's open deals.

    ``child_deals``: the parent deals (holding the move's card, ``holding``) whose child
    is lost (win sweep) or won (loss sweep) within the step.  A win needs one such move;
    a loss needs every move to be one."""
    if kind == WIN_SWEEP:
        return acc | child_deals
    return acc & (child_deals | ~holding)


@njit(inline="always")
def _sweep_row(
    outer,
    kind,
    step,
    a,
    b,
    c1,
    c2,
    won,
    lost,
    values,
    child_masks,
    capture_values,
    targets,
    holds,
    perm,
    binom,
    combo,
    pair_mover,
    pair_other,
    pair_index,
    pair_flip,
    mask_mirror,
    sigma_identity,
):
    """One outer row of a sweep (one master pair and mover student set, every other
    student set); returns the positions it resolved.  Arrays are passed one by one:
    tuples of arrays in the hot loop cost a reference count update per use (and square
    maps are arithmetic, :func:`to_child`: a lookup table here doubled the sweep time)."""
    if kind == WIN_SWEEP:
        code = np.uint8(2 * step - 1)
        cap_low, cap_high, cap_parity = 2, 2 * step - 2, 0
    else:
        code = np.uint8(2 * step)
        cap_low, cap_high, cap_parity = 1, 2 * step - 1, 1
    hits_only = step == 1 and kind == WIN_SWEEP  # nothing is lost yet: only hits win in 1
    total = 0
    pair = outer // c1
    m_sq = pair_mover[pair]
    o_sq = pair_other[pair]
    m_bit = np.int64(1) << m_sq
    free = ALL_SQUARES & ~(m_bit | (np.int64(1) << o_sq))
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
                    # a hit: won in 1 with every deal holding such a card (later steps
                    # find those deals settled), and never lost
                    for slot in range(5):
                        if targets[slot, sq] & t_bit:
                            if kind == LOSS_SWEEP:
                                acc &= ~holds[slot]
                            elif step == 1:
                                acc |= holds[slot]
                    continue
                if hits_only:
                    continue
                if is_master:
                    nm, ns1 = to, s1
                else:
                    nm, ns1 = m_sq, (s1 ^ (np.int64(1) << sq)) | t_bit
                if s2 & t_bit:
                    child, flip = child_board(
                        nm, ns1, o_sq, s2 ^ t_bit, pair_index, pair_flip, binom
                    )
                    x = capture_mask(
                        child,
                        flip,
                        capture_values,
                        cap_low,
                        cap_high,
                        cap_parity,
                        mask_mirror,
                        sigma_identity,
                    )
                else:
                    child, flip = child_board(nm, ns1, o_sq, s2, pair_index, pair_flip, binom)
                    x = child_mask(child, flip, child_masks, mask_mirror, sigma_identity)
                for slot in range(5):
                    if targets[slot, sq] & t_bit:
                        acc = _merge(kind, acc, permute(perm, slot, x), holds[slot])
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
        if passing & open_deals and not hits_only:
            child, flip = child_board(m_sq, s1, o_sq, s2, pair_index, pair_flip, binom)
            x = child_mask(child, flip, child_masks, mask_mirror, sigma_identity)
            for slot in range(5):
                acc = _merge(kind, acc, permute(perm, slot, x) & passing, holds[slot] & passing)
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


def _sweep(kind, step, a, b, arrays, tables, lay, first_row, stop_row):
    """One win or loss sweep of step ``step`` over rows ``first_row`` to ``stop_row`` - 1
    of split (a, b) (a row: one master pair and one placement of the mover's students,
    :func:`sweep_rows`); returns the number of positions resolved.
    ``arrays = (won, lost, values, child_masks, capture_values)``:
    ``child_masks`` is the other kind's mask array of split (b, a) (lost masks for a win
    sweep, won masks for a loss sweep), ``capture_values`` the value bytes of split
    (b - 1, a).  ``tables`` are the card set's (targets, holds, perm, binom, combo),
    ``lay`` its layout's arrays (:func:`layout_arrays`)."""
    won, lost, values, child_masks, capture_values = arrays
    targets, holds, perm, binom, combo = tables
    pair_mover, pair_other, pair_index, pair_flip, mask_mirror, sigma_identity = lay
    c1 = binom[FREE, a]
    c2 = binom[FREE - a, b]
    total = 0
    for row in prange(stop_row - first_row):
        total += _sweep_row(
            first_row + row, kind, step, a, b, c1, c2,
            won, lost, values, child_masks, capture_values,
            targets, holds, perm, binom, combo,
            pair_mover, pair_other, pair_index, pair_flip, mask_mirror, sigma_identity,
        )  # fmt: skip
    return total


sweep = njit(parallel=True)(_sweep)
"""The sweep with rows shared between both cores."""

sweep_serial = njit(_sweep)
"""The same sweep on one core (``prange`` runs as ``range``): for small splits, where
starting the threads and their barrier cost more than the work (and a preempted
thread on a shared machine stalls the other)."""


PARALLEL_BOARDS = 1_000_000
"""Splits with at least this many boards are swept on both cores."""

CHUNK_BOARDS = 500_000
"""Boards per compiled sweep call (about 0.1-0.3 s): compiled code never sees Ctrl-C, so
a sweep over a large split is cut into calls and the interrupt lands between two."""


def sweep_rows(lay, a: int, b: int) -> list[tuple[int, int]]:
    """The row ranges of split (a, b) that one compiled call sweeps (:data:`CHUNK_BOARDS`
    boards or fewer each).  Rows are independent: each writes only its own boards."""
    pairs, _, _, _, _, _ = lay
    c1, c2 = math.comb(FREE, a), math.comb(FREE - a, b)
    rows = pairs.shape[0] * c1
    step = max(1, CHUNK_BOARDS // c2)
    return [(first, min(first + step, rows)) for first in range(0, rows, step)]


@njit(parallel=True)
def value_counts(values, n_boards, doubled_boards):
    """Histogram of the value bytes (256 bins) weighted by the positions each stands
    for: the first ``doubled_boards`` boards also stand for their mirror image."""
    chunks = 64
    per = (n_boards + chunks - 1) // chunks
    hist = np.zeros((chunks, 256), dtype=np.int64)
    for c in prange(chunks):
        for board in range(c * per, min(n_boards, (c + 1) * per)):
            weight = 2 if board < doubled_boards else 1
            for i in range(board * 30, board * 30 + 30):
                hist[c, values[i]] += weight
    return hist.sum(axis=0)


def layout_arrays(lay) -> tuple:
    """The arrays of an :class:`~.index.Layout` in the order the sweep takes them."""
    return (
        lay.pair_mover,
        lay.pair_other,
        lay.pair_index,
        lay.pair_flip,
        lay.mask_mirror,
        lay.sigma_identity,
    )
