"""Three students a side: the index, a partial K = 3 build (the split (3, 0) with (0, 3)
and what their captures reach), resuming, ``tb info``, probes against df-pn, and the
Meister reading the K = 3 split, and the fast sweeps against the plain ones."""

from __future__ import annotations

import hashlib
import importlib

import numpy as np
import orjson
import pytest
from click.testing import CliRunner
from fechtbuch import cli
from fechtbuch.engines.battleklinge.cards import CARD_SETS, parse_card_list
from fechtbuch.engines.battleklinge.tablebase import (
    Outcome,
    Tablebase,
    TbResult,
    build,
    find_tables,
    kernel,
    table_folder,
)
from fechtbuch.engines.battleklinge.tablebase import index as ix
from support.tablebase_pins import K1_DIGESTS

# One worker runs the whole module (--dist loadgroup, pyproject.toml): its module
# fixture builds a K = 3 split, which on two workers would be paid twice.
pytestmark = pytest.mark.xdist_group("battleklinge_tablebase_k3")

EINSTEIGER = tuple(sorted(CARD_SETS["einsteiger"]))
K3_SPLITS = [(0, 0), (0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0)]
"""(3, 0) with (0, 3), and what their captures reach: (0, 3) -> (2, 0) -> (1, 0)..."""


def _run(*args):
    return CliRunner().invoke(cli.main, [str(a) for a in args])


def _seeded(label: str, n: int) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest()[:8], "little") % n


@pytest.fixture(scope="module")
def k3_root(tmp_path_factory):
    """einsteiger's (3, 0) and (0, 3) built by the command line under one tables root."""
    root = tmp_path_factory.mktemp("tables-k3")
    folder = table_folder(EINSTEIGER, root)
    folder.mkdir()  # else a note on stderr says it was created
    result = _run(
        "tb", "build", "--cards", "einsteiger", "--students", 3, "--splits", "3,0",
        "-o", folder, "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return root, orjson.loads(result.output)


@pytest.mark.parametrize("name", ["einsteiger", "verteidigung", "angriff"])
def test_index_round_trip_with_three_students(name):
    cards = tuple(sorted(CARD_SETS[name]))
    lay = ix.layout(cards)
    for split in ix.splits(3):
        for i in range(60):
            board = _seeded(f"rt3/{split}/{i}", lay.boards(*split))
            pos = ix.position_at(cards, split, board, i % 30, turn=i % 2)
            where = ix.locate(pos, cards)
            assert (where.split, where.board, where.deal) == (split, board, i % 30)


def test_build_order_puts_what_captures_reach_first():
    order = ix.build_order(3)
    assert sorted(order) == sorted(ix.splits(3)) and len(order) == 16
    for position, (a, b) in enumerate(order):
        for reached in ix.capture_splits([(a, b)]):
            assert order.index(reached) < position
    assert ix.required_splits([(3, 0)]) == K3_SPLITS
    assert ix.required_splits([(1, 3)])[-2:] == [(1, 3), (3, 1)]
    assert ix.build_order(2)[:6] == [(0, 0), (0, 1), (1, 0), (0, 2), (2, 0), (1, 1)]


def test_partial_k3_build_lists_its_splits_and_resumes(k3_root, tmp_path):
    root, report = k3_root
    assert [tuple(s["split"]) for s in report["splits"]] == K3_SPLITS
    assert report["kept"] == []
    sizes = {tuple(s["split"]): s["positions"] for s in report["splits"]}
    assert sizes[(3, 0)] == sizes[(0, 3)] == 553 * 1771 * 30 == ix.covered_positions(3, 0)
    for s in report["splits"]:
        assert s["won"] + s["lost"] + s["drawn"] == s["positions"]
        assert len(s["sha256"]) == 64
    base = Tablebase.open(table_folder(EINSTEIGER, root))
    assert base.max_students == 3 and base.splits == tuple(K3_SPLITS)
    # nothing is missing: refused without --force, one line naming it
    again = _run("tb", "build", "--cards", "einsteiger", "--students", 3, "--splits", "3,0",
                 "-o", table_folder(EINSTEIGER, root))  # fmt: skip
    assert again.exit_code == 2 and "--force" in again.output
    # a folder with K <= 1 is extended by (2, 0): the K <= 1 files stay as they were
    folder = tmp_path / "resume"
    build(EINSTEIGER, 1, folder)
    before = {p.name: p.stat().st_mtime_ns for p in folder.glob("split-*.bin")}
    (folder / "split-2-0.bin.part").write_bytes(b"left by a stopped build")
    extended = build(EINSTEIGER, 2, folder, only=[(2, 0)])
    assert extended.kept == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert [s.split for s in extended.splits] == [(0, 2), (2, 0)]
    after = {p.name: p.stat().st_mtime_ns for p in folder.glob("split-*.bin")}
    assert before.items() <= after.items()  # the kept files were not written again
    assert not list(folder.glob("*.part"))
    reference = {e["split"][0] * 10 + e["split"][1]: e["sha256"] for e in report["splits"]}
    assert extended.splits[1].sha256 == reference[20]


def test_info_lists_what_is_built_and_where(k3_root):
    root, report = k3_root
    result = _run("tb", "info", "--tables", root, "--json")
    assert result.exit_code == 0, result.output
    (entry,) = orjson.loads(result.output)["tables"]
    assert entry["folder"] == str(table_folder(EINSTEIGER, root))
    assert entry["max_students"] == 3 and entry["under_way"] == []
    assert [s["sha256"] for s in entry["splits"]] == [s["sha256"] for s in report["splits"]]
    assert all(s["file_bytes"] == s["bytes"] for s in entry["splits"])
    text = _run("tb", "info", "--tables", root)
    assert "K = 3, 7 splits" in text.output and report["splits"][-1]["sha256"] in text.output
    missing = _run("tb", "info", "--tables", root / "nowhere")
    assert missing.exit_code == 2 and "tables:" in missing.output


def test_three_students_probe_as_df_pn_solves(k3_root):
    from fechtbuch.solver.battleklinge.api import solve

    root, _ = k3_root
    base = Tablebase.open(table_folder(EINSTEIGER, root))
    checked = 0
    for i in range(80):
        split = ((3, 0), (0, 3))[i % 2]
        offset = _seeded(f"k3/{i}", ix.layout(EINSTEIGER).positions(*split))
        pos = ix.position_at(EINSTEIGER, split, offset // 30, offset % 30, turn=i // 2 % 2)
        got = base.probe(pos)
        if got.result is not Outcome.DRAW and got.distance > 5:
            continue
        answer = solve(pos, max_n=5)
        assert answer.status == "solved"
        if answer.distance is not None:
            assert got == TbResult(Outcome.WIN, answer.distance), pos.to_text()
            assert set(base.best_moves(pos)) == set(answer.keys), pos.to_text()
        elif answer.loss_in is not None:
            assert got == TbResult(Outcome.LOSS, answer.loss_in), pos.to_text()
        else:
            assert got == TbResult(Outcome.DRAW), pos.to_text()
        checked += 1
    assert checked > 30


def test_meister_reads_the_three_student_split(k3_root, monkeypatch):
    from fechtbuch.engines.battleklinge.players import Player, exact_score

    root, _ = k3_root
    monkeypatch.setenv("FECHTBUCH_TABLES", str(root))
    base = Tablebase.open(table_folder(EINSTEIGER, root))
    values = base.split_values((3, 0))
    for code in (11, 6):  # won in 6, lost in 3
        offsets = np.flatnonzero(values == code)
        offset = int(offsets[_seeded(f"meister3/{code}", offsets.size)])
        pos = ix.position_at(EINSTEIGER, (3, 0), offset // 30, offset % 30)
        assert find_tables(pos) is not None
        choice = Player("meister", nodes=5_000).choose(pos)
        assert choice.reason == "tablebase"
        assert choice.move in base.best_moves(pos)
        assert choice.score == exact_score(base.probe(pos))


@pytest.mark.parametrize(
    ("name", "students", "splits"),
    [("einsteiger", 3, [(3, 0)]), ("verteidigung", 1, None), ("angriff", 2, [(2, 0)])],
)
def test_unmove_wins_give_the_row_sweep_bytes(tmp_path, k3_root, name, students, splits):
    """The wins of every step after the first come from the positions lost in the step
    before, walked backwards (:mod:`.unmove`), and the loss sweeps skip the moves they
    found to reach won children before (:mod:`.kernel`); the row sweep over every move
    of every open board is the plain definition.  Both must write the same bytes,
    mirror images included.  Where the fast build's bytes are known (the module's own
    K = 3 build; verteidigung's pinned K <= 1), only the plain one is built here."""
    build_module = importlib.import_module("fechtbuch.engines.battleklinge.tablebase.build")

    def by_rows(job, on_step):
        return build_module.solve_group_locally(job, on_step, unmoves=False, skip_checked=False)

    cards = CARD_SETS[name]
    plain = build(cards, students, tmp_path / "rows", only=splits, solver=by_rows)
    if name == "einsteiger":
        fast = {tuple(s["split"]): s["sha256"] for s in k3_root[1]["splits"]}
    elif name in K1_DIGESTS:
        fast = K1_DIGESTS[name]
    else:
        built = build(cards, students, tmp_path / "unmoves", only=splits)
        assert sum(s.won for s in built.splits) > 0
        fast = {s.split: s.sha256 for s in built.splits}
    assert [s.split for s in plain.splits] == list(fast)
    assert {s.split: s.sha256 for s in plain.splits} == fast


@pytest.mark.parametrize(
    ("split", "threshold"),
    [((1, 1), 100_000), pytest.param((1, 2), None, marks=pytest.mark.slow)],
    ids=["1-1", "1-2"],
)
def test_checked_moves_give_the_bytes_of_reading_every_move(
    tmp_path, monkeypatch, split, threshold
):
    """The loss sweeps' ``checked`` words alone, both builds with the un-move win steps:
    skipping the moves found to reach won children changes no byte.  The terz set's
    (1, 2) has 1.5 M boards, so its sweeps run on every thread; its (1, 1) has 143,198,
    and the threshold lowered below that gives the threaded sweeps in a tenth of the
    time."""
    build_module = importlib.import_module("fechtbuch.engines.battleklinge.tablebase.build")

    def every_move(job, on_step):
        return build_module.solve_group_locally(job, on_step, skip_checked=False)

    cards = parse_card_list("terz,stoss,quart,bindung,traverse")
    if threshold is not None:
        monkeypatch.setattr(kernel, "PARALLEL_BOARDS", threshold)
    assert ix.layout(tuple(sorted(cards))).boards(*split) >= kernel.PARALLEL_BOARDS
    fast = build(cards, max(split), tmp_path / "checked", only=[split])
    plain = build(cards, max(split), tmp_path / "every", only=[split], solver=every_move)
    assert {s.split for s in fast.splits} >= {split, split[::-1]}
    assert {s.split: s.sha256 for s in fast.splits} == {s.split: s.sha256 for s in plain.splits}
    assert sum(s.won for s in fast.splits if s.split == split) > 0
