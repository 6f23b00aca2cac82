"""Touché with pyramids' analysis after a game (solver/touche_pyramiden/analysis.py and
the web's report of it): a decision that held a sure Touché and played something else
is a miss ("??") with an action that keeps the Touché; the key itself is no miss; a game
of more than two seats is not asked.

The positions are exercises of the shipped pack pyramiden-uebungen (each proved to
have exactly one key), played on as full states dealt to agree with the seat's view.
"""

from __future__ import annotations

import json

import pytest
from fechtbuch.engines.paths import data_file
from fechtbuch.engines.registry import game as registered_game
from fechtbuch.engines.touche_pyramiden import rules
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.notation import format_action, parse_action, parse_view
from fechtbuch.engines.touche_pyramiden.state import Config
from fechtbuch.solver.touche_pyramiden.analysis import sure_touche
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
    assert report["asked"] is True and report["turning"] is None
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


def test_a_game_of_three_is_not_asked():
    state = rules.new_game(Config(3, 3), "analysis-three")
    while len(GAME.legal_actions(state)) < 2:
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    action = GAME.legal_actions(state)[0]
    report = PyramidenWeb().analyse(
        GAME, [state, GAME.apply(state, action)], [format_action(action)]
    )
    assert report["asked"] is False and report["note"]["key"] == "tp.analysed.unasked"
    assert report["moves"] == [{"number": 1, "mark": "", "better": None}]
