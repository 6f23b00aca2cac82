"""The fast generator against the pure-Python reference, on thousands of positions."""

from __future__ import annotations

import numpy as np
import pytest
from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.position import Position


def _check_same_moves_and_results(pos: Position) -> None:
    fast_moves = fast.legal_moves(pos)
    assert fast_moves == reference.legal_moves(pos), pos.to_text()
    for move in fast_moves:
        assert fast.play(pos, move) == reference.play(pos, move), (pos.to_text(), move.to_text())


def test_played_positions_agree(played_positions):
    for pos in played_positions:
        _check_same_moves_and_results(pos)


def test_placed_positions_agree(placed_positions):
    for pos in placed_positions:
        _check_same_moves_and_results(pos)


def test_pass_positions_agree_and_are_passes(pass_positions):
    assert len(pass_positions) >= 20
    for pos in pass_positions:
        assert [m.is_pass for m in reference.legal_moves(pos)] == [True, True]
        _check_same_moves_and_results(pos)
        for depth in (1, 2, 3):
            st = fast.state_from_position(pos)
            assert fast.perft(st, depth) == reference.perft(pos, depth)


def test_samples_cover_decided_positions(played_positions, placed_positions):
    decided = [p for p in played_positions + placed_positions if p.winner() is not None]
    assert len(decided) >= 50


def test_perft_agrees_with_reference(played_positions, placed_positions):
    for pos in played_positions[::40] + placed_positions[::40]:
        for depth in (1, 2, 3):
            expected = reference.perft(pos, depth)
            st = fast.state_from_position(pos)
            assert fast.perft(st, depth) == expected, (pos.to_text(), depth)
            assert fast.perft_plain(st, depth) == expected, (pos.to_text(), depth)


def test_bulk_perft_equals_plain_perft_deeper(played_positions):
    for pos in played_positions[::200]:
        st = fast.state_from_position(pos)
        assert fast.perft(st, 4) == fast.perft_plain(st, 4)


def test_incremental_hash_equals_fresh_hash(played_positions):
    out = np.empty(fast.STATE_SIZE, dtype=np.int64)
    for pos in played_positions[::4]:
        st = fast.state_from_position(pos)
        for move in fast.legal_moves(pos):
            fast.make_move(st, fast.encode_move(move), out)
            assert out[fast.F_HASH] == fast.compute_hash(out)


def test_hash_ignores_card_order_and_tells_turn_apart():
    a = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    b = Position.from_text("ssmss/5/5/5/SSMSS g volte,ausfall stoss,bindung riposte")
    c = Position.from_text("ssmss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte")
    ha, hb, hc = (fast.state_from_position(p)[fast.F_HASH] for p in (a, b, c))
    assert ha == hb != hc


def test_pass_position_has_one_move_per_card():
    pos = Position.from_text("MSSSS/5/5/5/m4 g stoss,traverse ausfall,volte riposte")
    moves = [m.to_text() for m in fast.legal_moves(pos)]
    assert moves == ["traverse:pass", "stoss:pass"]
    after = fast.play(pos, fast.legal_moves(pos)[0])
    assert after.to_text() == "MSSSS/5/5/5/m4 b riposte,stoss ausfall,volte traverse"


@pytest.mark.parametrize(
    "text, winner",
    [
        ("ss1ss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte", 0),
        ("ssmss/5/5/5/SS1SS g ausfall,volte bindung,stoss riposte", 1),
        ("ssMss/5/5/5/SS1SS b ausfall,volte bindung,stoss riposte", 0),
        ("ss1ss/5/5/M4/SSmSS g ausfall,volte bindung,stoss riposte", 1),
    ],
)
def test_decided_positions_are_one_leaf(text, winner):
    pos = Position.from_text(text)
    st = fast.state_from_position(pos)
    assert fast.winner(st) == winner
    assert fast.legal_moves(pos) == []
    assert fast.perft(st, 5) == 1 == reference.perft(pos, 5)


def test_encode_decode_round_trip(played_positions):
    for pos in played_positions[:200]:
        for move in fast.legal_moves(pos):
            assert fast.decode_move(fast.encode_move(move)) == move
