"""The Touché duel's analysis after a match (web/touche_duell/webgame.py over
solver/touche_duell/analysis.py): a decision that held a sure hit and played another
action is a miss ("??"); the first miss is the match's turning point, with the view of
the fencer before it, the action played and the better one in words and as the table
lights it; a match without a miss has none.

The positions are exercises of the shipped pack touche-uebungen with a sure win of the
round within one own turn and exactly one winning action, played on as full positions
dealt to agree with the fencer's view.
"""

from __future__ import annotations

import json

from fechtbuch.engines.paths import data_file
from fechtbuch.engines.registry import game as registered_game
from fechtbuch.engines.touche_duell.deal import HashStream
from fechtbuch.engines.touche_duell.notation import parse_action, parse_view
from fechtbuch.engines.touche_duell.players import determinise
from fechtbuch.engines.touche_duell.state import format_action, view_of
from fechtbuch.solver.touche_duell.analysis import sure_hits
from fechtbuch.web.touche_duell.webgame import ToucheDuellWeb, seat_board

GAME = registered_game("touche-duell")
ATTACK = "t-171b2204c6e9"  # A at 12, B at 15, A holds 1 2 3 3 3: a3x3 hits for sure
BACK = "t-53a10f52602e"  # A at 16, B at 21: m-5 blocks B for sure


def exercise(puzzle_id: str) -> tuple[dict, object]:
    """The exercise and a full position agreeing with its fencer's view."""
    puzzles = json.loads(data_file("packs", "touche-uebungen.json").read_text())["puzzles"]
    puzzle = next(p for p in puzzles if p["id"] == puzzle_id)
    view = parse_view(puzzle["position"])
    assert [format_action(a) for a in sure_hits(view)] == [puzzle["key"]]
    return puzzle, determinise(view, HashStream(f"analysis-test/{puzzle_id}"))


def analysed(positions: list, texts: list[str]) -> dict:
    """The report of a "match" whose decisions are ``positions`` with ``texts`` played."""
    last = GAME.apply(positions[-1], parse_action(texts[-1]))
    return ToucheDuellWeb().analyse(GAME, [*positions, last], texts)


def test_a_missed_sure_hit_is_the_turning_point_with_the_fencer_s_view():
    puzzle, position = exercise(ATTACK)
    report = analysed([position], ["a3x1"])  # one three instead of all three
    entry = report["moves"][0]
    assert entry["mark"] == "??" and entry["better"] == "a3x3"
    turning = report["turning"]
    assert turning["number"] == 1 and turning["seat"] == position.mover == 0
    assert turning["move"] == "a3x1" and turning["mark"] == "??" and turning["better"] == "a3x3"
    # the table before the decision as that fencer saw it: its own hand, no other
    assert turning["view"] == seat_board(view_of(position, 0))
    assert turning["view"]["hand"] == [1, 2, 3, 3, 3] and "hands" not in turning["view"]
    # in words: the played one as the move list says it, the better one as its button
    assert turning["move_words"] == {
        "label_key": "td.explain.attack",
        "args": {"who": "A", "step": 0, "value": 3, "count": 1},
    }
    assert turning["better_words"] == entry["better_words"]
    assert turning["better_words"]["label_key"] == "td.action.attack"
    action = turning["better_action"]
    assert action["text"] == "a3x3" and action["kind"] == "attack"
    assert action["value"] == 3 and action["count"] == 3


def test_a_match_without_a_miss_has_no_turning_point():
    puzzle, position = exercise(ATTACK)
    report = analysed([position], [puzzle["key"]])
    assert report["moves"][0]["mark"] == "" and report["moves"][0]["sure"] is True
    assert report["turning"] is None


def test_the_turning_point_is_the_first_miss():
    (_, attack), (_, back) = exercise(ATTACK), exercise(BACK)
    both = analysed([attack, back], ["a3x1", "m-1"])
    assert [m["mark"] for m in both["moves"]] == ["??", "??"]
    assert both["turning"]["number"] == 1 and both["turning"]["better"] == "a3x3"
    second = analysed([attack, back], ["a3x3", "m-1"])
    assert second["moves"][0]["mark"] == ""
    turning = second["turning"]
    assert turning["number"] == 2 and turning["move"] == "m-1" and turning["better"] == "m-5"
    assert turning["better_action"]["kind"] == "move" and turning["better_action"]["step"] == -5
    assert turning["view"]["squares"] == [16, 21]
