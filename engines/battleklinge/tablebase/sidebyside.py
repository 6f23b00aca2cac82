"""Measure fechtbuch's build beside an external bitbase generator, in one run.

The bitbase is LHolten/onitama-solver's ``table_base`` binary (win/loss only, one
thread): ``table_base N`` builds every table with up to N pieces on the board (both
masters and up to N/2 - 1 students a side) for its card set 0-4, which is terz,
stoss, quart, bindung, traverse (:data:`BITBASE_CARDS`: its won counts equal ours
split by split), and prints ``W total wins`` (positions won for the side to move,
Gold to move).  Both builds run as child processes of this one, one after the other;
:func:`run_measured` takes each child's own resource usage from ``os.wait4``, so the
CPU seconds count every thread of that child and the peak memory is that child's
alone (``RUSAGE_CHILDREN`` would give the larger of the two for the second).
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from fechtbuch.engines.errors import InputError, quote

BITBASE_CARD_IDS = "terz,stoss,quart,bindung,traverse"
"""The one card set the bitbase builds (its cards 0-4)."""

BITBASE_WINS = re.compile(r"^(\d+) total wins$", re.MULTILINE)


@dataclass(frozen=True)
class Measured:
    """One child process: wall seconds, CPU seconds of all its threads, peak RSS."""

    label: str
    wall_seconds: float
    cpu_seconds: float
    peak_rss_mb: float
    stdout: str

    @property
    def cores_busy(self) -> float:
        return self.cpu_seconds / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def to_json(self) -> dict:
        return {
            "wall_seconds": round(self.wall_seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "peak_rss_mb": round(self.peak_rss_mb),
            "cores_busy": round(self.cores_busy, 2),
        }


def median_of(runs: list[Measured]) -> Measured:
    """The median of each figure over several runs of one build (the output of the
    first): with an odd count each figure is one run's, with an even one a mean of two."""
    return Measured(
        label=runs[0].label,
        wall_seconds=statistics.median(r.wall_seconds for r in runs),
        cpu_seconds=statistics.median(r.cpu_seconds for r in runs),
        peak_rss_mb=statistics.median(r.peak_rss_mb for r in runs),
        stdout=runs[0].stdout,
    )


def ratio(ours: Measured, theirs: Measured) -> float:
    """Wall seconds of ``ours`` per wall second of ``theirs``."""
    return ours.wall_seconds / theirs.wall_seconds if theirs.wall_seconds > 0 else 0.0


def run_measured(label: str, command: list[str]) -> Measured:
    """Run ``command`` to its end and measure it; a failing child is an error."""
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors)
        # wait4 reaps the child itself (and gives its own usage), so read its output
        # first; its messages go to a file, which cannot fill up and block it
        stdout = child.stdout.read()  # type: ignore[union-attr]
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            last = (_text(errors.read()).strip().splitlines() or ["no message"])[-1]
            raise RuntimeError(f"{label} exited with {child.returncode}: {quote(last)}")
    return Measured(
        label=label,
        wall_seconds=wall,
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        peak_rss_mb=usage.ru_maxrss / 1024,
        stdout=_text(stdout),
    )


def _text(output: bytes) -> str:
    """A child's output as text: a program that prints bytes that are not UTF-8 is
    still read (its line 'N total wins' is ASCII), each bad byte one U+FFFD."""
    return output.decode("utf-8", errors="replace")


def bitbase_command(binary: Path, max_students: int) -> list[str]:
    """The bitbase's command line for tables with up to ``max_students`` a side."""
    # os.path.isfile answers False for every path the system refuses (too long, a loop)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        kind = "not an executable file"
        if os.path.isdir(binary):
            kind = "a folder, not an executable file"
        elif os.path.exists(binary):
            kind = "not an executable regular file (a FIFO, device or socket?)"
        raise InputError(f"--against: {quote(binary)} is {kind}")
    return [str(binary), str(2 * max_students + 2)]


def bitbase_wins(output: str) -> int:
    """The total of won positions that the bitbase printed."""
    found = BITBASE_WINS.search(output)
    if found is None:
        raise RuntimeError("the bitbase printed no line 'N total wins'")
    return int(found.group(1))


def fechtbuch_build_command(card_ids: str, max_students: int, out_dir: Path) -> list[str]:
    """``fechtbuch tb build`` in a child process of this Python, printing JSON."""
    return [
        sys.executable,
        "-m",
        "fechtbuch",
        "tb",
        "build",
        "--cards",
        card_ids,
        "--students",
        str(max_students),
        "-o",
        str(out_dir),
        "--json",
    ]
