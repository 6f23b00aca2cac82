"""Notation of the Touché duel: exact round trips (hypothesis) and every error named."""

from __future__ import annotations

import pytest
from fechtbuch.engines.errors import InputError
from fechtbuch.engines.touche_duell import rules
from fechtbuch.engines.touche_duell.deal import new_round
from fechtbuch.engines.touche_duell.notation import (
    format_position,
    format_view,
    parse_action,
    parse_position,
    parse_view,
)
from fechtbuch.engines.touche_duell.state import (
    RULESETS,
    Action,
    Kind,
    NotationError,
    format_action,
    view_of,
)
from hypothesis import given, settings
from hypothesis import strategies as st


@st.composite
def positions(draw):
    rules_ = draw(st.sampled_from(RULESETS))
    pos = new_round(draw(st.text(max_size=8)), draw(st.integers(0, 1)), rules_)
    for _ in range(draw(st.integers(0, 80))):
        if pos.phase.over:
            break
        actions = rules.legal_actions(pos)
        pos = rules.apply(pos, actions[draw(st.integers(0, len(actions) - 1))])
    return pos


@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_round_trip(pos):
    text = format_position(pos)
    assert parse_position(text) == pos
    assert format_position(parse_position(text)) == text


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 1))
def test_view_round_trip(pos, viewer):
    view = view_of(pos, viewer)
    text = format_view(view)
    assert parse_view(text) == view and format_view(parse_view(text)) == text
    assert sum(view.unseen()) == view.other_size + view.pile_size


actions = st.one_of(
    st.builds(lambda s, f: Action(Kind.MOVE, s * f), st.integers(1, 5), st.sampled_from((1, -1))),
    st.builds(lambda v, k: Action(Kind.ATTACK, 0, v, k), st.integers(1, 5), st.integers(1, 5)),
    st.builds(
        lambda s, v, k: Action(Kind.LUNGE, s, v, k),
        st.integers(1, 5),
        st.integers(1, 5),
        st.integers(1, 5),
    ),
    st.just(Action(Kind.PARRY)),
    st.just(Action(Kind.PASS)),
    st.builds(lambda s: Action(Kind.RETREAT, s), st.integers(1, 5)),
)


@given(actions)
def test_action_round_trip(action):
    assert parse_action(format_action(action)) == action


@given(st.text(max_size=12))
def test_any_text_is_an_action_or_an_input_error(text):
    try:
        action = parse_action(text)
    except InputError as err:
        assert str(err).startswith("action:")
    else:
        assert format_action(action) == text


GOOD = "standard 1-23 0:0 A zug 23355/11234 00000 341252544251314"
GOOD_VIEW = "standard 1-23 0:0 A zug 23355/?5 00000 ?15"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("standard 1-23 0:0 A zug", "position:"),
        ("standard  1-23 0:0 A zug 23355/11234 00000 341252544251314", "position:"),
        ("profi 1-23 0:0 A zug 23355/11234 00000 341252544251314", "ruleset:"),
        ("standard-lang 1-23 0:0 A zug 23355/11234 00000 341252544251314", "ruleset:"),
        ("standard 1_23 0:0 A zug 23355/11234 00000 341252544251314", "squares:"),
        ("standard 12-3 0:0 A zug 23355/11234 00000 341252544251314", "squares:"),
        ("standard 0-23 0:0 A zug 23355/11234 00000 341252544251314", "squares:"),
        ("standard 1-24 0:0 A zug 23355/11234 00000 341252544251314", "squares:"),
        ("standard 1-23 0-0 A zug 23355/11234 00000 341252544251314", "score:"),
        ("standard-kurz 1-23 4:0 A zug 23355/11234 00000 341252544251314", "score:"),
        ("standard 1-23 5:0 A zug 23355/11234 00000 341252544251314", "score:"),
        ("standard 1-23 0:0 C zug 23355/11234 00000 341252544251314", "mover:"),
        ("standard 1-23 0:0 A ruhe 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A zug:3x1 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A Zug 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A parade 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A parade:3x1 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A treffer 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A treffer:- 23355/11234 00000 341252544251314", "phase:"),
        ("kinder 10-13 0:0 A parade:3x1 23355/11234 00000 341252544251314", "phase:"),
        ("standard 10-13 0:0 A ausweichen:3x1 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A letzter 23355/11234 00000 341252544251314", "phase:"),
        ("standard 1-23 0:0 A zug 2335511234 00000 341252544251314", "hands:"),
        ("standard 1-23 0:0 A zug 32355/11234 00000 341252544251314", "hand A:"),
        ("standard 1-23 0:0 A zug 23355/11x34 00000 341252544251314", "hand B:"),
        ("standard 1-23 0:0 A zug 233551/1234 00000 341252544251314", "hand A:"),
        ("standard 1-23 0:0 A zug 23355/11234 0000 341252544251314", "discard:"),
        ("standard 1-23 0:0 A zug 23355/11234 00600 341252544251314", "discard:"),
        ("standard 1-23 0:0 A zug 23355/11234 00000 34125254425131x", "pile:"),
        ("standard 1-23 0:0 A zug 23355/11234 00000 34125254425131", "cards:"),
        ("standard 1-23 0:0 A zug 23355/11234 33243 -", "pile:"),
        ("standard 1-23 0:0 A zug 23355/?5 00000 ?15", "position:"),
        ("standard 1-2 0:0 A zug 33445/11225 00023 1112223334", "phase:"),
    ],
)
def test_position_errors_name_the_field(text, field):
    with pytest.raises(NotationError) as err:
        parse_position(text)
    assert str(err.value).startswith(field), str(err.value)
    assert len(str(err.value)) < 400


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("standard 1-23 0:0 A zug 23355/11234 00000 341252544251314", "hands:"),
        ("standard 1-23 0:0 A zug ?5/?5 00000 ?15", "hands:"),
        ("standard 1-23 0:0 A zug 23355/?6 00000 ?15", "hand B:"),
        ("standard 1-23 0:0 A zug 23355/5 00000 ?15", "hands:"),
        ("standard 1-23 0:0 A zug 233555/?5 00000 ?15", "hand A:"),
        ("standard 1-23 0:0 A zug 23355/?5 00000 15", "pile:"),
        ("standard 1-23 0:0 A zug 23355/?5 00000 ?16", "pile:"),
        ("standard 1-23 0:0 A zug 23355/?5 00000 ?14", "cards:"),
        ("standard 1-23 0:0 A zug 23355/?5 00005 ?11", "cards:"),
        ("standard 1-23 0:0 A zug 23355/?5 00000 ?0", "cards:"),
        ("standard 1-23 0:0 A zug 23355/", "view:"),
    ],
)
def test_view_errors_name_the_field(text, field):
    with pytest.raises(NotationError) as err:
        parse_view(text)
    assert str(err.value).startswith(field), str(err.value)


def test_good_texts_parse():
    assert format_position(parse_position(GOOD)) == GOOD
    assert format_view(parse_view(GOOD_VIEW)) == GOOD_VIEW
    assert parse_view("standard 1-23 0:0 A zug ?5/11234 00000 ?15").viewer == 1


@pytest.mark.parametrize(
    "text",
    ["", "m+0", "m+6", "m3", "a3", "a3x0", "a6x1", "l4a2", "P", "r0", "r", "--", " p", "a3x1 "],
)
def test_action_errors_name_the_field(text):
    with pytest.raises(NotationError, match="^action:"):
        parse_action(text)
