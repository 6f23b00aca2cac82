"""One game, one plugin: everything a front end needs to know about a game.

A :class:`GamePlugin` names, by one slug, each part a game offers to the tools:
its :class:`~fechtbuch.engines.game.Game` (rules, notation, outcome), its exercise
pack kind and mining kind, its player factory, and its command-line group.  The
registry (:mod:`fechtbuch.engines.registry`) lists the plugins; the generic code
of every layer (the pack commands, the mining loop, the match harness, the
conformance test, the command line) iterates over it instead of naming games.

Each part is a *reference* ``"module:attribute"``, imported on first use by the
layer that owns the part (the pack kind by ``puzzles/packkinds.py``, the command
group by ``cli.py``): a plugin is a table of names, so listing the games imports
no game, and the engines layer never imports the higher layers whose parts it names.

>>> plugin = GamePlugin(slug="nim", title="Nim", summary="take 1-3", game="x:GAME",
...                     aliases=("nim-game",))
>>> plugin.names
('nim', 'nim-game')
>>> plugin.package
'nim'
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any

SLUG = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
"""A slug: lower-case words joined by ``-`` (the folder names use ``_`` instead)."""


@dataclass(frozen=True)
class GamePlugin:
    """One game's entry in the registry.

    ``slug`` is the one name of the game: its command-line group (``fechtbuch
    <slug> ...``), the ``rules`` field of its packs, and (with ``_`` for ``-``) its
    folder in each layer.  ``aliases`` are older spellings that keep working (shipped
    packs, documented commands).  The references are ``"module:attribute"``; ``None``
    where the game does not offer that part.
    """

    slug: str
    title: str
    summary: str
    """One line for ``fechtbuch --help``."""
    game: str
    """The :class:`~fechtbuch.engines.game.Game` (engines layer)."""
    aliases: tuple[str, ...] = ()
    problem: str | None = None
    """A callable ``(state) -> (AndOrProblem, root)``: the proof view of a position in
    the game's notation, for the generic ``solve`` (engines layer)."""
    pack_kind: str | None = None
    """The :class:`~fechtbuch.puzzles.packkind.PackKind` (puzzles layer)."""
    mining_kind: str | None = None
    """A callable giving the game's :class:`~fechtbuch.puzzles.minekit.MiningKind`."""
    players: str | None = None
    """The game's :class:`~fechtbuch.engines.players.PlayerFactory`: every strength,
    wired exactly as the command line plays it (the layer that can wire it)."""
    cli: str | None = None
    """A callable giving the game's ``click`` group (built anew on each call)."""
    svg: str | None = None
    """A callable ``(text, move=None, flip=False) -> SVG`` drawing a position in the
    game's notation, or ``None`` for text in another notation (``fechtbuch render``
    asks every game; a game that draws no moves or sides refuses ``move``/``flip``
    with an InputError)."""
    policies: tuple[str, ...] = ()
    """The frozen policies, named by role, that play this game's mining rounds; a pack
    records the one that mined it (``mined_by``) and ``pack verify`` checks it is one
    of these."""
    web: str | None = None
    """The game's :class:`~fechtbuch.web.webgame.WebGame` (web layer): how ``fechtbuch
    serve`` shows its states and actions in the browser; ``None``: not offered there."""
    table: str | None = None
    """The :class:`~fechtbuch.engines.tablesetup.TableSetup` for people playing each
    other at a table of the Wartesaal (variants, seats, the deal, a spectator's view);
    without it a table deals with the seam's ``initial_state``."""
    shortcuts: bool = False
    """Whether the group's commands also run without the game's name (``fechtbuch
    solve`` for ``fechtbuch battleklinge solve``): Battleklinge's documented commands
    predate the other games.  At most one game has them."""

    def __post_init__(self) -> None:
        for name in (self.slug, *self.aliases):
            if not SLUG.fullmatch(name):
                raise ValueError(f"plugin name {name!r} is not a slug (lower-case, '-')")

    @property
    def names(self) -> tuple[str, ...]:
        """The slug, then the aliases: every name the game answers to."""
        return (self.slug, *self.aliases)

    @property
    def package(self) -> str:
        """The game's folder name in each layer (``touche-duell`` -> ``touche_duell``)."""
        return self.slug.replace("-", "_")


def load(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names (imported now)."""
    module_name, _, attribute = reference.partition(":")
    if not attribute:
        raise ValueError(f"plugin reference {reference!r} is not 'module:attribute'")
    return getattr(importlib.import_module(module_name), attribute)
