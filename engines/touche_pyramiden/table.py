"""Touché with pyramids at a table of the Wartesaal: the number of players and teams.

A variant is ``<players>`` (everyone on their own) or ``<players>x<teams>``, each
split the sheet allows.  A spectator sees every hand and pile by its size only.
"""

from __future__ import annotations

from fechtbuch.engines.seeding import sha256_text
from fechtbuch.engines.tablesetup import TableSetup
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.game import GAME
from fechtbuch.engines.touche_pyramiden.notation import format_view, view_of
from fechtbuch.engines.touche_pyramiden.state import TEAM_SPLITS, Config, State


def _name(players: int, teams: int) -> str:
    return str(players) if teams == players else f"{players}x{teams}"


class PyramidenSetup(TableSetup):
    variants = {
        _name(players, teams): f"{players} players"
        + ("" if teams == players else f" in {teams} teams")
        for players, splits in TEAM_SPLITS.items()
        for teams in splits
    }
    default = "2"

    @staticmethod
    def config(variant: str) -> Config:
        players, _, teams = variant.partition("x")
        return Config(int(players), int(teams or players))

    def seats(self, variant: str) -> int:
        return self.config(variant).players

    def deal(self, variant: str, seed: str) -> State:
        return rules.new_game(self.config(variant), sha256_text(f"table/{seed}").hex()[:32])

    def public_view(self, variant: str, state: State) -> str:
        # Seat 0's view with its own hand replaced by its size: the rest is public.
        tokens = format_view(view_of(state, 0)).split(" ")
        sizes = "/".join(f"#{len(hand)}" for hand in state.hands)
        return " ".join(
            "sicht=-" if t.startswith("sicht=") else f"hand={sizes}" if t.startswith("hand=") else t
            for t in tokens
        )


SETUP = PyramidenSetup(GAME)
