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
loss sweep are one loop; :func:`_merge` is the only place where they differ.  A loss
sweep remembers, per board, the moves whose child it found won for every open deal
holding the move's card, and never reads them again (``checked``, a word per board
that only the board's own sweep writes; :func:`_evaluate_board`).

Value bytes: 0 = no forced result (yet), ``2d - 1`` = won in ``d``, ``2d`` =
lost in ``d`` (distances in own moves of the side to move, up to 127).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from fechtbuch.engines.battleklinge.fast import lowest_square, popcount
from fechtbuch.engines.compiled import njit, table_inline
from numba import prange

WIN_SWEEP = 0
LOSS_SWEEP = 1
ALL_SQUARES = (1 << 25) - 1
ALL_DEALS = (1 << 30) - 1
ENEMY_BANNER = 22
FREE = 23


@njit(inline=table_inline())
def mirror_square(sq):
    """A square mirrored left-right (file a to e)."""
    file = sq % 5
    return sq - file + 4 - file


@njit(inline=table_inline())
def to_child(sq, flip):
    """A square in the next mover's frame: turned 180 degrees, and mirrored if ``flip``."""
    turned = 24 - sq
    if flip:
        return mirror_square(turned)
    return turned


@njit(inline=table_inline())
def remap(bb, flip):
    """A bitboard in the next mover's frame (:func:`to_child`)."""
    out = np.int64(0)
    while bb:
        sq = lowest_square(bb)
        bb &= bb - 1
        out |= np.int64(1) << to_child(sq, flip)
    return out


@njit(inline=table_inline())
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


@njit(inline=table_inline())
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


@njit(inline=table_inline())
def board_number(pair, mover_master, other_master, mover_students, other_students, binom):
    """The board number of a stored placement (master pair ``pair``) within its split."""
    a = popcount(mover_students)
    b = popcount(other_students)
    free = ALL_SQUARES & ~((np.int64(1) << mover_master) | (np.int64(1) << other_master))
    r1 = colex_rank(mover_students, free, binom)
    r2 = colex_rank(other_students, free & ~mover_students, binom)
    return (pair * binom[FREE, a] + r1) * binom[FREE - a, b] + r2


@njit(inline=table_inline())
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
    pair = pair_index[new_master, new_other_master]
    return board_number(pair, new_master, new_other_master, s1, s2, binom), flip


@njit(inline=table_inline())
def permute_mask(table, mask):
    """A 30-bit deal mask through a deal permutation given as four byte tables."""
    return (
        table[0, mask & 255]
        | table[1, (mask >> 8) & 255]
        | table[2, (mask >> 16) & 255]
        | table[3, (mask >> 24) & 255]
    )


@njit(inline=table_inline())
def permute(perm, slot, mask):
    """Parent deals (holding ``slot``) whose child deal after playing it is in ``mask``."""
    return (
        perm[slot, 0, mask & 255]
        | perm[slot, 1, (mask >> 8) & 255]
        | perm[slot, 2, (mask >> 16) & 255]
        | perm[slot, 3, (mask >> 24) & 255]
    )


@njit(inline=table_inline())
def through_card(perm, holds, slot, mask):
    """:func:`permute`, without the table look-ups for a child with no deal or every deal
    in ``mask`` (common: a child decided for every deal, or for none yet)."""
    if mask == 0:
        return np.int64(0)
    if mask == ALL_DEALS:
        return np.int64(holds[slot])
    return permute(perm, slot, mask)


@njit(inline=table_inline())
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


@njit(inline=table_inline())
def child_mask(board, flip, masks, mask_mirror, sigma_identity):
    """A quiet child's deal mask, in the child's own deals (a mirrored board's deals are
    those of the mirror image: permute them back unless every card is symmetric)."""
    x = np.int64(masks[board])
    if flip and not sigma_identity and x != 0 and x != ALL_DEALS:
        x = permute_mask(mask_mirror, x)
    return x


@njit(inline=table_inline())
def capture_mask(board, flip, values, low_code, high_code, parity, mask_mirror, sigma_identity):
    """The same for a capture's child, from the finished table the capture leads to:
    its value bytes, or (an array of 32-bit masks, :func:`advance_capture_masks`) the
    mask of the deals that count in this step, read like a quiet child's."""
    if values.itemsize == 4:
        return child_mask(board, flip, values, mask_mirror, sigma_identity)
    x = mask_from_values(values, board, low_code, high_code, parity)
    if flip and not sigma_identity:
        x = permute_mask(mask_mirror, x)
    return x


@njit(inline=table_inline())
def write_values(values, board, deals, code):
    """Write ``code`` to the value bytes of ``deals`` (a mask) of ``board``; returns how
    many."""
    base = board * 30
    rest = deals
    while rest:
        d = lowest_square(rest)
        rest &= rest - 1
        values[base + d] = code
    return popcount(deals)


MOVE_BITS = 32
"""Moves a board's ``checked`` word tracks (:func:`move_bit`); later ones are always read.
With the terz set every move is tracked up to K = 3: its five cards take a piece to at
most 8 squares, so four pieces have at most 32 moves.  einsteiger's cards reach up to 9
squares and angriff's 13, so with them a board's last moves may go untracked (read in
every sweep, as without the word)."""


@njit(inline=table_inline())
def move_bit(piece_base, reach, t_bit):
    """The bit of a move in a board's ``checked`` word (:func:`_evaluate_board`), or -1:
    the piece's moves are numbered from ``piece_base`` in the order of their target
    squares among ``reach`` (every square any card takes the piece to), a numbering
    that does not depend on which cards are still held in an open deal."""
    bit = piece_base + popcount(reach & (t_bit - 1))
    return bit if bit < MOVE_BITS else -1


@njit(inline=table_inline())
def _merge(kind, acc, child_deals, holding):
    """Fold one move's child result into the accumulator of the board's open deals.

    ``child_deals``: the parent deals (holding the move's card, ``holding``) whose child
    is lost (win sweep) or won (loss sweep) within the step.  A win needs one such move;
    a loss needs every move to be one."""
    if kind == WIN_SWEEP:
        return acc | child_deals
    return acc & (child_deals | ~holding)


@njit(inline=table_inline())
def _step_codes(kind, step):
    """The value byte a sweep writes, and the codes of a capture's finished child that
    count for it (lost within step - 1 for a win, won within step for a loss)."""
    if kind == WIN_SWEEP:
        return np.uint8(2 * step - 1), 2, 2 * step - 2, 0
    return np.uint8(2 * step), 1, 2 * step - 1, 1


@njit(inline=table_inline())
def quiet_frame(m_sq, o_sq, s1_count, s2, pair_index, pair_flip, binom):
    """What the children of a board's quiet student moves and of its pass share: they
    keep the masters and the child's mover students (the board's other students), so
    their numbers differ only in the rank of the child's other students (the mover's,
    one of them moved).  Returns whether the child is stored mirrored, the rest of the
    number (:func:`board_number`) and the squares the last rank counts in.  A column
    shares all three (:func:`_sweep_column`)."""
    flip = pair_flip[24 - o_sq, 24 - m_sq]
    child_master = to_child(o_sq, flip)
    child_other_master = to_child(m_sq, flip)
    child_students = remap(s2, flip)
    child_free = ALL_SQUARES & ~(
        (np.int64(1) << child_master) | (np.int64(1) << child_other_master)
    )
    b = popcount(s2)
    base = (
        pair_index[child_master, child_other_master] * binom[FREE, b]
        + colex_rank(child_students, child_free, binom)
    ) * binom[FREE - b, s1_count]
    return flip, base, child_free & ~child_students


@njit(inline=table_inline())
def _evaluate_board(
    board,
    open_deals,
    kind,
    code,
    cap_low,
    cap_high,
    cap_parity,
    step,
    m_sq,
    s1,
    o_sq,
    s2,
    quiet_flip,
    quiet_base,
    quiet_free,
    won,
    lost,
    values,
    child_masks,
    capture_values,
    checked,
    targets,
    holds,
    perm,
    binom,
    pair_index,
    pair_flip,
    mask_mirror,
    sigma_identity,
):
    """One board of a sweep: the open deals it wins (or loses) in this step, written to
    its mask and value bytes; returns how many.  Arrays are passed one by one: tuples of
    arrays in the hot loop cost a reference count update per use (and square maps are
    arithmetic, :func:`to_child`: a lookup table here doubled the sweep time).
    ``quiet_flip``, ``quiet_base``, ``quiet_free``: :func:`quiet_frame`.

    ``checked`` (loss sweeps; empty: none): per board, one bit per move
    (:func:`move_bit`) whose children were found won, in an earlier loss sweep, for
    every deal then open that holds its card.  Children only gain wins and deals only
    close, so such a move never refutes a loss again and is skipped: such a child is
    read once, not in every step until the board is decided (the loss sweeps of (2, 2)
    of the terz set read 0.60 of the children they read without it).  A move whose
    child is won for only some of those deals, a move past :data:`MOVE_BITS`, and the
    moves after a board was settled are read again in the next sweep."""
    hits_only = step == 1 and kind == WIN_SWEEP  # nothing is lost yet: only hits win in 1
    track = kind == LOSS_SWEEP and checked.shape[0] > 0
    known_won = np.int64(checked[board]) if track else np.int64(0)
    move_base = 0  # the bit of the piece's first move
    m_bit = np.int64(1) << m_sq
    own = m_bit | s1
    remapped_own = np.int64(0) if hits_only else remap(s1, quiet_flip)
    acc = np.int64(0) if kind == WIN_SWEEP else np.int64(ALL_DEALS)
    # Only the cards held in an open deal matter: a move with another card changes
    # the accumulator only for settled deals (and the pass only for deals whose cards
    # are both held in them), so with few open deals most moves are never looked at.
    relevant = 0
    for slot in range(5):
        if holds[slot] & open_deals:
            relevant |= 1 << slot
    movable = 0
    settled = False  # the answer for every open deal is known: stop early
    pieces = own
    while pieces and not settled:
        sq = lowest_square(pieces)
        pieces &= pieces - 1
        is_master = sq == m_sq
        union = np.int64(0)
        for slot in range(5):
            if (relevant >> slot) & 1:
                tg = targets[slot, sq] & ~own
                if tg:
                    movable |= 1 << slot
                    union |= tg
        piece_base = move_base
        reach = np.int64(0)
        if track:
            for slot in range(5):
                reach |= targets[slot, sq]
            reach &= ~own
            move_base += popcount(reach)
        while union and not settled:
            to = lowest_square(union)
            union &= union - 1
            t_bit = np.int64(1) << to
            if to == o_sq or (is_master and to == ENEMY_BANNER):
                # a hit: won in 1 with every deal holding such a card (later steps
                # find those deals settled), and never lost
                for slot in range(5):
                    if (relevant >> slot) & 1 and targets[slot, sq] & t_bit:
                        if kind == LOSS_SWEEP:
                            acc &= ~holds[slot]
                        elif step == 1:
                            acc |= holds[slot]
                continue
            if hits_only:
                continue
            bit = move_bit(piece_base, reach, t_bit) if track else -1
            if bit >= 0 and (known_won >> bit) & 1:
                continue
            if is_master:
                nm, ns1 = to, s1
            else:
                nm, ns1 = m_sq, (s1 ^ (np.int64(1) << sq)) | t_bit
            if not is_master and not (s2 & t_bit):
                # a quiet student move: only the child's last index component changes
                moved = (np.int64(1) << to_child(sq, quiet_flip)) | (
                    np.int64(1) << to_child(to, quiet_flip)
                )
                child = quiet_base + colex_rank(remapped_own ^ moved, quiet_free, binom)
                x = child_mask(child, quiet_flip, child_masks, mask_mirror, sigma_identity)
            elif s2 & t_bit:
                child, flip = child_board(nm, ns1, o_sq, s2 ^ t_bit, pair_index, pair_flip, binom)
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
            refuted = np.int64(0)  # loss sweep: the deals this move keeps from losing
            for slot in range(5):
                if (relevant >> slot) & 1 and targets[slot, sq] & t_bit:
                    reached = through_card(perm, holds, slot, x)
                    acc = _merge(kind, acc, reached, holds[slot])
                    refuted |= holds[slot] & ~reached
            if bit >= 0 and (refuted & open_deals) == 0:
                known_won |= np.int64(1) << bit
            if kind == WIN_SWEEP:
                settled = (acc & open_deals) == open_deals
            else:
                settled = (acc & open_deals) == 0
    if track:
        checked[board] = np.uint32(known_won)
    if settled:
        if kind == LOSS_SWEEP:
            return 0
        # every open deal is won; a deal that must pass has no move, so
        # it cannot be among them: no pass check needed
        movable = 0x1F
    passing = np.int64(ALL_DEALS)
    for slot in range(5):
        if (movable >> slot) & 1:
            passing &= ~holds[slot]
    if passing & open_deals and not hits_only:
        child = quiet_base + colex_rank(remapped_own, quiet_free, binom)
        x = child_mask(child, quiet_flip, child_masks, mask_mirror, sigma_identity)
        for slot in range(5):
            acc = _merge(kind, acc, permute(perm, slot, x) & passing, holds[slot] & passing)
    new = acc & open_deals
    if new:
        if kind == WIN_SWEEP:
            won[board] = np.uint32(np.int64(won[board]) | new)
        else:
            lost[board] = np.uint32(np.int64(lost[board]) | new)
        return write_values(values, board, new, code)
    return 0


@njit(inline=table_inline())
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
    checked,
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
    student set: consecutive boards); returns the positions it resolved."""
    code, cap_low, cap_high, cap_parity = _step_codes(kind, step)
    total = 0
    pair = outer // c1
    m_sq = pair_mover[pair]
    o_sq = pair_other[pair]
    free = ALL_SQUARES & ~((np.int64(1) << m_sq) | (np.int64(1) << o_sq))
    s1 = deposit(combo[a, outer % c1], free)
    free2 = free & ~s1
    for r2 in range(c2):
        board = outer * c2 + r2
        open_deals = ALL_DEALS & ~(np.int64(won[board]) | np.int64(lost[board]))
        if open_deals == 0:
            continue
        s2 = deposit(combo[b, r2], free2)
        quiet_flip, quiet_base, quiet_free = np.int64(0), np.int64(0), np.int64(0)
        if not (step == 1 and kind == WIN_SWEEP):  # the hits of step 1 read no child
            quiet_flip, quiet_base, quiet_free = quiet_frame(
                m_sq, o_sq, a, s2, pair_index, pair_flip, binom
            )
        total += _evaluate_board(
            board, open_deals, kind, code, cap_low, cap_high, cap_parity, step,
            m_sq, s1, o_sq, s2, quiet_flip, quiet_base, quiet_free,
            won, lost, values, child_masks, capture_values, checked,
            targets, holds, perm, binom, pair_index, pair_flip, mask_mirror, sigma_identity,
        )  # fmt: skip
    return total


@njit(inline=table_inline())
def _sweep_column(
    column,
    kind,
    step,
    a,
    b,
    won,
    lost,
    values,
    child_masks,
    capture_values,
    checked,
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
    squares,
):
    """One column of a sweep: one master pair and one set of the *other* side's students,
    every placement of the mover's students; returns the positions it resolved.

    A column's boards are not consecutive, but their children are: after a student
    move the child's mover students (this column's other students) and masters are the
    column's, so the children differ only in the child's last index component and lie
    in one block of C(23 - b, a) boards; each master destination adds one such block.
    So a column reads its children from a few kilobytes that stay in cache, where a
    row's children lie far apart (one cache miss each).  ``squares``: scratch, 25."""
    code, cap_low, cap_high, cap_parity = _step_codes(kind, step)
    cb = binom[FREE, b]
    pair = column // cb
    m_sq = pair_mover[pair]
    o_sq = pair_other[pair]
    free = ALL_SQUARES & ~((np.int64(1) << m_sq) | (np.int64(1) << o_sq))
    s2 = deposit(combo[b, column % cb], free)
    quiet_flip, quiet_base, quiet_free = quiet_frame(
        m_sq, o_sq, a, s2, pair_index, pair_flip, binom
    )
    avail = free & ~s2
    n = 0
    while avail:
        squares[n] = lowest_square(avail)
        avail &= avail - 1
        n += 1
    total = 0
    for j in range(binom[n, a]):
        picked = combo[a, j]  # colex: the first C(n, a) subsets use only the first n squares
        s1 = np.int64(0)
        while picked:
            s1 |= np.int64(1) << squares[lowest_square(picked)]
            picked &= picked - 1
        board = board_number(pair, m_sq, o_sq, s1, s2, binom)
        open_deals = ALL_DEALS & ~(np.int64(won[board]) | np.int64(lost[board]))
        if open_deals == 0:
            continue
        total += _evaluate_board(
            board, open_deals, kind, code, cap_low, cap_high, cap_parity, step,
            m_sq, s1, o_sq, s2, quiet_flip, quiet_base, quiet_free,
            won, lost, values, child_masks, capture_values, checked,
            targets, holds, perm, binom, pair_index, pair_flip, mask_mirror, sigma_identity,
        )  # fmt: skip
    return total


def _sweep(kind, step, a, b, arrays, tables, lay, rows, threads):
    """One win or loss sweep of step ``step`` over the rows ``rows`` (row numbers) of split
    (a, b) (a row: one master pair and one placement of the mover's students,
    :func:`split_rows`); returns the number of positions resolved.
    ``arrays = (won, lost, values, child_masks, capture_values, checked)``:
    ``child_masks`` is the other kind's mask array of split (b, a) (lost masks for a win
    sweep, won masks for a loss sweep), ``capture_values`` the value bytes of split
    (b - 1, a).  ``tables`` are the card set's (targets, holds, perm, binom, combo),
    ``lay`` its layout's arrays (:func:`layout_arrays`).  Rows are dealt to ``threads``
    threads round-robin, so that each gets a share of every region of the split."""
    won, lost, values, child_masks, capture_values, checked = arrays
    targets, holds, perm, binom, combo = tables
    pair_mover, pair_other, pair_index, pair_flip, mask_mirror, sigma_identity = lay
    c1 = binom[FREE, a]
    c2 = binom[FREE - a, b]
    n = rows.shape[0]
    threads = max(1, min(n, threads))
    resolved = np.zeros(threads, dtype=np.int64)
    for thread in prange(threads):
        for i in range(thread, n, threads):
            resolved[thread] += _sweep_row(
                rows[i], kind, step, a, b, c1, c2,
                won, lost, values, child_masks, capture_values, checked,
                targets, holds, perm, binom, combo,
                pair_mover, pair_other, pair_index, pair_flip, mask_mirror, sigma_identity,
            )  # fmt: skip
    return resolved.sum()


@njit
def open_rows(won, lost, c2, rows):
    """The rows of ``rows`` (of a split with ``c2`` boards a row) that still hold a board
    with an open deal.  A resolved deal never opens again, so a late step passes the
    previous step's list and reads only the boards left in it."""
    out = np.empty_like(rows)
    n = 0
    for i in range(rows.shape[0]):
        row = rows[i]
        for board in range(row * c2, (row + 1) * c2):
            if (np.int64(won[board]) | np.int64(lost[board])) != ALL_DEALS:
                out[n] = row
                n += 1
                break
    return out[:n]


# Each sweep is compiled once, with ``parallel=True``, and called with one thread for
# small splits.  numba's disk cache keys a function by its source, not by its flags: a
# second ``njit(_sweep)`` without ``parallel`` shared the first one's cache entry, so
# whichever variant compiled first served both (the two-core sweeps ran serial code,
# 1.0 cores busy).  The parallel build is also the faster one on one thread (0.32 s
# against 0.70 s for six column chunks of (2, 2), both on one thread).
sweep = njit(parallel=True)(_sweep)
"""The row sweep (``threads``: 1 for small splits, numba.get_num_threads() for large)."""


COLUMN_BLOCK = 8
"""Consecutive columns one thread sweeps together (they share the master pair, so the
mover's own masks they touch stay in cache)."""


def _sweep_columns(kind, step, a, b, arrays, tables, lay, first_column, stop_column, threads):
    """One win or loss sweep of step ``step`` over columns ``first_column`` to
    ``stop_column`` - 1 of split (a, b) (:func:`_sweep_column`; a column: one master pair
    and one set of the other side's students), the same results as :func:`_sweep` over
    the same boards; returns the number of positions resolved.  Blocks of
    :data:`COLUMN_BLOCK` columns are dealt to the threads round-robin, so that both get
    a share of every region of the split (regions resolve at different steps);
    ``threads``: how many (numba.get_num_threads(): read inside, it would keep the
    function out of the disk cache)."""
    won, lost, values, child_masks, capture_values, checked = arrays
    targets, holds, perm, binom, combo = tables
    pair_mover, pair_other, pair_index, pair_flip, mask_mirror, sigma_identity = lay
    blocks = (stop_column - first_column + COLUMN_BLOCK - 1) // COLUMN_BLOCK
    threads = max(1, min(blocks, threads))
    resolved = np.zeros(threads, dtype=np.int64)
    for thread in prange(threads):
        squares = np.zeros(25, dtype=np.int64)
        for block in range(thread, blocks, threads):
            start = first_column + block * COLUMN_BLOCK
            for column in range(start, min(start + COLUMN_BLOCK, stop_column)):
                resolved[thread] += _sweep_column(
                    column, kind, step, a, b,
                    won, lost, values, child_masks, capture_values, checked,
                    targets, holds, perm, binom, combo,
                    pair_mover, pair_other, pair_index, pair_flip, mask_mirror, sigma_identity,
                    squares,
                )  # fmt: skip
    return resolved.sum()


sweep_columns = njit(parallel=True)(_sweep_columns)
"""The column sweep (``threads`` as for :data:`sweep`)."""


def column_ranges(lay, a: int, b: int) -> list[tuple[int, int]]:
    """The column ranges of split (a, b) that one compiled call sweeps (about
    :data:`CHUNK_BOARDS` boards each, like :func:`split_rows`)."""
    pairs, _, _, _, _, _ = lay
    per_column = math.comb(FREE - b, a)
    columns = pairs.shape[0] * math.comb(FREE, b)
    step = max(1, CHUNK_BOARDS // per_column)
    return [(first, min(first + step, columns)) for first in range(0, columns, step)]


@njit(parallel=True)
def last_steps(values, boards):
    """The step in which each board's last deal was decided (0: none was), from the
    value bytes of a finished table: :func:`advance_capture_masks` skips the boards
    whose every decided deal lies behind it."""
    out = np.zeros(boards, dtype=np.uint8)
    for board in prange(boards):
        top = 0
        for i in range(board * 30, board * 30 + 30):
            top = max(top, (np.int64(values[i]) + 1) // 2)
        out[board] = top
    return out


@njit(parallel=True)
def advance_capture_masks(values, lost_within, won_within, step, last_step):
    """Bring the capture masks of a finished table to step ``step``: ``lost_within``
    gains the deals lost in ``step`` - 1 (a win sweep of the step counts captures into
    positions lost within step - 1), ``won_within`` those won in ``step`` (a loss sweep
    counts those won within step).  Called once per step, in order, from zero masks,
    they hold what :func:`mask_from_values` would find, as one 4-byte read.
    ``last_step``: :func:`last_steps` of the table."""
    lost_code = 2 * (step - 1)
    won_code = 2 * step - 1
    for board in prange(lost_within.shape[0]):
        if np.int64(last_step[board]) < step - 1:
            continue
        lost = np.int64(0)
        won = np.int64(0)
        base = board * 30
        for d in range(30):
            v = np.int64(values[base + d])
            if v == won_code:
                won |= np.int64(1) << d
            elif v == lost_code and v > 0:
                lost |= np.int64(1) << d
        if lost:
            lost_within[board] = np.uint32(np.int64(lost_within[board]) | lost)
        if won:
            won_within[board] = np.uint32(np.int64(won_within[board]) | won)


def sweep_split(kind, step, a, b, arrays, tables, lay, rows: np.ndarray | None = None) -> int:
    """One win or loss sweep of step ``step`` over split (a, b), in compiled calls of
    about :data:`CHUNK_BOARDS` boards; returns the positions resolved.

    ``rows`` None: most boards are still open, so sweep every board by columns (children
    read from cache, :func:`_sweep_column`).  Else sweep only the listed rows (those
    with an open board, :func:`open_rows`): in the late steps a column would compute the
    number of many resolved boards, and a full pass would read every board's masks.
    Both give the same results: a sweep reads only the other kind's masks, so the order
    of its boards does not matter, and a board with no open deal changes nothing."""
    boards = lay[0].shape[0] * math.comb(FREE, a) * math.comb(FREE - a, b)
    threads = numba.get_num_threads() if boards >= PARALLEL_BOARDS else 1
    resolved = 0
    if rows is None and kind == WIN_SWEEP and step == 1:
        # the hits of step 1 read no child, so columns gain nothing; rows write the
        # masks and value bytes in order (0.6 s against 0.75 s for (2, 2))
        rows = split_rows(lay, a, b)
    if rows is None:
        for first, stop in column_ranges(lay, a, b):
            resolved += sweep_columns(kind, step, a, b, arrays, tables, lay, first, stop, threads)
    else:
        per_call = max(1, CHUNK_BOARDS // math.comb(FREE - a, b))
        for first in range(0, len(rows), per_call):
            chunk = rows[first : first + per_call]
            resolved += sweep(kind, step, a, b, arrays, tables, lay, chunk, threads)
    return resolved


def nothing_checked() -> np.ndarray:
    """The ``checked`` array of a sweep that reads every move (:func:`_evaluate_board`)."""
    return np.zeros(0, dtype=np.uint32)


def compile_sweeps(tables, lay) -> None:
    """Compile (or load from the disk cache) both sweeps by calling them on no rows: a
    benchmark that warms up then times the sweeps, not the compiler."""
    masks = np.zeros(0, dtype=np.uint32)
    arrays = (masks, masks, np.zeros(0, dtype=np.uint8), masks, masks, nothing_checked())
    sweep_columns(WIN_SWEEP, 1, 0, 0, arrays, tables, lay, 0, 0, 1)
    sweep(WIN_SWEEP, 1, 0, 0, arrays, tables, lay, np.zeros(0, dtype=np.int64), 1)
    open_rows(masks, masks, 1, np.zeros(0, dtype=np.int64))


DENSE_SHARE = 200
"""A step is swept by columns while the previous step resolved at least 1/DENSE_SHARE of
the group's positions (measured on (1, 2)/(2, 1): columns were faster until about the
step where fewer than 0.5 % were resolved, the listed open rows after it)."""


PARALLEL_BOARDS = 1_000_000
"""Splits with at least this many boards are swept on every thread; smaller ones on one
(starting the threads for each of their many short calls costs more than it saves, and a
preempted thread on a shared machine stalls the other)."""

CHUNK_BOARDS = 500_000
"""Boards per compiled sweep call (about 0.1-0.3 s): compiled code never sees Ctrl-C, so
a sweep over a large split is cut into calls and the interrupt lands between two."""


def split_rows(lay, a: int, b: int) -> np.ndarray:
    """Every row number of split (a, b): one master pair and one placement of the mover's
    students, ``C(23 - a, b)`` consecutive boards.  Rows are independent: a sweep of a row
    writes only its own boards."""
    pairs, _, _, _, _, _ = lay
    return np.arange(pairs.shape[0] * math.comb(FREE, a), dtype=np.int64)


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
