"""The pyramid game's player factory: meister plays the sure Touchés the analysis proves.

The plugin names :data:`PLAYERS`; the command line, the browser and library callers
get their players from it, so all play the same actions for the same seed.  meister
asks :func:`~fechtbuch.solver.touche_pyramiden.analysis.sure_touche` before it
searches (a few milliseconds within :data:`ORACLE_NODES`); the other strengths are
the engine's as they are.
"""

from __future__ import annotations

from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_pyramiden.notation import View
from fechtbuch.engines.touche_pyramiden.players import STRENGTHS, ComputerPlayer, act, computer
from fechtbuch.engines.touche_pyramiden.state import Action
from fechtbuch.solver.touche_pyramiden.analysis import TURNS, sure_touche

ORACLE_NODES = 2_000
"""Nodes one question may take; one that reaches it counts as no sure Touché, so the
answer is the same on any machine."""


class ProvedTouche:
    """meister's oracle: the first action that keeps a sure Touché within two own
    actions against every hidden hand, draw and reply (docs/touche-pyramiden.md, "The
    analysis after a game"), or ``None``."""

    def __init__(self, max_nodes: int = ORACLE_NODES) -> None:
        self.max_nodes = max_nodes

    def sure_action(self, view: View) -> Action | None:
        sure = sure_touche(view, TURNS, self.max_nodes)
        return None if sure is None else sure.keys[0]


def make_player(
    strength: str,
    seed: str = "cpu",
    movetime: float | None = None,
    rollouts: int | None = None,
) -> ComputerPlayer:
    """A player of ``strength``; meister asks the prover for sure Touchés."""
    oracle = ProvedTouche() if strength == "meister" else None
    return computer(strength, seed, movetime=movetime, rollouts=rollouts, oracle=oracle)


PLAYERS = PlayerFactory(strengths=STRENGTHS, make=make_player, act=act)
