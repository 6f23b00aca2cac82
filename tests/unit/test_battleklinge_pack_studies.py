"""Tablebase studies in a version-2 pack: pruned trees, deepest first, verified.

The studies' trees come from the endgame tables (engines/battleklinge/tablebase/
studies.py, pruned there); the pack's verification re-derives them with the
table-less minimax verifier (puzzles/battleklinge/packkind.py).  Two independent
readings of "pruned: every defence at the first two defender moves, the branch's
main line below" must agree.

``fechtbuch play --pack`` plays such a pack through stdin: past the stored part a
move the tree does not hold is judged exactly (the tables, else df-pn), not called
lost.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.battleklinge import reference
from fechtbuch.engines.battleklinge.cards import CARD_SETS
from fechtbuch.engines.battleklinge.position import Move, Position
from fechtbuch.engines.battleklinge.tablebase import studies
from fechtbuch.engines.battleklinge.tablebase.build import build
from fechtbuch.engines.battleklinge.tablebase.probe import Tablebase, table_folder
from fechtbuch.engines.battleklinge.terminal.session import (
    Judgement,
    PuzzlePlay,
    Session,
    Verdict,
    longest_defence,
)
from fechtbuch.engines.paths import data_path
from fechtbuch.puzzles.battleklinge.claims import derived_fields
from fechtbuch.puzzles.battleklinge.exactjudge import SolverJudge
from fechtbuch.puzzles.battleklinge.packkind import KIND
from fechtbuch.puzzles.battleklinge.studies import study_witness
from fechtbuch.puzzles.pack import (
    FULL_DEFENCES,
    PackOrder,
    SolutionMode,
    build_pack_v2,
    verify_pack,
)

# One worker runs the whole module (--dist loadgroup, pyproject.toml): its module
# fixtures build tables and studies, which on two workers would be paid twice.
pytestmark = pytest.mark.xdist_group("battleklinge_pack_studies")


@pytest.fixture(scope="module")
def table_root(tmp_path_factory) -> Path:
    """A tables folder laid out as ``play`` and ``solve`` look for them."""
    root = tmp_path_factory.mktemp("tables")
    build(CARD_SETS["einsteiger"], 1, table_folder(CARD_SETS["einsteiger"], root))
    return root


@pytest.fixture(scope="module")
def tables(table_root):
    return Tablebase.open(table_folder(CARD_SETS["einsteiger"], table_root))


@pytest.fixture(scope="module")
def mined(tables):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(studies, "FULL_TREE_LIMIT", 0)  # prune every tree
        # with witness games, as the shipped miner finds them: pack verify replays them
        return studies.mine_studies(
            tables, count=2, distances=range(6, 4, -1), witness=study_witness
        )


@pytest.fixture(scope="module")
def pruned_pack(mined) -> dict:
    puzzles = []
    for study in mined:
        puzzle = dict(study.puzzle)
        pos, key = Position.from_text(puzzle["position"]), Move.from_text(puzzle["key"])
        line = [Move.from_text(m) for m in puzzle["line"]]
        puzzle["tags"], puzzle["difficulty"] = derived_fields(puzzle, pos, key, line)
        puzzles.append(puzzle)
    return build_pack_v2(
        KIND,
        puzzles,
        seed=0,
        command="tests/unit/test_battleklinge_pack_studies.py",
        max_n=10,
        order=PackOrder.DEEPEST_FIRST,
        solution=SolutionMode.PRUNED,
    )


def test_pruned_studies_from_the_tables_verify(mined, pruned_pack):
    assert [s.distance for s in mined] == [6, 5] and not any(s.tree_complete for s in mined)
    pack = pruned_pack
    assert [p["n"] for p in pack["puzzles"]] == [6, 5]
    assert verify_pack(pack) == []
    # the same trees claimed complete are not
    full = dict(pack, solution=SolutionMode.FULL.value)
    assert any("winning moves differ" in p or "replies differ" in p for p in verify_pack(full))


# ---- playing a pruned pack in the terminal ---------------------------------------------


@dataclass(frozen=True)
class OffTreeSpot:
    """An attacker position past a pruned tree's cut, reached the way ``play`` plays."""

    number: int
    attacker_moves: list[str]
    """The stored moves that lead there (the computer answers with the longest defence)."""
    position: Position
    own_moves_left: int
    winning: str
    """A move the tree does not hold that still forces the hit (exactly)."""
    losing: str
    """A move that does not force the hit in time and loses no piece to a hit at once."""


def _forces(pos: Position, move: Move, left: int) -> bool:
    """Exact, by the reference rules and df-pn without tables: ``move`` hits within
    ``left`` own moves (this one included) whatever the defence."""
    after = reference.play(pos, move)
    if after.winner() == pos.turn:
        return True
    if left == 1:
        return False
    return SolverJudge(tables=False).after_move(after, left - 1).verdict is Verdict.KEEPS


def _off_tree_spot(pack: dict) -> OffTreeSpot:
    """The first attacker node past the cut (along the played line) where the tree
    leaves out a winning move, with that move and a losing one."""
    for number, puzzle in enumerate(pack["puzzles"], 1):
        pos, node = Position.from_text(puzzle["position"]), puzzle["solution"]
        left, defences, moves = puzzle["n"], 0, []
        while isinstance(node, dict):
            if defences >= FULL_DEFENCES:
                outside = [m for m in reference.legal_moves(pos) if m.to_text() not in node]
                winning = [m.to_text() for m in outside if _forces(pos, m, left)]
                losing = [m.to_text() for m in outside if not _forces(pos, m, left)]
                if winning and losing:
                    return OffTreeSpot(number, moves, pos, left, winning[0], losing[0])
            key = min(node)  # any stored move keeps the sure path
            moves.append(key)
            pos, sub = reference.play(pos, Move.from_text(key)), node[key]
            if not isinstance(sub, dict):
                break
            reply = longest_defence(sub)
            pos, node = reference.play(pos, Move.from_text(reply)), sub[reply]
            left, defences = left - 1, defences + 1
    raise AssertionError("no attacker node past the cut leaves out a winning move")


def _finish_exactly(pos: Position, move: str, left: int, judge: SolverJudge) -> list[str]:
    """After ``move`` off the stored tree: the attacker's fastest keys against the
    judge's longest defences, to the hit (what the session plays against)."""
    lines = []
    pos, left = reference.play(pos, Move.from_text(move)), left - 1
    while pos.winner() is None:
        defence = judge.after_move(pos, left).defence
        pos = reference.play(pos, defence)
        key = judge.key(pos, left)
        lines.append(key.to_text())
        pos, left = reference.play(pos, key), left - 1
    return lines


@pytest.fixture(scope="module")
def pack_file(pruned_pack, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pack") / "studies.json"
    path.write_text(json.dumps(pruned_pack))
    return path


def _play(pack_file: Path, number: int, lines: list[str]) -> str:
    result = CliRunner().invoke(
        cli.main,
        ["play", "--pack", str(pack_file), "--puzzle", str(number)],
        input="".join(f"{line}\n" for line in lines),
    )
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result.output


@pytest.mark.parametrize("with_tables", [False, True])
def test_play_judges_a_winning_move_past_the_stored_part_exactly(
    pruned_pack, pack_file, table_root, tmp_path, monkeypatch, with_tables
):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("FECHTBUCH_TABLES", str(table_root if with_tables else tmp_path / "none"))
    spot = _off_tree_spot(pruned_pack)
    judge = SolverJudge(tables=table_root if with_tables else False)
    finish = _finish_exactly(spot.position, spot.winning, spot.own_moves_left, judge)
    out = _play(pack_file, spot.number, [*spot.attacker_moves, spot.winning, *finish])
    source = "the endgame tables" if with_tables else "df-pn"
    assert "This pack's trees are pruned" in out
    assert f"{spot.winning} leaves the stored part" in out
    assert "The sure path is lost" not in out
    if finish:
        assert f"Exact ({source}): {spot.winning} still forces the hit" in out
    assert f"Exercise {spot.number} solved (green)." in out


def test_play_calls_a_losing_move_past_the_stored_part_lost_then_undo(
    pruned_pack, pack_file, tmp_path, monkeypatch
):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("FECHTBUCH_TABLES", str(tmp_path / "none"))
    spot = _off_tree_spot(pruned_pack)
    judge = SolverJudge(tables=False)
    finish = _finish_exactly(spot.position, spot.winning, spot.own_moves_left, judge)
    lines = [*spot.attacker_moves, spot.losing, "undo", spot.winning, *finish]
    out = _play(pack_file, spot.number, lines)
    assert f"{spot.losing} leaves the stored part" in out
    assert f"Exact (df-pn): the sure path is lost: {spot.losing} does not force" in out
    assert f"Exercise {spot.number} solved with help (yellow)." in out


class _UndecidedJudge:
    """A judge that always reaches its limit."""

    def after_move(self, position: Position, own_moves_left: int) -> Judgement:
        return Judgement(Verdict.UNKNOWN, "a test judge")

    def key(self, position: Position, own_moves_left: int) -> Move | None:
        return None


def test_an_undecided_judgement_does_not_count_the_exercise(pruned_pack):
    spot = _off_tree_spot(pruned_pack)
    puzzle = pruned_pack["puzzles"][spot.number - 1]
    exercise = PuzzlePlay(puzzle, full_defences=FULL_DEFENCES, judge=_UndecidedJudge())
    out: list[str] = []

    def defend(pos, earlier):
        if exercise.path_lost:  # off the sure path any legal reply will do here
            return reference.legal_moves(pos)[0]
        return Move.from_text(longest_defence(exercise.node))

    start = Position.from_text(puzzle["position"])
    lines = "".join(f"{m}\n" for m in [*spot.attacker_moves, spot.winning, "quit", "quit"])
    session = Session(
        start,
        {1 - start.turn: defend},
        io.StringIO(lines),
        lambda text, newline=True: out.append(text),
        exercise=exercise,
    )
    outcome = session.run()
    text = "\n".join(out)
    assert f"{spot.winning} could not be judged within the limits of a test judge" in text
    assert exercise.path_lost and not outcome.puzzle_solved


def test_shipped_meisterstudien_play_past_the_stored_part(tmp_path, monkeypatch):
    """The shipped pruned pack: an N=5 study left past the cut and finished exactly."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("FECHTBUCH_TABLES", str(tmp_path / "none"))
    path = data_path("packs", "meisterstudien.json")
    pack = json.loads(path.read_bytes())
    first = next(i for i, p in enumerate(pack["puzzles"]) if p["n"] == 5)
    spot = _off_tree_spot(dict(pack, puzzles=pack["puzzles"][first:]))
    judge = SolverJudge(tables=False)
    finish = _finish_exactly(spot.position, spot.winning, spot.own_moves_left, judge)
    number = first + spot.number
    out = _play(path, number, [*spot.attacker_moves, spot.winning, *finish])
    assert f"{spot.winning} leaves the stored part" in out
    assert f"Exercise {number} solved (green)." in out
