"""The analysis on the page of `fechtbuch serve` (system Chromium through Playwright):
the replay's "Wendepunkt" turns to the move where a saved Battleklinge game tipped;
the pyramids' "Auswertung" on the end screen marks a missed sure Touché with the key.

Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import json

import test_end_screen_browser
from fechtbuch.engines.paths import data_file
from fechtbuch.engines.registry import game as registered_game
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.notation import parse_view
from fechtbuch.web.battleklinge.webgame import deal
from support.webserver import menu_page
from test_pyramids_browser import play_by_hand

# the end screen's server, which keeps its tables (the pyramids' test sets one's board)
served = test_end_screen_browser.served

# a game of Mittel (Gold) against Leicht (Blau) from the Einsteiger cards dealt by the
# seed "s1": Blau's seventh move (riposte:e4e5) gives its game away
BK_SEED = "s1"
BK_MOVES = (
    "bindung:e5d4 riposte:a1b2 volte:d5e4 bindung:e1d2 ausfall:d4d2 volte:c1d2 riposte:e4e5"
    " stoss:b1c1 bindung:e5d4 riposte:b2c3 volte:d4c3 bindung:d2c3 stoss:b5b4 ausfall:c3c5"
).split()


def save_battleklinge_game(store) -> int:
    """The game above saved as the server saves a finished game against the computer."""
    game = registered_game("battleklinge")
    states = [deal("einsteiger", BK_SEED)]
    for text in BK_MOVES:
        states.append(game.apply(states[-1], game.parse_action(states[-1], text)))
    assert game.is_terminal(states[-1])
    record = {
        "start": game.format_state(states[0]),
        "moves": list(BK_MOVES),
        "before": list(range(len(BK_MOVES))),
        "states": [game.format_state(state) for state in states],
        "names": ["Gold", "Blau"],
        "people": [1],
        "result": list(game.returns(states[-1])),
        "helped": False,
    }
    return store.save_game("battleklinge", "computer", record)


def open_replay(page, slug: str, saved_id: int) -> None:
    page.click(f"#saved-{slug} summary")
    page.click(f"#saved-{slug} button.saved-game >> nth=-1")
    page.wait_for_function(
        "id => App.replay && App.replay.id === id && App.ply === 0", arg=saved_id
    )


def test_the_replays_turning_point_shows_where_the_game_tipped(served):
    url, server = served
    saved = save_battleklinge_game(server.store)
    with menu_page(url) as page:
        open_replay(page, "battleklinge", saved)
        assert page.inner_text("#replay-turning") == "Wendepunkt"
        page.click("#replay-next")
        page.click("#replay-turning")
        page.wait_for_function("App.replayAnalysis !== null", timeout=120_000)
        turning = page.evaluate("App.replayAnalysis.turning")
        # the game's own analysis names the move where Blau's game tipped
        assert turning["number"] == 7 and turning["move"] == "riposte:e4e5"
        # the replay stands before that move, its better move drawn as the green arrow
        assert page.evaluate("App.ply") == turning["number"] - 1
        assert page.inner_text("#facts") == f"Zug {turning['number'] - 1} von {len(BK_MOVES)}"
        page.wait_for_selector("#hint-arrow", state="attached")
        explanation = page.inner_text("#explanation")
        assert explanation.startswith("Wendepunkt: Zug 7 (riposte:e4e5??)")
        assert "vorher +0,5, nachher -0,9" in explanation and turning["better"] in explanation
        # stepping on leaves the turning point; the button turns back to it (no second search)
        page.click("#replay-next")
        assert page.evaluate("App.ply") == turning["number"]
        assert page.query_selector("#hint-arrow") is None
        page.click("#replay-turning")
        assert page.evaluate("App.ply") == turning["number"] - 1
        page.wait_for_selector("#hint-arrow", state="attached")


def test_the_pyramids_analysis_marks_a_missed_sure_touche_on_the_end_screen(served):
    url, server = served
    puzzles = json.loads(data_file("packs", "pyramiden-uebungen.json").read_text())["puzzles"]
    puzzle = next(p for p in puzzles if p["n"] == 2)
    with menu_page(url) as page:
        page.select_option("#touche-pyramiden-players", "2")
        page.click("#start-touche-pyramiden-computer")
        page.wait_for_function("App.msg && App.msg.type === 'table'")
        # the table's game goes on from the exercise's position (seat 0, the person, to act)
        table = server.opened[-1]
        table.states = [determinise(parse_view(puzzle["position"]))]
        table.played = []
        page.evaluate("tableCommand('flag')")  # the page asks for the table again
        page.wait_for_function("App.msg.moves.length === 0 && App.msg.to_act === 0")
        legal = page.evaluate("App.msg.legal")
        # the person misses the sure Touché: a field of the sheet with another card
        missed = next(
            a
            for a in legal
            if a["act"] == "place" and a["text"] != puzzle["key"] and a["card"] != "XX"
        )
        play_by_hand(page, missed)
        page.wait_for_function("App.msg.moves.length >= 1")
        page.click("#resign")
        page.wait_for_selector("#end:not([hidden])")
        assert page.is_visible("#analyse")
        page.click("#analyse")
        page.wait_for_function("App.analysis", timeout=120_000)
        first = page.evaluate("App.analysis.moves[0]")
        assert first["mark"] == "??" and first["better"] == puzzle["key"] and first["sure"] == 2
        item = page.inner_text("#moves li >> nth=0")
        assert "??" in item and f"({puzzle['key']})" in item.split("besser:")[1]
        assert page.inner_text("#status").startswith("Auswertung fertig")
