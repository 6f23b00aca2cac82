"""The Touché duel's entry in the game registry (see engines/plugin.py)."""

from fechtbuch.engines.plugin import GamePlugin

PLUGIN = GamePlugin(
    slug="touche-duell",
    title="Touché duel",
    summary="Two fencers on a 23-square track, number cards, hidden hands.",
    game="fechtbuch.engines.touche_duell.game:GAME",
    table="fechtbuch.engines.touche_duell.table:SETUP",
    aliases=("touche",),
    pack_kind="fechtbuch.puzzles.touche_duell.packkind:KIND",
    policies=("touche-duell/mining-2026",),
    mining_kind="fechtbuch.puzzles.touche_duell.minekind:KIND",
    players="fechtbuch.solver.touche_duell.players:PLAYERS",
    web="fechtbuch.web.touche_duell.webgame:WEB",
    cli="fechtbuch.commands.touche_duell.group:group",
)
