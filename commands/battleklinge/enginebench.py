"""``fechtbuch bench engine``: the engine's nodes and speed on sampled positions."""

from __future__ import annotations

import click
from fechtbuch.commands.options import int_range, seed_option
from fechtbuch.commands.players import command_players
from fechtbuch.engines.battleklinge.enginebench import run_engine_bench


@click.command("engine")
@click.option(
    "--positions",
    type=int_range(1, 1000),
    default=40,
    show_default=True,
    help="Middle-game positions to search.",
)
@seed_option(2026, "the positions")
def bench_engine_command(positions: int, seed: int) -> None:
    """Engine search nodes/s and seconds per move of each strength (docs/strength.md)."""
    run_engine_bench(positions, seed, click.echo, command_players("battleklinge"))
