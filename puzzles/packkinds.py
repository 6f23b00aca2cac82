"""Every game's :class:`~fechtbuch.puzzles.packkind.PackKind`, by the pack's ``rules``.

Kinds are imported only when a pack of that game is read, so reading a
Battleklinge pack never compiles another game's kernels.
"""

from __future__ import annotations

import importlib

from fechtbuch.engines.errors import InputError, quote
from fechtbuch.puzzles.packkind import PackKind

KIND_MODULES: dict[str, str] = {
    "battleklinge": "fechtbuch.puzzles.battleklinge.packkind",
    "touche-duell": "fechtbuch.puzzles.touche.packkind",
    "touche-pyramiden": "fechtbuch.puzzles.pyramiden.packkind",
}
"""``rules`` value -> the module whose ``KIND`` is that game's :class:`PackKind`
(add each game here)."""


class UnknownRulesError(InputError):
    """A pack whose ``rules`` names no game of fechtbuch."""


def kind_for(rules: str) -> PackKind:
    """The kind of a pack with this ``rules`` value."""
    module = KIND_MODULES.get(rules)
    if module is None:
        raise UnknownRulesError(
            f"rules: {quote(rules)} is not a game of fechtbuch (one of {', '.join(KIND_MODULES)})"
        )
    return importlib.import_module(module).KIND
