"""Computer players: legal choices from the view alone; stark never misses a completion
it holds nor a block it can make (property over random states of every player count)."""

from __future__ import annotations

import pytest
from fechtbuch.engines.touche_pyramiden import notation, rules
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.evaluate import threats
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.players import ComputerPlayer, blocking, completing
from fechtbuch.engines.touche_pyramiden.sampling import random_states
from fechtbuch.engines.touche_pyramiden.shuffle import HashStream
from fechtbuch.engines.touche_pyramiden.state import Config, Kind, Phase
from hypothesis import given, settings
from hypothesis import strategies as st

STATES = [s for p in (2, 3, 4, 6) for s in random_states(p, 150, "players")]
PLAY_STATES = [s for s in STATES if s.phase is Phase.PLAY]
STARK = ComputerPlayer("stark", seed="test")


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(STATES), st.sampled_from(["leicht", "mittel", "stark"]))
def test_every_strength_chooses_a_legal_action(state, strength):
    choice = ComputerPlayer(strength, seed="t").choose(notation.view_of(state, state.to_move))
    assert choice.action in rules.legal_actions(state)


def _stark_property(state) -> None:
    actions = rules.legal_actions(state)
    choice = STARK.choose(notation.view_of(state, state.to_move)).action
    done = completing(state, actions)
    if done:
        assert choice in done, notation.format_state(state)
        return
    blocks, _ = blocking(state, actions)
    if blocks:
        assert choice in blocks, notation.format_state(state)
        team = state.config.team_of(state.to_move)
        open_threats = [
            m
            for t in range(state.config.teams)
            if t != team
            for m in threats(state.pattern, state.own, state.crowned, t)
        ]
        assert any(m >> choice.field & 1 for m in open_threats)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLAY_STATES))
def test_stark_never_misses_a_completion_or_a_block(state):
    _stark_property(state)


def test_stark_property_on_threat_positions():
    """States picked for having a completion or a block on offer, every player count."""
    seen_complete = seen_block = 0
    for players in (2, 3, 4, 5, 6):
        for state in random_states(players, 400, "threats"):
            if state.phase is not Phase.PLAY:
                continue
            actions = rules.legal_actions(state)
            if completing(state, actions):
                seen_complete += 1
            elif blocking(state, actions)[0]:
                seen_block += 1
            else:
                continue
            _stark_property(state)
    assert seen_complete >= 20 and seen_block >= 20


def test_block_with_a_card_and_with_a_joker():
    hand_b = ["AS", "AS", "JD", "QD", "KD"]
    # team 2 (seat 1) holds a2 b2 c2 d2: e2 (5C) completes; seat 0 holds 5C
    state = rules.compose(
        Config(2, 2),
        Pattern.LINIE,
        [["5C", "7H", "8S", "9S", "TS"], hand_b],
        {1: ["a2", "b2", "c2", "d2"]},
    )
    assert notation.format_action(STARK.choose(notation.view_of(state, 0)).action) == "5C:e2"
    # with the line ending on free field a1, only a joker removal blocks
    state = rules.compose(
        Config(2, 2),
        Pattern.LINIE,
        [["XX", "7H", "8S", "9S", "TS"], hand_b],
        {1: ["a2", "a3", "a4", "a5"]},
    )
    action = STARK.choose(notation.view_of(state, 0)).action
    assert action.kind in (Kind.JOKER_REMOVE, Kind.JOKER_REPLACE)
    assert notation.format_action(action)[4:] in ("a2", "a3", "a4", "a5")


def test_choice_depends_only_on_the_view():
    rng = HashStream("views")
    for state in PLAY_STATES[:40:4]:
        view = notation.view_of(state, state.to_move)
        other = determinise(view, rng)  # other hands and piles dealt differently
        assert notation.view_of(other, state.to_move) == view
        for strength in ("mittel", "stark"):
            player = ComputerPlayer(strength, seed="same")
            assert (
                player.choose(view).action
                == player.choose(notation.view_of(other, other.to_move)).action
            )


@pytest.mark.parametrize("players", [2, 4])
def test_a_short_match_runs(players):
    from fechtbuch.engines.touche_pyramiden.match import run_match

    result, games = run_match("mittel", "leicht", players, 2, "short")
    assert result.games == len(games) == 2
    assert result.wins + result.losses + result.others == 2


def test_a_match_on_two_workers_plays_the_same_games():
    """-j 2 plays every game in a worker process; the totals are those of one process
    (and those of the match code before it ran in workers: stark-mittel, 4 players,
    6 games, seed 't' gave 4 wins, 2 losses and 11:7 points)."""
    from fechtbuch.engines.touche_pyramiden.match import run_match

    one, _ = run_match("stark", "mittel", 4, 6, "t")
    two, _ = run_match("stark", "mittel", 4, 6, "t", jobs=2)
    totals = [(r.wins, r.losses, r.others, r.points) for r in (one, two)]
    assert totals == [(4, 2, 0, (11, 7))] * 2


def test_points_per_game_take_the_deal_as_the_unit():
    from fechtbuch.engines.touche_pyramiden.match import SlotResult, points_per_game

    # A scores 2 in both games of every even deal and 1 in every odd one, B always 1
    games = [SlotResult(i, "win", 2 if i % 4 < 2 else 1, 1, (0.0, 0.0), (1, 1)) for i in range(40)]
    per = points_per_game(games)
    assert per["b"] == [1.0, 0.0]
    assert per["a"] == [1.5, round(1.96 * (0.25 * 20 / 19 / 20) ** 0.5, 3)]
    assert points_per_game(games[:39]) is None  # 19 complete deals: too few
