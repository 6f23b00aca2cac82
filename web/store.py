"""What the browser front end remembers on this device: one SQLite file.

``$XDG_DATA_HOME/fechtbuch/web.sqlite3`` (default ``~/.local/share/...``; the
``serve --data`` option names another file) holds, per game:

* ``record``: games against the computer per strength: wins, losses, and the wins
  in which "Rat" or "Zug zurück" was used ("davon mit Hilfe", counted in wins too);
* ``exercises``: solved exercises, ``solved`` (green) or ``solved-with-help``
  (yellow); a clean solve stays green;
* ``attempts``: every exercise attempt (solved or not, with help or not), so the
  exercise database's ratings can learn from them (``fechtbuch db rate --attempts``
  reads this table and ``meta``);
* ``meta``: ``identity``, a random name of this store made when it is created: the
  player its attempts are recorded under in the exercise database; ``format``
  (:data:`FORMAT`), which tells this store from any other SQLite file;
* ``daily``: the first game of each day of a game's daily duel (``won``, ``lost``);
  the streak is the days in a row with a won first game;
* ``saved``: finished games (mode, seats, the moves in the game's notation).

The store opens only its own file: a new or empty one, one whose ``meta`` names
:data:`FORMAT`, or one made before the format was written (only the store's tables,
and an ``identity``: it is marked then).  Any other SQLite file (the exercise
database, another program's) is refused before anything is written to it.

SQLite commits each change as one transaction, so a killed server leaves the old
or the new data, never a torn file.  The store opens a connection per call: the
server's threads share no connection.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from fechtbuch.engines.errors import InputError, quote

SCHEMA = """
CREATE TABLE IF NOT EXISTS record (
    game TEXT NOT NULL, strength TEXT NOT NULL,
    wins INTEGER NOT NULL DEFAULT 0, losses INTEGER NOT NULL DEFAULT 0,
    wins_with_help INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, strength));
CREATE TABLE IF NOT EXISTS exercises (
    game TEXT NOT NULL, puzzle TEXT NOT NULL, status TEXT NOT NULL,
    PRIMARY KEY (game, puzzle));
CREATE TABLE IF NOT EXISTS attempts (
    game TEXT NOT NULL, puzzle TEXT NOT NULL, solved INTEGER NOT NULL,
    helped INTEGER NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS daily (
    game TEXT NOT NULL, day TEXT NOT NULL, outcome TEXT NOT NULL, PRIMARY KEY (game, day));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO meta VALUES ('identity', lower(hex(randomblob(16))));
INSERT OR IGNORE INTO meta VALUES ('format', 'fechtbuch-serve-store 1');
CREATE TABLE IF NOT EXISTS saved (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, mode TEXT NOT NULL,
    at TEXT NOT NULL, record TEXT NOT NULL);
"""


FORMAT = "fechtbuch-serve-store 1"
"""``meta.format`` of the store (the value in :data:`SCHEMA` too)."""
TABLES = frozenset({"record", "exercises", "attempts", "daily", "meta", "saved", "sqlite_sequence"})
"""The tables of a store (``sqlite_sequence`` is SQLite's, for ``saved``'s ids)."""


def default_store_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "fechtbuch" / "web.sqlite3"


@dataclass(frozen=True)
class Store:
    """The SQLite file at ``path`` (created with its tables on first use)."""

    path: Path

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=10)
        except (OSError, sqlite3.Error) as err:
            raise InputError(f"data: cannot open {str(self.path)!r} ({err})") from None
        with closing(connection):
            self._claim(connection)
            with connection:  # one transaction: committed whole or rolled back
                connection.executescript(SCHEMA)
                yield connection

    def _claim(self, connection: sqlite3.Connection) -> None:
        """Refuse a file that is not this store, having only read it."""
        found = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {name for (name,) in found}
        if not tables:
            return  # new or empty: the schema makes it a store
        marks = {}
        if "meta" in tables:
            marks = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        if marks.get("format") == FORMAT:
            return
        if "format" not in marks and tables <= TABLES and "identity" in marks:
            return  # a store made before the format was written: the schema marks it
        what = (
            f"format {quote(marks['format'])}"
            if "format" in marks
            else ("the tables " + ", ".join(sorted(tables)))
        )
        raise InputError(
            f"data: {str(self.path)!r} is not a store of 'fechtbuch serve' (it holds {what}); "
            "give another file"
        )

    def check(self) -> None:
        """Open the file once (a bad ``--data`` path is an error before serving)."""
        try:
            with self._connect():
                pass
        except sqlite3.DatabaseError as err:
            raise InputError(f"data: {str(self.path)!r} is not a fechtbuch store ({err})") from None

    # ---- games against the computer -------------------------------------
    def count_game(self, game: str, strength: str, won: bool, helped: bool) -> None:
        with self._connect() as db:
            db.execute(
                "INSERT OR IGNORE INTO record (game, strength) VALUES (?, ?)", (game, strength)
            )
            db.execute(
                "UPDATE record SET wins = wins + ?, losses = losses + ?, "
                "wins_with_help = wins_with_help + ? WHERE game = ? AND strength = ?",
                (int(won), int(not won), int(won and helped), game, strength),
            )

    def records(self, game: str) -> dict[str, dict[str, int]]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT strength, wins, losses, wins_with_help FROM record WHERE game = ?",
                (game,),
            ).fetchall()
        return {s: {"wins": w, "losses": lo, "wins_with_help": h} for s, w, lo, h in rows}

    # ---- exercises --------------------------------------------------------
    def count_attempt(self, game: str, puzzle: str, solved: bool, helped: bool) -> None:
        now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        with self._connect() as db:
            db.execute(
                "INSERT INTO attempts VALUES (?, ?, ?, ?, ?)",
                (game, puzzle, int(solved), int(helped), now),
            )
            if not solved:
                return
            status = "solved-with-help" if helped else "solved"
            old = db.execute(
                "SELECT status FROM exercises WHERE game = ? AND puzzle = ?", (game, puzzle)
            ).fetchone()
            if old is None or (old[0] == "solved-with-help" and status == "solved"):
                db.execute(
                    "INSERT OR REPLACE INTO exercises VALUES (?, ?, ?)", (game, puzzle, status)
                )

    def exercises(self, game: str) -> dict[str, str]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT puzzle, status FROM exercises WHERE game = ?", (game,)
            ).fetchall()
        return dict(rows)

    def attempts(self, game: str) -> list[tuple[str, bool, bool]]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT puzzle, solved, helped FROM attempts WHERE game = ? ORDER BY rowid",
                (game,),
            ).fetchall()
        return [(p, bool(s), bool(h)) for p, s, h in rows]

    # ---- daily duel -------------------------------------------------------
    def book_daily(self, game: str, day: dt.date) -> bool:
        """Book ``day``'s first game as lost until it ends (leaving it cannot buy a
        second try); False if that day counted already."""
        with self._connect() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO daily VALUES (?, ?, 'lost')", (game, day.isoformat())
            )
            return cursor.rowcount == 1

    def finish_daily(self, game: str, day: dt.date, outcome: str) -> None:
        if outcome not in ("won", "lost"):
            raise ValueError(f"daily outcome {outcome!r}")
        with self._connect() as db:
            db.execute(
                "UPDATE daily SET outcome = ? WHERE game = ? AND day = ?",
                (outcome, game, day.isoformat()),
            )

    def daily(self, game: str) -> dict[str, str]:
        with self._connect() as db:
            rows = db.execute("SELECT day, outcome FROM daily WHERE game = ?", (game,))
            return dict(rows.fetchall())

    def streak(self, game: str, today: dt.date) -> int:
        """Days in a row with a won first game, ending today (or yesterday while
        today's game is not played yet)."""
        days = self.daily(game)
        day = today if today.isoformat() in days else today - dt.timedelta(days=1)
        count = 0
        while days.get(day.isoformat()) == "won":
            count += 1
            day -= dt.timedelta(days=1)
        return count

    # ---- saved games ------------------------------------------------------
    def save_game(self, game: str, mode: str, record: dict) -> int:
        now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        with self._connect() as db:
            cursor = db.execute(
                "INSERT INTO saved (game, mode, at, record) VALUES (?, ?, ?, ?)",
                (game, mode, now, json.dumps(record, ensure_ascii=False, sort_keys=True)),
            )
            return int(cursor.lastrowid)

    def saved_games(self, game: str) -> list[dict]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT id, mode, at, record FROM saved WHERE game = ? ORDER BY id", (game,)
            ).fetchall()
        return [{"id": i, "mode": m, "at": a, "record": json.loads(r)} for i, m, a, r in rows]
