"""Battleklinge's player factory: every strength with the solver's exact forced hits.

The plugin names :data:`PLAYERS`; the command line and library callers get their
players from it, so both play the same moves for the same seed and budget.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.players import MATCH_NAMES, Player
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.solver.battleklinge.hits import SolverHits


def make_player(strength: str, seed: int = 0, **budget) -> Player:
    """A player of ``strength`` whose forced-play checks ask the solver; ``budget``:
    ``weights``, ``movetime``, ``nodes`` as :class:`Player` takes them."""
    return Player(strength, seed, hits=SolverHits(), **budget)


def act(player: Player, pos):
    """The move of ``player`` at ``pos`` (its choice carries score, depth and line too)."""
    return player.choose(pos).move


PLAYERS = PlayerFactory(strengths=MATCH_NAMES, make=make_player, oracle=SolverHits, act=act)
