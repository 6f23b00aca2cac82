"""The Wartesaal over the network (a server process on 127.0.0.1): hostile requests
fail with one clean line and the server keeps serving; a Touché duel leaks no hand
to the opponent or a spectator in any message; a restart restores tables and clocks."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time

import httpx
import itsdangerous.timed
import pytest
from fechtbuch.wartesaal.client import Client
from fechtbuch.wartesaal.protocol import MAX_MESSAGE_BYTES
from fechtbuch.wartesaal.sessions import Identity, Sessions
from fechtbuch.wartesaal.store import Store
from support.wartesaal_play import guests, open_table, play_turn, seat_clients
from support.wartesaal_server import SECRET, Server


@pytest.fixture
def server(tmp_path):
    running = Server(f"sqlite:///{tmp_path / 'room.db'}").start()
    yield running
    running.stop()


def _expired_token(monkeypatch) -> str:
    """A token signed with the room's secret eight days ago."""
    past = time.time() - 8 * 24 * 3600
    with monkeypatch.context() as patch:
        patch.setattr(itsdangerous.timed.time, "time", lambda: past)
        return Sessions(SECRET).issue(Identity("Anna", False))


def test_hostile_requests_fail_cleanly(server, monkeypatch):
    async def scenario():
        a, b = await guests(server.url, 2)
        stranger = await Client(server.url).connect()

        async def refused(client, frame, starts):
            await client.send_raw(frame)
            while True:
                message = client.received[-1] if client.received else None
                if message and message["type"] == "error" and message.get("_seen") is None:
                    message["_seen"] = True
                    assert message["error"].startswith(starts), message
                    return
                await asyncio.sleep(0.01)

        await refused(stranger, "{not json", "message: not JSON")
        await refused(stranger, "[1, 2]", "message: expected a JSON object")
        await refused(
            stranger, json.dumps({"type": "x" * (MAX_MESSAGE_BYTES + 10)}), "message: longer"
        )
        await refused(stranger, json.dumps({"type": "drop tables"}), "type:")
        await refused(stranger, json.dumps({"type": "challenges"}), "session: say hello")
        forged = Sessions("another-secret-0123456").issue(Identity("Anna", False))
        assert (await stranger.request("hello", session=forged))["error"].startswith(
            "session: not signed"
        )
        expired = _expired_token(monkeypatch)
        assert (await stranger.request("hello", session=expired))["error"].startswith(
            "session: expired"
        )
        assert (await stranger.request("hello", session=12))["error"].startswith("session:")
        for fields in ({"table": ["x"]}, {"table": {"a": 1}}, {}):
            answer = await a.request("unwatch", **fields)
            assert answer["error"] == "table: a table id"
        for kind in ("watch", "replay", "accept", "withdraw", "resign", "offer", "decline"):
            answer = await a.request(kind, table=7, challenge=[1], offer={"x": 1})
            assert answer["type"] == "error" and answer["error"].split(":")[0] in (
                "table",
                "challenge",
                "offer",
            ), answer
        # a spectator is no seat; the waiting seat is not to act; a second identical
        # action is answered as a duplicate and changes nothing
        table_id = await open_table([a, b], game="battleklinge", variant="einsteiger")
        seats = await seat_clients([a, b], table_id)
        await stranger.ask("guest")
        start = seats[0].tables[table_id]
        mover, waiter = seats[start["to_act"]], seats[1 - start["to_act"]]
        legal = mover.tables[table_id]["legal"]
        answer = await stranger.request("act", table=table_id, seq=0, action=legal[0])
        assert answer["error"].startswith("seat: you have no seat")
        answer = await waiter.request("act", table=table_id, seq=0, action=legal[0])
        assert answer["error"].startswith("seat: it is seat")
        for bad in ({"seq": "0"}, {"seq": None}, {"action": 5}, {"table": ["x"]}):
            fields = {"table": table_id, "seq": 0, "action": legal[0]} | bad
            assert (await mover.request("act", **fields))["type"] == "error"
        first = await mover.ask("act", table=table_id, seq=0, action=legal[0])
        again = await mover.ask("act", table=table_id, seq=0, action=legal[0])
        assert (first["number"], first["duplicate"], again["duplicate"]) == (1, False, True)
        assert (await mover.request("act", table=table_id, seq=0, action=legal[1]))[
            "error"
        ].startswith("seq:")
        watched = await stranger.ask("watch", table=table_id)
        assert watched["table"]["you"] is None and watched["table"]["version"] == 1
        replay = await stranger.ask("replay", table=table_id)
        assert [x["number"] for x in replay["replay"]["actions"]] == [1]
        # the server still serves everyone
        assert (await a.ask("challenges"))["type"] == "challenges"
        assert httpx.get(server.http + "/health").json() == {"ok": True}
        for client in (a, b, stranger):
            await client.close()

    asyncio.run(scenario())
    assert server.alive()


def test_http_routes(server):
    guest = httpx.post(server.http + "/guest")
    assert guest.json()["guest"] and guest.cookies.get("session")
    bad = httpx.post(server.http + "/register", json={"name": "A", "password": "x"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("name:")
    assert httpx.post(server.http + "/login", content=b"{").json()["error"] == "message: not JSON"
    assert httpx.get(server.http + "/replay/nope").json()["error"].startswith("table: no table")
    games = httpx.get(server.http + "/games").json()["games"]
    assert {g["game"] for g in games} >= {"battleklinge", "touche-duell", "touche-pyramiden"}


def _strings(message) -> list[str]:
    if isinstance(message, str):
        return [message]
    if isinstance(message, dict):
        return [s for v in message.values() for s in _strings(v)]
    if isinstance(message, list):
        return [s for v in message for s in _strings(v)]
    return []


def test_touche_duel_hides_every_hand(server, tmp_path):
    async def scenario():
        a, b, spectator = await guests(server.url, 3)
        table_id = await open_table([a, b], game="touche-duell", variant="standard-kurz")
        await spectator.ask("watch", table=table_id)
        seats = await seat_clients([a, b], table_id)
        rng = random.Random(2)
        turns = 0
        while await play_turn(seats, table_id, rng) is not None:
            turns += 1
            if turns % 7 == 0:  # replays of the running game
                await spectator.ask("replay", table=table_id)
                await a.ask("replay", table=table_id)
        end = await spectator.wait_table(table_id, lambda m: m["status"] != "running")
        await spectator.ask("replay", table=table_id)
        await spectator.ask("tables")
        for client in (a, b, spectator):
            await client.close()
        return seats, spectator, end

    seats, spectator, end = asyncio.run(scenario())
    assert end["status"] == "finished" and end["unit"] >= 2
    store = Store(f"sqlite:///{tmp_path / 'room.db'}")
    with store.read() as tx:
        table = tx.table(end["id"])
        entries = tx.entries(end["id"])
    full_states = {e.before for e in entries} | {e.after for e in entries} | {table.state_text}
    assert len(full_states) > 20
    for seat, client in seats.items():
        _check_views(client.received, seat, full_states)
    _check_views(spectator.received, None, full_states)
    # the check can fail: a seat's own messages do show its hand
    assert any(
        not m["view"].split(" ")[5].split("/")[0].startswith("?")
        for m in seats[0].received
        if m["type"] == "table"
    )


def _check_views(messages: list[dict], seat: int | None, full_states: set[str]) -> None:
    """No message holds a full state; every view shows at most the receiver's hand;
    legal actions go only to the seat to act."""
    assert messages
    for message in messages:
        for text in _strings(message):
            assert text not in full_states
        tables = [message] if message["type"] == "table" else []
        if message["type"] == "watch":
            tables = [message["table"]]
        for table in tables:
            tokens = table["view"].split(" ")
            hands, pile = tokens[5].split("/"), tokens[7]
            assert pile.startswith("?")
            for owner, hand in enumerate(hands):
                if owner != seat:
                    assert hand.startswith("?"), (seat, table["view"])
            if "legal" in table:
                assert table["to_act"] == seat == table["you"]
        if message["type"] == "replay":
            for action in message["replay"]["actions"]:
                tokens = action["view"].split(" ")
                assert all(h.startswith("?") for h in tokens[5].split("/"))
                assert tokens[7].startswith("?")


@pytest.mark.parametrize(
    "database, field",
    [
        ("mysql://x/y", "database: expected sqlite"),
        ("sqlite://", "database: SQLite needs a file"),
        ("sqlite:////nonexistent/folder/room.db", "database: cannot open"),
        ("sqlite:////tmp/x.db?synchronous=off", "database: synchronous="),
    ],
)
def test_bad_command_line_is_one_line(database, field):
    env = dict(os.environ, WARTESAAL_SECRET=SECRET)
    command = [sys.executable, "-m", "fechtbuch.wartesaal", "--database", database]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"wartesaal: {field}") and done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "module, arguments, secret, field",
    [
        ("fechtbuch.wartesaal", ["--port", "-3"], SECRET, "Invalid value for '--port'"),
        ("fechtbuch.wartesaal", ["--tick", "nan"], SECRET, "Invalid value for '--tick'"),
        ("fechtbuch.wartesaal", [], "short", "WARTESAAL_SECRET:"),
        ("fechtbuch.wartesaal.loadbench", ["--clients", "3", "--games", "2"], "", "clients:"),
        ("fechtbuch.wartesaal.loadbench", ["--open", "--pace", "5-2"], "", "pace:"),
        ("fechtbuch.wartesaal.loadbench", ["--processes", "2"], "", "processes:"),
        (
            "fechtbuch.wartesaal.loadbench",
            ["--clients", "4", "--games", "2", "--client-processes", "3"],
            "",
            "client-processes:",
        ),
        ("fechtbuch.wartesaal.loadbench", ["--open", "--pace", "soon"], "", "pace:"),
    ],
)
def test_bad_options_are_one_line(module, arguments, secret, field):
    env = dict(os.environ, WARTESAAL_SECRET=secret)
    command = [sys.executable, "-m", module, *arguments]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    name = module.rsplit(".", 1)[1]
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"{name}: {field}"), done.stderr


@pytest.mark.parametrize(
    "loop",
    [
        [],
        ["--open", "--pace", "0-0.05", "--seconds", "3", "--idle", "20"],
        ["--seconds", "3", "--client-processes", "2"],
    ],
)
def test_the_load_bench_reports_latencies_and_server_costs_and_checks_the_logs(loop):
    command = [sys.executable, "-m", "fechtbuch.wartesaal.loadbench", "--json"]
    command += ["--clients", "8", "--games", "4", "--seed", "t", *loop]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["loop"] == ("open" if "--open" in loop else "closed")
    assert report["mismatched_tables"] == [] and report["actions"] > 0
    assert 0 < report["ack_p50_ms"] <= report["ack_p99_ms"] <= report["ack_p999_ms"]
    assert report["ack_p999_ms"] <= report["ack_max_ms"]
    assert report["update_p50_ms"] <= report["update_p99_ms"]
    assert report["actions_per_second"] > 0 and report["server_cpu_ms_per_action"] > 0
    assert report["client_cpu_ms_per_action"] > 0
    # resident memory may even shrink with eight connections: only its presence is sure
    assert isinstance(report["server_kb_per_connection"], float)
    assert report["wall_seconds"] < 60  # the open loop stops acting after 3 s
    assert report["idle_connections"] == (20 if "--idle" in loop else 0)
    idle_kb = report["server_kb_per_idle_connection"]
    assert isinstance(idle_kb, float) if "--idle" in loop else idle_kb is None
    assert report["client_processes"] == (2 if "--client-processes" in loop else 1)
    if not loop:
        assert report["tables_played"] == 4  # one game each
    elif "--open" not in loop:
        # game after game for 3 s: Revanches at the same seats, every log checked
        assert report["tables_played"] > 4 and report["wall_seconds"] >= 3


def test_a_server_without_the_extra_says_what_to_install():
    """Installed without ``fechtbuch[wartesaal]`` (argon2 missing): one line, exit 2."""
    code = (
        "import runpy, sys; sys.modules['argon2'] = None; sys.argv = ['wartesaal'];"
        "runpy.run_module('fechtbuch.wartesaal', run_name='__main__')"
    )
    env = dict(os.environ, WARTESAAL_SECRET="0123456789abcdef0123")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "wartesaal: argon2: not installed; pip install 'fechtbuch[wartesaal]'"
    ]


def test_the_room_offers_no_per_message_deflate(server):
    """docs/wartesaal.md: a client that offers per-message deflate (websockets does by
    default) gets uncompressed frames: the server answers with no extension."""
    import websockets

    async def handshake() -> str | None:
        async with websockets.connect(server.url) as socket:
            return socket.response.headers.get("Sec-WebSocket-Extensions")

    assert asyncio.run(handshake()) is None


def test_the_room_lists_are_pushed_when_they_change(server):
    """Who is online, the running and finished tables and the ranking reach a client
    that never asks for them (the page no longer polls)."""

    async def pushed(client, kind, holds):
        for _ in range(500):
            for message in reversed(client.received):
                if message["type"] == kind and "ref" not in message and holds(message):
                    return message
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {kind} message that holds: {client.received[-5:]}")

    async def scenario():
        [onlooker] = await guests(server.url, 1)
        a, b = Client(server.url), Client(server.url)
        names = {"Anna", "Bert"}  # members: their game changes the ranking
        for client, name in zip((a, b), sorted(names), strict=True):
            await client.connect()
            await client.ask("register", name=name, password="geheim-123")
        await pushed(onlooker, "online", lambda m: names <= set(m["online"]))
        table_id = await open_table([a, b], game="battleklinge")
        await pushed(onlooker, "tables", lambda m: table_id in {t["id"] for t in m["running"]})
        await a.ask("resign", table=table_id)
        ended = await pushed(
            onlooker, "tables", lambda m: table_id in {t["id"] for t in m["finished"]}
        )
        assert table_id not in {t["id"] for t in ended["running"]}
        ranked = await pushed(onlooker, "ranking", lambda m: len(m["ranking"]) == 2)
        assert {row["name"]: row["games"] for row in ranked["ranking"]} == dict.fromkeys(names, 1)
        await b.close()
        await pushed(onlooker, "online", lambda m: len(names & set(m["online"])) == 1)
        asked = [m for m in onlooker.received if m.get("ref") is not None]
        assert len(asked) == 1  # its guest login; every list came unasked
        for client in (onlooker, a):
            await client.close()

    asyncio.run(scenario())
