"""The one way tests run the command line: in process, through click's runner."""

from __future__ import annotations

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
