"""What one action costs: it reads the table's document once, writes the action and
the document and reads nothing back; the committed table event carries the table and
its last action (the one just added; after a take-back the one before); the legal
actions the mover's view listed are not computed again to check the action, and the
positions whose legal actions are kept are bounded."""

from __future__ import annotations

import sqlalchemy as sa
from fechtbuch.wartesaal import table as table_module
from support.wartesaal_helpers import make_room


def recorded(room) -> list[str]:
    """Every SQL statement the writer's connections run from now on."""
    statements: list[str] = []

    def trace(dbapi_connection, _record, _proxy) -> None:
        dbapi_connection.set_trace_callback(statements.append)

    sa.event.listen(room.store.engine, "checkout", trace)
    return statements


def test_an_action_reads_its_table_once_and_nothing_back(tmp_path):
    room = make_room(tmp_path / "room.db")
    (a, _), (b, _) = room.guest(), room.guest()
    table_id = room.accept(b, room.create_challenge(a, {"game": "touche-duell"}))
    seen = room.table_message(a, table_id)
    mover = a if seen["seats"][seen["to_act"]] == a.name else b
    view = room.table_message(mover, table_id)
    events: list[dict] = []
    room.store.listeners.append(events.extend)
    statements = recorded(room)
    room.act(mover, table_id, view["version"], view["legal"][0])
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1 and "FROM tables" in reads[0]
    assert sum(s.startswith("INSERT INTO actions") for s in statements) == 1
    assert sum(s.startswith("UPDATE tables") for s in statements) == 1
    [event] = [e for e in events if e["kind"] == "table"]
    table, last = event["snapshot"]
    assert table.version == view["version"] + 1
    assert last == {"number": view["version"] + 1, "seat": view["you"], "action": view["legal"][0]}
    room.store.dispose()


def test_after_a_take_back_the_event_carries_the_action_before(tmp_path):
    room = make_room(tmp_path / "room.db")
    (a, _), (b, _) = room.guest(), room.guest()
    table_id = room.accept(b, room.create_challenge(a, {"game": "battleklinge"}))
    who = {a.name: a, b.name: b}
    played = []
    for _ in range(2):
        any_view = room.table_message(a, table_id)
        mover = who[any_view["seats"][any_view["to_act"]]]
        view = room.table_message(mover, table_id)
        room.act(mover, table_id, view["version"], view["legal"][0])
        played.append((mover, view))
    events: list[dict] = []
    room.store.listeners.append(events.extend)
    last_mover, _ = played[-1]
    other = b if last_mover is a else a
    room.offer(last_mover, table_id, "takeback")
    room.offer(other, table_id, "takeback")
    table, last = [e for e in events if e["kind"] == "table"][-1]["snapshot"]
    first_mover, first_view = played[0]
    assert table.version == 3 and table.actions == 1
    assert last == {"number": 1, "seat": first_view["you"], "action": first_view["legal"][0]}
    assert room.table_message(first_mover, table_id)["last_action"] == last
    room.store.dispose()


class Counting:
    """Counts the calls of a game's ``legal_actions``."""

    def __init__(self, rules, monkeypatch) -> None:
        self.calls = 0
        original = rules.legal_actions

        def counted(state):
            self.calls += 1
            return original(state)

        monkeypatch.setattr(rules, "legal_actions", counted)


def test_the_legal_actions_of_the_movers_view_check_the_action(tmp_path, monkeypatch):
    room = make_room(tmp_path / "room.db")
    (a, _), (b, _) = room.guest(), room.guest()
    table_id = room.accept(b, room.create_challenge(a, {"game": "touche-duell"}))
    seen = room.table_message(a, table_id)
    mover = a if seen["seats"][seen["to_act"]] == a.name else b
    view = room.table_message(mover, table_id)  # lists the legal actions
    with room.store.read() as tx:
        stored = tx.table(table_id)
    rules, state = stored.rules, stored.state
    counting = Counting(rules, monkeypatch)
    rules.apply(state, rules.parse_action(state, view["legal"][0]))
    own = counting.calls  # what the game's own apply asks
    counting.calls = 0
    room.act(mover, table_id, view["version"], view["legal"][0])
    assert counting.calls == own
    room.store.dispose()


def test_the_positions_whose_legal_actions_are_kept_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(table_module, "LEGAL_KEPT", 3)
    monkeypatch.setattr(table_module, "_legal", table_module.OrderedDict())
    room = make_room(tmp_path / "room.db")
    (a, _), (b, _) = room.guest(), room.guest()
    who = {a.name: a, b.name: b}
    table_id = None
    for _ in range(6):
        any_view = None if table_id is None else room.table_message(a, table_id)
        if any_view is None or any_view["to_act"] is None:  # a dealt game can end early
            table_id = room.accept(b, room.create_challenge(a, {"game": "battleklinge"}))
            any_view = room.table_message(a, table_id)
        mover = who[any_view["seats"][any_view["to_act"]]]
        view = room.table_message(mover, table_id)
        room.act(mover, table_id, view["version"], view["legal"][-1])
    assert len(table_module._legal) == 3
    room.store.dispose()
