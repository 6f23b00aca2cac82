"""``db verify``: every row re-proved by its game's independent verifier, in
parallel (local workers or Ray), reported in row order."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from fechtbuch.puzzles.db import backends
from fechtbuch.puzzles.db.store import Query, candidates
from fechtbuch.puzzles.minekit import DbCandidate

ROWS_PER_TASK = 8
"""Rows per unit of work: a Battleklinge row verifies in milliseconds, so single
rows would cost more in scheduling than in proving."""


def _units(conn: sqlite3.Connection, slug: str) -> Iterator[list[DbCandidate]]:
    rows = candidates(conn, Query(game=slug))
    for start in range(0, len(rows), ROWS_PER_TASK):
        yield rows[start : start + ROWS_PER_TASK]


def verify_rows(conn: sqlite3.Connection, game: str | None, backend) -> dict:
    """Re-prove the rows of ``game`` (every game for ``None``): ``rows``, ``failed``
    and ``problems`` (one line each, naming the row, its game and its puzzle id)."""
    games = (
        [game]
        if game
        else [r[0] for r in conn.execute("SELECT DISTINCT game FROM puzzles ORDER BY game")]
    )
    checked, failed, problems = 0, 0, []
    for slug in games:
        units = list(_units(conn, slug))
        results = backend.imap(backends.verify_rows, slug, units)
        for unit, (found, _cpu) in zip(units, results, strict=True):
            for row, lines in zip(unit, found, strict=True):
                checked += 1
                if lines:
                    failed += 1
                    label = f"{slug} seed {row.seed} round {row.round} ({row.puzzle['id']})"
                    problems += [f"{label}: {line}" for line in lines]
    return {"rows": checked, "failed": failed, "problems": problems}
