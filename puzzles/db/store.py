"""Rows in and out of the database: exercises, queries, counts, ratings, attempts.

A row keeps an exercise exactly as its game's miner recorded it: the fields that
queries filter on as columns (game, N, tags, rating, card set), the solution tree
as zlib-compressed canonical JSON (sorted keys, no blanks), and every other field of
the record (the game's own mining facts) compressed the same way, so
:func:`puzzle_of` gives back the record that the game's selection and pack builder
take.  The game's duplicate class (Battleklinge: a position and its mirror image)
is the row's ``canonical_key``; one row per class and game, the first found wins.

Ratings: until a fit from attempts exists, a row's rating is its game's difficulty
(1 to 10) put on the Glicko scale by :func:`prior_rating` with the deviation of an
unrated player, 350; :func:`update_ratings` is how a fit writes its results and
:func:`record_attempt` how a real attempt is counted.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import orjson
from fechtbuch.puzzles.db.schema import DamagedRow, transaction
from fechtbuch.puzzles.minekit import DbCandidate, MiningKind

PRIOR_DEVIATION = 350.0
"""Glicko's deviation of a player with no games: the prior says little."""
RATING_BANDS = (1200, 1400, 1600, 1800)
"""Edges of the rating bands that ``db stats`` counts by."""
COLUMNS_OF_RECORD = ("id", "n", "position", "key", "line", "solution", "tags")
"""Record fields that live in columns of their own; the rest goes into ``fields``
(``difficulty`` too, whose column is a copy: a game's integer stays an integer)."""


def prior_rating(difficulty: float) -> float:
    """The rating a row starts with: difficulty 5.5 (the middle of 1 to 10) at 1500,
    100 points per step (the schema's migration 2 writes the same)."""
    return 1500 + 100 * (difficulty - 5.5)


def canonical_json(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def pack_blob(value) -> bytes:
    """Compressed canonical JSON (level 9: the bytes depend on nothing but the value)."""
    return zlib.compress(canonical_json(value), 9)


def unpack_blob(blob: bytes):
    return orjson.loads(zlib.decompress(blob))


COLUMN_TYPES: dict[str, dict[str, tuple[str, ...]]] = {
    "puzzles": {
        "id": ("integer",),
        "game": ("text",),
        "rules_version": ("text",),
        "puzzle_id": ("text",),
        "position": ("text",),
        "n": ("integer",),
        "keys": ("text",),
        "line": ("text",),
        "solution": ("blob",),
        "fields": ("blob",),
        "tags": ("text",),
        "difficulty": ("real",),
        "witness": ("text", "null"),
        "mined_by": ("text",),
        "card_set": ("text", "null"),
        "canonical_key": ("text",),
        "stream": ("integer",),
        "round": ("integer",),
        "rating": ("real",),
        "rating_deviation": ("real",),
        "rating_source": ("text",),
        "attempts": ("integer",),
        "solved": ("integer",),
    },
    "puzzle_tags": {"puzzle": ("integer",), "tag": ("text",)},
    "streams": {"id": ("integer",), "game": ("text",), "seed": ("integer",), "params": ("text",)},
}
"""SQLite's ``typeof`` of every value fechtbuch writes (REAL columns hold floats only:
SQLite turns an integer written to them into one).  Any other type is damage: a
flipped bit in a record's header turns a number into text or a blob."""
_PYTHON_TYPES = {"text": str, "integer": int, "real": float, "blob": bytes, "null": type(None)}


def mistyped(
    conn: sqlite3.Connection, table: str, limit: int | None = None
) -> list[tuple[int, str, str]]:
    """``(row, column, type)`` of the values of ``table`` whose type fechtbuch never
    writes (``row``: the id, for ``puzzle_tags`` the puzzle's), at most ``limit``."""
    types = COLUMN_TYPES[table]
    key = "puzzle" if table == "puzzle_tags" else "id"
    columns = ", ".join(f"typeof({name})" for name in types)
    odd = " OR ".join(
        f"typeof({name}) NOT IN ({', '.join(repr(t) for t in wanted)})"
        for name, wanted in types.items()
    )
    sql = f"SELECT {key}, {columns} FROM {table} WHERE {odd}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    out = []
    for row, *found in conn.execute(sql):
        for (name, wanted), kind in zip(types.items(), found, strict=True):
            if kind not in wanted:
                out.append((row, name, kind))
    return out


def refuse_mistyped(conn: sqlite3.Connection, table: str) -> None:
    """A :class:`DamagedRow` for the first value of ``table`` of a type never written."""
    for row, name, kind in mistyped(conn, table, limit=1):
        raise DamagedRow(
            table, row, name, f"holds a {kind}, fechtbuch writes a {COLUMN_TYPES[table][name][0]}"
        )


def _checked(table: str, row: int, values: dict) -> dict:
    """``values`` (column name: value read) after checking each value's type."""
    for name, value in values.items():
        wanted = COLUMN_TYPES[table].get(name)
        if wanted is not None and not isinstance(value, tuple(_PYTHON_TYPES[t] for t in wanted)):
            raise DamagedRow(
                table, row, name, f"holds a {type(value).__name__}, fechtbuch writes a {wanted[0]}"
            )
    return values


def _json(row: int, field: str, text: str, wanted: type | None = None):
    """The JSON of a text column (``wanted``: the type it must have)."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise DamagedRow("puzzles", row, field, "not JSON") from None
    if wanted is not None and not isinstance(value, wanted):
        raise DamagedRow(
            "puzzles", row, field, f"JSON {type(value).__name__}, not {wanted.__name__}"
        )
    return value


def _blob(row: int, field: str, blob: bytes, wanted: type | None = None):
    """The value of a compressed column (:func:`pack_blob`)."""
    try:
        text = zlib.decompress(blob)
    except zlib.error as err:
        raise DamagedRow("puzzles", row, field, f"does not decompress ({err})") from None
    return _json(row, field, text, wanted)


def decode_key(row: int, keys: str) -> str:
    """The key move of the ``keys`` column: a JSON list of one move."""
    found = _json(row, "keys", keys, list)
    if len(found) != 1 or not isinstance(found[0], str):
        raise DamagedRow("puzzles", row, "keys", "not a list of one move")
    return found[0]


@dataclass(frozen=True)
class PreparedRow:
    """One exercise ready to insert: everything a row holds that takes work (the
    duplicate class, the compressed tree and fields, the card set, the motif tags), so
    that the workers make it in parallel and the one process that commits only writes."""

    puzzle: dict
    canonical: str
    solution: bytes
    fields: bytes
    card_set: str | None
    motifs: tuple[str, ...]


def prepare_puzzle(kind: MiningKind, puzzle: dict) -> PreparedRow:
    """The row of ``puzzle`` (a worker's part of :func:`insert_puzzle`)."""
    fields = {k: v for k, v in puzzle.items() if k not in COLUMNS_OF_RECORD}
    return PreparedRow(
        puzzle,
        str(kind.duplicate_class(puzzle)),
        pack_blob(puzzle["solution"]),
        pack_blob(fields),
        kind.db_card_set(puzzle),
        tuple(motif_tags(kind, puzzle)),
    )


def insert_puzzle(
    conn: sqlite3.Connection,
    kind: MiningKind,
    puzzle: dict | PreparedRow,
    stream: int,
    round_number: int,
) -> bool:
    """Store one exercise unless its duplicate class is stored already; True if stored.
    ``puzzle``: the record, or its :class:`PreparedRow` when a worker made it (``db
    mine`` does).  (Call inside a transaction.)"""
    row = puzzle if isinstance(puzzle, PreparedRow) else prepare_puzzle(kind, puzzle)
    puzzle = row.puzzle
    witness = puzzle.get("witness")
    cursor = conn.execute(
        """INSERT OR IGNORE INTO puzzles (game, rules_version, puzzle_id, position, n, keys,
            line, solution, fields, tags, difficulty, witness, mined_by, card_set,
            canonical_key, stream, round, rating, rating_deviation, rating_source)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'difficulty')""",
        (
            kind.rules,
            kind.rules_version,
            puzzle["id"],
            puzzle["position"],
            puzzle["n"],
            canonical_json([puzzle["key"]]).decode(),
            canonical_json(puzzle["line"]).decode(),
            row.solution,
            row.fields,
            canonical_json(puzzle["tags"]).decode(),
            float(puzzle["difficulty"]),
            None if witness is None else canonical_json(witness).decode(),
            kind.mined_by,
            row.card_set,
            row.canonical,
            stream,
            round_number,
            prior_rating(float(puzzle["difficulty"])),
            PRIOR_DEVIATION,
        ),
    )
    if cursor.rowcount == 0:
        return False
    conn.executemany(
        "INSERT INTO puzzle_tags (tag, puzzle) VALUES (?, ?)",
        [(tag, cursor.lastrowid) for tag in row.motifs],
    )
    return True


def motif_tags(kind: MiningKind, puzzle: dict) -> list[str]:
    """The tags a row is found by: the game's current motif catalogue where it has one
    (a superset of the stored tags), else the stored tags.  The row's ``tags`` column
    keeps the miner's tags, which an exported pack carries and ``pack verify``
    recomputes."""
    tags = set(puzzle["tags"])
    if kind.motifs is not None:
        tags |= set(kind.motif_tags(puzzle)[1])
    return sorted(tags)


@dataclass(frozen=True)
class Query:
    """The filters of ``db query`` and ``db export`` (``None``: no filter)."""

    game: str | None = None
    ns: tuple[int, ...] = ()
    tags: tuple[str, ...] = ()
    """Every one of these tags."""
    rating_min: float | None = None
    rating_max: float | None = None
    card_set: str | None = None
    mined_seed: int | None = None
    limit: int | None = None

    def where(self) -> tuple[str, list]:
        clauses, args = [], []
        if self.game is not None:
            clauses.append("p.game = ?")
            args.append(self.game)
        if self.ns:
            clauses.append(f"p.n IN ({', '.join('?' * len(self.ns))})")
            args += list(self.ns)
        for tag in self.tags:
            clauses.append(
                "EXISTS (SELECT 1 FROM puzzle_tags t WHERE t.tag = ? AND t.puzzle = p.id)"
            )
            args.append(tag)
        if self.rating_min is not None:
            clauses.append("p.rating >= ?")
            args.append(self.rating_min)
        if self.rating_max is not None:
            clauses.append("p.rating <= ?")
            args.append(self.rating_max)
        if self.card_set is not None:
            clauses.append("p.card_set = ?")
            args.append(self.card_set)
        if self.mined_seed is not None:
            clauses.append("s.seed = ?")
            args.append(self.mined_seed)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", args


ROW_COLUMNS = (
    "p.id, p.game, p.rules_version, p.puzzle_id, p.position, p.n, p.keys, p.line, p.tags, "
    "p.difficulty, p.rating, p.rating_deviation, p.rating_source, p.attempts, p.solved, "
    "p.witness, p.mined_by, p.card_set, p.canonical_key, s.seed, p.round"
)


def query_rows(conn: sqlite3.Connection, query: Query) -> list[dict]:
    """The rows matching ``query`` in the order they were stored, without the tree."""
    where, args = query.where()
    tables = "puzzles p JOIN streams s ON s.id = p.stream"
    sql = f"SELECT {ROW_COLUMNS} FROM {tables}{where} ORDER BY p.id"
    if query.limit is not None:
        sql += f" LIMIT {int(query.limit)}"
    names = [c.split(".")[1] for c in ROW_COLUMNS.split(", ")]
    out = []
    for values in conn.execute(sql, args):
        row = dict(zip(names, values, strict=True))
        row["row"] = row.pop("id")
        _checked("puzzles", row["row"], {k: v for k, v in row.items() if k != "seed"})
        row["mined_seed"] = _checked("streams", row["row"], {"seed": row.pop("seed")})["seed"]
        row["keys"] = [decode_key(row["row"], row["keys"])]
        for name, wanted in (("line", list), ("tags", list), ("witness", dict)):
            if row[name] is not None:
                row[name] = _json(row["row"], name, row[name], wanted)
        motifs = conn.execute(
            "SELECT tag FROM puzzle_tags WHERE puzzle = ? ORDER BY tag", (row["row"],)
        )
        row["motifs"] = [
            _checked("puzzle_tags", row["row"], {"tag": tag})["tag"] for (tag,) in motifs
        ]
        out.append(row)
    return out


def puzzle_of(conn: sqlite3.Connection, row: int) -> dict:
    """The exercise's record as its game's miner made it."""
    names = ("puzzle_id", "n", "position", "keys", "line", "solution", "tags", "fields")
    values = conn.execute(f"SELECT {', '.join(names)} FROM puzzles WHERE id = ?", (row,)).fetchone()
    if values is None:
        raise KeyError(f"row {row}: no such puzzle")
    return record_of(row, dict(zip(names, values, strict=True)))


def record_of(row: int, columns: dict) -> dict:
    """The record of a row from its columns (``puzzle_id``, ``n``, ``position``,
    ``keys``, ``line``, ``solution``, ``tags``, ``fields``); a :class:`DamagedRow`
    naming the field that cannot be what fechtbuch wrote."""
    _checked("puzzles", row, columns)
    record = _blob(row, "fields", columns["fields"], dict)
    record.update(
        id=columns["puzzle_id"],
        n=columns["n"],
        position=columns["position"],
        key=decode_key(row, columns["keys"]),
        line=_json(row, "line", columns["line"], list),
        solution=_blob(row, "solution", columns["solution"]),
        tags=_json(row, "tags", columns["tags"], list),
    )
    return record


def candidates(conn: sqlite3.Connection, query: Query) -> list[DbCandidate]:
    """The matching rows as candidates for a game's selection, numbering each
    (stream seed, round) pair once in order of first appearance."""
    rows = query_rows(conn, query)
    keys: dict[tuple[int, int], int] = {}
    out = []
    for row in rows:
        key = keys.setdefault((row["mined_seed"], row["round"]), len(keys))
        out.append(DbCandidate(row["mined_seed"], row["round"], key, puzzle_of(conn, row["row"])))
    return out


def iter_rows_of_game(
    conn: sqlite3.Connection, game: str, batch: int = 1024
) -> Iterator[tuple[int, int, int, dict]]:
    """``(row, stream seed, round, record)`` of every row of ``game`` in row order,
    read ``batch`` rows at a time, so that a database of millions of rows is walked
    in bounded memory."""
    last = 0
    while True:
        found = conn.execute(
            "SELECT p.id, s.seed, p.round FROM puzzles p JOIN streams s ON s.id = p.stream "
            "WHERE p.game = ? AND p.id > ? ORDER BY p.id LIMIT ?",
            (game, last, batch),
        ).fetchall()
        if not found:
            return
        for row, seed, round_ in found:
            yield row, seed, round_, puzzle_of(conn, row)
        last = found[-1][0]


def _band(rating: float) -> str:
    low = None
    for edge in RATING_BANDS:
        if rating < edge:
            return f"<{edge}" if low is None else f"{low}-{edge - 1}"
        low = edge
    return f">={RATING_BANDS[-1]}"


def stats(conn: sqlite3.Connection, game: str | None = None) -> dict:
    """Counts by game, and per game by N, tag, card set and rating band; rounds mined."""
    games = (
        [game]
        if game
        else [r[0] for r in conn.execute("SELECT DISTINCT game FROM puzzles ORDER BY game")]
    )
    for table in ("puzzles", "puzzle_tags"):
        refuse_mistyped(conn, table)  # a count keyed by a blob, a band of a text rating
    out: dict = {"puzzles": 0, "games": {}}
    for name in games:
        total = conn.execute("SELECT COUNT(*) FROM puzzles WHERE game = ?", (name,)).fetchone()[0]
        by_n = dict(
            conn.execute(
                "SELECT n, COUNT(*) FROM puzzles WHERE game = ? GROUP BY n ORDER BY n", (name,)
            )
        )
        by_tag = dict(
            conn.execute(
                "SELECT t.tag, COUNT(*) FROM puzzle_tags t JOIN puzzles p ON p.id = t.puzzle "
                "WHERE p.game = ? GROUP BY t.tag ORDER BY t.tag",
                (name,),
            )
        )
        by_cards = dict(
            conn.execute(
                "SELECT card_set, COUNT(*) FROM puzzles WHERE game = ? AND card_set IS NOT NULL "
                "GROUP BY card_set ORDER BY card_set",
                (name,),
            )
        )
        bands: dict[str, int] = {}
        for (rating,) in conn.execute(
            "SELECT rating FROM puzzles WHERE game = ? ORDER BY rating", (name,)
        ):
            bands[_band(rating)] = bands.get(_band(rating), 0) + 1
        rounds = conn.execute(
            "SELECT COUNT(*) FROM rounds r JOIN streams s ON s.id = r.stream WHERE s.game = ?",
            (name,),
        ).fetchone()[0]
        attempts = conn.execute(
            "SELECT COUNT(*) FROM attempts a JOIN puzzles p ON p.id = a.puzzle WHERE p.game = ?",
            (name,),
        ).fetchone()[0]
        out["games"][name] = {
            "puzzles": total,
            "rounds": rounds,
            "by_n": {str(n): c for n, c in by_n.items()},
            "by_tag": by_tag,
            "card_sets": len(by_cards),
            "fewest_per_card_set": min(by_cards.values(), default=0),
            "by_card_set": by_cards,
            "by_rating_band": bands,
            "attempts": attempts,
        }
        out["puzzles"] += total
    return out


@dataclass(frozen=True)
class RatingUpdate:
    """A fitted rating of one row (``row``: the puzzles table's id)."""

    row: int
    rating: float
    deviation: float


def update_ratings(conn: sqlite3.Connection, updates: Iterable[RatingUpdate], source: str) -> int:
    """Write fitted ratings (``source`` names the fit, e.g. ``glicko2-panel``) in one
    transaction; the number of rows changed.  A row that does not exist is an error."""
    changed = 0
    with transaction(conn):
        for update in updates:
            cursor = conn.execute(
                "UPDATE puzzles SET rating = ?, rating_deviation = ?, rating_source = ? "
                "WHERE id = ?",
                (float(update.rating), float(update.deviation), source, update.row),
            )
            if cursor.rowcount != 1:
                raise KeyError(f"row {update.row}: no such puzzle")
            changed += 1
    return changed


def record_attempts(
    conn: sqlite3.Connection, attempts: Sequence[tuple[int, str, bool]], source: str
) -> None:
    """Record attempts ``(row, player, solved)`` in one transaction, with the row's
    attempt and solve counts (``source``: where they come from, e.g. ``web``)."""
    with transaction(conn):
        for row, player, solved in attempts:
            conn.execute(
                "INSERT INTO attempts (puzzle, player, solved, source) VALUES (?, ?, ?, ?)",
                (row, player, int(bool(solved)), source),
            )
            conn.execute(
                "UPDATE puzzles SET attempts = attempts + 1, solved = solved + ? WHERE id = ?",
                (int(bool(solved)), row),
            )
