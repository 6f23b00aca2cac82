"""Each game's computer players as the running command line was wired with them: ``cli.py``
puts the registry's player factories into the click context, and every command takes its
players from :func:`command_players`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import click
from fechtbuch.engines.players import PlayerFactory


class PlayerSources(Protocol):
    """What ``cli.py`` puts into the click context: each game's factory by slug."""

    def players(self, slug: str) -> PlayerFactory: ...


def command_players(slug: str) -> PlayerFactory:
    """The player factory of game ``slug`` that the running command line was wired
    with (``cli.py`` puts the registry's factories into the click context)."""
    ctx = click.get_current_context(silent=True)
    sources = None if ctx is None else ctx.find_object(PlayerSourcesBox)
    if sources is None:
        raise RuntimeError(
            "no player factories in the click context: run the command through "
            "fechtbuch.cli.main, or build players with the game plugin's factory"
        )
    return sources.value.players(slug)


@dataclass(frozen=True)
class PlayerSourcesBox:
    """The click context object that carries :class:`PlayerSources` (a box of its own
    type, so ``find_object`` finds exactly it)."""

    value: PlayerSources
