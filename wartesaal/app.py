"""The Wartesaal as a Starlette application: a few HTTP routes and one WebSocket.

``build_app(database_url, secret)`` gives an application that ``fechtbuch serve``
mounts (``Mount("/wartesaal", app=build_app(...))``) or that runs on its own
(``python -m fechtbuch.wartesaal``).  Routes:

* ``GET /health``: ``{"ok": true}``;
* ``POST /register``, ``POST /login`` (JSON ``name``, ``password``), ``POST /guest``:
  a session token in the answer and in the ``session`` cookie (HttpOnly, SameSite);
* ``GET /games``, ``GET /challenges``, ``GET /tables``, ``GET /replay/{id}``: public
  reading, the same answers as over the WebSocket;
* ``WS /ws``: the protocol of ``protocol.py`` (docs/wartesaal.md).

Room calls touch the database: on SQLite the requests that change the room run in
batches, each committed by the store thread (``writer.py``), the rest on worker
threads; one dispatcher task per process turns room events into messages, so each
client gets the updates of one table in order (and never an older version after a
newer one).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import anyio
import orjson
from argon2 import PasswordHasher
from fechtbuch.wartesaal import accounts
from fechtbuch.wartesaal.events import events_for
from fechtbuch.wartesaal.games import catalogue
from fechtbuch.wartesaal.protocol import (
    BEFORE_LOGIN,
    MAX_MESSAGE_BYTES,
    check_request,
    error,
    parse_body,
    parse_object,
    reference,
)
from fechtbuch.wartesaal.room import Room
from fechtbuch.wartesaal.sessions import Identity
from fechtbuch.wartesaal.store import Store
from fechtbuch.wartesaal.table import ABORTED, FINISHED, RUNNING, RoomError
from fechtbuch.wartesaal.throttle import HASHING_AT_ONCE, MOST_WAITING, LoginThrottle
from fechtbuch.wartesaal.writer import Writer
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

COOKIE = "session"
WRITERS_AT_ONCE = 64
"""Threads that run room calls that write on worker threads (all of them on
PostgreSQL; on SQLite presence and the tick, which read between their transactions);
on SQLite those queued during one commit are committed as one group."""
LIST_INTERVAL = 1.0
"""Seconds between two pushes of one of the room's lists."""
LIST_SLICE = 100
"""Connections a list is sent to before the loop turns to other work."""
ROOM_LISTS = ("challenges", "tables", "online", "ranking")
"""The room's lists, pushed to every client with a session when they change (the
events of these kinds say so)."""
ONLINE_SHOWN = 50
"""Names the list of who is online holds at most (members first, then guests), beside
the count of all: it goes to every connection whenever someone comes or goes, so its
size must not grow with the room."""
SESSION_REQUESTS = frozenset({"hello", "login", "register", "guest"})
"""The requests that give a connection its session (one per connection)."""


@dataclass(eq=False)
class Client:
    """One open WebSocket."""

    number: int
    socket: WebSocket
    identity: Identity | None = None
    watching: set[str] = field(default_factory=set)
    versions: dict[str, int] = field(default_factory=dict)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, message: dict) -> None:
        await self.send_text(encode(message))

    async def send_text(self, frame: str) -> None:
        """Send an encoded message (one encoding for a message that many receive)."""
        async with self.send_lock:
            with contextlib.suppress(Exception):  # a closing socket: its reader ends it
                await self.socket.send_text(frame)


Drawing = Callable[[dict], dict]
"""What a front end adds to a ``table`` or ``replay`` message before it is sent (its
board drawing).  It is given the message only, which holds only what its receiver may
see, so a drawing cannot show more than the message does."""


def _undrawn(message: dict) -> dict:
    return message


class Hall:
    """The clients of this process and the fan-out of room events to them."""

    def __init__(self, room: Room, drawing: Drawing = _undrawn) -> None:
        self.room = room
        self.drawing = drawing
        self.clients: dict[int, Client] = {}
        self.by_name: dict[str, set[Client]] = defaultdict(set)
        self.watchers: dict[str, set[Client]] = defaultdict(set)
        """Per table id: the connections that get its pushed messages."""
        self.list_interval = LIST_INTERVAL
        self.lists_sent: dict[str, str] = {}
        """Per list: the frame pushed last (an unchanged list is not pushed again)."""
        self.numbers = itertools.count(1)
        self.queue: asyncio.Queue[dict] = asyncio.Queue()
        self.locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """Per table: the lock that keeps its events in order, and how many wait for it."""
        self.running: set[asyncio.Task] = set()
        self.writes = anyio.CapacityLimiter(WRITERS_AT_ONCE)
        self.writer = None if room.store.group is None else Writer(room.store)
        """SQLite: the requests that write, in batches (``writer.py``)."""
        self.throttle = LoginThrottle()
        self.hashing = anyio.CapacityLimiter(HASHING_AT_ONCE)
        """Password checks run here, a few at a time (``throttle.py``)."""
        self.password_checks = 0
        """Password checks running or queued (counted before the limiter is asked,
        which may first yield to the other tasks)."""

    async def write(self, call, *args):
        """Run a room call that writes (one transaction, no reads beside it): on SQLite
        in the writer's next batch (``writer.py``), on PostgreSQL on a worker
        thread (:meth:`write_apart`)."""
        if self.writer is None:
            return await self.write_apart(call, *args)
        return await self.writer.run(functools.partial(call, *args))

    async def write_apart(self, call, *args):
        """Run a room call that writes on a worker thread of its own pool: on SQLite the
        writers that queue while one group is committed form the next group
        (``groupcommit.py``), so the pool is as large as a group is worth making.  For
        calls that read between their transactions (presence, the tick): in a batch
        their reads would not see what the batch wrote before them."""
        return await anyio.to_thread.run_sync(functools.partial(call, *args), limiter=self.writes)

    def arrived(self, events: list[dict]) -> None:
        """Room events (a committed group's, in order) for the dispatcher."""
        for event in events:
            self.queue.put_nowait(event)

    async def password_session(self, address: str, kind: str, request: dict) -> str:
        """A session token for a ``login`` or ``register`` with a name and password,
        counted and queued by ``throttle.py`` so that a flood of them cannot starve
        the room."""
        name, password = request.get("name"), request.get("password")
        self.throttle.admit(address, name)
        if self.password_checks >= HASHING_AT_ONCE + MOST_WAITING:
            raise RoomError("login: the room is busy checking passwords; try again soon")
        call = self.room.login if kind == "login" else self.room.register
        self.password_checks += 1
        try:
            return await anyio.to_thread.run_sync(
                functools.partial(call, name, password), limiter=self.hashing
            )
        except RoomError:
            if kind == "login":
                self.throttle.failed(name)
            raise
        finally:
            self.password_checks -= 1

    # ---- events ---------------------------------------------------------------------------
    async def dispatch(self) -> None:
        """Fan the events out concurrently, those of one table in order (an asyncio
        lock is fair: first come, first served)."""
        while True:
            event = await self.queue.get()
            task = asyncio.create_task(self._fan_out_in_turn(event))
            self.running.add(task)
            task.add_done_callback(self.running.discard)

    async def _fan_out_in_turn(self, event: dict) -> None:
        key = event.get("id") or event["kind"]
        lock, waiting = self.locks.get(key, (asyncio.Lock(), 0))
        self.locks[key] = (lock, waiting + 1)
        try:
            async with lock:
                # a list that changes again before it went out is sent once, as it is
                # then: the later event is already waiting for the lock
                if event["kind"] in ROOM_LISTS and self.locks[key][1] > 1:
                    return
                await self._fan_out(event)
                if event["kind"] in ROOM_LISTS:
                    # at most one push of a list per interval: the changes meanwhile
                    # queue behind the lock and go out as one (a list goes to everyone)
                    await asyncio.sleep(self.list_interval)
        except Exception as err:  # one bad event must not stop the room's updates
            print(f"wartesaal: event {event!r} failed: {err!r}", flush=True)
        finally:
            lock, waiting = self.locks[key]
            if waiting == 1:
                del self.locks[key]
            else:
                self.locks[key] = (lock, waiting - 1)

    async def _fan_out(self, event: dict) -> None:
        if event["kind"] == "logout":
            # the session ended: its connections on this process are anonymous again
            ended = [
                c
                for c in list(self.clients.values())
                if c.identity is not None and c.identity.session == event["session"]
            ]
            for client in ended:
                await self.forget(client)
                await client.send({"type": "logout"})
            return
        if event["kind"] == "resync":
            # events were lost: every table a client sees, and the challenges, again
            shown = {table_id for c in self.clients.values() for table_id in c.watching}
            for table_id in sorted(shown):
                await self.queue.put({"kind": "table", "id": table_id})
            await self.queue.put({"kind": "challenges"})
            return
        if event["kind"] in ROOM_LISTS:
            message = await run_in_threadpool(self.room_list, event["kind"])
            frame = encode(message)
            if frame == self.lists_sent.get(event["kind"]):
                return  # as it was pushed last (a change beyond the shown part of it)
            self.lists_sent[event["kind"]] = frame
            for k, client in enumerate(list(self.clients.values())):
                if client.identity is not None:
                    await client.send_text(frame)
                if k % LIST_SLICE == LIST_SLICE - 1:
                    # a list goes to every connection: let the requests in between, so
                    # that thousands of sends do not hold up every action meanwhile
                    await asyncio.sleep(0)
            return
        if event["kind"] != "table":
            return
        table_id = event["id"]
        for name in event.get("new", ()):
            for client in self.by_name.get(name, ()):
                self.watch(client, table_id)
        watchers = list(self.watchers.get(table_id, ()))
        if not watchers:
            return
        viewers = [c.identity for c in watchers]
        snapshot = event.get("snapshot")
        if snapshot is not None:
            # the committed table is at hand: its views cost less than a thread's wake-up
            messages = self._drawn_messages(viewers, table_id, snapshot)
        else:
            messages = await run_in_threadpool(self._drawn_messages, viewers, table_id)
        frames: dict[int, str] = {}  # a view many receive (the spectators') is encoded once
        for client, message in zip(watchers, messages, strict=True):
            # never send a version back (a watch may have answered a newer one)
            if message["version"] < client.versions.get(table_id, -1):
                continue
            client.versions[table_id] = message["version"]
            if id(message) not in frames:
                frames[id(message)] = encode(message)
            await client.send_text(frames[id(message)])

    def watch(self, client: Client, table_id: str) -> None:
        """``client`` gets the table's pushed messages (indexed by table, so that an
        event finds its watchers without a look at every connection)."""
        client.watching.add(table_id)
        self.watchers[table_id].add(client)

    def unwatch(self, client: Client, table_id: str) -> None:
        client.watching.discard(table_id)
        watchers = self.watchers.get(table_id)
        if watchers is not None:
            watchers.discard(client)
            if not watchers:
                del self.watchers[table_id]

    def unwatch_all(self, client: Client) -> None:
        for table_id in list(client.watching):
            self.unwatch(client, table_id)

    def room_list(self, kind: str) -> dict:
        """The pushed message of one of the room's lists (:data:`ROOM_LISTS`)."""
        room = self.room
        if kind == "challenges":
            return {"type": "challenges", "challenges": room.challenges()}
        if kind == "tables":
            running, finished = room.tables(RUNNING), room.tables(FINISHED)
            return {"type": "tables", "running": running, "finished": finished}
        if kind == "online":
            return {"type": "online"} | shown_online(room.online())
        return {"type": "ranking", "ranking": room.ranking()}

    def _drawn_messages(
        self, viewers: list[Identity | None], table_id: object, snapshot: tuple | None = None
    ) -> list[dict]:
        """Each viewer's message with its drawing; a view shared by several viewers
        (the spectators') is drawn once."""
        drawn: dict[int, dict] = {}
        messages = []
        for message in self.room.table_messages(viewers, table_id, snapshot):
            if id(message) not in drawn:
                drawn[id(message)] = self.drawing(message)
            messages.append(drawn[id(message)])
        return messages

    # ---- connections ----------------------------------------------------------------------
    async def identify(self, client: Client, identity: Identity) -> None:
        if client.identity is not None:
            raise RoomError("session: this connection already has one")
        client.identity = identity
        first = not self.by_name[identity.name]
        self.by_name[identity.name].add(client)
        for table_id in await run_in_threadpool(self.room.tables_of, identity.name):
            self.watch(client, table_id)
        if first:
            await self.write_apart(self.room.presence, identity.name, True)

    async def leave(self, client: Client) -> None:
        self.clients.pop(client.number, None)
        await self.forget(client)
        self.unwatch_all(client)  # also an anonymous one's: the index holds no closed one

    async def forget(self, client: Client) -> None:
        """The connection no longer speaks for its name (closed, or logged out)."""
        if client.identity is None:
            return
        name = client.identity.name
        client.identity = None
        self.unwatch_all(client)
        names = self.by_name[name]
        names.discard(client)
        if not names:
            del self.by_name[name]
            await self.write_apart(self.room.presence, name, False)

    # ---- requests -------------------------------------------------------------------------
    async def handle(self, client: Client, request: dict) -> dict:
        kind = request["type"]
        room = self.room
        if kind not in BEFORE_LOGIN and client.identity is None:
            raise RoomError("session: say hello with a session, or log in, first")
        if kind in SESSION_REQUESTS and client.identity is not None:
            # refused before anything is checked or written (a register would make the
            # account, a login renew its hash, for a session this connection refuses)
            raise RoomError("session: this connection already has one")
        who = client.identity
        if kind == "hello":
            identity = await run_in_threadpool(room.identify, request.get("session"))
            await self.identify(client, identity)
            return self._welcome(client, request.get("session"))
        if kind in ("login", "register"):
            token = await self.password_session(_address(client.socket), kind, request)
            await self.identify(client, await run_in_threadpool(room.identify, token))
            return self._welcome(client, token)
        if kind == "guest":
            identity, token = room.guest()
            await self.identify(client, identity)
            return self._welcome(client, token)
        if kind == "games":
            return {"games": catalogue()}
        if kind == "challenges":
            return {"challenges": await run_in_threadpool(room.challenges)}
        if kind == "challenge":
            return {"challenge": await self.write(room.create_challenge, who, request)}
        if kind == "withdraw":
            await self.write(room.withdraw, who, request.get("challenge"))
            return {}
        if kind == "accept":
            return {"table": await self.write(room.accept, who, request.get("challenge"))}
        if kind == "act":
            table_id = request.get("table")
            answer = await self.write(
                room.act, who, table_id, request.get("seq"), request.get("action")
            )
            self.watch(client, table_id)
            return answer
        if kind in ("offer", "decline"):
            call = room.offer if kind == "offer" else room.decline
            return await self.write(call, who, request.get("table"), request.get("offer"))
        if kind == "resign":
            return await self.write(room.resign, who, request.get("table"))
        if kind == "watch":
            table_id = request.get("table")
            [message] = await run_in_threadpool(self._drawn_messages, [who], table_id)
            self.watch(client, table_id)
            client.versions[table_id] = message["version"]
            return {"table": message}
        if kind == "unwatch":
            table_id = request.get("table")
            if not isinstance(table_id, str):
                raise RoomError("table: a table id")
            self.unwatch(client, table_id)
            return {}
        if kind == "replay":
            replay = await run_in_threadpool(room.replay, request.get("table"))
            return {"replay": await run_in_threadpool(self.drawing, replay)}
        if kind == "tables":
            status = request.get("status", RUNNING)
            if status not in (RUNNING, FINISHED, ABORTED):
                raise RoomError(f"status: one of {RUNNING}, {FINISHED}, {ABORTED}")
            return {"tables": await run_in_threadpool(room.tables, status)}
        if kind == "online":
            return shown_online(await run_in_threadpool(room.online))
        if kind == "logout":
            await self.write(room.logout, who)
            return {}
        if kind == "account":
            return {"account": await run_in_threadpool(room.account, who.name)}
        if kind == "ranking":
            return {"ranking": await run_in_threadpool(room.ranking)}
        raise RoomError(f"type: {kind!r} is not handled")  # protocol.REQUESTS and this agree

    def _welcome(self, client: Client, token: str) -> dict:
        return {"name": client.identity.name, "guest": client.identity.guest, "session": token}

    async def serve(self, socket: WebSocket) -> None:
        await socket.accept()
        client = Client(next(self.numbers), socket)
        self.clients[client.number] = client
        cookie = socket.cookies.get(COOKIE)
        try:
            if cookie:
                with contextlib.suppress(RoomError):
                    await self.identify(client, await run_in_threadpool(self.room.identify, cookie))
            while True:
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                raw = text if text is not None else frame.get("bytes") or b""
                ref = None
                try:
                    request = parse_object(raw)
                    ref = reference(request)
                    kind = check_request(request)
                    answer = await self.handle(client, request)
                    await client.send({"type": kind, "ref": ref} | answer)
                except RoomError as err:
                    await client.send(error(ref, str(err)))
                except Exception as err:  # a bug must cost one answer, not the connection
                    print(f"wartesaal: request failed: {err!r}", flush=True)
                    await client.send(error(ref, "message: the server could not handle it"))
        except WebSocketDisconnect:
            pass
        finally:
            await self.leave(client)


def build_app(
    database_url: str,
    secret: str,
    hasher: PasswordHasher | None = None,
    tick_seconds: float = 1.0,
    drawing: Drawing = _undrawn,
    page_routes: Sequence[BaseRoute] = (),
    clock: Callable[[], float] = time.time,
) -> Starlette:
    """The Wartesaal on ``database_url`` (``sqlite:///FILE`` or ``postgresql://...``),
    signing sessions with ``secret`` (every process of one room shares it).  A front
    end that serves a page for the room gives its ``page_routes`` and the ``drawing``
    it adds to table and replay messages (``fechtbuch.web.wartesaal_page``); ``clock``
    is the room's time (tests move it to reach a deadline)."""
    store = Store(database_url)
    room = Room(
        store, secret, hasher=hasher, clock=clock, presence_fresh=max(3.0, 5 * tick_seconds)
    )
    hall = Hall(room, drawing)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        loop = asyncio.get_running_loop()
        events = events_for(store, lambda found: loop.call_soon_threadsafe(hall.arrived, found))
        await run_in_threadpool(events.start)
        await run_in_threadpool(room.restore, 3 * tick_seconds)
        tasks = [
            asyncio.create_task(hall.dispatch()),
            asyncio.create_task(_ticks(hall, tick_seconds)),
        ]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            if hall.writer is not None:
                await run_in_threadpool(hall.writer.stop)
            await run_in_threadpool(events.stop)
            store.dispose()

    async def answer(call, *args) -> JSONResponse:
        try:
            return JSONResponse(await run_in_threadpool(call, *args))
        except RoomError as err:
            return JSONResponse({"error": str(err)}, status_code=400)

    async def session_route(request: Request) -> JSONResponse:
        try:
            body = {}
            if request.url.path.endswith(("login", "register")):
                body = parse_body(await _bounded_body(request))
            if request.url.path.endswith("guest"):
                identity, token = room.guest()
            else:
                kind = "login" if request.url.path.endswith("login") else "register"
                token = await hall.password_session(_address(request), kind, body)
                identity = await run_in_threadpool(room.identify, token)
        except RoomError as err:
            status = 429 if str(err).startswith("login: ") else 400
            return JSONResponse({"error": str(err)}, status_code=status)
        response = JSONResponse({"name": identity.name, "guest": identity.guest, "session": token})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return response

    async def logout(request: Request) -> JSONResponse:
        """End the session of the ``session`` cookie (or of ``{"session": ...}``)."""
        try:
            raw = await _bounded_body(request)
            token = parse_body(raw).get("session") if raw else None
            identity = await run_in_threadpool(room.identify, token or request.cookies.get(COOKIE))
            await hall.write(room.logout, identity)
        except RoomError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, httponly=True, samesite="strict")
        return response

    async def health(_request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    async def games(_request: Request) -> JSONResponse:
        return JSONResponse({"games": catalogue()})

    async def challenges(_request: Request) -> JSONResponse:
        return await answer(lambda: {"challenges": room.challenges()})

    async def tables(_request: Request) -> JSONResponse:
        return await answer(lambda: {"tables": room.tables(RUNNING)})

    async def replay(request: Request) -> JSONResponse:
        return await answer(lambda: {"replay": room.replay(request.path_params["table"])})

    app = Starlette(
        routes=[
            *page_routes,
            Route("/health", health),
            Route("/register", session_route, methods=["POST"]),
            Route("/login", session_route, methods=["POST"]),
            Route("/guest", session_route, methods=["POST"]),
            Route("/logout", logout, methods=["POST"]),
            Route("/games", games),
            Route("/challenges", challenges),
            Route("/tables", tables),
            Route("/replay/{table}", replay),
            WebSocketRoute("/ws", hall.serve),
        ],
        lifespan=lifespan,
    )
    app.state.room = room
    app.state.hall = hall
    return app


def encode(message: dict) -> str:
    """A message as the text of a WebSocket frame (orjson: the encoding of every
    message sent was a visible share of the server's time in a profile)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def shown_online(names: list[str]) -> dict:
    """The online list as it is sent: at most :data:`ONLINE_SHOWN` names, members
    before guests, each sorted, and the count of all."""
    ordered = sorted(names, key=lambda name: (name.startswith(accounts.GUEST_PREFIX), name))
    return {"online": ordered[:ONLINE_SHOWN], "count": len(names)}


async def _bounded_body(request: Request) -> bytes:
    """The request's body, read no further than one byte over the message limit
    (``parse_body`` refuses that)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_MESSAGE_BYTES:
            break
    return body


def _address(connection: Request | WebSocket) -> str:
    """The client's address, as the throttle counts it."""
    return connection.client.host if connection.client else "unknown"


async def _ticks(hall: Hall, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        try:
            await hall.write_apart(hall.room.tick)
            await hall.write_apart(hall.room.keep_presence)
        except Exception as err:  # a busy database: try again at the next tick
            print(f"wartesaal: tick failed: {err!r}", flush=True)
