"""The Touché duel: rules, notation, records, players and the ``touche`` commands.

``GAME`` is the game on the seam; the list ``GAMES`` is what this package offers.
"""

from fechtbuch.engines.touche_duell.game import ToucheDuellGame

GAME = ToucheDuellGame()
GAMES = [GAME]

__all__ = ["GAME", "GAMES", "ToucheDuellGame"]
