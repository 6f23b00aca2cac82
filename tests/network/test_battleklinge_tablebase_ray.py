"""``tb build`` on a simulated two-node Ray cluster gives the bytes of the local build:
K <= 1 and the split (2, 0) with (0, 2), plainly, with the worker node killed mid-split,
with the driver stopped mid-split and started again, and through the command line's
``--ray-address``.

Ray binds to the machine's interface by default, so the cluster runs in a private
network namespace (``unshare -n`` with the loopback up): the test starts
tests/support/tb_ray_cluster.py there.  Skipped, saying why, when Ray is not installed or the
namespace cannot be made.  The partitioned solver itself (no Ray) is checked here too.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fechtbuch.engines.battleklinge.cards import CARD_SETS, card_id
from fechtbuch.engines.battleklinge.tablebase import build
from fechtbuch.engines.battleklinge.tablebase import index as ix
from fechtbuch.engines.battleklinge.tablebase.build import GroupJob, solve_group_locally
from fechtbuch.engines.battleklinge.tablebase.distributed import (
    PHASES,
    PartitionWorker,
    merge,
    phase_code,
    row_ranges,
    split_rows,
)
from support.netns import namespace_problem
from support.tb_ray_cluster import KILL_STEP, STOP_STEP, digests

HELPER = Path(__file__).parents[1] / "support" / "tb_ray_cluster.py"
CARDS = CARD_SETS["verteidigung"]  # mirror-closed, terz and quart permute the deals


def test_row_ranges_cover_every_row_once():
    for rows, parts in [(283, 1), (283, 2), (283 * 23, 3), (5, 7)]:
        ranges = row_ranges(rows, parts)
        assert ranges[0][0] == 0 and ranges[-1][1] == rows
        assert all(ranges[i][1] == ranges[i + 1][0] for i in range(parts - 1))


@pytest.mark.parametrize("parts", [1, 3])
def test_partitioned_phases_give_the_local_values(tmp_path, parts):
    """Three partitions that exchange only merged frontiers end in the masks and value
    bytes of the local solver, for the group (0, 1)/(1, 0) (captures reach (0, 0))."""
    cards = tuple(sorted(CARDS))
    lay = ix.layout(cards)
    build(cards, 0, tmp_path / "small")
    finished = {(0, 0): np.fromfile(tmp_path / "small" / "split-0-0.bin", dtype=np.uint8)}
    group = [(0, 1), (1, 0)]
    longest = (int(finished[(0, 0)].max()) + 1) // 2  # the longest distance a capture reaches
    job = GroupJob(cards, group, tmp_path, finished, longest)
    steps = solve_group_locally(job, lambda step, resolved: None)
    local = {s: np.fromfile(tmp_path / f"split-{s[0]}-{s[1]}.bin.part", np.uint8) for s in group}
    ranges = [{s: row_ranges(split_rows(lay, *s), parts)[w] for s in group} for w in range(parts)]
    ids = [card_id(c) for c in cards]
    workers = [PartitionWorker(ids, group, ranges[w], finished) for w in range(parts)]
    values = {s: np.zeros(lay.positions(*s), dtype=np.uint8) for s in group}
    previous: tuple = ()
    for phase in range(2 * steps):
        step, kind = phase // 2 + 1, PHASES[phase % 2]
        frontiers = [w.sweep(step, kind, PHASES[(phase - 1) % 2], *previous) for w in workers]
        merged = merge(frontiers, group)
        for split, (boards, bits) in merged.items():
            assert np.all(np.diff(boards) > 0)  # each board once, in order
            for board, mask in zip(boards, bits, strict=True):
                for deal in range(30):
                    if mask >> deal & 1:
                        assert values[split][board * 30 + deal] == 0
                        values[split][board * 30 + deal] = phase_code(phase)
        previous = (merged,)
    for split in group:
        assert np.array_equal(values[split], local[split])


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")
def test_ray_builds_the_local_bytes_through_a_node_kill_and_a_driver_restart(tmp_path, ray_tmpdir):
    problem = namespace_problem()
    if problem:
        pytest.skip(problem)
    local = tmp_path / "local"
    build(CARDS, 1, local)
    build(CARDS, 2, local, only=[(2, 0)])
    expected = digests(local)
    assert {"split-1-1.bin", "split-0-2.bin", "split-2-0.bin", "manifest.json"} <= set(expected)
    ids = ",".join(card_id(c) for c in sorted(CARDS))
    script = f"ip link set lo up && exec {sys.executable} {HELPER} exact {ids} {tmp_path}"
    done = subprocess.run(
        ["unshare", "-n", "sh", "-c", script], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["partition_nodes"] == 2  # the partitions ran on both nodes
    assert report["plain"] == expected
    assert report["killed_after"] == KILL_STEP and report["worker_node_ran_a_partition"]
    assert report["restarts"] >= 1 and report["alive"] == 1
    assert report["killed"] == expected
    assert report["stopped_after"] == STOP_STEP and report["checkpoint_left"]
    assert report["resumed_phases"] == 2 * STOP_STEP  # it went on from the last step
    assert report["resumed"] == expected
    assert report["command_ray_workers"] == 1
    k1 = {
        name: sha
        for name, sha in expected.items()
        if name not in ("split-0-2.bin", "split-2-0.bin")
    }
    assert {n: s for n, s in report["command"].items() if n != "manifest.json"} == {
        n: s for n, s in k1.items() if n != "manifest.json"
    }
