"""The compiled alpha-beta kernel of the engine search (the driver is search.py).

:func:`negamax` is the hot loop: negamax over an explicit stack (one row per ply
of ``states``, ``moves``, bounds and best values; numba's on-disk cache
mis-handles recursion), with a transposition table, move ordering (table move,
captures, two killers per ply, history of (colour, card, from, to)), capture
quiescence below the nominal depth and immediate hits scored at once.  Scores
and their conventions are described in search.py.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.baseline.evaluate import evaluate
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
    counts,
    index,
    alphas,
    betas,
    best,
    best_move,
    depths,
    alpha_orig,
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
    ``stats[S_ABORTED]`` and the returned value is meaningless."""
    tt_mask = tt_key.shape[0] - 1
    leaf = stats[S_LEAF]
    quiesce = leaf == LEAF_QUIESCE
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
                elif d <= 0:
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
                            me = st[F_TURN]
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
                            me = st[F_TURN]
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
                make_move(states[k], moves[k, i], states[k + 1])
                depths[k + 1] = depths[k] - 1
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
    slot = st[F_HASH] & (tt_key.shape[0] - 1)
    # depth-preferred within a slot, but a new position always replaces an old one
    if tt_key[slot] == st[F_HASH] and tt_depth[slot] > depth:
        return
    tt_key[slot] = st[F_HASH]
    tt_move[slot] = move
    tt_score[slot] = score
    tt_depth[slot] = depth
    tt_flag[slot] = flag
