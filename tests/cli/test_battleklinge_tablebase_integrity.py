"""Damaged tables never answer: each kind of damage gives the right answer (df-pn
searches instead) or one clean line, never a claim read from bad bytes.

One K = 1 build of the einsteiger set per module; every case copies it and damages
the copy the way a disk, a copy or a careless edit would.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from fechtbuch.engines.battleklinge.cards import CARD_SETS
from fechtbuch.engines.battleklinge.tablebase import Tablebase, build, table_folder
from fechtbuch.engines.battleklinge.tablebase.manifest import (
    DamagedTables,
    manifest_seal,
    read_manifest,
)
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import dump_json
from support.clirun import assert_one_line_error, run

# One worker runs the whole module (--dist loadgroup, pyproject.toml): its module
# fixture builds the K <= 1 tables, which on two workers would be paid twice.
pytestmark = pytest.mark.xdist_group("battleklinge_tablebase_integrity")

CARDS = CARD_SETS["einsteiger"]
LOSS_IN_8 = "2m2/5/1s3/1S3/2M2 g ausfall,volte bindung,stoss riposte"
"""Gold to move is lost in 8 (split 1,1)."""
BLAU_HITS_IN_5 = "2m2/1s3/5/5/2M2 b ausfall,volte bindung,stoss riposte"
"""Blau to move hits in 5 (split 1,0 from the mover's side)."""
TRUTH = {LOSS_IN_8: "Gold to move: loss in 8.", BLAU_HITS_IN_5: "Blau to move: win in 5."}


@pytest.fixture(scope="module")
def good_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tables")
    build(CARDS, 1, table_folder(CARDS, root))
    return root


def _manifest_edit(change: Callable[[dict], None], reseal: bool = False):
    def damage(folder: Path) -> None:
        manifest = json.loads((folder / "manifest.json").read_bytes())
        change(manifest)
        if reseal:
            manifest["seal"] = manifest_seal(manifest)
        (folder / "manifest.json").write_bytes(dump_json(manifest))

    return damage


def _zeros(name: str):
    def damage(folder: Path) -> None:
        path = folder / name
        path.write_bytes(bytes(path.stat().st_size))

    return damage


def _swap(first: str, second: str):
    def damage(folder: Path) -> None:
        (folder / first).rename(folder / "swap")
        (folder / second).rename(folder / first)
        (folder / "swap").rename(folder / second)

    return damage


def _one_byte(name: str, offset: int):
    def damage(folder: Path) -> None:
        data = bytearray((folder / name).read_bytes())
        data[offset] ^= 1
        (folder / name).write_bytes(bytes(data))

    return damage


def _truncate(name: str):
    def damage(folder: Path) -> None:
        path = folder / name
        os.truncate(path, path.stat().st_size - 1)

    return damage


def _replace_manifest(data: bytes | None):
    def damage(folder: Path) -> None:
        (folder / "manifest.json").unlink()
        if data is None:
            os.mkfifo(folder / "manifest.json")
        else:
            (folder / "manifest.json").write_bytes(data)

    return damage


def _swap_entries(manifest: dict) -> None:
    entries = manifest["splits"]
    entries[1]["file"], entries[2]["file"] = entries[2]["file"], entries[1]["file"]
    entries[1]["sha256"], entries[2]["sha256"] = entries[2]["sha256"], entries[1]["sha256"]


DAMAGES = {
    "split 1,1 all zeros": _zeros("split-1-1.bin"),
    "splits 0,1 and 1,0 swapped": _swap("split-0-1.bin", "split-1-0.bin"),
    "one bit of split 1,0": _one_byte("split-1-0.bin", 4321),
    "split 1,1 truncated": _truncate("split-1-1.bin"),
    "split 0,0 missing": lambda folder: (folder / "split-0-0.bin").unlink(),
    "split 0,0 a folder": lambda folder: [
        (folder / "split-0-0.bin").unlink(),
        (folder / "split-0-0.bin").mkdir(),
    ],
    "split 1,1 a FIFO": lambda folder: [
        (folder / "split-1-1.bin").unlink(),
        os.mkfifo(folder / "split-1-1.bin"),
    ],
    "split 0,1 a symlink loop": lambda folder: [
        (folder / "split-0-1.bin").unlink(),
        (folder / "split-0-1.bin").symlink_to(folder / "split-0-1.bin"),
    ],
    "version 1": _manifest_edit(lambda m: m.update(version=1), reseal=True),
    "version 3": _manifest_edit(lambda m: m.update(version=3)),
    "version '2'": _manifest_edit(lambda m: m.update(version="2")),
    "no seal": _manifest_edit(lambda m: m.pop("seal")),
    "cards edited": _manifest_edit(lambda m: m["cards"].reverse()),
    "cards edited and resealed": _manifest_edit(
        lambda m: m.update(cards=["ausfall", "riposte", "stoss", "volte", "prim"]), reseal=True
    ),
    "a hash edited": _manifest_edit(lambda m: m["splits"][3].update(sha256="0" * 64)),
    "split entries swapped": _manifest_edit(_swap_entries),
    "split entries swapped and resealed": _manifest_edit(_swap_entries, reseal=True),
    "max_students edited and resealed": _manifest_edit(
        lambda m: m.update(max_students=2), reseal=True
    ),
    "a count as a string": _manifest_edit(lambda m: m["splits"][0].update(won="1"), reseal=True),
    "an unknown field": _manifest_edit(lambda m: m.update(extra=1), reseal=True),
    "splits missing": _manifest_edit(lambda m: m.pop("splits"), reseal=True),
    "manifest '{'": _replace_manifest(b"{\n"),
    "manifest empty": _replace_manifest(b""),
    "manifest a list": _replace_manifest(b"[]"),
    "manifest binary": _replace_manifest(b"\xff\xfe\x00"),
    "manifest a FIFO": _replace_manifest(None),
    "manifest a folder": lambda folder: [
        (folder / "manifest.json").unlink(),
        (folder / "manifest.json").mkdir(),
    ],
    "manifest a symlink loop": lambda folder: [
        (folder / "manifest.json").unlink(),
        (folder / "manifest.json").symlink_to(folder / "manifest.json"),
    ],
}

SPLIT_DAMAGES = {
    "split 1,1 all zeros": ["split-1-1.bin"],
    "splits 0,1 and 1,0 swapped": ["split-0-1.bin", "split-1-0.bin"],
    "one bit of split 1,0": ["split-1-0.bin"],
    "split 1,1 truncated": ["split-1-1.bin"],
    "split 0,0 missing": ["split-0-0.bin"],
    "split 0,0 a folder": ["split-0-0.bin"],
    "split 1,1 a FIFO": ["split-1-1.bin"],
    "split 0,1 a symlink loop": ["split-0-1.bin"],
}
"""The damages to split files (the manifest intact), and the files each one damages."""


@pytest.fixture
def damaged(good_root, tmp_path) -> Callable[[str], Path]:
    def make(label: str) -> Path:
        root = tmp_path / label.replace(" ", "-").replace("'", "")
        shutil.copytree(good_root, root)
        DAMAGES[label](table_folder(CARDS, root))
        return root

    return make


def test_the_intact_tables_answer_the_truth(good_root):
    for position, truth in TRUTH.items():
        assert run("tb", "probe", position, "--tables", good_root).output.startswith(truth)
    answer = json.loads(run("solve", LOSS_IN_8, "--tables", good_root, "--json").output)
    assert answer["source"] == "tablebase" and answer["loss_in"] == 8


@pytest.mark.parametrize("label", sorted(DAMAGES))
def test_damaged_tables_are_refused_in_one_line(damaged, label):
    root = damaged(label)
    for position in TRUTH:
        line = assert_one_line_error(run("tb", "probe", position, "--tables", root))
        assert "tables:" in line, line
        # the card set's own folder names the same tables
        folder = table_folder(CARDS, root)
        assert assert_one_line_error(run("tb", "probe", position, "--tables", folder)) == line


@pytest.mark.parametrize("label", sorted(DAMAGES))
def test_solve_searches_instead_of_reading_damaged_tables(damaged, label):
    root = damaged(label)
    warnings = []
    for position in TRUTH:
        result = run("solve", position, "--tables", root, "--json", "--max", "5")
        assert result.exit_code in (0, 1), result.output[-300:]
        warnings += result.stderr.splitlines()
        answer = json.loads(result.stdout)
        assert answer.get("source") != "tablebase"
        if position == BLAU_HITS_IN_5:  # df-pn finds Blau's hit within --max 5
            assert answer["status"] == "solved" and answer["distance"] == 5, answer
        else:  # Gold's loss in 8 is beyond --max 5: no hit, no wrong claim
            assert answer["distance"] is None and answer.get("loss_in") in (None, 8), answer
    # one warning line per folder and process (the solver opens tables once)
    assert len(warnings) == 1 and "not used, searching instead" in warnings[0], warnings


def test_info_passes_the_intact_tables(good_root):
    result = run("tb", "info", "--tables", good_root)
    assert result.exit_code == 0, result.output
    assert "4 splits" in result.output and "damaged" not in result.output
    (entry,) = json.loads(run("tb", "info", "--tables", good_root, "--json").output)["tables"]
    assert [s["damage"] for s in entry["splits"]] == [None] * 4


@pytest.mark.parametrize("label", sorted(DAMAGES))
def test_info_checks_what_probe_checks(damaged, label):
    """tb info never lists damaged tables as complete: a damaged split is named (exit 1),
    a damaged manifest is one line (exit 2), as tb probe refuses both."""
    root = damaged(label)
    result = run("tb", "info", "--tables", root)
    if label not in SPLIT_DAMAGES:
        assert "tables:" in assert_one_line_error(result)
        return
    line = assert_one_line_error(result, status=1)
    for name in SPLIT_DAMAGES[label]:
        assert name in line, line
        (listed,) = [s for s in result.stdout.splitlines() if f" {name[6]},{name[8]} " in s]
        assert "damaged" in listed and "sha256" not in listed, listed
    intact = [s for s in result.stdout.splitlines() if s.startswith("  ") and "damaged" not in s]
    assert len(intact) == 4 - len(SPLIT_DAMAGES[label]), result.stdout
    answer = run("tb", "info", "--tables", root, "--json")
    assert answer.exit_code == 1 and len(answer.stderr.splitlines()) == 1, answer.stderr
    (entry,) = json.loads(answer.stdout)["tables"]
    damaged_files = sorted(s["file"] for s in entry["splits"] if s["damage"] is not None)
    assert damaged_files == sorted(SPLIT_DAMAGES[label]) and not entry["complete"]


def test_the_reader_names_the_damage():
    with pytest.raises(InputError, match="no manifest.json"):
        read_manifest(Path("/"))


def test_damage_found_by_the_api_is_damaged_tables(damaged):
    root = damaged("split 1,1 all zeros")
    with pytest.raises(DamagedTables, match="SHA-256"):
        Tablebase.open(table_folder(CARDS, root))


def test_the_meister_plays_on_without_damaged_tables(good_root, damaged, capsys):
    from fechtbuch.engines.battleklinge.players import TableProbe
    from fechtbuch.engines.battleklinge.position import Position
    from fechtbuch.engines.battleklinge.reference import legal_moves

    pos = Position.from_text(BLAU_HITS_IN_5)
    answer = TableProbe(good_root).root(pos, legal_moves(pos))
    assert answer is not None and answer.covered
    root = damaged("splits 0,1 and 1,0 swapped")
    assert TableProbe(root).root(pos, legal_moves(pos)) is None  # the engine searches
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 1 and "not used, searching instead" in warnings[0]
