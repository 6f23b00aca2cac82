"""The Touché duel's command-line group: the engine's commands with the solver's
``solve``, the miner's ``mine`` and ``play --pack``, built anew on each call (no
module-level group is changed)."""

from __future__ import annotations

import click


def group() -> click.Group:
    """The ``fechtbuch touche-duell`` group (alias ``touche``)."""
    from fechtbuch.engines.touche_duell.commands import touche_group as base
    from fechtbuch.puzzles.touche_duell.mine_command import mine_command
    from fechtbuch.puzzles.touche_duell.play_command import with_pack_option
    from fechtbuch.solver.touche_duell.commands import touche_solve_command

    commands = dict(base.commands)
    commands["play"] = with_pack_option(commands["play"])
    return click.Group(
        "touche-duell",
        commands=[*commands.values(), touche_solve_command, mine_command],
        help=base.help,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
