"""The compiled solvers are game-independent and their per-game copies are cached."""

from __future__ import annotations

import subprocess
import sys

from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.solver import dfpn, minimax
from fechtbuch.solver.battleklinge.api import solve

POS = "2m2/5/2M2/5/5 g ausfall,volte bindung,stoss riposte"


def test_solver_modules_import_no_game():
    code = (
        "import sys; import fechtbuch.solver.dfpn, fechtbuch.solver.minimax, "
        "fechtbuch.solver.specialise, fechtbuch.solver.andor_prover, fechtbuch.solver.andor_verifier; "
        "print(sorted(m for m in sys.modules if m.startswith('fechtbuch.engines.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "battleklinge" not in out.stdout, out.stdout


def test_specialised_copies_are_named_per_game_and_load_from_the_cache():
    solve(Position.from_text(POS), max_n=2, verify=True)
    kernel = GAME.kernel()
    assert dfpn.compiled(kernel).search.py_func.__qualname__ == "search__battleklinge"
    assert minimax.compiled(kernel)._search.py_func.__qualname__ == "_search__battleklinge"
    code = (
        "from fechtbuch.solver import dfpn, minimax; from fechtbuch.solver.battleklinge.api import solve, KERNEL; "
        "from fechtbuch.engines.battleklinge.position import Position; "
        f"solve(Position.from_text({POS!r}), max_n=2, verify=True); "
        "print(sum(dfpn.compiled(KERNEL).search.stats.cache_misses.values()), "
        "sum(minimax.compiled(KERNEL)._search.stats.cache_misses.values()), "
        "sum(dfpn.compiled(KERNEL).search.stats.cache_hits.values()))"
    )
    # The first process writes the entries if this worker's cache lacks them: the
    # in-process copies above may have been loaded under another cache folder, and
    # numba rewrites a function's whole index, so a command an earlier test left
    # running can drop an entry.  The second process must load everything.
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0", "1"], out.stdout + out.stderr
