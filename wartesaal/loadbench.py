"""The Wartesaal's load benchmark: many guests play many games at once on loopback.

``python -m fechtbuch.wartesaal.loadbench --clients 200 --games 100`` starts a server
process on 127.0.0.1 (SQLite in a temporary folder, or ``--database URL``), connects
the clients, pairs them at tables and plays every game to its end with seeded random
legal actions, all games at the same time.  It prints the median and 99th percentile
of the time from sending an action to the opponent's client receiving the table
update, and checks that every table's log holds exactly the acknowledged actions
(none lost, none applied twice); a mismatch exits 1.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import click
from fechtbuch.commands.options import int_range, json_option
from fechtbuch.engines.errors import InputError
from fechtbuch.wartesaal.client import Client
from fechtbuch.wartesaal.commandline import run_command


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_server(database: str, port: int, secret: str) -> subprocess.Popen:
    import httpx

    env = dict(os.environ, WARTESAAL_SECRET=secret)
    command = [sys.executable, "-m", "fechtbuch.wartesaal", "--database", database]
    process = subprocess.Popen(command + ["--port", str(port)], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise click.ClickException(f"the server exited with {process.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise click.ClickException("the server did not answer within 60 s")


async def _play_table(seats: dict[int, Client], table_id: str, rng, latencies, acked) -> None:
    while True:
        newest = max((c.tables[table_id] for c in seats.values()), key=lambda m: m["version"])
        if newest["status"] != "running":
            return
        mover = seats[newest["to_act"]]
        message = await mover.wait_table(
            table_id, lambda m, v=newest["version"]: m["version"] >= v, timeout=120
        )
        if message["status"] != "running":
            return
        action = rng.choice(message["legal"])
        sent = time.perf_counter()
        answer = await mover.ask("act", table=table_id, seq=message["version"], action=action)
        number = answer["number"]
        acked.append((number, action))
        for client in seats.values():
            if client is not mover:
                await client.wait_table(table_id, lambda m, n=number: m["version"] >= n, 120)
                arrived = min(
                    t for (tid, v), t in client.arrivals.items() if tid == table_id and v >= number
                )
                latencies.append(arrived - sent)
        await mover.wait_table(table_id, lambda m, n=number: m["version"] >= n, timeout=120)


async def _bench(url: str, clients: int, games: int, game: str, variant, seed: str) -> dict:
    connected = []
    for _ in range(clients):
        client = await Client(url).connect()
        await client.ask("guest")
        connected.append(client)
    per_table = clients // games
    tables = []
    for k in range(games):
        group = connected[k * per_table : (k + 1) * per_table]
        request = {"game": game} | ({"variant": variant} if variant else {})
        created = await group[0].ask("challenge", **request)
        table_id = None
        for client in group[1:]:
            table_id = (await client.ask("accept", challenge=created["challenge"]))["table"]
        seats = {}
        for client in group:
            seats[(await client.ask("watch", table=table_id))["table"]["you"]] = client
        tables.append((table_id, seats))
    latencies: list[float] = []
    logs: dict[str, list] = {table_id: [] for table_id, _ in tables}
    began = time.perf_counter()
    await asyncio.gather(
        *(
            _play_table(seats, table_id, random.Random(f"{seed}/{k}"), latencies, logs[table_id])
            for k, (table_id, seats) in enumerate(tables)
        )
    )
    wall = time.perf_counter() - began
    mismatches = []
    for table_id, _ in tables:
        replay = (await connected[0].ask("replay", table=table_id))["replay"]
        stored = [(a["number"], a["action"]) for a in replay["actions"]]
        if stored != logs[table_id]:
            mismatches.append(table_id)
    for client in connected:
        await client.close()
    ordered = sorted(latencies)
    return {
        "clients": clients,
        "games": games,
        "game": game,
        "actions": sum(len(log) for log in logs.values()),
        "updates": len(ordered),
        "wall_seconds": round(wall, 2),
        "median_ms": round(1000 * statistics.median(ordered), 2),
        "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
        "max_ms": round(1000 * ordered[-1], 2),
        "mismatched_tables": mismatches,
    }


@click.command(
    epilog="Example: python -m fechtbuch.wartesaal.loadbench --clients 200 --games 100 --json"
)
@click.option("--clients", type=int_range(2, 2000), default=200, show_default=True)
@click.option("--games", type=int_range(1, 1000), default=100, show_default=True)
@click.option("--game", default="battleklinge", show_default=True, help="A registered game.")
@click.option("--variant", default=None, help="The game's variant (default: its own).")
@click.option("--seed", default="loadbench", show_default=True, help="Seeds the random actions.")
@click.option("--database", default=None, help="Database URL (default: a temporary SQLite).")
@json_option("the counts, the latencies in milliseconds, the tables whose log differs")
def main(clients, games, game, variant, seed, database, as_json) -> None:
    """Play many games at once against a fresh server on 127.0.0.1 and print the median
    and 99th percentile of the action-to-opponent-update latency."""
    if clients % games:
        raise InputError(f"clients: {clients} is not a multiple of --games {games}")
    with tempfile.TemporaryDirectory() as folder:
        url = database or f"sqlite:///{folder}/bench.db"
        port = _free_port()
        server = _start_server(url, port, secret="loadbench-" + os.urandom(16).hex())
        try:
            result = asyncio.run(
                _bench(f"ws://127.0.0.1:{port}/ws", clients, games, game, variant, seed)
            )
        finally:
            server.terminate()
            server.wait(30)
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
    else:
        click.echo(
            f"{result['clients']} clients, {result['games']} games of {game}: "
            f"{result['actions']} actions in {result['wall_seconds']} s; action to opponent's "
            f"update: median {result['median_ms']} ms, p99 {result['p99_ms']} ms, "
            f"max {result['max_ms']} ms; "
            f"tables whose log differs: {len(result['mismatched_tables'])}"
        )
    if result["mismatched_tables"]:
        sys.exit(1)


if __name__ == "__main__":
    run_command(main, "loadbench")
