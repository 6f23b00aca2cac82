"""The room's writing calls on SQLite, run in batches with one commit each.

A request that changes the room (an action, an offer, a challenge, ...) is a call of
:class:`~fechtbuch.wartesaal.room.Room` that writes to the database.  Handing each call
to a worker thread of its own cost more than the call (waking a thread, waking the
loop again with the answer), and so did a thread that ran the calls in batches: it
and the event loop took turns at the interpreter's lock after every SQLite statement.
So the calls that arrive in one iteration of the loop, and all that arrive while a
batch is being committed, form the next batch, and the loop runs them itself, one
after the other, each in a savepoint of one transaction (``GroupCommit.try_hold``: a
refused call leaves the others' changes; SQLite's statements take microseconds).  Only
the commit, which waits for an fsync, goes to the store thread: one hand-over per
batch, and one back with every answer.  So every call is answered only after its batch
is on disk, as with a transaction of its own; a failed commit fails every call of the
batch (each client is told ``database: the change was not stored (...); try again``).

The loop never waits for the writer's turn: when a worker thread has it (presence,
the tick), the batch is tried again a moment later.

PostgreSQL has no writer: a batch there would lock the rows of many tables in one
transaction, in an order other processes do not share; its calls run on worker
threads, one transaction each (``app.Hall.write``).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any

from fechtbuch.wartesaal.store import BatchBroken, Store
from fechtbuch.wartesaal.table import RoomError

Call = Callable[[], Any]
MOST_PER_BATCH = 64
"""Calls in one batch at most (the rest wait for the next): the loop runs a batch in one
go, so this bounds how long it is held up (tens of milliseconds)."""
TURN_RETRY_SECONDS = 0.002
"""How soon a batch is tried again while a worker thread has the writer's turn."""


class Writer:
    """The room's writing calls on SQLite: run by the loop in batches, each batch
    committed by the store thread."""

    def __init__(self, store: Store, most: int = MOST_PER_BATCH) -> None:
        if store.group is None:
            raise ValueError("the writer serves SQLite's group commit")
        self.store = store
        self.most = most
        self.pending: list[tuple[Call, asyncio.Future]] = []
        self.busy = False
        """A batch is being committed: the calls that arrive meanwhile wait for it."""
        self.retrying = False
        """A try again is scheduled (a worker thread had the writer's turn)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.batches = 0
        """Batches committed: with ``calls`` the size of the batches."""
        self.calls = 0

    async def run(self, call: Call) -> Any:
        """``call()`` in the next batch; its answer once the batch is committed, or
        its error (a refusal, or the commit's)."""
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # the first call, or the room runs on a new loop
            self.stop()
            self._start(loop)
        future = loop.create_future()
        self.pending.append((call, future))
        if not self.busy and not self.retrying and len(self.pending) == 1:
            # the calls that arrive in this iteration of the loop join this one
            loop.call_soon(self._send)
        return await future

    def stop(self) -> None:
        """End the store thread once the commit it makes is done."""
        if self.thread is not None:
            self.inbox.put(None)
            self.thread.join(10)
            self.thread = None
        self.loop = None
        self.busy = self.retrying = False
        self.pending = []  # their loop is gone: nobody waits for them

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread = threading.Thread(target=self._serve, name="wartesaal-writer", daemon=True)
        self.thread.start()

    def _retry(self) -> None:
        self.retrying = False
        self._send()

    def _send(self) -> None:
        """On the loop: run the next batch and hand its commit to the store thread."""
        if self.busy or self.retrying or not self.pending:
            return
        group = self.store.group
        batch = group.try_hold()
        if batch is None:  # a worker thread has the turn: never wait for it here
            self.retrying = True
            self.loop.call_later(TURN_RETRY_SECONDS, self._retry)
            return
        calls, self.pending = self.pending[: self.most], self.pending[self.most :]
        self.busy = True
        outcomes: list[tuple[bool, Any]] = []
        try:
            for call, _future in calls:
                try:
                    outcomes.append((True, call()))
                except BatchBroken:
                    raise
                except Exception as error:  # a refusal: its savepoint is rolled back
                    outcomes.append((False, error))
        except BaseException as error:  # the batch broke: nothing of it is stored
            group.abandon(batch, error)
            self._done(calls, _failed(len(calls), error))
            if not isinstance(error, Exception):
                raise
            return
        self.inbox.put((calls, outcomes, batch))

    def _serve(self) -> None:
        """The store thread: commit each batch the loop ran, then answer its calls."""
        while True:
            work = self.inbox.get()
            if work is None:
                return
            calls, outcomes, batch = work
            try:
                self.store.group.hand_on(batch)
            except Exception as error:
                outcomes = _failed(len(calls), error)
            else:
                self.batches += 1
                self.calls += len(calls)
            try:
                self.loop.call_soon_threadsafe(self._done, calls, outcomes)
            except RuntimeError:  # the loop closed: nobody waits for the answers
                return

    def _done(self, calls: list[tuple[Call, asyncio.Future]], outcomes: list) -> None:
        """On the loop: answer every call of a committed (or failed) batch, and run
        the calls that arrived meanwhile."""
        self.busy = False
        for (_call, future), (ok, value) in zip(calls, outcomes, strict=True):
            if future.done():  # its connection closed meanwhile
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._send()


def _failed(count: int, error: BaseException) -> list[tuple[bool, RoomError]]:
    """Every call of a batch that was not stored fails, with the reason."""
    print(f"wartesaal: a batch of {count} writes failed: {error!r}", flush=True)
    failed = RoomError(f"database: the change was not stored ({_reason(error)}); try again")
    return [(False, failed)] * count


def _reason(error: BaseException) -> str:
    """The first line of a database error, short (what the client is told)."""
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error).splitlines()
    return (text[0] if text else type(error).__name__)[:120]
