"""The compiled-kernel seed of a test run: every kernel compiled once, before the workers
start, and copied into each worker's private cache.

A fresh clone has no compiled kernels, and each test process compiles what its tests
call: the table sweeps alone cost about 25 s of one core (with the quick compile
that tests/conftest.py sets; 105 s with their helpers inlined), and without a seed
both workers pay it (and every other kernel) side by side.  The xdist controller instead
runs the workloads below in two processes at once (the table kernels in one, the
search kernels in the other: numba compiles one function at a time per process), into
``.pytest_cache/kernels-seed/<fingerprint>``; each worker then starts from a copy of
it (tests/conftest.py, :func:`_private_kernel_cache`), so the workers still never share
a cache folder.  Kernels a workload here misses are compiled by the worker that needs
them, as before: the seed saves time and decides nothing.

Run as ``python -m support.kernel_seed tables|search`` with ``FECHTBUCH_CACHE_DIR``
set; the controller does that (:func:`build_seed`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

POSITION = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
"""The start position of the README's example: the search workloads start from it."""

WORKLOADS = ("tables", "search")


def _fechtbuch(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fechtbuch", *args], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"fechtbuch {' '.join(args)}: exit {done.returncode}\n{done.stderr}")


def run_workload(name: str, scratch: Path) -> None:
    """Call every kernel of one workload once (the commands the tests run)."""
    if name == "tables":  # the sweeps, the un-move step, the counts: K = 0 and K = 1
        _fechtbuch(
            "tb", "build", "--cards", "einsteiger", "--students", "1", "-o", str(scratch / "tb")
        )
    elif name == "search":  # move generation, df-pn, the verifier, the engine's search
        _fechtbuch("perft", POSITION, "3")
        _fechtbuch("solve", POSITION, "--max", "2")
        _fechtbuch("hint", POSITION, "--movetime", "0.5")
        _fechtbuch(
            "mine", "--n", "2", "--count", "1", "--rounds", "2", "--seed", "1", "-j", "1",
            "-o", str(scratch / "pack.json"),
        )  # fmt: skip
    else:
        raise ValueError(f"unknown workload {name!r}; one of {', '.join(WORKLOADS)}")


def build_seed(seed: Path) -> None:
    """Fill ``seed`` (a folder that does not exist yet) by running every workload, in
    parallel processes.  A failed workload leaves no seed (the workers then compile as
    without one) and its error output in ``seed``'s parent, ``failed.txt``."""
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=seed.parent))
    scratch = Path(tempfile.mkdtemp(prefix="fbt-seed-"))
    env = dict(os.environ, FECHTBUCH_CACHE_DIR=str(building), HOME=str(scratch / "home"))
    try:
        processes = [
            subprocess.Popen(
                [sys.executable, "-m", "support.kernel_seed", name, str(scratch / name)],
                env=env,
                cwd=Path(__file__).resolve().parent.parent,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name in WORKLOADS
        ]
        errors = [p.communicate()[1] for p in processes]
        if all(p.returncode == 0 for p in processes):
            try:
                building.rename(seed)
            except OSError:  # another run of this checkout finished its seed first
                pass
        else:
            (seed.parent / "failed.txt").write_text("\n".join(errors))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(building, ignore_errors=True)


if __name__ == "__main__":
    workload, folder = sys.argv[1], Path(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    run_workload(workload, folder)
