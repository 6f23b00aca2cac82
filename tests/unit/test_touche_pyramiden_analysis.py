"""Touché with pyramids' analysis after a game (solver/touche_pyramiden/analysis.py and
the web's report of it): a decision that held a sure Touché and played something else
is a miss ("??") with an action that keeps the Touché; the key itself is no miss; the
first miss is the game's turning point, with the seat's view before it; a game of more
seats is asked too (a Touché in 1, then a Touché in 2 with every other seat as an
adversary), and only a game where no decision could be asked carries the note.

The two-player positions are exercises of the shipped pack pyramiden-uebungen (each
proved to have exactly one key), played on as full states dealt to agree with the
seat's view; the positions of more seats are composed.
"""

from __future__ import annotations

import json

import pytest
from fechtbuch.engines.paths import data_file
from fechtbuch.engines.registry import game as registered_game
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.notation import (
    format_action,
    format_view,
    parse_action,
    parse_view,
    view_of,
)
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.state import Config
from fechtbuch.solver.touche_pyramiden.analysis import sure_in_two, sure_touche, touches_now
from fechtbuch.web.touche_pyramiden.webgame import PyramidenWeb

GAME = registered_game("touche-pyramiden")


def exercise(n: int) -> dict:
    puzzles = json.loads(data_file("packs", "pyramiden-uebungen.json").read_text())["puzzles"]
    return next(p for p in puzzles if p["n"] == n)


@pytest.mark.parametrize("n", [1, 2])
def test_the_prover_finds_the_exercises_sure_touche_and_its_key(n):
    puzzle = exercise(n)
    sure = sure_touche(parse_view(puzzle["position"]))
    assert sure is not None and sure.turns == n
    assert [format_action(a) for a in sure.keys] == [puzzle["key"]]


def played(n: int, choose) -> tuple[dict, str, str]:
    """The exercise's position as the first decision of a game, the action ``choose``
    picks from the legal ones (texts) played: the analysis' entry, the action, the key."""
    puzzle = exercise(n)
    state = determinise(parse_view(puzzle["position"]))
    texts = sorted(format_action(a) for a in GAME.legal_actions(state))
    text = choose([t for t in texts if t != puzzle["key"]], puzzle["key"])
    after = GAME.apply(state, parse_action(text))
    report = PyramidenWeb().analyse(GAME, [state, after], [text])
    assert report["asked"] is True and "note" not in report
    assert (report["turning"] is None) == (text == puzzle["key"])
    return report["moves"][0], text, puzzle["key"]


@pytest.mark.parametrize("n", [1, 2])
def test_a_missed_sure_touche_is_marked_with_the_key(n):
    entry, text, key = played(n, lambda others, key: others[0])
    assert text != key
    assert entry["mark"] == "??" and entry["better"] == key and entry["sure"] == n
    assert entry["better_words"]["label_key"].startswith("tp.explain.")


def test_the_key_played_is_no_miss():
    entry, text, key = played(2, lambda others, key: key)
    assert text == key
    assert entry == {"number": 1, "mark": "", "better": None, "sure": 2}


def test_the_first_miss_is_the_turning_point_with_the_view_before_it():
    """Two exercises as two decisions of one game: both missed, the first is the
    turning point; the first played right, the second is."""
    one, two = exercise(1), exercise(2)
    states = [determinise(parse_view(p["position"])) for p in (one, two)]
    misses = [
        next(format_action(a) for a in GAME.legal_actions(s) if format_action(a) != p["key"])
        for s, p in zip(states, (one, two), strict=True)
    ]
    last = GAME.apply(states[1], parse_action(misses[1]))
    web = PyramidenWeb()
    both = web.analyse(GAME, [*states, last], misses)
    turning = both["turning"]
    assert [m["mark"] for m in both["moves"]] == ["??", "??"]
    assert turning["number"] == 1 and turning["move"] == misses[0]
    assert turning["better"] == one["key"] and turning["sure"] == 1
    assert turning["seat"] == states[0].to_move
    # the board's view of the seat before the decision, its hand included
    assert turning["view"]["notation"] == format_view(view_of(states[0], states[0].to_move))
    card, field = one["key"].split(":")
    assert turning["better_action"] == {
        "text": one["key"],
        "act": "place",
        "card": card,
        "field": field,
    }
    assert turning["better_words"] == both["moves"][0]["better_words"]
    assert turning["move_words"]["label_key"].startswith("tp.explain.")
    second = web.analyse(GAME, [*states, last], [one["key"], misses[1]])
    assert second["moves"][0]["mark"] == "" and second["turning"]["number"] == 2
    assert second["turning"]["better"] == two["key"] and second["turning"]["sure"] == 2


def composed(config: Config, pyramids: dict[int, list[str]], hands: list[list[str]], **more):
    """A PLAY state of ``config``'s seats, seat 0 to act, pattern linie unless told."""
    pattern = more.pop("pattern", Pattern.LINIE)
    return rules.compose(config, pattern, hands, pyramids, **more)


OTHER_HANDS = [["6S", "7S", "8S", "9S", "TS"], ["2H", "3H", "5H", "6H", "7H"]]


@pytest.mark.parametrize(
    "config, pyramids, hands",
    [
        # three players: Blau has a3-d3 and holds the card of e3 (Jack of diamonds)
        (Config(3, 3), {0: ["a3", "b3", "c3", "d3"], 1: ["a7", "b7"], 2: ["h8"]}, 3),
        # four in two teams: Blau 1's team has a3-d3 (two of them Blau 2's)
        (Config(4, 2), {0: ["a3", "b3", "c3", "d3"], 1: ["a7", "b7", "h8"]}, 4),
    ],
)
def test_a_missed_touche_in_one_of_more_seats_is_marked_and_is_the_turning_point(
    config, pyramids, hands
):
    state = composed(
        config,
        pyramids,
        [["JD", "2S", "3S", "4H", "5C"], *OTHER_HANDS, ["2C", "3C", "4C", "5D", "6D"]][:hands],
    )
    view = view_of(state, 0)
    assert [format_action(a) for a in touches_now(view)] == ["JD:e3"]
    sure = sure_touche(view)
    assert (
        sure is not None and sure.turns == 1 and [format_action(a) for a in sure.keys] == ["JD:e3"]
    )
    missed = parse_action("2S:c8")
    after = GAME.apply(state, missed)
    report = PyramidenWeb().analyse(GAME, [state, after], ["2S:c8"])
    assert report["asked"] is True and "note" not in report
    entry = report["moves"][0]
    assert entry["mark"] == "??" and entry["better"] == "JD:e3" and entry["sure"] == 1
    assert entry["better_words"]["label_key"] == "tp.explain.place"
    turning = report["turning"]
    assert turning["number"] == 1 and turning["move"] == "2S:c8" and turning["better"] == "JD:e3"
    assert turning["better_action"]["field"] == "e3" and turning["better_action"]["card"] == "JD"
    assert turning["view"]["seat"] == 0 and "JD" in turning["view"]["hand"]
    # the Touché played: no miss, no turning point
    touche = parse_action("JD:e3")
    report = PyramidenWeb().analyse(GAME, [state, GAME.apply(state, touche)], ["JD:e3"])
    assert report["moves"][0]["mark"] == "" and report["turning"] is None


def test_a_touche_in_two_of_three_seats_holds_with_a_joker_kept_and_none_unseen():
    """Blau has c3 and d3 of a square and two jokers; the other two jokers lie on the
    discard pile (short piles), so nobody can lift a pyramid of Blau's nor stop its
    joker: every action that makes three of a square and keeps a joker is a sure
    Touché in 2.  With the other jokers unseen there is none."""
    hands = [["XX", "XX", "2S", "3D", "5C"], *OTHER_HANDS]
    pyramids = {0: ["c3", "d3"], 1: ["a7", "b7"], 2: ["h8"]}
    config = Config(3, 3)
    state = composed(config, pyramids, hands, pattern=Pattern.KVADRAT, pile_sizes=[20, 20, 20])
    view = view_of(state, 0)
    assert view.discard.count(52) == 2 and touches_now(view) == ()
    keys = [format_action(a) for a in sure_in_two(view)]
    assert keys == ["3D:c4", "XX:c2", "XX:d2", "XX:c4", "XX:d4"]
    assert sure_touche(view) is not None and sure_touche(view).turns == 2
    unseen = composed(config, pyramids, hands, pattern=Pattern.KVADRAT)
    assert sure_in_two(view_of(unseen, 0)) == () and sure_touche(view_of(unseen, 0)) is None


def test_a_touche_in_two_is_not_sure_when_an_opponent_may_complete_first():
    """The same square in a game of kombination, but Orange lacks one field of a line
    (b7 or g7, their cards unseen) and acts before Blau's next turn: nothing is sure."""
    hands = [["XX", "XX", "2S", "3D", "5C"], *OTHER_HANDS]
    pyramids = {0: ["c3", "d3"], 1: ["c7", "d7", "e7", "f7"], 2: ["h8"]}
    state = composed(
        Config(3, 3), pyramids, hands, pattern=Pattern.KOMBINATION, pile_sizes=[20, 20, 20]
    )
    assert sure_in_two(view_of(state, 0)) == ()


def test_only_a_game_where_nothing_could_be_asked_carries_the_note():
    state = rules.new_game(Config(3, 3), "analysis-three")
    assert not GAME.is_terminal(state) and state.phase.value == "wahl"  # the pattern's choice
    action = GAME.legal_actions(state)[0]
    report = PyramidenWeb().analyse(
        GAME, [state, GAME.apply(state, action)], [format_action(action)]
    )
    assert report["asked"] is False and report["note"]["key"] == "tp.analysed.unasked"
    assert report["moves"] == [{"number": 1, "mark": "", "better": None}]
    assert report["turning"] is None
