"""The Meister's search: legal moves always, forced results exact (against the
solver), time limits end in a completed depth, the frozen 2026 engine unchanged."""

from __future__ import annotations

import pytest
from fechtbuch.engines.battleklinge import fast
from fechtbuch.engines.battleklinge.baseline.search import Searcher as Searcher2026
from fechtbuch.engines.battleklinge.evaluate import HAND_SET_WEIGHTS
from fechtbuch.engines.battleklinge.players import ForcedPlay, Player
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, Position
from fechtbuch.engines.battleklinge.sampling import live_positions
from fechtbuch.engines.battleklinge.search import Searcher, hit_moves
from fechtbuch.solver.battleklinge.api import solve
from fechtbuch.solver.battleklinge.hits import SolverHits
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


def assert_forced_claim_exact(pos: Position, move, score: int) -> bool:
    """If ``score`` claims a forced result, the solver confirms it: '#n' is a hit
    within n own moves (``move`` keeps the shortest or n is not the shortest), '-#n'
    means every move allows the opponent a hit within n.  True if it was a claim."""
    n = hit_moves(score)
    if n is None:
        return False
    if n > 0:
        answer = solve(pos, max_n=n)
        assert answer.status == "solved" and answer.distance is not None, pos.to_text()
        assert answer.distance <= n
        assert move in set(answer.keys) or answer.distance < n, pos.to_text()
    else:
        for reply in fast.legal_moves(pos):
            child = fast.play(pos, reply)
            if child.winner() is not None:
                pytest.fail(f"{pos.to_text()}: {reply.to_text()} wins at once")
            answer = solve(child, max_n=-n)
            assert answer.status == "solved" and answer.distance is not None, pos.to_text()
    return True


def test_forced_results_of_the_search_are_exact():
    """Every score the search reports as '#n' / '-#n' is confirmed by the solver:
    a hit within n own moves exists, or every move allows one within n."""
    claims = 0
    for pos in POOL:
        result = Searcher(tt_bits=14).search(pos, max_depth=7, max_nodes=20_000)
        claims += assert_forced_claim_exact(pos, result.move, result.score)
    assert claims >= 100  # the sample (400 positions of random games) holds many


def test_meister_player_moves_are_legal_and_its_forced_results_exact():
    """The driver above the search (the forced-play filter and its exact distances,
    the restricted root, cut iterations of a small budget): a legal move, and an
    exact forced claim.  The search alone is checked on all of POOL above.  The
    forced-play checks ask the solver, as in the CLI (HitSearch is ~100x slower)."""
    claims, reasons = 0, set()
    for pos in POOL[::5]:
        player = Player("meister", nodes=3_000)
        player.forced = ForcedPlay(SolverHits())
        choice = player.choose(pos)
        assert choice.move in fast.legal_moves(pos)
        claims += assert_forced_claim_exact(pos, choice.move, choice.score)
        reasons.add(choice.reason)
    assert claims >= 10 and reasons == {"hit", "defence", "search"}, (claims, reasons)


def test_frozen_engine_keeps_its_node_signature():
    start = Position.from_text(START_EINSTEIGER)
    old = Searcher2026().search(start, max_depth=7)
    plain = Searcher(HAND_SET_WEIGHTS, features=0).search(start, max_depth=7)
    assert (old.move, old.score, old.nodes) == (plain.move, plain.score, plain.nodes)
    assert Player("meister-2026").strength.engine == "2026"


def test_movetime_benchmark_reports_wall_and_cpu_time():
    from click.testing import CliRunner
    from fechtbuch.commands.battleklinge import meisterbench

    out = CliRunner().invoke(meisterbench.main, ["movetime", "--limit", "2", "--movetime", "0.02"])
    assert out.exit_code == 0, out.output
    first, second = out.output.splitlines()
    assert first.startswith("--movetime 0.02: wall mean") and "; CPU mean" in first
    assert first.count("/2 more than 10% over") == 2 and "% of a core" in second
