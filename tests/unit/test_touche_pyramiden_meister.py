"""The pyramids' meister: its play-out policy and field table agree with the rules and the
evaluation, and the player decides from its view alone, reproducibly, within its budget,
for 2, 4 and 6 players and team games."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from fechtbuch.engines.touche_pyramiden import meister, notation, rules
from fechtbuch.engines.touche_pyramiden.board import CARD_MASK
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.evaluate import team_value, threats
from fechtbuch.engines.touche_pyramiden.fieldtable import SCALE, table
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.players import (
    ComputerPlayer,
    blocking,
    completing,
    score_action,
)
from fechtbuch.engines.touche_pyramiden.sampling import played_states, random_action
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Config, Kind, Phase
from fechtbuch.solver.touche_pyramiden.players import PLAYERS, ProvedTouche

SPLITS = [(2, 2), (4, 4), (4, 2), (6, 6), (6, 3), (6, 2)]
"""Every player count the brief names, alone and in teams."""


def _states(players: int, teams: int, count: int, label: str):
    """About ``count`` PLAY states, spread over seeded random games of ``players`` in
    ``teams`` teams (sampling.random_states draws the team split per game)."""
    rng = HashStream(f"meister/{label}/{players}x{teams}")
    found = []
    game = 0
    while len(found) < 4 * count:
        state = rules.new_game(Config(players, teams), f"{label}-{players}x{teams}-{game}")
        game += 1
        while state.phase is not Phase.OVER:
            if state.phase is Phase.PLAY:
                found.append(state)
            state = rules.apply_unchecked(
                state, random_action(state, rules.legal_actions(state), rng)
            )
    return found[::4][:count]


STATES = {split: _states(*split, 24, "states") for split in SPLITS}


def test_the_field_table_is_the_evaluation_of_every_field():
    """Per team: the open one-field-away placements are evaluate.threats, the values
    evaluate.team_value, and a card's field score evaluate's greedy score (x 100)."""
    placed = 0
    for split in SPLITS:
        for state in STATES[split]:
            tab = table(state.pattern, state.own, state.crowned)
            for team in range(state.config.teams):
                want = sorted(
                    (m & ~state.own[team]).bit_length() - 1
                    for m in threats(state.pattern, state.own, state.crowned, team)
                )
                assert sorted(tab.one_away(team).tolist()) == want
                value = team_value(state.pattern, state.own, state.crowned, team)
                assert tab.team_values()[team] == pytest.approx(value * SCALE, abs=1e-6)
            team = state.config.team_of(state.to_move)
            scores = tab.field_scores(team)
            for action in rules.legal_actions(state):
                if action.kind is not Kind.PLACE:
                    continue
                twin = CARD_MASK[action.card] & ~state.occupied & ~(1 << action.field) == 0
                want = score_action(state, action, 0.0) - (1.0 if twin else 0.0)
                assert scores[action.field] == pytest.approx(want * SCALE, abs=1e-6)
                placed += 1
    assert placed > 1000


def test_the_play_out_policy_plays_legal_actions_completes_and_blocks():
    seen = Counter()
    for players in (2, 3, 4, 5, 6):
        rng = HashStream(f"policy/{players}")
        for state in played_states(
            players, 400, rng, lambda g, p=players: f"policy-{p}-{g}", random_action
        ):
            if state.phase is not Phase.PLAY:
                continue
            actions = rules.legal_actions(state)
            action = meister.policy(state)
            assert action in actions, notation.format_state(state)
            if completing(state, actions):
                assert action in completing(state, actions), notation.format_state(state)
                seen[action.kind] += 1
            elif action.kind is Kind.PLACE and blocking(state, [action])[0]:
                seen["block"] += 1
    # most rounds end by a joker, also one that lifts another team's pyramid
    assert seen[Kind.PLACE] >= 15 and seen[Kind.JOKER_REPLACE] >= 3 and seen["block"] >= 20


@pytest.mark.parametrize("split", SPLITS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_meister_plays_only_legal_actions(split):
    player = ComputerPlayer("meister", seed="legal", rollouts=8)
    for state in STATES[split]:
        choice = player.choose(notation.view_of(state, state.to_move))
        assert choice.action in rules.legal_actions(state), notation.format_state(state)
        if choice.reason == "search":  # the first world is played whatever the budget
            assert player.stats.rollouts <= max(8, meister.CANDIDATES)


@pytest.mark.slow
@pytest.mark.parametrize("split", SPLITS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_meister_plays_only_legal_actions_in_many_states(split):
    player = ComputerPlayer("meister", seed="many", rollouts=24)
    for state in _states(*split, 300, "many"):
        choice = player.choose(notation.view_of(state, state.to_move))
        assert choice.action in rules.legal_actions(state), notation.format_state(state)


@pytest.mark.parametrize("split", SPLITS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_meister_decides_from_the_view_alone(split):
    """Two states that differ only in what the seat cannot see (the other hands and
    every pile dealt otherwise) get the same action."""
    rng = HashStream(f"view/{split}")
    for state in STATES[split][::8]:
        view = notation.view_of(state, state.to_move)
        twin = determinise(view, rng)
        assert twin.hands != state.hands or twin.piles != state.piles
        assert notation.view_of(twin, twin.to_move) == view
        one = ComputerPlayer("meister", seed="view", rollouts=16).choose(view).action
        other = ComputerPlayer("meister", seed="view", rollouts=16)
        assert other.choose(notation.view_of(twin, twin.to_move)).action == one


def test_the_same_seed_gives_the_same_action_and_search():
    for split in ((2, 2), (4, 2), (6, 3)):
        for state in STATES[split][::8]:
            view = notation.view_of(state, state.to_move)
            runs = []
            for _ in range(2):
                player = ComputerPlayer("meister", seed="same", rollouts=20)
                runs.append((player.choose(view).action, player.stats))
            assert runs[0][0] == runs[1][0]
            if runs[0][1] is not None:
                assert runs[0][1] == runs[1][1]  # the same worlds, play-outs and means


def test_thinking_time_is_respected_loosely():
    """With movetime the search stops on the clock, not on its play-out budget: more
    time, more worlds; and it returns within the time plus a world's play-outs."""
    state = next(s for s in STATES[(2, 2)] if len(rules.legal_actions(s)) > 8)
    view = notation.view_of(state, state.to_move)
    worlds = []
    for movetime in (0.05, 0.4):
        player = ComputerPlayer("meister", seed="time", movetime=movetime)
        began = time.perf_counter()
        choice = player.choose(view)
        assert time.perf_counter() - began < movetime + 1.0
        assert choice.action in rules.legal_actions(state) and choice.reason == "search"
        worlds.append(player.stats.worlds)
    assert 1 <= worlds[0] < worlds[1]


def test_search_keeps_starks_choice_unless_another_is_clearly_better():
    state = next(s for s in STATES[(2, 2)] if len(rules.legal_actions(s)) > 8)
    view = notation.view_of(state, state.to_move)
    pool = rules.legal_actions(state)[:4]
    flat = meister.search(view, pool, HashStream("s"), 80, score=lambda w, a, s: 0.0)
    assert flat == pool[0]
    better = meister.search(
        view, pool, HashStream("s"), 80, score=lambda w, a, s: 0.5 if a == pool[2] else 0.0
    )
    assert better == pool[2]
    # better in two worlds of many, worse in one: within a standard error, so stark's
    # choice stays
    calls = {"n": 0}

    def lucky(world, action, seat):
        if action != pool[2]:
            return 0.0
        calls["n"] += 1
        return {1: 1.0, 2: 1.0, 3: -1.0}.get(calls["n"], 0.0)

    assert meister.search(view, pool, HashStream("s"), 80, score=lucky) == pool[0]


def _composed_square_in_two():
    """Blau (seat 0 of three) has c3 and d3 of a square and two jokers, the other two
    jokers on the discard pile: keeping a joker and making three of the square is a
    sure Touché in 2 (tests/unit/test_touche_pyramiden_analysis.py)."""
    hands = [
        ["XX", "XX", "2S", "3D", "5C"],
        ["6S", "7S", "8S", "9S", "TS"],
        ["2H", "3H", "5H", "6H", "7H"],
    ]
    pyramids = {0: ["c3", "d3"], 1: ["a7", "b7"], 2: ["h8"]}
    return rules.compose(Config(3, 3), Pattern.KVADRAT, hands, pyramids, pile_sizes=[20, 20, 20])


def test_meister_takes_a_completion_and_a_proved_touche_in_two():
    hands = [["5C", "7H", "8S", "9S", "TS"], ["AS", "AS", "JD", "QD", "KD"]]
    state = rules.compose(Config(2, 2), Pattern.LINIE, hands, {0: ["a2", "b2", "c2", "d2"]})
    choice = ComputerPlayer("meister", seed="t", rollouts=12).choose(notation.view_of(state, 0))
    assert notation.format_action(choice.action) == "5C:e2" and choice.reason == "complete"
    view = notation.view_of(_composed_square_in_two(), 0)
    key = ProvedTouche().sure_action(view)
    assert notation.format_action(key) == "3D:c4"
    choice = PLAYERS.make("meister", "t", rollouts=12).choose(view)
    assert choice.action == key and choice.reason == "sure"
    # the engine's meister has no oracle and searches
    assert ComputerPlayer("meister", seed="t", rollouts=12).choose(view).reason == "search"


def test_the_factory_passes_the_budget_to_meister_only():
    assert PLAYERS.make("meister", "b", movetime=0.3).movetime == 0.3
    assert PLAYERS.make("meister", "b", rollouts=7).rollouts == 7
    assert PLAYERS.make("stark", "b", rollouts=7).oracle is None
    assert "meister" in PLAYERS.strengths and PLAYERS.strengths[-1] == "meister"


def test_the_play_page_offers_meister_and_its_seat_plays():
    from fechtbuch.web.touche_pyramiden.webgame import WEB

    assert WEB.setup(PLAYERS)["strength"]["choices"] == ["leicht", "mittel", "stark", "meister"]
    state = STATES[(4, 2)][5]
    assert WEB.computer(PLAYERS, "meister", 7)(state, []) in rules.legal_actions(state)
