"""Battleklinge's entry in the game registry (see engines/plugin.py)."""

from fechtbuch.engines.plugin import GamePlugin

PLUGIN = GamePlugin(
    slug="battleklinge",
    title="Battleklinge",
    summary="5x5 board, a master and four students per school, five movement cards.",
    game="fechtbuch.engines.battleklinge.game:GAME",
    table="fechtbuch.engines.battleklinge.table:SETUP",
    pack_kind="fechtbuch.puzzles.battleklinge.packkind:KIND",
    policies=("battleklinge/mining-random-greedy-meister2026",),
    mining_kind="fechtbuch.puzzles.battleklinge.minekind:KIND",
    players="fechtbuch.solver.battleklinge.players:PLAYERS",
    web="fechtbuch.web.battleklinge.webgame:WEB",
    cli="fechtbuch.commands.battleklinge.group:group",
    svg="fechtbuch.engines.battleklinge.svg:draw",
    shortcuts=True,
)
