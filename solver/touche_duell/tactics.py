"""Meister's exact tactics for the Touché duel: sure wins by proof, with a node limit.

engines/ may not import the solver, so the duel's meister asks a
:class:`~fechtbuch.engines.touche_duell.players.SureWinOracle`; this is the one the
game's player factory gives meister (``solver/touche_duell/players.py``).  It runs
the generic df-pn (:mod:`fechtbuch.solver.andor_prover`) over the public-state
problem of :mod:`fechtbuch.engines.touche_duell.public`, so a key it returns wins
the round against every hidden deal and every reply (docs/solver.md).  The node
limit keeps a move's cost bounded; a proof that hits the limit is "no answer", and
the limit counts nodes, not time, so a game plays the same on any machine.
"""

from __future__ import annotations

from fechtbuch.engines.touche_duell.public import SureWinProblem
from fechtbuch.engines.touche_duell.state import Action, View
from fechtbuch.solver.andor import ProofLimit, keys
from fechtbuch.solver.andor_prover import ProofSearch

MAX_NODES = 1_500
"""Public states one question may generate (at most about 0.1-0.3 s of pure Python)."""


class ProofTactics:
    """``winning_action(view, turns)``: the first key (in the rules' action order) of
    the shortest sure win within ``turns`` own turns, else ``None``."""

    def __init__(self, max_nodes: int = MAX_NODES) -> None:
        self.max_nodes = max_nodes
        self.questions = 0
        self.found = 0
        self.gave_up = 0

    def winning_action(self, view: View, turns: int) -> Action | None:
        if view.viewer != view.mover or view.phase.over:
            return None
        self.questions += 1
        problem = SureWinProblem(view.viewer)
        search = ProofSearch(problem, max_nodes=self.max_nodes)
        try:
            for n in range(1, turns + 1):
                if search.wins(view, n):
                    found = keys(problem, search.wins, view, n)
                    self.found += 1
                    return found[0]  # type: ignore[return-value]
        except ProofLimit:
            self.gave_up += 1
        return None


__all__ = ["MAX_NODES", "ProofTactics"]
