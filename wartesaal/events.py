"""Room events across server processes.

An event is a small JSON object (``{"kind": "table", "id": ..., "version": ...}``,
``{"kind": "challenges"}``, ``{"kind": "ranking"}``) that says *what* changed, never
the change itself: every process reads the new state from the database and builds
each of its clients' views there, so no hidden card travels through the channel.  (A
table event may carry a ``snapshot``, the committed table, to the listeners of the
process that made the change, which then need not read it back; it never leaves that
process.)

* SQLite (one process): the store hands the events of a transaction to its
  listeners after the commit (:class:`LocalEvents`).
* PostgreSQL (any number of processes): the transaction calls ``pg_notify``, which
  PostgreSQL delivers to every listening session when, and only if, the transaction
  commits; :class:`PostgresEvents` is one ``LISTEN`` session per process, on a
  thread of its own.  When that session drops (a restarted or failed-over database, a
  cut connection, an administrator's ``pg_terminate_backend``) it connects again,
  waiting a little longer after each failure, and then delivers ``{"kind": "resync"}``:
  the notifications sent while it was away are lost, so the process reads again
  every table its clients see and the challenges.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

from fechtbuch.wartesaal.store import CHANNEL, Store


class LocalEvents:
    """The store's own post-commit events (SQLite), a committed group's at once."""

    def __init__(self, store: Store, deliver: Callable[[list[dict]], None]) -> None:
        self.store, self.deliver = store, deliver

    def start(self) -> None:
        self.store.listeners.append(self.deliver)

    def stop(self) -> None:
        if self.deliver in self.store.listeners:
            self.store.listeners.remove(self.deliver)


LISTENER_NAME = "wartesaal-listen"
"""The LISTEN session's ``application_name`` (``pg_stat_activity`` shows it)."""
RESYNC = {"kind": "resync"}
"""Delivered after the LISTEN session came back: events may have been missed."""
RECONNECT_FIRST_SECONDS = 0.2
RECONNECT_MOST_SECONDS = 5.0
"""The wait before connecting again doubles after each failure, up to this."""


class PostgresEvents:
    """``LISTEN wartesaal`` on a thread; each notification is passed to ``deliver``
    (as a list of one)."""

    def __init__(self, store: Store, deliver: Callable[[list[dict]], None]) -> None:
        self.url = store.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        self.deliver = deliver
        self.ready = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="wartesaal-listen", daemon=True)
        self.reconnects = 0
        """How often the LISTEN session came back after it dropped."""

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("database: the LISTEN session did not start within 10 s")

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)

    def _run(self) -> None:
        import psycopg

        wait = RECONNECT_FIRST_SECONDS
        dropped = False
        while not self.stopping.is_set():
            try:
                # keepalives notice a silently cut TCP connection (a Unix socket needs none)
                with psycopg.connect(
                    self.url,
                    autocommit=True,
                    application_name=LISTENER_NAME,
                    keepalives=1,
                    keepalives_idle=10,
                    keepalives_interval=5,
                    keepalives_count=3,
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    wait = RECONNECT_FIRST_SECONDS
                    if dropped:
                        dropped = False
                        self.reconnects += 1
                        self.deliver([dict(RESYNC)])
                    while not self.stopping.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self.deliver([json.loads(note.payload)])
            except psycopg.Error as err:
                dropped = True
                print(f"wartesaal: the LISTEN session dropped ({err}); again in {wait:.1f} s")
                self.stopping.wait(wait)
                wait = min(2 * wait, RECONNECT_MOST_SECONDS)


def events_for(store: Store, deliver: Callable[[list[dict]], None]):
    """The event source that fits the store's database; ``deliver`` is given lists of
    events, in order."""
    return PostgresEvents(store, deliver) if store.postgres else LocalEvents(store, deliver)
