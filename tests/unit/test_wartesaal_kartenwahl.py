"""The Kartenwahl as a game on the seam, and at a table: picks alternate, the side
card stays hidden until it is dealt, the deal is a legal start, and the clock runs
during the draft."""

from __future__ import annotations

import random

import pytest
from fechtbuch.engines.battleklinge.game import GAME
from fechtbuch.engines.battleklinge.kartenwahl import KARTENWAHL, Draft
from fechtbuch.engines.errors import InputError
from fechtbuch.wartesaal.table import RoomError
from support.wartesaal_helpers import FakeClock, make_room, members, open_table


@pytest.mark.parametrize("seed", range(40))
def test_draft_deals_a_legal_start(seed):
    rng = random.Random(seed)
    state = Draft.deal(f"seed-{seed}")
    first = state.picker
    open_cards = set(state.open)
    picked: list[list[int]] = [[], []]
    pickers = []
    while isinstance(state, Draft):
        text = KARTENWAHL.format_state(state)
        assert KARTENWAHL.parse_state(text) == state
        view = KARTENWAHL.information_state(state, KARTENWAHL.current_player(state))
        assert view.endswith("seite=?") and view.rsplit(" ", 1)[0] == text.rsplit(" ", 1)[0]
        assert not KARTENWAHL.is_terminal(state)
        action = rng.choice(KARTENWAHL.legal_actions(state))
        name = KARTENWAHL.format_action(state, action)
        assert KARTENWAHL.parse_action(state, name) == action
        pickers.append(KARTENWAHL.current_player(state))
        picked[KARTENWAHL.current_player(state)].append(action[1])
        state = KARTENWAHL.apply(state, action)
    assert pickers == [first, 1 - first, first, 1 - first]
    assert GAME.start_problem(state) is None
    assert sorted(state.hands[0]) == sorted(picked[0]) and sorted(state.hands[1]) == sorted(
        picked[1]
    )
    assert state.side in open_cards - set(picked[0]) - set(picked[1])
    assert KARTENWAHL.format_state(state) == GAME.format_state(state)


def test_draft_refuses_bad_text_and_picks():
    state = Draft.deal("x")
    closed = next(c for c in range(16) if c not in state.open)
    with pytest.raises(InputError):
        KARTENWAHL.apply(state, ("wahl", closed))
    for text, field in [
        ("kartenwahl offen=ausfall gold=- blau=- wahl=g seite=0", "offen"),
        (KARTENWAHL.format_state(state).replace("seite=", "seite=9"), "seite"),
        (KARTENWAHL.format_state(state).replace(" wahl=", " wahl=x"), "wahl"),
        ("kartenwahl nothing", "kartenwahl"),
    ]:
        with pytest.raises(InputError, match=f"^{field}:"):
            KARTENWAHL.parse_state(text)
    with pytest.raises(InputError, match="^pick:"):
        KARTENWAHL.parse_action(state, "ausfall:a1a2")


def test_the_clock_runs_during_the_kartenwahl(tmp_path):
    clock = FakeClock()
    room = make_room(tmp_path / "room.db", clock)
    anna, bert = members(room, "Anna", "Bert")
    who = {"Anna": anna, "Bert": bert}
    table_id = open_table(
        room, anna, [bert], game="battleklinge", variant="kartenwahl", clock_minutes=1
    )
    spectator = room.table_message(None, table_id)
    assert spectator["view"].startswith("kartenwahl ") and spectator["view"].endswith("seite=?")
    message = room.table_message(anna, table_id)
    picker = who[message["seats"][message["to_act"]]]
    legal = room.table_message(picker, table_id)["legal"]
    assert all(action.startswith("wahl:") for action in legal) and len(legal) == 8
    clock.advance(30)
    room.act(picker, table_id, 0, legal[0])
    second = room.table_message(anna, table_id)
    assert second["clocks"][message["to_act"]] == pytest.approx(30)
    slow = who[second["seats"][second["to_act"]]]
    clock.advance(61)
    with pytest.raises(RoomError, match="^table: the game ended first"):
        room.act(slow, table_id, 1, room.table_message(slow, table_id)["legal"][0])
    end = room.table_message(anna, table_id)
    assert end["reason"] == "time" and end["result"][second["to_act"]] == 0.0
    assert end["view"].startswith("kartenwahl ")  # lost during the draft
