"""The five patterns of ``pyramiden-1`` as precomputed bitmasks over the 112 fields.

Every placement of every shape is one Python int with a bit per field.  A round's
pattern is complete after a move on field ``f`` exactly when some placement that
contains ``f`` lies inside the mover's fields (plus ``f``), so completion is tested
incrementally from the field just taken: only the placements through ``f`` are
looked at (:data:`THROUGH`, at most 60 per field for ``kombination``).

Placements with two or more free fields can never be completed (a pattern holds at
most one free field, taken as its last field); they are counted in
:data:`PLACEMENTS` but left out of :data:`USABLE` and :data:`THROUGH`.

Lists are kept in the sheet's canonical order (sorted lists of field numbers), so
the first completed placement found is the one the engine crowns by default.
"""

from __future__ import annotations

import enum

from fechtbuch.engines.touche_pyramiden.board import COLS, FIELDS, FREE_MASK, ROWS, field_of


class Pattern(enum.Enum):
    """The pattern of a round (names from the rulebook)."""

    LINIE = "linie"
    KVADRAT = "kvadrat"
    T_FORM = "t-form"
    KORS = "kors"
    KOMBINATION = "kombination"


Offsets = tuple[tuple[int, int], ...]

# Shapes as (column, row) offsets, every orientation the sheet allows.
SHAPE_OFFSETS: dict[str, tuple[Offsets, ...]] = {
    "linie": (
        tuple((i, 0) for i in range(5)),  # horizontal
        tuple((0, i) for i in range(5)),  # vertical
        tuple((i, i) for i in range(5)),  # diagonal up-right
        tuple((i, -i) for i in range(5)),  # diagonal down-right
    ),
    "kvadrat": (((0, 0), (1, 0), (0, 1), (1, 1)),),
    "t-form": (
        ((-1, 0), (0, 0), (1, 0), (0, -1), (0, -2)),  # bar on top, stem down
        ((-1, 0), (0, 0), (1, 0), (0, 1), (0, 2)),  # bar below, stem up
        ((0, -1), (0, 0), (0, 1), (1, 0), (2, 0)),  # bar left, stem right
        ((0, -1), (0, 0), (0, 1), (-1, 0), (-2, 0)),  # bar right, stem left
    ),
    "kors": (
        ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)),  # kors +
        ((0, 0), (1, 1), (-1, -1), (-1, 1), (1, -1)),  # kryds x
    ),
}


def _placements(orientations: tuple[Offsets, ...]) -> list[int]:
    """Every placement of a shape on the board, as masks, in canonical order."""
    found: set[int] = set()
    for offsets in orientations:
        for row in range(ROWS):
            for col in range(COLS):
                cells = [(col + dc, row + dr) for dc, dr in offsets]
                if all(0 <= c < COLS and 0 <= r < ROWS for c, r in cells):
                    found.add(sum(1 << field_of(c, r) for c, r in cells))
    return sorted(found, key=mask_fields)


def mask_fields(mask: int) -> list[int]:
    """The field numbers of a mask, ascending (the canonical sort key)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_BASE = {name: _placements(orients) for name, orients in SHAPE_OFFSETS.items()}

PLACEMENTS: dict[Pattern, tuple[int, ...]] = {
    Pattern.LINIE: tuple(_BASE["linie"]),
    Pattern.KVADRAT: tuple(_BASE["kvadrat"]),
    Pattern.T_FORM: tuple(_BASE["t-form"]),
    Pattern.KORS: tuple(_BASE["kors"]),
    Pattern.KOMBINATION: tuple(
        sorted(set().union(*(_BASE[n] for n in SHAPE_OFFSETS)), key=mask_fields)
    ),
}
"""Every geometric placement of each pattern (kombination: the union of the four)."""

USABLE: dict[Pattern, tuple[int, ...]] = {
    p: tuple(m for m in masks if (m & FREE_MASK).bit_count() <= 1)
    for p, masks in PLACEMENTS.items()
}
"""The placements that can be completed (at most one free field)."""

THROUGH: dict[Pattern, tuple[tuple[int, ...], ...]] = {
    p: tuple(tuple(m for m in masks if m >> f & 1) for f in range(FIELDS))
    for p, masks in USABLE.items()
}
"""For each pattern and field, the usable placements through that field (canonical order)."""


def completed(pattern: Pattern, own: int, field: int) -> int:
    """The first (canonical) placement through ``field`` inside ``own``, or 0.

    ``own`` must already include ``field``.  This is the incremental test: a
    pattern can only have been completed by the field just taken.
    """
    for mask in THROUGH[pattern][field]:
        if mask & ~own == 0:
            return mask
    return 0


def all_completed(pattern: Pattern, own: int, field: int) -> list[int]:
    """Every placement through ``field`` inside ``own`` (the crowning choices)."""
    return [m for m in THROUGH[pattern][field] if m & ~own == 0]
