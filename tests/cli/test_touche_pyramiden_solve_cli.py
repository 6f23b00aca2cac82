"""fechtbuch pyramiden solve: fields, tree and exit codes (0 answer, 1 unknown, 2 bad input)."""

from __future__ import annotations

import json

from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.state import Config
from support.clirun import assert_one_line_error, run

IN_ONE = (
    "pyramiden-1 sicht=0 spieler=2 teams=2 runden=3 vorgabe=kors runde=1 muster=kors zug=0 "
    "start=1 punkte=0,0 pass=0 brett=..11.112.2..../121.1....1..../.1.21..12.11.1/"
    "..12.1..1.111./.21..2...2..2./221.2.2.2..22./2....2.2....../.2.2.21.....2. "
    "hand=6H,TH,JH,TD,2C/#5 stapel=#26/#25 ablage=KC,9D,6D,3D,AS,TD,3H,4D,8S,XX,JD,5H,2H,"
    "6D,TC,9S,JH,7D,9H,6S,QD,KD,AC,2H,8C,5C,8D,JS,QC,2D,6C,2S,4H,9D,2D,KC,KS,KH,QH,TH,7D,5S,"
    "JC,3S,6H,3D,KD beiseite=#0 seed=?"
)


def _double_threat_view() -> str:
    """c2 d2 e2 of P's, 2C 6C 7C in hand, every joker and the second 6C and 7C seen:
    Touché in 2 (b2, f2 or g2 makes two threats the opponent cannot both block)."""
    state = rules.compose(
        Config(2, 2, 3, Pattern.LINIE),
        Pattern.LINIE,
        [["2C", "6C", "7C", "KH", "9S"], ["AS", "3S", "5H", "8D", "QD"]],
        pyramids={0: ["c2", "d2", "e2"], 1: ["k7", "b6", "m3"]},
        pile_sizes=[40, 40],
    )
    return notation.format_view(notation.view_of(state, 0))


def test_touche_in_one_json_verified():
    result = run("pyramiden", "solve", IN_ONE, "--max", "2", "--json", "--verify")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "solved" and data["distance"] == 1
    assert data["keys"] == ["TH:l4"] and data["main_line"] == ["TH:l4"]
    assert data["tree"] == {"TH:l4": "win"}
    assert data["verified"] is True
    assert data["nodes"] >= 0 and data["seconds"] >= 0  # the leaf test decides the root: 0


def test_text_summary_names_the_only_key():
    result = run("pyramiden", "solve", IN_ONE, "--max", "1")
    assert result.exit_code == 0
    assert "Touché in 1. Keys: TH:l4 (the only one)" in result.stdout


def test_node_limit_is_unknown_exit_1():
    result = run("pyramiden", "solve", _double_threat_view(), "--max", "2", "--max-nodes", "50")
    assert result.exit_code == 1
    assert result.stdout.startswith("unknown")


def test_no_touche_within_one():
    result = run("pyramiden", "solve", _double_threat_view(), "--max", "1", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["status"] == "solved" and data["distance"] is None and data["keys"] == []


def test_bad_views_are_one_line_errors():
    assert "spieler" in assert_one_line_error(run("pyramiden", "solve", "pyramiden-1 x"))
    three = IN_ONE.replace("spieler=2 teams=2", "spieler=3 teams=3")
    assert_one_line_error(run("pyramiden", "solve", three))
    other = IN_ONE.replace("sicht=0", "sicht=1").replace("hand=6H,TH,JH,TD,2C/#5", "hand=#5/2C")
    assert_one_line_error(run("pyramiden", "solve", other))
