"""The Wartesaal mounted into another Starlette application, as ``fechtbuch serve``
will mount it, driven in-process (Starlette's TestClient: no socket): sessions by
cookie, offers and answers over the protocol, and a seat that leaves is marked away
for its opponent and back when it returns."""

from __future__ import annotations

import contextlib

from fechtbuch.wartesaal.app import build_app
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient
from wartesaal_helpers import CHEAP, SECRET


def _serve(tmp_path) -> Starlette:
    wartesaal = build_app(f"sqlite:///{tmp_path / 'room.db'}", SECRET, hasher=CHEAP)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with wartesaal.router.lifespan_context(wartesaal):
            yield

    return Starlette(routes=[Mount("/wartesaal", app=wartesaal)], lifespan=lifespan)


def _ask(ws, kind, **fields):
    ws.send_json({"type": kind, "ref": kind, **fields})
    while True:
        message = ws.receive_json()
        if message.get("ref") == kind:
            return message


def _table(ws, table_id, predicate):
    while True:
        message = ws.receive_json()
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
        with http.websocket_connect("/wartesaal/ws") as a:
            assert _ask(a, "account")["account"]["name"] == "Anna"
            http.cookies.clear()
            with http.websocket_connect("/wartesaal/ws") as b:
                assert _ask(b, "challenges")["error"].startswith("session: say hello")
                assert _ask(b, "hello", session=bert_token)["name"] == "Bert"
                created = _ask(a, "challenge", game="battleklinge", variant="einsteiger")
                table_id = _ask(b, "accept", challenge=created["challenge"])["table"]
                view_a = _ask(a, "watch", table=table_id)["table"]
                view_b = _ask(b, "watch", table=table_id)["table"]
                mover, other = (a, b) if view_a["to_act"] == view_a["you"] else (b, a)
                legal = (view_a if mover is a else view_b)["legal"]
                assert _ask(mover, "act", table=table_id, seq=0, action=legal[0])["number"] == 1
                # Zurücknehmen with consent
                assert _ask(mover, "offer", table=table_id, offer="takeback") == {
                    "type": "offer",
                    "ref": "offer",
                    "agreed": False,
                }
                _table(other, table_id, lambda m: m["offers"] == {"takeback": [view_a["to_act"]]})
                assert _ask(other, "offer", table=table_id, offer="takeback")["agreed"]
                back = _table(other, table_id, lambda m: m["version"] == 2)
                assert back["actions"] == 0 and back["view"] == view_a["view"]
                # an Abbruch offered and declined
                assert not _ask(a, "offer", table=table_id, offer="abort")["agreed"]
                assert _ask(b, "decline", table=table_id, offer="abort")["declined"] == "abort"
                assert _ask(b, "decline", table=table_id, offer="abort")["error"].startswith(
                    "answer: no 'abort' offer"
                )
                bert_seat = view_b["you"]
            # Bert's connection closed: Anna sees him away, then back
            _table(a, table_id, lambda m: m["away"] == [bert_seat])
            with http.websocket_connect("/wartesaal/ws") as b:
                _ask(b, "hello", session=bert_token)
                _table(a, table_id, lambda m: m["away"] == [])
                assert _ask(b, "resign", table=table_id) == {
                    "type": "resign",
                    "ref": "resign",
                    "resigned": True,
                }
                end = _table(a, table_id, lambda m: m["status"] == "finished")
                assert end["reason"] == "resigned" and end["result"][bert_seat] == 0.0
                rematch = _ask(a, "offer", table=table_id, offer="rematch")
                assert rematch["agreed"] is False
                answer = _ask(b, "offer", table=table_id, offer="rematch")
                new = _ask(b, "watch", table=answer["rematch"])["table"]
                assert new["seats"] == end["seats"][::-1]
