"""The generic terminal loop (puzzles/treeplay.py) and tree walking (puzzles/packtree.py),
driven through a text stream with Battleklinge's kind on real shipped exercises."""

from __future__ import annotations

import copy
import dataclasses
import io

import orjson
import pytest
from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.packkind import KIND
from fechtbuch.puzzles.pack import PackOrder, SolutionMode, build_pack_v2
from fechtbuch.puzzles.packtree import PuzzleTree, count_nodes
from fechtbuch.puzzles.treeplay import play_pack_puzzle, play_puzzle
from support.clirun import assert_one_line_error, run
from support.pack_fixture import cut_third_attacker_move

SHIPPED = orjson.loads(data_path("packs", "fechtuebungen.json").read_bytes())
DEEP = next(p for p in SHIPPED["puzzles"] if p["n"] == 3)


def play(puzzle: dict, lines: list[str]):
    out: list[str] = []
    result = play_puzzle(KIND, puzzle, io.StringIO("".join(f"{x}\n" for x in lines)), out.append)
    return result, "\n".join(out)


def off_tree_move(node: dict, pos: Position) -> str:
    """A legal move at ``pos`` that the tree does not hold."""
    return next(m.to_text() for m in reference.legal_moves(pos) if m.to_text() not in node)


def test_tree_main_line_agrees_with_the_verifier():
    """The generic walk (reference rules, longest defence from the tree) gives the
    main line that the compiled verifier wrote into the pack, for every third puzzle."""
    for puzzle in SHIPPED["puzzles"][::3]:
        assert PuzzleTree(KIND, puzzle).main_line() == puzzle["line"], puzzle["id"]


def test_count_nodes():
    assert count_nodes("hit") == (0, 1)
    assert count_nodes({"a": "hit", "b": {"c": {"d": "hit"}}}) == (3, 2)


def test_playing_the_main_line_solves_it():
    own = DEEP["line"][0::2]
    result, out = play(DEEP, own)
    assert result.solved and not result.helped and result.mistakes == 0
    assert result.actions == DEEP["line"] and result.leaf == "hit"
    for reply in DEEP["line"][1::2]:
        assert f"Defence: {reply}" in out  # the longest defence, as the main line says
    assert "Solved: hit." in out and "3 own turns left" in out and "1 own turns left" in out


def test_commands_help_legal_solution_and_wrong_moves():
    pos = Position.from_text(DEEP["position"])
    wrong = off_tree_move(DEEP["solution"], pos)
    lines = ["help", "legal", "nonsense", wrong, "solution", DEEP["key"].upper()]
    lines += DEEP["line"][2::2]
    result, out = play(DEEP, lines)
    assert "Commands:" in out and "undo" in out
    legal = sorted(m.to_text() for m in reference.legal_moves(pos))
    assert "Legal: " + ", ".join(legal) in out
    assert "Not a legal action here: 'nonsense'" in out
    assert f"The sure path is lost: after {wrong}" in out
    assert f"A key: {DEEP['key']}" in out
    assert result.solved and result.helped and result.mistakes == 1
    assert "Solved with help: hit." in out


def test_undo_takes_back_the_action_and_its_defence():
    first = DEEP["line"][0]
    result, out = play(DEEP, ["undo", first, "undo", first, *DEEP["line"][2::2]])
    assert "Nothing to take back." in out and out.count("Taken back.") == 1
    assert out.count(f"Defence: {DEEP['line'][1]}") == 2
    assert result.solved and result.actions == DEEP["line"]


def test_end_of_input_and_quit_stop_the_loop():
    result, _ = play(DEEP, [])
    assert result.quit and not result.solved
    result, _ = play(DEEP, [DEEP["key"], "quit", DEEP["line"][2]])
    assert result.quit and result.actions == DEEP["line"][:2]


def _pruned_deep() -> tuple[dict, str, str, bool]:
    """DEEP as a pruned pack (one move below the first two defences): the pack, the
    stored move there, another legal move, and whether that one hits (by the rules)."""
    pack = build_pack_v2(
        KIND,
        [copy.deepcopy(DEEP)],
        seed=0,
        command="test",
        max_n=3,
        order=PackOrder.BY_N,
        solution=SolutionMode.PRUNED,
    )
    puzzle = pack["puzzles"][0]
    keep, other = cut_third_attacker_move(puzzle)
    pos = Position.from_text(puzzle["position"])
    for text in puzzle["line"][:4]:
        pos = reference.play(pos, Move.from_text(text))
    hits = reference.play(pos, Move.from_text(other)).winner() == pos.turn
    return pack, keep, other, hits


def test_pruned_pack_judges_a_move_past_the_cut_exactly():
    """Past the first two defences a pruned tree holds one move; another is judged by
    the game's exact judge (here with one own move left: by the rules)."""
    pack, keep, other, hits = _pruned_deep()
    out: list[str] = []
    lines = [*pack["puzzles"][0]["line"][0:4:2], other, keep]
    result = play_pack_puzzle(
        pack, "1", io.StringIO("\n".join(lines) + "\n"), out.append, verify=False
    )
    text = "\n".join(out)
    if hits:
        assert f"Exact (the rules): {other} keeps the win within your 1 own turn" in text
    else:
        assert f"Exact (the rules): the sure path is lost: after {other}" in text
    assert result.solved and result.mistakes == (0 if hits else 1)


def test_without_a_judge_a_move_past_the_cut_only_leaves_the_stored_part():
    pack, keep, other, _ = _pruned_deep()
    out: list[str] = []
    lines = [*pack["puzzles"][0]["line"][0:4:2], other, keep]
    kind = dataclasses.replace(KIND, judge=None)
    result = play_puzzle(
        kind, pack["puzzles"][0], io.StringIO("\n".join(lines) + "\n"), out.append, pruned=True
    )
    text = "\n".join(out)
    assert f"{other} leaves the stored solution" in text and "sure path is lost" not in text
    assert result.solved


def test_play_pack_puzzle_re_proves_first():
    broken = copy.deepcopy(DEEP)
    broken["line"] = list(reversed(broken["line"]))
    pack = build_pack_v2(KIND, [broken], seed=0, command="test", max_n=3)
    with pytest.raises(InputError, match=r"exercise 1 \(p-[0-9a-f]+\) is unsound: line"):
        play_pack_puzzle(pack, "1", io.StringIO(""), lambda _: None)
    with pytest.raises(InputError, match="no puzzle 'p-nope'"):
        play_pack_puzzle(pack, "p-nope", io.StringIO(""), lambda _: None)


def test_pack_play_command_through_stdin():
    """``fechtbuch pack play``: the generic loop on a shipped pack, input from stdin."""
    number = SHIPPED["puzzles"].index(DEEP) + 1
    lines = ["legal", "solution", *DEEP["line"][0::2]]
    result = run("pack", "play", "fechtuebungen", "--puzzle", number, input="\n".join(lines))
    assert result.exit_code == 0, result.output
    assert f"Exercise {number} of {len(SHIPPED['puzzles'])}." in result.output
    assert f"A key: {DEEP['key']}" in result.output
    assert "Solved with help: hit." in result.output
    stopped = run("pack", "play", "fechtuebungen", input="quit\n")
    assert stopped.exit_code == 0 and stopped.output.rstrip().endswith("Stopped.")
    assert_one_line_error(run("pack", "play", "fechtuebungen", "--puzzle", "99"))
