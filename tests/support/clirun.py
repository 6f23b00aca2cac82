"""The one way tests run the command line: in process, through click's runner."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result
from fechtbuch import cli


def run(*args, input: str | None = None) -> Result:  # noqa: A002 (click's name)
    """``fechtbuch ARGS...`` with stdout and stderr kept apart; arguments may be paths."""
    return CliRunner().invoke(cli.main, [str(a) for a in args], input=input)


def assert_one_line_error(result: Result, status: int = 2) -> str:
    """Exit ``status``, one line on stderr starting 'fechtbuch: error:', nothing else."""
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    assert result.exit_code == status, (result.exit_code, result.output[-500:])
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("fechtbuch: error:"), result.stderr[-500:]
    assert "Traceback" not in result.output
    assert len(lines[0]) <= 520, len(lines[0])
    return lines[0]


def committed_rounds(path: Path) -> int:
    """The rounds a ``db mine`` has committed to the database at ``path`` so far (read
    while it runs; 0 before the file or its schema exists)."""
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError:  # not created yet, or the schema is being written
        return 0
