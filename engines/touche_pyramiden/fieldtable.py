"""The threat evaluation of :mod:`~fechtbuch.engines.touche_pyramiden.evaluate` for every
field and team at once, with numpy: what ``meister``'s play-outs ask at every step.

``evaluate.field_delta`` walks the placements through one field in Python, about a
millisecond for all of a hand's actions; a play-out asks at every step, so here one
pass over every usable placement of the pattern gives, per team, which placements are
still open, how many fields each misses, and what a pyramid on each empty field is
worth (:func:`table`).  The values are those of ``evaluate`` times 100, as integers,
so that sums are exact and a tie is a tie on every machine.

For a placement open for a team (no other team's pyramid, no crowned field) the
fields it misses are exactly its empty fields, so the number missing and whether a
free field is among them do not depend on the team; only openness does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from fechtbuch.engines.touche_pyramiden.board import FIELDS, FREE_MASK
from fechtbuch.engines.touche_pyramiden.evaluate import FREE_LAST, NEED_VALUE
from fechtbuch.engines.touche_pyramiden.patterns import USABLE, Pattern, mask_fields

SCALE = 100
"""Integer values: ``evaluate``'s values times this."""
EMPTY = -1
"""A cell of :func:`cells_of`: no pyramid."""
CROWN = 9
"""A cell of :func:`cells_of`: crowned (blocks every team)."""
PAD = -2
"""The cell every shorter placement is padded with (a kvadrat has 4 fields)."""

_PLAIN = np.array([round(v * SCALE) for v in NEED_VALUE], dtype=np.int64)
"""A placement's value by fields missing, when no free field is missing."""
_WITH_FREE = np.array(
    [0, round(FREE_LAST * SCALE)] + [round(v * 0.9 * SCALE) for v in NEED_VALUE[1:-1]],
    dtype=np.int64,
)
"""The same when a free field is among the missing (only completing takes it)."""


@dataclass(frozen=True)
class _Placements:
    fields: np.ndarray
    """(5, placements) field numbers, padded with ``FIELDS`` (a cell that is always PAD);
    cell-major, so that reducing over a placement's cells runs over whole rows."""
    free: np.ndarray
    """(5, placements) bool: the cell is a free field."""
    size: np.ndarray
    """(placements,) fields of the placement (4 or 5)."""


@cache
def _placements(pattern: Pattern) -> _Placements:
    masks = USABLE[pattern]
    fields = np.full((5, len(masks)), FIELDS, dtype=np.intp)
    for i, mask in enumerate(masks):
        cells = mask_fields(mask)
        fields[: len(cells), i] = cells
    free = np.isin(fields, mask_fields(FREE_MASK))
    return _Placements(fields, free, (fields < FIELDS).sum(axis=0))


def cells_of(own: tuple[int, ...], crowned: int) -> np.ndarray:
    """The board as one int8 per field (``EMPTY``, the team, ``CROWN``) and the pad cell."""
    board = np.full(FIELDS + 1, EMPTY, dtype=np.int8)
    board[FIELDS] = PAD
    for team, mask in enumerate(own):
        if mask:
            board[mask_fields(mask)] = team
    if crowned:
        board[mask_fields(crowned)] = CROWN
    return board


@dataclass(frozen=True)
class Table:
    """One board's placements of one pattern, for every team."""

    fields: np.ndarray
    """(5, placements) field numbers (padded with ``FIELDS``)."""
    cells: np.ndarray
    """(5, placements) what stands on each field (:func:`cells_of`)."""
    size: np.ndarray
    """(placements,) fields of the placement."""
    empty: np.ndarray
    """(5, placements) bool: the cell is an empty field."""
    card_empty: np.ndarray
    """(5, placements) bool: the cell is an empty card field (not a free field)."""
    need: np.ndarray
    """(placements,) fields missing (for a team it is open for)."""
    open: np.ndarray
    """(teams, placements) bool."""
    value: np.ndarray
    """(teams, placements) the placement's value for the team (0 when not open)."""
    gain: np.ndarray
    """(teams, placements) what one more pyramid of the team on a missing card field adds."""

    def one_away(self, team: int) -> np.ndarray:
        """The fields that complete one of ``team``'s placements (free fields too),
        each once per placement it completes (the threat count of a block)."""
        rows = self.open[team] & (self.need == 1)
        return self.fields[:, rows][self.empty[:, rows]]

    def replace_one(self, team: int) -> np.ndarray:
        """The fields where a joker that lifts another team's pyramid and puts one of
        ``team``'s there completes a placement (all its other fields are ``team``'s)."""
        mine = (self.cells == team).sum(axis=0)
        foreign = (self.cells >= 0) & (self.cells != team) & (self.cells != CROWN)
        rows = (mine == self.size - 1) & (foreign.sum(axis=0) == 1)
        return self.fields[:, rows][foreign[:, rows]]

    def field_scores(self, team: int) -> np.ndarray:
        """Per field, ``evaluate``'s greedy value (times :data:`SCALE`) of a pyramid of
        ``team`` on it: own gain plus the other teams' losses, over the placements
        through it.  Only meaningful for an empty card field."""
        others = self.value.sum(axis=0) - self.value[team]
        weights = np.where(self.card_empty, (self.gain[team] + others)[None], 0)
        return np.bincount(self.fields.ravel(), weights=weights.ravel(), minlength=FIELDS + 1)

    def team_values(self) -> np.ndarray:
        """Per team, ``evaluate.team_value`` times :data:`SCALE`."""
        return self.value.sum(axis=1)


def table(pattern: Pattern, own: tuple[int, ...], crowned: int) -> Table:
    """The placements of ``pattern`` on the board ``own``/``crowned``."""
    shape = _placements(pattern)
    cells = cells_of(own, crowned)[shape.fields]
    empty = cells == EMPTY
    need = empty.sum(axis=0)
    free_missing = (empty & shape.free).any(axis=0)
    # open for a team: every filled cell is the team's (none filled: open for all)
    low = np.where(cells >= 0, cells, CROWN + 1).min(axis=0)
    high = cells.max(axis=0)
    teams = np.arange(len(own), dtype=np.int8)[:, None]
    open_ = (high < 0)[None] | ((low == high)[None] & (low[None] == teams))
    base = np.where(free_missing, _WITH_FREE[need], _PLAIN[need])
    after = np.where(free_missing, _WITH_FREE[need - 1], _PLAIN[need - 1])
    value = np.where(open_, base[None], 0)
    gain = np.where(open_, (after - base)[None], 0)
    card_empty = empty & ~shape.free
    return Table(shape.fields, cells, shape.size, empty, card_empty, need, open_, value, gain)
