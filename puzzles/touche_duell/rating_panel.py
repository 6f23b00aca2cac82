"""The Touché duel's rating panel: meister at a ladder of sample budgets.

Members, weakest first: the computer's ``meister`` (docs/touche-duell.md) with 1,
2, 4, 8 and 24 determinised samples per candidate and round of its successive
halving (24 is the strength the game plays), without the solver's proofs: a member
that proves sure wins would solve every exercise by proof, not by strength.  Each
decides from the solver's view (its own hand, the discard pile, the squares),
exactly what the exercise shows.

Why meister at budgets and not the four strengths: measured on the shipped pack,
the strengths' ladder in games (leicht 443, mittel 1170, stark 1500, meister 1730)
does not order their solving of exercises (leicht, who attacks with every card it
can, solved 15 of 36 sure hits, stark 12), and the ratings fitted from it
predicted held-out attempts worse than a constant rate (log-loss 0.946 against
0.745).  One player at more or less effort, as Battleklinge's panel is the engine
at node budgets, solves more the more it is given (1 sample: 33 of 72 attempts, 2:
41, 4: 52, 8: 54, 24: 55; two seeds).  The ratings come from matches at the
standard level between neighbours (:mod:`fechtbuch.puzzles.rating_ladder`), chained
from ``meister-4``, rated 1500.  The measured ladder is
``data/rating/touche-duell-ladder.json``.
"""

from __future__ import annotations

from fechtbuch.engines.players import PlayerFactory
from fechtbuch.engines.touche_duell.match import play_game
from fechtbuch.engines.touche_duell.notation import Ruleset, View, format_action
from fechtbuch.engines.touche_duell.players import Player
from fechtbuch.puzzles.rating_ladder import LadderSpec
from fechtbuch.puzzles.rating_panel import Chooser

LADDER = ("meister-1", "meister-2", "meister-4", "meister-8", "meister-24")
"""meister with this many samples per candidate and halving round, weakest first."""


def ladder_player(name: str, seed: str | int = 0, _samples: int = 0) -> Player:
    """The member ``name`` (``meister-N``): meister with N samples, no proofs (the
    match harness's own sample count is ignored: the budget is the member)."""
    return Player("meister", seed, int(name.removeprefix("meister-")))


LADDER_PLAYERS = PlayerFactory(LADDER, ladder_player)
"""The members as a player factory, for the match harness."""


def _match_game(a: str, b: str, seed: int, index: int) -> str:
    return play_game(a, b, f"rating-ladder/{seed}", index, Ruleset(), players=LADDER_PLAYERS)[
        0
    ].outcome


def _chooser(name: str, seed: int) -> Chooser:
    player = ladder_player(name, seed)

    def choose(view: View) -> str:
        return format_action(player.choose(view))

    return choose


SPEC = LadderSpec(
    game="touche-duell",
    members=LADDER,
    anchor="meister-4",
    anchor_text=(
        "1500 is the Touché duel computer meister with 4 samples per candidate (no "
        "proofs): it solves an exercise rated 1500 half the time"
    ),
    play_game=_match_game,
    chooser=_chooser,
    games=200,
    seed=27,
    description=(
        "the computer's meister with 1, 2, 4, 8 and 24 determinised samples per "
        "candidate (24 is the game's meister; no proofs), playing games at the "
        "standard level."
    ),
)
