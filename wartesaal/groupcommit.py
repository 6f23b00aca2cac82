"""Group commit for SQLite: the write transactions that queue while one is being made
durable are run together, each in its own savepoint, and committed with one fsync.

SQLite has one writer, and with ``synchronous=FULL`` every commit waits for an fsync
(several milliseconds on most disks), so one transaction per action caps the room at a
few hundred actions a second however little each action costs.  Here a thread that
wants to write takes the writer's turn (:meth:`GroupCommit.enter`), runs its block in a
savepoint of the open batch and gives the turn back (:meth:`GroupCommit.leave`); the
last of the threads that were queued when the turn came round commits the whole batch.
Every thread waits for the commit of its own batch before it returns, so nothing is
acknowledged before it is on disk, as with a transaction of its own.

A block that raises rolls back to its savepoint: what the others of its batch changed
stays.  A failed commit fails every member of the batch.

The event loop also holds the writer's turn for a run of blocks (the room's batches of
``writer.py``): it takes the turn only when it is free (:meth:`GroupCommit.try_hold`:
a loop must not wait for a thread's commit), every transaction it opens meanwhile is a
savepoint of the held batch, and another thread commits the batch
(:meth:`GroupCommit.hand_on`, with the threads that queued meanwhile, as above).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlalchemy as sa

MOST_PER_BATCH = 256
"""Blocks in one batch at most, so that a steady stream of writers still commits."""


@dataclass
class Batch:
    """One open write transaction shared by several blocks."""

    conn: sa.Connection
    members: int = 0
    events: list = field(default_factory=list)
    """What the members announce, in the order they ran; delivered after the commit."""
    committed: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None
    holder: int | None = None
    """The thread that holds this batch for a run of blocks (:meth:`GroupCommit.try_hold`)."""


class FairLock:
    """A lock that hands the turn to the threads in the order they asked for it
    (:class:`threading.Lock` lets a thread that just released it take it again, which
    starves others for seconds under load).  ``waiting`` counts the threads queued."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held = False
        self._queue: deque[threading.Event] = deque()

    @property
    def waiting(self) -> int:
        with self._guard:
            return len(self._queue)

    def try_acquire(self) -> bool:
        """Take the lock if nobody holds it (and so nobody waits for it)."""
        with self._guard:
            if self._held:
                return False
            self._held = True
            return True

    def acquire(self) -> None:
        with self._guard:
            if not self._held:
                self._held = True
                return
            turn = threading.Event()
            self._queue.append(turn)
        turn.wait()  # release() hands the lock over: _held stays True

    def release(self) -> None:
        with self._guard:
            if self._queue:
                self._queue.popleft().set()
            else:
                self._held = False


class GroupCommit:
    """The writer of one SQLite database (an engine whose transactions begin with
    ``BEGIN IMMEDIATE``)."""

    def __init__(
        self,
        engine: sa.Engine,
        deliver: Callable[[list], None] | None = None,
        most: int = MOST_PER_BATCH,
    ) -> None:
        self.engine = engine
        self.deliver = deliver
        """Called with a committed batch's events by the committing thread, before it
        gives the writer's turn on."""
        self.most = most
        self.turn = FairLock()
        self.batch: Batch | None = None
        self.commits = 0
        """Batches committed: with ``blocks`` the size of the groups."""
        self.blocks = 0

    def held(self) -> Batch | None:
        """The batch this thread holds (:meth:`try_hold`), if it holds one."""
        batch = self.batch
        if batch is not None and batch.holder == threading.get_ident():
            return batch
        return None

    def _open(self) -> Batch:
        """The open batch, or a new one (under the writer's turn)."""
        if self.batch is None:
            conn = self.engine.connect()
            try:
                conn.begin()
            except BaseException:
                conn.close()
                raise
            self.batch = Batch(conn)
        return self.batch

    def enter(self) -> tuple[Batch, sa.NestedTransaction]:
        """Take the writer's turn and open a savepoint in the open batch (a new batch
        if none is open)."""
        self.turn.acquire()
        try:
            batch = self._open()
            try:
                return batch, batch.conn.begin_nested()
            except BaseException as error:
                self._end(batch, error)
                raise
        except BaseException:
            self.turn.release()
            raise

    def try_hold(self) -> Batch | None:
        """Take the writer's turn if it is free and hold the open batch (a new one if
        none is open) for a run of blocks on this thread: each transaction the thread
        opens meanwhile is a savepoint of it (the store asks :meth:`held`), counted as
        a member.  None if another thread has the turn.  The run ends with
        :meth:`hand_on` (on any thread) or :meth:`abandon`."""
        if not self.turn.try_acquire():
            return None
        try:
            batch = self._open()
        except BaseException:
            self.turn.release()
            raise
        batch.holder = threading.get_ident()
        return batch

    def hand_on(self, batch: Batch) -> None:
        """End a held run: commit the batch, or leave it open for the threads that
        queued meanwhile (the last of them commits it); return once it is committed,
        or raise the commit's error.  Any thread may call it (the fsync need not keep
        the holder waiting)."""
        batch.holder = None
        self._hand_on(batch)

    def abandon(self, batch: Batch, error: BaseException) -> None:
        """End a held run that cannot go on: roll the whole batch back (its members
        that queued before fail with ``error``) and give the turn back."""
        batch.holder = None
        try:
            self._end(batch, error)
        finally:
            self.turn.release()

    def leave(
        self,
        batch: Batch,
        savepoint: sa.NestedTransaction,
        failed: bool,
        events: list | None = None,
    ) -> None:
        """End the block's savepoint (released, or rolled back if ``failed``), commit
        the batch if no other writer is queued or the batch is full, give the turn
        back, and wait until the batch is committed (a failed block does not wait:
        nothing of its own is in it).  Raises the commit's error."""
        try:
            try:
                if failed:
                    savepoint.rollback()
                else:
                    savepoint.commit()
            except BaseException as error:
                self._end(batch, error)
                raise
            batch.members += 1
            if not failed and events:
                batch.events.extend(events)
        except BaseException:
            self.turn.release()
            raise
        if failed:
            self._hand_on(batch, wait=False)
            return
        self._hand_on(batch)

    def _hand_on(self, batch: Batch, wait: bool = True) -> None:
        """Commit the batch if no other writer is queued or it is full, give the turn
        back and (``wait``) wait until the batch is committed; raise its error."""
        try:
            if self.turn.waiting == 0 or batch.members >= self.most:
                self._end(batch, None)
        finally:
            self.turn.release()
        if not wait:
            return
        batch.committed.wait()
        if batch.error is not None:
            raise batch.error

    def _end(self, batch: Batch, error: BaseException | None) -> None:
        """Commit the batch (or roll it back after ``error``) and wake its members."""
        self.batch = None
        try:
            if error is None:
                batch.conn.commit()
                self.commits += 1
                self.blocks += batch.members
                if self.deliver is not None and batch.events:
                    try:
                        self.deliver(batch.events)
                    except Exception as failure:  # the data is committed: report, go on
                        print(f"wartesaal: delivering events failed: {failure!r}", flush=True)
            else:
                batch.conn.rollback()
        except BaseException as failure:
            batch.error = failure
            try:
                batch.conn.rollback()
            except sa.exc.DBAPIError:
                pass  # the connection is closed below either way
        else:
            batch.error = error
        finally:
            batch.conn.close()
            batch.committed.set()
