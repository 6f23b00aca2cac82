"""Battleklinge at a table of the Wartesaal: the card sets of the rulebook.

"Zufall" draws five of the sixteen cards; "Einsteiger", "Angriff" and
"Verteidigung" always take their five, dealt in a random order (two to each hand,
the fifth to the side slot, whose mark decides who starts).  The Kartenwahl is a
terminal-only phase for now (engines/battleklinge/terminal/draft.py) and not offered
at a table.
"""

from __future__ import annotations

from fechtbuch.engines.battleklinge.cards import CARD_SETS, NUM_CARDS
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.seeding import shuffled
from fechtbuch.engines.tablesetup import TableSetup


class BattleklingeSetup(TableSetup):
    variants = {
        "zufall": "five of the sixteen cards at random",
        "einsteiger": "Ausfall, Volte, Bindung, Stoß, Riposte",
        "angriff": "Ausfall, Moulinet, Traverse, Riposte, Stoß",
        "verteidigung": "Battuta, Volte, Terz, Quart, Bindung",
    }
    default = "zufall"

    def seats(self, variant: str) -> int:
        return 2

    def deal(self, variant: str, seed: str) -> Position:
        pool = list(range(NUM_CARDS)) if variant == "zufall" else list(CARD_SETS[variant])
        order = shuffled(pool, f"battleklinge-table/{variant}/{seed}")
        return Position.start(order[:2], order[2:4], order[4])


SETUP = BattleklingeSetup(GAME)
