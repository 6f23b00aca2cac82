"""A damaged puzzle database: ``db verify`` never vouches for it, and no reader
answers from it with a traceback or, unless ``db verify`` names the damage, with
an answer other than the good file's.

One small database is mined once (seeded); each case damages a copy of it with
one fixed damage: each page zeroed, seeded bit flips (on data, index and table pages),
truncation, a deleted streams row, a forged tag, edited columns, damaged blobs.
For every case: ``db verify`` exits 1 and names the damage, or the readers
(``db stats``, ``db query``, ``db query --cards``, ``db query --tag``) answer as
from the good file; whatever verify says, a reader either answers as from the
good file or refuses in one line (exit 2) naming the file, never a traceback.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from fechtbuch.puzzles.db import schema, store
from support.clirun import assert_one_line_error, run

BK = "battleklinge"
PAGE = 4096
CARDS = "inquartata,quart,riposte,stoss,traverse"


def _seeded(label: str, bound: int) -> int:
    """A number below ``bound`` from SHA-256 of ``label`` (replayable by name)."""
    return int.from_bytes(hashlib.sha256(label.encode()).digest()[:8], "little") % bound


def _mined(folder: Path, rounds: int) -> Path:
    path = folder / f"good-{rounds}.sqlite"
    result = run("db", "mine", "--game", BK, "--rounds", rounds, "--seed", "7", "--db", path)
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """Battleklinge, 24 rounds of seed 7 (47 exercises, 40 pages): the file of the
    reproduction of the index damage."""
    return _mined(tmp_path_factory.mktemp("good"), 24)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """Battleklinge, 8 rounds of seed 7 (11 exercises, 21 pages): the file every
    case damages (each case re-proves its rows, so a small file keeps it fast)."""
    return _mined(tmp_path_factory.mktemp("small"), 8)


READERS = (
    ("db", "stats", "--json"),
    ("db", "query", "--json", "--limit", "1000"),
    ("db", "query", "--json", "--game", BK, "--cards", CARDS),
    ("db", "query", "--json", "--tag", "sacrifice"),
)


def _answers(path: Path) -> list[tuple[int, str]]:
    """Each reader's exit status and stdout; a refusal must be one line naming the file."""
    out = []
    for args in READERS:
        result = run(*args, "--db", path)
        if result.exit_code != 0:
            line = assert_one_line_error(result)
            assert path.name in line, (args, line)
        out.append((result.exit_code, result.stdout))
    return out


@pytest.fixture(scope="module")
def good_answers(small) -> list[tuple[int, str]]:
    answers = _answers(small)
    assert all(status == 0 for status, _ in answers)
    tagged = json.loads(answers[3][1])["rows"]
    assert json.loads(answers[2][1])["rows"] and tagged  # the filters find rows at all
    return answers


def _flip(offset: int, bit: int) -> Callable[[bytearray], None]:
    def damage(data: bytearray) -> None:
        data[offset] ^= 1 << bit

    return damage


def _zero_page(page: int) -> Callable[[bytearray], None]:
    def damage(data: bytearray) -> None:
        data[(page - 1) * PAGE : page * PAGE] = bytes(PAGE)

    return damage


def _sql(*statements: str, args: tuple = ()) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA foreign_keys = OFF")
        for statement in statements:
            conn.execute(statement, args if "?" in statement else ())
        conn.commit()
        conn.close()

    return damage


def _index_pages(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT name, rootpage FROM sqlite_master WHERE type = 'index'"))
    finally:
        conn.close()


def _byte_cases(size: int, index_pages: dict[str, int]) -> dict[str, Callable]:
    pages = size // PAGE
    cases: dict[str, Callable] = {}
    for page in range(1, pages + 1):
        cases[f"zeroed page {page}"] = _zero_page(page)
    for i in range(20):
        offset = _seeded(f"flip {i}", size)
        cases[f"bit flip at {offset}"] = _flip(offset, _seeded(f"bit {i}", 8))
    for name, root in sorted(index_pages.items()):
        # the cell content sits at the end of the page: a byte in its last eighth
        offset = root * PAGE - 1 - _seeded(f"index {name}", PAGE // 8)
        cases[f"bit flip in index {name} at {offset}"] = _flip(offset, _seeded(name, 8))
    cases["the last byte cut"] = lambda data: data.__delitem__(slice(-1, None))
    cases["the last page cut"] = lambda data: data.__delitem__(slice(-PAGE, None))
    return cases


def _row_cases() -> dict[str, Callable[[Path], None]]:
    first = "(SELECT MIN(id) FROM puzzles)"
    untagged = (
        "(SELECT MIN(id) FROM puzzles WHERE id NOT IN "
        "(SELECT puzzle FROM puzzle_tags WHERE tag = 'sacrifice'))"
    )
    edits = {
        "rating": "rating = rating + 1",
        "rating_deviation": "rating_deviation = 120",
        "solved": "solved = 1",
        "attempts": "attempts = 2",
        "card_set": "card_set = 'inquartata,quynt,riposte,stoss,traverse'",
        "canonical_key": "canonical_key = canonical_key || ' '",
        "difficulty": "difficulty = difficulty + 0.5",
        "witness": 'witness = \'{"moves":[],"start":"x"}\'',
        "rules_version": "rules_version = '2'",
        "rating_source": "rating_source = 'difficult'",
        "mined_by": "mined_by = 'someone'",
        "round": "round = round + 1",
        "a text rating": "rating = 'high'",
        "keys []": "keys = '[]'",
        "keys not JSON": "keys = '[\"x'",
        "an empty tree": "solution = x''",
        "a truncated tree": "solution = substr(solution, 1, length(solution) - 3)",
        "fields changed": "fields = zeroblob(8)",
    }
    cases = {
        f"puzzles.{label}": _sql(f"UPDATE puzzles SET {edit} WHERE id = {first}")
        for label, edit in edits.items()
    }
    cases["the streams row deleted"] = _sql("DELETE FROM streams")
    cases["a forged tag"] = _sql(f"INSERT INTO puzzle_tags VALUES ('sacrifice', {untagged})")
    cases["a tag removed"] = _sql(f"DELETE FROM puzzle_tags WHERE puzzle = {first}")
    cases["a rounds row's stored"] = _sql("UPDATE rounds SET stored = stored + 1 WHERE round = 3")
    cases["the stream's seed"] = _sql("UPDATE streams SET seed = seed + 1")
    cases["the stream's params"] = _sql("""UPDATE streams SET params = '{"ns":[2]}'""")
    cases["an index dropped"] = _sql("DROP INDEX puzzles_by_cards")
    cases["a column dropped"] = _sql("ALTER TABLE puzzles DROP COLUMN solved")
    cases["meta.format of another program"] = _sql("UPDATE meta SET value = 'other'")
    return cases


def _cases(good: Path) -> dict[str, Callable[[Path], None]]:
    data = good.read_bytes()
    out: dict[str, Callable[[Path], None]] = {}
    for label, damage in _byte_cases(len(data), _index_pages(good)).items():

        def on_file(path: Path, damage=damage) -> None:
            changed = bytearray(path.read_bytes())
            damage(changed)
            path.write_bytes(bytes(changed))

        out[label] = on_file
    out.update(_row_cases())
    return out


def test_no_damage_goes_unreported(small, good_answers, tmp_path):
    """Every case: verify names the damage (exit 1), or the readers answer as from
    the good file; a file SQLite cannot open at all is refused by every command."""
    unreported = []
    for number, (label, damage) in enumerate(_cases(small).items()):
        path = tmp_path / f"case-{number}.sqlite"
        path.write_bytes(small.read_bytes())
        damage(path)
        answers = _answers(path)
        verdict = run("db", "verify", "--db", path, "-j", "1")
        assert "Traceback" not in verdict.output, (label, verdict.output[-2000:])
        if verdict.exit_code == 1:
            assert verdict.stdout.strip(), label  # the damage is named
            continue
        if verdict.exit_code == 2:  # not a database any more (its header is gone)
            assert path.name in assert_one_line_error(verdict), label
            assert all(status == 2 for status, _ in answers), label
            continue
        assert verdict.exit_code == 0, (label, verdict.output[-1000:])
        if answers != good_answers:
            unreported.append(label)
    assert not unreported, unreported


def test_verify_names_the_damaged_index_row_and_field(good, small, tmp_path):
    """The reproduction of the index damage, and edits reported by row and field."""
    damaged = tmp_path / "idx.sqlite"
    data = bytearray(good.read_bytes())
    data[46603] ^= 4
    damaged.write_bytes(bytes(data))
    result = run("db", "verify", "--db", damaged, "-j", "1")
    assert result.exit_code == 1 and "puzzles_by_cards" in result.stdout, result.output
    # the readers refuse it instead of counting wrong card sets from the damaged index
    cards = ["--game", "battleklinge", "--cards", "quint,stoss,riposte,bindung,ausfall"]
    for reader in (["stats"], ["query", *cards]):
        refused = run("db", *reader, "--db", damaged)
        assert "integrity check" in assert_one_line_error(refused), (reader, refused.output)
    edited = tmp_path / "edited.sqlite"
    edited.write_bytes(small.read_bytes())
    _sql(
        "UPDATE puzzles SET solved = 3 WHERE id = 5", "UPDATE puzzles SET keys = '[]' WHERE id = 9"
    )(edited)
    result = run("db", "verify", "--db", edited, "-j", "1")
    assert result.exit_code == 1
    assert "row 5 " in result.stdout and "solved: 3 solves of 0 attempts" in result.stdout
    assert "row 9: keys: not a list of one move" in result.stdout
    forged = tmp_path / "forged.sqlite"
    forged.write_bytes(small.read_bytes())
    untagged = _rows_without(small, "sacrifice")[0]
    _sql(f"INSERT INTO puzzle_tags VALUES ('sacrifice', {untagged})")(forged)
    result = run("db", "verify", "--db", forged, "-j", "1")
    assert result.exit_code == 1
    assert f"row {untagged} " in result.stdout and "'sacrifice' is not a tag" in result.stdout
    gone = tmp_path / "no-stream.sqlite"
    gone.write_bytes(small.read_bytes())
    _sql("DELETE FROM streams")(gone)
    result = run("db", "verify", "--db", gone, "-j", "1", "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["rows"] == 11
    assert any("streams" in line for line in report["file"]), report["file"]


def _rows_without(path: Path, tag: str) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [
            row
            for (row,) in conn.execute(
                "SELECT id FROM puzzles WHERE id NOT IN "
                "(SELECT puzzle FROM puzzle_tags WHERE tag = ?) ORDER BY id",
                (tag,),
            )
        ]
    finally:
        conn.close()


def test_a_damaged_row_is_one_line_naming_the_row_and_field(small, tmp_path):
    damaged = tmp_path / "blob.sqlite"
    damaged.write_bytes(small.read_bytes())
    _sql("UPDATE puzzles SET solution = x'00' WHERE id = 3")(damaged)
    line = assert_one_line_error(
        run("db", "export", "--game", BK, "--db", damaged, "-o", tmp_path / "p.json")
    )
    assert "blob.sqlite" in line and "row 3: solution" in line
    assert not (tmp_path / "p.json").exists()
    _sql("UPDATE puzzles SET solution = ? WHERE id = 3", args=(store.pack_blob({}),))(damaged)
    _sql("UPDATE puzzles SET rating = 'high' WHERE id = 4")(damaged)
    line = assert_one_line_error(run("db", "stats", "--db", damaged))
    assert "row 4: rating" in line


def test_a_garbage_journal_beside_the_file_is_named(small, tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(small.read_bytes())
    Path(f"{path}-journal").write_bytes(hashlib.sha256(b"junk").digest() * 100)
    line = assert_one_line_error(run("db", "stats", "--db", path))
    assert "j.sqlite-journal" in line and "journal" in line


def test_command_line_edges_are_one_line(small, tmp_path, monkeypatch):
    """--game left out, 64-bit numbers, a read-only file, a writer that holds the lock,
    another program's file: one line, exit 2, never a traceback."""
    db = tmp_path / "edge.sqlite"
    db.write_bytes(small.read_bytes())
    for args in (
        ["db", "mine", "--rounds", "1"],
        ["db", "export", "-o", tmp_path / "p.json"],
        ["db", "rate"],
    ):
        assert "--game" in assert_one_line_error(run(*args, "--db", db))
    big = str(2**63)
    for args in (
        ["db", "mine", "--game", BK, "--seed", big],
        ["db", "mine", "--game", BK, "--rounds", big],
        ["db", "query", "--mined-seed", big],
        ["db", "query", "--limit", big],
    ):
        assert big in assert_one_line_error(run(*args, "--db", db))
    real = schema._connect
    monkeypatch.setattr(schema, "_connect", lambda path, readonly: real(path, True))
    line = assert_one_line_error(run("db", "mine", "--game", BK, "--rounds", "1", "--db", db))
    assert "readonly" in line and "edge.sqlite" in line
    monkeypatch.setattr(schema, "_connect", real)
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_MS", 100)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        line = assert_one_line_error(run("db", "mine", "--game", BK, "--rounds", "1", "--db", db))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "locked" in line and "edge.sqlite" in line
    other = tmp_path / "other.sqlite"
    other.write_bytes(small.read_bytes())
    _sql("UPDATE meta SET value = 'someone-elses-format'")(other)
    for args in (["db", "stats"], ["db", "mine", "--game", BK, "--rounds", "1"]):
        assert "not a fechtbuch database" in assert_one_line_error(run(*args, "--db", other))
    dropped = tmp_path / "dropped.sqlite"
    dropped.write_bytes(small.read_bytes())
    _sql("DROP TABLE attempts")(dropped)
    line = assert_one_line_error(run("db", "stats", "--db", dropped))
    assert "table attempts: missing" in line
