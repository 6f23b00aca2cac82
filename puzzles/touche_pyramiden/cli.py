"""The pyramid game's command-line group: the engine's commands with ``solve``,
``mine``, ``render`` and ``play --pack``, built anew on each call (no module-level
group is changed)."""

from __future__ import annotations

import click


def group() -> click.Group:
    """The ``fechtbuch touche-pyramiden`` group (alias ``pyramiden``)."""
    from fechtbuch.engines.touche_pyramiden.commands import pyramiden_group as base
    from fechtbuch.puzzles.touche_pyramiden.mine_command import mine_command
    from fechtbuch.puzzles.touche_pyramiden.play_command import with_pack_play
    from fechtbuch.puzzles.touche_pyramiden.render_command import render_command
    from fechtbuch.puzzles.touche_pyramiden.solve_command import solve_command

    commands = dict(base.commands)
    commands["play"] = with_pack_play(commands["play"])
    return click.Group(
        "touche-pyramiden",
        commands=[*commands.values(), solve_command, mine_command, render_command],
        help=base.help,
        context_settings=base.context_settings,
    )
