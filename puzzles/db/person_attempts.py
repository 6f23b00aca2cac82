"""People's exercise attempts, applied to the database's ratings (Glicko-2).

The browser front end (``fechtbuch serve``) records every exercise attempt of the
person on that device in its store (docs/web.md): the exercise's id, solved or
not, with help or not.  ``fechtbuch db rate --attempts STORE`` reads that file and
applies the attempts at exercises the database holds, in the order they were made,
as lichess rates puzzles: each attempt is one game between the person and the
exercise, and both ratings move (Glicko-2, one game per period, so the order
matters and is the store's).  A solve with help ("Rat", "Zug zurück") counts as a
failure: the exercise was not solved alone.

The person is the store's ``identity`` (a random name the store makes for itself);
their rating lives in the database's ``meta`` table (``player/<name>``), starting
at 1500/350 like a new lichess account.  Every applied attempt is recorded with the
origin ``web/<identity>/<number>`` as its source, so applying the same store again
adds only what is new, and the whole import is one transaction: a killed run
applies all of it or nothing.

The store is read as a file (SQLite, read-only), not through the web package:
the database sits below the front ends.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.db.schema import refuse_odd_path, transaction
from fechtbuch.puzzles.glicko2 import Game, Glicko, rate

WEB_SOURCE = "glicko2-web"
"""The ``rating_source`` of a rating last moved by a person's attempt."""


@dataclass(frozen=True)
class PersonAttempt:
    """One attempt of a person at an exercise, with where it was recorded."""

    origin: str
    """Unique per attempt: ``web/<store identity>/<attempt number in the store>``."""
    player: str
    puzzle_id: str
    solved: bool
    """Solved alone (a solve with help is ``False``)."""


@dataclass(frozen=True)
class ImportReport:
    applied: int
    already: int
    """Attempts applied by an earlier run (same origin)."""
    unknown: int
    """Attempts at exercises this database does not hold (for this game)."""
    players: dict[str, Glicko]
    """Each person's rating after the import."""


def read_web_attempts(path: Path, game: str) -> list[PersonAttempt]:
    """The attempts at ``game``'s exercises in the browser front end's store."""
    refuse_odd_path(path, must_exist=True, option="--attempts")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise InputError(f"--attempts: cannot open {str(path)!r} ({err})") from None
    try:
        identity = conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
        rows = conn.execute(
            "SELECT rowid, puzzle, solved, helped FROM attempts WHERE game = ? ORDER BY rowid",
            (game,),
        ).fetchall()
    except sqlite3.DatabaseError as err:
        raise InputError(
            f"--attempts: {str(path)!r} is not a store of 'fechtbuch serve' ({err})"
        ) from None
    finally:
        conn.close()
    if identity is None:
        raise InputError(f"--attempts: {str(path)!r} has no identity (open it with serve once)")
    player = f"web/{identity[0]}"
    return [
        PersonAttempt(f"{player}/{rowid}", player, puzzle, bool(solved) and not bool(helped))
        for rowid, puzzle, solved, helped in rows
    ]


def _player_key(player: str) -> str:
    return f"player/{player}"


def _load_player(conn: sqlite3.Connection, player: str) -> Glicko:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_player_key(player),)).fetchone()
    if row is None:
        return Glicko()
    stored = json.loads(row[0])
    return Glicko(stored["rating"], stored["rd"], stored["volatility"])


def _store_player(conn: sqlite3.Connection, player: str, glicko: Glicko) -> None:
    value = {"rating": glicko.rating, "rd": glicko.rd, "volatility": glicko.volatility}
    conn.execute(
        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
        (_player_key(player), json.dumps(value, sort_keys=True)),
    )


def apply_attempts(
    conn: sqlite3.Connection, game: str, attempts: Sequence[PersonAttempt]
) -> ImportReport:
    """Apply the attempts not applied before, in order, in one transaction."""
    applied = already = unknown = 0
    players: dict[str, Glicko] = {}
    with transaction(conn):
        for attempt in attempts:
            seen = conn.execute(
                "SELECT 1 FROM attempts WHERE source = ? LIMIT 1", (attempt.origin,)
            ).fetchone()
            if seen is not None:
                already += 1
                continue
            row = conn.execute(
                "SELECT id, rating, rating_deviation FROM puzzles "
                "WHERE game = ? AND puzzle_id = ? ORDER BY id LIMIT 1",
                (game, attempt.puzzle_id),
            ).fetchone()
            if row is None:
                unknown += 1
                continue
            puzzle_row, rating, deviation = row
            person = players.get(attempt.player) or _load_player(conn, attempt.player)
            exercise = Glicko(rating, deviation)
            # a solve is the person's win and the exercise's loss
            score = 1.0 if attempt.solved else 0.0
            players[attempt.player] = rate(person, [Game(exercise, score)])
            new = rate(exercise, [Game(person, 1.0 - score)])
            conn.execute(
                "UPDATE puzzles SET rating = ?, rating_deviation = ?, rating_source = ?, "
                "attempts = attempts + 1, solved = solved + ? WHERE id = ?",
                (new.rating, new.rd, WEB_SOURCE, int(attempt.solved), puzzle_row),
            )
            conn.execute(
                "INSERT INTO attempts (puzzle, player, solved, source) VALUES (?, ?, ?, ?)",
                (puzzle_row, attempt.player, int(attempt.solved), attempt.origin),
            )
            applied += 1
        for player, glicko in players.items():
            _store_player(conn, player, glicko)
    return ImportReport(applied, already, unknown, players)
