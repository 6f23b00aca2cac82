"""Battleklinge at a table of the Wartesaal: the card sets of the rulebook.

"Zufall" draws five of the sixteen cards; "Einsteiger", "Angriff" and
"Verteidigung" always take their five, dealt in a random order (two to each hand,
the fifth to the side slot, whose mark decides who starts).  "Kartenwahl" lets the
schools draft their cards first (``kartenwahl.py``: each pick is an action, so the
clock runs during the draft as the rulebook asks).
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import CARD_SETS, NUM_CARDS
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.kartenwahl import KARTENWAHL, Draft
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.game import Game
from fechtbuch.engines.seeding import shuffled
from fechtbuch.engines.tablesetup import TableSetup


class BattleklingeSetup(TableSetup):
    variants = {
        "zufall": "five of the sixteen cards at random",
        "einsteiger": "Ausfall, Volte, Bindung, Stoß, Riposte",
        "angriff": "Ausfall, Moulinet, Traverse, Riposte, Stoß",
        "verteidigung": "Battuta, Volte, Terz, Quart, Bindung",
        "kartenwahl": "eight cards open, the schools pick two each",
    }
    default = "zufall"

    def seats(self, variant: str) -> int:
        return 2

    def game_for(self, variant: str) -> Game:
        return KARTENWAHL if variant == "kartenwahl" else self.game

    def deal(self, variant: str, seed: str) -> Position | Draft:
        if variant == "kartenwahl":
            return Draft.deal(seed)
        pool = list(range(NUM_CARDS)) if variant == "zufall" else list(CARD_SETS[variant])
        order = shuffled(pool, f"battleklinge-table/{variant}/{seed}")
        return Position.start(order[:2], order[2:4], order[4])

    def public_view(self, variant: str, state: Position | Draft) -> str:
        # everything is open but the side card still to come in the Kartenwahl
        return self.game_for(variant).information_state(state, 0)


SETUP = BattleklingeSetup(GAME)
