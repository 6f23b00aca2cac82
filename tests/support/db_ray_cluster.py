"""Mine into a database on a two-node Ray cluster and remove the second node mid-run.

Run by tests/network/test_db_ray.py inside a private network namespace (``unshare -n`` with
the loopback up, so Ray binds to 127.0.0.1 only):

    python db_ray_cluster.py DB ROUNDS SEED KILL_AFTER

``ray.cluster_utils.Cluster`` starts a head node and a worker node with one CPU
each; this process is the driver.  After round KILL_AFTER is committed the worker
node is removed (its raylet and workers killed) while later rounds are in flight on
it; Ray retries them on the head.  Prints one JSON line: the database's SHA-256, the
rounds committed, the round after which the node died, how many nodes ran the probe
tasks before mining (both must, or the kill would touch no work) and the nodes alive
at the end, the rows that ``db verify``'s Ray path re-proved on the one left, and the
SHA-256 of the same rounds mined by ``fechtbuch db mine --ray-address`` on that node.
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

DEATH_SECONDS = 60
"""How long Ray may take to declare the removed node dead."""


def main(db: str, rounds: int, seed: int, kill_after: int) -> None:
    import ray
    from fechtbuch.puzzles.db import backends, mine, schema, verify
    from ray.cluster_utils import Cluster

    # Inside this run's RAY_TMPDIR (tests/conftest.py, ray_tmpdir), where Ray also writes
    # ray_current_cluster; short, for Ray's socket paths have a length limit.
    temp = tempfile.mkdtemp(prefix="head", dir=os.environ.get("RAY_TMPDIR"))
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "temp_dir": temp, "include_dashboard": False},
    )
    worker_node = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)

    @ray.remote(num_cpus=1)
    def node_of_task() -> str:
        time.sleep(0.3)
        return ray.get_runtime_context().get_node_id()

    probed = len(set(ray.get([node_of_task.remote() for _ in range(6)])))
    kind = backends.mining_kind("battleklinge")
    conn = schema.open_for_writing(Path(db))
    backend = backends.RayBackend(None, None)  # the driver is connected already
    state = {"killed_after": None, "committed": 0}

    def on_round(round_number: int) -> None:
        state["committed"] += 1
        if state["killed_after"] is None and round_number >= kill_after:
            cluster.remove_node(worker_node, allow_graceful=False)
            state["killed_after"] = round_number

    try:
        plan = mine.plan_run(conn, kind, seed, kind.db_ns, rounds)
        mine.mine_plan(conn, kind, plan, kind.db_ns, backend, on_round)
        deadline = time.monotonic() + DEATH_SECONDS
        checked = verify.verify_database(conn, "battleklinge", backend)  # db verify --ray
        alive = sum(1 for node in ray.nodes() if node["Alive"])
        while alive > 1 and time.monotonic() < deadline:
            time.sleep(0.5)
            alive = sum(1 for node in ray.nodes() if node["Alive"])
        ray.shutdown()  # this driver leaves; the command line's driver joins the cluster
        by_command = Path(db + ".cli")
        command = [sys.executable, "-m", "fechtbuch", "db", "mine", "--game", "battleklinge"]
        command += ["--rounds", str(rounds), "--seed", str(seed), "--db", str(by_command)]
        done = subprocess.run(
            [*command, "--ray-address", cluster.address, "--json"],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"db mine --ray-address failed: {done.stderr[-2000:]}")
        command_digest = hashlib.sha256(by_command.read_bytes()).hexdigest()
        command_backend = json.loads(done.stdout)["backend"]
    finally:
        conn.close()
        ray.shutdown()
        cluster.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    digest = hashlib.sha256(Path(db).read_bytes()).hexdigest()
    report = {"sha256": digest, "alive": alive, "probed_nodes": probed}
    report |= {"verified": checked["rows"], "verify_failed": checked["failed"]}
    report |= {"command_sha256": command_digest, "command_backend": command_backend}
    print(json.dumps(state | report))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
