"""A game clock: the same minutes for every seat, and how a computer shares out its time.

Game-free: the seats are numbers and the clock knows nothing of moves.  A seat whose
time runs out loses (the caller decides what that means in its game).

A computer plans ``left / MOVES_TO_GO`` for its next move and passes that on as its
time per move.  The searches stop iterating early (no iteration starts after half of
it), so a computer spends about half of what it plans and its time left shrinks by
about 2.5% per move: it cannot run out, only think less as the game grows long.

>>> clock = GameClock.minutes(5)
>>> clock.think_time(0)
15.0
>>> clock.spend(0, 10.0)
False
>>> clock.left
[290.0, 300.0]
>>> clock.spend(1, 301.0), clock.flagged(1)
(True, True)
>>> clock.text(("Gold", "Blau"))
'Gold 4:50, Blau 0:00'
"""

from __future__ import annotations

from dataclasses import dataclass

MOVES_TO_GO = 20
"""A computer plans its next move as if this many were left to play (a Battleklinge
game between strong players lasts about 20-25 moves per side)."""
MIN_THINK = 0.01
"""The least a computer plans for a move (its search still completes depth 1)."""


@dataclass
class GameClock:
    """Seconds left per seat."""

    left: list[float]

    @classmethod
    def minutes(cls, minutes: float, seats: int = 2) -> GameClock:
        """Every seat starts with ``minutes``."""
        return cls([minutes * 60.0] * seats)

    def think_time(self, seat: int) -> float:
        """The seconds a computer in ``seat`` plans for its next move."""
        return max(MIN_THINK, self.left[seat] / MOVES_TO_GO)

    def spend(self, seat: int, seconds: float) -> bool:
        """Take ``seconds`` from ``seat``; True when its time has run out."""
        self.left[seat] -= seconds
        return self.flagged(seat)

    def flagged(self, seat: int) -> bool:
        return self.left[seat] <= 0

    def text(self, names: tuple[str, ...]) -> str:
        """``Gold 4:50, Blau 5:00``: each seat's name (the game's) and minutes:seconds
        left, never below 0:00."""
        return ", ".join(
            f"{name} {clock_text(s)}" for name, s in zip(names, self.left, strict=True)
        )


def clock_text(seconds: float) -> str:
    """``m:ss``, whole seconds, never negative.

    >>> clock_text(61.9), clock_text(-3)
    ('1:01', '0:00')
    """
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


__all__ = ["MIN_THINK", "MOVES_TO_GO", "GameClock", "clock_text"]
