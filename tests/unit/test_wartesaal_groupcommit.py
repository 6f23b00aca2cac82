"""The Wartesaal's group commit on SQLite: writers that queue during one commit are
committed together, each is answered only after its group is on disk, a block that
raises leaves the others' changes, and a failed commit fails every member."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa
from fechtbuch.wartesaal.groupcommit import FairLock
from fechtbuch.wartesaal.store import Store, meta

WRITERS = 24
ROUNDS = 20


def stored(store: Store) -> dict[str, str]:
    with store.read() as tx:
        rows = tx.conn.execute(sa.select(meta.c.key, meta.c.value)).all()
    return {key: value for key, value in rows if key.startswith("w")}


def run_threads(target, count: int) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def body(k: int) -> None:
        start.wait()
        try:
            target(k)
        except BaseException as error:  # collected for the test's assertions
            errors.append(error)

    threads = [threading.Thread(target=body, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return errors


def test_queued_writers_share_commits_and_each_sees_its_write_committed(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/room.db")
    seen_after_return: list[bool] = []

    def writer(k: int) -> None:
        for r in range(ROUNDS):
            with store.transaction() as tx:
                tx.set_meta(f"w{k}-{r}", str(r))
            # answered: another connection must see it (it is committed, not pending)
            with store.read() as tx:
                seen_after_return.append(tx.get_meta(f"w{k}-{r}") == str(r))

    assert run_threads(writer, WRITERS) == []
    assert len(stored(store)) == WRITERS * ROUNDS
    assert all(seen_after_return) and len(seen_after_return) == WRITERS * ROUNDS
    group = store.group
    assert group.blocks >= WRITERS * ROUNDS  # and the schema's own transaction
    assert group.commits < group.blocks  # some commits carried several writers
    store.dispose()


def test_a_block_that_raises_leaves_the_other_members_changes(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/room.db")

    def writer(k: int) -> None:
        with store.transaction() as tx:
            tx.set_meta(f"w{k}", "kept")
            if k % 3 == 0:
                raise ValueError(f"writer {k} refuses")

    errors = run_threads(writer, 30)
    assert sorted(str(e) for e in errors) == sorted(f"writer {k} refuses" for k in range(0, 30, 3))
    assert stored(store) == {f"w{k}": "kept" for k in range(30) if k % 3}
    store.dispose()


def test_a_failed_commit_fails_every_member_of_its_group(tmp_path, monkeypatch):
    store = Store(f"sqlite:///{tmp_path}/room.db")
    group = store.group
    original = group._end

    def failing_end(batch, error):
        if error is None and batch.members > 1:
            return original(batch, RuntimeError("disk full"))
        return original(batch, error)

    monkeypatch.setattr(group, "_end", failing_end)
    gate = threading.Event()
    holder_in = threading.Event()

    failures: list[BaseException] = []

    def holder() -> None:  # holds the turn until the others have queued behind it
        try:
            with store.transaction() as tx:
                tx.set_meta("w-holder", "1")
                holder_in.set()
                gate.wait(30)
        except RuntimeError as error:
            failures.append(error)

    first = threading.Thread(target=holder)
    first.start()
    holder_in.wait(30)

    def member(k: int) -> None:
        try:
            with store.transaction() as tx:
                tx.set_meta(f"w{k}", "1")
        except RuntimeError as error:
            failures.append(error)

    members = [threading.Thread(target=member, args=(k,)) for k in range(5)]
    for thread in members:
        thread.start()
    while store.group.turn.waiting < 5:
        threading.Event().wait(0.01)
    gate.set()
    first.join(30)
    for thread in members:
        thread.join(30)
    # the holder and the five queued behind it form one group, whose commit fails
    assert len(failures) == 6 and all(str(e) == "disk full" for e in failures)
    assert stored(store) == {}
    store.dispose()


def test_the_fair_lock_hands_the_turn_on_in_order():
    lock = FairLock()
    lock.acquire()
    order: list[int] = []
    threads = []
    for k in range(5):
        thread = threading.Thread(
            target=lambda k=k: (lock.acquire(), order.append(k), lock.release())
        )
        thread.start()
        while lock.waiting < k + 1:
            threading.Event().wait(0.005)
        threads.append(thread)
    lock.release()
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("synchronous", ["full", "normal"])
def test_every_acknowledged_write_is_in_the_file_after_the_store_is_gone(tmp_path, synchronous):
    url = f"sqlite:///{tmp_path}/room.db?synchronous={synchronous}"
    store = Store(url)
    assert run_threads(lambda k: _write(store, k), 16) == []
    store.dispose()
    again = Store(url)
    assert stored(again) == {f"w{k}": "1" for k in range(16)}
    again.dispose()


def _write(store: Store, k: int) -> None:
    with store.transaction() as tx:
        tx.set_meta(f"w{k}", "1")


def test_events_reach_the_listeners_in_the_order_the_blocks_ran(tmp_path):
    """Two changes of one table in one group carry the same version at times (an away
    mark after a move): their events must not swap, so they are delivered in the order
    the blocks ran, by the committing thread."""
    store = Store(f"sqlite:///{tmp_path}/room.db")
    delivered: list[int] = []
    store.listeners.append(lambda events: delivered.extend(e["order"] for e in events))
    ran = iter(range(10**6))

    def writer(k: int) -> None:
        for _ in range(10):
            with store.transaction() as tx:
                tx.set_meta(f"w{k}", "1")
                tx.notify({"kind": "test", "order": next(ran)})  # under the writer's turn

    assert run_threads(writer, 16) == []
    assert delivered == sorted(delivered) and len(delivered) == 160
    assert store.group.commits < store.group.blocks
    store.dispose()
