"""Storage of the room through SQLAlchemy Core: SQLite (WAL) by default, PostgreSQL
by URL.

Every change runs in one :meth:`Store.transaction`: the room loads what it changes
(a table row ``FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` takes the
database's write lock at the start), changes it and commits before anything is
acknowledged.  SQLite runs with ``synchronous=FULL`` (an fsync per commit; the
transactions that queue during one commit are committed together, ``groupcommit.py``),
so a committed action survives a killed process and a lost machine alike;
``sqlite:///FILE?synchronous=normal`` trades the lost machine for far more commits
per second (WAL writes reach the operating system before the commit returns, so a
killed process still loses nothing).

Room events (a table or the list of challenges changed) are collected in the
transaction: on PostgreSQL they are ``pg_notify`` calls in it, so they reach every
server process listening on the channel exactly when the change commits; on SQLite
(one process) they go to the process's own listeners after the commit.

A table is stored as one JSON document (``tables.data``, the fields of
:class:`~fechtbuch.wartesaal.table.Table`) beside its action log (``actions``: one
row per accepted action with the full states before and after, which never leave
the server).  ``meta`` holds the schema version and the room's heartbeat.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import orjson
import sqlalchemy as sa
from fechtbuch.engines.errors import InputError
from fechtbuch.wartesaal.groupcommit import GroupCommit
from fechtbuch.wartesaal.table import RUNNING, Entry, Table

SCHEMA_VERSION = 1
"""Raised when a stored column changes meaning; an older database is refused."""
CHANNEL = "wartesaal"
"""The PostgreSQL NOTIFY channel of room events."""

metadata = sa.MetaData()
meta = sa.Table(
    "meta",
    metadata,
    sa.Column("key", sa.String(40), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("name", sa.String(40), primary_key=True),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("elo", sa.Float, nullable=False),
    sa.Column("taler", sa.Integer, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)
challenges = sa.Table(
    "challenges",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("creator", sa.String(40), nullable=False),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("clock_seconds", sa.Float, nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("stake", sa.Integer, nullable=False),
    sa.Column("seats", sa.Integer, nullable=False),
    sa.Column("joined", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
)
tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("data", sa.Text, nullable=False),
    # derived from ``data`` on every write, so that the tick, presence and the room's
    # lists find their few tables without reading every table's document
    sa.Column("due", sa.Float, nullable=True),
    sa.Column("moment", sa.Float, nullable=True),
    sa.Column("seating", sa.Text, nullable=True),
    sa.Index("tables_by_due", "status", "due"),
    sa.Index("tables_by_moment", "status", "moment"),
)
"""A table's document and what the room looks tables up by: ``due``, the first moment
time can change it (:meth:`Table.next_check`); ``moment``, when it started (running)
or ended; ``seating``, its seat names and the seats away (JSON)."""
DERIVED = ("due", "moment", "seating")
"""The columns of ``tables`` that an older database gains when a server opens it."""
actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("before", sa.Text, nullable=False),
    sa.Column("after", sa.Text, nullable=False),
    sa.Column("unit", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


presence = sa.Table(
    "presence",
    metadata,
    sa.Column("process", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(40), primary_key=True),
    sa.Column("seen", sa.Float, nullable=False),
)
"""Who has a connection open on which server process, refreshed by that process's
tick: a name is online while one of its rows is fresh."""

revoked = sa.Table(
    "revoked",
    metadata,
    sa.Column("session", sa.String(32), primary_key=True),
    sa.Column("expires", sa.Float, nullable=False, index=True),
)
"""Sessions ended by logging out, until their token would have expired anyway (an
older database gains this table when a server opens it)."""


class BatchBroken(RuntimeError):
    """The held batch's transaction ended before its commit: nothing more runs in it."""


def table_to_json(table: Table) -> str:
    """The table's document (orjson: ``dataclasses.asdict`` and the json module cost
    more than the rest of saving a table; seat numbers as keys become strings)."""
    return orjson.dumps(table, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def derived(table: Table) -> dict:
    """The looked-up columns of ``table``'s row (see :data:`tables`)."""
    return {
        "due": table.next_check(),
        "moment": table.started_at if table.finished_at is None else table.finished_at,
        "seating": json.dumps([table.seats, sorted(table.away)]),
    }


def table_from_json(text: str) -> Table:
    data = orjson.loads(text)
    data["away"] = {int(seat): since for seat, since in data["away"].items()}
    return Table(**data)


class Tx:
    """One open transaction: the reads and writes the room needs.

    On SQLite the statements of every action (a table's document, its log) go to the
    driver's connection as SQL text: building them with SQLAlchemy's expressions cost
    ten to fifty times more than SQLite took to run them."""

    def __init__(self, conn: sa.Connection, postgres: bool) -> None:
        self.conn = conn
        self.postgres = postgres
        self.raw = None if postgres else conn.connection.driver_connection
        """SQLite: the driver's connection, in the same transaction as ``conn``."""
        self.events: list[dict] = []
        self.last: dict[str, Entry | None] = {}
        """Per table: the last log entry as this transaction left it, where known (an
        entry added here is the last: it need not be read back)."""

    # ---- events ---------------------------------------------------------------------
    def notify(self, event: dict, snapshot: object = None) -> None:
        """Announce ``event`` to every server process when this transaction commits.
        ``snapshot``: what the change left (a table and its last action), handed to this
        process's own listeners as the event's ``snapshot`` so that they need not read
        it back; it never leaves the process (on PostgreSQL the other processes read)."""
        if self.postgres:
            self.conn.execute(
                sa.select(sa.func.pg_notify(CHANNEL, json.dumps(event, sort_keys=True)))
            )
        else:
            self.events.append(event if snapshot is None else event | {"snapshot": snapshot})

    # ---- meta -----------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        return self.conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar()

    def set_meta(self, key: str, value: str) -> None:
        if self.get_meta(key) is None:
            self.conn.execute(meta.insert().values(key=key, value=value))
        else:
            self.conn.execute(meta.update().where(meta.c.key == key).values(value=value))

    # ---- accounts -------------------------------------------------------------------
    def account(self, name: str, lock: bool = False) -> dict | None:
        query = sa.select(accounts).where(accounts.c.name == name)
        row = self.conn.execute(query.with_for_update() if lock else query).mappings().first()
        return dict(row) if row else None

    def add_account(self, row: dict) -> None:
        self.conn.execute(accounts.insert().values(**row))

    def update_account(self, name: str, **values) -> None:
        self.conn.execute(accounts.update().where(accounts.c.name == name).values(**values))

    def ranking(self, limit: int) -> list[dict]:
        query = sa.select(accounts.c.name, accounts.c.points, accounts.c.elo, accounts.c.games)
        query = query.order_by(accounts.c.points.desc(), accounts.c.name).limit(limit)
        return [dict(r) for r in self.conn.execute(query).mappings()]

    # ---- challenges -----------------------------------------------------------------
    def add_challenge(self, row: dict) -> None:
        self.conn.execute(challenges.insert().values(**row))

    def challenge(self, challenge_id: str, lock: bool = False) -> dict | None:
        query = sa.select(challenges).where(challenges.c.id == challenge_id)
        row = self.conn.execute(query.with_for_update() if lock else query).mappings().first()
        return dict(row) if row else None

    def update_challenge(self, challenge_id: str, **values) -> None:
        self.conn.execute(
            challenges.update().where(challenges.c.id == challenge_id).values(**values)
        )

    def open_challenges(self) -> list[dict]:
        query = sa.select(challenges).where(challenges.c.status == "open")
        return [dict(r) for r in self.conn.execute(query.order_by(challenges.c.created)).mappings()]

    # ---- tables ---------------------------------------------------------------------
    def table(self, table_id: str, lock: bool = False) -> Table | None:
        if self.raw is not None:  # SQLite: the write transaction holds the lock already
            row = self.raw.execute("SELECT data FROM tables WHERE id = ?", (table_id,)).fetchone()
            data = None if row is None else row[0]
        else:
            query = sa.select(tables.c.data).where(tables.c.id == table_id)
            data = self.conn.execute(query.with_for_update() if lock else query).scalar()
        return None if data is None else table_from_json(data)

    def add_table(self, table: Table) -> None:
        self.conn.execute(
            tables.insert().values(
                id=table.id, status=table.status, data=table_to_json(table), **derived(table)
            )
        )

    def save_table(self, table: Table) -> None:
        values = derived(table)
        if self.raw is not None:
            self.raw.execute(
                "UPDATE tables SET status = ?, data = ?, due = ?, moment = ?, seating = ?"
                " WHERE id = ?",
                (
                    table.status,
                    table_to_json(table),
                    values["due"],
                    values["moment"],
                    values["seating"],
                    table.id,
                ),
            )
            return
        self.conn.execute(
            tables.update()
            .where(tables.c.id == table.id)
            .values(status=table.status, data=table_to_json(table), **values)
        )

    def table_ids(self, status: str | None = None) -> list[str]:
        query = sa.select(tables.c.id).order_by(tables.c.id)
        if status is not None:
            query = query.where(tables.c.status == status)
        return list(self.conn.execute(query).scalars())

    def due_table_ids(self, now: float) -> list[str]:
        """The running tables whose time may have changed them by ``now``."""
        query = sa.select(tables.c.id).where(tables.c.status == RUNNING, tables.c.due <= now)
        return list(self.conn.execute(query.order_by(tables.c.id)).scalars())

    def seating(self, status: str = RUNNING) -> list[tuple[str, list[str], set[int]]]:
        """Every table of ``status`` as (id, seat names, seats away), without reading
        the tables' documents."""
        query = sa.select(tables.c.id, tables.c.seating).where(tables.c.status == status)
        found = []
        for table_id, seating in self.conn.execute(query.order_by(tables.c.id)):
            seats, away = json.loads(seating)
            found.append((table_id, seats, set(away)))
        return found

    def latest_tables(self, status: str, limit: int | None) -> list[Table]:
        """The ``limit`` tables of ``status`` that started (running) or ended last, the
        latest first."""
        query = sa.select(tables.c.data).where(tables.c.status == status)
        query = query.order_by(tables.c.moment.desc(), tables.c.id).limit(limit)
        return [table_from_json(data) for data in self.conn.execute(query).scalars()]

    # ---- presence -------------------------------------------------------------------
    def connect(self, process: str, name: str, now: float) -> None:
        done = self.conn.execute(
            presence.update()
            .where(presence.c.process == process, presence.c.name == name)
            .values(seen=now)
        )
        if done.rowcount == 0:
            self.conn.execute(presence.insert().values(process=process, name=name, seen=now))

    def disconnect(self, process: str, name: str) -> None:
        self.conn.execute(
            presence.delete().where(presence.c.process == process, presence.c.name == name)
        )

    def refresh(self, process: str, now: float, forget_before: float) -> None:
        """Stamp this process's rows; forget rows of processes long gone."""
        self.conn.execute(presence.update().where(presence.c.process == process).values(seen=now))
        self.conn.execute(presence.delete().where(presence.c.seen < forget_before))

    def online(self, fresh_since: float) -> set[str]:
        query = sa.select(presence.c.name).where(presence.c.seen >= fresh_since).distinct()
        return set(self.conn.execute(query).scalars())

    # ---- sessions ended before their time --------------------------------------------
    def revoke(self, session: str, expires: float, now: float) -> None:
        self.conn.execute(revoked.delete().where(revoked.c.expires < now))
        if not self.revoked(session):
            self.conn.execute(revoked.insert().values(session=session, expires=expires))

    def revoked(self, session: str) -> bool:
        query = sa.select(revoked.c.session).where(revoked.c.session == session)
        return self.conn.execute(query).first() is not None

    # ---- the action log -------------------------------------------------------------
    def add_entry(self, table_id: str, entry: Entry) -> None:
        if self.raw is not None:
            self.raw.execute(
                f"INSERT INTO actions (table_id, {ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, entry.number, entry.seat, entry.text, entry.before, entry.after)
                + (entry.unit, entry.at),
            )
        else:
            self.conn.execute(
                actions.insert().values(table_id=table_id, **dataclasses.asdict(entry))
            )
        self.last[table_id] = entry

    def delete_entry(self, table_id: str, number: int) -> None:
        self.conn.execute(
            actions.delete().where(actions.c.table_id == table_id, actions.c.number == number)
        )
        self.last.pop(table_id, None)

    def entry(self, table_id: str, number: int) -> Entry | None:
        if self.raw is not None:
            row = self.raw.execute(
                f"SELECT {ENTRY_COLUMNS} FROM actions WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
            return None if row is None else Entry(*row)
        query = sa.select(actions).where(actions.c.table_id == table_id, actions.c.number == number)
        row = self.conn.execute(query).mappings().first()
        return None if row is None else _entry(row)

    def last_entry(self, table_id: str) -> Entry | None:
        if table_id in self.last:
            return self.last[table_id]
        if self.raw is not None:
            row = self.raw.execute(
                f"SELECT {ENTRY_COLUMNS} FROM actions WHERE table_id = ?"
                " ORDER BY number DESC LIMIT 1",
                (table_id,),
            ).fetchone()
            found = None if row is None else Entry(*row)
        else:
            query = (
                sa.select(actions)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.number.desc())
                .limit(1)
            )
            row = self.conn.execute(query).mappings().first()
            found = None if row is None else _entry(row)
        self.last[table_id] = found
        return found

    def entries(self, table_id: str) -> list[Entry]:
        query = sa.select(actions).where(actions.c.table_id == table_id)
        return [_entry(r) for r in self.conn.execute(query.order_by(actions.c.number)).mappings()]


ENTRY_COLUMNS = "number, seat, text, before, after, unit, at"
"""The columns of ``actions`` that make an :class:`Entry`, in its fields' order."""


def _entry(row) -> Entry:
    return Entry(**{k: row[k] for k in ("number", "seat", "text", "before", "after", "unit", "at")})


class Store:
    """The room's database: ``sqlite:///file`` (the default) or ``postgresql://...``."""

    def __init__(self, url: str) -> None:
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        try:
            parsed = sa.engine.make_url(url)
        except sa.exc.ArgumentError:
            raise InputError(f"database: not a database URL: {url[:200]!r}") from None
        self.url = url
        self.postgres = parsed.get_backend_name() == "postgresql"
        if not self.postgres and parsed.get_backend_name() != "sqlite":
            raise InputError(f"database: expected sqlite:/// or postgresql://, got {url[:200]!r}")
        if self.postgres:
            self.engine = sa.create_engine(url, pool_size=5, max_overflow=10)
            self.reader = self.engine
        else:
            if parsed.database in (None, "", ":memory:"):
                raise InputError("database: SQLite needs a file (sqlite:///PATH)")
            synchronous = parsed.query.get("synchronous", "full").upper()
            if synchronous not in ("FULL", "NORMAL"):
                raise InputError("database: synchronous= must be full or normal")
            parsed = parsed.difference_update_query(["synchronous"])
            # pooled: opening a connection (and setting its pragmas) cost more than the
            # reads and writes of an action; the writer needs one, the readers a few
            threads = {"check_same_thread": False}
            self.engine = sa.create_engine(
                parsed, pool_size=1, max_overflow=1, connect_args=threads
            )
            self.reader = sa.create_engine(
                parsed, pool_size=8, max_overflow=56, connect_args=threads
            )
            _sqlite_pragmas(self.engine, synchronous, immediate=True)
            _sqlite_pragmas(self.reader, synchronous, immediate=False)
        self.listeners: list[Callable[[list[dict]], None]] = []
        """Called with the events of each committed group (SQLite), in commit order."""
        # SQLite has one writer at a time (and lets the others retry with growing sleeps,
        # which starves some for seconds under load): the writers queue for their turn
        # and those that queued during one commit are committed together
        self.group = None if self.postgres else GroupCommit(self.engine, self._deliver)
        try:
            self._create()
        except sa.exc.DBAPIError as err:
            reason = str(err.orig).splitlines()[0][:200] if err.orig else type(err).__name__
            raise InputError(f"database: cannot open {url[:200]!r} ({reason})") from None

    def _create(self) -> None:
        with self.transaction() as tx:
            metadata.create_all(tx.conn)
            _add_derived_columns(tx)
            stored = tx.get_meta("schema_version")
            if stored is None:
                tx.set_meta("schema_version", str(SCHEMA_VERSION))
            elif stored != str(SCHEMA_VERSION):
                raise InputError(
                    f"database: schema version {stored}, this server needs {SCHEMA_VERSION}"
                )

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """A write transaction, committed when the block ends without an exception;
        the SQLite events go to :attr:`listeners` after the commit.  On SQLite the
        block runs in a savepoint of a group commit (``groupcommit.py``): it returns
        once the group is on disk; a block that raises leaves the others' changes.
        PostgreSQL groups the commits of concurrent transactions itself."""
        if self.group is None:
            with self.engine.begin() as conn:
                yield Tx(conn, self.postgres)
            return
        held = self.group.held()
        if held is not None:
            yield from _held_savepoint(held)
            return
        batch, savepoint = self.group.enter()
        tx = Tx(batch.conn, self.postgres)
        try:
            yield tx
        except BaseException:
            self.group.leave(batch, savepoint, failed=True)
            raise
        self.group.leave(batch, savepoint, failed=False, events=tx.events)

    def _deliver(self, events: list[dict]) -> None:
        """A committed group's events, in the order its blocks ran, to each listener
        as one list (called by the thread that committed it, before the next group
        commits: so two events of one table never reach the listeners out of order,
        even with equal versions; one list, so that a listener on an event loop wakes
        it once per group)."""
        for listener in list(self.listeners):
            listener(events)

    @contextmanager
    def read(self) -> Iterator[Tx]:
        """A read-only transaction (it takes no write lock on SQLite)."""
        with self.reader.connect() as conn:
            yield Tx(conn, self.postgres)
            conn.rollback()

    def dispose(self) -> None:
        self.engine.dispose()
        if self.reader is not self.engine:
            self.reader.dispose()


def _held_savepoint(batch) -> Iterator[Tx]:
    """A transaction of the thread that holds ``batch`` (``GroupCommit.try_hold``): a
    savepoint of it, set on the driver's connection (SQLAlchemy's own savepoints cost
    more than the statements of an action); the events join the batch's."""
    raw = batch.conn.connection.driver_connection
    if not raw.in_transaction:
        # SQLite rolled the batch back on an error (a full disk, say): a savepoint now
        # would open a transaction of its own, and its release would commit it alone
        raise BatchBroken("database: the batch's transaction ended early")
    raw.execute("SAVEPOINT held")
    tx = Tx(batch.conn, postgres=False)
    try:
        yield tx
    except BaseException:
        raw.execute("ROLLBACK TO held")
        raw.execute("RELEASE held")
        raise
    raw.execute("RELEASE held")
    batch.members += 1
    batch.events.extend(tx.events)


def _add_derived_columns(tx: Tx) -> None:
    """An older database's ``tables`` gains the looked-up columns, filled from each
    table's document (``create_all`` adds tables, never columns)."""
    present = {column["name"] for column in sa.inspect(tx.conn).get_columns("tables")}
    missing = [name for name in DERIVED if name not in present]
    if not missing:
        return
    for name in missing:
        kind = "TEXT" if name == "seating" else ("DOUBLE PRECISION" if tx.postgres else "REAL")
        tx.conn.exec_driver_sql(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
    rows = tx.conn.execute(sa.select(tables.c.id, tables.c.data)).all()
    for table_id, data in rows:
        tx.conn.execute(
            tables.update().where(tables.c.id == table_id).values(**derived(table_from_json(data)))
        )
    for index in tables.indexes:
        index.create(tx.conn, checkfirst=True)


def _sqlite_pragmas(engine: sa.Engine, synchronous: str, immediate: bool) -> None:
    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's events issue BEGIN
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def now() -> float:
    """Wall-clock seconds: tables and clocks are stored in these."""
    return time.time()
