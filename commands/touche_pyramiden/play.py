"""``fechtbuch pyramiden play --pack FILE [--puzzle ID]``: the game's play command,
extended by the exercises of a pack through the generic :mod:`fechtbuch.commands.packplay`.

The engine's ``play`` (commands/touche_pyramiden/engine.py) lives below the puzzle
layer and cannot read packs; without ``--pack`` its game runs unchanged.
"""

from __future__ import annotations

import click
from fechtbuch.commands.packplay import with_pack_play as _with_pack_play
from fechtbuch.puzzles.touche_pyramiden.packkind import RULES

PACK_HELP = (
    "\n\n\b\nExercises (Touché in N, the computer defends from the solution tree):\n"
    "  fechtbuch pyramiden play --pack pyramiden-uebungen --puzzle 3\n"
)


def with_pack_play(engine_play: click.Command) -> click.Command:
    """``engine_play`` with ``--pack`` and ``--puzzle`` (see the module docstring)."""
    return _with_pack_play(
        engine_play, rules=RULES, shipped="pyramiden-uebungen", exercises_help=PACK_HELP
    )
