"""The games of the room: each registered game's :class:`TableSetup`, by slug.

A plugin that names a ``table`` part gives the set-up of its own (card sets, rules
levels, player counts); any other registered game is offered with the seam's deal
(:class:`~fechtbuch.engines.tablesetup.SeamSetup`).  Nothing here names a game.
"""

from __future__ import annotations

from functools import cache

from fechtbuch.engines.plugin import load
from fechtbuch.engines.registry import game, plugin, plugins
from fechtbuch.engines.tablesetup import SeamSetup, TableSetup


@cache
def _setup(slug: str, reference: str | None) -> TableSetup:
    if reference is None:
        return SeamSetup(game(slug))
    found = load(reference)
    if not isinstance(found, TableSetup):
        raise TypeError(f"{reference} is not a TableSetup: {found!r}")
    return found


def setup_of(name: str) -> TableSetup:
    """The set-up of the game called ``name`` (slug or alias); an ``InputError``
    naming the known games if there is none."""
    entry = plugin(name)
    return _setup(entry.slug, entry.table)


def catalogue() -> list[dict]:
    """Every game a challenge may name, with its variants, for the room's clients."""
    return [
        {
            "game": entry.slug,
            "title": entry.title,
            "variants": dict(setup_of(entry.slug).variants),
            "default": setup_of(entry.slug).default,
        }
        for entry in plugins()
    ]
