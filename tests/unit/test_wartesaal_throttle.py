"""Logins cannot starve the room: per address and per name they are counted in a
sliding window, the passwords are hashed a few at a time, and a flood beyond the
queue is refused at once (``wartesaal/throttle.py``)."""

from __future__ import annotations

import asyncio
import threading
import time

import anyio
import pytest
from argon2 import PasswordHasher
from fechtbuch.wartesaal.app import Hall, build_app
from fechtbuch.wartesaal.room import Room
from fechtbuch.wartesaal.store import Store
from fechtbuch.wartesaal.table import RoomError
from fechtbuch.wartesaal.throttle import HASHING_AT_ONCE, MOST_WAITING, LoginThrottle
from starlette.testclient import TestClient
from support.wartesaal_helpers import CHEAP, SECRET, FakeClock


def test_attempts_per_address_and_failures_per_name_are_limited():
    clock = FakeClock(0.0)
    throttle = LoginThrottle(clock, window=60, per_address=3, failures_per_name=2)
    for _ in range(3):
        throttle.admit("10.0.0.1", "Anna")
    with pytest.raises(RoomError, match=r"^login: too many attempts for this address; .* 60 s"):
        throttle.admit("10.0.0.1", "Bert")
    throttle.admit("10.0.0.2", "Bert")  # another address is not held up
    clock.advance(30)
    with pytest.raises(RoomError, match=r"try again in 30 s"):
        throttle.admit("10.0.0.1", "Bert")
    clock.advance(30)
    throttle.admit("10.0.0.1", "Bert")  # the window has passed
    # two failed logins for one name hold it up from every address, any spelling
    throttle.failed("Carla")
    throttle.failed("carla")
    with pytest.raises(RoomError, match=r"^login: too many attempts for this name"):
        throttle.admit("10.0.0.9", "CARLA")
    clock.advance(61)
    throttle.admit("10.0.0.9", "Carla")


class CountingHasher(PasswordHasher):
    """A real Argon2 hasher that records how many hashes ran at the same time."""

    def __init__(self) -> None:
        super().__init__(time_cost=2, memory_cost=16 * 1024, parallelism=1)
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.count = 0

    def _counted(self, work, *args):
        with self.lock:
            self.running += 1
            self.count += 1
            self.most = max(self.most, self.running)
        try:
            return work(*args)
        finally:
            with self.lock:
                self.running -= 1

    def hash(self, password, *, salt=None):
        return self._counted(super().hash, password)

    def verify(self, hash, password):
        return self._counted(super().verify, hash, password)


def test_a_flood_of_logins_is_hashed_a_few_at_a_time_and_the_rest_refused(tmp_path):
    hasher = CountingHasher()
    room = Room(Store(f"sqlite:///{tmp_path / 'room.db'}"), SECRET, hasher=hasher)
    flood = 80

    async def scenario():
        hall = Hall(room)
        logins = [
            hall.password_session(
                f"10.0.{i // 250}.{i % 250}", "login", {"name": f"n{i}", "password": "x" * 12}
            )
            for i in range(flood)
        ]
        # meanwhile other work on worker threads (as every room request) keeps its pace
        delays = []

        async def other_work():
            for _ in range(10):
                started = time.monotonic()
                await anyio.to_thread.run_sync(lambda: None)
                delays.append(time.monotonic() - started)
                await asyncio.sleep(0.02)

        results = await asyncio.gather(*logins, other_work(), return_exceptions=True)
        return results[:flood], delays

    results, delays = asyncio.run(scenario())
    errors = [str(r) for r in results]
    busy = [e for e in errors if e.startswith("login: the room is busy")]
    wrong = [e for e in errors if e == "password: wrong name or password"]
    assert len(busy) + len(wrong) == flood
    assert len(wrong) == hasher.count == HASHING_AT_ONCE + MOST_WAITING  # the rest unhashed
    assert hasher.most <= HASHING_AT_ONCE
    assert max(delays) < 0.5, delays


def test_the_http_login_answers_429_when_throttled(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'room.db'}", SECRET, hasher=CHEAP)
    with TestClient(app) as http:
        assert http.post("/register", json={"name": "Anna", "password": "geheim-123"}).is_success
        answers = [
            http.post("/login", json={"name": "Anna", "password": f"falsch-{n}"}) for n in range(7)
        ]
        assert [a.status_code for a in answers] == [400] * 5 + [429] * 2
        assert answers[-1].json()["error"].startswith("login: too many attempts for this name")
        # the right password is held up too, until the window passes
        assert (
            http.post("/login", json={"name": "Anna", "password": "geheim-123"}).status_code == 429
        )
        assert http.get("/health").json() == {"ok": True}
