"""The Wartesaal mounted into another Starlette application, as ``fechtbuch serve``
will mount it, driven in-process (Starlette's TestClient: no socket): sessions by
cookie, offers and answers over the protocol, and a seat that leaves is marked away
for its opponent and back when it returns."""

from __future__ import annotations

import contextlib
import signal

from fechtbuch.wartesaal.app import build_app
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient
from support.wartesaal_helpers import CHEAP, SECRET


def _serve(tmp_path) -> Starlette:
    wartesaal = build_app(f"sqlite:///{tmp_path / 'room.db'}", SECRET, hasher=CHEAP)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with wartesaal.router.lifespan_context(wartesaal):
            yield

    return Starlette(routes=[Mount("/wartesaal", app=wartesaal)], lifespan=lifespan)


class Talk:
    """One WebSocket: answers by ``ref``; pushed messages read on the way are kept."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.kept: list[dict] = []

    def ask(self, kind, **fields):
        self.socket.send_json({"type": kind, "ref": kind, **fields})
        while True:
            message = self.socket.receive_json()
            if message.get("ref") == kind:
                return message
            self.kept.append(message)

    def pushed(self, kind):
        """The first pushed message of type ``kind``, kept or new; the room's list
        pushes (online, tables, ranking) may come before it at any time."""
        while self.kept:
            message = self.kept.pop(0)
            if message["type"] == kind:
                return message
        while True:
            message = self.socket.receive_json()
            if message["type"] == kind:
                return message

    def table(self, table_id, predicate):
        """The first table message, kept or new, for which ``predicate`` holds."""
        while self.kept:
            message = self.kept.pop(0)
            if message["type"] == "table" and message["id"] == table_id and predicate(message):
                return message
        while True:
            message = self.socket.receive_json()
            if message["type"] == "table" and message["id"] == table_id and predicate(message):
                return message


def test_mounted_room_offers_and_presence(tmp_path):
    with TestClient(_serve(tmp_path)) as http:
        bert_token = http.post(
            "/wartesaal/register", json={"name": "Bert", "password": "geheim-456"}
        ).json()["session"]
        anna = http.post("/wartesaal/register", json={"name": "Anna", "password": "geheim-123"})
        assert anna.status_code == 200 and anna.json()["name"] == "Anna"
        # the cookie of Anna's registration identifies her WebSocket
        with http.websocket_connect("/wartesaal/ws") as socket_a:
            a = Talk(socket_a)
            assert a.ask("account")["account"]["name"] == "Anna"
            http.cookies.clear()
            with http.websocket_connect("/wartesaal/ws") as socket_b:
                b = Talk(socket_b)
                assert b.ask("challenges")["error"].startswith("session: say hello")
                assert b.ask("hello", session=bert_token)["name"] == "Bert"
                created = a.ask("challenge", game="battleklinge", variant="einsteiger")
                table_id = b.ask("accept", challenge=created["challenge"])["table"]
                view_a = a.ask("watch", table=table_id)["table"]
                view_b = b.ask("watch", table=table_id)["table"]
                mover, other = (a, b) if view_a["to_act"] == view_a["you"] else (b, a)
                legal = (view_a if mover is a else view_b)["legal"]
                assert mover.ask("act", table=table_id, seq=0, action=legal[0])["number"] == 1
                # Zurücknehmen with consent
                assert mover.ask("offer", table=table_id, offer="takeback") == {
                    "type": "offer",
                    "ref": "offer",
                    "agreed": False,
                }
                other.table(table_id, lambda m: m["offers"] == {"takeback": [view_a["to_act"]]})
                assert other.ask("offer", table=table_id, offer="takeback")["agreed"]
                back = other.table(table_id, lambda m: m["version"] == 2)
                assert back["actions"] == 0 and back["view"] == view_a["view"]
                # an Abbruch offered and declined
                assert not a.ask("offer", table=table_id, offer="abort")["agreed"]
                assert b.ask("decline", table=table_id, offer="abort")["declined"] == "abort"
                assert b.ask("decline", table=table_id, offer="abort")["error"].startswith(
                    "answer: no 'abort' offer"
                )
                bert_seat = view_b["you"]
            # Bert's connection closed: Anna sees him away, then back
            a.table(table_id, lambda m: m["away"] == [bert_seat])
            with http.websocket_connect("/wartesaal/ws") as socket_b:
                b = Talk(socket_b)
                b.ask("hello", session=bert_token)
                a.table(table_id, lambda m: m["away"] == [])
                assert b.ask("resign", table=table_id) == {
                    "type": "resign",
                    "ref": "resign",
                    "resigned": True,
                }
                end = a.table(table_id, lambda m: m["status"] == "finished")
                assert end["reason"] == "resigned" and end["result"][bert_seat] == 0.0
                rematch = a.ask("offer", table=table_id, offer="rematch")
                assert rematch["agreed"] is False
                answer = b.ask("offer", table=table_id, offer="rematch")
                new = b.ask("watch", table=answer["rematch"])["table"]
                assert new["seats"] == end["seats"][::-1]


def test_after_lost_events_every_shown_table_is_sent_again(tmp_path):
    """A resync (the LISTEN session came back: events may be lost) sends each client
    the tables it sees once more, each as that client may see it."""
    app = _serve(tmp_path)
    wartesaal = app.routes[0].app
    room = wartesaal.state.room
    with TestClient(app) as http:
        with (
            http.websocket_connect("/wartesaal/ws") as socket_a,
            http.websocket_connect("/wartesaal/ws") as socket_b,
        ):
            a, b = Talk(socket_a), Talk(socket_b)
            tokens = [a.ask("guest")["session"], b.ask("guest")["session"]]
            created = a.ask("challenge", game="touche-duell", variant="standard")
            table_id = b.ask("accept", challenge=created["challenge"])["table"]
            seen = a.ask("watch", table=table_id)["table"]
            # an action whose event is lost: the room commits it with no listener
            mover = room.identify(tokens[0] if seen["to_act"] == seen["you"] else tokens[1])
            view = room.table_message(mover, table_id)
            listeners = list(room.store.listeners)
            room.store.listeners.clear()
            room.act(mover, table_id, view["version"], view["legal"][0])
            room.store.listeners.extend(listeners)
            signal.signal(signal.SIGALRM, _too_long)
            signal.alarm(20)
            try:
                http.portal.call(wartesaal.state.hall.queue.put, {"kind": "resync"})
                newer = {
                    t: t.table(table_id, lambda m: m["version"] > seen["version"]) for t in (a, b)
                }
            finally:
                signal.alarm(0)
            assert newer[a]["you"] == seen["you"] and newer[b]["you"] == 1 - seen["you"]
            assert newer[a]["view"] != newer[b]["view"]  # each its own hand


def _too_long(signum, frame):
    raise TimeoutError("the resync sent nothing within 20 s")


def test_logging_out_ends_the_session_everywhere(tmp_path):
    with TestClient(_serve(tmp_path)) as http:
        token = http.post(
            "/wartesaal/register", json={"name": "Anna", "password": "geheim-123"}
        ).json()["session"]
        with (
            http.websocket_connect("/wartesaal/ws") as socket_a,
            http.websocket_connect("/wartesaal/ws") as socket_b,
        ):
            a, b = Talk(socket_a), Talk(socket_b)
            assert a.ask("account")["account"]["name"] == "Anna"  # by the cookie
            assert b.ask("account")["account"]["name"] == "Anna"
            assert a.ask("logout") == {"type": "logout", "ref": "logout"}
            # the other connection of the same session is told, and speaks for no one
            assert b.pushed("logout") == {"type": "logout"}
            assert b.ask("account")["error"].startswith("session: say hello")
            assert b.ask("hello", session=token)["error"] == (
                "session: ended by logging out, log in again"
            )
            # a new login is a new session
            fresh = b.ask("login", name="Anna", password="geheim-123")
            assert fresh["name"] == "Anna" and fresh["session"] != token
        # over HTTP: the cookie's session ends, and the cookie is deleted
        http.cookies.clear()
        http.post("/wartesaal/login", json={"name": "Anna", "password": "geheim-123"})
        ended = http.post("/wartesaal/logout")
        assert ended.json() == {"ok": True} and "session" not in http.cookies
        again = http.post("/wartesaal/logout", json={"session": token})
        assert again.status_code == 400 and again.json()["error"].startswith("session: ended")
