"""Every game's :class:`~fechtbuch.puzzles.packkind.PackKind`, by the pack's ``rules``.

A pack's ``rules`` is its game's slug (or an alias) in the game registry; the kind
is the plugin's ``pack_kind``, imported only when a pack of that game is read, so
reading a Battleklinge pack never compiles another game's kernels.
"""

from __future__ import annotations

from fechtbuch.engines.errors import InputError, quote
from fechtbuch.engines.plugin import load
from fechtbuch.engines.registry import UnknownGameError, plugin, plugins
from fechtbuch.puzzles.packkind import PackKind


class UnknownRulesError(InputError):
    """A pack whose ``rules`` names no game of fechtbuch."""


def kind_for(rules: str) -> PackKind:
    """The kind of a pack with this ``rules`` value."""
    try:
        entry = plugin(rules)
    except UnknownGameError:
        entry = None
    if entry is None or entry.pack_kind is None:
        games = ", ".join(p.slug for p in plugins() if p.pack_kind is not None)
        raise UnknownRulesError(
            f"rules: {quote(rules)} is not a game of fechtbuch (one of {games})"
        )
    kind = load(entry.pack_kind)
    if not isinstance(kind, PackKind):
        raise TypeError(f"{entry.pack_kind} is not a PackKind: {kind!r}")
    return kind
