"""``db bench``: throughput of ``db mine`` on one game, local pool against Ray.

The game is ``--game`` (any registered game with mining), by default the first such
game of the registry (:func:`default_game`).

Each configuration mines the same rounds into a fresh database after a warm-up
(compiled code loaded in every worker; Ray's workers started), and the figures are
verified exercises (rows stored) per CPU-second, two ways: per *allocated*
CPU-second (wall time x workers: what a cluster is paid for, so scheduling and
idle time count against a backend) and per CPU-second the rounds themselves used
(``time.process_time`` in the workers).  Each figure is the fastest of a few
repeats.  The databases' SHA-256 must agree.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from fechtbuch.engines.registry import plugins
from fechtbuch.puzzles.db import backends, mine, schema

WARM_UP_SEED_OFFSET = 1_000_003
"""The warm-up mines another stream (the timed stream's seed plus this) into a scratch file."""


def default_game() -> str:
    """The slug of the registry's first game with a mining kind (the registry lists
    the built-in games first, so this does not change with FECHTBUCH_PLUGINS)."""
    return next(p.slug for p in plugins() if p.mining_kind is not None)


def _mine_into(path: Path, backend, kind, seed: int, rounds: int) -> mine.MineTally:
    conn = schema.open_for_writing(path)
    try:
        plan = mine.plan_run(conn, kind, seed, kind.db_ns, rounds)
        return mine.mine_plan(conn, kind, plan, kind.db_ns, backend)
    finally:
        conn.close()


def _measure(folder: Path, label: str, backend, kind, rounds: int, seed: int, repeats: int) -> dict:
    """The fastest of ``repeats`` runs (each into a fresh file): on a shared machine
    the other users only ever slow a run down, so the fastest is the least disturbed."""
    workers = backend.workers()
    _mine_into(
        folder / f"{label}-warm.sqlite", backend, kind, seed + WARM_UP_SEED_OFFSET, 4 * workers
    )
    best, digests, walls = None, set(), []
    for repeat in range(repeats):
        path = folder / f"{label}-{repeat}.sqlite"
        tally = _mine_into(path, backend, kind, seed, rounds)
        digests.add(hashlib.sha256(path.read_bytes()).hexdigest())
        walls.append(round(tally.wall_seconds, 3))
        if best is None or tally.wall_seconds < best.wall_seconds:
            best = tally
    allocated = best.wall_seconds * workers
    return {
        "backend": label,
        "workers": workers,
        "rounds": best.rounds,
        "exercises": best.stored,
        "wall_seconds": round(best.wall_seconds, 3),
        "wall_seconds_of_each_repeat": walls,
        "task_cpu_seconds": round(best.cpu_seconds, 3),
        "per_allocated_cpu_second": round(best.stored / allocated, 2),
        "per_task_cpu_second": round(best.stored / max(best.cpu_seconds, 1e-9), 2),
        "sha256": digests.pop() if len(digests) == 1 else "repeats differ",
    }


def run_bench(
    rounds: int,
    workers: int,
    seed: int,
    repeats: int = 3,
    with_ray: bool = True,
    game: str | None = None,
) -> dict:
    """The figures of mining ``game`` (a slug; ``None``: :func:`default_game`) on the
    local pool with ``workers`` workers and, ``with_ray``, Ray with ``workers`` and
    with 1 CPU."""
    if with_ray:
        backends.import_ray()
    game = default_game() if game is None else game
    kind = backends.mining_kind(game)
    runs = []
    with tempfile.TemporaryDirectory(prefix="fechtbuch-db-bench-") as scratch:
        folder = Path(scratch)
        local = backends.LocalBackend(workers, kind.warm_up)
        try:
            runs.append(_measure(folder, "local", local, kind, rounds, seed, repeats))
        finally:
            local.close()
        if with_ray:
            for cpus in (workers, 1):
                ray_backend = backends.RayBackend(None, cpus)
                try:
                    runs.append(
                        _measure(folder, f"ray-{cpus}", ray_backend, kind, rounds, seed, repeats)
                    )
                finally:
                    ray_backend.close()
    figures: dict = {
        "game": game,
        "rounds": rounds,
        "seed": seed,
        "repeats": repeats,
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
        f"db mine, {figures['game']}, {figures['rounds']} rounds of seed {figures['seed']}, "
        f"fastest of {figures['repeats']} ({figures['cpus_on_machine']} CPUs, load "
        f"{figures['load_average']} at the end):"
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
