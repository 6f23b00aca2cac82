"""The frozen mining policy of the Touché duel (``engines/touche_duell/frozen2026``).

* Its exact tactics (plain recursion over the public-state problem) agree with the
  solver's verifier, and the key it plays is a key of the solver's sure win.
"""

from __future__ import annotations

import pytest
from fechtbuch.engines.touche_duell.frozen2026.policy import SureWins, sure_win_key
from fechtbuch.engines.touche_duell.notation import format_action, format_view
from fechtbuch.engines.touche_duell.public import SureWinProblem
from fechtbuch.solver.andor import keys
from fechtbuch.solver.andor_verifier import ProofCheck
from fechtbuch.solver.touche_crosscheck import random_views

VIEWS = random_views("frozen-tactics", 30, max_pile=4)


@pytest.mark.parametrize("turns", [1, 2])
def test_the_exact_tactics_agree_with_the_solver(turns):
    wins = 0
    for view in VIEWS:
        problem = SureWinProblem(view.viewer)
        check = ProofCheck(problem)
        truth = check.wins(view, turns)
        assert SureWins(view.viewer).wins(view, turns) == truth, format_view(view)
        key = sure_win_key(view, turns)
        assert (key is not None) == truth, format_view(view)
        if truth:
            wins += 1
            fastest = next(n for n in range(1, turns + 1) if check.wins(view, n))
            assert key in keys(problem, check.wins, view, fastest), (
                format_view(view),
                format_action(key),
            )
    assert wins >= 3
