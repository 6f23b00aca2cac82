"""Battleklinge's rating panel: the engine at a ladder of node budgets.

The weakest member is the engine's ``leicht``; the others are the live search
(``engines/battleklinge/search.py``) with a fixed node budget per move, no
randomness and no exact forced play (a member with forced play would find every hit
within 3 by proof, not by strength).  The members' ratings come from engine
matches between neighbouring steps of the ladder (:mod:`fechtbuch.puzzles.rating_ladder`,
the match harness of ``fechtbuch match``), chained from the anchor ``nodes-300``,
rated 1500: an exercise rated 1500 is solved by the engine at that budget with
probability one half.  The measured ladder is ``data/rating/battleklinge-ladder.json``.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.match import play_game
from fechtbuch.engines.battleklinge.players import Budget, Player
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.players import PlayerFactory
from fechtbuch.puzzles.rating_ladder import LadderSpec
from fechtbuch.puzzles.rating_panel import Chooser

LADDER = ("leicht", "nodes-30", "nodes-100", "nodes-300", "nodes-1000", "nodes-3000", "nodes-10000")
"""The panel, weakest first: the engine's ``leicht`` (every move scored by a 1-ply
search, then chosen by softmax at 1.2 students: the one member with chance), then
the full search at node budgets about a factor of three apart, so that neighbours
score neither 0 nor 1 against each other."""


def ladder_player(name: str, seed: int = 0, **_budget) -> Player:
    """The panel member ``name`` as an engine player (extra budget options of the
    match harness are ignored: the budget is the member): ``leicht`` as the game plays
    it, ``nodes-N`` the search with N nodes per move, no randomness and no forced-play
    proofs."""
    if not name.startswith("nodes-"):
        return Player(name, seed)
    nodes = int(name.removeprefix("nodes-"))
    return Player(Budget(name, 32, nodes, 0.0, False, False), seed)


LADDER_PLAYERS = PlayerFactory(LADDER, ladder_player)
"""The members as a player factory, for the match harness."""


def _match_game(a: str, b: str, seed: int, index: int) -> str:
    return play_game(a, b, seed, index, players=LADDER_PLAYERS).outcome


def _chooser(name: str, seed: int) -> Chooser:
    player = ladder_player(name, seed)

    def choose(state: Position) -> str:
        return player.choose(state).move.to_text()

    return choose


SPEC = LadderSpec(
    game="battleklinge",
    members=LADDER,
    anchor="nodes-300",
    anchor_text=(
        "1500 is the Battleklinge engine at 300 nodes per move (no forced-play proofs): "
        "it solves an exercise rated 1500 half the time"
    ),
    play_game=_match_game,
    chooser=_chooser,
    games=400,
    seed=27,
    description=(
        "leicht, then the engine at 30, 100, 300, 1,000, 3,000 and 10,000 nodes per "
        "move (no forced-play proofs)."
    ),
)
