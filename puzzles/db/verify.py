"""``db verify``: every row re-proved by its game's independent verifier, in
parallel (local workers or Ray), reported in row order.

Rows are read here, in this thread (SQLite connections stay in the thread that
made them), :data:`UNITS_PER_BATCH` units at a time, and each batch is verified
before the next is read: memory holds one batch, not the database."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator

from fechtbuch.puzzles.db import backends
from fechtbuch.puzzles.db.store import iter_rows_of_game
from fechtbuch.puzzles.minekit import DbCandidate

ROWS_PER_TASK = 8
"""Rows per unit of work: a Battleklinge row verifies in milliseconds, so single
rows would cost more in scheduling than in proving."""
UNITS_PER_BATCH = 256
"""Units read and verified together (2,048 rows): enough to keep every worker busy
between batches, few enough that a database of millions of rows fits in memory."""


def _units(conn: sqlite3.Connection, slug: str) -> Iterator[list[DbCandidate]]:
    rows = (
        DbCandidate(seed, round_, 0, record)
        for _row, seed, round_, record in iter_rows_of_game(conn, slug)
    )
    while unit := list(itertools.islice(rows, ROWS_PER_TASK)):
        yield unit


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
        units = _units(conn, slug)
        while batch := list(itertools.islice(units, UNITS_PER_BATCH)):
            results = backend.imap(backends.verify_rows, slug, batch)
            for unit, (found, _cpu) in zip(batch, results, strict=True):
                checked, failed = _report(slug, unit, found, checked, failed, problems)
    return {"rows": checked, "failed": failed, "problems": problems}


def _report(
    slug: str, unit: list[DbCandidate], found, checked: int, failed: int, problems: list[str]
) -> tuple[int, int]:
    """Count one unit's results and add its problem lines; the new counts."""
    for row, lines in zip(unit, found, strict=True):
        checked += 1
        if lines:
            failed += 1
            label = f"{slug} seed {row.seed} round {row.round} ({row.puzzle['id']})"
            problems += [f"{label}: {line}" for line in lines]
    return checked, failed
