"""A small asyncio client of the Wartesaal's WebSocket protocol (the load benchmark
and the tests use it; a browser speaks the same JSON).

``request`` sends one request with a fresh ``ref`` and waits for its answer; the newest
``table`` message of each table is kept in :attr:`tables`, and every message ever
received in :attr:`received` (the hidden-information tests read them all), unless the
client is made with ``keep=False`` (the load bench: its clients receive the room's
lists for minutes, and keeping them all cost gigabytes and the garbage collector's
passes over them).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time

import orjson
import websockets


class RoomClosed(Exception):
    """The server closed the connection."""


class Client:
    def __init__(self, url: str, keep: bool = True) -> None:
        self.url = url
        self.keep = keep
        self.refs = itertools.count(1)
        self.waiting: dict[int, asyncio.Future] = {}
        self.received: list[dict] = []
        self.tables: dict[str, dict] = {}
        self.changed = asyncio.Condition()
        self.socket = None
        self.session: str | None = None
        self.reader: asyncio.Task | None = None
        self.arrivals: dict[tuple[str, int], float] = {}
        """When each (table, version) first arrived (``time.perf_counter``)."""

    async def connect(self) -> Client:
        # no keepalive pings, as a browser sends none (the server pings); the bench's
        # thousands of clients, connected within seconds, pinged the server in bursts
        self.socket = await websockets.connect(self.url, max_size=1 << 22, ping_interval=None)
        self.reader = asyncio.create_task(self._read())
        return self

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            self.reader.cancel()

    async def _read(self) -> None:
        try:
            async for frame in self.socket:
                message = orjson.loads(frame)  # the json module cost a load bench's client most
                if self.keep:
                    self.received.append(message)
                table = message.get("table") if message["type"] == "watch" else message
                if isinstance(table, dict) and table.get("type") == "table":
                    await self._note_table(table)
                ref = message.get("ref")
                if ref is not None and ref in self.waiting:
                    self.waiting.pop(ref).set_result(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(RoomClosed())
            async with self.changed:
                self.changed.notify_all()

    async def _note_table(self, table: dict) -> None:
        key = (table["id"], table["version"])
        self.arrivals.setdefault(key, time.perf_counter())
        known = self.tables.get(table["id"])
        if known is None or table["version"] >= known["version"]:
            self.tables[table["id"]] = table
        async with self.changed:
            self.changed.notify_all()

    async def send_raw(self, frame: str | bytes) -> None:
        await self.socket.send(frame)

    async def request(self, kind: str, timeout: float = 30.0, **fields) -> dict:
        ref = next(self.refs)
        future = asyncio.get_running_loop().create_future()
        self.waiting[ref] = future
        # the json module: tests send numbers orjson refuses or changes (2**64, NaN)
        await self.socket.send(json.dumps({"type": kind, "ref": ref, **fields}))
        return await asyncio.wait_for(future, timeout)

    async def ask(self, kind: str, **fields) -> dict:
        """``request``, raising on an error answer."""
        answer = await self.request(kind, **fields)
        if answer["type"] == "error":
            raise RuntimeError(f"{kind}: {answer['error']}")
        return answer

    async def wait_table(self, table_id: str, predicate, timeout: float = 30.0) -> dict:
        """The newest message of ``table_id`` once ``predicate`` holds for it."""
        table = self.tables.get(table_id)
        if table is not None and predicate(table):
            return table  # already here: no waiter, no timer

        async def wait() -> dict:
            async with self.changed:
                while True:
                    table = self.tables.get(table_id)
                    if table is not None and predicate(table):
                        return table
                    if self.reader is None or self.reader.done():
                        raise RoomClosed()
                    await self.changed.wait()

        return await asyncio.wait_for(wait(), timeout)
