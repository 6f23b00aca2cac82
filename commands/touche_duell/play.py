"""``fechtbuch touche play --pack``: solve a "sicherer Treffer" exercise in the terminal.

``touche play`` itself (a game against the computer) lives with the engine, which
may not import packs; :func:`with_pack_option` (applied in ``cli.py``) gives it
``--pack`` and ``--puzzle`` through the generic :mod:`fechtbuch.commands.packplay`:
the adversary plays the longest defence and draws the worst cards for you, an action
that loses the sure path is refused at once, ``solution`` shows a key.
"""

from __future__ import annotations

import click
from fechtbuch.commands.packplay import with_pack_play
from fechtbuch.puzzles.touche_duell.exercises import RULES

PACK_HELP = """
    \b
    Exercises (sure wins whatever the opponent holds and the pile brings):
      fechtbuch touche play --pack touche-uebungen --puzzle 3
    The opponent defends as long as it can and you draw the worst cards; an
    action that gives up the sure win is refused; type solution for a key.
"""


def with_pack_option(engine_play: click.Command) -> click.Command:
    """The engine's ``play`` command with ``--pack FILE [--puzzle ID]`` added."""
    return with_pack_play(
        engine_play, rules=RULES, shipped="touche-uebungen", exercises_help=PACK_HELP
    )
