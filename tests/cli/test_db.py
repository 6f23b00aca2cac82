"""The puzzle database (``fechtbuch db``): schema and migrations, duplicates, queries
and counts, export to a pack that verifies and plays, re-proving rows, ratings and
attempts, and byte-identical files for any -j and after a SIGKILL and resume."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fechtbuch.engines.battleklinge.cards import card_id
from fechtbuch.engines.battleklinge.position import Position
from fechtbuch.engines.errors import InputError
from fechtbuch.puzzles.battleklinge.mining import examine_position
from fechtbuch.puzzles.db import backends, mine, schema, store
from support.clirun import assert_one_line_error, committed_rounds, run

BK = "battleklinge"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory) -> Path:
    """Battleklinge, 32 rounds of seed 1 (about 60 exercises)."""
    path = tmp_path_factory.mktemp("db") / "sample.sqlite"
    result = run("db", "mine", "--game", BK, "--rounds", "32", "--db", path, "-j", "1")
    assert result.exit_code == 0, result.output
    return path


def rows_of(path: Path, *args: str) -> list[dict]:
    result = run("db", "query", "--db", path, "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["rows"]


# ---- schema and migrations ----------------------------------------------------------


def test_a_new_database_has_every_migration_and_its_version(tmp_path):
    conn = schema.open_for_writing(tmp_path / "new.sqlite")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    steps = conn.execute("SELECT version FROM migrations ORDER BY version").fetchall()
    assert [v for (v,) in steps] == list(range(1, schema.SCHEMA_VERSION + 1))
    assert conn.execute("PRAGMA page_size").fetchone()[0] == schema.PAGE_SIZE
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_an_older_database_is_migrated_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = schema._connect(path, readonly=False)
    assert schema.migrate(conn, target=1) == 1
    conn.execute("INSERT INTO streams (game, seed, params) VALUES ('battleklinge', 1, '{}')")
    conn.execute(
        "INSERT INTO puzzles (game, rules_version, puzzle_id, position, n, keys, line, solution,"
        " fields, tags, difficulty, mined_by, canonical_key, stream, round) VALUES"
        " ('battleklinge', '1', 'p-1', 'x', 2, '[]', '[]', x'00', x'00', '[]', 7.5, 'm', 'x', 1, 0)"
    )
    conn.close()
    with pytest.raises(InputError, match="older schema version 1"):
        schema.open_for_reading(path)
    conn = schema.open_for_writing(path)  # migrates
    rating, deviation, source, attempts = conn.execute(
        "SELECT rating, rating_deviation, rating_source, attempts FROM puzzles"
    ).fetchone()
    assert (rating, deviation, source, attempts) == (
        store.prior_rating(7.5),
        350.0,
        "difficulty",
        0,
    )
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 0


def test_a_newer_database_and_a_foreign_file_are_one_line_errors(tmp_path):
    newer = tmp_path / "newer.sqlite"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    conn.close()
    assert "newer than this" in assert_one_line_error(run("db", "stats", "--db", newer))
    foreign = tmp_path / "foreign.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE t (x)").connection.close()
    assert "not a fechtbuch database" in assert_one_line_error(run("db", "stats", "--db", foreign))
    assert "no database" in assert_one_line_error(run("db", "stats", "--db", tmp_path / "none"))


def test_the_path_comes_from_the_option_the_environment_or_the_data_folder(
    tmp_path, sample_db, monkeypatch
):
    monkeypatch.setenv("FECHTBUCH_DB", str(sample_db))
    assert run("db", "stats", "--json").exit_code == 0
    monkeypatch.delenv("FECHTBUCH_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert schema.default_path() == tmp_path / "data" / "fechtbuch" / "puzzles.sqlite"


def test_odd_database_paths_for_mine_are_one_line_errors(tmp_path):
    """``db mine`` creates a missing database, so the readers' hostile cases that
    expect a missing file to fail do not fit it; these are its own."""
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "plain.txt").write_text("x")
    (tmp_path / "text.sqlite").write_text("not a database, but long enough to be read as one " * 3)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    cases = {
        "symlink loop": (tmp_path / "loop", "Too many levels of symbolic links"),
        "path through a file": (tmp_path / "plain.txt" / "db.sqlite", "Not a directory"),
        "FIFO": (tmp_path / "fifo", "FIFO"),
        "folder": (tmp_path / "folder", "folder"),
        "long name": (tmp_path / ("n" * 300 + ".sqlite"), "name too long"),
        "not a database": (tmp_path / "text.sqlite", "not a database"),
    }
    for label, (path, reason) in cases.items():
        line = assert_one_line_error(run("db", "mine", "--game", BK, "--rounds", "1", "--db", path))
        assert "--db" in line and reason.lower() in line.lower(), (label, line)
    assert (tmp_path / "plain.txt").read_text() == "x"


# ---- rows: duplicates, queries, counts ------------------------------------------------


def test_a_mirror_image_is_stored_once(tmp_path):
    """A position and its mirror (board reflected, every card swapped for its mirror)
    are one exercise: the second is not stored."""
    kind = backends.mining_kind(BK)
    conn = schema.open_for_writing(tmp_path / "m.sqlite")
    position = Position.from_text("5/S4/1M3/5/sssms g prim,terz stoss,bindung moulinet")
    original = examine_position(position, (2,))
    mirrored = examine_position(position.mirror(), (2,))
    assert original and mirrored and original["position"] != mirrored["position"]
    with schema.transaction(conn):
        conn.execute("INSERT INTO streams (game, seed, params) VALUES (?, 1, '{}')", (BK,))
        assert store.insert_puzzle(conn, kind, original, 1, 0) is True
        assert store.insert_puzzle(conn, kind, mirrored, 1, 1) is False
        assert store.insert_puzzle(conn, kind, original, 1, 2) is False
    assert conn.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0] == 1
    assert store.puzzle_of(conn, 1) == original  # the record comes back as the miner made it


def test_stats_count_what_the_rows_hold(sample_db):
    rows = rows_of(sample_db, "--limit", "100000")
    result = run("db", "stats", "--db", sample_db, "--json")
    counts = json.loads(result.stdout)["games"][BK]
    assert counts["puzzles"] == len(rows) > 20
    assert counts["rounds"] == 32
    assert counts["by_n"] == {
        str(n): sum(r["n"] == n for r in rows) for n in sorted({r["n"] for r in rows})
    }
    tags = sorted({t for r in rows for t in r["motifs"]})
    assert counts["by_tag"] == {t: sum(t in r["motifs"] for r in rows) for t in tags}
    assert all(set(r["tags"]) <= set(r["motifs"]) for r in rows)  # catalogue 2 adds only
    assert len(tags) > len({t for r in rows for t in r["tags"]})  # new motifs are found
    assert counts["card_sets"] == len({r["card_set"] for r in rows})
    assert sum(counts["by_rating_band"].values()) == len(rows)
    text = run("db", "stats", "--db", sample_db)
    assert f"{BK}: {len(rows)} exercises from 32 rounds" in text.stdout


def test_query_filters(sample_db):
    everything = rows_of(sample_db, "--limit", "100000")
    assert [r["n"] for r in rows_of(sample_db, "--n", "3", "--limit", "1000")] == [
        r["n"] for r in everything if r["n"] == 3
    ]
    tag = everything[0]["tags"][0]
    tagged = rows_of(sample_db, "--tag", tag, "--limit", "1000")
    assert tagged and [r["row"] for r in tagged] == [
        r["row"] for r in everything if tag in r["tags"]
    ]
    middle = sorted(r["rating"] for r in everything)[len(everything) // 2]
    high = rows_of(sample_db, "--rating-min", str(middle), "--limit", "1000")
    assert {r["row"] for r in high} == {r["row"] for r in everything if r["rating"] >= middle}
    cards = everything[0]["card_set"].split(",")
    shuffled = ", ".join(c.upper() for c in reversed(cards))  # any order and case
    same_cards = rows_of(sample_db, "--game", BK, "--cards", shuffled, "--limit", "1000")
    assert everything[0]["row"] in {r["row"] for r in same_cards}
    assert all(r["card_set"] == everything[0]["card_set"] for r in same_cards)
    assert len(rows_of(sample_db, "--limit", "3")) == 3
    row = everything[0]
    assert (
        row["mined_by"] and row["witness"]["moves"] is not None and row["keys"] == [row["line"][0]]
    )


def test_bad_filters_are_one_line_errors(sample_db):
    assert "--game" in assert_one_line_error(run("db", "query", "--db", sample_db, "--game", "go"))
    line = assert_one_line_error(run("db", "query", "--db", sample_db, "--cards", "ausfall"))
    assert line.startswith("fechtbuch: error: --cards")
    line = assert_one_line_error(
        run("db", "query", "--db", sample_db, "--game", "touche", "--cards", "x")
    )
    assert "--cards: touche-duell has no card sets" in line


# ---- export, verify ---------------------------------------------------------------------


def test_export_writes_a_pack_that_verifies_and_plays(sample_db, tmp_path):
    pack = tmp_path / "pack.json"
    result = run("db", "export", "--db", sample_db, "--game", BK, "--count", "2", "-o", pack)
    assert result.exit_code == 0, result.output
    data = json.loads(pack.read_bytes())
    assert [p["n"] for p in data["puzzles"]] == [2, 2, 3, 3]
    assert data["command"].startswith("fechtbuch db export --game battleklinge --n 2 --n 3")
    assert run("pack", "verify", pack).exit_code == 0
    played = run("pack", "play", pack, "--puzzle", "1", input="solution\nquit\n")
    assert played.exit_code == 0 and "Stopped." in played.stdout
    page = tmp_path / "pack.html"  # and in the viewer, the page 'pack html' writes
    assert run("pack", "html", pack, "-o", page).exit_code == 0
    assert data["puzzles"][0]["position"] in page.read_text(encoding="utf-8")
    again = run("db", "export", "--db", sample_db, "--game", BK, "--count", "2", "-o", pack)
    assert "exists" in assert_one_line_error(again)  # never over a file without --force
    elsewhere = tmp_path / "elsewhere" / "pack.json"  # the command names the file
    run("db", "export", "--db", sample_db, "--game", BK, "--count", "2", "-o", elsewhere)
    assert elsewhere.read_bytes() == pack.read_bytes()  # the same query, the same pack


def test_verify_re_proves_every_row_and_finds_a_broken_one(sample_db, tmp_path):
    result = run("db", "verify", "--db", sample_db, "-j", "2", "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["failed"] == 0 and report["rows"] > 20
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(sample_db.read_bytes())
    conn = sqlite3.connect(broken)
    key = conn.execute("SELECT keys FROM puzzles WHERE n = 3 ORDER BY id LIMIT 1").fetchone()[0]
    conn.execute(
        "UPDATE puzzles SET solution = ? WHERE id = (SELECT id FROM puzzles WHERE n = 3 LIMIT 1)",
        (store.pack_blob({json.loads(key)[0]: "hit"}),),
    )
    conn.commit()
    conn.close()
    result = run("db", "verify", "--db", broken, "-j", "1")
    assert result.exit_code == 1
    assert "solution:" in result.stdout and "1 failed" in result.stderr


def test_verify_reads_rows_in_batches_and_reports_them_in_order(sample_db, monkeypatch):
    """Small batches (two units of two rows) give the same report as one batch: every
    row is verified once, in row order, across the batch boundaries."""
    from fechtbuch.puzzles.db import verify

    def report() -> dict:
        conn = schema.open_for_reading(sample_db)
        backend = backends.LocalBackend(1)
        try:
            return verify.verify_database(conn, BK, backend)
        finally:
            backend.close()
            conn.close()

    whole = report()
    monkeypatch.setattr(verify, "ROWS_PER_TASK", 2)
    monkeypatch.setattr(verify, "UNITS_PER_BATCH", 2)
    seen = []
    real = verify.verify_unit

    def counting(slug, unit):
        seen.extend(row.puzzle["id"] for row in unit)
        return real(slug, unit)

    monkeypatch.setattr(verify, "verify_unit", counting)
    assert report() == whole and whole["rows"] > 8
    assert seen == [r["puzzle_id"] for r in rows_of(sample_db, "--limit", "100000")]


# ---- ratings and attempts -------------------------------------------------------------


def test_fitted_ratings_and_attempts_are_written_to_rows(sample_db, tmp_path):
    path = tmp_path / "rated.sqlite"
    path.write_bytes(sample_db.read_bytes())
    conn = schema.open_for_writing(path)
    store.update_ratings(conn, [store.RatingUpdate(1, 1733.5, 61.0)], "glicko2-panel")
    store.record_attempts(conn, [(1, "panel-1", True), (1, "panel-2", False)], "panel")
    row = store.query_rows(conn, store.Query(limit=1))[0]
    assert (row["rating"], row["rating_deviation"], row["rating_source"]) == (
        1733.5,
        61.0,
        "glicko2-panel",
    )
    assert (row["attempts"], row["solved"]) == (2, 1)
    with pytest.raises(KeyError):
        store.update_ratings(conn, [store.RatingUpdate(10**9, 1500, 50)], "x")
    assert conn.execute("SELECT rating FROM puzzles WHERE id = 1").fetchone()[0] == 1733.5


def test_db_rate_fits_ratings_from_the_panel_and_is_reproducible(sample_db, tmp_path):
    """``db rate``: the panel's attempts rate each row (Glicko-2, source glicko2-panel)
    and are recorded; a second run skips rated rows; the same seed gives the same
    ratings in another copy of the file."""
    copies = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.sqlite"
        path.write_bytes(sample_db.read_bytes())
        copies.append(path)
        done = run("db", "rate", "--game", BK, "--n", "2", "--limit", "5", "--db", path, "--json")
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout) == {
            "rated": 5, "skipped": 0, "source": "glicko2-panel", "seed": 1,
        }  # fmt: skip
    rows = [rows_of(path, "--n", "2", "--limit", "5") for path in copies]
    assert [(r["rating"], r["rating_deviation"]) for r in rows[0]] == [
        (r["rating"], r["rating_deviation"]) for r in rows[1]
    ]
    for row in rows[0]:
        assert row["rating_source"] == "glicko2-panel" and row["rating_deviation"] < 350
        assert row["attempts"] >= 5 and 0 <= row["solved"] <= row["attempts"]
    again = run("db", "rate", "--game", BK, "--n", "2", "--limit", "5", "--db", copies[0], "--json")
    assert json.loads(again.stdout)["skipped"] == 5
    pyramids = run("db", "rate", "--game", "touche-pyramiden", "--db", copies[0])
    assert "Touché pyramids has no rating panel" in assert_one_line_error(pyramids)


def test_a_persons_attempts_from_the_browser_move_both_ratings_once(sample_db, tmp_path):
    """``db rate --attempts STORE``: the attempts a person made in the browser (the
    store of 'fechtbuch serve') at exercises of the database move the exercises' and
    the person's ratings, in order; a solve with help counts as a failure; attempts
    at exercises the database lacks are counted, not applied; applying the store
    again changes nothing."""
    from fechtbuch.web.store import Store

    path = tmp_path / "p.sqlite"
    path.write_bytes(sample_db.read_bytes())
    first, second, third = rows_of(path, "--limit", "3")
    web = Store(tmp_path / "web.sqlite3")
    web.count_attempt(BK, first["puzzle_id"], solved=True, helped=False)
    web.count_attempt(BK, second["puzzle_id"], solved=False, helped=False)
    web.count_attempt(BK, third["puzzle_id"], solved=True, helped=True)
    web.count_attempt(BK, "b-not-in-this-database", solved=True, helped=False)
    web.count_attempt("touche-duell", "t-other-game", solved=True, helped=False)

    done = run("db", "rate", "--game", BK, "--attempts", web.path, "--db", path, "--json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert (report["applied"], report["already"], report["unknown"]) == (3, 0, 1)
    ((player, rating),) = report["players"].items()
    assert player.startswith("web/") and rating["rd"] < 350
    after = {r["row"]: r for r in rows_of(path, "--limit", "3")}
    solved_alone = after[first["row"]]
    assert solved_alone["rating"] < first["rating"]  # solved: the exercise lost
    assert after[second["row"]]["rating"] > second["rating"]  # failed: it won
    assert after[third["row"]]["rating"] > third["rating"]  # with help: a failure
    for old in (first, second, third):
        new = after[old["row"]]
        assert new["rating_source"] == "glicko2-web"
        assert new["attempts"] == old["attempts"] + 1
    assert solved_alone["solved"] == first["solved"] + 1
    assert after[third["row"]]["solved"] == third["solved"]

    before = path.read_bytes()
    again = run("db", "rate", "--game", BK, "--attempts", web.path, "--db", path, "--json")
    assert (json.loads(again.stdout)["applied"], json.loads(again.stdout)["already"]) == (0, 3)
    assert rows_of(path, "--limit", "3") == list(after.values())
    assert len(before) == len(path.read_bytes())

    missing = run("db", "rate", "--game", BK, "--attempts", tmp_path / "nope", "--db", path)
    assert "--attempts: no database at" in assert_one_line_error(missing)
    not_a_store = tmp_path / "other.sqlite"
    not_a_store.write_bytes(sample_db.read_bytes())
    wrong = run("db", "rate", "--game", BK, "--attempts", not_a_store, "--db", path)
    assert "--attempts:" in assert_one_line_error(wrong)


def test_a_covering_stream_plays_every_card_set_in_turn(tmp_path):
    """``db mine --cover``: round r plays card set r mod 4,368, as a stream of its own;
    the stats count the sets covered and the fewest exercises of one."""
    from fechtbuch.puzzles.battleklinge.minekind import ALL_CARD_SETS

    assert len(ALL_CARD_SETS) == len(set(ALL_CARD_SETS)) == 4368
    kind = backends.mining_kind(BK)
    assert kind.db_task(1, 4368 + 5, (2, 3), card_set=5)[3] == ALL_CARD_SETS[5]
    assert kind.db_task(1, 5, (2, 3))[3] is None
    path = tmp_path / "cover.sqlite"
    done = run("db", "mine", "--game", BK, "--cover", "--rounds", "24", "--db", path, "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["cover"] is True
    rows = rows_of(path, "--limit", "100000")
    sets = {",".join(sorted(c)) for c in ({*r["card_set"].split(",")} for r in rows)}
    names = [",".join(sorted(card_id(c) for c in s)) for s in ALL_CARD_SETS[:24]]
    assert rows and sets <= set(names)  # only the first 24 sets were played
    counts = json.loads(run("db", "stats", "--db", path, "--json").stdout)["games"][BK]
    assert counts["card_sets"] == len(sets) and counts["card_sets_in_game"] == 4368
    assert counts["fewest_per_card_set"] == min(
        sum(r["card_set"] == name for r in rows) for name in sets
    )
    plain = run("db", "mine", "--game", BK, "--rounds", "8", "--db", path, "--json")
    assert json.loads(plain.stdout)["rounds"] == [0, 7]  # not the covering stream's rounds
    duel = run("db", "mine", "--game", "touche-duell", "--cover", "--db", path)
    assert "--cover: Touché duel has no card sets" in assert_one_line_error(duel)


def test_top_up_passes_bring_every_card_set_to_the_target(tmp_path, monkeypatch):
    """``db mine --cover --target T``: passes of one round for each set still short of
    T, until none is; split over several commands (the --rounds budget) the file is
    the same bytes as in one.  The game's 4,368 sets are cut to 12 for the test."""
    kind = backends.mining_kind(BK)
    monkeypatch.setattr(kind, "db_cover_sets", 12)
    whole, split = tmp_path / "whole.sqlite", tmp_path / "split.sqlite"
    args = ["db", "mine", "--game", BK, "--cover", "--target", "3", "-j", "1", "--json"]
    done = run(*args, "--rounds", "100000", "--db", whole)
    assert done.exit_code == 0, done.output
    passes = json.loads(done.stdout)["rounds"]
    assert len(passes) >= 2
    counts = json.loads(run("db", "stats", "--db", whole, "--json").stdout)["games"][BK]
    assert counts["card_sets"] == 12 and counts["fewest_per_card_set"] >= 3
    first = run(*args, "--rounds", "12", "--db", split)  # the first pass only
    assert len(json.loads(first.stdout)["rounds"]) == 2  # [first, last] of one pass
    rest = run(*args, "--rounds", "100000", "--db", split)
    assert rest.exit_code == 0 and sha256(split) == sha256(whole)
    again = run(*args, "--rounds", "100000", "--db", whole)
    assert json.loads(again.stdout)["rounds_this_run"] == 0  # nothing short any more
    lone = run("db", "mine", "--game", BK, "--target", "3", "--db", whole)
    assert "--target: goes with --cover" in assert_one_line_error(lone)


# ---- determinism -------------------------------------------------------------------------


def test_the_file_is_the_same_for_any_jobs(tmp_path):
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    for path, jobs in ((one, "1"), (two, "2")):
        result = run("db", "mine", "--game", BK, "--rounds", "20", "--db", path, "-j", jobs)
        assert result.exit_code == 0, result.output
    assert sha256(one) == sha256(two)
    # a second run appends the next rounds of the stream: the same bytes again
    for path, jobs in ((one, "2"), (two, "1")):
        assert (
            run("db", "mine", "--game", BK, "--rounds", "12", "--db", path, "-j", jobs).exit_code
            == 0
        )
    assert sha256(one) == sha256(two)
    conn = schema.open_for_reading(one)
    assert conn.execute("SELECT MIN(round), MAX(round), COUNT(*) FROM rounds").fetchone() == (
        0,
        31,
        32,
    )


def test_sigkill_mid_run_then_resume_gives_the_bytes_of_an_uninterrupted_run(tmp_path):
    # killed once 24 rounds are committed: 96 rounds still to go when the signal comes
    rounds = "120"
    command = [sys.executable, "-m", "fechtbuch", "db", "mine", "--game", BK, "--rounds", rounds]
    whole, killed = tmp_path / "whole.sqlite", tmp_path / "killed.sqlite"
    done = subprocess.run(
        [*command, "--db", str(whole), "-j", "2"], capture_output=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    process = subprocess.Popen(
        [*command, "--db", str(killed), "-j", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while committed_rounds(killed) < 3 * mine.COMMIT_ROUNDS and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=60) == -signal.SIGKILL
    committed = committed_rounds(killed)
    assert 0 < committed < int(rounds), committed  # killed mid-run
    assert committed % mine.COMMIT_ROUNDS == 0  # whole units only
    resumed = subprocess.run(
        [*command, "--db", str(killed), "-j", "2"], capture_output=True, text=True, timeout=600
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert (
        f"continuing the interrupted run of rounds 0-119 from round {committed}" in resumed.stderr
    )
    assert not Path(str(killed) + "-journal").exists()
    assert sha256(killed) == sha256(whole)


def test_ray_missing_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    path = tmp_path / "x.sqlite"
    line = assert_one_line_error(
        run("db", "mine", "--game", BK, "--rounds", "1", "--db", path, "--ray")
    )
    assert "--ray: Ray is not installed" in line and "fechtbuch[ray]" in line
    assert not path.exists()  # refused before the database was touched


def test_the_shipped_pack_s_exercises_come_from_a_db_query(tmp_path):
    """``fechtbuch mine --n 2 --n 3 --count 24 --seed 1`` filled its pool from games
    0-143; the same rounds in the database, exported with the same count and seed,
    give the shipped pack's puzzles (the pack itself keeps the command that made it)."""
    from fechtbuch.engines.paths import data_path

    path, pack = tmp_path / "shipped.sqlite", tmp_path / "pack.json"
    mined = run(
        "db", "mine", "--game", BK, "--rounds", "144", "--seed", "1", "--db", path, "-j", "2"
    )
    assert mined.exit_code == 0, mined.output
    exported = run(
        "db", "export", "--game", BK, "--count", "24", "--seed", "1", "--db", path, "-o", pack
    )
    assert exported.exit_code == 0, exported.output
    shipped = json.loads(data_path("packs", "fechtuebungen.json").read_bytes())
    ours = json.loads(pack.read_bytes())
    assert ours["puzzles"] == shipped["puzzles"]
    assert {k: v for k, v in ours.items() if k != "command"} == {
        k: v for k, v in shipped.items() if k != "command"
    }


@pytest.mark.parametrize(("game", "rounds"), [("touche-duell", 4), ("touche-pyramiden", 2)])
def test_the_touche_games_mine_export_and_verify(tmp_path, game, rounds):
    path, pack = tmp_path / "db.sqlite", tmp_path / "pack.json"
    mined = run("db", "mine", "--game", game, "--rounds", rounds, "--db", path, "-j", "2", "--json")
    assert mined.exit_code == 0, mined.output
    assert json.loads(mined.stdout)["stored"] > 0
    by_n = json.loads(run("db", "stats", "--db", path, "--json").stdout)["games"][game]["by_n"]
    ns = [arg for n in by_n for arg in ("--n", n)]
    exported = run("db", "export", "--game", game, *ns, "--count", "1", "--db", path, "-o", pack)
    assert exported.exit_code == 0, exported.output
    assert len(json.loads(pack.read_bytes())["puzzles"]) == len(by_n)
    assert run("pack", "verify", pack).exit_code == 0
    assert run("db", "verify", "--db", path, "--game", game, "-j", "1").exit_code == 0


def test_the_bench_prints_throughput_and_checks_the_bytes():
    result = run(
        "db", "bench", "--rounds", "16", "--workers", "2", "--repeats", "2", "--no-ray", "--json"
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    (local,) = figures["runs"]
    assert figures["game"] == "battleklinge"  # the registry's first game with mining
    assert figures["same_bytes"] and local["sha256"] != "repeats differ"
    assert local["rounds"] == 16 and local["exercises"] > 0
    assert len(local["wall_seconds_of_each_repeat"]) == 2
    allocated = local["wall_seconds"] * local["workers"]
    assert local["per_allocated_cpu_second"] == pytest.approx(
        local["exercises"] / allocated, rel=0.01
    )


def test_the_bench_takes_its_game_from_the_registry():
    line = assert_one_line_error(run("db", "bench", "--game", "no-such-game", "--no-ray"))
    assert line.startswith("fechtbuch: error: --game: unknown game 'no-such-game'"), line


def test_an_export_the_rows_cannot_fill_is_one_line(sample_db, tmp_path):
    pack = tmp_path / "pack.json"
    line = assert_one_line_error(
        run("db", "export", "--db", sample_db, "--game", BK, "--count", "500", "-o", pack)
    )
    assert "count" in line or "pool" in line
    line = assert_one_line_error(
        run("db", "export", "--db", sample_db, "--game", BK, "--tag", "no-such-tag", "-o", pack)
    )
    assert "no rows match" in line
    assert not pack.exists()
