"""A game's ``play`` command with ``--pack`` and ``--puzzle``: the exercises of a pack,
played in the terminal through the generic loop (:mod:`fechtbuch.puzzles.treeplay`).

A game's own ``play`` (``engines/<game>/commands.py``) lives below the puzzle layer
and cannot read packs, so :func:`with_pack_play` wraps that click command: the same
options (made by :mod:`fechtbuch.commands.playoptions`) plus ``--pack`` and
``--puzzle``; without ``--pack`` the game runs unchanged, with it every option of the
game but ``--plain`` is refused (an exercise has no deal, seat or strength).
"""

from __future__ import annotations

import sys

import click
from fechtbuch.commands.pack import PACK_FILE
from fechtbuch.commands.playoptions import given, option_flag, pack_option, puzzle_option
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.treeplay import play_pack_puzzle

KEPT_WITH_PACK = frozenset({"plain"})
"""The game's options that still mean something for an exercise."""


def play_exercise(pack_file, reference: str, rules: str, plain: bool) -> int:
    """Play one exercise of a pack of the game ``rules``; 0 when solved or stopped by the
    player (``quit``, as in Battleklinge's ``play --pack``), 1 otherwise."""
    pack = load_pack(pack_file, reference=reference)
    if pack["rules"] != rules:
        raise InputError(
            f"--pack: {quote(str(pack_file))} holds {pack['rules']!r} exercises; "
            "play it with that game's 'play --pack'"
        )
    colour = not plain and sys.stdout.isatty()
    result = play_pack_puzzle(pack, reference, sys.stdin, click.echo, colour=colour)
    if result.quit:
        click.echo("Stopped.")
        return 0
    return 0 if result.solved else 1


def with_pack_play(
    engine_play: click.Command, *, rules: str, shipped: str, exercises_help: str
) -> click.Command:
    """``engine_play`` with ``--pack PACK [--puzzle ID]`` (see the module docstring);
    ``exercises_help`` is appended to the command's help (an example and what it does)."""

    def callback(pack_file, puzzle_ref, **options):
        ctx = click.get_current_context()
        if pack_file is None:
            if given(ctx, "puzzle_ref"):
                raise InputError("--puzzle: only with --pack")
            return engine_play.callback(**options)
        for name in options:
            if name not in KEPT_WITH_PACK and given(ctx, name):
                raise InputError(f"{option_flag(ctx, name)}: not used with --pack")
        return play_exercise(pack_file, puzzle_ref, rules, bool(options.get("plain")))

    return click.Command(
        engine_play.name,
        callback=callback,
        params=[*engine_play.params, pack_option(PACK_FILE, shipped), puzzle_option()],
        help=(engine_play.help or "") + exercises_help,
        short_help=engine_play.short_help,
        context_settings=engine_play.context_settings,
    )
