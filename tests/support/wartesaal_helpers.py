"""Shared pieces of the Wartesaal tests: a room on a temporary SQLite file with a
cheap password hash and a clock the test moves."""

from __future__ import annotations

import random

from argon2 import PasswordHasher
from fechtbuch.wartesaal.room import Room
from fechtbuch.wartesaal.store import Store

SECRET = "test-secret-0123456789"
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_room(path, clock=None) -> Room:
    return Room(Store(f"sqlite:///{path}"), SECRET, hasher=CHEAP, clock=clock or FakeClock())


def members(room: Room, *names: str):
    return [room.identify(room.register(name, "password-" + name)) for name in names]


def open_table(room: Room, creator, others, **request) -> str:
    challenge = room.create_challenge(creator, request)
    table_id = None
    for other in others:
        table_id = room.accept(other, challenge)
    assert table_id is not None
    return table_id


def play_random(room: Room, table_id: str, who: dict, rng: random.Random, limit: int = 10_000):
    """Random legal actions, each by the seat to act, until the game ends."""
    for _ in range(limit):
        any_seat = next(iter(who.values()))
        message = room.table_message(any_seat, table_id)
        if message["status"] != "running":
            return message
        mover = who[message["seats"][message["to_act"]]]
        mine = room.table_message(mover, table_id)
        room.act(mover, table_id, mine["version"], rng.choice(mine["legal"]))
    raise AssertionError("the game did not end")
