"""The analysis on the page of `fechtbuch serve` (system Chromium through Playwright):
the replay's "Wendepunkt" turns to the move where a saved Battleklinge game tipped;
the pyramids' "Auswertung" on the end screen marks a missed sure Touché with the key;
in both Touché games a sure win missed by hand is the turning point, shown after the
game ("Wendepunkt zeigen") and in the replay of the saved game ("Wendepunkt"): the
table before the decision with the better action's cards, squares and fields lit and
the decision in words.

Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import json

import test_end_screen_browser
from fechtbuch.engines.paths import data_file
from fechtbuch.engines.registry import game as registered_game
from fechtbuch.engines.touche_duell.deal import HashStream
from fechtbuch.engines.touche_duell.notation import parse_view as parse_duel_view
from fechtbuch.engines.touche_duell.players import determinise as deal_duel_view
from fechtbuch.engines.touche_pyramiden.determinise import determinise
from fechtbuch.engines.touche_pyramiden.notation import parse_view
from fechtbuch.web.battleklinge.webgame import deal
from support.touche_duel_page import play_action
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


DUEL = "standard 12-15 0:0 A zug 12333/?5 11042 ?7"
"""An exercise of touche-uebungen: A at 12, B at 15, A holds 1 2 3 3 3; only an attack
with all three threes hits for sure."""


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


def save_missed(store, slug: str, first, miss: str) -> int:
    """A game of one decision, ``miss`` played in the full state ``first`` (a missed
    sure win), saved as the server saves a finished game against the computer."""
    from fechtbuch.web.server import web_games

    entry = web_games()[slug]
    game = entry.game
    after = game.apply(first, game.parse_action(first, miss))
    record = {
        "start": game.format_state(first),
        "moves": [miss],
        "before": [0],
        "states": [game.format_state(first), game.format_state(after)],
        "names": list(entry.web.seat_names(after)),
        "people": [0],
        "result": [0.0, 1.0],
        "helped": False,
    }
    return store.save_game(slug, "computer", record)


def missed_duel():
    """The duel's exercise below (only a3x3 hits for sure) as a full position, and a3x1."""
    return deal_duel_view(parse_duel_view(DUEL), HashStream("turning-browser")), "a3x1"


def missed_pyramids():
    """The first Touché-in-2 exercise of pyramiden-uebungen as a full state, the
    person's missed action (another card on a field), and the exercise."""
    puzzles = json.loads(data_file("packs", "pyramiden-uebungen.json").read_text())["puzzles"]
    puzzle = next(p for p in puzzles if p["n"] == 2)
    state = determinise(parse_view(puzzle["position"]))
    game = registered_game("touche-pyramiden")
    texts = [game.format_action(state, a) for a in game.legal_actions(state)]
    miss = next(t for t in texts if t != puzzle["key"] and not t.startswith("XX"))
    return state, miss, puzzle


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


def table_at(page, server, state, person: int) -> None:
    """The table just opened goes on from ``state`` (the person's seat ``person`` to
    act), with no move played yet."""
    table = server.opened[-1]
    table.states = [state]
    table.played = []
    # The page asks for the table again.  The table it shows already has no move and
    # may have the person to act, so wait for the answer itself (a new message), not
    # only for a table that looks like it: a click on the old hand is lost when the
    # answer re-draws the table.
    page.evaluate("window.beforeFlag = App.msg; tableCommand('flag')")
    page.wait_for_function(
        "seat => App.msg !== window.beforeFlag"
        " && App.msg.moves.length === 0 && App.msg.to_act === seat",
        arg=person,
    )


def analyse_after_resigning(page) -> dict:
    """Resign once a move is played, ask for the analysis on the end screen."""
    page.wait_for_function("App.msg.moves.length >= 1")
    page.click("#resign")
    page.wait_for_selector("#end:not([hidden])")
    assert page.is_visible("#analyse")
    page.click("#analyse")
    page.wait_for_function("App.analysis", timeout=120_000)
    return page.evaluate("App.analysis")


def replay_the_last_saved(page, server, slug: str) -> dict:
    """The menu, the game just saved replayed, its "Wendepunkt" pressed: the replay
    stands before the turning point."""
    saved = server.store.saved_games(slug)[-1]["id"]
    page.click("#menu-button")
    open_replay(page, slug, saved)
    page.click("#replay-next")
    page.click("#replay-turning")
    page.wait_for_function("App.replayAnalysis !== null", timeout=120_000)
    turning = page.evaluate("App.replayAnalysis.turning")
    assert page.evaluate("App.ply") == turning["number"] - 1
    return turning


def test_the_pyramids_analysis_marks_a_missed_sure_touche_on_the_end_screen(served):
    url, server = served
    state, _, puzzle = missed_pyramids()
    card, field = puzzle["key"].split(":")
    with menu_page(url) as page:
        page.select_option("#touche-pyramiden-players", "2")
        page.click("#start-touche-pyramiden-computer")
        page.wait_for_function("App.msg && App.msg.type === 'table'")
        # the table's game goes on from the exercise's position (seat 0, the person, to act)
        table_at(page, server, state, 0)
        legal = page.evaluate("App.msg.legal")
        hand = page.evaluate("App.msg.view.hand")
        # the person misses the sure Touché: a field of the sheet with another card
        missed = next(
            a
            for a in legal
            if a["act"] == "place" and a["text"] != puzzle["key"] and a["card"] != "XX"
        )
        play_by_hand(page, missed)
        analysis = analyse_after_resigning(page)
        first = analysis["moves"][0]
        assert first["mark"] == "??" and first["better"] == puzzle["key"] and first["sure"] == 2
        item = page.inner_text("#moves li >> nth=0")
        assert "??" in item and f"({puzzle['key']})" in item.split("besser:")[1]
        assert page.inner_text("#status").startswith("Auswertung fertig")
        # the turning point: the board before the decision, the key's card and field lit
        assert analysis["turning"]["number"] == 1
        page.click("#turning")
        shown_turning(page, hand, card, field, missed["text"], puzzle["key"])
        turning = replay_the_last_saved(page, server, "touche-pyramiden")
        assert turning["number"] == 1 and turning["better"] == puzzle["key"]
        shown_turning(page, hand, card, field, missed["text"], puzzle["key"])


def shown_turning(page, hand: list[str], card: str, field: str, played: str, key: str) -> None:
    """The pyramids' board at the turning point: the hand before the decision, the
    key's card and field lit, nothing else; the decision in words."""
    page.wait_for_selector(f".tp-cell.hinted[data-field='{field}']")
    assert page.eval_on_selector_all(".tp-cell.hinted", "els => els.length") == 1
    cards = page.eval_on_selector_all(".tp-card", "els => els.map(e => e.dataset.card)")
    assert sorted(cards) == sorted(hand)
    lit = page.eval_on_selector_all(".tp-card.hinted", "els => els.map(e => e.dataset.card)")
    assert set(lit) == {card}
    assert page.query_selector(".tp-moment") is None
    explanation = page.inner_text("#explanation")
    assert explanation.startswith("Wendepunkt bei Entscheidung 1: Blau setzt ")
    assert f"({played}) ??" in explanation and "besser: Blau setzt " in explanation
    assert f"({key}); damit war die Runde sicher zu gewinnen" in explanation


def duel_at(page, server, position) -> None:
    """A duel against the computer (leicht, standard, the person fencing A) that goes
    on from ``position`` with the person to act."""
    page.select_option("#touche-duell-strength", "leicht")
    page.select_option("#touche-duell-ruleset", "standard")
    page.select_option("#touche-duell-seat", "A")
    page.click("#start-touche-duell-computer")
    page.wait_for_function("App.msg && App.msg.people.includes(App.msg.to_act)")
    table_at(page, server, position, 0)


def test_the_duel_s_missed_sure_hit_is_its_turning_point(served):
    url, server = served
    position, miss = missed_duel()
    with menu_page(url) as page:
        duel_at(page, server, position)
        # the person attacks with one three instead of all three
        play_action(page, page.evaluate("App.msg.view"), miss)
        analysis = analyse_after_resigning(page)
        assert analysis["moves"][0]["mark"] == "??" and analysis["moves"][0]["better"] == "a3x3"
        turning = analysis["turning"]
        assert turning["number"] == 1 and turning["move"] == "a3x1"
        page.click("#turning")
        shown_duel_turning(page)
        turning = replay_the_last_saved(page, server, "touche-duell")
        assert turning["number"] == 1 and turning["better"] == "a3x3"
        shown_duel_turning(page)


def test_a_round_the_person_wins_is_worded_in_the_second_person(served):
    """The round's moment and the end screen say "Du gewinnst die Runde", not the
    person's fencer name with the third person ("Du (A) gewinnt die Runde")."""
    url, server = served
    position, _miss = missed_duel()
    with menu_page(url) as page:
        duel_at(page, server, position)
        play_action(page, page.evaluate("App.msg.view"), "a3x3")  # the sure hit
        page.wait_for_selector(".td-moment")
        moment = page.inner_text(".td-moment")
        assert "Du gewinnst die Runde." in moment and "gewinnt die Runde" not in moment


def shown_duel_turning(page) -> None:
    """The duel's table at the turning point: A's hand before the decision, its three
    threes raised and B's square lit as an attack; the decision in words."""
    page.wait_for_selector(".td-own.td-hinted")
    hand = page.eval_on_selector_all(".td-own", "els => els.map(e => Number(e.dataset.value))")
    assert hand == [1, 2, 3, 3, 3]
    raised = page.eval_on_selector_all(
        ".td-own.td-hinted.td-selected", "els => els.map(e => Number(e.dataset.value))"
    )
    assert raised == [3, 3, 3]
    lit = page.eval_on_selector_all(".td-sq.td-hinted", "els => els.map(e => e.className)")
    assert len(lit) == 1 and "td-attack" in lit[0]
    assert page.get_attribute(".td-sq.td-hinted", "data-square") == "15"
    assert page.query_selector(".td-moment") is None
    assert page.inner_text("#explanation") == (
        "Wendepunkt bei Entscheidung 1: A greift mit 1 × 3 an. (a3x1) ?? – besser: Angriff"
        " mit 3 × 3 (a3x3); damit war die Runde sicher zu gewinnen (hervorgehoben)."
    )
