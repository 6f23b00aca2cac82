"""``db verify``: the file, then every row, checked against what it proves.

Three layers, each reported by name, so that ``db verify`` never vouches for a
damaged file:

* **the file**: SQLite's ``integrity_check`` (every page, every index entry against
  its table) and ``foreign_key_check``; values of a type fechtbuch never writes; the
  streams, runs and rounds consistent with the rows (each round's ``stored`` is the
  number of rows it holds, rounds numbered from 0 without gaps, runs chained); the
  attempts and the ``meta`` rows; and one round of every stream mined again, which
  must give the rows stored for it (a damaged seed or params of a stream);
* **the derived columns** of each row, recomputed from its record: the duplicate
  class, the card set, the difficulty and witness copies, the rules version, the
  miner, the motif tags in ``puzzle_tags`` (from the game's motif functions), the
  rating fields (a prior rating equals the difficulty's, deviations and ratings in
  range, ``solved <= attempts`` and both equal to the attempts recorded);
* **the exercise**: the row re-proved by its game's independent verifier, as
  ``pack verify`` checks a pack.

The rows are read here, in this thread (SQLite connections stay in the thread that
made them), :data:`UNITS_PER_BATCH` units at a time, and each batch is verified
(derived columns and re-proof, in parallel) before the next is read: memory holds
one batch, not the database.
"""

from __future__ import annotations

import itertools
import math
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import orjson
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.db import backends
from fechtbuch.puzzles.db.schema import DamagedRow, schema_problems
from fechtbuch.puzzles.db.store import (
    COLUMN_TYPES,
    PRIOR_DEVIATION,
    mistyped,
    motif_tags,
    prior_rating,
    record_of,
)
from fechtbuch.puzzles.minekit import DbCandidate, MiningKind

ROWS_PER_TASK = 8
"""Rows per unit of work: a Battleklinge row verifies in milliseconds, so single
rows would cost more in scheduling than in proving."""
UNITS_PER_BATCH = 256
"""Units read and verified together (2,048 rows): enough to keep every worker busy
between batches, few enough that a database of millions of rows fits in memory."""

RATING_SOURCES = ("difficulty", "glicko2-panel", "glicko2-web")
"""Who wrote a rating: the prior from the difficulty, the panel's fit (``db rate``),
people's attempts (``db rate --attempts``)."""
RATING_LIMITS = (0.0, 4000.0)
"""A fitted rating lies inside (Glicko-2 moves a rating by at most a few hundred
points per game, from 1500): wide bounds that catch a flipped sign or exponent bit,
not a flipped low digit (a prior rating is checked exactly)."""
DEVIATION_LIMITS = (0.0, 400.0)
"""A deviation starts at 350 and a game can raise it only by the volatility's share
(about 0.2 points); above this bound it is damage."""

_COLUMNS = (
    "p.id, p.game, p.rules_version, p.puzzle_id, p.position, p.n, p.keys, p.line, "
    "p.solution, p.fields, p.tags, p.difficulty, p.witness, p.mined_by, p.card_set, "
    "p.canonical_key, p.stream, p.round, p.rating, p.rating_deviation, p.rating_source, "
    "p.attempts, p.solved, s.seed"
)
_NAMES = tuple(c.split(".")[1] for c in _COLUMNS.split(", "))


@dataclass(frozen=True)
class StoredRow:
    """One row as stored: its id, its record (as a candidate of its stream seed and
    round, what the re-proof takes) and every column derived from the record."""

    row: int
    candidate: DbCandidate
    columns: dict
    motifs: tuple[str, ...]
    recorded_attempts: tuple[int, int]
    """The attempts table's count and solves for the row."""

    @property
    def puzzle(self) -> dict:
        return self.candidate.puzzle

    def label(self, slug: str) -> str:
        c = self.candidate
        return f"row {self.row} ({slug} seed {c.seed} round {c.round}, {c.puzzle['id']})"


def row_problems(kind: MiningKind, stored: StoredRow) -> list[str]:
    """The derived columns of ``stored`` that its record does not give, then the
    re-proof's problems (a worker's part of :func:`verify_database`)."""
    try:
        problems = _derived_problems(kind, stored)
    except (KeyError, TypeError, ValueError, AttributeError, InputError) as err:
        problems = [f"fields: the record cannot be read ({type(err).__name__}: {err})"]
    try:
        problems += kind.db_verify(stored.candidate)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, InputError) as err:
        problems.append(f"the exercise cannot be re-proved ({type(err).__name__}: {err})")
    return problems


def _derived_problems(kind: MiningKind, stored: StoredRow) -> list[str]:
    puzzle, columns = stored.puzzle, stored.columns
    witness = columns["witness"]
    expected = {
        "rules_version": kind.rules_version,
        "mined_by": kind.mined_by,
        "canonical_key": str(kind.duplicate_class(puzzle)),
        "card_set": kind.db_card_set(puzzle),
        "difficulty": float(puzzle["difficulty"]),
        "witness": puzzle.get("witness"),
    }
    try:
        found = dict(columns, witness=None if witness is None else orjson.loads(witness))
    except orjson.JSONDecodeError:
        found = dict(columns, witness="(not JSON)")
    problems = [
        f"{name}: stored {found[name]!r}, the row gives {value!r}"
        for name, value in expected.items()
        if found[name] != value
    ]
    motifs = motif_tags(kind, puzzle)
    for tag in sorted(set(stored.motifs) - set(motifs)):
        problems.append(f"puzzle_tags: {tag!r} is not a tag of the row")
    for tag in sorted(set(motifs) - set(stored.motifs)):
        problems.append(f"puzzle_tags: {tag!r} is missing")
    return problems + _rating_problems(columns, stored.recorded_attempts)


def _rating_problems(columns: dict, recorded: tuple[int, int]) -> list[str]:
    problems = []
    rating, deviation, source = (
        columns["rating"],
        columns["rating_deviation"],
        columns["rating_source"],
    )
    attempts, solved = columns["attempts"], columns["solved"]
    if source not in RATING_SOURCES:
        problems.append(f"rating_source: {source!r} is none of {', '.join(RATING_SOURCES)}")
    if source == "difficulty":
        prior = prior_rating(columns["difficulty"])
        if rating != prior:
            problems.append(f"rating: {rating!r}, the difficulty's prior is {prior!r}")
        if deviation != PRIOR_DEVIATION:
            problems.append(f"rating_deviation: {deviation!r}, a prior's is {PRIOR_DEVIATION!r}")
    if not (math.isfinite(rating) and RATING_LIMITS[0] < rating < RATING_LIMITS[1]):
        problems.append(f"rating: {rating!r} is outside {RATING_LIMITS}")
    if not (math.isfinite(deviation) and DEVIATION_LIMITS[0] < deviation <= DEVIATION_LIMITS[1]):
        problems.append(f"rating_deviation: {deviation!r} is outside {DEVIATION_LIMITS}")
    if not 0 <= solved <= attempts:
        problems.append(f"solved: {solved} solves of {attempts} attempts")
    if (attempts, solved) != recorded:
        problems.append(
            f"attempts: {attempts} attempts, {solved} solved; the attempts table records "
            f"{recorded[0]} and {recorded[1]}"
        )
    return problems


def verify_database(conn: sqlite3.Connection, game: str | None, backend) -> dict:
    """Check the file, then re-check every row of ``game`` (every game for ``None``):
    ``rows`` checked, ``failed`` (rows with a problem), ``file`` (problems of the
    file, one line each) and ``problems`` (every line, the file's first).  Damage
    that stops SQLite reading on is one more line of the file's, after what was
    checked before it."""
    file_lines = file_problems(conn)
    tally = {"rows": 0, "failed": 0}
    row_lines: list[str] = []
    try:
        _check_rows(conn, game, backend, file_lines, row_lines, tally)
    except sqlite3.DatabaseError as err:
        file_lines.append(f"file: reading the rows stopped after {tally['rows']} ({err})")
    return {**tally, "file": file_lines, "problems": file_lines + row_lines}


def _check_rows(
    conn: sqlite3.Connection,
    game: str | None,
    backend,
    file_lines: list[str],
    row_lines: list[str],
    tally: dict,
) -> None:
    bad = _mistyped_rows(conn, file_lines)
    games = [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT game FROM puzzles WHERE typeof(game) = 'text' ORDER BY game"
        )
    ]
    for slug in games if game is None else [g for g in games if g == game]:
        try:
            kind = backends.mining_kind(slug)
        except InputError:
            for (row,) in conn.execute("SELECT id FROM puzzles WHERE game = ?", (slug,)):
                tally["rows"] += 1
                tally["failed"] += 1
                row_lines.append(f"row {row}: game: {slug!r} is no game of this fechtbuch")
            continue
        file_lines += _stream_problems(conn, kind, backend)
        units = _units(conn, slug, bad, row_lines)
        while batch := list(itertools.islice(units, UNITS_PER_BATCH)):
            results = backend.imap(verify_unit, slug, [unit for unit, _ in batch])
            for (unit, skipped), (found, _cpu) in zip(batch, results, strict=True):
                tally["rows"] += skipped + len(unit)
                tally["failed"] += skipped + sum(1 for lines in found if lines)
                for stored, lines in zip(unit, found, strict=True):
                    row_lines += [f"{stored.label(slug)}: {line}" for line in lines]
    if game is None:
        total = conn.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0]
        if total != tally["rows"]:
            file_lines.append(f"puzzles: {total} rows, {tally['rows']} of them read")


def summary_line(result: dict) -> str:
    damage = f"; the file: {len(result['file'])} problems" if result["file"] else ""
    return f"{result['rows']} rows re-proved: {result['failed']} failed{damage}."


def _units(
    conn: sqlite3.Connection, slug: str, bad: set[int], lines: list[str]
) -> Iterator[tuple[list[StoredRow], int]]:
    """The rows of ``slug`` in units of :data:`ROWS_PER_TASK`, with the number of rows
    left out before each unit because they cannot be read (their lines added to
    ``lines``)."""
    unit: list[StoredRow] = []
    skipped = 0
    for row, columns in _rows_of_game(conn, slug):
        if row in bad:
            skipped += 1
            continue
        try:
            stored = _stored_row(conn, row, columns)
        except DamagedRow as err:
            lines.append(f"row {row}: {err.field}: {err.reason}")
            skipped += 1
            continue
        unit.append(stored)
        if len(unit) == ROWS_PER_TASK:
            yield unit, skipped
            unit, skipped = [], 0
    if unit or skipped:
        yield unit, skipped


def _rows_of_game(conn: sqlite3.Connection, slug: str, batch: int = 1024):
    """``(id, columns)`` of the rows of ``slug`` in id order, a batch at a time (a
    row whose stream is missing too: the file check names it)."""
    last = 0
    while True:
        found = conn.execute(
            f"SELECT {_COLUMNS} FROM puzzles p LEFT JOIN streams s ON s.id = p.stream "
            "WHERE p.game = ? AND p.id > ? ORDER BY p.id LIMIT ?",
            (slug, last, batch),
        ).fetchall()
        if not found:
            return
        for values in found:
            yield values[0], dict(zip(_NAMES, values, strict=True))
        last = found[-1][0]


def _stored_row(conn: sqlite3.Connection, row: int, columns: dict) -> StoredRow:
    record = record_of(row, columns)
    motifs = tuple(
        tag for (tag,) in conn.execute("SELECT tag FROM puzzle_tags WHERE puzzle = ?", (row,))
    )
    recorded = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(solved), 0) FROM attempts WHERE puzzle = ?", (row,)
    ).fetchone()
    # a row without its stream is named by the file check; its re-proof takes seed 0
    seed = columns["seed"] if columns["seed"] is not None else 0
    candidate = DbCandidate(seed, columns["round"], 0, record)
    derived = {
        name: columns[name]
        for name in (
            "rules_version",
            "mined_by",
            "canonical_key",
            "card_set",
            "difficulty",
            "witness",
            "rating",
            "rating_deviation",
            "rating_source",
            "attempts",
            "solved",
        )
    }
    return StoredRow(row, candidate, derived, motifs, tuple(recorded))


def _mistyped_rows(conn: sqlite3.Connection, lines: list[str]) -> set[int]:
    """The puzzles whose values (or tags) are of a type fechtbuch never writes, each
    named in ``lines``; they are left out of the row checks."""
    bad = set()
    for table in COLUMN_TYPES:
        for row, name, kind in mistyped(conn, table):
            wanted = COLUMN_TYPES[table][name][0]
            lines.append(f"{table} row {row}: {name}: holds a {kind}, fechtbuch writes a {wanted}")
            if table != "streams":
                bad.add(row)
    return bad


_TREE = re.compile(r"\b(Tree|tree|root page) (\d+)")


def file_problems(conn: sqlite3.Connection) -> list[str]:
    """The problems of the file as a whole (see the module doc), one line each."""
    try:
        problems = [f"schema: {line}" for line in schema_problems(conn)]
    except sqlite3.DatabaseError as err:
        problems = [f"schema: the meta or migrations table cannot be read ({err})"]
    try:
        found = [line for (line,) in conn.execute("PRAGMA integrity_check(1000)")]
    except sqlite3.DatabaseError as err:
        found = _integrity_by_table(conn, err)
    roots = {
        root: f"{kind} {name}"
        for kind, name, root in conn.execute("SELECT type, name, rootpage FROM sqlite_master")
    }
    problems += [
        "file: " + _TREE.sub(lambda m: f"{m[0]} ({roots.get(int(m[2]), 'no table')})", line)
        for text in found
        if text != "ok"
        for line in text.splitlines()
        if line.strip()
    ]
    try:
        problems += _consistency_problems(conn)
    except sqlite3.DatabaseError as err:
        problems.append(f"file: reading it failed ({err})")
    return problems


def _integrity_by_table(conn: sqlite3.Connection, err: sqlite3.DatabaseError) -> list[str]:
    """When the whole-file check stops at damage, each table with its indexes alone,
    so that the line names the table whose pages are damaged."""
    try:
        tables = [
            name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
    except sqlite3.DatabaseError:
        return [f"the schema cannot be read ({err})"]
    found = []
    for table in tables:
        try:
            lines = [line for (line,) in conn.execute(f'PRAGMA integrity_check("{table}")')]
        except sqlite3.DatabaseError as table_err:
            lines = [f"table {table} or its indexes: SQLite cannot check it ({table_err})"]
        found += [line for line in lines if line != "ok"]
    return found or [f"SQLite cannot check it ({err})"]


def _consistency_problems(conn: sqlite3.Connection) -> list[str]:
    problems = [
        f"{table}: {'row ' + str(rowid) if rowid is not None else 'a row'} refers to a "
        f"missing {parent} row"
        for table, rowid, parent, _ in conn.execute("PRAGMA foreign_key_check")
    ]
    problems += [
        f"puzzle_tags: tag {tag!r} of the missing puzzle row {puzzle}"
        for tag, puzzle in conn.execute(
            "SELECT tag, puzzle FROM puzzle_tags WHERE puzzle NOT IN (SELECT id FROM puzzles)"
        )
    ]
    problems += _round_problems(conn)
    problems += [
        f"attempts row {row}: solved: {solved!r} is neither 0 nor 1"
        for row, solved in conn.execute(
            "SELECT id, solved FROM attempts WHERE typeof(solved) != 'integer' "
            "OR solved NOT IN (0, 1)"
        )
    ]
    for key, value in conn.execute("SELECT key, value FROM meta WHERE key != 'format'"):
        if not (isinstance(key, str) and key.startswith("player/") and _is_player(value)):
            problems.append(f"meta: {str(key)[:60]!r} is no row fechtbuch writes")
    return problems


def _is_player(value) -> bool:
    try:
        stored = orjson.loads(value)
    except (orjson.JSONDecodeError, TypeError):
        return False
    return (
        isinstance(stored, dict)
        and set(stored) == {"rating", "rd", "volatility"}
        and all(isinstance(v, int | float) and math.isfinite(v) for v in stored.values())
    )


def _round_problems(conn: sqlite3.Connection) -> list[str]:
    """Each round's ``stored`` is its rows; rounds from 0 without gaps; runs chained
    from round 0, the last one reaching past the rounds committed."""
    problems = []
    held = Counter(conn.execute("SELECT stream, round FROM puzzles"))
    rounds: dict[int, list[int]] = {}
    for stream, number, found, stored, counts in conn.execute(
        "SELECT stream, round, found, stored, counts FROM rounds ORDER BY stream, round"
    ):
        rounds.setdefault(stream, []).append(number)
        label = f"rounds: stream {stream} round {number}"
        rows = held.pop((stream, number), 0)
        if rows != stored:
            problems.append(f"{label}: stored {stored!r}, it holds {rows} rows")
        if not (isinstance(found, int) and isinstance(stored, int) and 0 <= stored <= found):
            problems.append(f"{label}: found {found!r}, stored {stored!r}")
        if not _is_object(counts):
            problems.append(f"{label}: counts: not a JSON object")
    for (stream, number), count in sorted(held.items(), key=str):
        problems.append(f"puzzles: {count} rows of stream {stream} round {number}, no such round")
    for stream, numbers in sorted(rounds.items(), key=str):
        if numbers != list(range(len(numbers))):
            problems.append(f"rounds: stream {stream}: rounds not numbered 0 to {len(numbers) - 1}")
    runs: dict[int, list[tuple[int, int]]] = {}
    for stream, first, end in conn.execute(
        "SELECT stream, first_round, end_round FROM runs ORDER BY stream, id"
    ):
        runs.setdefault(stream, []).append((first, end))
    for (stream,) in conn.execute("SELECT id FROM streams ORDER BY id"):
        chain = runs.get(stream, [])
        done = len(rounds.get(stream, []))
        starts = [0] + [end for _first, end in chain[:-1]]
        if [first for first, _end in chain] != starts or any(f >= e for f, e in chain):
            problems.append(f"runs: stream {stream}: the runs are not chained from round 0")
        elif done and not (chain and chain[-1][0] <= done <= chain[-1][1]):
            problems.append(f"runs: stream {stream}: {done} rounds, beyond its runs")
    return problems


def _is_object(text) -> bool:
    try:
        return isinstance(orjson.loads(text), dict)
    except (orjson.JSONDecodeError, TypeError):
        return False


def _stream_problems(conn: sqlite3.Connection, kind: MiningKind, backend) -> list[str]:
    """Each stream of ``kind``'s game: its params, its rows' game and N, and its first
    round that stored rows mined again, which must find the rows stored for it (a
    damaged seed or params gives other games)."""
    from fechtbuch.puzzles.db.mine import Plan, cover_of, examine_rounds

    problems, tasks = [], []
    for stream, seed, params_text in conn.execute(
        "SELECT id, seed, params FROM streams WHERE game = ? ORDER BY id", (kind.rules,)
    ):
        try:
            params = orjson.loads(params_text)
            ns = tuple(params["ns"])
            cover = cover_of(params)
            if params["rules_version"] != kind.rules_version or not all(
                isinstance(n, int) for n in ns
            ):
                raise ValueError(params)
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            problems.append(f"streams row {stream}: params: not what 'db mine' writes")
            continue
        outside = conn.execute(
            f"SELECT id, game, n FROM puzzles WHERE stream = ? AND "
            f"(game != ? OR n NOT IN ({', '.join('?' * len(ns))})) LIMIT 10",
            (stream, kind.rules, *ns),
        ).fetchall()
        problems += [
            f"puzzles row {row}: game {game!r}, N {n!r}: not of its stream {stream}"
            for row, game, n in outside
        ]
        first = conn.execute(
            "SELECT round, found, counts FROM rounds WHERE stream = ? AND stored > 0 "
            "ORDER BY round LIMIT 1",
            (stream,),
        ).fetchone()
        if first is None or not isinstance(seed, int):
            continue
        number, found, counts = first
        plan = Plan(stream, seed, number, number, number + 1, cover)
        tasks.append((stream, number, found, counts, ns, plan.task(kind, number, ns)))
    results = backend.imap(examine_rounds, kind.rules, [[t[-1]] for t in tasks])
    for (stream, number, found, counts, ns, _), ((yielded,), (rows,), _cpu) in zip(
        tasks, results, strict=True
    ):
        mined = [row.puzzle["id"] for row in rows if row.puzzle["n"] in ns]
        held = [
            puzzle_id
            for (puzzle_id,) in conn.execute(
                "SELECT puzzle_id FROM puzzles WHERE stream = ? AND round = ? ORDER BY id",
                (stream, number),
            )
        ]
        label = f"streams row {stream} round {number} mined again"
        if not set(held) <= set(mined):
            problems.append(f"{label}: it finds other exercises than the rows stored for it")
        elif found != len(mined) or not _same_json(counts, yielded.counts):
            problems.append(f"{label}: its found and counts differ from the rounds row")
    return problems


def _same_json(text, value) -> bool:
    try:
        return orjson.loads(text) == value
    except (orjson.JSONDecodeError, TypeError):
        return False


def verify_unit(slug: str, rows: list[StoredRow]) -> tuple[list[list[str]], float]:
    """The problems of each row, derived columns and re-proof (a worker's entry
    point), and the CPU seconds spent."""
    started = time.process_time()
    kind = backends.mining_kind(slug)
    problems = [row_problems(kind, row) for row in rows]
    return problems, time.process_time() - started
