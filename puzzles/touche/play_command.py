"""``fechtbuch touche play --pack``: solve a "sicherer Treffer" exercise in the terminal.

``touche play`` itself (a game against the computer) lives with the engine, which
may not import packs; this module gives it the options ``--pack`` and ``--puzzle``
(:func:`with_pack_option`, applied in ``cli.py``).  With ``--pack`` the generic
terminal loop (:mod:`fechtbuch.puzzles.treeplay`) plays the puzzle on its stored
solution tree through the Touché duel's pack kind: the adversary plays the longest
defence and draws the worst cards for you, an action that loses the sure path is
refused at once, ``solution`` shows a key.
"""

from __future__ import annotations

import sys

import click
from fechtbuch.engines.errors import InputError, quote
from fechtbuch.puzzles.pack import load_pack
from fechtbuch.puzzles.pack_commands import PACK_FILE
from fechtbuch.puzzles.touche.exercises import RULES
from fechtbuch.puzzles.treeplay import play_pack_puzzle

PACK_HELP = """
    \b
    Exercises (sure wins whatever the opponent holds and the pile brings):
      fechtbuch touche play --pack touche-uebungen --puzzle 3
    The opponent defends as long as it can and you draw the worst cards; an
    action that gives up the sure win is refused; type solution for a key.
"""


def play_exercise(pack_file, reference: str) -> int:
    """Play one exercise of a Touché duel pack; 0 when solved, 1 otherwise."""
    pack = load_pack(pack_file)
    if pack["rules"] != RULES:
        raise InputError(
            f"--pack: {quote(str(pack_file))} holds {pack['rules']} exercises, not {RULES}"
        )
    result = play_pack_puzzle(pack, reference, sys.stdin, click.echo, colour=sys.stdout.isatty())
    return 0 if result.solved else 1


def with_pack_option(engine_play: click.Command) -> click.Command:
    """The engine's ``play`` command with ``--pack FILE [--puzzle ID]`` added: with
    ``--pack`` it plays an exercise, without it the game as before."""
    pack_option = click.Option(
        ["--pack", "pack_file"],
        type=PACK_FILE,
        default=None,
        help="Solve an exercise of this Touché duel pack (a file or touche-uebungen).",
    )
    puzzle_option = click.Option(
        ["--puzzle", "reference"],
        default=None,
        help="With --pack: the exercise's id or number (from 1; default 1).",
    )

    def callback(pack_file, reference, **rest):
        if pack_file is None:
            if reference is not None:
                raise InputError("--puzzle: only with --pack")
            return engine_play.callback(**rest)
        given = click.get_current_context()
        for name in rest:
            if given.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
                raise InputError(f"--{name.replace('_', '-')}: not used with --pack")
        return play_exercise(pack_file, reference or "1")

    return click.Command(
        engine_play.name,
        callback=callback,
        params=[*engine_play.params, pack_option, puzzle_option],
        help=(engine_play.help or "") + PACK_HELP,
        short_help=engine_play.short_help,
    )
