"""Touché with pyramids (ruleset ``pyramiden-1``): board, patterns, rules, notation.

``GAME`` is the game on the seam; see docs/touche-pyramiden.md.
"""

from fechtbuch.engines.touche_pyramiden.seam import PyramidenGame

GAME = PyramidenGame()

__all__ = ["GAME", "PyramidenGame"]
