"""Two server processes on one PostgreSQL: a game whose players are connected to
different processes, the room events travelling by LISTEN/NOTIFY.

PostgreSQL comes from ``WARTESAAL_POSTGRES_URL`` or from ``.ci/postgres`` (a private
cluster on a Unix socket, installed with apt if missing).  Without it the tests skip,
unless ``CI=true``: then they fail."""

from __future__ import annotations

import asyncio
import random

from support.wartesaal_play import guests, play_turn, seat_clients
from support.wartesaal_postgres import fresh_database
from support.wartesaal_server import Server


def test_two_processes_share_one_room(postgres_url):
    fresh_database(postgres_url)
    first = Server(postgres_url).start()
    second = Server(postgres_url).start()

    async def scenario():
        (a,) = await guests(first.url, 1)
        (b,) = await guests(second.url, 1)
        (spectator,) = await guests(second.url, 1)
        # a challenge made on one process is listed on the other
        created = await a.ask("challenge", game="touche-duell", variant="kinder-kurz")
        listed = await b.ask("challenges")
        assert [c["id"] for c in listed["challenges"]] == [created["challenge"]]
        table_id = (await b.ask("accept", challenge=created["challenge"]))["table"]
        await a.ask("watch", table=table_id)
        await b.ask("watch", table=table_id)
        await spectator.ask("watch", table=table_id)
        seats = await seat_clients([a, b], table_id)
        rng = random.Random(8)
        turns = 0
        while await play_turn(seats, table_id, rng) is not None:
            turns += 1
            newest = max(c.tables[table_id]["version"] for c in (a, b))
            # each action reaches the other process's clients
            for client in (a, b, spectator):
                await client.wait_table(table_id, lambda m, v=newest: m["version"] >= v)
        end = await spectator.wait_table(table_id, lambda m: m["status"] != "running")
        for client in (a, b, spectator):
            await client.close()
        return turns, end

    try:
        turns, end = asyncio.run(scenario())
    finally:
        first.stop()
        second.stop()
    assert end["status"] == "finished" and turns > 5


def test_the_listen_session_comes_back_after_it_drops(postgres_url):
    import queue

    import sqlalchemy as sa
    from fechtbuch.wartesaal.events import LISTENER_NAME, PostgresEvents
    from fechtbuch.wartesaal.store import Store

    fresh_database(postgres_url)
    store = Store(postgres_url)
    received: queue.Queue[list[dict]] = queue.Queue()
    events = PostgresEvents(store, received.put)
    events.start()
    try:
        with store.transaction() as tx:
            tx.notify({"kind": "challenges"})
        assert received.get(timeout=5) == [{"kind": "challenges"}]
        # the database ends the LISTEN session (a restart, a failover, an administrator)
        with store.engine.connect() as conn:
            ended = conn.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = :name"
                ),
                {"name": LISTENER_NAME},
            ).scalars()
            assert list(ended) == [True]
        # what was sent meanwhile is lost: the process is told to read everything again
        assert received.get(timeout=10) == [{"kind": "resync"}]
        assert events.reconnects == 1
        with store.transaction() as tx:
            tx.notify({"kind": "table", "id": "t1", "version": 3})
        assert received.get(timeout=5) == [{"kind": "table", "id": "t1", "version": 3}]
        assert received.empty()
    finally:
        events.stop()
        store.dispose()


def test_the_load_bench_runs_two_processes_on_one_database(postgres_url):
    """Client k of the bench talks to process k mod 2, so every table's seats are at
    different processes; every log still equals the acknowledged actions."""
    import json
    import subprocess
    import sys

    fresh_database(postgres_url)
    command = [sys.executable, "-m", "fechtbuch.wartesaal.loadbench", "--json"]
    command += ["--clients", "8", "--games", "4", "--processes", "2", "--database", postgres_url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["processes"] == 2 and report["actions"] > 0
    assert report["mismatched_tables"] == []
