"""Clients that play at a Wartesaal server: guests, a table among them, random turns."""

from __future__ import annotations

import random

from fechtbuch.wartesaal.client import Client


async def guests(url: str, count: int) -> list[Client]:
    clients = []
    for _ in range(count):
        client = await Client(url).connect()
        client.session = (await client.ask("guest"))["session"]
        clients.append(client)
    return clients


async def open_table(clients: list[Client], **challenge) -> str:
    """The first client challenges, the others accept; everyone watches the table."""
    created = await clients[0].ask("challenge", **challenge)
    table_id = None
    for client in clients[1:]:
        table_id = (await client.ask("accept", challenge=created["challenge"]))["table"]
    for client in clients:
        await client.ask("watch", table=table_id)
    return table_id


async def seat_clients(clients: list[Client], table_id: str) -> dict[int, Client]:
    seats = {}
    for client in clients:
        message = await client.wait_table(table_id, lambda m: True)
        seats[message["you"]] = client
    return seats


async def play_turn(seats: dict[int, Client], table_id: str, rng: random.Random) -> dict | None:
    """One random legal action by the seat to act; the table message it answered, or
    ``None`` when the game is over."""
    newest = max((c.tables[table_id] for c in seats.values()), key=lambda m: m["version"])
    if newest["status"] != "running":
        return None
    mover = seats[newest["to_act"]]
    message = await mover.wait_table(table_id, lambda m: m["version"] >= newest["version"])
    if message["status"] != "running":
        return None
    action = rng.choice(message["legal"])
    answer = await mover.ask("act", table=table_id, seq=message["version"], action=action)
    await mover.wait_table(table_id, lambda m: m["version"] >= answer["number"])
    return message


async def play_to_end(seats: dict[int, Client], table_id: str, rng: random.Random) -> dict:
    while await play_turn(seats, table_id, rng) is not None:
        pass
    client = next(iter(seats.values()))
    return await client.wait_table(table_id, lambda m: m["status"] != "running")


async def reconnect(url: str, old: list[Client]) -> list[Client]:
    """New connections with the old clients' sessions (after a restart)."""
    fresh = []
    for client in old:
        await client.close()
        again = await Client(url).connect()
        await again.ask("hello", session=client.session)
        again.session = client.session
        fresh.append(again)
    return fresh
