"""The strengths: exact forced play at stark and meister, repetition avoidance,
determinism for a seed."""

from __future__ import annotations

import json
import random

import pytest
from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.negamax import WIN
from fechtbuch.engines.battleklinge.players import STRENGTHS, ForcedPlay, Player, strength_from_name
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.battleklinge.sampling import live_positions
from fechtbuch.engines.battleklinge.search import HitSearch, hit_moves
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.paths import data_path
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.fixture(scope="module")
def hit_positions():
    """Positions with a forced hit within 3 where some moves give it up."""
    hs = HitSearch()
    found = []
    for pos in live_positions(3000, 31):
        d = hs.distance(pos, 3)
        if d is None:
            continue
        keys = hs.keys(pos, d)
        if len(keys) < len(fast.legal_moves(pos)):
            found.append((pos, d, set(keys)))
        if len(found) == 12:
            break
    assert len(found) == 12 and any(d >= 2 for _, d, _ in found)
    return found


@pytest.fixture(scope="module")
def danger_positions():
    """Positions without an own hit within 3 where some moves, but not all, let the
    opponent force a hit within 2."""
    hs = HitSearch()
    found = []
    for pos in live_positions(3000, 32):
        if hs.distance(pos, 3) is not None:
            continue
        moves = fast.legal_moves(pos)
        unsafe = {m for m in moves if hs.distance(fast.play(pos, m), 2) is not None}
        if unsafe and len(unsafe) < len(moves):
            found.append((pos, unsafe))
        if len(found) == 12:
            break
    assert len(found) == 12
    return found


@pytest.mark.parametrize("strength", ["stark", "meister"])
def test_never_misses_a_hit_within_three(strength, hit_positions):
    for pos, distance, keys in hit_positions[: 12 if strength == "stark" else 5]:
        choice = Player(strength).choose(pos)
        assert choice.move in keys, (pos.to_text(), choice.move.to_text())
        assert choice.reason == "hit"
        assert hit_moves(choice.score) == distance


@pytest.mark.parametrize("strength", ["stark", "meister"])
def test_never_walks_into_a_forced_hit_within_two(strength, danger_positions):
    for pos, unsafe in danger_positions[: 12 if strength == "stark" else 5]:
        choice = Player(strength).choose(pos)
        assert choice.move not in unsafe, (pos.to_text(), choice.move.to_text())
        assert choice.reason == "defence"


def test_forced_play_keys_agree_with_the_oracle(hit_positions):
    """For hits in 1 and 2 the keys are checked against the pure-Python rules."""
    for pos, distance, keys in hit_positions:
        if distance > 2:
            continue
        for move in fast.legal_moves(pos):
            child = reference.play(pos, move)
            keeps = child.winner() == pos.turn or (
                distance == 2
                and all(
                    reference.play(child, r).winner() == pos.turn
                    or reference.hit_within(reference.play(child, r), 1)
                    for r in reference.legal_moves(child)
                )
            )
            assert (move in keys) == keeps


def test_forced_play_defence_agrees_with_the_oracle(danger_positions):
    for pos, unsafe in danger_positions[:6]:
        moves, reason, _ = ForcedPlay().root_moves(pos)
        assert reason == "defence"
        for move in fast.legal_moves(pos):
            child = reference.play(pos, move)
            walks_in = reference.hit_within(child, 1) or reference.hit_within(child, 2)
            assert (move not in moves) == walks_in == (move in unsafe)


def test_avoids_repeating_a_position_when_ahead():
    # Gold is two students up and nothing is forced within 3 moves
    pos = Position.from_text("1sm2/5/1S3/5/SSMS1 g ausfall,volte bindung,stoss riposte")
    player = Player("stark")
    first = player.choose(pos)
    assert first.score > 50 and first.reason == "search"
    earlier = [fast.play(pos, first.move)]
    second = Player("stark").choose(pos, earlier)
    assert second.move != first.move
    assert fast.play(pos, second.move).key() != earlier[0].key()


class _FreshMovesLose:
    """A searcher that answers like the real one, except that a search restricted to
    the moves avoiding a repetition finds only a forced loss."""

    def __init__(self, real, repeating_move):
        self.real = real
        self.repeating_move = repeating_move

    def search(self, pos, max_depth, root_moves=None, **budget):
        result = self.real.search(pos, max_depth, root_moves=root_moves, **budget)
        if root_moves is not None and self.repeating_move not in root_moves:
            result.score = -(WIN - 2)
        return result


def test_keeps_the_repetition_rather_than_a_losing_fresh_move():
    pos = Position.from_text("1sm2/5/1S3/5/SSMS1 g ausfall,volte bindung,stoss riposte")
    first = Player("stark").choose(pos)
    assert first.score > 50
    player = Player("stark")
    player.searcher = _FreshMovesLose(player.searcher, first.move)
    again = player.choose(pos, [fast.play(pos, first.move)])
    assert again.move == first.move and again.score == first.score


def test_repeats_when_not_ahead():
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    first = Player("stark").choose(pos)
    assert first.score <= 50
    again = Player("stark").choose(pos, [fast.play(pos, first.move)])
    assert again.move == first.move


@pytest.mark.parametrize("name", ["leicht", "mittel", "stark"])
def test_choices_are_deterministic_for_a_seed(name):
    positions = live_positions(8, 40)
    a = [Player(name, seed=5).choose(p).move for p in positions]
    b = [Player(name, seed=5).choose(p).move for p in positions]
    assert a == b


def test_weak_strengths_vary_with_the_seed():
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    moves = {Player("leicht", seed=s).choose(pos).move for s in range(12)}
    assert len(moves) >= 3


def test_strength_names():
    assert list(STRENGTHS) == ["leicht", "mittel", "stark", "meister"]
    with pytest.raises(InputError, match="strength: expected one of"):
        strength_from_name("grossmeister")


def test_solver_and_hit_search_agree(hit_positions, danger_positions):
    """The solver and the engine's own exact hit search agree."""
    from fechtbuch.solver.battleklinge.hits import SolverHits

    exact, via_solver = HitSearch(), SolverHits()
    for pos, distance, keys in hit_positions:
        assert via_solver.distance(pos, 3) == distance == exact.distance(pos, 3)
        assert set(via_solver.keys(pos, distance)) == keys
    for pos, unsafe in danger_positions:
        for move in fast.legal_moves(pos):
            child = fast.play(pos, move)
            assert (via_solver.distance(child, 2) is not None) == (move in unsafe)
    by_solver, by_search = ForcedPlay(SolverHits()), ForcedPlay(HitSearch())
    for pos, _, _ in hit_positions:
        assert by_solver.root_moves(pos) == by_search.root_moves(pos)
    for pos, _ in danger_positions:
        assert by_solver.root_moves(pos) == by_search.root_moves(pos)


# ---- the guarantees on the solver's benchmark suite (data/bench/solver.jsonl) ----

SUITE = data_path("bench", "solver.jsonl")


@pytest.fixture(scope="module")
def suite():
    rows = [json.loads(line) for line in SUITE.read_text().splitlines() if line.strip()]
    return [(Position.from_text(r["position"]), r) for r in rows]


@pytest.mark.parametrize("strength, limit", [("stark", 120), ("meister", 24)])
def test_suite_hits_within_three_are_never_missed(strength, limit, suite):
    """Every suite position with a verified hit in 1-3: the move is one of the keys."""
    cases = [(p, r) for p, r in suite if r["distance"] in (1, 2, 3)]
    assert len(cases) == 120
    for pos, row in cases[:: max(1, len(cases) // limit)][:limit]:
        choice = Player(strength).choose(pos)
        assert choice.move.to_text() in row["keys"], (row["id"], choice.move.to_text())
        assert hit_moves(choice.score) == row["distance"]


@pytest.mark.parametrize("strength", ["stark", "meister"])
def test_suite_positions_never_walk_into_a_hit_within_two(strength, suite):
    """Suite positions without an own hit within 3: if some move keeps the opponent
    from a forced hit within 2, the chosen move does (children checked with the
    pure-Python oracle, independent of the solver)."""
    checked = 0
    for pos, row in suite:
        if row["distance"] in (1, 2, 3):
            continue
        moves = fast.legal_moves(pos)
        oracle_unsafe = {
            m
            for m in moves
            if reference.hit_within(reference.play(pos, m), 1)
            or reference.hit_within(reference.play(pos, m), 2)
        }
        if not oracle_unsafe or len(oracle_unsafe) == len(moves):
            continue
        choice = Player(strength).choose(pos)
        assert choice.move not in oracle_unsafe, (row["id"], choice.move.to_text())
        checked += 1
        if checked == (10 if strength == "stark" else 4):
            break
    assert checked >= 4


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), name=st.sampled_from(["leicht", "mittel", "stark"]))
def test_any_live_position_gets_a_legal_move(seed, name):
    from fechtbuch.engines.battleklinge.sampling import random_placement

    pos = random_placement(random.Random(seed))
    if pos.winner() is not None:
        return
    choice = Player(name, seed=seed).choose(pos)
    assert choice.move in reference.legal_moves(pos)


def test_pass_positions_get_a_pass(pass_positions):
    for pos in pass_positions[:8]:
        choice = Player("stark").choose(pos)
        assert choice.move.is_pass and choice.move in reference.legal_moves(pos)
