"""Computer players of every game: one factory type, wired explicitly.

A game's :class:`PlayerFactory` makes its computer players by strength.  Some
players are strongest with help from a higher layer (Battleklinge's exact forced
hits and the duel's sure-win proofs come from ``solver/``, which engines never
import), so the factory that the command line uses is built where that help is
at hand and named by the game's plugin (``players``).  A library caller gets the
very same players from the registry, without the command line::

    from fechtbuch.engines.plugin import load
    from fechtbuch.engines.registry import plugin
    factory = load(plugin("touche-duell").players)
    meister = factory.make("meister", seed="demo")

The command line's commands ask ``fechtbuch.commands.players.command_players``,
which reads the factory from the running click context: ``cli.py`` puts the
registry's factories there (no module-level state is changed by anything).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from fechtbuch.engines.errors import InputError


class UnknownStrengthError(InputError):
    """A strength the game's player factory does not make."""


class Player(Protocol):
    """A computer player: ``choose`` takes what the player sees (a Battleklinge
    position, a Touché player's view, a pyramid state) and returns an action."""

    def choose(self, *args: Any, **kwargs: Any) -> Any: ...


@dataclass(frozen=True)
class PlayerFactory:
    """A game's computer players: ``make(strength, seed, **budget)``.

    ``make`` and ``oracle`` are module-level functions, so a factory pickles into
    the worker processes of a parallel match."""

    strengths: tuple[str, ...]
    """Every strength, weakest first (frozen ones included where the game has them)."""
    make: Callable[..., Player]
    oracle: Callable[[], Any] | None = None
    """The exact helper the players are wired with (Battleklinge: the forced-hit
    oracle that the analysis asks too), or ``None``."""
    act: Callable[[Any, Any], Any] | None = None
    """``act(player, state)``: the action of a made player at a full state of the
    game (the seam's state), seeing only what its seat sees; ``None``: the state is
    what the player sees (perfect information) and ``choose`` returns the action."""

    def seat(self, strength: str, seed: Any = 0) -> Callable[[Any], Any]:
        """A player of ``strength`` as a function from the seam's full state to its
        action (the generic play loop and match harness use this form)."""
        player = self.make(self.check(strength), seed)
        if self.act is None:
            return player.choose
        act = self.act
        return lambda state: act(player, state)

    def check(self, strength: str) -> str:
        """``strength`` if the factory makes it; an :class:`UnknownStrengthError`
        otherwise."""
        if strength not in self.strengths:
            raise UnknownStrengthError(
                f"strength: {strength[:60]!r} is not one of {', '.join(self.strengths)}"
            )
        return strength
