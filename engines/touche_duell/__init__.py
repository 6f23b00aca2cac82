"""The Touché duel: rules, notation, records, players and the duel's commands.

``GAME`` is the game on the seam (imported on first use, so that the game
registry can read ``plugin.py`` without loading the rules).
"""

from __future__ import annotations


def __getattr__(name: str):
    if name == "GAME":
        from fechtbuch.engines.touche_duell.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
