"""A restarted server restores every table where it stood, clocks included; a server
killed with SIGKILL at random moments during play loses no acknowledged action and
applies none twice."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from fechtbuch.wartesaal.client import RoomClosed
from support.wartesaal_play import (
    guests,
    open_table,
    play_to_end,
    play_turn,
    reconnect,
    seat_clients,
)
from support.wartesaal_server import Server


@pytest.mark.parametrize("stop", ["sigterm", "sigkill"])
def test_restart_restores_tables_and_clocks(tmp_path, stop):
    server = Server(f"sqlite:///{tmp_path / 'room.db'}").start()
    down_seconds = 3.0

    async def scenario():
        a, b = await guests(server.url, 2)
        table_id = await open_table([a, b], game="battleklinge", clock_minutes=5)
        seats = await seat_clients([a, b], table_id)
        rng = random.Random(4)
        for _ in range(3):
            await play_turn(seats, table_id, rng)
        before = await a.wait_table(table_id, lambda m: m["version"] == 3)
        arrived = time.time()
        await asyncio.sleep(0.5)
        server.kill() if stop == "sigkill" else server.stop()
        await asyncio.sleep(down_seconds)
        server.start()
        a2, b2 = await reconnect(server.url, [a, b])
        after = (await a2.ask("watch", table=table_id))["table"]
        watched = time.time()
        seats2 = await seat_clients([a2, b2], table_id)
        message = await play_turn(seats2, table_id, rng)  # play goes on
        for client in (a2, b2):
            await client.close()
        return before, after, message, arrived, watched

    try:
        before, after, message, arrived, watched = asyncio.run(scenario())
    finally:
        server.stop()
    assert after["version"] == before["version"] == 3 and after["view"] == before["view"]
    assert after["status"] == "running" and after["away"] == []
    mover = before["to_act"]
    other = 1 - mover
    assert after["clocks"][other] == before["clocks"][other]
    # the mover's clock did not run while the server was down (3 s): what it lost
    # from the message before the stop to the watch after the restart is less than the
    # wall time between them minus the pause (a message's clocks are as of its making)
    spent = before["clocks"][mover] - after["clocks"][mover]
    elapsed = watched - arrived
    assert 0 <= spent <= elapsed - down_seconds + 0.2, (spent, elapsed)
    assert message is not None and message["version"] == 3


def test_sigkill_during_play_loses_nothing(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'room.db'}").start()
    rng = random.Random(29)
    acked: dict[str, dict[int, str]] = {}
    pending: dict[str, tuple[int, int, str] | None] = {}

    async def play(seats, table_id, seed):
        """Random actions until the connection drops or the game ends, noting every
        acknowledged action and the one in flight."""
        moves = random.Random(seed)
        try:
            while True:
                newest = max(
                    (c.tables[table_id] for c in seats.values()), key=lambda m: m["version"]
                )
                if newest["status"] != "running":
                    return
                mover = seats[newest["to_act"]]
                message = await mover.wait_table(
                    table_id, lambda m, v=newest["version"]: m["version"] >= v
                )
                action = moves.choice(message["legal"])
                pending[table_id] = (newest["to_act"], message["version"], action)
                answer = await mover.ask(
                    "act", table=table_id, seq=message["version"], action=action
                )
                acked[table_id][answer["number"]] = action
                pending[table_id] = None
                await mover.wait_table(table_id, lambda m, n=answer["number"]: m["version"] >= n)
        except (RoomClosed, ConnectionError, asyncio.TimeoutError, OSError):
            return
        except Exception as err:  # a closed socket surfaces in several types
            if "close" not in repr(err).lower():
                raise

    async def check(clients, tables):
        """Every acknowledged action is in the log, numbers 1..version, once each; the
        action in flight is either in the log (then resending it is a duplicate) or not
        (then resending it applies it now)."""
        for table_id, seat_names in tables.items():
            replay = (await clients[0].ask("replay", table=table_id))["replay"]
            numbers = [a["number"] for a in replay["actions"]]
            assert numbers == list(range(1, len(numbers) + 1))
            texts = {a["number"]: a["action"] for a in replay["actions"]}
            for number, action in acked[table_id].items():
                assert texts[number] == action
            flight = pending.get(table_id)
            if flight is not None:
                seat, seq, action = flight
                watcher = clients[seat_names[seat]]
                answer = await watcher.ask("act", table=table_id, seq=seq, action=action)
                assert answer["duplicate"] == (texts.get(seq + 1) == action)
                acked[table_id][answer["number"]] = action
                pending[table_id] = None
                for index in seat_names.values():  # everyone sees it before play goes on
                    await clients[index].wait_table(
                        table_id, lambda m, n=answer["number"]: m["version"] >= n
                    )

    async def scenario():
        clients = await guests(server.url, 8)
        tables = {}
        for k in range(4):
            pair = clients[2 * k : 2 * k + 2]
            table_id = await open_table(pair, game="battleklinge", variant="zufall")
            tables[table_id] = {}
            acked[table_id] = {}
        kills = 0
        while kills < 3:
            seatings = {}
            for k, table_id in enumerate(tables):
                pair = clients[2 * k : 2 * k + 2]
                seats = await seat_clients(pair, table_id)
                seatings[table_id] = seats
                tables[table_id] = {seat: clients.index(c) for seat, c in seats.items()}
            players = [asyncio.create_task(play(s, t, rng.random())) for t, s in seatings.items()]
            await asyncio.sleep(rng.uniform(0.3, 1.2))
            server.kill()
            kills += 1
            await asyncio.gather(*players)
            server.start()
            clients = await reconnect(server.url, clients)
            for table_id in tables:
                for index in tables[table_id].values():
                    await clients[index].ask("watch", table=table_id)
            await check(clients, tables)
        ends = []
        for k, table_id in enumerate(tables):
            seats = await seat_clients(clients[2 * k : 2 * k + 2], table_id)
            ends.append(await play_to_end(seats, table_id, rng))
        await check(clients, tables)
        for client in clients:
            await client.close()
        return ends

    try:
        ends = asyncio.run(scenario())
    finally:
        server.stop()
    assert all(end["status"] == "finished" for end in ends)
    assert sum(len(a) for a in acked.values()) > 20
