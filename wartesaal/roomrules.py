"""The rules of the room (rulebook, "Gegner", "Abbruch, Wiederholung und Notbremse",
"Wertung"), as constants and pure functions: points, Elo and the Taler stake.

A game is *counted* when it is rated and has lasted :data:`COUNTED_FROM_ACTIONS`
actions (all seats together) or :data:`COUNTED_FROM_SECONDS` seconds; then every
winner gains :data:`WIN_POINTS`, every loser loses as many, Elo moves and the stake
changes hands.  Otherwise (friendly, too short, Abbruch, no winner) nothing changes
and every stake goes back.

>>> round(elo_expected(1200, 1200), 2), elo_changes([1200.0, 1200.0], [1.0, 0.0])
(0.5, [10.0, -10.0])
>>> settle_stake(10, [1.0, 0.0, 0.0])
[30, 0, 0]
"""

from __future__ import annotations

WIN_POINTS = 10
"""Points a counted win brings and a counted loss costs ("+10 Punkte ... kostet 10")."""
COUNTED_FROM_ACTIONS = 10
"""A rated game counts from this many actions ("ab 10 Zügen") ..."""
COUNTED_FROM_SECONDS = 120.0
"""... or from two minutes after its start ("oder zwei Minuten")."""
ELO_START = 1200.0
"""Every account's Elo at registration."""
ELO_K = 20.0
"""The K-factor: the most one two-player game can move a rating (FIDE's for
established players below 2400)."""
TALER_START = 100
"""Every account's Taler at registration."""
NO_CLOCK_MOVE_SECONDS = 600.0
"""Without a clock, one action (a move, a choice) taking longer loses ("Notbremse")."""
NO_CLOCK_WARNING_SECONDS = 60.0
"""The last minute of that limit is shown to everyone at the table."""
RECONNECT_GRACE_SECONDS = 60.0
"""A seat whose last connection closed loses a running game when it has not come back
within this time ("Wer eine laufende Partie verlässt, verliert sie"); long enough for a
phone to change networks or a server to restart, short enough that the opponent waits
no longer than for a slow move."""
REPETITION_OFFER = 3
"""The occurrence of a position at which the room offers the Abbruch."""


def winners(returns: list[float] | tuple[float, ...]) -> list[int]:
    """The seats with the best result, or none when every seat has the same."""
    best = max(returns)
    if all(r == best for r in returns):
        return []
    return [seat for seat, r in enumerate(returns) if r == best]


def counted(rated: bool, actions: int, seconds: float) -> bool:
    """Whether a finished game changes points, Elo and Taler."""
    return rated and (actions >= COUNTED_FROM_ACTIONS or seconds >= COUNTED_FROM_SECONDS)


def points_changes(returns: list[float]) -> list[int]:
    """+10 for every winner, -10 for everyone else (nothing when nobody won)."""
    won = winners(returns)
    if not won:
        return [0] * len(returns)
    return [WIN_POINTS if seat in won else -WIN_POINTS for seat in range(len(returns))]


def elo_expected(rating: float, other: float) -> float:
    """The expected score of ``rating`` against ``other`` (the logistic curve)."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def elo_changes(ratings: list[float], returns: list[float]) -> list[float]:
    """Each seat's Elo change.  With more than two seats every pair is a game of its
    own (the better result wins it, equal results draw) and each pair weighs
    ``K / (seats - 1)``, so one game moves a rating by at most K whatever the size."""
    n = len(ratings)
    changes = [0.0] * n
    weight = ELO_K / (n - 1)
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            score = 1.0 if returns[a] > returns[b] else 0.0 if returns[a] < returns[b] else 0.5
            changes[a] += weight * (score - elo_expected(ratings[a], ratings[b]))
    return [round(c, 6) for c in changes]


def settle_stake(stake: int, returns: list[float]) -> list[int]:
    """What each seat gets back from the pot of ``stake`` per seat: the winners share
    it (the first winners by seat take the Taler an even split leaves over); with no
    winner everyone gets the stake back."""
    seats = len(returns)
    won = winners(returns)
    if not won or stake == 0:
        return [stake] * seats
    share, rest = divmod(stake * seats, len(won))
    payout = [0] * seats
    for rank, seat in enumerate(won):
        payout[seat] = share + (1 if rank < rest else 0)
    return payout
