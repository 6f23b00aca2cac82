"""The mining loop every game's ``mine`` command runs, written once, on the game's
:class:`~fechtbuch.puzzles.minekit.MiningKind`:

* rounds ``0, 1, 2, ...`` are examined in batches of ``kind.batch_rounds``, by a
  pool of forked workers (``-j``) or in this process; a round is a pure function of
  its task (seed and round number are SHA-256 derived by the game), and results are
  added in round order, so any ``-j`` gives the same pool;
* the pool keeps the first candidate of each duplicate class;
* after each batch the resume state ``OUTPUT.partial`` is written atomically
  (:mod:`fechtbuch.puzzles.mine_state`); Ctrl-C keeps it, ``--resume`` continues
  with the same options and gives the same bytes as an uninterrupted run;
* mining stops when the kind says the pool is full, or after ``--rounds`` rounds
  (the last batch is cut there);
* the pack is checked against its schema and written atomically (``--force`` to
  overwrite); the summary is printed as text or, with ``--json``, as JSON.

``fechtbuch.commands.mineoptions.mine_options`` is the one option factory of the
three ``mine`` commands; it hands them a :class:`MineRun`.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from fechtbuch.engines import interrupts
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import (
    atomic_write,
    dump_json,
    ensure_writable,
    missing_folders,
    remove_created_folders,
)
from fechtbuch.engines.workers import resolve_jobs
from fechtbuch.puzzles import mine_state
from fechtbuch.puzzles.minekit import MinePool, MiningKind, RoundYield
from fechtbuch.puzzles.pack import pack_bytes, schema_problems
from tqdm import tqdm

EXIT_INTERRUPTED = 130


_ACTIVE: dict[str, object] = {"kind": None, "parent": 0}


PR_SET_PDEATHSIG = 1


def init_worker(parent: int) -> None:
    """Workers leave Ctrl-C to the main process, which saves the pool and stops them,
    and die with their parent: the kernel sends SIGKILL when it exits (Linux
    PR_SET_PDEATHSIG), and a worker whose parent is already gone leaves at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent-pid checks remain
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    _ACTIVE["parent"] = parent


def _examine_in_worker(task: tuple) -> RoundYield:
    """Worker entry point (forked: the kind is inherited); stops if the parent is
    gone (the check for systems without PR_SET_PDEATHSIG)."""
    if _ACTIVE["parent"] and os.getppid() != _ACTIVE["parent"]:
        os._exit(1)
    return _ACTIVE["kind"].examine_round(task)


def _interrupted_note(partial: Path, claimed: bool, first: int) -> str:
    """What Ctrl-C left behind, said truthfully: the rounds and candidates the state
    file holds, not those in memory (Ctrl-C can come between a batch and its save), and
    the file only when it holds rounds (a run interrupted before its first saved batch
    removes its own)."""
    saved = mine_state.saved_progress(partial)
    if saved is None:
        return f"interrupted; {partial} is gone, so nothing is kept"
    rounds, candidates = saved
    if rounds == first and claimed:
        partial.unlink(missing_ok=True)
        return "interrupted before the first batch of rounds was done; nothing kept"
    return (
        f"interrupted: {candidates} candidates from {rounds} rounds "
        f"({rounds - first} in this run) kept in {partial}; continue with --resume"
    )


@dataclass(frozen=True)
class MineRun:
    """The shared options of one ``mine`` invocation."""

    output: Path
    seed: int
    max_rounds: int
    jobs: int | None
    resume: bool
    force: bool
    as_json: bool
    progress: bool = True
    """Show the progress bar (on a terminal)."""


def run_mine(kind: MiningKind, params: dict, run: MineRun) -> int:
    """Mine, select and write the pack; the exit code (130 after Ctrl-C).  The folders
    a run creates for OUTPUT are removed again when it fails or keeps nothing."""
    created = missing_folders(run.output)
    try:
        status = _run_mine(kind, params, run)
    except BaseException:
        remove_created_folders(created)
        raise
    if status != 0:
        remove_created_folders(created)  # an interrupt that kept a state keeps them
    return status


def _run_mine(kind: MiningKind, params: dict, run: MineRun) -> int:
    partial = mine_state.state_path(run.output)
    pool, next_round = MinePool(), 0
    if run.resume:  # first: without a state there is nothing to resume (and no folder)
        pool, next_round = mine_state.load_state(kind, partial, params)
    ensure_writable(run.output, force=run.force)
    jobs = resolve_jobs(run.jobs)
    first_round = next_round
    started = time.perf_counter()
    workers = None
    claimed = False
    bar = tqdm(
        desc="mining",
        unit=" rounds",
        initial=next_round,
        disable=None if run.progress else True,
        leave=False,
    )
    try:
        if not run.resume:  # before any work: a second run of the same output refuses
            claimed = mine_state.claim(kind, partial, params, run.force)
        kind.warm_up()
        _ACTIVE["kind"] = kind
        if jobs > 1:
            context = multiprocessing.get_context("fork")
            workers = context.Pool(jobs, initializer=init_worker, initargs=(os.getpid(),))
        while not kind.pool_full(pool, params) and next_round < run.max_rounds:
            batch = range(next_round, min(next_round + kind.batch_rounds, run.max_rounds))
            tasks = [kind.task(params, r, pool) for r in batch]
            results: Iterable[RoundYield] = (
                workers.imap(_examine_in_worker, tasks)
                if workers
                else map(kind.examine_round, tasks)
            )
            for found in results:
                kind.add(pool, found, params)
                bar.update(1)
                bar.set_postfix(kind.progress(pool, params) | {"kept": len(pool.candidates)})
            next_round = batch.stop
            atomic_write(partial, mine_state.state_bytes(kind, params, next_round, pool), True)
        bar.close()
        mined = time.perf_counter() - started
        chosen = kind.select(pool, params)
    except KeyboardInterrupt:
        interrupts.acknowledge()
        if workers:
            workers.terminate()
            workers.join()
            workers = None
        bar.close()
        note = _interrupted_note(partial, claimed, first_round)
        print(note, file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    except BaseException:
        if claimed and next_round == 0:
            partial.unlink(missing_ok=True)
        raise
    finally:
        if workers:
            workers.close()
            workers.join()
        bar.close()
    command = kind.command_text(params, run.output, run.max_rounds)
    pack = kind.build_pack(chosen, params, command)
    problems = schema_problems(pack)
    if problems:  # only a hand-edited resume state can get here; never write a bad pack
        raise InputError(f"pack: the mined pack fails its schema: {problems[0]}")
    atomic_write(run.output, pack_bytes(pack), force=run.force)
    partial.unlink(missing_ok=True)
    ns = kind.ns(params)
    summary = {
        "output": str(run.output),
        "puzzles": len(pack["puzzles"]),
        "by_n": {str(n): sum(1 for p in pack["puzzles"] if p["n"] == n) for n in ns},
        "rounds": pool.rounds,
        "pool": {str(n): pool.count(n) for n in ns},
        **kind.summary(pool, pack, params),
        "seconds_mining": round(mined, 2),
        "seconds": round(time.perf_counter() - started, 2),
        "command": command,
    }
    if run.as_json:
        sys.stdout.write(dump_json(summary).decode())
        return 0
    print(
        f"Wrote {run.output}: {summary['puzzles']} exercises "
        + ", ".join(f"{v} with N={k}" for k, v in summary["by_n"].items())
        + "."
    )
    for line in kind.report(summary, jobs):
        print(line)
    return 0
