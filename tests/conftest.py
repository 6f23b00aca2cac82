"""Shared fixtures, and the isolation of every test from every other.

The suite runs on two pytest-xdist workers (``-n 2``), often beside another person's
run on the same machine.  Two tests must never meet on a global resource, so:

* each test process (xdist worker, or the one process of ``-n 0``) gets a private
  compiled-kernel cache and a private scratch folder with its fallback home and Ray
  folder at start-up (:func:`pytest_configure`);
* each test then gets its own ``HOME`` and ``XDG_*`` folders (:func:`private_home`), so
  streaks, saved games, the web store and tables that a command writes by default land
  in that test's folder, never in the user's and never in another test's;
* a test that starts Ray asks for :func:`ray_tmpdir`;
* Hypothesis's example database is one folder per worker;
* servers bind a port the OS picks (tests/support/webserver.py, tests/support/wartesaal_server.py), and
  PostgreSQL is a private cluster or a private database per worker
  (tests/support/wartesaal_postgres.py).
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from support.wartesaal_postgres import postgres_url  # noqa: F401  (the Wartesaal tests' PostgreSQL)

# The per-process folder of pytest_configure; a plain module constant holding its
# environment key, so that the folder itself lives only in os.environ.
PROCESS_FOLDER = "FECHTBUCH_TEST_PROCESS_DIR"
# engines/compiled.py's switch for the table kernels' inlining (named here: importing
# fechtbuch before pytest_configure would decorate the kernels too early).
QUICK_COMPILE = "FECHTBUCH_QUICK_COMPILE"
# Where the xdist controller put the compiled-kernel seed (:func:`_kernel_seed`).
KERNEL_SEED = "FECHTBUCH_TEST_KERNEL_SEED"


def pytest_configure(config: pytest.Config) -> None:
    """Give this test process its private folders before any test module is imported.

    ``RAY_TMPDIR`` (read by ray/_common/utils.py, get_default_system_temp_dir): Ray
    writes ``ray_current_cluster`` under ``$RAY_TMPDIR/ray`` (default ``/tmp/ray``)
    whatever the head node's ``temp_dir``, and a cluster's shutdown removes it; two
    workers' clusters in one ``/tmp/ray`` broke each other.  The Ray tests take their
    own folder (:func:`ray_tmpdir`); this one catches a Ray started by any other test.
    """
    # The table sweeps' helpers called, not inlined (engines/compiled.py,
    # table_inline): the same results from small tables, and the kernel seed's
    # compile falls from about 105 to 25 CPU-s.  Set before any kernel is decorated,
    # and inherited by the workers, the seed's processes and every command a test runs.
    os.environ.setdefault(QUICK_COMPILE, "1")
    if "fechtbuch.engines.compiled" in sys.modules:
        raise pytest.UsageError(
            "fechtbuch's kernels were imported before tests/conftest.py set their private"
            " cache folder; import fechtbuch inside fixtures, not at conftest's top"
        )
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None and config.getoption("dist", "no") != "no":
        # the xdist controller: it runs no test; its workers set up their own folders
        # and start from the kernel seed it compiles before they start
        os.environ[KERNEL_SEED] = str(_kernel_seed(config))
        return
    worker = worker or "main"
    # /tmp, not pytest's basetemp: Ray's socket paths under it must stay below ~107
    # characters, and pytest's per-worker basetemp is long already.
    folder = Path(tempfile.mkdtemp(prefix=f"fbt-{worker}-"))
    for name in ("home", "ray/ray"):  # see ray_tmpdir for ray/ray
        (folder / name).mkdir(parents=True)
    os.environ[PROCESS_FOLDER] = str(folder)
    os.environ["RAY_TMPDIR"] = str(folder / "ray")
    _private_kernel_cache(config, worker, folder)
    _point_home_at(os.environ, folder / "home")
    _private_hypothesis_database(config, worker)


def _kernel_seed(config: pytest.Config) -> Path:
    """The compiled-kernel seed of these sources (tests/support/kernel_seed.py),
    compiled now if this checkout has none yet; kept across runs beside the workers'
    caches, and the seeds of other fingerprints removed."""
    from fechtbuch.engines.compiled import source_fingerprint
    from support.kernel_seed import build_seed

    base = Path(config.rootpath) / ".pytest_cache" / "kernels-seed"
    seed = base / source_fingerprint()
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only checkout: no seed, each worker compiles its own
        return seed
    for old in base.iterdir():
        if old != seed:
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink()
    if not seed.is_dir():
        build_seed(seed)
    return seed


def _private_kernel_cache(config: pytest.Config, worker: str, scratch: Path) -> None:
    """This worker's compiled-kernel cache, kept across runs in the checkout's
    ``.pytest_cache/kernels-<worker>/`` (ignored by git).

    engines/compiled.py fixes numba's cache folder when it is imported, from
    ``$XDG_CACHE_HOME/fechtbuch/numba/<fingerprint of the sources>`` (or
    ``FECHTBUCH_CACHE_DIR``): so it is imported here, before collection imports the
    first kernel module, with ``XDG_CACHE_HOME`` pointing at this worker's folder, and
    the folder it chose is exported as ``FECHTBUCH_CACHE_DIR`` for the subprocesses
    that tests start (``python -m fechtbuch ...``), which share this worker's kernels.
    Without this both workers, every other run of the same sources, and the user's
    own commands would write one folder under ``~/.cache``.

    Per worker, not per test: a cold cache costs the compilation of every kernel a
    test process uses (figures in README.md, Tests), which per test would be paid by
    hundreds of tests.  Kept across runs, not in the scratch folder: a fresh clone
    pays the cold cost once per worker, and every later run (``.ci/run``'s ``-m slow``
    run right after the default one, a developer's second run) starts warm.  Keyed by
    the fingerprint, so an edited source never meets old code; the other fingerprints'
    folders of this worker are removed, so that edits do not pile up caches."""
    base = Path(config.rootpath) / ".pytest_cache" / f"kernels-{worker}"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only checkout: this run's scratch folder, cold every time
        base = scratch / "kernels"
    os.environ.pop("FECHTBUCH_CACHE_DIR", None)
    os.environ["XDG_CACHE_HOME"] = str(base)  # pytest_configure points it elsewhere next
    from fechtbuch.engines.compiled import cache_dir

    kernels = cache_dir()
    os.environ["FECHTBUCH_CACHE_DIR"] = str(kernels)
    for old in kernels.parent.iterdir() if kernels.parent.is_dir() else ():
        if old != kernels:
            shutil.rmtree(old, ignore_errors=True)
    seed = Path(os.environ.get(KERNEL_SEED, "/nonexistent"))
    if seed.is_dir() and seed.name == kernels.name and not kernels.exists():
        shutil.copytree(seed, kernels)  # a copy: this worker's cache stays its own


def _private_hypothesis_database(config: pytest.Config, worker: str) -> None:
    """Hypothesis keeps the examples that failed in ``.hypothesis/`` of the current
    folder and replays them first; one folder per worker, so that the two workers do
    not write one database.  It is kept across runs (as Hypothesis's own is)."""
    from hypothesis import settings
    from hypothesis.database import DirectoryBasedExampleDatabase

    folder = Path(config.rootpath) / ".hypothesis" / f"examples-{worker}"
    settings.register_profile("fechtbuch", database=DirectoryBasedExampleDatabase(folder))
    settings.load_profile("fechtbuch")


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = os.environ.pop(PROCESS_FOLDER, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def _point_home_at(env, home: Path) -> None:
    """``HOME`` and every XDG base folder under ``home`` (``env`` is os.environ or a
    MonkeyPatch)."""
    setenv = env.setenv if isinstance(env, pytest.MonkeyPatch) else env.__setitem__
    setenv("HOME", str(home))
    for name, sub in (
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_STATE_HOME", ".local/state"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
    ):
        setenv(name, str(home / sub))


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """This test's own ``HOME`` and XDG folders: what a command writes by default
    (streaks, saved games, ``fechtbuch serve``'s store, tables) stays in this test.
    A folder beside ``tmp_path``, not in it, so that tests listing their ``tmp_path``
    see only their own files.  The kernel cache is not affected: it is
    ``FECHTBUCH_CACHE_DIR``, this worker's (pytest_configure)."""
    home = tmp_path_factory.mktemp("home")
    _point_home_at(monkeypatch, home)
    return home


@pytest.fixture
def ray_tmpdir(monkeypatch: pytest.MonkeyPatch):
    """A Ray folder of this test's own, as ``RAY_TMPDIR``: the clusters that it and its
    subprocesses start write ``ray_current_cluster`` and their sessions there (see
    pytest_configure).  Short, directly under the system temp folder: Ray's socket
    paths under it must stay below ~107 characters."""
    folder = Path(tempfile.mkdtemp(prefix="fbray"))
    # Ray writes $RAY_TMPDIR/ray/ray_current_cluster but makes the folder only for a
    # head node started without temp_dir
    (folder / "ray").mkdir()
    monkeypatch.setenv("RAY_TMPDIR", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


KINDS = ("unit", "cli", "browser", "network")
"""The folders of tests/ by kind; each is also a marker (pyproject.toml)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its folder's kind, so that ``pytest -m cli`` (or unit,
    browser, network) selects by kind; a test that drives Chromium outside
    tests/browser/ carries ``@pytest.mark.browser`` itself."""
    tests = Path(__file__).resolve().parent
    for item in items:
        kind = Path(item.path).resolve().relative_to(tests).parts[0]
        if kind in KINDS:
            item.add_marker(kind)


# ---- seeded samples of positions for the differential tests ----------------------------


@pytest.fixture(scope="session")
def played_positions():
    """About 4,000 positions from random games over random card sets (seeded)."""
    from fechtbuch.engines.battleklinge.sampling import random_game

    rng = random.Random(20261130)
    positions = []
    while len(positions) < 4000:
        positions.extend(random_game(rng, max_plies=50))
    return positions


@pytest.fixture(scope="session")
def placed_positions():
    """2,000 positions with random piece placement, pass and decided ones included."""
    from fechtbuch.engines.battleklinge.sampling import random_placement

    rng = random.Random(7)
    return [random_placement(rng) for _ in range(2000)]


@pytest.fixture(scope="session")
def pass_positions():
    """Positions where the side to move must pass: its five pieces fill the enemy's
    back rank and its two cards move only forward or sideways (stoss, traverse,
    bindung).  Random play almost never reaches them, so they are built."""
    from fechtbuch.engines.battleklinge.cards import card_from_id
    from fechtbuch.engines.battleklinge.position import Position

    rng = random.Random(11)
    forward_only = [card_from_id(c) for c in ("stoss", "traverse", "bindung")]
    positions = []
    for mover in (0, 1):
        back_rank = [20, 21, 22, 23, 24] if mover == 0 else [0, 1, 2, 3, 4]
        for master_square in (back_rank[0], back_rank[1], back_rank[3], back_rank[4]):
            for drop in forward_only:
                hand = tuple(c for c in forward_only if c != drop)
                others = [c for c in range(16) if c not in hand]
                rest = rng.sample(others, 3)
                free = [s for s in range(25) if s not in back_rank]
                enemy = rng.sample(free, rng.randint(1, 5))
                students = [0, 0]
                masters = [0, 0]
                masters[mover] = 1 << master_square
                students[mover] = sum(1 << s for s in back_rank) & ~masters[mover]
                masters[1 - mover] = 1 << enemy[0]
                students[1 - mover] = sum(1 << s for s in enemy[1:])
                hands = [tuple(sorted(rest[:2])), tuple(sorted(rest[:2]))]
                hands[mover] = hand
                hands[1 - mover] = tuple(sorted(rest[:2]))
                pos = Position(
                    students=(students[0], students[1]),
                    masters=(masters[0], masters[1]),
                    turn=mover,
                    hands=(hands[0], hands[1]),
                    side=rest[2],
                )
                if pos.winner() is None:
                    positions.append(pos)
    return positions
