"""The Wartesaal's load benchmark: many guests play many games at once on loopback.

``python -m fechtbuch.wartesaal.loadbench --clients 200 --games 100`` starts a server
process on 127.0.0.1 (SQLite in a temporary folder, or ``--database URL``), connects
the clients, pairs them at tables and plays every game with seeded random legal
actions, all games at the same time.  Closed loop (the default): each seat acts the
moment it is its turn, so the figures are the server's saturation throughput.  Open
loop (``--open --pace 2-5 --seconds 60``): each seat thinks a seeded 2-5 s first, as a
person would, for 60 s.  It prints the acknowledgement latency (p50, p99, p99.9), the
time until the opponent's client has the update, the actions per second, the
server's CPU milliseconds per action (from /proc) and its resident memory per
connection, and checks that every table's log holds exactly the acknowledged actions
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
import urllib.request

import click
from fechtbuch.commands.options import int_range, json_option
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.registry import plugin, plugins
from fechtbuch.wartesaal.client import Client
from fechtbuch.wartesaal.commandline import run_command


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_server(database: str, port: int, secret: str) -> subprocess.Popen:
    # the standard library's client: the bench needs no package the room does not
    env = dict(os.environ, WARTESAAL_SECRET=secret)
    command = [sys.executable, "-m", "fechtbuch.wartesaal", "--database", database]
    process = subprocess.Popen(command + ["--port", str(port)], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise click.ClickException(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as answer:
                if answer.status == 200:
                    return process
        except OSError:  # refused while the server starts (URLError is an OSError)
            time.sleep(0.1)
    process.kill()
    raise click.ClickException("the server did not answer within 60 s")


def _server_usage(pids: list[int]) -> tuple[float, int]:
    """The server processes' CPU seconds (user and system) and resident bytes, summed,
    from /proc."""
    cpu, resident = 0.0, 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            pages = int(open(f"/proc/{pid}/statm").read().split()[1])
            resident += pages * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            return float("nan"), 0
    return cpu, resident


def _percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class _Run:
    """What one run measures: acknowledgement and update latencies (seconds) and the
    acknowledged actions of every table."""

    def __init__(self, tables: list[str]) -> None:
        self.acks: list[float] = []
        self.updates: list[float] = []
        self.logs: dict[str, list] = {table_id: [] for table_id in tables}


async def _play_table(seats: dict[int, Client], table_id: str, rng, run: _Run, pace) -> None:
    """Play the table until its game ends or, in the open loop, ``pace`` says stop:
    ``pace`` is None (closed loop: act as soon as it is one's turn) or a pair of the
    seconds a seat thinks (drawn uniformly) and the deadline after which no seat acts."""
    while True:
        newest = max((c.tables[table_id] for c in seats.values()), key=lambda m: m["version"])
        if newest["status"] != "running":
            return
        mover = seats[newest["to_act"]]
        message = await mover.wait_table(
            table_id, lambda m, v=newest["version"]: m["version"] >= v, timeout=300
        )
        if message["status"] != "running":
            return
        if pace is not None:
            (low, high), deadline = pace
            await asyncio.sleep(rng.uniform(low, high))
            if time.perf_counter() >= deadline:
                return
        action = rng.choice(message["legal"])
        sent = time.perf_counter()
        answer = await mover.ask("act", table=table_id, seq=message["version"], action=action)
        run.acks.append(time.perf_counter() - sent)
        number = answer["number"]
        run.logs[table_id].append((number, action))
        for client in seats.values():
            if client is not mover:
                await client.wait_table(table_id, lambda m, n=number: m["version"] >= n, 300)
                arrived = min(
                    t for (tid, v), t in client.arrivals.items() if tid == table_id and v >= number
                )
                run.updates.append(arrived - sent)
        await mover.wait_table(table_id, lambda m, n=number: m["version"] >= n, timeout=300)


async def _bench(
    urls: list[str], pids: list[int], clients: int, games: int, game: str, variant, seed, pace,
    idle: int = 0,
) -> dict:  # fmt: skip
    """Client k connects to ``urls[k % len(urls)]`` (the seats of a table sit at
    different server processes when there are several).  ``pace``: None for the closed
    loop, else ((low, high) seconds a seat thinks, seconds the open loop runs)."""
    connected = []
    rss = {}
    for k in range(clients):
        if k in (clients // 2, clients - 1):
            # memory per connection: the growth over the second half of the connections
            # (the first ones also pay for what the server sets up once)
            rss[k] = _server_usage(pids)[1]
        client = await Client(urls[k % len(urls)]).connect()
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
    idle_clients, idle_kb = await _idle_connections(urls, pids, idle)
    run = _Run([table_id for table_id, _ in tables])
    cpu_before, _ = _server_usage(pids)
    began = time.perf_counter()
    table_pace = None if pace is None else (pace[0], began + pace[1])
    await asyncio.gather(
        *(
            _play_table(seats, table_id, random.Random(f"{seed}/{k}"), run, table_pace)
            for k, (table_id, seats) in enumerate(tables)
        )
    )
    wall = time.perf_counter() - began
    cpu_after, _ = _server_usage(pids)
    mismatches = []
    for table_id, _ in tables:
        replay = (await connected[0].ask("replay", table=table_id))["replay"]
        stored = [(a["number"], a["action"]) for a in replay["actions"]]
        if stored != run.logs[table_id]:
            mismatches.append(table_id)
    for client in connected + idle_clients:
        await client.close()
    acks, updates = sorted(run.acks), sorted(run.updates)
    actions = len(acks)

    def ms(value: float) -> float:
        return round(1000 * value, 2)

    return {
        "loop": "closed" if pace is None else "open",
        "processes": len(urls),
        "clients": clients,
        "games": games,
        "game": game,
        "actions": actions,
        "wall_seconds": round(wall, 2),
        "actions_per_second": round(actions / wall, 1) if wall else 0.0,
        "ack_p50_ms": ms(statistics.median(acks)) if acks else None,
        "ack_p99_ms": ms(_percentile(acks, 0.99)),
        "ack_p999_ms": ms(_percentile(acks, 0.999)),
        "ack_max_ms": ms(acks[-1]) if acks else None,
        "update_p50_ms": ms(statistics.median(updates)) if updates else None,
        "update_p99_ms": ms(_percentile(updates, 0.99)),
        "server_cpu_ms_per_action": ms((cpu_after - cpu_before) / actions) if actions else None,
        "server_kb_per_connection": round(
            (rss[clients - 1] - rss[clients // 2]) / 1024 / max(1, clients - 1 - clients // 2), 1
        ),
        "idle_connections": idle,
        "server_kb_per_idle_connection": idle_kb,
        "mismatched_tables": mismatches,
    }


IDLE_BATCH = 200
"""Idle connections opened at once."""


async def _idle_connections(urls: list[str], pids: list[int], idle: int):
    """``idle`` more connections that log in as guests and then only receive what the
    room pushes to everyone (people in the room who are not playing), and the growth
    of the servers' resident memory they caused, in kB per connection."""
    if not idle:
        return [], None
    before = _server_usage(pids)[1]
    opened: list[Client] = []
    for start in range(0, idle, IDLE_BATCH):
        batch = [Client(urls[k % len(urls)]) for k in range(start, min(idle, start + IDLE_BATCH))]
        await asyncio.gather(*(client.connect() for client in batch))
        await asyncio.gather(*(client.ask("guest") for client in batch))
        opened.extend(batch)
    await asyncio.sleep(2 * LIST_SETTLE_SECONDS)  # the presence writes and the lists go out
    after = _server_usage(pids)[1]
    return opened, round((after - before) / 1024 / idle, 1)


LIST_SETTLE_SECONDS = 1.0
"""The room pushes each list at most once a second."""


def _pace(text: str) -> tuple[float, float]:
    try:
        low, high = (float(part) for part in text.split("-"))
    except ValueError:
        raise InputError(f"pace: expected LOW-HIGH seconds such as 2-5, got {text!r}") from None
    if not 0 <= low <= high <= 600:
        raise InputError(f"pace: expected 0 <= LOW <= HIGH <= 600 seconds, got {text!r}")
    return low, high


@click.command(
    epilog="Examples: python -m fechtbuch.wartesaal.loadbench --clients 200 --games 100 "
    "--json (closed loop: the saturation throughput); ... --clients 1000 --games 500 "
    "--open --pace 2-5 --seconds 60 (people at a human pace); ... --idle 10000 (and "
    "10,000 more who only watch the room's lists)"
)
@click.option("--clients", type=int_range(2, 20000), default=200, show_default=True)
@click.option("--games", type=int_range(1, 10000), default=100, show_default=True)
@click.option("--game", default=None, help="A registered game (default: the registry's first).")
@click.option("--variant", default=None, help="The game's variant (default: its own).")
@click.option("--seed", default="loadbench", show_default=True, help="Seeds the random actions.")
@click.option("--database", default=None, help="Database URL (default: a temporary SQLite).")
@click.option(
    "--open",
    "open_loop",
    is_flag=True,
    help="Open loop: each seat thinks for a seeded time (--pace) before it acts, for "
    "--seconds; without it, every seat acts the moment it is its turn (closed loop).",
)
@click.option(
    "--pace", default="2-5", show_default=True, help="Open loop: seconds a seat thinks, LOW-HIGH."
)
@click.option(
    "--seconds",
    type=int_range(1, 3600),
    default=60,
    show_default=True,
    help="Open loop: seconds the seats act (the games still running then stay open).",
)
@click.option(
    "--processes",
    type=int_range(1, 64),
    default=1,
    show_default=True,
    help="Server processes on one PostgreSQL database (--database postgresql://...); "
    "client k connects to process k mod N, so a table's seats meet across processes.",
)
@click.option(
    "--idle",
    type=int_range(0, 20000),
    default=0,
    show_default=True,
    help="Connections beside the players that log in as guests and stay idle through the "
    "run (people in the room who are not playing); reports the server's memory per idle "
    "connection.",
)
@json_option("the counts, latencies in milliseconds, server costs, the tables whose log differs")
def main(
    clients, games, game, variant, seed, database, open_loop, pace, seconds, processes, idle,
    as_json,
) -> None:  # fmt: skip
    """Play many games at once against a fresh server on 127.0.0.1; print the
    acknowledgement latency (p50, p99, p99.9), the latency of the opponent's update,
    the actions per second, and the server's CPU milliseconds per action and memory
    per connection; exit 1 if a table's log differs from the acknowledged actions."""
    if clients % games:
        raise InputError(f"clients: {clients} is not a multiple of --games {games}")
    if processes > 1 and not (database or "").startswith("postgresql://"):
        raise InputError("processes: several server processes share a PostgreSQL --database")
    thinking = (_pace(pace), seconds) if open_loop else None
    game = plugin(game).slug if game is not None else plugins()[0].slug
    secret = "loadbench-" + os.urandom(16).hex()
    with tempfile.TemporaryDirectory() as folder:
        url = database or f"sqlite:///{folder}/bench.db"
        servers, urls = [], []
        try:
            for _ in range(processes):
                port = _free_port()
                servers.append(_start_server(url, port, secret))
                urls.append(f"ws://127.0.0.1:{port}/ws")
            pids = [server.pid for server in servers]
            result = asyncio.run(
                _bench(urls, pids, clients, games, game, variant, seed, thinking, idle)
            )
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                try:
                    server.wait(30)
                except subprocess.TimeoutExpired:  # still closing its connections
                    server.kill()
                    server.wait(30)
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
    else:
        click.echo(
            f"{result['clients']} clients, {result['games']} games of {game}, "
            f"{result['processes']} server process(es), {result['loop']} loop: "
            f"{result['actions']} actions in {result['wall_seconds']} s "
            f"({result['actions_per_second']}/s); acknowledged in p50 {result['ack_p50_ms']} "
            f"ms, p99 {result['ack_p99_ms']} ms, p99.9 {result['ack_p999_ms']} ms; "
            f"opponent's update p50 {result['update_p50_ms']} ms, p99 "
            f"{result['update_p99_ms']} ms; server {result['server_cpu_ms_per_action']} CPU-ms "
            f"per action, {result['server_kb_per_connection']} kB per connection; "
            + (
                f"{idle} idle connections, {result['server_kb_per_idle_connection']} kB each; "
                if idle
                else ""
            )
            + f"tables whose log differs: {len(result['mismatched_tables'])}"
        )
    if result["mismatched_tables"]:
        sys.exit(1)


if __name__ == "__main__":
    run_command(main, "loadbench")
