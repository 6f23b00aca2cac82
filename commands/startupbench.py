"""``fechtbuch bench startup``: how long a small command takes as a whole process.

A user waits for the whole process, imports included, so this times ``fechtbuch
--help`` and ``fechtbuch show`` as new processes (median of runs) and reads each
process's peak memory from the kernel (``wait4``).  A benchmark that prints its
figures, not a timed test: the target (under 0.25 s) is checked by reading it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import click
from fechtbuch.commands.options import emit_json, json_option, runs_option
from fechtbuch.engines.errors import InputError, quote

COMMANDS = (("--help",), ("show",))
"""What is timed: the top-level help and the smallest real command."""


def time_process(args: tuple[str, ...], package: Path | None = None) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KiB) of one ``fechtbuch ARGS`` process
    (``package``: a folder whose ``fechtbuch`` is another checkout to time)."""
    env = dict(os.environ)
    if package is not None:
        env["PYTHONPATH"] = str(package)
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "fechtbuch", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=package or None,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise click.ClickException(f"fechtbuch {' '.join(args)} exited {child.returncode}")
    return seconds, usage.ru_maxrss


@click.command("startup")
@runs_option(5, 50)
@click.option(
    "--package",
    default=None,
    help="Time another checkout: a folder holding it as 'fechtbuch' (a link will do).",
)
@json_option()
def bench_startup_command(runs: int, package: str | None, as_json: bool) -> None:
    """Seconds and peak memory of 'fechtbuch --help' and 'fechtbuch show' as whole
    processes (median of RUNS after one warm-up; the target is under 0.25 s).

    \b
    Examples:
      fechtbuch bench startup --runs 9
      mkdir old && ln -s /path/to/old-checkout old/fechtbuch
      fechtbuch bench startup --runs 9 --package old     # the same figures, before
    """
    folder = None if package is None else Path(package)
    if folder is not None and not (folder / "fechtbuch" / "cli.py").is_file():
        raise InputError(f"--package: {quote(package)} holds no checkout as 'fechtbuch'")
    result = {}
    for args in COMMANDS:
        time_process(args, folder)  # warm the file cache
        samples = [time_process(args, folder) for _ in range(runs)]
        name = " ".join(args)
        result[name] = {
            "median_seconds": round(statistics.median(s for s, _ in samples), 4),
            "median_peak_kib": int(statistics.median(m for _, m in samples)),
            "runs": runs,
        }
        if not as_json:
            figures = result[name]
            click.echo(
                f"fechtbuch {name:7s} median {figures['median_seconds']:.3f} s, "
                f"peak {figures['median_peak_kib'] / 1024:.0f} MiB ({runs} runs)"
            )
    if as_json:
        emit_json(result)
