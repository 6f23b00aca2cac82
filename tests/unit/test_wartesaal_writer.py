"""The room's writer on SQLite (``writer.py``): the writing calls that arrive together
run as one batch, one transaction with a savepoint each and one commit; each is
answered only after that commit; a refusal leaves the others of its batch; a failed
commit fails every call of the batch, and over the WebSocket every client of it is
told so; while a worker thread has the writer's turn the loop does not wait for it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time

from fechtbuch.wartesaal.app import build_app
from fechtbuch.wartesaal.table import RoomError
from fechtbuch.wartesaal.writer import Writer
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient
from support.wartesaal_helpers import CHEAP, SECRET, make_room

TABLES = 6


def seated_tables(room, count: int) -> list[tuple[str, dict]]:
    """``count`` Battleklinge tables of two guests each: (id, the mover's view)."""
    found = []
    for _ in range(count):
        (a, _), (b, _) = room.guest(), room.guest()
        table_id = room.accept(b, room.create_challenge(a, {"game": "battleklinge"}))
        probe = room.table_message(a, table_id)
        mover = a if probe["seats"][probe["to_act"]] == a.name else b
        found.append((table_id, mover, room.table_message(mover, table_id)))
    return found


def logged(room, table_id: str) -> int:
    """Actions in the table's log, read through another connection (committed ones)."""
    with room.store.read() as tx:
        return len(tx.entries(table_id))


def test_actions_of_several_tables_commit_as_one_batch_and_are_answered_after_it(tmp_path):
    room = make_room(tmp_path / "room.db")
    tables = seated_tables(room, TABLES)
    group = room.store.group
    commits = []
    original = group._end

    def noting_end(batch, error):
        original(batch, error)
        commits.append((time.perf_counter(), batch.members))

    group._end = noting_end
    writer = Writer(room.store)
    answered: list[tuple[float, str, dict, int]] = []

    async def act(table_id, mover, view):
        call = functools.partial(room.act, mover, table_id, view["version"], view["legal"][0])
        answer = await writer.run(call)
        # the moment it is answered, another connection sees the action: it is committed
        answered.append((time.perf_counter(), table_id, answer, logged(room, table_id)))

    async def scenario():
        # one iteration of the loop: every call joins the same batch
        await asyncio.gather(*(act(*table) for table in tables))

    try:
        asyncio.run(scenario())
    finally:
        writer.stop()
    assert writer.batches == 1 and writer.calls == TABLES
    [(committed_at, members)] = commits
    assert members == TABLES  # one transaction, one savepoint per call
    assert len(answered) == TABLES
    for at, _table_id, answer, seen in answered:
        assert answer == {"number": 1, "duplicate": False}
        assert at > committed_at and seen == 1
    room.store.dispose()


def test_a_refusal_in_a_batch_leaves_the_others_changes(tmp_path):
    room = make_room(tmp_path / "room.db")
    tables = seated_tables(room, 3)
    writer = Writer(room.store)

    async def scenario():
        calls = []
        for k, (table_id, mover, view) in enumerate(tables):
            seq = view["version"] + (5 if k == 1 else 0)  # the second is stale: refused
            calls.append(functools.partial(room.act, mover, table_id, seq, view["legal"][0]))
        return await asyncio.gather(*(writer.run(c) for c in calls), return_exceptions=True)

    try:
        outcomes = asyncio.run(scenario())
    finally:
        writer.stop()
    assert writer.batches == 1
    assert outcomes[0]["number"] == 1 and outcomes[2]["number"] == 1
    assert isinstance(outcomes[1], RoomError) and str(outcomes[1]).startswith("seq:")
    assert [logged(room, t) for t, _, _ in tables] == [1, 0, 1]
    room.store.dispose()


def test_a_failed_commit_fails_every_call_of_its_batch(tmp_path):
    room = make_room(tmp_path / "room.db")
    tables = seated_tables(room, 4)
    group = room.store.group
    original = group._end

    def failing_end(batch, error):
        if error is None and batch.members == len(tables):
            return original(batch, OSError("disk I/O error"))
        return original(batch, error)

    group._end = failing_end
    writer = Writer(room.store)

    async def act_everywhere():
        calls = [
            functools.partial(room.act, mover, table_id, view["version"], view["legal"][0])
            for table_id, mover, view in tables
        ]
        return await asyncio.gather(*(writer.run(c) for c in calls), return_exceptions=True)

    try:
        failed = asyncio.run(act_everywhere())
        assert all(isinstance(error, RoomError) for error in failed)
        assert {str(error) for error in failed} == {
            "database: the change was not stored (disk I/O error); try again"
        }
        assert [logged(room, t) for t, _, _ in tables] == [0] * len(tables)
        group._end = original  # the disk is back: the same actions go through
        again = asyncio.run(act_everywhere())
    finally:
        writer.stop()
    assert [answer["number"] for answer in again] == [1] * len(tables)
    assert [logged(room, t) for t, _, _ in tables] == [1] * len(tables)
    room.store.dispose()


def _serve(tmp_path) -> Starlette:
    wartesaal = build_app(f"sqlite:///{tmp_path / 'room.db'}", SECRET, hasher=CHEAP)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with wartesaal.router.lifespan_context(wartesaal):
            yield

    return Starlette(routes=[Mount("/wartesaal", app=wartesaal)], lifespan=lifespan)


def _answer(socket, ref: str) -> dict:
    while True:
        message = socket.receive_json()
        if message.get("ref") == ref:
            return message


def test_over_the_websocket_each_client_of_a_failed_batch_gets_an_error(tmp_path):
    """A worker thread holds the writer's turn while three players of three tables send
    their actions, so that the three form one batch; its commit fails: each player is
    answered with an error naming the database, and nothing was applied."""
    app = _serve(tmp_path)
    wartesaal = app.routes[0].app
    room, hall = wartesaal.state.room, wartesaal.state.hall
    group = room.store.group
    original = group._end
    with TestClient(app) as http, contextlib.ExitStack() as sockets:
        movers = []
        for _ in range(3):
            a = sockets.enter_context(http.websocket_connect("/wartesaal/ws"))
            b = sockets.enter_context(http.websocket_connect("/wartesaal/ws"))
            a.send_json({"type": "guest", "ref": "g"})
            b.send_json({"type": "guest", "ref": "g"})
            _answer(a, "g"), _answer(b, "g")
            a.send_json({"type": "challenge", "ref": "c", "game": "battleklinge"})
            challenge = _answer(a, "c")["challenge"]
            b.send_json({"type": "accept", "ref": "a", "challenge": challenge})
            table_id = _answer(b, "a")["table"]
            for socket in (a, b):
                socket.send_json({"type": "watch", "ref": "w", "table": table_id})
                view = _answer(socket, "w")["table"]
                if view["to_act"] == view["you"]:
                    movers.append((socket, table_id, view))
        group.turn.acquire()  # as presence or the tick would
        held = True

        def failing_end(batch, error):
            if error is None and batch.members == 3:
                return original(batch, OSError("disk I/O error"))
            return original(batch, error)

        group._end = failing_end
        try:
            for socket, table_id, view in movers:
                socket.send_json(
                    {
                        "type": "act",
                        "ref": "x",
                        "table": table_id,
                        "seq": view["version"],
                        "action": view["legal"][0],
                    }
                )
            deadline = time.monotonic() + 20
            while http.portal.call(lambda: len(hall.writer.pending)) < 3:
                assert time.monotonic() < deadline, "the actions did not queue"
                time.sleep(0.01)
            assert http.portal.call(lambda: hall.writer.retrying)  # it did not wait
            group.turn.release()
            held = False
            answers = [_answer(socket, "x") for socket, _, _ in movers]
        finally:
            if held:
                group.turn.release()
            group._end = original
        assert [a["type"] for a in answers] == ["error"] * 3
        assert all(a["error"].startswith("database: the change was not stored") for a in answers)
        for _socket, table_id, view in movers:
            assert logged(room, table_id) == 0
            assert room.table_message(None, table_id)["version"] == view["version"]
