"""A PostgreSQL for the Wartesaal's tests: ``WARTESAAL_POSTGRES_URL``, or a private
cluster from ``.ci/postgres`` (on a Unix socket, installed with apt if missing).
Without it the tests that use the fixture skip, unless ``CI=true``: then they fail."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def postgres_url():
    """The URL of a PostgreSQL database for the room (one cluster per test process)."""
    url = os.environ.get("WARTESAAL_POSTGRES_URL")
    if url:
        yield url
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


def fresh_database(url: str) -> None:
    """Drop every table of the room on ``url``: a test starts from an empty room."""
    from fechtbuch.wartesaal.store import Store, metadata

    store = Store(url)
    with store.transaction() as tx:
        metadata.drop_all(tx.conn)
    store.dispose()
