"""``fechtbuch pyramiden play --pack FILE [--puzzle ID]``: the game's play command, extended
by the exercises of a pack, played through the generic tree player (puzzles/treeplay.py).

The engine's ``play`` (engines/touche_pyramiden/commands.py) lives below the puzzle
layer and cannot read packs, so this module wraps that click command: the same
options plus ``--pack`` and ``--puzzle``; without ``--pack`` the engine's game runs
unchanged.
"""

from __future__ import annotations

import sys

import click
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.pack_commands import PACK_FILE
from fechtbuch.puzzles.pyramiden.packkind import RULES
from fechtbuch.puzzles.treeplay import play_pack_puzzle

PACK_OPTIONS = [
    click.Option(
        ["--pack", "pack_file"],
        type=PACK_FILE,
        default=None,
        help="Play an exercise of this pack instead of a game: a file or a shipped pack's "
        "name (pyramiden-uebungen).",
    ),
    click.Option(
        ["--puzzle", "puzzle_ref"],
        default=None,
        help="With --pack: the exercise, by id or number (default: the first).",
    ),
]


def with_pack_play(engine_play: click.Command) -> click.Command:
    """``engine_play`` with ``--pack`` and ``--puzzle`` (see the module docstring)."""

    def callback(pack_file, puzzle_ref, **options):
        if pack_file is None:
            if puzzle_ref is not None:
                raise InputError("puzzle: --puzzle needs --pack")
            return engine_play.callback(**options)
        pack = load_pack(pack_file)
        if pack["rules"] != RULES:
            raise InputError(
                f"pack: a {pack['rules']!r} pack; play it with that game's 'play --pack'"
            )
        result = play_pack_puzzle(
            pack,
            puzzle_ref or "1",
            sys.stdin,
            click.echo,
            colour=not options["plain"],
        )
        return 0 if result.solved else 1

    help_text = (engine_play.help or "") + (
        "\n\n\b\nExercises (Touché in N, the computer defends from the solution tree):\n"
        "  fechtbuch pyramiden play --pack pyramiden-uebungen --puzzle 3\n"
    )
    return click.Command(
        engine_play.name,
        params=[*engine_play.params, *PACK_OPTIONS],
        callback=callback,
        help=help_text,
        short_help=engine_play.short_help,
    )
