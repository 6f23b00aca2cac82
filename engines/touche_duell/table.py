"""The Touché duel at a table of the Wartesaal: a rules level and the game length.

The seam's state is one round; a table plays rounds until a fencer reaches the
target score, dealing each round as a game record does (``round_seed``, the
starter alternating from the lot).  A spectator sees both hands and the pile by
their sizes only.
"""

from __future__ import annotations

from fechtbuch.engines.tablesetup import TableSetup
from fechtbuch.engines.touche_duell.deal import lot, new_round, round_seed
from fechtbuch.engines.touche_duell.game import GAME
from fechtbuch.engines.touche_duell.notation import format_view
from fechtbuch.engines.touche_duell.record import game_over, round_starter
from fechtbuch.engines.touche_duell.state import RULESETS, Position, Ruleset, view_of


class DuelSetup(TableSetup):
    variants = {rules.name: f"{rules.level.value}, {rules.target} points" for rules in RULESETS}
    default = "standard"

    def seats(self, variant: str) -> int:
        return 2

    def deal(self, variant: str, seed: str) -> Position:
        return new_round(round_seed(seed, 1), lot(seed), Ruleset.from_name(variant))

    def next_unit(self, state: Position, seed: str, number: int) -> Position | None:
        if game_over(state):
            return None
        starter = round_starter(lot(seed), number)
        return new_round(round_seed(seed, number), starter, state.rules, state.score)

    def public_view(self, variant: str, state: Position) -> str:
        # A's view with A's own hand replaced by its size: the rest is public.
        tokens = format_view(view_of(state, 1)).split(" ")
        tokens[5] = f"?{sum(state.hands[0])}/?{sum(state.hands[1])}"
        return " ".join(tokens)


SETUP = DuelSetup(GAME)
