"""The end screen of `fechtbuch serve` in the system Chromium (Playwright): every game
ends on one screen with its result, its reason, "Neue Partie", "Revanche" and the
analysis where the game has one; "Abbrechen" after a threefold repetition ends there
too (it used to throw "result is not iterable" and let the game go on).

Without Chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import pytest
from support.table_keeper import keeping_tables
from support.webserver import menu_page


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with keeping_tables(tmp_path_factory.mktemp("web"), "end-seed") as served_:
        yield served_


@pytest.fixture
def page(served):
    url, _ = served
    with menu_page(url) as opened:
        yield opened


def start(page, game: str, mode: str, **options) -> dict:
    for name, value in options.items():
        page.select_option(f"#{game}-{name}", value)
    page.click(f"#start-{game}-{mode}")
    page.wait_for_function("App.msg && App.msg.type === 'table'")
    return page.evaluate("App.msg")


def test_the_abort_after_a_threefold_repetition_ends_on_the_end_screen(page, served):
    _, server = served
    state = start(page, "battleklinge", "hotseat", cards="einsteiger")
    table = server.opened[-1]
    assert table.states[0] is table.state and not state["finished"]
    # the same position three times on the board (as tests/unit/test_web_protocol.py
    # builds it): the start, a move, the start again, the move, the start
    one = table.state
    two = table.game.apply(one, table.game.legal_actions(one)[0])
    table.states = [one, two, one, two, one]
    page.evaluate("tableCommand('flag')")  # the page asks for the table again
    page.wait_for_selector("#abort:not([hidden])")
    assert "zum dritten Mal" in page.inner_text("#status")
    page.click("#abort")
    page.wait_for_selector("#end:not([hidden])")
    assert page.evaluate("App.msg.finished && App.msg.ended_by") == "aborted"
    assert page.inner_text("#end-title") == "Abgebrochen – ohne Ergebnis."
    assert page.inner_text("#status") == "Abgebrochen – ohne Ergebnis."  # not "… ist am Zug"
    assert page.is_hidden("#abort") and page.is_hidden("#resign")
    assert page.evaluate("document.activeElement.id") == "end-title"


def test_resigning_ends_on_the_end_screen_and_the_rematch_starts_a_new_game(page):
    first = start(page, "battleklinge", "computer", strength="leicht", cards="einsteiger")
    page.wait_for_function("App.msg.people.includes(App.msg.to_act)")
    first = page.evaluate("App.msg")
    move = next(m for m in first["legal"] if m["from"])
    page.click(f".bk-board [data-square={move['from']}]")
    page.click(f".bk-board [data-square={move['to']}]")
    if page.is_visible("#card-dialog[open]"):
        page.click(f"#card-dialog-buttons [data-card={move['card']}]")
    page.wait_for_function("n => App.msg.moves.length > n", arg=len(first["moves"]))
    page.click("#resign")
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#end-title") == "Du hast verloren."
    assert page.is_hidden("#undo") and page.is_hidden("#resign")  # nothing to take back
    reason = page.inner_text("#end-reason")
    assert f"{first['names'][first['people'][0]]} gibt auf." in reason
    assert "gewinnt" not in reason  # "Du hast verloren." says the result once
    assert page.is_visible("#analyse")  # Battleklinge has an analysis
    assert page.is_visible("#end-rematch") and page.is_visible("#end-new")
    page.click("#end-rematch")
    page.wait_for_function("t => App.msg.table !== t && !App.msg.finished", arg=first["table"])
    second = page.evaluate("App.msg")
    assert second["game"] == "battleklinge" and second["mode"] == "computer"
    assert second["facts"]["strength"] == "leicht" and second["facts"]["cards"] == "einsteiger"
    assert page.is_hidden("#end")
    # "Neue Partie" leads to the menu, to the game's own card
    page.click("#resign")
    page.wait_for_selector("#end:not([hidden])")
    page.click("#end-new")
    page.wait_for_selector("#menu:not([hidden])")
    assert page.evaluate("document.activeElement.closest('.game-card').id") == "game-battleklinge"


def test_at_one_device_the_end_names_the_winner(page):
    start(page, "touche-duell", "hotseat", ruleset="kinder-kurz")
    page.click("#reveal")
    page.wait_for_function("!App.msg.covered")
    page.click("#resign")
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#end-title").endswith("gewinnt.")  # at one device: who won
    assert page.is_hidden("#analyse")  # no move was played: nothing to analyse
    page.select_option("#lang", "en")
    page.wait_for_function("document.getElementById('end-rematch').textContent === 'Rematch'")
    assert page.inner_text("#end-title").endswith("wins.")
