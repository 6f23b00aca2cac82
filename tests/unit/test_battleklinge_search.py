"""Evaluation symmetry, alpha-beta against plain minimax, and the exact hit search
against the pure-Python oracle."""

from __future__ import annotations

import random

import numpy as np
import pytest
from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.evaluate import DEFAULT_WEIGHTS, evaluate
from fechtbuch.engines.battleklinge.negamax import FEAT_PVS
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.sampling import random_game, random_placement
from fechtbuch.engines.battleklinge.search import (
    INF,
    LEAF_STATIC,
    LEAF_ZERO,
    WIN,
    HitSearch,
    Searcher,
    format_score,
    hit_moves,
    score_to_students,
)


def rotate(pos: Position) -> Position:
    """The same game seen from the other school: board turned 180 degrees, colours swapped."""

    def turn_bb(bb: int) -> int:
        return sum(1 << (24 - sq) for sq in range(25) if bb >> sq & 1)

    return Position(
        students=(turn_bb(pos.students[1]), turn_bb(pos.students[0])),
        masters=(turn_bb(pos.masters[1]), turn_bb(pos.masters[0])),
        turn=1 - pos.turn,
        hands=(pos.hands[1], pos.hands[0]),
        side=pos.side,
    )


def live_sample(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        if rng.random() < 0.5:
            out.extend(p for p in random_game(rng, max_plies=40) if p.winner() is None)
        else:
            p = random_placement(rng)
            if p.winner() is None:
                out.append(p)
    return out[:count]


def ev(pos: Position) -> int:
    return int(evaluate(fast.state_from_position(pos), DEFAULT_WEIGHTS))


def test_evaluation_is_symmetric_under_mirror_and_colour_swap():
    for pos in live_sample(400, 1):
        assert ev(pos) == ev(pos.mirror()), pos.to_text()
        assert ev(pos) == ev(rotate(pos)), pos.to_text()


def test_evaluation_counts_material_in_students():
    base = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    fewer = Position.from_text("ssmss/5/5/5/1SMSS g ausfall,volte bindung,stoss riposte")
    assert 50 < ev(base) - ev(fewer) < 150


def minimax(pos: Position, depth: int, ply: int, weights) -> int:
    """Plain fixed-depth negamax (no pruning, no quiescence) in the search's scale."""
    if pos.winner() is not None:
        return -(WIN - ply)
    if depth == 0:
        return int(evaluate(fast.state_from_position(pos), weights))
    best = -INF
    for move in fast.legal_moves(pos):
        child = fast.play(pos, move)
        if child.winner() is not None:
            return WIN - (ply + 1)
        best = max(best, -minimax(child, depth - 1, ply + 1, weights))
    return best


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alpha_beta_equals_plain_minimax(depth):
    for pos in live_sample(40 if depth < 3 else 15, 2 + depth):
        searcher = Searcher()
        value, _ = searcher.value(
            fast.state_from_position(pos), depth, -INF, INF, 0, leaf=LEAF_STATIC
        )
        assert value == minimax(pos, depth, 0, DEFAULT_WEIGHTS), pos.to_text()


@pytest.mark.parametrize("features", [0, FEAT_PVS])
def test_root_search_scores_agree_with_all_scores_search(features):
    # exact without reductions and extensions (which make values window-dependent)
    for pos in live_sample(25, 9):
        fast_result = Searcher(features=features).search(pos, max_depth=4)
        full = Searcher(features=features).search(pos, max_depth=4, all_scores=True)
        assert fast_result.score == max(full.scores.values()), pos.to_text()
        assert full.scores[fast_result.move] == fast_result.score


def test_search_is_deterministic_under_node_limit():
    pos = live_sample(1, 4)[0]
    a = Searcher().search(pos, max_nodes=30_000)
    b = Searcher().search(pos, max_nodes=30_000)
    assert (a.move, a.score, a.depth, a.nodes) == (b.move, b.score, b.depth, b.nodes)
    assert a.nodes <= 30_000 + 1


def test_search_takes_a_hit_in_one_and_scores_it():
    pos = Position.from_text("2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte")
    result = Searcher().search(pos, max_depth=6)
    assert result.move.to_text() == "ausfall:c3c5" and hit_moves(result.score) == 1
    assert format_score(result.score) == "#1" and score_to_students(result.score) == 100.0


def test_search_rejects_decided_positions_and_bad_root_moves():
    decided = Position.from_text("2M2/5/2m2/5/5 b ausfall,volte bindung,stoss riposte")
    with pytest.raises(ValueError):
        Searcher().search(decided)
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    with pytest.raises(ValueError):
        Searcher().search(pos, root_moves=[])


def oracle_distance(pos: Position, max_n: int):
    return next((n for n in range(1, max_n + 1) if reference.hit_within(pos, n)), None)


def test_hit_distance_matches_oracle():
    hs = HitSearch()
    found = {1: 0, 2: 0, None: 0}
    for pos in live_sample(500, 21):
        d = hs.distance(pos, 2)
        assert d == oracle_distance(pos, 2), pos.to_text()
        found[d] += 1
    assert found[1] > 20 and found[2] > 5 and found[None] > 50


def test_loses_within_matches_oracle():
    hs = HitSearch()
    for pos in live_sample(300, 22):
        moves = reference.legal_moves(pos)
        lost = all(reference.hit_within(reference.play(pos, m), 1) for m in moves)
        assert hs.loses_within(pos, 1) == lost, pos.to_text()


def test_hit_in_three_matches_oracle_on_sparse_positions():
    """n = 3 is slow in pure Python, so only on positions with few pieces."""
    hs = HitSearch()
    rng = random.Random(5)
    checked = hits = 0
    while checked < 12:
        pos = random_placement(rng)
        if pos.winner() is not None or bin(pos.pieces(0) | pos.pieces(1)).count("1") > 5:
            continue
        d = hs.distance(pos, 3)
        assert d == oracle_distance(pos, 3), pos.to_text()
        checked += 1
        hits += d == 3
    assert checked == 12


def test_hit_keys_keep_the_hit():
    hs = HitSearch()
    for pos in live_sample(150, 23):
        d = hs.distance(pos, 2)
        if d is None:
            continue
        keys = set(hs.keys(pos, d))
        for move in fast.legal_moves(pos):
            child = fast.play(pos, move)
            keeps = child.winner() == pos.turn or (
                d > 1
                and all(
                    reference.hit_within(reference.play(child, r), d - 1)
                    or reference.play(child, r).winner() == pos.turn
                    for r in reference.legal_moves(child)
                )
            )
            assert (move in keys) == keeps, (pos.to_text(), move.to_text())


def test_zero_weights_make_a_pure_hit_search():
    hs_searcher = Searcher(weights=np.zeros_like(DEFAULT_WEIGHTS))
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    value, _ = hs_searcher.value(fast.state_from_position(pos), 3, -INF, INF, 0, leaf=LEAF_ZERO)
    assert value == 0
