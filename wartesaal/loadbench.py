"""The Wartesaal's load benchmark: many guests play many games at once on loopback.

``python -m fechtbuch.wartesaal.loadbench --clients 200 --games 100`` starts a server
process on 127.0.0.1 (SQLite in a temporary folder, or ``--database URL``), connects
the clients, pairs them at tables and plays every game with seeded random legal
actions, all games at the same time.  Closed loop (the default): each seat acts the
moment it is its turn, so the figures are the server's saturation throughput; each
table plays one game, or with ``--seconds 30`` game after game (a Revanche at each
end) for 30 s, the steady state.  Open loop (``--open --pace 2-5 --seconds 60``): each
seat thinks a seeded 2-5 s first, as a person would, for 60 s.  The clients run in
``--client-processes N`` processes (table j in process j mod N), so that the bench's
own clients are not what holds the figures back; each process measures its tables and
the parent merges the latencies.  It prints the acknowledgement latency (p50, p99,
p99.9), the time until the opponent's client has the update, the actions per second,
the server's and the clients' CPU milliseconds per action (from /proc) and the
server's resident memory per connection, and checks that every table's log holds
exactly the acknowledged actions (none lost, none applied twice); a mismatch exits 1.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
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
    """What one client process measures: acknowledgement and update latencies
    (seconds) and the acknowledged actions of every table it played."""

    def __init__(self) -> None:
        self.acks: list[float] = []
        self.updates: list[float] = []
        self.logs: dict[str, list] = {}


async def _play_table(
    seats: dict[int, Client], table_id: str, rng, run: _Run, thinking, deadline
) -> None:
    """Play the table until its game ends, or game after game until ``deadline``.
    ``thinking``: None (closed loop: act as soon as it is one's turn) or the (low, high)
    seconds a seat thinks, drawn uniformly (open loop).  ``deadline`` (``perf_counter``
    seconds, or None): no seat acts after it, and a game that ends before it is
    followed by a Revanche at the same seats."""
    run.logs[table_id] = []
    while True:
        newest = max((c.tables[table_id] for c in seats.values()), key=lambda m: m["version"])
        if newest["status"] != "running":
            if deadline is None or time.perf_counter() >= deadline:
                return
            seats, table_id = await _rematch(seats, table_id)
            run.logs[table_id] = []
            continue
        mover = seats[newest["to_act"]]
        message = await mover.wait_table(
            table_id, lambda m, v=newest["version"]: m["version"] >= v, timeout=300
        )
        if message["status"] != "running":
            continue
        if thinking is not None:
            low, high = thinking
            await asyncio.sleep(rng.uniform(low, high))
        if deadline is not None and time.perf_counter() >= deadline:
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
                arrived = client.arrivals.get((table_id, number))
                if arrived is None:  # a newer version came first
                    arrived = min(
                        t
                        for (tid, v), t in client.arrivals.items()
                        if tid == table_id and v >= number
                    )
                run.updates.append(arrived - sent)
        await mover.wait_table(table_id, lambda m, n=number: m["version"] >= n, timeout=300)


async def _rematch(seats: dict[int, Client], table_id: str) -> tuple[dict[int, Client], str]:
    """Every seat agrees to a Revanche; the new table's seats and id."""
    clients = list(seats.values())
    answer = {}
    for client in clients:
        answer = await client.ask("offer", table=table_id, offer="rematch")
    new_id = answer["rematch"]
    new_seats = {}
    for client in clients:
        message = await client.wait_table(new_id, lambda m: True, timeout=300)
        new_seats[message["you"]] = client
    return new_seats, new_id


def _worker(pipe, plan: dict) -> None:
    """A client process: its share of the clients and tables, phase by phase as the
    parent says (``_bench``); an exception goes back as its text."""
    try:
        asyncio.run(_worker_phases(pipe, plan))
    except BaseException:
        pipe.send(("error", traceback.format_exc()[-3000:]))
        raise


async def _worker_phases(pipe, plan: dict) -> None:
    loop = asyncio.get_running_loop()

    async def next_phase(report=None) -> object:
        """Report on the phase done, then wait for the parent's word to go on."""
        pipe.send(("done", report))
        return await loop.run_in_executor(None, pipe.recv)

    urls, per_table = plan["urls"], plan["per_table"]
    mine = {k for j in plan["tables"] for k in range(j * per_table, (j + 1) * per_table)}
    connected: dict[int, Client] = {}
    for stage in (range(plan["clients"] // 2), range(plan["clients"] // 2, plan["clients"])):
        # memory per connection is measured over the second half of the connections
        # (the first ones also pay for what the server sets up once)
        await next_phase()
        for k in sorted(mine.intersection(stage)):
            client = await Client(urls[k % len(urls)], keep=False).connect()
            await client.ask("guest")
            connected[k] = client
    await next_phase()
    tables = []
    for j in plan["tables"]:
        group = [connected[k] for k in range(j * per_table, (j + 1) * per_table)]
        request = {"game": plan["game"]} | ({"variant": plan["variant"]} if plan["variant"] else {})
        created = await group[0].ask("challenge", **request)
        table_id = None
        for client in group[1:]:
            table_id = (await client.ask("accept", challenge=created["challenge"]))["table"]
        seats = {}
        for client in group:
            seats[(await client.ask("watch", table=table_id))["table"]["you"]] = client
        tables.append((j, table_id, seats))
    await next_phase()
    idle = await _idle_connections(urls, plan["idle"])
    await next_phase()  # the parent measures the idle connections' memory, then: play
    run = _Run()
    began = time.perf_counter()
    deadline = None if plan["seconds"] is None else began + plan["seconds"]
    await asyncio.gather(
        *(
            _play_table(
                seats,
                table_id,
                random.Random(f"{plan['seed']}/{j}"),
                run,
                plan["thinking"],
                deadline,
            )
            for j, table_id, seats in tables
        )
    )
    await next_phase({"acks": run.acks, "updates": run.updates, "tables": len(run.logs)})
    mismatches = []
    reader = next(iter(connected.values()))
    for table_id, acknowledged in run.logs.items():
        replay = (await reader.ask("replay", table=table_id))["replay"]
        stored = [(a["number"], a["action"]) for a in replay["actions"]]
        if stored != acknowledged:
            mismatches.append(table_id)
    for client in list(connected.values()) + idle:
        await client.close()
    pipe.send(("done", mismatches))


class _Workers:
    """The client processes and the parent's side of their phases."""

    def __init__(self, plans: list[dict]) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes, self.processes = [], []
        for plan in plans:
            parent, child = context.Pipe()
            process = context.Process(target=_worker, args=(child, plan), daemon=True)
            process.start()
            child.close()
            self.pipes.append(parent)
            self.processes.append(process)

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def reports(self, timeout: float) -> list:
        """Every process's report on the phase it finished."""
        found = []
        deadline = time.monotonic() + timeout
        for pipe, process in zip(self.pipes, self.processes, strict=True):
            while not pipe.poll(0.2):
                if not process.is_alive() or time.monotonic() > deadline:
                    raise click.ClickException(f"client process {process.pid} stopped answering")
            kind, report = pipe.recv()
            if kind == "error":
                raise click.ClickException(f"a client process failed:\n{report}")
            found.append(report)
        return found

    def go(self) -> None:
        for pipe in self.pipes:
            pipe.send("go")

    def close(self) -> None:
        for process in self.processes:
            process.join(10)
            if process.is_alive():
                process.kill()


def _bench(
    urls: list[str], pids: list[int], clients: int, games: int, game: str, variant, seed,
    thinking, seconds, idle: int = 0, client_processes: int = 1,
) -> dict:  # fmt: skip
    """Client k connects to ``urls[k % len(urls)]`` (the seats of a table sit at
    different server processes when there are several); table j is played by client
    process ``j mod client_processes``.  ``thinking``: None for the closed loop, else
    the (low, high) seconds a seat thinks; ``seconds``: None (each table plays one game)
    or how long the seats act."""
    plans = [
        {
            "urls": urls,
            "clients": clients,
            "per_table": clients // games,
            "tables": list(range(w, games, client_processes)),
            "game": game,
            "variant": variant,
            "seed": seed,
            "thinking": thinking,
            "seconds": seconds,
            "idle": len(range(w, idle, client_processes)),
        }
        for w in range(client_processes)
    ]
    workers = _Workers(plans)
    try:
        workers.reports(120)  # started
        workers.go()
        workers.reports(600)  # the first half of the clients connected
        rss_half = _server_usage(pids)[1]
        workers.go()
        workers.reports(600)
        rss_all = _server_usage(pids)[1]
        workers.go()
        workers.reports(600)  # the tables are dealt and watched
        rss_tables = _server_usage(pids)[1]
        workers.go()
        workers.reports(600)  # the idle connections are open
        idle_kb = None
        if idle:
            time.sleep(2 * LIST_SETTLE_SECONDS)  # the presence writes and the lists go out
            idle_kb = round((_server_usage(pids)[1] - rss_tables) / 1024 / idle, 1)
        cpu_before, _ = _server_usage(pids)
        clients_before, _ = _server_usage(workers.pids)
        began = time.perf_counter()
        workers.go()
        played = workers.reports(600 + (seconds or 0))
        wall = time.perf_counter() - began
        cpu_after, _ = _server_usage(pids)
        clients_after, _ = _server_usage(workers.pids)
        workers.go()
        mismatches = [t for found in workers.reports(600) for t in found]
    finally:
        workers.close()
    acks = sorted(a for report in played for a in report["acks"])
    updates = sorted(u for report in played for u in report["updates"])
    actions = len(acks)

    def ms(value: float) -> float:
        return round(1000 * value, 2)

    def per_action(seconds_of_cpu: float) -> float | None:
        return ms(seconds_of_cpu / actions) if actions else None

    return {
        "loop": "closed" if thinking is None else "open",
        "processes": len(urls),
        "client_processes": client_processes,
        "clients": clients,
        "games": games,
        "tables_played": sum(report["tables"] for report in played),
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
        "server_cpu_ms_per_action": per_action(cpu_after - cpu_before),
        "client_cpu_ms_per_action": per_action(clients_after - clients_before),
        "server_kb_per_connection": round(
            (rss_all - rss_half) / 1024 / max(1, clients - clients // 2), 1
        ),
        "idle_connections": idle,
        "server_kb_per_idle_connection": idle_kb,
        "mismatched_tables": mismatches,
    }


IDLE_BATCH = 200
"""Idle connections opened at once."""


async def _idle_connections(urls: list[str], idle: int) -> list[Client]:
    """``idle`` more connections that log in as guests and then only receive what the
    room pushes to everyone (people in the room who are not playing)."""
    opened: list[Client] = []
    for start in range(0, idle, IDLE_BATCH):
        batch = [
            Client(urls[k % len(urls)], keep=False)
            for k in range(start, min(idle, start + IDLE_BATCH))
        ]
        await asyncio.gather(*(client.connect() for client in batch))
        await asyncio.gather(*(client.ask("guest") for client in batch))
        opened.extend(batch)
    return opened


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
    "--json (closed loop: the saturation throughput, each table one game); ... --seconds 30 "
    "(game after game for 30 s: the steady state); ... --clients 2000 --games 1000 --open "
    "--pace 2-5 --seconds 60 --client-processes 2 (people at a human pace, the clients in two "
    "processes); ... --idle 10000 (and 10,000 more who only watch the room's lists)"
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
    default=None,
    help="Seconds the seats act; a game that ends before is followed by a Revanche at the "
    "same seats.  Default: 60 in the open loop; in the closed loop each table plays one "
    "game to its end.",
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
    "--client-processes",
    type=int_range(1, 64),
    default=1,
    show_default=True,
    help="Processes the bench's clients run in (table j is played by process j mod N), so "
    "that the clients are not held up by one core; the figures are merged.",
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
    clients, games, game, variant, seed, database, open_loop, pace, seconds, processes,
    client_processes, idle, as_json,
) -> None:  # fmt: skip
    """Play many games at once against a fresh server on 127.0.0.1; print the
    acknowledgement latency (p50, p99, p99.9), the latency of the opponent's update,
    the actions per second, the server's and the clients' CPU milliseconds per action
    and the server's memory per connection; exit 1 if a table's log differs from the
    acknowledged actions."""
    if clients % games:
        raise InputError(f"clients: {clients} is not a multiple of --games {games}")
    if processes > 1 and not (database or "").startswith("postgresql://"):
        raise InputError("processes: several server processes share a PostgreSQL --database")
    if client_processes > games:
        raise InputError(
            f"client-processes: {client_processes} processes for {games} games; "
            "each process plays whole tables"
        )
    thinking = _pace(pace) if open_loop else None
    if open_loop and seconds is None:
        seconds = 60
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
            result = _bench(
                urls, pids, clients, games, game, variant, seed, thinking, seconds, idle,
                client_processes,
            )  # fmt: skip
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
            f"{result['clients']} clients, {result['games']} games of {game} "
            f"({result['tables_played']} played), {result['processes']} server process(es), "
            f"{result['client_processes']} client process(es), {result['loop']} loop: "
            f"{result['actions']} actions in {result['wall_seconds']} s "
            f"({result['actions_per_second']}/s); acknowledged in p50 {result['ack_p50_ms']} "
            f"ms, p99 {result['ack_p99_ms']} ms, p99.9 {result['ack_p999_ms']} ms; "
            f"opponent's update p50 {result['update_p50_ms']} ms, p99 "
            f"{result['update_p99_ms']} ms; server {result['server_cpu_ms_per_action']} CPU-ms "
            f"per action, {result['server_kb_per_connection']} kB per connection; clients "
            f"{result['client_cpu_ms_per_action']} CPU-ms per action; "
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
