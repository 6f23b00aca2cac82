"""The hall's index of who watches which table: a table event finds its watchers
there, and a connection that closes leaves nothing behind."""

from __future__ import annotations

import asyncio

from fechtbuch.wartesaal.app import Client, Hall
from fechtbuch.wartesaal.room import Room
from fechtbuch.wartesaal.store import Store
from support.wartesaal_helpers import CHEAP, SECRET


def test_watch_unwatch_and_leave_keep_the_index_exact(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'room.db'}")
    hall = Hall(Room(store, SECRET, hasher=CHEAP))
    one, two = Client(1, socket=None), Client(2, socket=None)
    hall.clients.update({1: one, 2: two})
    hall.watch(one, "t1")
    hall.watch(two, "t1")
    hall.watch(two, "t2")
    assert hall.watchers == {"t1": {one, two}, "t2": {two}}
    hall.unwatch(one, "t1")
    assert hall.watchers == {"t1": {two}, "t2": {two}} and one.watching == set()
    asyncio.run(hall.leave(two))
    assert hall.watchers == {} and two.watching == set() and hall.clients == {1: one}
    store.dispose()
