"""A Wartesaal table played by keyboard (system Chromium through Playwright): one
person walks Battleklinge's board with the arrow keys and picks with Enter while the
other taps; every update of the table redraws the board, and the keyboard player's
focus stays on the square it was on, the opponent's move included.

Without Chromium the test skips, except under CI=true where it fails.
"""

from __future__ import annotations

import random

from support.wartesaal_page import Person, room_server
from support.webserver import chromium
from test_a11y_browser import ON, focused, play_battleklinge_by_keys
from test_wartesaal_browser import as_guest, mover_ready, open_table, tap_battleklinge

OPPONENT_MOVES = 3


def quiet_move(message: dict, rng: random.Random) -> dict:
    """A move that neither takes a master nor reaches a banner: the game goes on."""
    view = message["board"]["view"]
    masters = {p["square"] for p in view["pieces"] if p["master"]}
    ending = masters | set(view["banners"])
    return rng.choice([m for m in message["legal_views"] if m.get("to") not in ending])


def test_the_focus_stays_on_the_board_when_the_opponent_moves(tmp_path):
    with room_server(tmp_path) as (url, _room), chromium() as browser:
        kim, ole = Person(browser, url, "en"), Person(browser, url, "en")
        for person in (kim, ole):
            as_guest(person)
        seats = open_table(kim, [ole], "battleklinge", "einsteiger")
        rng = random.Random(7)
        own_moves, kept = 0, []
        while len(kept) < OPPONENT_MOVES:
            ready = mover_ready(seats)
            assert ready is not None, "the game ended before the opponent moved often enough"
            mover, message = ready
            if mover is kim:
                play_battleklinge_by_keys(kim.page, quiet_move(message, rng))
                kim.page.wait_for_function("v => Saal.table.version > v", arg=message["version"])
                # her own move's update redrew the board: the focus stayed on it
                assert kim.page.evaluate(ON, ".bk-board [role=gridcell]"), "focus lost (own move)"
                own_moves += 1
                continue
            if not own_moves:  # the opponent opens: her focus is not on the board yet
                tap_battleklinge(ole, quiet_move(message, rng))
                kim.page.wait_for_function("v => Saal.table.version > v", arg=message["version"])
                continue
            square = focused(kim.page, "square")
            tap_battleklinge(ole, quiet_move(message, rng))
            kim.page.wait_for_function("v => Saal.table.version > v", arg=message["version"])
            assert kim.page.evaluate(ON, ".bk-board [role=gridcell]"), (
                "the opponent's move redrew the board and the focus left it"
            )
            assert focused(kim.page, "square") == square
            kept.append(square)
        assert own_moves >= OPPONENT_MOVES - 1
        assert kim.errors == [] and ole.errors == []
