"""How a game is set up at a table where people play each other (the Wartesaal).

The seam's :meth:`~fechtbuch.engines.game.Game.initial_state` deals from an integer
and lets the seed choose the rules level or the number of players, which suits
random playouts but not a challenge in which people agree on those beforehand.  A
:class:`TableSetup` is what a game offers a table instead:

* ``variants``: the named set-ups a challenge may choose (a card set, a rules level,
  a number of players), each with one line of description, and the ``default``;
* ``seats(variant)``: how many people sit at the table;
* ``game_for(variant)``: the game a table plays, usually the plugin's own;
* ``deal(variant, seed)``: the start state, from a seed text (SHA-256 inside);
* ``next_unit(state, seed, number)``: for a game whose seam state is one unit of a
  longer game (the Touché duel's round), the start of unit ``number`` once the last
  one is over, or ``None`` when the whole game is over;
* ``public_view(variant, state)``: what a spectator sees, as text: no hand, no pile
  order.

A game whose plugin names no set-up gets :class:`SeamSetup`: one variant, the seam's
own deal, and, if the game hides cards, no public view at all (spectators then see
only the actions, which the rules make public).

Layers: game-free (the room in ``wartesaal/`` resolves a plugin's ``table`` part).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fechtbuch.engines.errors import InputError
from fechtbuch.engines.game import Game
from fechtbuch.engines.seeding import sha256_text, u64


class TableSetup:
    """The default set-up: the seam's deal, one unit per game."""

    variants: Mapping[str, str] = {"standard": "the game's usual set-up"}
    default: str = "standard"

    def __init__(self, game: Game) -> None:
        self.game = game

    def check_variant(self, variant: str | None) -> str:
        """``variant`` if the game knows it (``None``: the default), else an
        :class:`InputError` naming the field and the choices."""
        if variant is None:
            return self.default
        if variant not in self.variants:
            known = ", ".join(self.variants)
            raise InputError(f"variant: unknown variant {variant[:100]!r}; known: {known}")
        return variant

    def game_for(self, variant: str) -> Game:
        """The game a table of ``variant`` plays (a variant may put a phase in front
        of the game, such as Battleklinge's Kartenwahl)."""
        return self.game

    def seats(self, variant: str) -> int:
        return self.game.num_players(self.deal(variant, "seats"))

    def deal(self, variant: str, seed: str) -> Any:
        return self.game.initial_state(u64(sha256_text(f"table/{variant}/{seed}")))

    def next_unit(self, state: Any, seed: str, number: int) -> Any | None:
        """The start of unit ``number`` (2, 3, ...) after ``state`` ended a unit, or
        ``None``: the game is over and ``state``'s returns are its result."""
        return None

    def public_view(self, variant: str, state: Any) -> str | None:
        """What a spectator sees; ``None`` when the game hides cards and has no
        public view (spectators then get the actions only)."""
        game = self.game_for(variant)
        if game.info.hidden_information:
            return None
        return game.format_state(state)


SeamSetup = TableSetup
"""The set-up of a game whose plugin names none."""
