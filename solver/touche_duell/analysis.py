"""The Touché duel's analysis after a game: the sure hits a fencer held.

For one decision the question is the one meister asks (:mod:`.tactics`): is there a
win of the round within one own turn, whatever the hidden cards and the replies?
Unlike meister, the analysis wants every winning action (the played one may be one of
them), so it lists the keys of the proof rather than the first.  The node limit is
meister's: the same position gives the same answer on any machine, and a question the
prover gives up on counts as no sure hit.
"""

from __future__ import annotations

from fechtbuch.engines.touche_duell.public import SureWinProblem
from fechtbuch.engines.touche_duell.state import Action, View
from fechtbuch.solver.andor import ProofLimit, keys
from fechtbuch.solver.andor_prover import ProofSearch
from fechtbuch.solver.touche_duell.tactics import MAX_NODES


def sure_hits(view: View, turns: int = 1, max_nodes: int = MAX_NODES) -> list[Action]:
    """Every action of the fencer to act (``view.viewer``) that wins the round for
    sure within ``turns`` own turns; empty when there is none or the proof gives up."""
    if view.viewer != view.mover or view.phase.over:
        return []
    problem = SureWinProblem(view.viewer)
    search = ProofSearch(problem, max_nodes=max_nodes)
    try:
        if search.wins(view, turns):
            return list(keys(problem, search.wins, view, turns))
    except ProofLimit:
        pass
    return []


__all__ = ["sure_hits"]
