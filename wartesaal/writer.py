"""The room's writing calls on SQLite, run in batches by one thread of their own.

A request that changes the room (an action, an offer, a challenge, ...) is a call of
:class:`~fechtbuch.wartesaal.room.Room` that touches the database, so it cannot run
on the event loop.  Handing each call to a worker thread of its own cost more than the
call (waking a thread, waking the loop again with the answer), so the calls that
arrive in one iteration of the loop, and all those that arrive while a batch is being
committed, go to the writer thread together: it runs them one after the other, each in
a savepoint of one transaction (``GroupCommit.holding``: a refused call leaves the
others' changes), commits the batch with one fsync and hands every answer back to the
loop at once.  So every call is answered only after its batch is on disk, as with a
transaction of its own; a failed commit fails every call of the batch (each client is
told ``database: the change was not stored (...); try again``).

PostgreSQL has no writer thread: a batch there would lock the rows of many tables in
one transaction, in an order other processes do not share; its calls run on worker
threads, one transaction each (``app.Hall.write``).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any

from fechtbuch.wartesaal.groupcommit import MOST_PER_BATCH
from fechtbuch.wartesaal.store import BatchBroken, Store
from fechtbuch.wartesaal.table import RoomError

Call = Callable[[], Any]


class Writer:
    """One thread that runs the room's writing calls in batches (SQLite)."""

    def __init__(self, store: Store, most: int = MOST_PER_BATCH) -> None:
        if store.group is None:
            raise ValueError("the writer thread serves SQLite's group commit")
        self.store = store
        self.most = most
        """Calls in one batch at most (the rest wait for the next)."""
        self.pending: list[tuple[Call, asyncio.Future]] = []
        self.busy = False
        """A batch is with the thread: the calls that arrive meanwhile wait for it."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.batches = 0
        """Batches run: with ``calls`` the size of the batches."""
        self.calls = 0

    async def run(self, call: Call) -> Any:
        """``call()`` on the writer thread, in the next batch; its answer once the
        batch is committed, or its error (a refusal, or the commit's)."""
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # the first call, or the room runs on a new loop
            self.stop()
            self._start(loop)
        future = loop.create_future()
        self.pending.append((call, future))
        if not self.busy and len(self.pending) == 1:
            # the calls that arrive in this iteration of the loop join this one
            loop.call_soon(self._send)
        return await future

    def stop(self) -> None:
        """End the thread once the batch it runs is done."""
        if self.thread is not None:
            self.inbox.put(None)
            self.thread.join(10)
            self.thread = None
        self.loop = None
        self.busy = False
        self.pending = []  # their loop is gone: nobody waits for them

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread = threading.Thread(target=self._serve, name="wartesaal-writer", daemon=True)
        self.thread.start()

    def _send(self) -> None:
        if self.busy or not self.pending:
            return
        batch, self.pending = self.pending[: self.most], self.pending[self.most :]
        self.busy = True
        self.inbox.put(batch)

    def _done(self, batch: list[tuple[Call, asyncio.Future]], outcomes: list) -> None:
        """On the loop: answer every call of a committed (or failed) batch, and send
        the calls that arrived meanwhile."""
        self.busy = False
        for (_call, future), (ok, value) in zip(batch, outcomes, strict=True):
            if future.done():  # its connection closed meanwhile
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._send()

    def _serve(self) -> None:
        while True:
            batch = self.inbox.get()
            if batch is None:
                return
            outcomes = self.run_batch([call for call, _future in batch])
            try:
                self.loop.call_soon_threadsafe(self._done, batch, outcomes)
            except RuntimeError:  # the loop closed: nobody waits for the answers
                return

    def run_batch(self, calls: list[Call]) -> list[tuple[bool, Any]]:
        """Run ``calls`` in one transaction, each in a savepoint, and commit it; per
        call ``(True, answer)`` or ``(False, error)``.  If the commit fails, every call
        fails with its error: nothing of the batch is on disk."""
        outcomes: list[tuple[bool, Any]] = []
        try:
            with self.store.group.holding():
                for call in calls:
                    try:
                        outcomes.append((True, call()))
                    except BatchBroken:
                        raise
                    except Exception as error:  # a refusal: its savepoint is rolled back
                        outcomes.append((False, error))
        except Exception as error:
            print(f"wartesaal: a batch of {len(calls)} writes failed: {error!r}", flush=True)
            failed = RoomError(f"database: the change was not stored ({_reason(error)}); try again")
            return [(False, failed)] * len(calls)
        self.batches += 1
        self.calls += len(calls)
        return outcomes


def _reason(error: BaseException) -> str:
    """The first line of a database error, short (what the client is told)."""
    orig = getattr(error, "orig", None)
    text = str(orig if orig is not None else error).splitlines()
    return (text[0] if text else type(error).__name__)[:120]
