"""Every game fechtbuch knows: its plugins, by slug.

Each game registers itself in its own file, ``engines/<game>/plugin.py``, which
exports ``PLUGIN`` (a :class:`~fechtbuch.engines.plugin.GamePlugin`).  Adding a
game is one line in :data:`PLUGIN_MODULES`; a game outside the package (a test's
toy game, a third party's) is added by naming its plugin module in the
environment variable ``FECHTBUCH_PLUGINS`` (comma-separated).  Nothing here is
built before it is asked for, and listing the plugins imports no game's rules.

>>> [p.slug for p in plugins()][:3]
['battleklinge', 'touche-duell', 'touche-pyramiden']
>>> plugin("touche").slug
'touche-duell'
>>> game("battleklinge").info.title
'Battleklinge'
"""

from __future__ import annotations

import importlib
import os
from functools import cache

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import Game
from fechtbuch.engines.plugin import GamePlugin, load

PLUGIN_MODULES: tuple[str, ...] = (
    "fechtbuch.engines.battleklinge.plugin",
    "fechtbuch.engines.touche_duell.plugin",  # one line per game: a module exporting PLUGIN
    "fechtbuch.engines.touche_pyramiden.plugin",
)
"""The built-in games' plugin modules, in the order help texts list the games."""

PLUGINS_VARIABLE = "FECHTBUCH_PLUGINS"
"""Further plugin modules, comma-separated (read each time, never stored)."""


class UnknownGameError(InputError):
    """A name that is no game's slug or alias."""


def plugin_modules() -> tuple[str, ...]:
    """The built-in plugin modules, then those named in ``FECHTBUCH_PLUGINS``."""
    extra = os.environ.get(PLUGINS_VARIABLE, "")
    return PLUGIN_MODULES + tuple(m.strip() for m in extra.split(",") if m.strip())


@cache
def _plugins(modules: tuple[str, ...]) -> tuple[GamePlugin, ...]:
    found: list[GamePlugin] = []
    taken: dict[str, str] = {}
    for module_name in modules:
        entry = _load_plugin(module_name)
        for name in entry.names:
            if name in taken:
                raise InputError(
                    f"{PLUGINS_VARIABLE}: {name!r} names both {taken[name]!r} and {entry.slug!r}"
                )
            taken[name] = entry.slug
        found.append(entry)
    return tuple(found)


def _load_plugin(module_name: str) -> GamePlugin:
    """The ``PLUGIN`` of ``module_name``; a module named in FECHTBUCH_PLUGINS that
    cannot give one is a one-line error (a built-in one that cannot is a bug)."""
    builtin = module_name in PLUGIN_MODULES
    try:
        entry = getattr(importlib.import_module(module_name), "PLUGIN", None)
    except ImportError as err:
        if builtin:
            raise
        raise InputError(f"{PLUGINS_VARIABLE}: cannot import {module_name!r} ({err})") from None
    if not isinstance(entry, GamePlugin):
        if builtin:
            raise TypeError(f"{module_name}.PLUGIN is not a GamePlugin: {entry!r}")
        raise InputError(f"{PLUGINS_VARIABLE}: {module_name!r} has no PLUGIN (a GamePlugin)")
    return entry


def plugins() -> tuple[GamePlugin, ...]:
    """Every registered game's plugin, built-in games first."""
    return _plugins(plugin_modules())


def plugin(name: str) -> GamePlugin:
    """The plugin whose slug or alias is ``name``; an :class:`UnknownGameError` naming
    the known games if there is none."""
    for entry in plugins():
        if name in entry.names:
            return entry
    known = ", ".join(p.slug for p in plugins())
    raise UnknownGameError(f"game: unknown game {name[:200]!r}; known: {known}")


@cache
def _game(reference: str) -> Game:
    found = load(reference)
    if not isinstance(found, Game):
        raise TypeError(f"{reference} is not a Game: {found!r}")
    return found


def game(name: str) -> Game:
    """The :class:`Game` of the game called ``name`` (slug or alias)."""
    return _game(plugin(name).game)


def __getattr__(name: str):
    if name == "GAMES":  # every game by slug, built on first use
        return {p.slug: game(p.slug) for p in plugins()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
