"""The Meister's search: legal moves always, forced results exact (against the
solver), time limits end in a completed depth, the frozen 2026 engine unchanged."""

from __future__ import annotations

import pytest
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.evaluate import HAND_SET_WEIGHTS
from fechtbuch.engines.battleklinge.frozen2026.search import Searcher as Searcher2026
from fechtbuch.engines.battleklinge.players import Player
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Position
from fechtbuch.engines.battleklinge.sampling import live_positions
from fechtbuch.engines.battleklinge.search import Searcher, hit_moves
from fechtbuch.solver.api import solve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

POOL = live_positions(400, 16, skip=2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(POOL) - 1),
    nodes=st.integers(1, 5000),
    features=st.integers(0, 63),
)
def test_search_always_returns_a_legal_move(index, nodes, features):
    pos = POOL[index]
    result = Searcher(features=features, tt_bits=12).search(pos, max_nodes=nodes)
    assert result.move in fast.legal_moves(pos)
    assert result.depth >= 1 and result.pv[0] == result.move
    child = pos
    for move in result.pv:  # the principal variation is a legal line
        assert child.winner() is None and move in fast.legal_moves(child)
        child = fast.play(child, move)


def test_tiny_time_limit_still_completes_depth_one():
    pos = Position.from_text(START_EINSTEIGER)
    result = Searcher().search(pos, time_limit=1e-6)
    assert result.depth >= 1 and result.move in fast.legal_moves(pos)
    choice = Player("meister", movetime=0.01).choose(pos)
    assert choice.move in fast.legal_moves(pos)


def test_forced_results_of_the_search_are_exact():
    """Every score the search reports as '#n' / '-#n' is confirmed by the solver:
    a hit within n own moves exists, or every move allows one within n."""
    claims = 0
    for pos in POOL:
        result = Searcher(tt_bits=14).search(pos, max_depth=7, max_nodes=20_000)
        n = hit_moves(result.score)
        if n is None:
            continue
        claims += 1
        if n > 0:
            answer = solve(pos, max_n=n)
            assert answer.status == "solved" and answer.distance is not None, pos.to_text()
            assert answer.distance <= n
            assert result.move in set(solve(pos, max_n=n).keys) or answer.distance < n
        else:
            for move in fast.legal_moves(pos):
                child = fast.play(pos, move)
                if child.winner() is not None:
                    pytest.fail(f"{pos.to_text()}: {move.to_text()} wins at once")
                answer = solve(child, max_n=-n)
                assert answer.status == "solved" and answer.distance is not None, pos.to_text()
    assert claims >= 100  # the sample (400 positions of random games) holds many


def test_frozen_engine_keeps_its_node_signature():
    start = Position.from_text(START_EINSTEIGER)
    old = Searcher2026().search(start, max_depth=7)
    plain = Searcher(HAND_SET_WEIGHTS, features=0).search(start, max_depth=7)
    assert (old.move, old.score, old.nodes) == (plain.move, plain.score, plain.nodes)
    assert Player("meister-2026").strength.engine == "2026"
