"""Abzählen at a table of the Wartesaal: two count-downs to choose from."""

from __future__ import annotations

from fechtbuch.engines.seeding import sha256_text, u64
from fechtbuch.engines.tablesetup import TableSetup

from toygame.game import GAME, State

RANGES = {"klein": (5, 9), "gross": (10, 15)}
"""Where a variant's count starts (both within the game's start range)."""


class AbzaehlenTable(TableSetup):
    """Two seats; the start number drawn by SHA-256 of the table's seed."""

    variants = {"klein": "start at 5 to 9", "gross": "start at 10 to 15"}
    default = "klein"

    def seats(self, variant: str) -> int:
        return 2

    def deal(self, variant: str, seed: str) -> State:
        low, high = RANGES[self.check_variant(variant)]
        draw = u64(sha256_text(f"abzaehlen-table/{variant}/{seed}"))
        return State(low + draw % (high - low + 1), 0)


TABLE = AbzaehlenTable(GAME)
