"""The Touché duel's player factory: meister proves sure wins with the generic prover.

The plugin names :data:`PLAYERS`; the command line and library callers get their
players from it, so both play the same actions for the same seed.
"""

from __future__ import annotations

from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_duell.players import SAMPLES, STRENGTHS, Player
from fechtbuch.engines.touche_duell.state import view_of
from fechtbuch.solver.touche_duell.tactics import ProofTactics


def make_player(strength: str, seed: str | int = 0, samples: int = SAMPLES) -> Player:
    """A player of ``strength``; meister asks the prover for sure wins."""
    oracle = ProofTactics() if strength == "meister" else None
    return Player(strength, seed, samples, oracle=oracle)


def act(player: Player, position):
    """The action of ``player`` at a full ``position``: it sees only its own view."""
    return player.choose(view_of(position, position.mover))


PLAYERS = PlayerFactory(strengths=STRENGTHS, make=make_player, act=act)
