"""The perft suite file, the issue's reference counts, and the suite runner's report."""

from __future__ import annotations

import pytest
from fechtbuch.engines.battleklinge.perft import check_suite, divide, load_suite, parse_suite, perft
from fechtbuch.engines.battleklinge.position import START_EINSTEIGER, NotationError, Position
from fechtbuch.engines.paths import data_path

SUITE = data_path("perft", "battleklinge.perft")


def test_issue_counts_from_the_einsteiger_start():
    pos = Position.from_text(START_EINSTEIGER)
    assert [perft(pos, d) for d in range(1, 7)] == [13, 169, 2483, 36348, 656166, 9664055]


def test_suite_file_passes():
    cases = load_suite(SUITE)
    assert len(cases) >= 10
    assert check_suite(cases) == []


def test_divide_sums_to_perft():
    pos = Position.from_text(START_EINSTEIGER)
    split = divide(pos, 4)
    assert len(split) == 13 and sum(c for _, c in split) == 36348


def test_wrong_count_reports_the_per_move_split():
    cases = parse_suite(f"id broken\nposition {START_EINSTEIGER}\nperft 2 170\n")
    (report,) = check_suite(cases)
    assert "perft 2 = 169, expected 170" in report
    assert "ausfall:a1a3 13" in report


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("perft 1 13\n", "expected 'id' first"),
        ("id x\nperft 1 13\n", "'perft' before 'position'"),
        (f"id x\nposition {START_EINSTEIGER}\nperft one 13\n", "expected 'perft <depth> <count>'"),
        ("id x\nfen abc\n", "unknown keyword 'fen'"),
        ("id x\nposition ssmss\n", "<suite>:2: position: expected 5 fields"),
    ],
)
def test_suite_parse_errors(text, fragment):
    with pytest.raises(NotationError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse_suite(text)


def test_perft_suite_command_reports_and_exits(tmp_path):
    from click.testing import CliRunner
    from fechtbuch import cli

    ok = CliRunner().invoke(cli.main, ["perft", "--suite", str(SUITE), "--max-depth", "4"])
    assert ok.exit_code == 0 and "0 wrong" in ok.output
    bad = tmp_path / "bad.perft"
    bad.write_text(f"id broken\nposition {START_EINSTEIGER}\nperft 2 170\n")
    result = CliRunner().invoke(cli.main, ["perft", "--suite", str(bad)])
    assert (
        result.exit_code == 1 and "ausfall:a1a3 13" in result.output and "1 wrong" in result.output
    )
