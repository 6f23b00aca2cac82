"""Battleklinge's click parameter types: positions, moves and card lists in notation.

The shared, game-independent command-line pieces are in :mod:`fechtbuch.commands.options`;
these know Battleklinge's notation, so they live with the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

import click
from fechtbuch.engines.battleklinge.cards import parse_card_list
from fechtbuch.engines.battleklinge.position import Move, Position

T = TypeVar("T")


class NotationType(click.ParamType, Generic[T]):
    """A value written in notation: text goes through ``parse``, whose errors name the
    field; a value that is already parsed (a default) passes through."""

    def __init__(self, name: str, kind: type[T], parse: Callable[[str], T]) -> None:
        self.name = name
        self._kind = kind
        self._parse = parse

    def convert(self, value, param, ctx) -> T:
        return value if isinstance(value, self._kind) else self._parse(value)


POSITION = NotationType("POSITION", Position, Position.from_text)
"""A position in notation."""
MOVE = NotationType("MOVE", Move, Move.from_text)
"""A move in notation (``ausfall:c1c3``, ``volte:pass``)."""


class CardListType(click.ParamType):
    """A card set for a deal: ``zufall`` (five at random), a named set, or five card ids
    joined by ',' (blanks around ids and any letter case are accepted: ``'Ausfall, volte,
    ...'``); ``''`` and empty items are errors.  Checked at once; the value is the text
    without blanks, lower case (``'ausfall,volte,...'``), as recorded in a pack's command."""

    name = "SET|LIST"

    def convert(self, value, param, ctx):
        text = ",".join(part.strip() for part in value.split(",")).lower()
        if text != "zufall":
            parse_card_list(value)
        return text


CARD_LIST = CardListType()
