"""Every game fechtbuch knows, by its command-line name.

Each game package exports ``GAME``, its :class:`~fechtbuch.engines.game.Game`
instance.  Adding a game is one line in :data:`GAME_MODULES`.  :data:`GAMES` is
built on first use (PEP 562 module ``__getattr__``), so importing the registry
does not import every game's rules and compiled kernels.

>>> from fechtbuch.engines.registry import GAMES
>>> sorted(GAMES)[0], GAMES["battleklinge"].info.title
('battleklinge', 'Battleklinge')
"""

from __future__ import annotations

import importlib
from functools import cache

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import Game

GAME_MODULES: tuple[str, ...] = (
    "fechtbuch.engines.battleklinge.game",
    "fechtbuch.engines.touche_duell",  # one line per game: a module that exports GAME
    "fechtbuch.engines.touche_pyramiden",
)
"""The modules that export ``GAME``, in the order help texts list the games."""


@cache
def _games() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for module_name in GAME_MODULES:
        game = importlib.import_module(module_name).GAME
        if not isinstance(game, Game):
            raise TypeError(f"{module_name}.GAME is not a Game: {game!r}")
        if game.info.name in games:
            raise ValueError(f"two games are called {game.info.name!r}")
        games[game.info.name] = game
    return games


def game(name: str) -> Game:
    """The game called ``name``; an :class:`InputError` naming the known ones if none is."""
    games = _games()
    if name not in games:
        raise InputError(f"game: unknown game {name[:200]!r}; known: {', '.join(games)}")
    return games[name]


def __getattr__(name: str):
    if name == "GAMES":
        return _games()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
