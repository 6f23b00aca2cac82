"""Touché with pyramids (ruleset ``pyramiden-1``): board, patterns, rules, notation.

``GAME`` is the game on the seam (imported on first use, so that the game registry
can read ``plugin.py`` without loading the rules); see docs/touche-pyramiden.md.
"""

from __future__ import annotations


def __getattr__(name: str):
    if name == "GAME":
        from fechtbuch.engines.touche_pyramiden.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
