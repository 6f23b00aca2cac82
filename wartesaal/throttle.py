"""How many logins the room checks, so that a flood of them cannot starve it.

Checking a password costs an Argon2 hash: tens of milliseconds of CPU and 64 MiB of
memory each (argon2-cffi's defaults), by design.  A flood of logins would otherwise
fill every worker thread and the memory with hashes while the players' actions wait.
So each process

* hashes at most :data:`HASHING_AT_ONCE` passwords at a time (the others queue, see
  ``app.py``), and refuses a login at once when :data:`MOST_WAITING` already queue;
* takes at most :data:`ATTEMPTS_PER_ADDRESS` logins and registrations per client
  address in :data:`WINDOW_SECONDS`, and at most :data:`FAILURES_PER_NAME` failed
  logins per account name (from any address: slows down guessing one password, at the
  price that a guesser can lock the name out for the window).

A refused attempt is answered at once, without hashing, with one line saying when to
try again.  The counts live in the process (several processes each count their own).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

from fechtbuch.wartesaal.table import RoomError

HASHING_AT_ONCE = 2
"""Password hashes computed at the same time by one process."""
MOST_WAITING = 32
"""Logins that may queue for a hash; more are refused at once."""
WINDOW_SECONDS = 60.0
ATTEMPTS_PER_ADDRESS = 10
FAILURES_PER_NAME = 5
MOST_KEYS = 10_000
"""Addresses and names remembered at most (the oldest are forgotten first)."""


class LoginThrottle:
    """Sliding-window counts of login attempts per address and failures per name."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        window: float = WINDOW_SECONDS,
        per_address: int = ATTEMPTS_PER_ADDRESS,
        failures_per_name: int = FAILURES_PER_NAME,
    ) -> None:
        self.clock = clock
        self.window = window
        self.per_address = per_address
        self.failures_per_name = failures_per_name
        self.attempts: dict[str, deque[float]] = {}
        self.failures: dict[str, deque[float]] = {}

    def admit(self, address: str, name: object) -> None:
        """Count an attempt from ``address`` for ``name``, or refuse it (a
        :class:`RoomError` naming ``login`` and the seconds to wait)."""
        now = self.clock()
        if isinstance(name, str):
            self._refuse_if_full(self.failures, name.lower(), self.failures_per_name, now, "name")
        self._refuse_if_full(self.attempts, address, self.per_address, now, "address")
        self._note(self.attempts, address, now)

    def failed(self, name: object) -> None:
        """A login for ``name`` had a wrong name or password."""
        if isinstance(name, str):
            self._note(self.failures, name.lower(), self.clock())

    def _refuse_if_full(
        self, counts: dict[str, deque[float]], key: str, limit: int, now: float, what: str
    ) -> None:
        times = counts.get(key)
        if times is None:
            return
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del counts[key]
        elif len(times) >= limit:
            wait = math.ceil(times[0] + self.window - now)
            raise RoomError(f"login: too many attempts for this {what}; try again in {wait} s")

    def _note(self, counts: dict[str, deque[float]], key: str, now: float) -> None:
        counts.setdefault(key, deque()).append(now)
        if len(counts) > MOST_KEYS:
            del counts[next(iter(counts))]  # dicts keep insertion order: the oldest key
