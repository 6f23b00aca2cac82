"""``db mine`` on a simulated two-node Ray cluster (``ray.cluster_utils.Cluster``)
whose second node is killed mid-run gives the database bytes of the local run.

Ray binds to the machine's interface by default, so the cluster runs in a private
network namespace (``unshare -n`` with the loopback up), where it can only use
127.0.0.1: the test starts tests/support/db_ray_cluster.py there.  Skipped, saying why,
when Ray is not installed or the namespace cannot be made."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.clirun import run
from support.netns import namespace_problem

HELPER = Path(__file__).parents[1] / "support" / "db_ray_cluster.py"
ROUNDS, SEED, KILL_AFTER = 120, 3, 16


pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed"),
]


@pytest.mark.slow  # a Ray cluster losing a node: half a minute or more
def test_a_node_killed_mid_run_changes_no_byte(tmp_path, ray_tmpdir):
    problem = namespace_problem()
    if problem:
        pytest.skip(problem)
    local = tmp_path / "local.sqlite"
    result = run(
        "db", "mine", "--game", "battleklinge", "--rounds", ROUNDS, "--seed", SEED,
        "--db", local, "-j", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    on_ray = tmp_path / "ray.sqlite"
    script = (
        f"ip link set lo up && exec {sys.executable} {HELPER} {on_ray} {ROUNDS} {SEED} {KILL_AFTER}"
    )
    done = subprocess.run(
        ["unshare", "-n", "sh", "-c", script], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["probed_nodes"] == 2  # both nodes took tasks before the kill
    assert report["killed_after"] is not None and report["killed_after"] < ROUNDS - 1
    assert report["alive"] == 1  # the worker node is dead
    assert report["committed"] == ROUNDS
    assert report["verify_failed"] == 0 and report["verified"] > 100  # every row re-proved
    assert report["sha256"] == hashlib.sha256(on_ray.read_bytes()).hexdigest()
    assert on_ray.read_bytes() == local.read_bytes()
    assert report["command_backend"] == "ray"  # fechtbuch db mine --ray-address ADDRESS
    assert report["command_sha256"] == hashlib.sha256(local.read_bytes()).hexdigest()
