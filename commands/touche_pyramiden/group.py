"""The pyramid game's command-line group: the engine's commands with ``solve``,
``mine``, ``render`` and ``play --pack``, built anew on each call (no module-level
group is changed); the commands of the higher layers are imported only when they
run, so ``pyramiden show`` loads no solver and no pack code."""

from __future__ import annotations

import click
from fechtbuch.commands.lazygroup import LazyEntry, extended

ENTRIES = (
    LazyEntry(
        "solve",
        "fechtbuch.commands.touche_pyramiden.solve:solve_command",
        "Prove a sure Touché for the seat to move of VIEW within --max own turns.",
    ),
    LazyEntry(
        "mine",
        "fechtbuch.commands.touche_pyramiden.mine:mine_command",
        'Mine "Touché in N" exercises into a pack.',
    ),
    LazyEntry(
        "render",
        "fechtbuch.commands.render:render_command",
        "Draw POSITION (a full state or a view) as SVG.",
        args=("touche-pyramiden",),
    ),
    LazyEntry(
        "play",
        "fechtbuch.commands.touche_pyramiden.group:play_command",
        "Play in the terminal (or an exercise of a pack with --pack).",
    ),
)


def group() -> click.Group:
    """The ``fechtbuch touche-pyramiden`` group (alias ``pyramiden``)."""
    from fechtbuch.commands.touche_pyramiden.engine import pyramiden_group as base

    return extended("touche-pyramiden", base, ENTRIES)


def play_command() -> click.Command:
    """The engine's ``play`` with ``--pack`` and ``--puzzle``."""
    from fechtbuch.commands.touche_pyramiden.engine import pyramiden_group as base
    from fechtbuch.commands.touche_pyramiden.play import with_pack_play

    return with_pack_play(base.commands["play"])
