"""The command line: outputs, JSON, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.clirun import run

START = "ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte"


def test_perft_default_and_divide():
    assert run("perft").output.strip() == "9664055"
    out = run("perft", START, "2", "--divide").output.splitlines()
    assert out[0] == "ausfall:a1a3 13" and out[-1] == "169" and len(out) == 15


def test_perft_json_with_stats():
    data = json.loads(run("perft", START, "3", "--json", "--stats").output)
    assert data["leaves"] == 2483 and data["depth"] == 3 and data["leaves_per_second"] > 0


def test_show_draws_board_hands_and_grids():
    out = run("show", START).output
    assert "  5 s s m s s 5" in out and "  1 S S M S S 1" in out
    assert "Gold hand:" in out and "Ausfall" in out and "Side card:" in out
    blau_view = run("show", START.replace(" g ", " b ")).output
    assert (
        "  1 S S M S S 1"
        in blau_view.splitlines()[blau_view.splitlines().index("    e d c b a") + 1]
    )


def test_show_json():
    data = json.loads(run("show", START, "--json").output)
    assert data["turn"] == "g" and len(data["moves"]) == 13 and data["decided"] is False


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["perft", "ssmss/5/5/5/SSMS g ausfall,volte bindung,stoss riposte"], "rank 1 'SSMS'"),
        (["perft", START, "11"], "11 is not in the range 0<=x<=10"),
        (["show", "x y"], "expected 5 fields"),
        (["perft", "--bogus"], "No such option"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, fragment):
    result = subprocess.run(
        [sys.executable, "-c", "from fechtbuch import cli; cli.main()", *args],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fechtbuch: error:") and fragment in lines[0]
    assert "Traceback" not in result.stderr
