"""Position and move notation: round trips and every listed parse error."""

from __future__ import annotations

import random

import pytest
from fechtbuch.engines.battleklinge.cards import CARD_SETS, CardError, card_from_id, parse_card_list
from fechtbuch.engines.battleklinge.position import (
    START_EINSTEIGER,
    Move,
    NotationError,
    Position,
    square_name,
)
from fechtbuch.engines.battleklinge.sampling import random_placement
from hypothesis import given, settings
from hypothesis import strategies as st


@given(st.integers(min_value=0, max_value=2**32))
@settings(max_examples=300, deadline=None)
def test_parse_format_parse_round_trip(seed):
    pos = random_placement(random.Random(seed))
    text = pos.to_text()
    again = Position.from_text(text)
    assert again == pos
    assert again.to_text() == text


@given(st.integers(min_value=0, max_value=2**32))
@settings(max_examples=100, deadline=None)
def test_mirror_is_an_involution(seed):
    pos = random_placement(random.Random(seed))
    assert pos.mirror().mirror() == pos


def test_input_is_lenient_output_canonical():
    pos = Position.from_text(" ssmss/5/5/5/SSMSS g VOLTE,Ausfall stoß,bindung riposte ")
    assert pos.to_text() == START_EINSTEIGER.replace("bindung,stoss", "stoss,bindung")
    assert pos.to_text() == "ssmss/5/5/5/SSMSS g ausfall,volte stoss,bindung riposte"


def test_start_position_uses_side_card_mark():
    einsteiger = Position.from_text(START_EINSTEIGER)
    assert einsteiger.turn == 0 and einsteiger.winner() is None
    blau_starts = Position.start((0, 3), (4, 6), 5)  # volte is marked b
    assert blau_starts.turn == 1


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss", "expected 5 fields"),
        ("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte x", "expected 5 fields"),
        ("ssmss/5/5/5 g ausfall,volte bindung,stoss riposte", "expected 5 ranks"),
        (
            "ssmss/5/5/5/SSMS g ausfall,volte bindung,stoss riposte",
            "rank 1 'SSMS' is not 5 squares",
        ),
        ("ssmss/6/5/5/SSMSS g ausfall,volte bindung,stoss riposte", "unknown piece '6'"),
        ("ssmsss/5/5/5/SSMSS g ausfall,volte bindung,stoss riposte", "rank 5 'ssmsss'"),
        ("ssmss/4/5/5/SSMSS g ausfall,volte bindung,stoss riposte", "rank 4 '4'"),
        ("ssmss/5/2K2/5/SSMSS g ausfall,volte bindung,stoss riposte", "unknown piece 'K'"),
        (
            "ssmss/5/5/5/SSMSS g ausfall,florett bindung,stoss riposte",
            "gold hand: unknown card 'florett'",
        ),
        (
            "ssmss/5/5/5/SSMSS g ausfall,volte bindung,sabre riposte",
            "blau hand: unknown card 'sabre'",
        ),
        ("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss degen", "side: unknown card 'degen'"),
        ("ssmss/5/5/5/SSMSS g ausfall bindung,stoss riposte", "gold hand: expected two card ids"),
        ("ssmss/5/5/5/SSMSS g ausfall,volte bindung,stoss volte", "'volte' used twice"),
        ("ssmss/5/5/5/SSMSS g ausfall,volte ausfall,stoss riposte", "'ausfall' used twice"),
        ("ssmss/5/5/S4/SSMSS g ausfall,volte bindung,stoss riposte", "more than five Gold pieces"),
        ("ssmss/5/5/M4/SSMSS g ausfall,volte bindung,stoss riposte", "more than one Gold master"),
        ("ssmss/m4/5/5/SSMSS g ausfall,volte bindung,stoss riposte", "more than one Blau master"),
        ("sssss/5/5/5/SSSSS g ausfall,volte bindung,stoss riposte", "both masters missing"),
        (
            "ssMss/5/5/5/SSmSS g ausfall,volte bindung,stoss riposte",
            "both masters on the enemy banner",
        ),
        (
            "ssmss/5/5/5/SSMSS x ausfall,volte bindung,stoss riposte",
            "turn: expected 'g' or 'b', got 'x'",
        ),
        (
            "ssmss/5/5/5/SSMSS G ausfall,volte bindung,stoss riposte",
            "turn: expected 'g' or 'b', got 'G'",
        ),
    ],
)
def test_parse_errors_name_the_field_and_quote_the_text(text, fragment):
    with pytest.raises(NotationError) as info:
        Position.from_text(text)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text, winner",
    [
        ("ss1ss/5/5/5/SSMSS b ausfall,volte bindung,stoss riposte", 0),  # Blau master captured
        ("ssMss/5/5/5/SS1SS b ausfall,volte bindung,stoss riposte", 0),  # Gold master on c5
        ("ssmss/5/5/5/SS1SS g ausfall,volte bindung,stoss riposte", 1),  # Gold master captured
        ("ss1ss/5/5/M4/SSmSS g ausfall,volte bindung,stoss riposte", 1),  # Blau master on c1
    ],
)
def test_decided_positions_parse_and_name_the_winner(text, winner):
    assert Position.from_text(text).winner() == winner


@pytest.mark.parametrize("text", ["ausfall:c1c3", "volte:pass", "stoss:e5a1", "inquartata:b2b3"])
def test_move_round_trip(text):
    assert Move.from_text(text).to_text() == text


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("c1c3", "expected '<card>:<from><to>'"),
        ("florett:c1c3", "unknown card 'florett'"),
        ("ausfall:c1c", "expected '<from><to>'"),
        ("ausfall:c1f3", "bad square in 'ausfall:c1f3'"),
        ("ausfall:c0c3", "bad square"),
    ],
)
def test_move_parse_errors(text, fragment):
    with pytest.raises(NotationError) as info:
        Move.from_text(text)
    assert fragment in str(info.value)


def test_card_ids_and_sets():
    assert card_from_id("Stoß") == card_from_id("STOSS")
    assert parse_card_list("Einsteiger") == CARD_SETS["einsteiger"]
    with pytest.raises(CardError, match="five distinct"):
        parse_card_list("ausfall,volte")
    with pytest.raises(CardError, match="unknown card 'x'"):
        parse_card_list("ausfall,volte,stoss,bindung,x")


def test_square_names():
    assert [square_name(s) for s in (0, 4, 12, 20, 24)] == ["a1", "e1", "c3", "a5", "e5"]
