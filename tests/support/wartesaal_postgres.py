"""A PostgreSQL for the Wartesaal's tests: a database of this test process's own, on
the server of ``WARTESAAL_POSTGRES_URL`` or in a private cluster from ``.ci/postgres``
(on a Unix socket in a private folder, installed with apt if missing).  Without it
the tests that use the fixture skip, unless ``CI=true``: then they fail.

Private per process because each test empties the room's tables first
(:func:`fresh_database`) and the servers LISTEN on the database: two xdist workers on
one database would empty and wake each other's rooms."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]  # the repository (tests/support/..)


@pytest.fixture(scope="session")
def postgres_url():
    """The URL of a PostgreSQL database for the room (one per test process)."""
    url = os.environ.get("WARTESAAL_POSTGRES_URL")
    if url:
        yield from _private_database(url)
        return
    # not under pytest's tmp_path: its parents admit only us, and the cluster runs as
    # the user postgres when we are root
    folder = Path(tempfile.mkdtemp(prefix="wartesaal-pg-"))
    folder.chmod(0o755)
    started = subprocess.run(
        [str(ROOT / ".ci" / "postgres"), "start", str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if started.returncode != 0:
        reason = f"PostgreSQL is unavailable (.ci/postgres: {started.stderr.strip()[-300:]})"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    yield started.stdout.strip()
    subprocess.run([str(ROOT / ".ci" / "postgres"), "stop", str(folder)], timeout=60)
    shutil.rmtree(folder, ignore_errors=True)


def _private_database(server_url: str):
    """A new database on ``server_url``'s server, named for this process, dropped at
    the end: the given database is only the way in."""
    import psycopg
    from sqlalchemy.engine import make_url

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"wartesaal_test_{worker}_{os.getpid()}"
    given = make_url(server_url)
    with psycopg.connect(_libpq(given), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield given.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(_libpq(given), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _libpq(url) -> str:
    """A SQLAlchemy URL as a libpq connection string (psycopg's form)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def fresh_database(url: str) -> None:
    """Drop every table of the room on ``url``: a test starts from an empty room."""
    from fechtbuch.wartesaal.store import Store, metadata

    store = Store(url)
    with store.transaction() as tx:
        metadata.drop_all(tx.conn)
    store.dispose()
