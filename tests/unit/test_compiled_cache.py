"""A stale numba cache is impossible: editing any source gives a fresh cache folder.

The scenario: a copy of the package computes perft 4 (36348) and fills
its cache; then Ausfall's offsets change in cards.py (a module with no numba code,
compiled into fast.py's kernels as a global array).  The same command must give
30270, the count under the new card, and (in the slow run) the solver must drop its
hit in 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import fechtbuch
import pytest

ROOT = Path(fechtbuch.__file__).resolve().parent
START = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"
PROBE = f"""
import sys
sys.path.insert(0, sys.argv[1])
import fechtbuch
assert fechtbuch.__file__.startswith(sys.argv[1]), fechtbuch.__file__
from fechtbuch.engines.battleklinge.perft import perft
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.compiled import cache_dir
from fechtbuch.solver.battleklinge.api import solve
print(perft(Position.from_text({START!r}), 4))
if sys.argv[2] == "solve":
    hit = solve(Position.from_text("2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte"), max_n=1)
    print(hit.distance)
print(cache_dir())
"""


def _run(site: Path, cache_home: Path, probe: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "FECHTBUCH_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(cache_home)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(site), probe],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("probe", ["perft", pytest.param("solve", marks=pytest.mark.slow)])
def test_editing_a_module_without_numba_code_recompiles_the_kernels(tmp_path, probe):
    """``perft`` compiles the move generator's kernels only; ``solve`` adds the solver's,
    which take most of a minute to compile twice."""
    site = tmp_path / "site"
    package = site / "fechtbuch"
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    for folder in ("engines", "solver", "puzzles", "data"):
        shutil.copytree(ROOT / folder, package / folder, ignore=ignore)
    for name in ("__init__.py", "cli.py"):
        shutil.copy2(ROOT / name, package / name)
    cache_home = tmp_path / "cache"
    solved = probe == "solve"

    first = _run(site, cache_home, probe)
    assert first[:-1] == (["36348", "1"] if solved else ["36348"])
    assert any(Path(first[-1]).rglob("*.nbi")), "the kernels were not cached"

    cards = package / "engines" / "battleklinge" / "cards.py"
    text = cards.read_text()
    assert text.count("((0, 2), (0, -1))") == 1
    cards.write_text(text.replace("((0, 2), (0, -1))", "((0, 1), (0, -1))"))

    second = _run(site, cache_home, probe)
    assert second[:-1] == (["30270", "None"] if solved else ["30270"])
    assert second[-1] != first[-1]


def test_no_function_is_compiled_twice():
    """numba's disk cache keys a compiled function by its source, not by its flags: two
    ``njit`` of one Python function (say with and without ``parallel``) share one cache
    entry, and whichever compiles first serves both.  So every kernel module compiles
    each function once."""
    import importlib

    from numba.core.dispatcher import Dispatcher

    compiled = {}
    for path in sorted(ROOT.glob("*/**/*.py")):
        if path.parts[len(ROOT.parts)] not in ("engines", "solver", "puzzles"):
            continue
        if "njit" not in path.read_text(encoding="utf-8"):
            continue
        name = ".".join(("fechtbuch", *path.relative_to(ROOT).with_suffix("").parts))
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.__module__ == name:
                compiled.setdefault(value.py_func, []).append(f"{name}.{attribute}")
    assert len(compiled) > 20  # the search found the kernels
    twice = [names for names in compiled.values() if len(names) > 1]
    assert twice == []
