"""Threat evaluation of a board for the computer players.

Every usable placement of the round's pattern is a possible pattern for every team
that has no foreign pyramid and no crowned field in it; its value grows steeply as
fewer fields are missing.  A placement that misses only a free field is a sure
completion with any card on the team's next turn.  Deltas are computed only over the
placements through the field that changes, like the completion test.
"""

from __future__ import annotations

from fechtbuch.engines.touche_pyramiden.board import FREE_MASK
from fechtbuch.engines.touche_pyramiden.patterns import THROUGH, USABLE, Pattern

NEED_VALUE = (0.0, 60.0, 12.0, 3.0, 0.8, 0.2)
"""Value of an open placement by the number of fields still missing."""
FREE_LAST = 150.0
"""Value of an open placement that misses only a free field (any card completes it)."""


def placement_value(mask: int, mine: int, blocked: int) -> float:
    if mask & blocked:
        return 0.0
    missing = mask & ~mine
    need = missing.bit_count()
    if missing & FREE_MASK:
        return FREE_LAST if need == 1 else NEED_VALUE[need - 1] * 0.9
    return NEED_VALUE[need]


def team_value(pattern: Pattern, own: tuple[int, ...], crowned: int, team: int) -> float:
    """The sum over every usable placement of its value for ``team``."""
    mine = own[team]
    blocked = crowned
    for t, m in enumerate(own):
        if t != team:
            blocked |= m
    return sum(placement_value(mask, mine, blocked) for mask in USABLE[pattern])


def board_value(pattern: Pattern, own: tuple[int, ...], crowned: int, team: int) -> float:
    """Own team's value minus the strongest opponent's."""
    values = [team_value(pattern, own, crowned, t) for t in range(len(own))]
    others = [v for t, v in enumerate(values) if t != team]
    return values[team] - max(others)


def field_delta(
    pattern: Pattern, own: tuple[int, ...], crowned: int, field: int, new_own: tuple[int, ...]
) -> list[float]:
    """Per team, the change of its value when the pyramids change from ``own`` to
    ``new_own`` on ``field`` only."""
    out = []
    through = THROUGH[pattern][field]
    for team in range(len(own)):
        before_blocked = crowned
        after_blocked = crowned
        for t in range(len(own)):
            if t != team:
                before_blocked |= own[t]
                after_blocked |= new_own[t]
        delta = 0.0
        for mask in through:
            delta += placement_value(mask, new_own[team], after_blocked) - placement_value(
                mask, own[team], before_blocked
            )
        out.append(delta)
    return out


def threats(pattern: Pattern, own: tuple[int, ...], crowned: int, team: int) -> list[int]:
    """The open placements of ``team`` that miss exactly one field."""
    mine = own[team]
    blocked = crowned
    for t, m in enumerate(own):
        if t != team:
            blocked |= m
    return [
        mask for mask in USABLE[pattern] if not mask & blocked and (mask & ~mine).bit_count() == 1
    ]
