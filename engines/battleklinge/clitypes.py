"""Battleklinge's click parameter types: positions, moves and card lists in notation.

The shared, game-independent command-line pieces are in :mod:`fechtbuch.engines.clikit`;
these know Battleklinge's notation, so they live with the game.
"""

from __future__ import annotations

import click
from fechtbuch.engines.battleklinge.cards import parse_card_list
from fechtbuch.engines.battleklinge.position import Move, Position


class PositionType(click.ParamType):
    """A position in notation; bad text becomes an error naming the field."""

    name = "POSITION"

    def convert(self, value, param, ctx):
        if isinstance(value, Position):
            return value
        return Position.from_text(value)


class MoveType(click.ParamType):
    """A move in notation (``ausfall:c1c3``, ``volte:pass``)."""

    name = "MOVE"

    def convert(self, value, param, ctx):
        if isinstance(value, Move):
            return value
        return Move.from_text(value)


POSITION = PositionType()
MOVE = MoveType()


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
