"""Abzählen's entry in the game registry: add ``toygame.plugin`` to FECHTBUCH_PLUGINS."""

from fechtbuch.engines.plugin import GamePlugin

PLUGIN = GamePlugin(
    slug="abzaehlen",
    title="Abzählen",
    summary="Count down by one or two; whoever reaches zero wins (a toy game).",
    game="toygame.game:GAME",
    problem="toygame.game:proof_view",
    pack_kind="toygame.game:KIND",
    mining_kind="toygame.game:MINING",
    players="toygame.game:PLAYERS",
    web="toygame.web:WEB",  # its board script and texts: static/ of this folder
    table="toygame.table:TABLE",
)
