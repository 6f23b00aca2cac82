"""Build tablebases on a simulated two-node Ray cluster (``ray.cluster_utils.Cluster``).

Run inside a private network namespace (``unshare -n`` with the loopback up, so Ray
binds to 127.0.0.1 only), by tests/network/test_battleklinge_tablebase_ray.py or by hand:

    python tb_ray_cluster.py exact CARDS FOLDER
    python tb_ray_cluster.py scale CARDS FOLDER SPLIT [WORKERS ...]

``exact``: a head node with two CPUs and a worker node with two; this process is the
driver.  (The worker node's second CPU is there because a group's actors are killed
asynchronously: the next group's may be placed while the last one's still holds a CPU,
and with one CPU on the worker node both would then go to the head.)  Into FOLDER/plain: K <= 1 and the split (2, 0) (with (0, 2), its group) on two
workers.  Into FOLDER/killed: the same, but during split (1, 1) the worker node that
runs a partition is removed (its raylet and workers killed) after step KILL_STEP; the
driver replaces the lost worker, which replays the checkpointed phases.  Into
FOLDER/resumed: the driver stops (an exception from its progress callback) after step
STOP_STEP of split (1, 1) and a second build resumes from the checkpoint.  Into
FOLDER/command: ``fechtbuch tb build --students 1 --ray-address ADDRESS``.  Prints one
JSON line: the SHA-256 of every file of each folder, the nodes that ran partitions,
the restarts, the phases the resumed build found, the nodes alive at the end.

``scale``: FOLDER holds the splits that SPLIT's captures reach (a local build); builds
SPLIT's group on a cluster of one-CPU nodes with each number of WORKERS (default 1 2)
and prints one JSON line of wall seconds per worker count (and the SHA-256 of the
split, equal for every count).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KILL_STEP = 4
STOP_STEP = 6
DEATH_SECONDS = 60


class StopDriver(Exception):
    """Raised by the progress callback to stop the driver midway."""


def digests(folder: Path) -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.iterdir())
        if path.is_file()
    }


def start_cluster(head_cpus: int, worker_cpus: list[int]):
    import ray
    from ray.cluster_utils import Cluster

    # Inside this run's RAY_TMPDIR (tests/conftest.py, ray_tmpdir), where Ray also writes
    # ray_current_cluster; short, for Ray's socket paths have a length limit.
    temp = tempfile.mkdtemp(prefix="head", dir=os.environ.get("RAY_TMPDIR"))
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": head_cpus, "temp_dir": temp, "include_dashboard": False},
    )
    nodes = [cluster.add_node(num_cpus=cpus) for cpus in worker_cpus]
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    return cluster, nodes, temp


def exact(cards_text: str, folder: str) -> None:
    import ray
    from fechtbuch.engines.battleklinge.cards import parse_card_list
    from fechtbuch.engines.battleklinge.tablebase import build
    from fechtbuch.engines.battleklinge.tablebase.distributed import RaySolver

    cards = tuple(sorted(parse_card_list(cards_text)))
    root = Path(folder)
    cluster, (worker_node,), temp = start_cluster(2, [2])
    state: dict = {"killed_after": None, "stopped_after": None}
    try:
        solver = RaySolver(workers=2)
        build(cards, 1, root / "plain", solver=solver)
        build(cards, 2, root / "plain", solver=solver, only=[(2, 0)])
        state["partition_nodes"] = len(set(solver.nodes))

        def kill_worker_node(split, step, resolved):
            if split == (1, 1) and step == KILL_STEP and state["killed_after"] is None:
                state["worker_node_ran_a_partition"] = worker_node.node_id in solver.nodes
                state["nodes_at_kill"] = len(solver.nodes)
                cluster.remove_node(worker_node, allow_graceful=False)
                state["killed_after"] = step

        build(cards, 1, root / "killed", solver=solver, progress=kill_worker_node)
        build(cards, 2, root / "killed", solver=solver, only=[(2, 0)])
        state["restarts"] = solver.restarts

        def stop_driver(split, step, resolved):
            if split == (1, 1) and step == STOP_STEP:
                state["stopped_after"] = step
                raise StopDriver

        try:
            build(cards, 1, root / "resumed", solver=solver, progress=stop_driver)
        except StopDriver:
            pass
        state["checkpoint_left"] = (root / "resumed" / ".steps-1-1").is_dir()
        build(cards, 1, root / "resumed", solver=solver)
        state["resumed_phases"] = solver.resumed_phases
        build(cards, 2, root / "resumed", solver=solver, only=[(2, 0)])
        deadline = time.monotonic() + DEATH_SECONDS
        alive = sum(1 for node in ray.nodes() if node["Alive"])
        while alive > 1 and time.monotonic() < deadline:
            time.sleep(0.5)
            alive = sum(1 for node in ray.nodes() if node["Alive"])
        state["alive"] = alive
        ray.shutdown()  # this driver leaves; the command line's driver joins the cluster
        command = [sys.executable, "-m", "fechtbuch", "tb", "build", "--cards", cards_text]
        command += ["--students", "1", "-o", str(root / "command"), "-j", "1", "--json"]
        done = subprocess.run(
            [*command, "--ray-address", cluster.address],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"tb build --ray-address failed: {done.stderr[-2000:]}")
        state["command_ray_workers"] = json.loads(done.stdout)["ray_workers"]
    finally:
        ray.shutdown()
        cluster.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    for name in ("plain", "killed", "resumed", "command"):
        state[name] = digests(root / name)
    print(json.dumps(state))


def scale(cards_text: str, folder: str, split_text: str, workers: list[int]) -> None:
    import ray
    from fechtbuch.engines.battleklinge.cards import parse_card_list
    from fechtbuch.engines.battleklinge.tablebase import build
    from fechtbuch.engines.battleklinge.tablebase.distributed import RaySolver
    from fechtbuch.engines.battleklinge.tablebase.manifest import split_file

    cards = tuple(sorted(parse_card_list(cards_text)))
    split = tuple(int(x) for x in split_text.split(","))
    root = Path(folder)
    cluster, _, temp = start_cluster(0, [1] * max(workers))
    figures: dict = {"split": list(split), "seconds": {}, "sha256": {}, "frontier_bytes": {}}
    try:
        for count in workers:
            target = root / f"ray-{count}"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(root / "base", target)
            solver = RaySolver(workers=count)
            started = time.perf_counter()
            build(cards, max(split), target, solver=solver, only=[split])
            figures["seconds"][count] = round(time.perf_counter() - started, 2)
            figures["frontier_bytes"][count] = solver.frontier_bytes
            figures["sha256"][count] = hashlib.sha256(
                (target / split_file(*split)).read_bytes()
            ).hexdigest()
            shutil.rmtree(target)
    finally:
        ray.shutdown()
        cluster.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    if sys.argv[1] == "exact":
        exact(sys.argv[2], sys.argv[3])
    else:
        scale(sys.argv[2], sys.argv[3], sys.argv[4], [int(w) for w in sys.argv[5:]] or [1, 2])
