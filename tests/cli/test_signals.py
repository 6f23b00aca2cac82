"""Ctrl-C and kill during long jobs: real processes, real signals.

Each job runs as its own process group (as a shell would start it), gets SIGINT at
a few points, including during start-up, and must leave within 2 s with status 130,
one truthful line, no traceback and no process of its group left behind.  mine is
then resumed to the same bytes as an uninterrupted run; SIGKILL of mine leaves no
worker running.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fechtbuch.engines.battleklinge.tablebase.manifest import read_manifest
from fechtbuch.engines.paths import data_path
from support.clirun import committed_rounds

START = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
SCRIPT = Path(sys.executable).with_name("fechtbuch")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "fechtbuch.cli"]
MINE = ["mine", "--count", "6", "--seed", "7", "-j", "2"]
# Ctrl-C must end the command long before its work would: every job here runs for
# minutes.  The bound is no speed figure: it leaves room for a machine under heavy load.
LIMIT = 5.0

# One worker runs the whole module (--dist loadgroup, pyproject.toml): its module
# fixture compiles every job's kernels, which on two workers would be paid twice.
pytestmark = [
    pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals only"),
    pytest.mark.xdist_group("signals"),
]


@pytest.fixture(scope="module", autouse=True)
def compiled_code_cached(tmp_path_factory):
    """The jobs below start from compiled code on disk, as every run but the first
    after installing does.  The first run compiles the kernels (tens of seconds on a
    busy machine, inside LLVM, where no signal handler runs: a Ctrl-C then waits for
    the compilation, engines/interrupts.py); on a fresh clone that would be what these
    tests time, so each job's code is compiled here once, untimed."""
    folder = tmp_path_factory.mktemp("warm")
    for args in (
        [*MINE[:-2], "-j", "1", "--count", "1", "-o", "warm.json", "--force"],
        ["perft", START, "2"],
        ["daily", "export", "--from", "2027-01-01", "--days", "1", "-o", "d.json", "--force"],
    ):
        done = subprocess.run([*COMMAND, *args], cwd=folder, capture_output=True, timeout=600)
        assert done.returncode == 0, done.stderr[-500:]


def launch(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [*COMMAND, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def group(pgid: int) -> list[int]:
    """Live processes (not zombies) of process group ``pgid``."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry))
    return members


def stop(proc: subprocess.Popen, sig: int = signal.SIGINT) -> tuple[str, float]:
    """Send ``sig`` to the job's group; (stderr, seconds until it exited)."""
    sent = time.monotonic()
    os.killpg(proc.pid, sig)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the job ignored the signal for 20 s")
    return err, time.monotonic() - sent


def assert_clean_interrupt(proc: subprocess.Popen, err: str, seconds: float) -> None:
    assert proc.returncode == 130, (proc.returncode, err[-1000:])
    assert seconds < LIMIT, seconds
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "interrupted" in lines[0], err[-1000:]
    deadline = time.monotonic() + LIMIT
    while group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group(proc.pid) == [], "stray processes"


def wait_for(condition, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def test_ctrl_c_during_start_up_and_work(tmp_path):
    """Four jobs at once, interrupted in start-up (0.3 s: importing numba; 1.5 s:
    loading compiled code), and in a later run in the middle of their work."""
    jobs = {
        "mine": [*MINE, "--count", "24", "-o", "p.json", "--force"],
        "perft": ["perft", START, "10"],
        # the duel's pack: it takes long enough (rounds replayed, trees re-proved) that
        # it is still working when the signal comes after the jobs before it stopped
        "pack verify": ["pack", "verify", str(data_path("packs", "touche-uebungen.json"))],
        "daily export": [
            "daily",
            "export",
            "--from",
            "2027-01-01",
            "--days",
            "3000",
            "-o",
            "d.json",
        ],
    }
    for delay in (0.3, 1.5, 3.0):
        runs = {}
        for name, args in jobs.items():
            folder = tmp_path / f"{name.replace(' ', '-')}-{delay}"
            folder.mkdir()
            runs[name] = (launch(args, folder), folder)
        time.sleep(delay)
        for name, (proc, folder) in runs.items():
            assert proc.poll() is None, f"{name} ended before the signal"
            err, seconds = stop(proc)
            assert_clean_interrupt(proc, err, seconds)
            if name == "mine":
                assert_truthful_mine_note(err, folder / "p.json.partial")
            assert not (folder / "d.json").exists()


def assert_truthful_mine_note(err: str, partial: Path) -> None:
    """'kept in X.partial' only when that file exists and holds finished rounds."""
    if "kept in" in err:
        state = json.loads(partial.read_bytes())
        assert state["next_round"] > 0 and f"from {state['next_round']} rounds" in err
    else:
        assert not partial.exists(), err


def test_mine_interrupted_then_resumed_gives_the_same_bytes(tmp_path):
    (tmp_path / "ref").mkdir()
    reference = launch([*MINE, "-o", "pack.json"], tmp_path / "ref")
    (tmp_path / "run").mkdir()
    partial = tmp_path / "run" / "pack.json.partial"
    proc = launch([*MINE, "-o", "pack.json"], tmp_path / "run")

    def one_batch_saved() -> bool:
        try:
            return json.loads(partial.read_bytes())["next_round"] >= 16
        except (OSError, ValueError):
            return False

    wait_for(lambda: one_batch_saved() or proc.poll() is not None)
    assert proc.poll() is None, "mining finished before the signal"
    err, seconds = stop(proc)
    assert_clean_interrupt(proc, err, seconds)
    assert "continue with --resume" in err
    assert_truthful_mine_note(err, partial)
    again = launch([*MINE, "-o", "pack.json"], tmp_path / "run")
    _, refused = again.communicate(timeout=60)
    assert again.returncode == 2 and "--resume" in refused and partial.exists()
    resumed = launch([*MINE, "-o", "pack.json", "--resume"], tmp_path / "run")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err[-2000:]
    assert reference.wait(timeout=300) == 0
    assert not partial.exists()
    made = (tmp_path / "run" / "pack.json").read_bytes()
    assert made == (tmp_path / "ref" / "pack.json").read_bytes()


def test_sigkill_of_mine_leaves_no_worker(tmp_path):
    proc = launch([*MINE, "--count", "24", "-o", "p.json"], tmp_path)
    wait_for(lambda: len(group(proc.pid)) >= 3 or proc.poll() is not None)
    assert proc.poll() is None
    workers = [pid for pid in group(proc.pid) if pid != proc.pid]
    assert workers
    _, seconds = stop(proc, signal.SIGKILL)
    wait_for(lambda: group(proc.pid) == [], timeout=LIMIT)


def test_ctrl_c_during_every_game_s_verification_and_a_large_build(tmp_path, monkeypatch):
    """pack verify of the studies (building K = 1 tables, then the tables and df-pn per
    study), of the duel's and the pyramids' packs (proofs, the duel's round replays), and
    tb build --students 2 (long compiled sweeps, cut into short calls).  After 3 s all
    four are at work; after 12 s the studies are in their df-pn and the build in its
    large splits, while the Touché packs only go on with what they did at 3 s."""
    monkeypatch.setenv("FECHTBUCH_TABLES", str(tmp_path / "no-tables"))
    jobs = {
        "pack verify": ["pack", "verify", str(data_path("packs", "meisterstudien.json"))],
        "touche verify": ["pack", "verify", "touche-uebungen"],
        "pyramiden verify": ["pack", "verify", "pyramiden-uebungen"],
        "tb build": ["tb", "build", "--cards", "einsteiger", "--students", "2", "-o", "t"],
    }
    for delay, names in ((3.0, list(jobs)), (12.0, ["pack verify", "tb build"])):
        runs = {}
        for name in names:
            args = jobs[name]
            folder = tmp_path / f"{name.replace(' ', '-')}-{delay}"
            folder.mkdir()
            runs[name] = launch(args, folder)
        time.sleep(delay)
        for name, proc in runs.items():
            assert proc.poll() is None, f"{name} ended before the signal"
            err, seconds = stop(proc)
            # the progress bar and the note on the new folder aside, the one line
            kept = [
                line
                for line in err.replace("\r", "\n").splitlines()
                if not line.startswith(("retrograde:", "verifying:", "fechtbuch: note:"))
            ]
            assert_clean_interrupt(proc, "\n".join(kept), seconds)
        # the manifest, rewritten after every finished split group, lists only those
        # (a build run again resumes after them): never the interrupted (2, 2)
        folder = tmp_path / f"tb-build-{delay}" / "t"
        if (folder / "manifest.json").exists():
            listed = [tuple(e["split"]) for e in read_manifest(folder)["splits"]]
            assert (2, 2) not in listed and not (folder / "split-2-2.bin").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["touche", "match", "meister", "stark", "--games", "400", "-j", "2"],
        ["pyramiden", "match", "stark", "mittel", "--players", "2", "--games", "400", "-j", "2"],
        ["match", "leicht", "mittel", "--games", "400", "-j", "2"],
    ],
    ids=["touche-duell", "touche-pyramiden", "battleklinge"],
)
def test_ctrl_c_during_a_parallel_match_stops_every_process(tmp_path, args):
    """A match on two workers: one line, exit 130, and no worker left behind."""
    proc = launch(args, tmp_path)
    time.sleep(3.0)
    assert proc.poll() is None, "the match ended before the signal"
    err, seconds = stop(proc)
    assert_clean_interrupt(proc, err, seconds)


def test_ctrl_c_during_db_mine_is_exit_130(tmp_path):
    """db mine catches Ctrl-C itself (it keeps the committed rounds): it must still
    acknowledge it, or the check-back timer of engines/interrupts.py kills the
    process with SIGALRM while it shuts down."""
    db = tmp_path / "p.sqlite"
    args = ["db", "mine", "--game", "battleklinge", "--rounds", "100000", "--seed", "3"]
    proc = launch([*args, "-j", "2", "--db", str(db)], tmp_path)
    wait_for(lambda: committed_rounds(db) >= 16 or proc.poll() is not None)
    assert proc.poll() is None, "mining finished before the signal"
    err, seconds = stop(proc)
    kept = [line for line in err.replace("\r", "\n").splitlines() if "db mine:" not in line]
    assert_clean_interrupt(proc, "\n".join(kept), seconds)
    assert committed_rounds(db) >= 16
