"""``db mine``: the verified exercises of seeded rounds, committed in round order.

A *stream* is one game, one seed and the exercise lengths asked for; its rounds
are numbered from 0, and round ``r`` is a pure function of (game, seed, N, r)
(:meth:`~fechtbuch.puzzles.minekit.MiningKind.db_task`), so any backend may run it
anywhere, any number of times.  A *run* asks for the next ``R`` rounds of a stream
and is recorded before the first round, so an interrupted run (Ctrl-C, SIGKILL, a
lost node) is continued, not extended, by the next ``db mine`` of the same stream.

The rounds are examined and committed in units of :data:`COMMIT_ROUNDS` counted
from the run's first round (one task for a worker or a Ray node, keyed by the
stream and its first round), one transaction each (exercises and the rounds' records together):
a killed run leaves the file as it was after the last whole unit, and the resumed
run commits the remaining units exactly as the uninterrupted run would have.  So
the file's bytes depend on the runs asked for alone, never on the backend, the
number of workers, retries or interruptions.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

import orjson
from fechtbuch.puzzles.db.backends import mining_kind
from fechtbuch.puzzles.db.schema import transaction
from fechtbuch.puzzles.db.store import PreparedRow, canonical_json, insert_puzzle, prepare_puzzle
from fechtbuch.puzzles.minekit import MiningKind, RoundYield

COMMIT_ROUNDS = 8
"""Rounds per transaction: small enough that a kill loses little, large enough that
the file's fsyncs cost little beside the rounds (a Battleklinge round takes tens of
milliseconds)."""


@dataclass(frozen=True)
class Cover:
    """What a covering stream plays: round ``r`` plays card set ``sets[r mod len]``.
    ``db mine --cover`` cycles through every set of the game; a top-up pass of
    ``--target T`` through the sets that had fewer than ``T`` exercises when the pass
    began (pass ``number`` of that target), its list recorded in the stream's params so
    that an interrupted pass is continued with the same list."""

    sets: tuple[int, ...]
    target: int | None = None
    number: int = 0

    def params(self, all_sets: int) -> dict:
        if self.target is None:
            return {"cover": all_sets}
        return {"cover": all_sets, "target": self.target, "pass": self.number,
                "sets": list(self.sets)}  # fmt: skip

    def card_set(self, round_number: int) -> int:
        return self.sets[round_number % len(self.sets)]

    def task_seed(self, seed: int) -> int:
        """The rounds' seed: a top-up pass derives its own, so its games are not those
        of the covering stream's rounds of the same numbers."""
        if self.target is None:
            return seed
        text = f"db-top-up/{seed}/{self.target}/{self.number}"
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def cover_of(params: dict) -> Cover | None:
    """What a stream's recorded params say it covers (:meth:`Cover.params` read back)."""
    if "cover" not in params:
        return None
    if "target" not in params:
        return Cover(tuple(range(params["cover"])))
    return Cover(tuple(params["sets"]), params["target"], params["pass"])


@dataclass(frozen=True)
class Plan:
    """The rounds ``first .. end - 1`` of ``stream``; ``start`` is the first not yet
    committed (later than ``first`` when an interrupted run is continued); ``cover``:
    what a covering stream plays (``None``: the game chooses its card sets)."""

    stream: int
    seed: int
    first: int
    start: int
    end: int
    cover: Cover | None = None

    @property
    def continued(self) -> bool:
        return self.start > self.first

    def task(self, kind: MiningKind, round_number: int, ns: tuple[int, ...]) -> tuple:
        if self.cover is None:
            return kind.db_task(self.seed, round_number, ns)
        seed = self.cover.task_seed(self.seed)
        return kind.db_task(seed, round_number, ns, self.cover.card_set(round_number))


def stream_params(kind: MiningKind, ns: tuple[int, ...], cover: Cover | None = None) -> str:
    params: dict = {"ns": list(ns), "rules_version": kind.rules_version}
    if cover is not None:  # only then: the streams from before covering keep their params
        params.update(cover.params(kind.db_cover_sets))
    return canonical_json(params).decode()


def _stream(
    conn: sqlite3.Connection,
    kind: MiningKind,
    seed: int,
    ns: tuple[int, ...],
    cover: Cover | None,
) -> int:
    params = stream_params(kind, ns, cover)
    query = "SELECT id FROM streams WHERE game = ? AND seed = ? AND params = ?"
    found = conn.execute(query, (kind.rules, seed, params)).fetchone()
    if found is not None:
        return found[0]
    with transaction(conn):
        cursor = conn.execute(
            "INSERT INTO streams (game, seed, params) VALUES (?, ?, ?)", (kind.rules, seed, params)
        )
    return cursor.lastrowid


def plan_run(
    conn: sqlite3.Connection,
    kind: MiningKind,
    seed: int,
    ns: tuple[int, ...],
    rounds: int,
    cover: Cover | None = None,
) -> Plan:
    """Continue the stream's unfinished run, or record a new run of ``rounds`` rounds.
    Nothing is written when a run is continued (the file stays as an uninterrupted
    run would have it)."""
    stream = _stream(conn, kind, seed, ns, cover)
    done, last = _progress(conn, stream)
    if last is not None and done < last[1]:
        return Plan(stream, seed, last[0], done, last[1], cover)
    with transaction(conn):
        conn.execute(
            "INSERT INTO runs (stream, first_round, end_round) VALUES (?, ?, ?)",
            (stream, done, done + rounds),
        )
    return Plan(stream, seed, done, done, done + rounds, cover)


def _progress(conn: sqlite3.Connection, stream: int) -> tuple[int, tuple[int, int] | None]:
    """The stream's first round not yet committed, and its last run's first and end
    round (``None`` before its first run); the run is unfinished while the first is
    below the end."""
    done = conn.execute(
        "SELECT COALESCE(MAX(round) + 1, 0) FROM rounds WHERE stream = ?", (stream,)
    ).fetchone()[0]
    last = conn.execute(
        "SELECT first_round, end_round FROM runs WHERE stream = ? ORDER BY id DESC LIMIT 1",
        (stream,),
    ).fetchone()
    return done, last


def _top_up_streams(
    conn: sqlite3.Connection, kind: MiningKind, seed: int, ns: tuple[int, ...], target: int
) -> list[tuple[int, dict]]:
    """The top-up passes of ``target`` in the database so far: (stream, params), in
    the order they were made."""
    rows = conn.execute(
        "SELECT id, params FROM streams WHERE game = ? AND seed = ? ORDER BY id",
        (kind.rules, seed),
    )
    passes = [(stream, orjson.loads(text)) for stream, text in rows]
    return [
        (stream, params)
        for stream, params in passes
        if params.get("target") == target and params.get("ns") == list(ns)
    ]


def unfinished_top_up(
    conn: sqlite3.Connection, kind: MiningKind, seed: int, ns: tuple[int, ...], target: int
) -> Cover | None:
    """The top-up pass of ``target`` that a kill interrupted, if any (it is continued
    with its recorded list before a new pass is planned)."""
    for stream, params in _top_up_streams(conn, kind, seed, ns, target):
        done, last = _progress(conn, stream)
        if last is not None and done < last[1]:
            return cover_of(params)
    return None


def next_top_up(
    conn: sqlite3.Connection, kind: MiningKind, seed: int, ns: tuple[int, ...], target: int
) -> Cover | None:
    """The next top-up pass: the card sets with fewer than ``target`` exercises of
    this game in the database (every stream counts), ``None`` when there are none."""
    counts = dict(
        conn.execute(
            "SELECT card_set, COUNT(*) FROM puzzles WHERE game = ? GROUP BY card_set",
            (kind.rules,),
        )
    )
    short = tuple(
        number
        for number in range(kind.db_cover_sets)
        if counts.get(kind.db_cover_set_name(number), 0) < target
    )
    if not short:
        return None
    passes = len(_top_up_streams(conn, kind, seed, ns, target))
    return Cover(short, target, passes + 1)


@dataclass
class MineTally:
    """What one ``db mine`` did (the CPU seconds are the workers' own, for figures)."""

    rounds: int = 0
    found: int = 0
    stored: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    def add(self, other: MineTally) -> None:
        self.rounds += other.rounds
        self.found += other.found
        self.stored += other.stored
        self.cpu_seconds += other.cpu_seconds
        self.wall_seconds += other.wall_seconds


def _commit(
    conn: sqlite3.Connection,
    kind: MiningKind,
    plan: Plan,
    ns: tuple[int, ...],
    unit: list[RoundYield],
    prepared: list[list[PreparedRow]],
    tally: MineTally,
) -> None:
    with transaction(conn):
        for found, rows in zip(unit, prepared, strict=True):
            wanted = [row for row in rows if row.puzzle["n"] in ns]
            stored = sum(insert_puzzle(conn, kind, row, plan.stream, found.round) for row in wanted)
            conn.execute(
                "INSERT INTO rounds (stream, round, found, stored, counts) VALUES (?, ?, ?, ?, ?)",
                (
                    plan.stream,
                    found.round,
                    len(wanted),
                    stored,
                    canonical_json(found.counts).decode(),
                ),
            )
            tally.found += len(wanted)
            tally.stored += stored
    tally.rounds += len(unit)


def commit_units(plan: Plan) -> list[range]:
    """The plan's remaining rounds in commit units: :data:`COMMIT_ROUNDS` rounds counted
    from the run's first round (the last one shorter), starting at ``plan.start``."""
    return [
        range(start, min(start + COMMIT_ROUNDS, plan.end))
        for start in range(plan.start, plan.end, COMMIT_ROUNDS)
    ]


def mine_plan(
    conn: sqlite3.Connection,
    kind: MiningKind,
    plan: Plan,
    ns: tuple[int, ...],
    backend,
    on_round: Callable[[int], None] | None = None,
) -> MineTally:
    """Run the plan's remaining rounds on ``backend``, one task per commit unit, and
    commit the units in order; ``on_round(round)`` after each round is committed.
    Ctrl-C rolls back the unit in progress and is raised again."""
    started = time.perf_counter()
    tally = MineTally()
    units = commit_units(plan)
    work = ([plan.task(kind, r, ns) for r in unit] for unit in units)
    for unit, (found, prepared, cpu) in zip(
        units, backend.imap(examine_rounds, kind.rules, work), strict=True
    ):
        assert [f.round for f in found] == list(unit), "a round came back out of order"
        tally.cpu_seconds += cpu
        _commit(conn, kind, plan, ns, found, prepared, tally)
        if on_round is not None:
            for committed in unit:
                on_round(committed)
    tally.wall_seconds = time.perf_counter() - started
    return tally


def examine_rounds(
    slug: str, tasks: list[tuple]
) -> tuple[list[RoundYield], list[list[PreparedRow]], float]:
    """Database rounds of ``slug`` in order (a worker's entry point: one commit unit,
    so a Battleklinge round of some milliseconds does not pay a task's overhead
    alone), each round's candidates prepared as rows (duplicate class, compressed
    tree, motif tags: made here, in parallel, not by the one process that commits)
    and the CPU seconds they took."""
    started = time.process_time()
    kind = mining_kind(slug)
    found = [kind.db_round(task) for task in tasks]
    rows = [[prepare_puzzle(kind, p) for p in round_.candidates] for round_ in found]
    return found, rows, time.process_time() - started
