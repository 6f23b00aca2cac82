"""The pyramid game's command-line group: the engine's commands with ``solve``,
``mine``, ``render`` and ``play --pack``, built anew on each call (no module-level
group is changed); the commands of the higher layers are imported only when they
run, so ``pyramiden show`` loads no solver and no pack code."""

from __future__ import annotations

import click
from fechtbuch.engines.lazygroup import LazyEntry, extended

ENTRIES = (
    LazyEntry(
        "solve",
        "fechtbuch.puzzles.touche_pyramiden.solve_command:solve_command",
        "Prove a sure Touché for the seat to move of VIEW within --max own turns.",
    ),
    LazyEntry(
        "mine",
        "fechtbuch.puzzles.touche_pyramiden.mine_command:mine_command",
        'Mine "Touché in N" exercises into a pack.',
    ),
    LazyEntry(
        "render",
        "fechtbuch.puzzles.render_command:render_command",
        "Draw POSITION (a full state or a view) as SVG.",
        args=("touche-pyramiden",),
    ),
    LazyEntry(
        "play",
        "fechtbuch.puzzles.touche_pyramiden.cli:play_command",
        "Play in the terminal (or an exercise of a pack with --pack).",
    ),
)


def group() -> click.Group:
    """The ``fechtbuch touche-pyramiden`` group (alias ``pyramiden``)."""
    from fechtbuch.engines.touche_pyramiden.commands import pyramiden_group as base

    return extended("touche-pyramiden", base, ENTRIES)


def play_command() -> click.Command:
    """The engine's ``play`` with ``--pack`` and ``--puzzle``."""
    from fechtbuch.engines.touche_pyramiden.commands import pyramiden_group as base
    from fechtbuch.puzzles.touche_pyramiden.play_command import with_pack_play

    return with_pack_play(base.commands["play"])
