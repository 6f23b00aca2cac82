"""Touché with pyramids' analysis after a game: the sure Touchés a player held.

For one decision the question is the exercises' (Touché in N,
:mod:`fechtbuch.engines.touche_pyramiden.touche_in_n`): can the player to act complete
the round's pattern within ``TURNS`` of its own actions, whatever the opponent holds,
draws and plays?  The answer lists every action that keeps such a Touché, so a
decision is a miss when the player held one and its action was not among them.

The public-state view exists for two players only (the opponent is one seat), so a
game of more seats is not asked.  The node limit makes the answer the same on any
machine; a question the prover gives up on counts as no sure Touché.
"""

from __future__ import annotations

from dataclasses import dataclass

from fechtbuch.engines.game import Outcome
from fechtbuch.engines.touche_pyramiden.notation import View
from fechtbuch.engines.touche_pyramiden.state import Action, Phase
from fechtbuch.engines.touche_pyramiden.touche_in_n import TouchInN, node_of_view, with_budget
from fechtbuch.solver.andor import ProofLimit
from fechtbuch.solver.andor_prover import ProofSearch

TURNS = 2
"""Own actions within which a sure Touché is looked for (a Touché in 1 or in 2)."""
MAX_NODES = 20_000
"""Nodes one question may take before it counts as no sure Touché."""


@dataclass(frozen=True)
class SureTouche:
    """A sure Touché the player to act held: in how many own actions at the fewest,
    and every action that keeps one within that many."""

    turns: int
    keys: tuple[Action, ...]


def askable(view: View) -> bool:
    """Whether the public-state prover can be asked about ``view``: two players, the
    round in play with its pattern, and the viewer to act."""
    return (
        view.config.players == 2
        and view.phase is Phase.PLAY
        and view.pattern is not None
        and view.seat == view.to_move
    )


def sure_touche(view: View, turns: int = TURNS, max_nodes: int = MAX_NODES) -> SureTouche | None:
    """The fewest own actions (up to ``turns``) to a sure Touché of the seat to act in
    ``view`` with every action that keeps it, or ``None`` (none, or not askable)."""
    if not askable(view):
        return None
    node, pattern = node_of_view(view)
    problem = TouchInN(pattern)
    search = ProofSearch(problem, max_nodes=max_nodes)
    try:
        for n in range(1, turns + 1):
            root = with_budget(node, n)
            if not search.wins(root, n):
                continue
            held = tuple(
                action
                for action, child in problem.children(root)
                if problem.outcome(child) is Outcome.WIN or (n > 1 and search.wins(child, n - 1))
            )
            return SureTouche(n, held)
    except ProofLimit:
        pass
    return None


__all__ = ["MAX_NODES", "TURNS", "SureTouche", "askable", "sure_touche"]
