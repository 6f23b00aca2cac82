"""Where the rounds of ``db mine`` and the rows of ``db verify`` run: this process,
a pool of forked local workers, or a Ray cluster.  Every backend gives the results
in the order of the work it was handed, so what is committed never depends on the
backend, the number of workers, or which worker died and was retried.

Each unit of work names its game by slug and is looked up in the game registry
where it runs (a Ray node imports the game there), and reports the CPU seconds it
took beside its result, for the throughput figures only: a clock never reaches the
database.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.plugin import load
from fechtbuch.engines.raykit import connect_ray, import_ray
from fechtbuch.engines.registry import plugin
from fechtbuch.puzzles.minekit import DbCandidate, MiningKind, RoundYield, init_worker

if TYPE_CHECKING:
    from fechtbuch.puzzles.db.store import PreparedRow

RAY_MAX_RETRIES = 5
"""A Ray task whose worker or node dies is run again, up to this many times (a round
is a pure function of its task, so a retry gives the same result)."""
RAY_WINDOW_PER_CPU = 2
"""Tasks in flight per CPU of the cluster: enough to keep every worker busy while
the driver waits for the oldest result, few enough to bound the memory held."""


def mining_kind(slug: str) -> MiningKind:
    entry = plugin(slug)
    if entry.mining_kind is None:
        raise InputError(f"--game: {entry.title} has no mining")
    return load(entry.mining_kind)


def examine_rounds(
    slug: str, tasks: list[tuple]
) -> tuple[list[RoundYield], list[list[PreparedRow]], float]:
    """Database rounds of ``slug`` in order (a worker's entry point: one commit unit,
    so a Battleklinge round of some milliseconds does not pay a task's overhead
    alone), each round's candidates prepared as rows (duplicate class, compressed
    tree, motif tags: made here, in parallel, not by the one process that commits)
    and the CPU seconds they took."""
    from fechtbuch.puzzles.db.store import prepare_exercise

    started = time.process_time()
    kind = mining_kind(slug)
    found = [kind.db_round(task) for task in tasks]
    rows = [[prepare_exercise(kind, p) for p in round_.candidates] for round_ in found]
    return found, rows, time.process_time() - started


def verify_rows(slug: str, rows: list[DbCandidate]) -> tuple[list[list[str]], float]:
    """The problems of each row (a worker's entry point) and the CPU seconds spent."""
    started = time.process_time()
    kind = mining_kind(slug)
    problems = [kind.db_verify(row) for row in rows]
    return problems, time.process_time() - started


Work = Callable[..., Any]


class LocalBackend:
    """This process (``jobs`` 1) or a pool of forked workers that die with it."""

    name = "local"

    def __init__(self, jobs: int, warm_up: Callable[[], None] | None = None) -> None:
        self.jobs = jobs
        self._pool = None
        if warm_up is not None:
            warm_up()  # compiled code loaded once, inherited by every forked worker
        if jobs > 1:
            context = multiprocessing.get_context("fork")
            self._pool = context.Pool(jobs, initializer=init_worker, initargs=(os.getpid(),))

    def workers(self) -> int:
        return self.jobs

    def imap(self, work: Work, slug: str, items: Iterable) -> Iterator:
        call = functools.partial(work, slug)
        if self._pool is None:
            return map(call, items)
        return self._pool.imap(call, items)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class RayBackend:
    """Tasks on a Ray cluster: the one at ``address``, an already connected one, or a
    local Ray started here with ``jobs`` CPUs.  Results are taken in submission order
    with a bounded window of tasks in flight; a task whose worker or node dies is
    retried by Ray (:data:`RAY_MAX_RETRIES`)."""

    name = "ray"

    def __init__(self, address: str | None, jobs: int | None) -> None:
        self._ray = import_ray("--ray-address" if address is not None else "--ray")
        self._started_here = connect_ray(address, jobs)
        self._remotes: dict[Work, Any] = {}

    def workers(self) -> int:
        return int(self._ray.cluster_resources().get("CPU", 1))

    def _remote(self, work: Work):
        if work not in self._remotes:
            self._remotes[work] = self._ray.remote(num_cpus=1, max_retries=RAY_MAX_RETRIES)(work)
        return self._remotes[work]

    def imap(self, work: Work, slug: str, items: Iterable) -> Iterator:
        remote = self._remote(work)
        window = max(RAY_WINDOW_PER_CPU * self.workers(), 2)
        pending: deque = deque()
        for item in items:
            pending.append(remote.remote(slug, item))
            if len(pending) >= window:
                yield self._ray.get(pending.popleft())
        while pending:
            yield self._ray.get(pending.popleft())

    def close(self) -> None:
        if self._started_here:
            self._ray.shutdown()
            self._started_here = False


def make_backend(use_ray: bool, address: str | None, jobs: int | None, warm_up=None):
    """The backend the options ask for (``--ray-address`` implies ``--ray``)."""
    from fechtbuch.engines.workers import resolve_jobs

    if use_ray or address is not None:
        return RayBackend(address, jobs)
    return LocalBackend(resolve_jobs(jobs), warm_up)
