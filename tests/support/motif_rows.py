"""A row of a motif table whose exercise is exercise ``number`` of a shipped pack."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MotifRow:
    motif: str
    number: int
    key: str
    present: bool
    why: str
    written_key: bool = False
    """The key is written for the row, not the exercise's (a rule of the key's text)."""


def row_id(row: MotifRow) -> str:
    return f"{row.motif}-{'yes' if row.present else 'no'}"
