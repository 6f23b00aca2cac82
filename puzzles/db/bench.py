"""``db bench``: throughput of ``db mine`` on Battleklinge, local pool against Ray.

Each configuration mines the same rounds into a fresh database after a warm-up
(compiled code loaded in every worker; Ray's workers started), and the figures are
verified exercises (rows stored) per CPU-second, two ways: per *allocated*
CPU-second (wall time x workers: what a cluster is paid for, so scheduling and
idle time count against a backend) and per CPU-second the rounds themselves used
(``time.process_time`` in the workers).  The databases' SHA-256 must agree.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from fechtbuch.puzzles.db import backends, mine, schema

GAME = "battleklinge"
WARM_UP_SEED_OFFSET = 1_000_003
"""The warm-up mines another stream (the timed stream's seed plus this) into a scratch file."""


def _mine_into(path: Path, backend, seed: int, rounds: int) -> mine.MineTally:
    kind = backends.mining_kind(GAME)
    conn = schema.open_for_writing(path)
    try:
        plan = mine.plan_run(conn, kind, seed, kind.db_ns, rounds)
        return mine.mine_plan(conn, kind, plan, kind.db_ns, backend)
    finally:
        conn.close()


def _measure(folder: Path, label: str, backend, rounds: int, seed: int) -> dict:
    workers = backend.workers()
    _mine_into(folder / f"{label}-warm.sqlite", backend, seed + WARM_UP_SEED_OFFSET, 4 * workers)
    path = folder / f"{label}.sqlite"
    tally = _mine_into(path, backend, seed, rounds)
    allocated = tally.wall_seconds * workers
    return {
        "backend": label,
        "workers": workers,
        "rounds": tally.rounds,
        "exercises": tally.stored,
        "wall_seconds": round(tally.wall_seconds, 3),
        "task_cpu_seconds": round(tally.cpu_seconds, 3),
        "per_allocated_cpu_second": round(tally.stored / allocated, 2),
        "per_task_cpu_second": round(tally.stored / max(tally.cpu_seconds, 1e-9), 2),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }


def run_bench(rounds: int, workers: int, seed: int, with_ray: bool = True) -> dict:
    """The figures of the local pool with ``workers`` workers and, ``with_ray``, Ray
    with ``workers`` and with 1 CPU."""
    if with_ray:
        backends.import_ray()
    kind = backends.mining_kind(GAME)
    runs = []
    with tempfile.TemporaryDirectory(prefix="fechtbuch-db-bench-") as scratch:
        folder = Path(scratch)
        local = backends.LocalBackend(workers, kind.warm_up)
        try:
            runs.append(_measure(folder, "local", local, rounds, seed))
        finally:
            local.close()
        if with_ray:
            for cpus in (workers, 1):
                ray_backend = backends.RayBackend(None, cpus)
                try:
                    runs.append(_measure(folder, f"ray-{cpus}", ray_backend, rounds, seed))
                finally:
                    ray_backend.close()
    figures: dict = {
        "game": GAME,
        "rounds": rounds,
        "seed": seed,
        "cpus_on_machine": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "runs": runs,
        "same_bytes": len({r["sha256"] for r in runs}) == 1,
    }
    by_label = {r["backend"]: r for r in runs}
    if with_ray:
        equal = by_label[f"ray-{workers}"]
        figures["ray_overhead"] = round(
            1 - equal["per_allocated_cpu_second"] / by_label["local"]["per_allocated_cpu_second"], 3
        )
        if workers > 1:
            figures["ray_speedup"] = round(
                by_label["ray-1"]["wall_seconds"] / equal["wall_seconds"], 2
            )
    return figures


def report(figures: dict) -> list[str]:
    lines = [
        f"db mine, {figures['game']}, {figures['rounds']} rounds of seed {figures['seed']} "
        f"({figures['cpus_on_machine']} CPUs, load {figures['load_average']}):"
    ]
    for run in figures["runs"]:
        lines.append(
            f"  {run['backend']:8} {run['workers']} workers: {run['exercises']} exercises in "
            f"{run['wall_seconds']:.2f} s; {run['per_allocated_cpu_second']:.1f} per allocated "
            f"CPU-second, {run['per_task_cpu_second']:.1f} per task CPU-second"
        )
    if "ray_overhead" in figures:
        lines.append(f"  Ray's overhead at equal workers: {figures['ray_overhead']:.1%}")
    if "ray_speedup" in figures:
        lines.append(
            f"  Ray, {figures['runs'][1]['workers']} workers vs 1: {figures['ray_speedup']:.2f}x"
        )
    lines.append("  same database bytes: " + ("yes" if figures["same_bytes"] else "NO"))
    return lines
