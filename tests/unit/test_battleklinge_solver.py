"""df-pn and the verifier against the pure-Python memoised minimax, known positions,
properties of keys and trees, limits, and the solve command."""

from __future__ import annotations

import json
import random

import pytest
from fechtbuch.engines.battleklinge import fast, reference
from fechtbuch.engines.battleklinge.kernel import KERNEL, has_immediate_hit
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.reference import MemoSolver
from fechtbuch.engines.battleklinge.sampling import live_positions, random_game
from fechtbuch.solver.battleklinge.api import SolutionTree, UnsolvablePosition, solve
from hypothesis import given, settings
from hypothesis import strategies as st
from support.clirun import run


def _assert_matches_reference(pos: Position, bound: int) -> None:
    memo = MemoSolver()
    result = solve(pos, max_n=bound, verify=True)
    assert result.status == "solved" and result.verified, pos.to_text()
    distance = memo.distance(pos, bound)
    assert result.distance == distance, pos.to_text()
    if distance is not None:
        assert result.keys == sorted(memo.keys(pos, distance), key=Move.to_text), pos.to_text()
        assert result.loss_in is None
    else:
        assert result.loss_in == memo.loss_distance(pos, bound), pos.to_text()


def test_matches_reference_within_2_on_300_played_positions():
    for pos in live_positions(300, 101):
        _assert_matches_reference(pos, 2)


@pytest.mark.parametrize("count", [40, pytest.param(60, marks=pytest.mark.slow)])
def test_matches_reference_within_3_on_played_positions(count):
    """N = 3 is slow in pure Python: 2 x ``count`` positions, half of them with a
    decision."""
    pool = live_positions(1200, 202)
    decided = [p for p in pool if (r := solve(p, 3)).distance or r.loss_in][:count]
    quiet = [p for p in pool if p not in decided][:count]
    assert len(decided) == count
    for pos in decided + quiet:
        _assert_matches_reference(pos, 3)


def test_pass_positions_match_reference(pass_positions):
    for pos in pass_positions:
        _assert_matches_reference(pos, 2)


# Hand-checked positions: (position, bound, distance, keys, loss_in, main line)
KNOWN = [
    # Gold master c3: Ausfall jumps two forward onto c5 and takes the Blau master.
    (
        "2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte",
        2,
        1,
        ["ausfall:c3c5"],
        None,
        ["ausfall:c3c5"],
    ),
    # The same jump with c5 empty: the Gold master lands on Blau's banner.
    (
        "m4/5/2M2/5/5 g ausfall,volte bindung,stoss riposte",
        2,
        1,
        ["ausfall:c3c5"],
        None,
        ["ausfall:c3c5"],
    ),
    # Volte and Bindung both take the master on d4 diagonally: two keys.
    (
        "5/3m1/2M2/5/5 g volte,bindung ausfall,stoss riposte",
        1,
        1,
        ["bindung:c3d4", "volte:c3d4"],
        None,
        ["bindung:c3d4"],
    ),
    # Blau's lone master a5 can go to a3 (Ausfall), a4 or b5 (Stoss).  Gold's
    # students b4 and c4 answer each: Volte b4xa3, Bindung b4xa4, Volte c4xb5.
    # Lost in 1; all defences equal, so the first in notation order is shown.
    (
        "m4/1SS2/5/5/4M b volte,bindung ausfall,stoss riposte",
        2,
        None,
        [],
        1,
        ["ausfall:a5a3", "volte:b4a3"],
    ),
    # Start positions: nobody forces anything within 3 (all three solvers agree).
    ("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte", 3, None, [], None, []),
]


@pytest.mark.parametrize("text, bound, distance, keys, loss_in, line", KNOWN)
def test_known_positions(text, bound, distance, keys, loss_in, line):
    result = solve(Position.from_text(text), max_n=bound, verify=True)
    assert result.distance == distance
    assert [k.to_text() for k in result.keys] == keys
    assert result.loss_in == loss_in
    assert [m.to_text() for m in result.main_line] == line
    assert result.verified


def test_known_positions_agree_with_reference():
    for text, bound, *_ in KNOWN[:4]:
        _assert_matches_reference(Position.from_text(text), bound)


def test_pass_position_is_solved_like_the_reference():
    # Blau's school fills rank 1 and it holds Stoss/Traverse: it must pass.
    pos = Position.from_text("5/5/2M2/5/smsss b ausfall,volte stoss,traverse riposte")
    assert [m.to_text() for m in fast.legal_moves(pos)] == ["traverse:pass", "stoss:pass"]
    _assert_matches_reference(pos, 2)


@given(st.integers(0, 10_000))
@settings(max_examples=40, deadline=None)
def test_keys_leave_the_defender_lost_and_trees_are_sound(seed):
    rng = random.Random(seed)
    candidates = [p for p in random_game(rng, 40) if p.winner() is None]
    memo = MemoSolver()
    for pos in candidates:
        result = solve(pos, max_n=2)
        if result.distance is None:
            continue
        for key in result.keys:
            child = reference.play(pos, key)
            assert child.winner() == pos.turn or memo.lost(child, result.distance - 1)
        _check_tree(pos, result.tree().to_json(), result.distance, memo)
        break


def _check_tree(pos: Position, node: dict, budget: int, memo: MemoSolver) -> None:
    """Every listed attacker move wins within budget, none is missing, every
    defender reply is present and leads to a node with at least one winning move."""
    winning = {
        m.to_text() for m in reference.legal_moves(pos) if memo.move_keeps_hit(pos, m, budget)
    }
    assert set(node) == winning
    for text, sub in node.items():
        child = reference.play(pos, Move.from_text(text))
        if sub == "hit":
            assert child.winner() == pos.turn
            continue
        assert {m.to_text() for m in reference.legal_moves(child)} == set(sub)
        for reply, attacker_node in sub.items():
            grand = reference.play(child, Move.from_text(reply))
            assert attacker_node, "a defender reply must leave a winning move"
            _check_tree(grand, attacker_node, budget - 1, memo)


def test_tree_keys_are_sorted_and_json_stable():
    for pos in live_positions(200, 303):
        result = solve(pos, max_n=2)
        if result.distance == 2:
            tree = result.tree().to_json()
            assert SolutionTree.from_json(tree) == result.tree()
            assert list(tree) == sorted(tree)
            assert json.dumps(tree, sort_keys=True) == json.dumps(tree)
            return
    pytest.fail("no hit-in-2 position in the sample")


def test_main_line_ends_in_a_hit_and_defence_is_longest():
    memo = MemoSolver()
    for pos in live_positions(400, 404):
        result = solve(pos, max_n=3)
        if result.distance != 3:
            continue
        line = result.main_line
        board = pos
        for move in line:
            assert move in reference.legal_moves(board)
            board = reference.play(board, move)
        assert board.winner() == pos.turn and len(line) == 2 * 3 - 1
        after_key = reference.play(pos, line[0])
        delays = [
            memo.distance(reference.play(after_key, r), 2) for r in reference.legal_moves(after_key)
        ]
        assert max(delays) == 2 and result.longest_defence[0] == line[1]
        return
    pytest.fail("no hit-in-3 position in the sample")


def test_limits_give_unknown_never_an_answer():
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    result = solve(pos, max_n=5, max_nodes=500)
    assert result.status == "unknown" and result.distance is None and result.keys == []
    assert solve(pos, max_n=5, time_limit=0).status == "unknown"


def test_decided_and_out_of_range_are_rejected():
    with pytest.raises(UnsolvablePosition, match="already decided"):
        solve(Position.from_text("ss1ss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte"))
    with pytest.raises(UnsolvablePosition, match="max: must be 1 to 8"):
        solve(
            Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"), max_n=9
        )


def test_immediate_hit_detector_agrees_with_the_reference(played_positions):
    for pos in played_positions[::3]:
        if pos.winner() is not None:
            continue
        expected = any(
            reference.play(pos, m).winner() == pos.turn for m in reference.legal_moves(pos)
        )
        assert has_immediate_hit(fast.state_from_position(pos)) == expected


def test_start_positions_accept_bound_7():
    pos = Position.from_text("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte")
    result = solve(pos, max_n=7, max_nodes=200_000)
    assert result.status in ("solved", "unknown")


# ---- the command ----------------------------------------------------------


def test_solve_command_text_json_and_tree(tmp_path):
    text = "2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte"
    out = run("solve", text)
    assert out.exit_code == 0
    assert out.output.startswith("Gold hits in 1. Key: ausfall:c3c5 (the only winning move).")
    tree_file = tmp_path / "tree.json"
    data = json.loads(run("solve", text, "--json", "--verify", "--tree", str(tree_file)).output)
    for field in (
        "position",
        "max",
        "distance",
        "keys",
        "loss_in",
        "main_line",
        "longest_defence",
        "nodes",
        "seconds",
        "verified",
        "status",
    ):
        assert field in data
    assert data["distance"] == 1 and data["verified"] is True and data["status"] == "solved"
    assert json.loads(tree_file.read_text()) == {"ausfall:c3c5": "hit"}
    assert run("solve", text, "--tree", str(tree_file)).exit_code == 2  # exists, no --force
    assert run("solve", text, "--tree", str(tree_file), "--force").exit_code == 0


def test_solve_command_unknown_exits_1_and_quiet_position_reads_well():
    start = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
    assert run("solve", start, "--max", "6", "--max-nodes", "100").exit_code == 1
    assert run("solve", start).output.strip() == "No forced hit within 3 own moves for either side."


def test_solve_command_loss_output():
    for pos in live_positions(400, 505):
        result = solve(pos, max_n=2)
        if result.loss_in:
            out = run("solve", pos.to_text(), "--max", "2").output
            assert f"to move is hit in {result.loss_in} at the latest; longest defence:" in out
            return
    pytest.fail("no lost position in the sample")


def test_solve_command_rejects_decided_position():
    out = run("solve", "ss1ss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte")
    assert out.exit_code == 2


def test_limit_while_building_the_tree_is_reported_not_raised(tmp_path):
    text = "1s3/1ssms/5/1S1MS/1SS2 b stoss,bindung riposte,inquartata quart"
    full = solve(Position.from_text(text), max_n=3)
    assert full.distance == 3
    out = run("solve", text, "--max-nodes", str(full.nodes + 1), "--tree", str(tmp_path / "t.json"))
    assert out.exit_code == 1 and "limit was reached while building it" in out.output
    assert "Traceback" not in out.output and not (tmp_path / "t.json").exists()


def test_unknown_results_make_no_claims():
    text = "2m2/1s1s1/1sSMS/3S1/5 g riposte,stoss traverse,volte inquartata"
    pos = Position.from_text(text)
    assert solve(pos, max_n=3).loss_in is not None
    for limit in range(100, 3000, 97):
        result = solve(pos, max_n=3, max_nodes=limit)
        if result.status == "unknown":
            assert result.loss_in is None and result.distance is None and result.main_line == []


def test_unwritable_tree_file_is_a_one_line_error():
    out = run(
        "solve", "2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte", "--tree", "/proc/x/t.json"
    )
    assert out.exit_code == 2 and "cannot write" in out.output


def test_verifier_gives_up_visibly_at_its_node_limit():
    from fechtbuch.solver import minimax

    start = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
    st = fast.state_from_position(Position.from_text(start))
    with pytest.raises(minimax.VerifierLimit, match="gave up after"):
        minimax.hit_within(KERNEL, st, 5, max_nodes=1000)
    assert minimax.hit_within(KERNEL, st, 3, max_nodes=10**9)[0] is False
    out = run("solve", start, "--max", "5", "--verify", "--verify-nodes", "1000", "--json")
    data = json.loads(out.output)
    assert out.exit_code == 1 and data["verified"] is False and "gave up" in data["verify_note"]
