"""The Wartesaal's limits and refusals over the protocol, driven in-process (Starlette's
TestClient: no socket): a refused request changes no data, sizes are counted in
bytes, every answer to a message with a ``ref`` carries it back, over-long passwords,
deep nesting, broken text and numbers out of range get errors naming the field; the
limits table of docs/wartesaal.md agrees with the code.  The frame limit, which
uvicorn enforces, is checked on both ways of starting the server (real processes)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import websockets
from fechtbuch.wartesaal import accounts, protocol, room, sessions
from fechtbuch.wartesaal.app import ROOM_LISTS, build_app
from fechtbuch.wartesaal.sessions import Identity, Sessions
from starlette.testclient import TestClient
from support.wartesaal_helpers import CHEAP, SECRET, FakeClock, make_room, members, open_table
from support.wartesaal_server import Server

DOC = Path(__file__).resolve().parents[2] / "docs" / "wartesaal.md"


class Talk:
    """One WebSocket of the TestClient: requests with a ``ref``, answers paired by it."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.refs = 0

    def raw(self, text: str) -> dict:
        """Send ``text`` as it is; the next answer that is not a pushed message."""
        self.socket.send_text(text)
        while True:
            message = self.socket.receive_json()
            if message["type"] != "table" and message["type"] not in ROOM_LISTS:
                return message

    def ask(self, kind: str, **fields) -> dict:
        self.refs += 1
        answer = self.raw(json.dumps({"type": kind, "ref": self.refs, **fields}))
        assert answer["ref"] == self.refs, answer
        return answer


@pytest.fixture
def http(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'room.db'}", SECRET, hasher=CHEAP)
    with TestClient(app) as client:
        yield client


def test_a_refused_register_or_login_changes_nothing(http):
    """A connection that has a session is refused a second one before anything is
    written: the account of the refused register does not exist."""
    with http.websocket_connect("/ws") as socket:
        talk = Talk(socket)
        assert talk.ask("guest")["guest"] is True
        refused = talk.ask("register", name="Twice1", password="password1")
        assert refused["error"] == "session: this connection already has one"
        refused = talk.ask("login", name="Twice1", password="password1")
        assert refused["error"] == "session: this connection already has one"
    with http.websocket_connect("/ws") as socket:
        talk = Talk(socket)
        login = talk.ask("login", name="Twice1", password="password1")
        assert login["error"] == "password: wrong name or password"
        assert talk.ask("register", name="Twice1", password="password1")["name"] == "Twice1"


def test_a_refused_rematch_leaves_the_offer_standing(tmp_path):
    """Agreeing to a Revanche that cannot be dealt (a seat lacks the stake) is refused,
    and the table keeps the offer that stood before it."""
    clock = FakeClock()
    saal = make_room(tmp_path / "room.db", clock)
    anna, bert = members(saal, "Anna", "Bert")
    stake = 100  # every new account's Taler: the loser has none left
    table_id = open_table(saal, anna, [bert], game="battleklinge", rated=True, stake=stake)
    clock.advance(121)  # a rated game counts after two minutes
    saal.resign(bert, table_id)
    assert saal.account("Bert")["taler"] == 0
    assert saal.offer(anna, table_id, "rematch") == {"agreed": False}
    before = saal.table_message(anna, table_id)
    with pytest.raises(room.RoomError, match="stake: Bert has fewer than 100 Taler"):
        saal.offer(bert, table_id, "rematch")
    after = saal.table_message(anna, table_id)
    assert after["offers"] == before["offers"] == {"rematch": [before["you"]]}
    assert after["version"] == before["version"]


def test_the_message_limit_counts_bytes(http):
    with http.websocket_connect("/ws") as socket:
        talk = Talk(socket)
        wide = json.dumps({"type": "games", "pad": "€" * 2000}, ensure_ascii=False)
        assert len(wide) < protocol.MAX_MESSAGE_BYTES < len(wide.encode())
        assert talk.raw(wide)["error"] == "message: longer than 4096 bytes"
        fits = json.dumps({"type": "games", "ref": 1, "pad": "€" * 1300}, ensure_ascii=False)
        assert len(fits.encode()) <= protocol.MAX_MESSAGE_BYTES
        assert talk.raw(fits)["type"] == "games"


def test_every_answer_to_a_ref_carries_it_back(http):
    with http.websocket_connect("/ws") as socket:
        talk = Talk(socket)
        for request in (
            {"type": "nonsense", "ref": "r1"},
            {"type": 5, "ref": 7},
            {"ref": "no-type"},
            {"type": "challenges", "ref": "before-login"},
        ):
            answer = talk.raw(json.dumps(request))
            assert answer["type"] == "error" and answer["ref"] == request["ref"], answer
        # a ref that is itself refused cannot be echoed, but its error says why
        answer = talk.raw(json.dumps({"type": "games", "ref": "x" * 65}))
        assert answer["ref"] is None and answer["error"].startswith("ref:")


def test_over_long_passwords_are_refused_not_cut(http):
    password = "p" * accounts.MAX_PASSWORD
    with http.websocket_connect("/ws") as socket:
        talk = Talk(socket)
        assert talk.ask("register", name="Lang", password=password)["name"] == "Lang"
    for longer in (password + "x", password + "p"):
        with http.websocket_connect("/ws") as socket:
            answer = Talk(socket).ask("login", name="Lang", password=longer)
            assert answer["error"] == "password: 8 to 256 characters", answer
        over_http = http.post("/login", json={"name": "Lang", "password": longer})
        assert over_http.status_code == 400
        assert over_http.json()["error"] == "password: 8 to 256 characters"
    with http.websocket_connect("/ws") as socket:
        assert Talk(socket).ask("login", name="Lang", password=password)["name"] == "Lang"


def test_deep_nesting_broken_text_and_huge_numbers_name_their_field(http):
    depth = 1900
    nested = '{"type": "act", "ref": 3, "action": ' + "[" * depth + "]" * depth + "}"
    assert len(nested) <= protocol.MAX_MESSAGE_BYTES
    with http.websocket_connect("/ws") as socket:
        talk = Talk(socket)
        answer = talk.raw(nested)
        assert answer["error"] == (f"action: nested deeper than {protocol.MAX_NESTING} levels"), (
            answer
        )
        assert talk.ask("guest")["guest"]
        answer = talk.raw('{"type": "watch", "ref": 4, "table": "\\ud800"}')
        assert answer == {
            "type": "error",
            "ref": 4,
            "error": "table: not valid Unicode text (a lone surrogate)",
        }
        answer = talk.raw(f'{{"type": "act", "ref": 5, "table": "t", "seq": -{10**40}}}')
        assert answer["ref"] == 5
        assert answer["error"] == f"seq: out of range (at most {protocol.MAX_INTEGER} in size)"
        answer = talk.raw('{"type": "challenge", "ref": 6, "clock_minutes": NaN}')
        assert answer["error"] == "clock_minutes: NaN and Infinity are not JSON numbers"
        answer = talk.raw('{"type": "act", "ref": 7, "table": "t", "seq": -1, "action": "x"}')
        assert answer["error"].startswith("seq: a whole number from 0"), answer


def test_seq_out_of_range_is_refused_by_the_room(tmp_path):
    saal = make_room(tmp_path / "room.db")
    anna, bert = members(saal, "Anna", "Bert")
    table_id = open_table(saal, anna, [bert], game="battleklinge")
    for seq in (-(10**40), 10**40, -1):
        with pytest.raises(room.RoomError, match="^seq: "):
            saal.act(anna, table_id, seq, "x")


def test_http_bodies_keep_the_same_limits(http):
    deep = '{"name": ' + "[" * 100 + "]" * 100 + ', "password": "password1"}'
    answer = http.post("/register", content=deep)
    assert answer.status_code == 400
    assert answer.json()["error"] == f"name: nested deeper than {protocol.MAX_NESTING} levels"
    big = json.dumps({"name": "Anna", "password": "p" * 10, "pad": "€" * 2000})
    answer = http.post("/register", content=big.encode())
    assert answer.status_code == 400
    assert answer.json()["error"] == "message: longer than 4096 bytes"


def test_each_field_limit_at_its_edge(http):
    """Just within each limit of a field is taken (or refused for another reason);
    one past it is refused naming the field."""
    with http.websocket_connect("/ws") as socket:
        talk = Talk(socket)
        assert talk.ask("register", name="Abc", password="p" * 7)["error"].startswith(
            "password: 8 to 256"
        )
        assert talk.ask("register", name="Ab", password="p" * 8)["error"].startswith(
            "name: 3 to 24"
        )
        assert talk.ask("register", name="A" * 25, password="p" * 8)["error"].startswith("name:")
        token = Sessions(SECRET).issue(Identity("Fremd", False))
        assert len(token) < sessions.MAX_TOKEN
        too_long = token + "x" * (sessions.MAX_TOKEN - len(token) + 1)
        assert talk.ask("hello", session=too_long)["error"] == "session: missing or malformed"
        at_limit = too_long[: sessions.MAX_TOKEN]
        assert talk.ask("hello", session=at_limit)["error"] == "session: not signed by this room"
        assert talk.ask("register", name="A" * 24, password="p" * 8)["name"] == "A" * 24
        text = "t" * room.MAX_TEXT
        assert talk.ask("watch", table=text)["error"].startswith("table: no table")
        answer = talk.ask("watch", table=text + "t")
        assert answer["error"] == f"table: a text of 1 to {room.MAX_TEXT} characters"
        game = {"game": "battleklinge", "variant": "einsteiger"}
        made = talk.ask("challenge", **game, clock_minutes=room.MAX_CLOCK_MINUTES)
        assert "challenge" in made, made
        answer = talk.ask("challenge", **game, clock_minutes=room.MAX_CLOCK_MINUTES + 0.5)
        assert answer["error"].startswith("clock_minutes:")
        answer = talk.ask("challenge", **game, rated=True, stake=room.MAX_STAKE)
        assert answer["error"] == f"stake: you have fewer than {room.MAX_STAKE} Taler"
        answer = talk.ask("challenge", **game, rated=True, stake=room.MAX_STAKE + 1)
        assert answer["error"].startswith(
            f"stake: a whole number of Taler from 0 to {room.MAX_STAKE}"
        )


# ---- the version -----------------------------------------------------------------------


def test_the_version_counts_actions_and_takebacks_only(tmp_path):
    """Offers, away marks and endings leave ``version`` alone, so a move sent while the
    opponent offered something or dropped out is still current; docs/wartesaal.md
    says so."""
    clock = FakeClock()
    saal = make_room(tmp_path / "room.db", clock)
    anna, bert = members(saal, "Anna", "Bert")
    table_id = open_table(saal, anna, [bert], game="battleklinge")
    view = saal.table_message(anna, table_id)
    assert view["version"] == 0
    mover = anna if view["to_act"] == view["you"] else bert
    other = bert if mover is anna else anna
    saal.offer(other, table_id, "abort")
    saal.presence(other.name, False)
    assert saal.table_message(anna, table_id)["version"] == 0
    legal = saal.table_message(mover, table_id)["legal"]
    assert saal.act(mover, table_id, 0, legal[0])["number"] == 1
    saal.resign(other, table_id)
    assert saal.table_message(anna, table_id)["version"] == 1
    text = " ".join(DOC.read_text().split())
    assert "`version` counts the changes of the game" in text
    assert "offers, away marks and the end of a game leave it unchanged" in text


# ---- the limits table of docs/wartesaal.md ----------------------------------------------


def _limits_table() -> dict[str, str]:
    """The rows of the table under "## Limits": the limit's name, its figure."""
    text = DOC.read_text()
    section = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and not set(cells[0]) <= {"-"}:
            rows[cells[0]] = cells[1]
    rows.pop("limit", None)
    return rows


def test_the_limits_table_agrees_with_the_code():
    from fechtbuch.wartesaal import throttle

    expected = {
        "message": f"{protocol.MAX_MESSAGE_BYTES} bytes",
        "frame": f"{protocol.MAX_FRAME_BYTES} bytes",
        "nesting": f"{protocol.MAX_NESTING} levels",
        "whole numbers": f"±{protocol.MAX_INTEGER}",
        "`ref`": f"{protocol.MAX_REF} characters",
        "text fields": f"{room.MAX_TEXT} characters",
        "name": "3 to 24 characters",
        "password": f"{accounts.MIN_PASSWORD} to {accounts.MAX_PASSWORD} characters",
        "session token": f"{sessions.MAX_TOKEN} characters",
        "`clock_minutes`": f"above 0, at most {room.MAX_CLOCK_MINUTES}",
        "`stake`": f"0 to {room.MAX_STAKE} Taler",
        "password checks": (f"{throttle.HASHING_AT_ONCE} at once, {throttle.MOST_WAITING} waiting"),
        "logins per address": f"{throttle.ATTEMPTS_PER_ADDRESS} in {throttle.WINDOW_SECONDS:g} s",
        "failed logins per name": f"{throttle.FAILURES_PER_NAME} in {throttle.WINDOW_SECONDS:g} s",
    }
    assert _limits_table() == expected


# ---- the frame limit on both ways of starting -------------------------------------------


def _frames(url: str) -> tuple[str, int | None]:
    """Send one frame just within the frame limit, then one just over it: the answer
    to the first, the close code after the second."""

    async def scenario():
        async with websockets.connect(url, max_size=None) as socket:
            await socket.send(
                json.dumps({"type": "games", "pad": "x" * protocol.MAX_FRAME_BYTES})[
                    : protocol.MAX_FRAME_BYTES
                ]
            )
            first = json.loads(await asyncio.wait_for(socket.recv(), 10))["error"]
            await socket.send("x" * (protocol.MAX_FRAME_BYTES + 1))
            try:
                await asyncio.wait_for(socket.recv(), 10)
            except websockets.ConnectionClosed as closed:
                return first, closed.rcvd.code if closed.rcvd else None
            return first, None

    return asyncio.run(scenario())


def test_the_frame_limit_on_its_own(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'room.db'}").start()
    try:
        first, code = _frames(server.url)
    finally:
        server.stop()
    assert first == "message: longer than 4096 bytes"
    assert code == 1009


def test_the_frame_limit_under_fechtbuch_serve(tmp_path):
    env = {**os.environ, "WARTESAAL_SECRET": SECRET, "XDG_DATA_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "fechtbuch", "serve", "--port", "0"]
    command += ["--wartesaal", f"sqlite:///{tmp_path / 'room.db'}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        match = re.search(r"playing at http://(127\.0\.0\.1:\d+)/", line)
        assert match, line
        first, code = _frames(f"ws://{match.group(1)}/wartesaal/ws")
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        process.stdout.close()
    assert first == "message: longer than 4096 bytes"
    assert code == 1009
