"""Touché with pyramids' entry in the game registry (see engines/plugin.py)."""

from fechtbuch.engines.plugin import GamePlugin

PLUGIN = GamePlugin(
    slug="touche-pyramiden",
    title="Touché pyramids",
    summary="A board of card fields for 2-6 players or teams, patterns to complete.",
    game="fechtbuch.engines.touche_pyramiden.game:GAME",
    table="fechtbuch.engines.touche_pyramiden.table:SETUP",
    aliases=("pyramiden",),
    pack_kind="fechtbuch.puzzles.touche_pyramiden.packkind:KIND",
    policies=("touche-pyramiden/random-and-threats",),
    mining_kind="fechtbuch.puzzles.touche_pyramiden.minekind:KIND",
    players="fechtbuch.solver.touche_pyramiden.players:PLAYERS",
    web="fechtbuch.web.touche_pyramiden.webgame:WEB",
    cli="fechtbuch.commands.touche_pyramiden.group:group",
    svg="fechtbuch.puzzles.touche_pyramiden.svg:svg_if_pyramid",
)
