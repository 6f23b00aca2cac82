"""The win step by un-moves: from the positions lost in the last step to their parents.

The row sweep of :mod:`.kernel` finds the wins of step ``t`` by looking at every move
of every open board, most of which are lost for the mover or not decided yet, in
every step.  A position is won in ``t`` exactly when some move reaches a child
lost in ``t - 1`` (children lost earlier made it won earlier), so it is enough to
start from the children lost in ``t - 1`` and walk their moves backwards: each
lost (board, step) is visited once over the whole analysis instead of once per step
for every open parent.  On (2, 2) of the terz set that is 19.8 million (board, step)
pairs against 68.3 million boards the win sweeps of steps 2 to 47 would visit
(counted from the finished table's value bytes).

Un-moves, in the parent's frame (the child turned 180 degrees): one of the parent's
pieces stands on ``q`` and came from an empty square ``f`` with a card of the
parent's hand (``targets[slot, f]`` holds ``q``); a capture child (from the finished
split with one student less) puts the taken student back on ``q``; and the parent
that passes (no piece moves with either hand card) has the child's very placement.
Hits never reach a child: they win in step 1, which stays a sweep.

Writes never race: a parent's other master is the child's mover master, turned,
so children are dealt to the threads by the square of their mover master up to
the mirror (:func:`master_classes`), and each thread writes only the parents whose
other master is in its classes.  The result is the row sweep's, byte for byte.
"""

from __future__ import annotations

import numpy as np
from fechtbuch.engines.battleklinge.fast import lowest_square, popcount
from fechtbuch.engines.battleklinge.tablebase.kernel import (
    ALL_DEALS,
    ALL_SQUARES,
    ENEMY_BANNER,
    FREE,
    board_number,
    colex_rank,
    deposit,
    mirror_square,
    permute,
    permute_mask,
    remap,
    through_card,
    write_values,
)
from fechtbuch.engines.compiled import njit, table_inline
from numba import prange

MAX_PARENTS = 4 * 5 * 8 + 1
"""More parents than one child position can have (four pieces, five cards, at most
eight squares a card reaches a square from, and the pass)."""

C_FILE = sum(1 << (rank * 5 + 2) for rank in range(5))
"""The squares of the c file (the middle file, its own mirror image)."""


@njit(inline=table_inline())
def mirror_bits(bb):
    """A bitboard mirrored left-right (file a to e)."""
    out = np.int64(0)
    while bb:
        sq = lowest_square(bb)
        bb &= bb - 1
        out |= np.int64(1) << mirror_square(sq)
    return out


@njit(inline=table_inline())
def stored_board(m_sq, s1, o_sq, s2, pair_index, pair_flip, binom):
    """The board number of a placement (mover's frame), and whether it is stored as
    its mirror image (:class:`~.index.Layout`)."""
    flip = pair_flip[m_sq, o_sq]
    if flip:
        m_sq = mirror_square(m_sq)
        o_sq = mirror_square(o_sq)
        s1 = mirror_bits(s1)
        s2 = mirror_bits(s2)
    return board_number(pair_index[m_sq, o_sq], m_sq, o_sq, s1, s2, binom), flip


@njit(inline=table_inline())
def _push_position(
    cm, s_cm, co, s_co, lost_deals, capture, middle_only,
    targets, sources, holds, perm, binom,
    pair_index, pair_flip, mask_mirror, sigma_identity, found_boards, found_deals,
):  # fmt: skip
    """The parents of one child position (child's frame: mover master ``cm`` and
    students ``s_cm``, other master ``co`` and students ``s_co``) and the deals of each
    that reach the child's ``lost_deals`` (in the stored board's own deals), written to
    ``found_boards`` and ``found_deals``; returns how many.  ``sources[slot, q]``: the
    squares from which the slot's card reaches ``q``.  The parents are listed first and
    won after (:func:`_win_found`), so that their scattered masks load together.

    ``middle_only``: only the parents with both masters on the c file (a mirrored
    child's other parents are the mirror images of its image's parents: stored as
    the same boards, already won).  Their other master is the child's mover master,
    so the caller asks only when that is on the c file; the parent's master must move
    there (the child's other master is not: the child's pair is not on the c file)."""
    pm = 24 - co
    ps = remap(s_co, 0)
    po = 24 - cm
    pos = remap(s_cm, 0)
    own = (np.int64(1) << pm) | ps
    occupied = own | (np.int64(1) << po) | pos
    a = popcount(ps)
    # the students' un-moves keep the masters: they share the stored frame's flip, pair
    # and free squares (the masters' un-moves do not: stored_board)
    flip = pair_flip[pm, po]
    frame_m, frame_o = (mirror_square(pm), mirror_square(po)) if flip else (pm, po)
    pair = pair_index[frame_m, frame_o]
    free = ALL_SQUARES & ~((np.int64(1) << frame_m) | (np.int64(1) << frame_o))
    n = 0
    pieces = (np.int64(1) << pm) if middle_only else own
    while pieces:
        q = lowest_square(pieces)
        pieces &= pieces - 1
        q_bit = np.int64(1) << q
        is_master = q == pm
        other_students = pos | q_bit if capture else pos
        b = popcount(other_students)
        frame_s2 = mirror_bits(other_students) if flip else other_students
        for slot in range(5):
            froms = sources[slot, q] & ~occupied
            if is_master:
                froms &= ~(np.int64(1) << ENEMY_BANNER)  # a master there ended the game
                if middle_only:
                    froms &= C_FILE
            if froms == 0:
                continue
            deals = through_card(perm, holds, slot, lost_deals)
            if deals == 0:
                continue
            mirrored = deals if sigma_identity else permute_mask(mask_mirror, deals)
            while froms:
                f = lowest_square(froms)
                froms &= froms - 1
                if is_master:
                    board, flipped = stored_board(
                        f, ps, po, other_students, pair_index, pair_flip, binom
                    )
                else:
                    students = ps ^ q_bit ^ (np.int64(1) << f)
                    if flip:
                        students = mirror_bits(students)
                    board = (pair * binom[FREE, a] + colex_rank(students, free, binom)) * binom[
                        FREE - a, b
                    ] + colex_rank(frame_s2, free & ~students, binom)
                    flipped = flip
                found_boards[n] = board
                found_deals[n] = mirrored if flipped else deals
                n += 1
    if not capture and not middle_only:
        # the parent with the child's placement passes in the deals where neither
        # hand card moves any of its pieces
        movable = np.int64(0)
        for slot in range(5):
            rest = own
            while rest:
                sq = lowest_square(rest)
                rest &= rest - 1
                if targets[slot, sq] & ~own:
                    movable |= holds[slot]
                    break
        passing = ALL_DEALS & ~movable
        if passing:
            deals = np.int64(0)
            for slot in range(5):
                deals |= permute(perm, slot, lost_deals) & passing
            board, flipped = stored_board(pm, ps, po, pos, pair_index, pair_flip, binom)
            if flipped and not sigma_identity:
                deals = permute_mask(mask_mirror, deals)
            found_boards[n] = board
            found_deals[n] = deals
            n += 1
    return n


@njit(inline=table_inline())
def _push_child(
    cm, s_cm, co, s_co, lost_deals, capture, middle_only, code,
    won, lost, values, targets, sources, holds, perm, binom,
    pair_index, pair_flip, mask_mirror, sigma_identity, found_boards, found_deals,
):  # fmt: skip
    """List one child position's parents (:func:`_push_position`) and win them
    (:func:`_win_found`); returns the positions won."""
    n = _push_position(
        cm, s_cm, co, s_co, lost_deals, capture, middle_only,
        targets, sources, holds, perm, binom,
        pair_index, pair_flip, mask_mirror, sigma_identity, found_boards, found_deals,
    )  # fmt: skip
    return _win_found(n, found_boards, found_deals, code, won, lost, values)


@njit(inline=table_inline())
def _win_found(n, found_boards, found_deals, code, won, lost, values):
    """Mark the open deals among the listed parents' deals won with ``code``; returns
    how many."""
    total = 0
    for i in range(n):
        board = found_boards[i]
        new = found_deals[i] & ~(np.int64(won[board]) | np.int64(lost[board]))
        if new:
            won[board] = np.uint32(np.int64(won[board]) | new)
            total += write_values(values, board, new, code)
    return total


def _push_wins(
    step, child_a, child_b, capture, child_lost, pushed, listed_rows,
    won, lost, values, tables, lay, mirror_pairs, task_pairs, task_start, thread_tasks, threads,
):  # fmt: skip
    """Step ``step``'s wins of one parent split from one child split (``child_a``
    mover students, ``child_b`` other ones): every child deal in ``child_lost`` that
    is not yet in ``pushed`` (lost in the previous step) wins its parents' deals;
    ``pushed`` gains them.  ``listed_rows``: one byte per child row, 1 for the rows to
    read (those the last loss sweep swept), or empty for every row.  The child pairs
    are cut into tasks (``task_pairs`` from ``task_start[i]`` to ``task_start[i + 1]``),
    the tasks dealt to threads (``thread_tasks[thread]``, -1 padded).  Returns the positions won."""
    targets, sources, holds, perm, binom, combo = tables
    pair_mover, pair_other, pair_index, pair_flip, mask_mirror, sigma_identity = lay
    code = np.uint8(2 * step - 1)
    c1 = binom[FREE, child_a]
    c2 = binom[FREE - child_a, child_b]
    won_count = np.zeros(threads, dtype=np.int64)
    for thread in prange(threads):
        found_boards = np.empty(MAX_PARENTS, dtype=np.int64)
        found_deals = np.empty(MAX_PARENTS, dtype=np.int64)
        for k in range(thread_tasks.shape[1]):
            task = thread_tasks[thread, k]
            if task < 0:
                break
            for i in range(task_start[task], task_start[task + 1]):
                pair = task_pairs[i]
                cm = pair_mover[pair]
                co = pair_other[pair]
                doubled = pair < mirror_pairs
                free = ALL_SQUARES & ~((np.int64(1) << cm) | (np.int64(1) << co))
                for r1 in range(c1):
                    if listed_rows.shape[0] and listed_rows[pair * c1 + r1] == 0:
                        continue
                    first = (pair * c1 + r1) * c2
                    s_cm = np.int64(-1)
                    for r2 in range(c2):
                        board = first + r2
                        fresh = np.int64(child_lost[board]) & ~np.int64(pushed[board])
                        if fresh == 0:
                            continue
                        pushed[board] = np.uint32(np.int64(pushed[board]) | fresh)
                        if s_cm < 0:
                            s_cm = deposit(combo[child_a, r1], free)
                        s_co = deposit(combo[child_b, r2], free & ~s_cm)
                        won_count[thread] += _push_child(
                            cm, s_cm, co, s_co, fresh, capture, False, code,
                            won, lost, values, targets, sources, holds, perm, binom,
                            pair_index, pair_flip, mask_mirror, sigma_identity,
                            found_boards, found_deals,
                        )  # fmt: skip
                        if doubled and cm % 5 == 2:
                            mirrored = fresh
                            if not sigma_identity:
                                mirrored = permute_mask(mask_mirror, fresh)
                            won_count[thread] += _push_child(
                                mirror_square(cm), mirror_bits(s_cm),
                                mirror_square(co), mirror_bits(s_co),
                                mirrored, capture, True, code,
                                won, lost, values, targets, sources, holds, perm, binom,
                                pair_index, pair_flip, mask_mirror, sigma_identity,
                                found_boards, found_deals,
                            )  # fmt: skip
    return won_count.sum()


push_wins = njit(parallel=True)(_push_wins)
"""The un-move win step (one parallel build, called with one thread for small splits,
as :data:`~.kernel.sweep`)."""


def source_squares(targets: np.ndarray) -> np.ndarray:
    """``sources[slot, q]``: the squares from which the slot's card reaches ``q``."""
    sources = np.zeros_like(targets)
    for slot in range(targets.shape[0]):
        for f in range(25):
            reach = int(targets[slot, f])
            while reach:
                low = reach & -reach
                reach ^= low
                sources[slot, low.bit_length() - 1] |= 1 << f
    return sources


def master_class(square: int) -> int:
    """The class of a master square up to the left-right mirror (15 classes)."""
    file, rank = square % 5, square // 5
    return rank * 3 + min(file, 4 - file)


def master_classes(pair_mover: np.ndarray, threads: int, weights: np.ndarray | None = None):
    """Cut the stored pairs into tasks by the mirror class of the mover master, and
    deal the tasks to ``threads`` threads, heaviest first to the least loaded.

    Children in one class have parents whose other master lies in one class (the
    child's mover master, turned): tasks never write the same parent.  Returns
    ``(task_pairs, task_start, thread_tasks)`` for :func:`push_wins`."""
    pairs = np.arange(len(pair_mover))
    if weights is None:
        weights = np.ones(len(pair_mover), dtype=np.int64)
    classes = np.array([master_class(int(m)) for m in pair_mover])
    task_pairs, task_start, task_weight = [], [0], []
    for c in range(15):
        members = pairs[classes == c]
        if len(members):
            task_pairs.extend(members.tolist())
            task_start.append(len(task_pairs))
            task_weight.append(int(weights[members].sum()))
    order = sorted(range(len(task_weight)), key=lambda t: -task_weight[t])
    load = [0] * threads
    dealt: list[list[int]] = [[] for _ in range(threads)]
    for task in order:
        thread = load.index(min(load))
        dealt[thread].append(task)
        load[thread] += task_weight[task]
    thread_tasks = np.full((threads, max(len(d) for d in dealt)), -1, dtype=np.int64)
    for thread, tasks in enumerate(dealt):
        thread_tasks[thread, : len(tasks)] = tasks
    return (
        np.array(task_pairs, dtype=np.int64),
        np.array(task_start, dtype=np.int64),
        thread_tasks,
    )


def pair_weights(mirror_pairs: int, num_pairs: int) -> np.ndarray:
    """Work per stored pair: a doubled pair pushes its mirror image too."""
    return np.where(np.arange(num_pairs) < mirror_pairs, 2, 1).astype(np.int64)
