"""``tb bench --against``: fechtbuch's build beside a bitbase generator, in one run.

The real bitbase (LHolten/onitama-solver) is not a dependency of the tests: a small
stand-in script plays its part, printing the line the real one prints, so the
tests check the side-by-side mode itself (child processes, their own CPU time and
memory, the count check, the exit statuses).
"""

from __future__ import annotations

import hashlib
import stat
import sys

import orjson
from fechtbuch.engines.battleklinge.cards import card_id, parse_card_list
from fechtbuch.engines.battleklinge.tablebase import build
from fechtbuch.engines.battleklinge.tablebase import sidebyside as sbs


def _run(*args):
    from click.testing import CliRunner
    from fechtbuch import cli

    return CliRunner().invoke(cli.main, list(args))


def _stand_in(tmp_path, wins: int):
    """An executable that records its arguments, burns a little CPU and prints
    ``wins`` the way the bitbase does."""
    script = tmp_path / "table_base"
    arguments = tmp_path / "arguments.txt"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"open({str(arguments)!r}, 'w').write(' '.join(sys.argv[1:]))\n"
        "total = sum(i * i for i in range(2_000_000))\n"
        f"print('{wins} total wins')\n"
        "print('took 0.1 seconds')\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, arguments


def _won_k0(tmp_path) -> int:
    report = build(parse_card_list(sbs.BITBASE_CARD_IDS), 0, tmp_path / "reference")
    return sum(split.won for split in report.splits)


def test_side_by_side_measures_both_and_checks_the_counts(tmp_path):
    won = _won_k0(tmp_path)
    binary, arguments = _stand_in(tmp_path, won)
    result = _run("tb", "bench", "--students", "0", "--against", str(binary), "--json")
    assert result.exit_code == 0, result.output
    figures = orjson.loads(result.output)
    assert arguments.read_text() == "2"  # two pieces: both masters, no students
    bitbase_cards = sorted(parse_card_list(sbs.BITBASE_CARD_IDS))
    assert figures["cards"] == ",".join(card_id(c) for c in bitbase_cards)
    assert figures["fechtbuch"]["won"] == figures["bitbase"]["won"] == won
    for side in ("fechtbuch", "bitbase"):
        run = figures[side]
        assert run["wall_seconds"] > 0 and run["peak_rss_mb"] > 0
        # the stand-in's loop is CPU work: its own usage is measured, not zero
        assert run["cpu_seconds"] > 0
        busy = run["cpu_seconds"] / run["wall_seconds"]
        assert abs(run["cores_busy"] - busy) <= 0.01 + 0.01 * busy  # from unrounded times
    ratio = figures["fechtbuch"]["wall_seconds"] / figures["bitbase"]["wall_seconds"]
    assert abs(figures["wall_ratio"] - ratio) <= 0.01 * ratio  # the walls are rounded
    text = _run("tb", "bench", "--students", "0", "--against", str(binary))
    assert text.exit_code == 0, text.output
    assert "wall ratio fechtbuch / bitbase" in text.output and f"{won:,}" in text.output


def test_side_by_side_fails_when_the_counts_differ(tmp_path):
    binary, _ = _stand_in(tmp_path, _won_k0(tmp_path) + 1)
    result = _run("tb", "bench", "--students", "0", "--against", str(binary))
    assert result.exit_code == 1
    assert "verification:" in result.output and "Traceback" not in result.output


def test_side_by_side_bad_input_is_one_line(tmp_path):
    missing = _run("tb", "bench", "--students", "0", "--against", str(tmp_path / "none"))
    assert missing.exit_code == 2 and "against:" in missing.output
    binary, _ = _stand_in(tmp_path, 1)
    other_set = _run(
        "tb",
        "bench",
        "--cards",
        "einsteiger",
        "--students",
        "0",
        "--against",
        str(binary),
    )
    assert other_set.exit_code == 2 and "cards:" in other_set.output


def test_a_child_printing_bytes_is_one_line(tmp_path):
    """A program that prints bytes that are no text (and no 'N total wins') is one line."""
    noise = hashlib.sha256(b"tb bench --against noise").digest() * 64
    (tmp_path / "noise.bin").write_bytes(noise)
    script = tmp_path / "noise"
    script.write_text(
        f"#!/bin/sh\ncat {tmp_path / 'noise.bin'}\ncat {tmp_path / 'noise.bin'} >&2\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    result = _run("tb", "bench", "--students", "0", "--against", str(script))
    assert result.exit_code == 1, result.output[-500:]
    assert not isinstance(result.exception, UnicodeError), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "against:" in lines[0] and "total wins" in lines[0], lines
    failing = tmp_path / "failing"
    failing.write_text(f"#!/bin/sh\ncat {tmp_path / 'noise.bin'} >&2\nexit 3\n")
    failing.chmod(failing.stat().st_mode | stat.S_IXUSR)
    result = _run("tb", "bench", "--students", "0", "--against", str(failing))
    assert result.exit_code == 1 and not isinstance(result.exception, UnicodeError)
    assert len(result.stderr.splitlines()) == 1 and "exited with 3" in result.stderr


def test_a_failing_child_is_reported(tmp_path):
    script = tmp_path / "broken"
    script.write_text("#!/bin/sh\necho 'out of memory' >&2\nexit 3\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    try:
        sbs.run_measured("bitbase", [str(script)])
    except RuntimeError as err:
        assert "exited with 3" in str(err) and "out of memory" in str(err)
    else:
        raise AssertionError("a failing child passed")


def test_runs_take_turns_and_report_medians(tmp_path):
    won = _won_k0(tmp_path)
    binary, _ = _stand_in(tmp_path, won)
    result = _run(
        "tb", "bench", "--students", "0", "--against", str(binary), "--runs", "3", "--json"
    )
    assert result.exit_code == 0, result.output
    figures = orjson.loads(result.output)
    assert len(figures["runs"]) == 3
    for side in ("fechtbuch", "bitbase"):
        walls = sorted(run[side]["wall_seconds"] for run in figures["runs"])
        assert figures[side]["wall_seconds"] == walls[1]  # the median of three
    ratio = figures["fechtbuch"]["wall_seconds"] / figures["bitbase"]["wall_seconds"]
    assert abs(figures["wall_ratio"] - ratio) <= 0.01 * ratio
    for run in figures["runs"]:
        assert run["wall_ratio"] > 0
    text = _run("tb", "bench", "--students", "0", "--against", str(binary), "--runs", "2")
    assert text.exit_code == 0, text.output
    assert "median of 2 runs" in text.output and "wall ratio of each run" in text.output
    plain = _run("tb", "bench", "--students", "0", "--runs", "3", "--json")
    assert plain.exit_code == 0, plain.output
    seconds = orjson.loads(plain.output)["runs_seconds"]
    assert len(seconds) == 3
    assert orjson.loads(plain.output)["seconds"] == sorted(seconds)[1]
    refused = _run("tb", "bench", "--students", "0", "--runs", "0")
    assert refused.exit_code == 2 and "--runs" in refused.output
