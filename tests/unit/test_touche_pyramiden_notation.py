"""Notation of states, views and actions: exact round trips and errors naming the field."""

from __future__ import annotations

import pytest
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_pyramiden import GAME, notation, rules
from fechtbuch.engines.touche_pyramiden.board import card_text, parse_card
from fechtbuch.engines.touche_pyramiden.patterns import Pattern
from fechtbuch.engines.touche_pyramiden.sampling import random_states
from fechtbuch.engines.touche_pyramiden.state import Config
from hypothesis import given, settings
from hypothesis import strategies as st

STATES = [s for p in range(2, 7) for s in random_states(p, 120, "notation")]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(STATES), st.integers(0, 5))
def test_state_and_view_round_trip(state, seat):
    text = notation.format_state(state)
    assert notation.parse_state(text) == state
    assert notation.format_state(notation.parse_state(text)) == text
    seat %= state.config.players
    view = notation.view_of(state, seat)
    line = notation.format_view(view)
    assert notation.parse_view(line) == view
    assert notation.format_view(notation.parse_view(line)) == line
    assert GAME.information_state(state, seat) == line
    others = [s for s in range(state.config.players) if s != seat]
    for s in others:  # nothing of another hand leaks into the view
        assert f"#{len(state.hands[s])}" in line.split(" hand=")[1].split(" ")[0].split("/")[s]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(STATES), st.integers(0, 10_000))
def test_actions_round_trip(state, pick):
    actions = rules.legal_actions(state)
    action = actions[pick % len(actions)]
    text = notation.format_action(action)
    assert notation.parse_action(text) == action
    assert GAME.parse_action(state, GAME.format_action(state, action)) == action


@given(st.integers(0, 52))
def test_cards_round_trip(kind):
    assert parse_card(card_text(kind)) == kind


def test_example_from_the_docs():
    state = rules.new_game(Config(2, 2, 3, Pattern.LINIE), "demo")
    text = notation.format_state(state)
    assert text.startswith(
        "pyramiden-1 spieler=2 teams=2 runden=3 vorgabe=linie runde=1 muster=linie zug=0 start=0 "
        "punkte=0,0 pass=0 brett=............../"
    )
    assert " hand=KS,4D,9D,8C,XX/2H,3H,QH,AD,6C stapel=JC,4H," in text
    assert notation.format_view(notation.view_of(state, 1)).endswith(
        "hand=#5/2H,3H,QH,AD,6C stapel=#49/#49 ablage=- beiseite=#0 seed=?"
    )


GOOD = notation.format_state(rules.new_game(Config(2, 2, 3, Pattern.LINIE), "demo"))


def _swap(text: str, key: str, value: str) -> str:
    parts = text.split(" ")
    return " ".join(f"{key}={value}" if p.startswith(key + "=") else p for p in parts)


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("spieler", "7", "spieler"),
        ("teams", "3", "teams"),
        ("runden", "5", "runden"),
        ("vorgabe", "stern", "vorgabe"),
        ("muster", "kvadrat", "muster"),
        ("zug", "2", "zug"),
        ("start", "x", "start"),
        ("punkte", "0", "punkte"),
        ("pass", "9", "pass"),
        ("brett", "...", "brett"),
        ("brett", "1" + "." * 13 + "/" + "/".join(["." * 14] * 7), "brett: field a8"),
        ("brett", "/".join(["." * 14] * 7) + "/.....z........", "brett: field f1"),
        ("hand", "KS,4D,9D,8C,XX", "hand"),
        ("hand", "KS,4D,9D,8C,ZZ/2H,3H,QH,AD,6C", "hand: seat 0"),
        ("hand", "KS,4D,9D,8C,XX,XX/2H,3H,QH,AD,6C", "hand: seat 0"),
        ("ablage", "7H", "hand"),  # one card too many in the whole
        ("beiseite", "7H,1Z", "beiseite"),
        ("seed", "a b", "state"),
        ("seed", "ä", "seed"),
    ],
)
def test_state_errors_name_the_field(key, value, named):
    with pytest.raises(InputError) as err:
        notation.parse_state(_swap(GOOD, key, value))
    assert str(err.value).startswith(named), str(err.value)
    assert len(str(err.value)) < 400


def test_state_errors_for_shape():
    for bad in ["", "pyramiden-2", GOOD + " extra", GOOD.replace("zug=", "zog=")]:
        with pytest.raises(InputError):
            notation.parse_state(bad)


def test_completed_pattern_on_the_board_is_refused():
    board = "/".join(["." * 14] * 6 + ["11111........."] + ["." * 14])
    with pytest.raises(InputError, match="brett: team 1 already completed linie"):
        notation.parse_state(_swap(GOOD, "brett", board))


def test_view_errors_name_the_field():
    view = notation.format_view(notation.view_of(rules.new_game(Config(2, 2), "v"), 0))
    for key, value, named in [
        ("hand", "KS,4D,9D,8C,XX/2H", "hand: seat 1"),
        ("stapel", "49/#49", "stapel: seat 0"),
        ("seed", "v", "seed"),
        ("sicht", "2", "sicht"),
        ("beiseite", "#9", "beiseite"),
    ]:
        with pytest.raises(InputError) as err:
            notation.parse_view(_swap(view, key, value))
        assert str(err.value).startswith(named), str(err.value)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("7H", "action"),
        ("7H:z9", "action: field"),
        ("7Z:c3", "action: card"),
        ("7H:-c3", "action: only a joker"),
        ("XX:-a1", "action: no pyramid"),
        ("tausch:", "action: tausch"),
        ("tausch:XX", "action: tausch"),
        ("muster:stern", "action: muster"),
        ("7H:c3@c3d", "action: crown"),
        ("7H:c3@d3e3", "action: crown"),
    ],
)
def test_action_errors_name_the_field(text, named):
    with pytest.raises(InputError) as err:
        notation.parse_action(text)
    assert str(err.value).startswith(named), str(err.value)


def test_illegal_action_is_an_input_error():
    state = rules.new_game(Config(2, 2, 3, Pattern.LINIE), "demo")
    with pytest.raises(InputError, match="action: '7H:g6' is not legal"):
        GAME.apply(state, notation.parse_action("7H:g6"))


def test_game_seam_conformance():
    """The seam's contract on a whole seeded game: notation, determinism, terminal returns."""
    state = rules.new_game(Config(3, 3, 3, None), "seam")
    assert GAME.info.name == "touche-pyramiden" and GAME.info.hidden_information
    steps = 0
    while not GAME.is_terminal(state):
        assert GAME.parse_state(GAME.format_state(state)) == state
        assert GAME.num_players(state) == 3 and 0 <= GAME.current_player(state) < 3
        actions = GAME.legal_actions(state)
        assert actions and len(set(actions)) == len(actions)
        action = actions[(steps * 7919) % len(actions)]
        after = GAME.apply(state, action)
        assert GAME.apply(state, action) == after and GAME.state_key(after) == after
        state = after
        steps += 1
    values = GAME.returns(state)
    assert GAME.legal_actions(state) == [] and len(values) == 3
    assert abs(sum(values) - 1.0) < 1e-9  # one winner, or k winners with 1/k each
