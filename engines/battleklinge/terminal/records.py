"""The player's record on this device: a small JSON file in the XDG data folder.

``$XDG_DATA_HOME/fechtbuch/record.json`` (default ``~/.local/share/...``)::

    {"format": "fechtbuch-record", "version": 1,
     "computer": {"stark": {"wins": 3, "losses": 1, "wins_with_help": 1}},
     "exercises": {"p-0123456789ab": "solved" | "solved-with-help"},
     "daily": {"2026-11-30": "won" | "lost" | "aborted"}}

Only the first game of a day counts for the daily streak (days in a row
with a win).  ``wins_with_help`` counts wins in which hint or undo was used;
they are part of ``wins`` as well ("davon mit Hilfe").  Every write goes to a
temporary file that is renamed over the old one, so a killed process leaves
either the old or the new record, never a torn one.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import orjson

try:
    import fcntl
except ImportError:  # not POSIX: no lock; the last writer wins, as before
    fcntl = None
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.files import atomic_write, dump_json, read_input_bytes

RECORD_FORMAT = "fechtbuch-record"


def record_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "fechtbuch" / "record.json"


@dataclass
class PlayerRecord:
    computer: dict[str, dict[str, int]] = field(default_factory=dict)
    exercises: dict[str, str] = field(default_factory=dict)
    daily: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None) -> PlayerRecord:
        path = path or record_path()
        if not path.exists():
            return cls()
        raw = read_input_bytes(path, "record")  # a FIFO or folder there cannot hang play
        try:
            data = orjson.loads(raw)
            if data.get("format") != RECORD_FORMAT or data.get("version") != 1:
                raise ValueError("wrong format or version")
            record = cls(dict(data["computer"]), dict(data["exercises"]), dict(data["daily"]))
            record._check_shape()
            return record
        except (ValueError, KeyError, TypeError, AttributeError):
            raise InputError(
                f"record: {str(path)!r} is damaged; move it away to start a new record"
            ) from None

    def _check_shape(self) -> None:
        """Raise ValueError unless every entry has the documented type."""
        for entry in self.computer.values():
            if set(entry) != {"wins", "losses", "wins_with_help"} or not all(
                type(v) is int and v >= 0 for v in entry.values()
            ):
                raise ValueError("computer entry")
        if not all(v in ("solved", "solved-with-help") for v in self.exercises.values()):
            raise ValueError("exercise entry")
        for day, outcome in self.daily.items():
            dt.date.fromisoformat(day)
            if outcome not in ("won", "lost", "aborted"):
                raise ValueError("daily entry")

    @classmethod
    @contextmanager
    def update(cls, path: Path | None = None) -> Iterator[PlayerRecord]:
        """Load, change and save the record under an exclusive lock, so that two games
        ending (or two daily duels starting) at once cannot both count or lose an
        update: ``with PlayerRecord.update() as record: record.count_game(...)``."""
        path = path or record_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.with_name(path.name + ".lock"), "a") as lock:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)
            record = cls.load(path)
            yield record
            record.save(path)

    def save(self, path: Path | None = None) -> None:
        data = {
            "format": RECORD_FORMAT,
            "version": 1,
            "computer": self.computer,
            "exercises": self.exercises,
            "daily": self.daily,
        }
        atomic_write(path or record_path(), dump_json(data), force=True)

    def count_game(self, strength: str, won: bool, helped: bool) -> None:
        entry = self.computer.setdefault(strength, {"wins": 0, "losses": 0, "wins_with_help": 0})
        if won:
            entry["wins"] += 1
            entry["wins_with_help"] += int(helped)
        else:
            entry["losses"] += 1

    def count_exercise(self, puzzle_id: str, helped: bool) -> None:
        if self.exercises.get(puzzle_id) == "solved":
            return  # solved cleanly once stays green
        self.exercises[puzzle_id] = "solved-with-help" if helped else "solved"

    def count_daily(self, date: dt.date, outcome: str) -> bool:
        """Record the first game of ``date``; False if that day already counted."""
        key = date.isoformat()
        if key in self.daily:
            return False
        self.daily[key] = outcome
        return True

    def streak(self, today: dt.date) -> int:
        """Days in a row with a won first game, ending today (or yesterday if today is open).

        >>> r = PlayerRecord(daily={"2026-11-28": "won", "2026-11-29": "won"})
        >>> r.streak(dt.date(2026, 11, 30))
        2
        """
        day = today if today.isoformat() in self.daily else today - dt.timedelta(days=1)
        count = 0
        while self.daily.get(day.isoformat()) == "won":
            count += 1
            day -= dt.timedelta(days=1)
        return count
