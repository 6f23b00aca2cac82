"""The compiled alpha-beta kernel of the engine search (the driver is search.py).

:func:`negamax` is the hot loop: negamax over an explicit stack (one row per ply
of ``states``, ``moves``, bounds and best values; numba's on-disk cache
mis-handles recursion), with a transposition table, move ordering (table move,
captures, two killers per ply, history of (colour, card, from, to)), capture
quiescence below the nominal depth and immediate hits scored at once.  Scores
and their conventions are described in search.py.

Search features (bits of ``stats[S_FEATURES]``, active only with LEAF_QUIESCE so
the exact hit search of search.HitSearch stays a plain full-width alpha-beta):

``FEAT_PVS``      principal variation search at every node: the first move with
                  the full window, the others with a null window and a re-search
                  when one beats alpha.
``FEAT_LMR``      late-move reductions: quiet moves after the first three, at
                  depth >= 3, searched one ply shallower (two from the seventh
                  on at depth >= 5) unless the side to move is threatened or the
                  move threatens a hit; re-searched at full depth when they beat alpha.
``FEAT_EXT``      a move that threatens an immediate hit is searched one ply
                  deeper (check extension), while the ply is below ``stats[S_EXTPLY]``.

Forced results stay proofs: reductions and extensions change which lines are
searched, never how a hit is scored, and quiescence never scores a loss while a
stand-pat remains (see search.py for the exactness promise).

Tried and dropped, because matches did not show them to gain (docs/strength.md):
quiescence that answers a threatened hit with every move (-8 Elo over 1,200 games),
aspiration windows at the root (+2 over 1,200 games), a two-tier table (-29 and -11
over 400 games each).
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.evaluate import evaluate
from fechtbuch.engines.battleklinge.fast import (
    F_HASH,
    F_PIECES,
    F_TURN,
    NO_WINNER,
    STATE_SIZE,
    gen_moves,
    make_move,
    move_card,
    move_is_pass,
    move_origin,
    move_target,
    winner,
    winning_move,
    winning_move_for,
)
from fechtbuch.engines.compiled import njit

INF = 1_000_000
WIN = 100_000
MATE_BOUND = WIN - 1_000
"""Scores beyond +-MATE_BOUND are forced results (a hit within the search)."""
MAX_PLY = 64

TT_EXACT = 1
TT_LOWER = 2
TT_UPPER = 3

# stats array slots
S_NODES = 0
S_LIMIT = 1
S_ABORTED = 2
S_LEAF = 3
"""How the horizon (depth 0) is scored: LEAF_QUIESCE, LEAF_ZERO or LEAF_STATIC."""
LEAF_ZERO = 0
"""Every undecided horizon node scores 0: a pure fixed-depth hit search."""
LEAF_QUIESCE = 1
"""Captures are resolved below the horizon (stand-pat on the evaluation): normal play."""
LEAF_STATIC = 2
"""The static evaluation at the horizon, nothing more (plain minimax, for tests)."""
S_FEATURES = 4
S_EXTPLY = 5
STATS_SIZE = 6

FEAT_PVS = 1
FEAT_LMR = 2
FEAT_EXT = 8
FEAT_ALL = FEAT_PVS | FEAT_LMR | FEAT_EXT

STACK_ROWS = 11
"""Per-ply arrays of the kernel (rows of Searcher.stack)."""


@njit(cache=True, inline="always")
def threatens(st, color):
    """Whether ``color`` could hit at once if it were to move now, with its hand
    (the cards it plays on its next turn)."""
    return winning_move_for(st, color) >= 0


@njit(cache=True, inline="always")
def _to_tt(score, ply):
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, inline="always")
def _from_tt(score, ply):
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True)
def negamax(
    st0,
    depth0,
    alpha0,
    beta0,
    ply0,
    states,
    moves,
    keys,
    stack,
    tt_key,
    tt_move,
    tt_score,
    tt_depth,
    tt_flag,
    killers,
    history,
    weights,
    stats,
):
    """Alpha-beta value of ``st0`` searched ``depth0`` plies deep (``ply0`` plies
    below the search root, for hit distances).  Returns ``(score, best move)``;
    the move is -1 when none was searched.  On hitting the node limit it sets
    ``stats[S_ABORTED]`` and the returned value is meaningless.  ``stack`` holds
    the per-ply rows (STACK_ROWS of them)."""
    counts = stack[0]
    index = stack[1]
    alphas = stack[2]
    betas = stack[3]
    best = stack[4]
    best_move = stack[5]
    depths = stack[6]
    alpha_orig = stack[7]
    stage = stack[8]  # how the current child is searched: 1 reduced+null, 2 null, 3 full
    threatened = stack[9]  # the opponent of the side to move threatens a hit
    red = stack[10]  # reduction of the current child
    tt_mask = tt_key.shape[0] - 1
    leaf = stats[S_LEAF]
    quiesce = leaf == LEAF_QUIESCE
    feats = stats[S_FEATURES] if quiesce else 0
    pvs = (feats & FEAT_PVS) != 0
    lmr = (feats & FEAT_LMR) != 0
    ext = (feats & FEAT_EXT) != 0
    ext_ply = stats[S_EXTPLY]
    for i in range(STATE_SIZE):
        states[0, i] = st0[i]
    alphas[0] = alpha0
    betas[0] = beta0
    depths[0] = depth0
    k = 0
    entering = True
    ret = 0
    while True:
        finished = False
        if entering:
            entering = False
            ply = ply0 + k
            st = states[k]
            best_move[k] = -1
            stats[S_NODES] += 1
            if stats[S_NODES] > stats[S_LIMIT]:
                stats[S_ABORTED] = 1
            if stats[S_ABORTED]:
                finished = True
                ret = 0
            elif winner(st) != NO_WINNER:
                # the previous mover won (a move never loses for its mover)
                finished = True
                ret = -(WIN - ply)
            else:
                d = depths[k]
                wm = winning_move(st) if (d > 0 or quiesce) else -1
                if wm >= 0:
                    finished = True
                    ret = WIN - (ply + 1)
                    best_move[k] = wm
                else:
                    me = st[F_TURN]
                    threat = 0
                    if lmr or ext:
                        threat = 1 if threatens(st, 1 - me) else 0
                    threatened[k] = threat
                    if ext and threat and k > 0 and ply < ext_ply and d >= 0:
                        d += 1
                        depths[k] = d
                    if d <= 0:
                        if not quiesce:
                            finished = True
                            ret = evaluate(st, weights) if leaf == LEAF_STATIC else 0
                        else:
                            stand = evaluate(st, weights)
                            if stand >= betas[k] or k >= MAX_PLY - 2:
                                finished = True
                                ret = stand
                            else:
                                if stand > alphas[k]:
                                    alphas[k] = stand
                                best[k] = stand
                                opp = st[F_PIECES + 1 - me]
                                n = gen_moves(st, moves[k])
                                m_count = 0
                                for i in range(n):
                                    mv = moves[k, i]
                                    if not move_is_pass(mv) and (opp >> move_target(mv)) & 1:
                                        moves[k, m_count] = mv
                                        keys[k, m_count] = 0
                                        m_count += 1
                                if m_count == 0:
                                    finished = True
                                    ret = stand
                                counts[k] = m_count
                                index[k] = 0
                                alpha_orig[k] = alphas[k]
                    else:
                        h = st[F_HASH]
                        slot = h & tt_mask
                        hash_move = -1
                        if tt_key[slot] == h:
                            hash_move = tt_move[slot]
                            if k > 0 and tt_depth[slot] >= d:
                                s = _from_tt(tt_score[slot], ply)
                                flag = tt_flag[slot]
                                if (
                                    flag == TT_EXACT
                                    or (flag == TT_LOWER and s >= betas[k])
                                    or (flag == TT_UPPER and s <= alphas[k])
                                ):
                                    finished = True
                                    ret = s
                                    best_move[k] = hash_move
                        if not finished:
                            if k >= MAX_PLY - 2:
                                finished = True
                                ret = evaluate(st, weights)
                            else:
                                opp = st[F_PIECES + 1 - me]
                                n = gen_moves(st, moves[k])
                                for i in range(n):
                                    mv = moves[k, i]
                                    if mv == hash_move:
                                        key = 1 << 40
                                    elif not move_is_pass(mv) and (opp >> move_target(mv)) & 1:
                                        key = 1 << 36
                                    elif mv == killers[ply, 0]:
                                        key = 1 << 35
                                    elif mv == killers[ply, 1]:
                                        key = 1 << 34
                                    else:
                                        key = history[
                                            me, move_card(mv), move_origin(mv), move_target(mv)
                                        ]
                                    keys[k, i] = key
                                counts[k] = n
                                index[k] = 0
                                best[k] = -INF
                                alpha_orig[k] = alphas[k]
        else:
            # a child returned ``ret`` (its own view); fold it into node k
            if stats[S_ABORTED]:
                finished = True
                ret = 0
            else:
                v = -ret
                if stage[k] == 1 and v > alphas[k]:
                    # a reduced move beat alpha: search it again at full depth
                    stage[k] = 2
                    depths[k + 1] = depths[k] - 1
                    alphas[k + 1] = -alphas[k] - 1
                    betas[k + 1] = -alphas[k]
                    k += 1
                    entering = True
                    continue
                if stage[k] == 2 and v > alphas[k] and v < betas[k]:
                    # the null window failed high: the full window decides
                    stage[k] = 3
                    depths[k + 1] = depths[k] - 1
                    alphas[k + 1] = -betas[k]
                    betas[k + 1] = -alphas[k]
                    k += 1
                    entering = True
                    continue
                mv = moves[k, index[k] - 1]
                if v > best[k]:
                    best[k] = v
                    best_move[k] = mv
                if v > alphas[k]:
                    alphas[k] = v
                if alphas[k] >= betas[k]:
                    finished = True
                    ret = best[k]
                    if depths[k] > 0:
                        st = states[k]
                        me = st[F_TURN]
                        ply = ply0 + k
                        capture = (st[F_PIECES + 1 - me] >> move_target(mv)) & 1
                        if not capture and not move_is_pass(mv):
                            if killers[ply, 0] != mv:
                                killers[ply, 1] = killers[ply, 0]
                                killers[ply, 0] = mv
                            history[me, move_card(mv), move_origin(mv), move_target(mv)] += (
                                depths[k] * depths[k]
                            )
                        _store(
                            tt_key, tt_move, tt_score, tt_depth, tt_flag, st, depths[k],
                            _to_tt(best[k], ply), mv, TT_LOWER,
                        )  # fmt: skip
        if not finished:
            i = index[k]
            n = counts[k]
            if i < n:
                # selection sort step: bring the best-keyed remaining move to i
                top = i
                for j in range(i + 1, n):
                    if keys[k, j] > keys[k, top]:
                        top = j
                if top != i:
                    tmp_m = moves[k, i]
                    moves[k, i] = moves[k, top]
                    moves[k, top] = tmp_m
                    tmp_k = keys[k, i]
                    keys[k, i] = keys[k, top]
                    keys[k, top] = tmp_k
                index[k] = i + 1
                mv = moves[k, i]
                make_move(states[k], mv, states[k + 1])
                d = depths[k]
                if pvs and d > 0 and i > 0:
                    r = 0
                    if (
                        lmr
                        and d >= 3
                        and i >= 3
                        and keys[k, i] < (1 << 34)
                        and not threatened[k]
                        and not move_is_pass(mv)
                    ):
                        me = states[k, F_TURN]
                        if not threatens(states[k + 1], me):
                            r = 2 if (i >= 6 and d >= 5) else 1
                    red[k] = r
                    stage[k] = 1 if r > 0 else 2
                    depths[k + 1] = d - 1 - r
                    alphas[k + 1] = -alphas[k] - 1
                    betas[k + 1] = -alphas[k]
                else:
                    stage[k] = 3
                    depths[k + 1] = d - 1
                    alphas[k + 1] = -betas[k]
                    betas[k + 1] = -alphas[k]
                k += 1
                entering = True
                continue
            finished = True
            ret = best[k]
            if depths[k] > 0:
                flag = TT_EXACT if best[k] > alpha_orig[k] else TT_UPPER
                _store(
                    tt_key, tt_move, tt_score, tt_depth, tt_flag, states[k], depths[k],
                    _to_tt(best[k], ply0 + k), best_move[k], flag,
                )  # fmt: skip
        if k == 0:
            return ret, best_move[0]
        k -= 1


@njit(cache=True, inline="always")
def _store(tt_key, tt_move, tt_score, tt_depth, tt_flag, st, depth, score, move, flag):
    h = st[F_HASH]
    slot = h & (tt_key.shape[0] - 1)
    # depth-preferred within a slot, but a new position always replaces an old one
    # (a two-tier bucket of depth-preferred and always-replace entries scored -29 at
    # 100,000 nodes and -11 at 300,000 in 400-game matches: docs/strength.md)
    if tt_key[slot] == h and tt_depth[slot] > depth:
        return
    tt_key[slot] = h
    tt_move[slot] = move
    tt_score[slot] = score
    tt_depth[slot] = depth
    tt_flag[slot] = flag
