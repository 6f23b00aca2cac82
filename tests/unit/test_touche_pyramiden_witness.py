"""Pyramid positions that a game reaches: the reachability test, start states and the
witness games that mining attaches to every candidate.

* The 19 exercises shipped before session 6 that no game reaches (tests/data/
  pyramiden-unreachable.json) are rejected by the reachability test.
* The test never rejects a position of real play: every view of every seat in seeded
  games of 2 to 6 players (teams included) passes it.
* Every candidate view of mining, built ones included, comes with the round that
  reaches it, and the pack kind's witness check (the reference rules) replays it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import orjson
import pytest
from fechtbuch.engines.touche_pyramiden import GAME, notation, rules
from fechtbuch.engines.touche_pyramiden.board import JOKER, parse_card
from fechtbuch.engines.touche_pyramiden.reachable import reachability_problem, start_problem
from fechtbuch.engines.touche_pyramiden.sampling import random_action, random_states
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Phase
from fechtbuch.engines.touche_pyramiden.touche_in_n import node_of_view
from fechtbuch.puzzles.touche_pyramiden import mining as exercises
from fechtbuch.puzzles.touche_pyramiden.packkind import verify_witness
from fechtbuch.puzzles.touche_pyramiden.witnesses import played_trails, provenance

UNREACHABLE = orjson.loads(
    (Path(__file__).parents[1] / "data" / "pyramiden-unreachable.json").read_bytes()
)["positions"]


def test_the_fixture_holds_the_19_positions_of_the_old_pack():
    counts = {n: sum(p["n"] == n for p in UNREACHABLE) for n in (1, 2, 3)}
    assert counts == {1: 7, 2: 5, 3: 7}
    ids = {p["id"] for p in UNREACHABLE}
    assert {"py-0ce27af218c2", "py-0925b06a4b32", "py-7056d55e12f4"} <= ids
    assert sum("safe-field" in p["tags"] for p in UNREACHABLE if p["n"] == 3) == 6


@pytest.mark.parametrize("entry", UNREACHABLE, ids=lambda e: e["id"])
def test_the_reachability_test_rejects_each_unreachable_position(entry):
    assert reachability_problem(notation.parse_view(entry["position"])) is not None
    assert not exercises.reachable(entry["position"])


def test_the_smallest_example_names_its_cards():
    entry = next(p for p in UNREACHABLE if p["id"] == "py-0ce27af218c2")
    problem = reachability_problem(notation.parse_view(entry["position"]))
    assert problem is not None and "(JH)" in problem and "need 5 jokers" in problem


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_position_of_real_play_passes(players):
    """Property: the test is necessary, so it never rejects a state reached by play
    (random games lean towards placing and completing: crowned fields, later rounds,
    jokers that lift pyramids, dead cards exchanged)."""
    seen = jokers_lifting = 0
    for state in random_states(players, 400, f"reachable-{players}"):
        if state.phase is not Phase.PLAY:
            continue
        for seat in range(players):
            view = notation.view_of(state, seat)
            assert reachability_problem(view) is None, notation.format_view(view)
        seen += 1
        jokers_lifting += state.discard.count(JOKER) > 0
    assert seen > 300 and jokers_lifting > 50


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_round_starts_of_real_games_are_starts_and_edited_ones_are_not(players):
    trails = played_trails(
        players, 1500, HashStream(f"starts/{players}"), lambda g: f"starts-{g}", random_action
    )
    starts = list({trail.start: None for _, trail in trails})
    assert {s.round for s in starts} >= {1, 2}  # later rounds start with crowned fields
    for state in starts:
        if sum(state.scores) < state.round - 1:
            # after a round without a point (random play of four or six players has
            # them): a start that start_problem does not claim, by its definition
            assert "punkte" in GAME.start_problem(state)
            continue
        assert GAME.start_problem(state) is None, notation.format_state(state)
        assert GAME.reference().start_problem(state) is None
    later = next(s for s in starts if s.round > 1)
    first = next(s for s in starts if s.round == 1)
    after = rules.apply(first, rules.legal_actions(first)[0])
    assert start_problem(after) is not None  # something happened: no longer a start
    assert "punkte" in start_problem(replace(later, scores=(0,) * len(later.scores)))
    assert "brett" in start_problem(replace(later, crowned=later.crowned | 1 << 30))
    assert "runde" in start_problem(replace(first, round=first.config.rounds + 1))


def test_every_candidate_view_comes_with_a_round_that_reaches_it():
    views = built = 0
    for round_views in exercises.candidate_rounds("1", 30, deep=True):
        texts = list(round_views.views) + [v for v, _ in round_views.built]
        for text in texts:
            trail = round_views.trails[text]
            assert trail.replay() is not None
            assert GAME.start_problem(trail.start) is None
            assert exercises.reachable(text)
        for text in texts[:4]:  # the reference rules on a sample (slower)
            assert (
                verify_witness({"position": text, "witness": round_views.trails[text].witness()})
                == []
            )
        views += len(round_views.views)
        built += len(round_views.built)
    assert views > 100 and built > 0


def test_a_joker_variant_keeps_the_board_and_makes_every_joker_seen():
    made = 0
    for state, trail in exercises.random_trails(80, "joker-variants"):
        if state.phase is not Phase.PLAY or state.pattern is None:
            continue
        variant = exercises.jokers_seen(state, trail)
        if variant is None:
            continue
        after = variant.replay()
        assert after.own == state.own and len(after.discard) == len(state.discard)
        view = notation.view_of(after, after.to_move)
        assert node_of_view(view)[0].unseen[JOKER] == 0
        assert after.hands[after.to_move] == state.hands[state.to_move]
        made += 1
    assert made >= 10


def test_a_lifted_view_gives_the_card_back_and_empties_the_field():
    lifted = 0
    for round_views in exercises.candidate_rounds("1", 40, deep=True):
        for text in round_views.views:
            trail = round_views.trails[text]
            for earlier, edited in exercises.lifted_views(text, trail):
                before = notation.parse_view(earlier)
                now = notation.parse_view(text)
                assert len(before.discard) == len(now.discard) and before.seat == now.seat
                gone = now.own[now.seat] & ~before.own[before.seat]
                assert gone, "a pyramid of P's is lifted"
                assert edited.replay() is not None and len(edited.actions) == len(trail.actions)
                lifted += 1
        if lifted > 20:
            break
    assert lifted > 0


def test_a_safe_field_view_has_every_copy_of_the_second_card_seen():
    built = 0
    for round_views in exercises.candidate_rounds("1", 60, deep=True):
        for text, key in round_views.built:
            view = notation.parse_view(text)
            node, _ = node_of_view(view)
            first = parse_card(key.split(":")[0])
            assert first in view.hand and node.unseen[first] > 0
            assert node.unseen[JOKER] == 0
            built += 1
    assert built > 0


def test_provenance_names_the_slot_of_every_played_card():
    for state, trail in exercises.threat_states(60, "provenance"):
        origin = provenance(trail)
        cards = [list(trail.start.hands[s]) + list(trail.start.piles[s]) for s in range(2)]
        assert [cards[s][q] for _, (s, q) in origin.played] == list(state.discard)
        for seat in range(2):
            assert sorted(cards[seat][q] for q in origin.held[seat]) == list(state.hands[seat])
