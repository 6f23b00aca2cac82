"""The columns the room looks tables up by (``due``, ``moment``, ``seating``): the
tick reads only the tables whose moment has come, the lists only the latest, and an
older database gains the columns when a server opens it."""

from __future__ import annotations

import copy
import random
import sqlite3

import pytest
from fechtbuch.wartesaal import roomrules
from fechtbuch.wartesaal.room import Room
from fechtbuch.wartesaal.store import Store
from fechtbuch.wartesaal.table import RUNNING, Table
from support.wartesaal_helpers import CHEAP, SECRET, FakeClock, make_room, members, open_table

START = 1_800_000_000.0


def random_table(rng: random.Random) -> Table:
    """A running table with a random clock (or none), seats away and last minute."""
    clocked = rng.random() < 0.5
    table = Table.deal(
        "t1", "touche-duell", "kinder-kurz", "seed", ["Anna", "Bert"], False,
        60.0 * rng.randint(1, 10) if clocked else None, 0, START,
    )  # fmt: skip
    if clocked:
        table.clocks = [rng.uniform(0.0, 600.0) for _ in table.seats]
    table.turn_started = START + rng.uniform(0.0, 100.0)
    for seat in range(len(table.seats)):
        if rng.random() < 0.4:
            table.away[seat] = START + rng.uniform(0.0, 200.0)
    table.last_minute = not clocked and rng.random() < 0.3
    return table


def changes_at(table: Table, now: float) -> bool:
    probe = copy.deepcopy(table)
    return probe.check_time(now) or probe.enter_last_minute(now)


def test_time_changes_no_table_before_its_next_check():
    """What the tick's index promises: before ``next_check`` neither the time check
    nor the last minute changes the table; just after it, one of them does."""
    rng = random.Random(20261205)
    for _ in range(2000):
        table = random_table(rng)
        due = table.next_check()
        assert due is not None
        for now in (START - 1.0, due - 1.0, due - 1e-3, rng.uniform(START, due)):
            if now < due:
                assert not changes_at(table, now), (table, now)
        assert changes_at(table, due + 1e-3), (table, due)
    finished = random_table(rng)
    finished.resign(0, START + 1.0)
    assert finished.next_check() is None


def test_the_tick_reads_only_due_tables(tmp_path):
    clock = FakeClock(START)
    room = make_room(tmp_path / "room.db", clock)
    anna, bert, cora = members(room, "Anna", "Bert", "Cora")
    short = open_table(room, anna, [bert], game="battleklinge", clock_minutes=1)
    long = open_table(room, anna, [cora], game="battleklinge", clock_minutes=30)
    with room.store.read() as tx:
        assert tx.due_table_ids(START + 59) == []
        assert tx.due_table_ids(START + 61) == [short]
        assert set(tx.due_table_ids(START + 1801)) == {short, long}
    clock.advance(61)
    assert room.tick() == [short]
    with room.store.read() as tx:  # a finished table is never due again
        assert tx.due_table_ids(START + 10**6) == [long]
        assert {t for t, _, _ in tx.seating(RUNNING)} == {long}
    room.presence("Cora", connected=True)
    room.presence("Cora", connected=False)
    with room.store.read() as tx:
        ((found, seats, away),) = tx.seating(RUNNING)
    assert found == long and sorted(seats) == ["Anna", "Cora"] and away == {seats.index("Cora")}
    assert room.tables_of("Cora") == [long] and room.tables_of("Bert") == []


def test_the_lists_hold_the_latest_tables(tmp_path):
    clock = FakeClock(START)
    room = make_room(tmp_path / "room.db", clock)
    anna, bert = members(room, "Anna", "Bert")
    opened = []
    for _ in range(4):
        opened.append(open_table(room, anna, [bert], game="touche-duell"))
        clock.advance(5)
    assert [t["id"] for t in room.tables(RUNNING, 2)] == opened[:1:-1]
    for table_id in (opened[1], opened[3], opened[0]):
        room.resign(anna, table_id)
        clock.advance(5)
    assert [t["id"] for t in room.tables("finished", 2)] == [opened[0], opened[3]]
    assert [t["id"] for t in room.tables(RUNNING, None)] == [opened[2]]


def test_an_older_database_gains_the_lookup_columns(tmp_path):
    path = tmp_path / "old.db"
    clock = FakeClock(START)
    room = make_room(path, clock)
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(room, anna, [bert], game="battleklinge", clock_minutes=1)
    room.store.dispose()
    with sqlite3.connect(path) as conn:  # the schema before the columns
        for index in ("tables_by_due", "tables_by_moment"):
            conn.execute(f"DROP INDEX {index}")
        for column in ("due", "moment", "seating"):
            conn.execute(f"ALTER TABLE tables DROP COLUMN {column}")
    reopened = Room(Store(f"sqlite:///{path}"), SECRET, hasher=CHEAP, clock=clock)
    with reopened.store.read() as tx:
        assert tx.due_table_ids(START + 61) == [table_id]
        ((found, seats, away),) = tx.seating(RUNNING)
    assert found == table_id and sorted(seats) == ["Anna", "Bert"] and away == set()
    clock.advance(61)
    assert reopened.tick() == [table_id]
    assert reopened.table_message(None, table_id)["reason"] == "time"
    with sqlite3.connect(path) as conn:
        indexes = {row[1] for row in conn.execute("PRAGMA index_list(tables)")}
    assert {"tables_by_due", "tables_by_moment"} <= indexes
    reopened.store.dispose()


@pytest.mark.parametrize("seconds", [roomrules.RECONNECT_GRACE_SECONDS])
def test_a_seat_away_is_due_after_the_grace(tmp_path, seconds):
    clock = FakeClock(START)
    room = make_room(tmp_path / "room.db", clock)
    anna, bert = members(room, "Anna", "Bert")
    table_id = open_table(room, anna, [bert], game="battleklinge", clock_minutes=30)
    room.presence("Anna", connected=True)
    room.presence("Anna", connected=False)
    with room.store.read() as tx:
        assert tx.due_table_ids(START + seconds - 1) == []
        assert tx.due_table_ids(START + seconds + 1) == [table_id]


def test_the_online_list_holds_a_few_names_and_the_count_of_all():
    """It goes to every connection when someone comes or goes: its size is bounded."""
    from fechtbuch.wartesaal.app import ONLINE_SHOWN, shown_online

    guests = [f"Gast-{k:05d}" for k in range(ONLINE_SHOWN)]
    members = ["Zora", "Anna", "Bert"]
    shown = shown_online(guests + members)
    assert shown["count"] == ONLINE_SHOWN + 3
    assert shown["online"][:3] == ["Anna", "Bert", "Zora"]  # members first
    assert shown["online"][3:] == guests[: ONLINE_SHOWN - 3]
    assert shown_online(["Bert", "Anna"]) == {"online": ["Anna", "Bert"], "count": 2}
