"""The database file: where it lives, how it is opened, and its schema by migrations.

SQLite from the standard library: one file, no server, transactions that a killed
run rolls back on the next open, and a file whose bytes follow from the statements
run on it alone (no clocks, no random page layout), which is what lets a database
be rebuilt byte for byte from its seed.  To keep that so:

* the page size and the journal mode (rollback journal, not WAL: one file) are set
  before the first table exists;
* nothing written holds a time, a host or a process id;
* every migration and every committed unit of mining is one transaction, and the
  units are the same whatever ran the rounds.

The schema version is SQLite's ``user_version``; the ``migrations`` table lists the
steps applied.  A file from a newer fechtbuch is refused, an older one is migrated
step by step on the first write.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fechtbuch.engines.errors import InputError, quote

ENVIRONMENT_VARIABLE = "FECHTBUCH_DB"
FORMAT = "fechtbuch-puzzle-database"
"""``meta.format`` of every puzzle database: a SQLite file of another program is refused."""
PAGE_SIZE = 4096
BUSY_TIMEOUT_MS = 30_000
"""A writer waits this long for a reader (``db stats`` during ``db mine``) to finish."""

MIGRATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "exercises, the seeded streams and rounds that found them",
        (
            """CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID""",
            f"INSERT INTO meta VALUES ('format', '{FORMAT}')",
            """CREATE TABLE streams (
                id INTEGER PRIMARY KEY,
                game TEXT NOT NULL,
                seed INTEGER NOT NULL,
                params TEXT NOT NULL,
                UNIQUE (game, seed, params))""",
            """CREATE TABLE runs (
                id INTEGER PRIMARY KEY,
                stream INTEGER NOT NULL REFERENCES streams (id),
                first_round INTEGER NOT NULL,
                end_round INTEGER NOT NULL)""",
            """CREATE TABLE rounds (
                stream INTEGER NOT NULL REFERENCES streams (id),
                round INTEGER NOT NULL,
                found INTEGER NOT NULL,
                stored INTEGER NOT NULL,
                counts TEXT NOT NULL,
                PRIMARY KEY (stream, round)) WITHOUT ROWID""",
            """CREATE TABLE puzzles (
                id INTEGER PRIMARY KEY,
                game TEXT NOT NULL,
                rules_version TEXT NOT NULL,
                puzzle_id TEXT NOT NULL,
                position TEXT NOT NULL,
                n INTEGER NOT NULL,
                keys TEXT NOT NULL,
                line TEXT NOT NULL,
                solution BLOB NOT NULL,
                fields BLOB NOT NULL,
                tags TEXT NOT NULL,
                difficulty REAL NOT NULL,
                witness TEXT,
                mined_by TEXT NOT NULL,
                card_set TEXT,
                canonical_key TEXT NOT NULL,
                stream INTEGER NOT NULL REFERENCES streams (id),
                round INTEGER NOT NULL,
                UNIQUE (game, canonical_key))""",
            """CREATE TABLE puzzle_tags (
                tag TEXT NOT NULL,
                puzzle INTEGER NOT NULL REFERENCES puzzles (id),
                PRIMARY KEY (tag, puzzle)) WITHOUT ROWID""",
            "CREATE INDEX puzzles_by_n ON puzzles (game, n)",
            "CREATE INDEX puzzles_by_cards ON puzzles (game, card_set)",
            "CREATE INDEX runs_by_stream ON runs (stream)",
        ),
    ),
    (
        "ratings with deviations, attempt counts and the attempts table",
        (
            # the rating starts from the game's difficulty (store.prior_rating) until a
            # fit from attempts replaces it; rating_source says which
            "ALTER TABLE puzzles ADD COLUMN rating REAL NOT NULL DEFAULT 1500",
            "ALTER TABLE puzzles ADD COLUMN rating_deviation REAL NOT NULL DEFAULT 350",
            "ALTER TABLE puzzles ADD COLUMN rating_source TEXT NOT NULL DEFAULT 'difficulty'",
            "ALTER TABLE puzzles ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE puzzles ADD COLUMN solved INTEGER NOT NULL DEFAULT 0",
            """UPDATE puzzles SET rating = 1500 + 100 * (difficulty - 5.5)""",
            """CREATE TABLE attempts (
                id INTEGER PRIMARY KEY,
                puzzle INTEGER NOT NULL REFERENCES puzzles (id),
                player TEXT NOT NULL,
                solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
                source TEXT NOT NULL)""",
            "CREATE INDEX attempts_by_puzzle ON attempts (puzzle)",
            "CREATE INDEX puzzles_by_rating ON puzzles (game, rating)",
        ),
    ),
)
"""The schema, one step per version (version ``i + 1`` is ``MIGRATIONS[i]``): a new
column or table is a new step at the end, never an edit of an applied one."""
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """``$FECHTBUCH_DB``, else ``fechtbuch/puzzles.sqlite`` in the user's data folder
    (``$XDG_DATA_HOME``, by default ``~/.local/share``)."""
    if os.environ.get(ENVIRONMENT_VARIABLE):
        return Path(os.environ[ENVIRONMENT_VARIABLE])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "fechtbuch" / "puzzles.sqlite"


def refuse_odd_path(path: Path, must_exist: bool, option: str = "--db") -> None:
    """One line naming ``option`` for a path SQLite must not open: a folder, a FIFO or
    device (it would block or fail obscurely), a missing file where one is read."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if must_exist:
            raise InputError(f"{option}: no database at {quote(str(path))}") from None
        return
    except ValueError:
        raise InputError(f"{option}: cannot open {quote(str(path))} (bad file name)") from None
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise InputError(f"{option}: cannot open {quote(str(path))} ({reason})") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{option}: cannot open {quote(str(path))} (it is a folder)")
    if not stat.S_ISREG(mode):
        raise InputError(
            f"{option}: cannot open {quote(str(path))} "
            "(not a regular file: a FIFO, device or socket)"
        )


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    uri = f"{path.absolute().as_uri()}?mode={'ro' if readonly else 'rwc'}"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as err:
        raise InputError(f"--db: cannot open {quote(str(path))} ({_reason(err, path)})") from None
    if version > SCHEMA_VERSION:
        conn.close()
        raise InputError(
            f"--db: {quote(str(path))} has schema version {version}, newer than this "
            f"fechtbuch's {SCHEMA_VERSION}: upgrade fechtbuch"
        )
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction (taken at once: no reader can slip a lock in between);
    rolled back on any exception, Ctrl-C included."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Apply the missing steps up to ``target``, each in its own transaction; the
    version reached."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == 0 and target > 0:
        # before the first table: settings that fix the file's layout
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode = DELETE")
    while version < target:
        description, statements = MIGRATIONS[version]
        with transaction(conn):
            if version == 0:
                conn.execute(
                    "CREATE TABLE migrations "
                    "(version INTEGER PRIMARY KEY, description TEXT NOT NULL)"
                )
            for statement in statements:
                conn.execute(statement)
            version += 1
            conn.execute("INSERT INTO migrations VALUES (?, ?)", (version, description))
            conn.execute(f"PRAGMA user_version = {version}")
    return version


class DamagedRow(Exception):
    """A value of one row that cannot be what fechtbuch wrote (a blob that does not
    decompress, text that is not JSON, a number stored as text): the file is damaged.
    ``table``, ``row`` (its id) and ``field`` name the place."""

    def __init__(self, table: str, row: int, field: str, reason: str) -> None:
        super().__init__(f"{table} row {row}: {field}: {reason}")
        self.table, self.row, self.field, self.reason = table, row, field, reason


SQLITE_ERRORS = (sqlite3.Error, DamagedRow)
"""What reading or writing a damaged, locked or read-only file raises."""


def expected_schema() -> set[tuple[str, str, str, str | None]]:
    """``(type, name, table, sql)`` of every table and index a database of this
    fechtbuch holds: the migrations run on an empty database in memory."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(conn)
        return _schema_of(conn)
    finally:
        conn.close()


def _schema_of(conn: sqlite3.Connection) -> set[tuple[str, str, str, str | None]]:
    return {
        tuple(row) for row in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
    }


def schema_problems(conn: sqlite3.Connection) -> list[str]:
    """What makes the file other than a puzzle database of this schema version: the
    ``meta.format`` row, every table, column and index as the migrations make them,
    and the ``migrations`` table; one line each (empty: the schema is whole)."""
    problems = []
    found, expected = _schema_of(conn), expected_schema()
    names = {name: (kind, sql) for kind, name, _table, sql in found}
    for kind, name, _table, _sql in sorted(expected - found, key=lambda e: e[1]):
        if name not in names:
            problems.append(f"{kind} {name}: missing")
        else:
            problems.append(f"{kind} {name}: not as the schema makes it ({quote(names[name][1])})")
    wanted = {name for _kind, name, _table, _sql in expected}
    for kind, name, _table, _sql in sorted(found, key=lambda e: e[1]):
        if name not in wanted:
            problems.append(f"{kind} {name}: not part of the schema")
    if {"meta", "migrations"} <= names.keys() and not problems:
        problems += _meta_problems(conn)
    return problems


def _meta_problems(conn: sqlite3.Connection) -> list[str]:
    problems = []
    formats = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchall()
    if formats != [(FORMAT,)]:
        shown = quote(formats[0][0]) if formats else "no format row"
        problems.append(f"meta: format is {shown}, not {FORMAT!r}")
    steps = conn.execute("SELECT version, description FROM migrations ORDER BY version")
    wanted = [(i + 1, description) for i, (description, _) in enumerate(MIGRATIONS)]
    if steps.fetchall() != wanted:
        problems.append("migrations: the steps listed are not this schema's")
    return problems


def _refuse_foreign(conn: sqlite3.Connection, path: Path, damaged_ok: bool = False) -> None:
    """A one-line error unless the file holds this schema (readers and writers alike:
    a reader would answer from a file it does not understand, a writer damage it).
    ``damaged_ok``: refuse only another program's file (no ``meta.format`` of ours),
    not a damaged one of ours (``db verify`` reports its damage)."""
    try:
        problems = schema_problems(conn)
    except sqlite3.DatabaseError:
        if damaged_ok:
            return
        raise
    if problems and damaged_ok:
        try:
            formats = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchall()
        except sqlite3.DatabaseError:
            return  # the meta table is there but damaged
        if formats == [(FORMAT,)]:
            return
    if problems:
        conn.close()
        raise InputError(f"--db: {quote(str(path))} is not a fechtbuch database ({problems[0]})")


def open_for_writing(path: Path) -> sqlite3.Connection:
    """The database at ``path``, created (with its folder) or migrated as needed; a
    SQLite file of another program (tables but no version, another ``meta.format``)
    is refused before anything is written to it."""
    refuse_odd_path(path, must_exist=False)
    if not path.parent.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            reason = err.strerror or type(err).__name__
            raise InputError(
                f"--db: cannot create the folder of {quote(str(path))} ({reason})"
            ) from None
    conn = _connect(path, readonly=False)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        if version == 0 and tables:
            conn.close()
            raise InputError(
                f"--db: {quote(str(path))} is not a fechtbuch database "
                "(it holds tables of another program)"
            )
        if version > 0:
            formats = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchall()
            if formats != [(FORMAT,)]:
                conn.close()
                raise InputError(
                    f"--db: {quote(str(path))} is not a fechtbuch database (meta: format)"
                )
        migrate(conn)
        _refuse_foreign(conn, path)
    except sqlite3.Error as err:
        conn.close()
        raise InputError(f"--db: cannot write {quote(str(path))} ({_reason(err, path)})") from None
    return conn


def _reason(err: sqlite3.Error, path: Path) -> str:
    """SQLite's error, with what it means where that is not plain."""
    text = str(err)
    journal = Path(f"{path}-journal")
    if "readonly" in text and journal.exists() and journal.stat().st_size > 0:
        return (
            f"{text}: beside it lies {quote(str(journal))}, the journal of a write that did "
            "not finish, or a damaged one; a read-only reader cannot roll it back, the next "
            "write (e.g. 'fechtbuch db mine') does"
        )
    if "readonly" in text:
        return f"{text}: the file or its folder is read-only"
    if "locked" in text:
        return f"{text}: another process kept it busy for {BUSY_TIMEOUT_MS // 1000} s"
    if "malformed database schema" in text:
        return f"{text}: the file is damaged where SQLite keeps its tables"
    if "not a database" in text:
        return f"{text}: not a SQLite file, or its first page is damaged"
    if "malformed" in text:
        return f"{text}: the file is damaged; 'fechtbuch db verify' names the damage"
    return text


def open_for_reading(path: Path, damaged_ok: bool = False) -> sqlite3.Connection:
    """The existing database at ``path``, read only, at the current schema version (an
    older file is refused with the command that migrates it, another program's file
    or one whose tables differ from the schema in one line; with ``damaged_ok`` a file
    of ours whose schema is damaged is opened, for ``db verify`` to report)."""
    refuse_odd_path(path, must_exist=True)
    conn = _connect(path, readonly=True)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as err:
        conn.close()
        raise InputError(f"--db: cannot read {quote(str(path))} ({_reason(err, path)})") from None
    if "puzzles" not in tables or version == 0:
        conn.close()
        raise InputError(f"--db: {quote(str(path))} is not a fechtbuch database (no puzzles table)")
    if version < SCHEMA_VERSION:
        conn.close()
        raise InputError(
            f"--db: {quote(str(path))} has the older schema version {version}; any 'fechtbuch "
            "db mine' on it migrates it"
        )
    try:
        _refuse_foreign(conn, path, damaged_ok)
        if not damaged_ok:
            _refuse_damaged(conn, path)
    except sqlite3.DatabaseError as err:
        conn.close()
        raise InputError(f"--db: cannot read {quote(str(path))} ({_reason(err, path)})") from None
    except InputError:
        conn.close()
        raise
    return conn


def _refuse_damaged(conn: sqlite3.Connection, path: Path) -> None:
    """SQLite's integrity check before any reader answers: a damaged index answers
    queries with wrong rows and counts and no error (a flipped bit in the card-set
    index made ``db stats`` count 17 card sets), so every reader refuses a file that
    fails it, at the price of reading the whole file once."""
    first = conn.execute("PRAGMA integrity_check(1)").fetchone()[0]
    if first != "ok":
        raise InputError(
            f"--db: {quote(str(path))} is damaged (SQLite's integrity check: "
            f"{quote(first, 120)}); 'fechtbuch db verify' lists the damage"
        )


def damage_error(path: Path, err: Exception) -> InputError:
    """The one line of a reader or writer that met damage in the file: SQLite's error
    or a :class:`DamagedRow`, naming the file (and the row and field)."""
    if isinstance(err, DamagedRow):
        return InputError(
            f"--db: {quote(str(path))} is damaged: {err}; 'fechtbuch db verify' lists the damage"
        )
    return InputError(f"--db: cannot use {quote(str(path))} ({_reason(err, path)})")


@contextmanager
def reading(path: Path, damaged_ok: bool = False) -> Iterator[sqlite3.Connection]:
    """:func:`open_for_reading` for a ``with`` block that turns damage met while
    reading into one line naming the file (and closes the connection)."""
    conn = open_for_reading(path, damaged_ok)
    try:
        yield conn
    except SQLITE_ERRORS as err:
        raise damage_error(path, err) from None
    finally:
        conn.close()
